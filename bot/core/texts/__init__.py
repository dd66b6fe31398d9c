"""Every word members read in chat, in one home: the turn messages, the table card, refusals, the
answers to commands, the rules and help. Each function takes the `Language` to write in and the
game's state (never Discord objects); English is the source text.

- `board`: seats, sides, moves and the lettered choices (a place's name and a move in places are
  the picture's, `render.words.place_words` and `move_places`, so both say them alike);
- `turns`: the log of throws, the prompt, the result and its summary;
- `table`: the table card, seats taken and given up, start and end;
- `refusals`: one sentence per refusal key (`bot.core.errors`);
- `answers`: answers to one member (settings, chances, help, rules) and button labels;
- `hints`: the Hint's answer;
- `records`: stats, leaderboard, history, exports;
- `rules`: the rules' "In short" paragraphs and the help page, as docs/RULES.md has them.

The board's own words (panels, banner, legend, chart, replay captions) are the renderer's:
`render/words.py`.
"""

from bot.core.texts.language import ENGLISH, Language

__all__ = ["ENGLISH", "Language"]
