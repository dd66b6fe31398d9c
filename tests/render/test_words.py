"""The pictures' words: each words function in English, and a catalog that marks every sentence to
show that every word drawn (board, legend, chart, replay) comes through `render.words`."""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Callable, Iterator
from functools import cache

import pytest
from PIL import Image, ImageSequence

from engine import Move, Position
from engine.board import HOME, NUM_SQUARES
from engine.players import LEVELS
from engine.record import Record
from engine.rules import Rules
from render import DrawnMove, board_png, chart, layout, legend, legend_png, panels, sprites
from render import words as w
from render.chart import game_png
from render.draw import _palette
from render.replay import replay_gif
from render.words import ENGLISH, Words
from tests.render.helpers import decode, hindi, random_record


class Marked(gettext.NullTranslations):
    """Every sentence in brackets, and the plural form named: a word drawn without them did not
    come through the catalog."""

    def gettext(self, message: str) -> str:
        return f"[{message}]"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"[one: {msgid1}]" if n == 1 else f"[many: {msgid2}]"


MARKED = Words("x-marked", Marked())


class Asked(gettext.NullTranslations):
    """Remembers the sentences it was asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def gettext(self, message: str) -> str:
        self.messages.append(message)
        return message


FOUR = (
    "black:0,3,3,25 red:0,8,71,84 yellow:59,84,84,84 green:0,0,42,84"
    " turn:red captured:black+yellow rules:classic"
)
WON = (
    "black:84,84,84,84 red:0,5,84,84 yellow:84,84,84,84 green:0,0,0,84 turn:red"
    " captured:black+yellow rules:classic result:black+yellow"
)
TWO_WON = "black:84,84,84,84 yellow:0,30,84,84 turn:yellow captured:black rules:classic result:black"
DRAWN = "black:0,20,84,84 yellow:0,0,40,60 turn:black captured:- rules:classic result:draw"


# --- each words function, in English ---------------------------------------------------------------


def test_seats_and_sides_are_named_by_their_colours() -> None:
    assert [w.seat_name(ENGLISH, seat) for seat in range(4)] == ["Black", "Red", "Yellow", "Green"]
    assert w.seats_words(ENGLISH, []) == ""
    assert w.seats_words(ENGLISH, [1]) == "Red"
    assert w.seats_words(ENGLISH, [0, 2]) == "Black + Yellow"
    assert w.side_words(ENGLISH, 0, 4) == "Black + Yellow"
    assert w.side_words(ENGLISH, 1, 4) == "Red + Green"
    assert w.side_words(ENGLISH, 1, 2) == "Yellow"


def test_players_are_named_as_their_panels_name_them() -> None:
    assert [w.computer_name(ENGLISH, level) for level in ("easy", "normal", "hard")] == [
        "Computer · easy",
        "Computer · normal",
        "Computer · hard",
    ]
    assert w.computer_name(ENGLISH, "random") == "Computer · random"
    asked = Asked()
    for level in LEVELS:  # each level a whole sentence of its own, as a translator sees it
        w.computer_name(Words("x-asked", asked), level)
        assert asked.messages[-1] == f"Computer · {level}"
    assert w.names_words(ENGLISH, ["Ravi"]) == "Ravi"
    assert w.names_words(ENGLISH, ["Ravi", "Computer · normal", "Asha"]) == "Ravi, Computer · normal, Asha"


def test_a_place_is_named_by_what_the_board_shows() -> None:
    assert w.place_words(ENGLISH, 0, 0) == "the Charkoni"
    assert w.place_words(ENGLISH, 0, HOME) == "home"
    assert w.place_words(ENGLISH, 0, 8) == "the tip of Black's arm"
    assert w.place_words(ENGLISH, 0, 12) == "Black's castle"
    assert w.place_words(ENGLISH, 0, 21) == "Red's castle"
    assert w.place_words(ENGLISH, 1, 20) == "Yellow's arm"


def test_a_move_in_words_says_between_which_places_and_whom_it_took() -> None:
    """Issue 58, slip 10: the board numbers no square, so its words name none."""
    assert w.move_words(ENGLISH, Move(0, 0, 1)) == "Black: out of the Charkoni to Black's arm"
    assert w.move_words(ENGLISH, Move(0, 0, 8)) == "Black: out of the Charkoni to the tip of Black's arm"
    assert w.move_words(ENGLISH, Move(1, 5, 30)) == "Red: from Red's arm to Yellow's arm"
    assert w.move_words(ENGLISH, Move(0, 5, 7)) == "Black: along Black's arm"
    assert w.move_words(ENGLISH, Move(2, 80, HOME)) == "Yellow: home from Yellow's way home"
    assert w.move_words(ENGLISH, Move(0, 5, 30), [1]) == "Black: from Black's arm to Red's arm, takes Red"
    assert w.move_words(ENGLISH, Move(0, 5, 30), [1, 3]).endswith(", takes Red + Green")
    assert w.move_words(ENGLISH, Move(1, 0, 1), [2]) == "Red: out of the Charkoni to Red's arm, takes Yellow"
    hatch = Move(0, 12, HOME)
    assert w.move_words(ENGLISH, hatch) == "Black: home from Black's castle"
    assert w.move_words(ENGLISH, hatch, (), Position.initial()) == (
        "Black: home from Black's castle through the escape hatch"
    )


def test_the_panels_words() -> None:
    labels = w.panel_labels(ENGLISH)
    assert (labels.wins, labels.to_move, labels.to_throw) == ("★ WINS", "▶ TO MOVE", "▶ TO THROW")
    assert (labels.waiting, labels.home) == ("Waiting", "Home")
    assert (labels.no_capture_needed, labels.captured, labels.not_captured) == (
        "No capture needed",
        "✓ Captured: may go home",
        "✗ No capture yet",
    )
    assert (labels.last_moves, labels.none_yet) == ("Last moves", "None yet")
    assert (labels.this_throw, labels.throw_lost) == ("This throw", "No move: the throw is lost")
    assert labels.grace == "Grace: one more throw"
    assert [w.seat_line(ENGLISH, seat) for seat in range(4)] == [
        "Black · south",
        "Red · east",
        "Yellow · north",
        "Green · west",
    ]
    assert [w.partner_words(ENGLISH, seat) for seat in (0, 1)] == ["Partner of Yellow", "Partner of Green"]
    assert w.to_throw_words(ENGLISH, "Alice") == "Alice to throw"
    assert [w.more_choices_words(ENGLISH, n) for n in (1, 2)] == ["and 1 more", "and 2 more"]
    assert w.throw_value_words(ENGLISH, 25) == "= 25"


def test_the_banner_names_the_winners_and_the_counts_or_why_it_is_a_draw() -> None:
    assert w.banner_lines(ENGLISH, Position.parse(WON), None) == (
        "Black + Yellow win",
        "Black + Yellow 8/8 home · Red + Green 3/8 home",
    )
    assert w.banner_lines(ENGLISH, Position.parse(TWO_WON), None) == (
        "Black wins",
        "Black 4/4 home · Yellow 2/4 home",
    )
    assert w.banner_lines(ENGLISH, Position.parse(TWO_WON), "resignation")[0] == "Black wins by resignation"
    assert (
        w.banner_lines(ENGLISH, Position.parse(WON), "resignation")[0] == "Black + Yellow win by resignation"
    )
    drawn = Position.parse(DRAWN)
    assert not drawn.is_frozen()
    assert w.banner_lines(ENGLISH, drawn, None)[0] == "Draw: the 10,000-throw limit"
    assert w.banner_lines(ENGLISH, drawn, "frozen")[0] == "Draw: no one can move"
    assert w.banner_lines(ENGLISH, Position.parse(FOUR), None) == ("", "")


def test_the_legend_chart_and_replay_words() -> None:
    assert w.legend_title(ENGLISH) == "How to read the board"
    rows = w.legend_rows(ENGLISH)
    assert len(rows) == 8
    assert rows[0] == "The seats: Black, Red, Yellow, Green"
    assert rows[4] == "Choice A: that piece moves there (button A)"
    assert tuple(w.chart_labels(ENGLISH)) == ("Chance to win", "throws", "capture")
    assert w.percent_words(ENGLISH, 25) == "25 %"
    assert w.replay_start_caption(ENGLISH, 385) == "start: 385 throws"
    assert w.replay_start_caption(ENGLISH, 1) == "start: 1 throw"
    assert w.replay_caption(ENGLISH, 7, 7, 385) == "throw 7 of 385"
    assert w.replay_caption(ENGLISH, 7, 12, 385) == "throws 7-12 of 385"
    assert w.replay_caption(ENGLISH, 385, 385, 385, "Black wins") == "throw 385 of 385: Black wins"
    assert w.replay_caption(ENGLISH, 380, 385, 385, "abandoned") == "throws 380-385 of 385: abandoned"
    assert w.outcome_words(ENGLISH, "black+yellow", "win") == "Black + Yellow win"
    assert w.outcome_words(ENGLISH, "yellow", "resignation") == "Yellow wins by resignation"
    assert w.outcome_words(ENGLISH, "draw", "frozen") == "drawn, frozen"
    assert w.outcome_words(ENGLISH, "draw", "throw_limit") == "drawn at the throw limit"
    assert w.outcome_words(ENGLISH, "*", "unfinished") == "unfinished"


# --- through a catalog ---------------------------------------------------------------------------


def test_every_sentence_goes_through_the_catalog_whole() -> None:
    assert w.move_words(MARKED, Move(0, 5, 30), [1, 3]) == "[{move}, takes {seats}]".format(
        move="[{seat}: from {src} to {dst}]".format(seat="[Black]", src="[Black]'s arm", dst="[Red]'s arm"),
        seats="[[Red] + [Green]]",
    )
    assert w.side_words(MARKED, 0, 4) == "[[Black] + [Yellow]]"
    assert w.computer_name(MARKED, "hard") == "[Computer · hard]"
    assert w.more_choices_words(MARKED, 1) == "[one: and 1 more]"
    assert w.more_choices_words(MARKED, 3) == "[many: and 3 more]"
    assert w.banner_lines(MARKED, Position.parse(TWO_WON), None)[0] == "[one: [Black] wins]"
    assert w.replay_start_caption(MARKED, 2) == "[many: start: 2 throws]"
    marked = [
        *w.panel_labels(MARKED),
        *w.legend_rows(MARKED),
        *w.chart_labels(MARKED),
        w.legend_title(MARKED),
        w.seat_line(MARKED, 3),
        w.partner_words(MARKED, 2),
        w.to_throw_words(MARKED, "Alice"),
        w.throw_value_words(MARKED, 6),
        w.percent_words(MARKED, 50),
        w.names_words(MARKED, ["Ravi", "Asha"]),
        w.replay_caption(MARKED, 1, 4, 9, "x"),
        *(w.outcome_words(MARKED, result, how) for result, how in (("draw", "frozen"), ("*", "abandoned"))),
        *w.banner_lines(MARKED, Position.parse(DRAWN), None),
    ]
    assert all(text.startswith("[") and text.endswith("]") for text in marked), marked


def _boards(words: Words) -> dict[str, bytes]:
    """Boards showing every panel word: four seats with a throw, a grace and choices; two seats
    with a story, a full throw box, a lost throw and none thrown; a win; a draw; no capture needed."""
    four = Position.parse(FOUR)
    two_before = Position.parse("black:0,0,0,19 yellow:0,0,0,5 turn:black captured:- rules:classic")
    capture = Move(0, 19, 21)
    two = two_before.after(2, capture)
    many = Position.parse("black:0,10,20,30 yellow:0,40,50,60 turn:yellow captured:- rules:classic")
    # Two throws' moves: more than the throw box lists ("and 1 more"), which one throw never has.
    six = [*many.legal_moves(2), *many.legal_moves(3)]
    assert len(six) == 6
    return {
        "four": board_png(four, throw=25, choices=four.legal_moves(25), words=words),
        "two": board_png(
            two, moves=[DrawnMove(capture, two_before)], throw=10, choices=two.legal_moves(10), words=words
        ),
        "full": board_png(many, throw=2, choices=six, names={2: "Alice"}, words=words),
        "lost": board_png(many, throw=25, choices=[], words=words),
        "waiting": board_png(many, words=words),
        "won": board_png(Position.parse(WON), words=words),
        "drawn": board_png(Position.parse(DRAWN), words=words),
        "standard": board_png(Position.initial(Rules.parse("standard")), words=words),
    }


def _differs(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int]) -> bool:
    return a.crop(box).tobytes() != b.crop(box).tobytes()


def test_a_board_in_another_language_differs_only_where_words_are() -> None:
    english = {name: decode(png) for name, png in _boards(ENGLISH).items()}
    marked = {name: decode(png) for name, png in _boards(MARKED).items()}
    for name in ("four", "two", "full", "lost", "waiting"):
        for square in range(NUM_SQUARES):  # no words on the board's squares
            assert not _differs(english[name], marked[name], layout.square_box(square)), (name, square)
    for seat in range(4):
        assert _differs(english["four"], marked["four"], layout.panel_box(seat)), seat
    for corner in (panels.STORY_CORNER, panels.THROW_CORNER):
        for name in ("two", "full", "lost", "waiting"):
            assert _differs(english[name], marked[name], layout.panel_box(corner)), (name, corner)
    for name in ("won", "drawn"):
        assert _differs(english[name], marked[name], layout.BANNER_BOX), name


def test_the_panel_cache_never_shares_a_part_between_languages() -> None:
    first = _boards(ENGLISH)
    marked = _boards(MARKED)
    again = _boards(ENGLISH)
    assert first == again
    assert all(first[name] != marked[name] for name in first)


def test_the_legend_in_another_language_keeps_its_pictures() -> None:
    english, marked = decode(legend_png()), decode(legend_png(MARKED))
    assert english.size == marked.size
    pictures = (0, legend.TOP, 24 + 200, english.size[1])
    assert not _differs(english, marked, pictures)
    assert _differs(english, marked, (0, 0, english.size[0], legend.TOP))
    for row in range(8):
        top = legend.TOP + row * legend.ROW
        assert _differs(english, marked, (24 + 200, top, english.size[0], top + legend.ROW)), row


@cache
def _record(rules_text: str, seed: int) -> Record:
    return random_record(rules_text, seed, {"Yellow": "Ravi (user 2); computer (hard)"})


def _chart(words: Words) -> Image.Image:
    record = _record("classic", 1)
    played = [(t.throw, t.move) for t in record.throws]
    return decode(game_png(record.positions[0], played, words))


def test_the_chart_in_another_language_keeps_its_plot() -> None:
    english, marked = _chart(ENGLISH), _chart(MARKED)
    plot = (chart.LEFT + 1, chart.TOP + 1, chart.WIDTH - chart.RIGHT - 1, chart.HEIGHT - chart.BOTTOM - 1)
    assert not _differs(english, marked, plot)
    assert _differs(english, marked, (0, 0, chart.WIDTH, chart.TOP))  # the title and the sides
    assert _differs(english, marked, (0, 0, chart.LEFT, chart.HEIGHT))  # the chance axis
    assert _differs(english, marked, (chart.WIDTH // 2, chart.HEIGHT - 20, chart.WIDTH, chart.HEIGHT))


def _frames(words: Words) -> list[Image.Image]:
    gif = Image.open(io.BytesIO(replay_gif(_record("classic,players=2", 2), words=words)))
    return [frame.convert("RGB") for frame in ImageSequence.Iterator(gif)]


def test_the_replay_in_another_language_captions_every_frame() -> None:
    english, marked = _frames(ENGLISH), _frames(MARKED)
    assert len(english) == len(marked)
    caption = (0, 0, layout.WIDTH, layout.MARGIN)
    assert all(_differs(a, b, caption) for a, b in zip(english, marked, strict=True))
    assert _differs(english[0], marked[0], layout.panel_box(2))  # Ravi, Computer · hard


# --- nothing drawn bypasses the catalog ----------------------------------------------------------

NAMES = {0: "Alice", 1: "Bob"}
NOT_WORDS = re.compile(r"[0-9]+|[A-Z]")
"""Numbers (counts, the chart's ticks) and letters (the choices', the pieces') are drawn as they are."""


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the renderer draws from now on, with its caches of drawn parts emptied."""
    _palette()  # made once from English sample boards, which are no member's picture
    found: list[str] = []
    text, centred = sprites.text, sprites.centred_text

    def record_text(words: str, *args: object) -> object:
        found.append(words)
        return text(words, *args)  # type: ignore[arg-type]

    def record_centred(draw: object, centre: object, words: str, *args: object) -> None:
        found.append(words)
        centred(draw, centre, words, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(sprites, "text", record_text)
    monkeypatch.setattr(sprites, "centred_text", record_centred)
    panels._patch.cache_clear()
    legend._legend_image.cache_clear()
    yield found
    panels._patch.cache_clear()


def test_every_word_drawn_comes_from_the_catalog(drawn: list[str]) -> None:
    makers: list[Callable[[], object]] = [
        lambda: _boards(MARKED),
        lambda: board_png(Position.parse(FOUR), names=NAMES, words=MARKED),
        lambda: legend_png(MARKED),
        lambda: _chart(MARKED),
        lambda: _frames(MARKED),
    ]
    for make in makers:
        make()
    expected = {
        *w.panel_labels(MARKED),
        *w.legend_rows(MARKED),
        *w.chart_labels(MARKED),
        w.more_choices_words(MARKED, 2),
        w.replay_start_caption(MARKED, len(_record("classic,players=2", 2).throws)),
    }
    assert expected <= set(drawn), expected - set(drawn)
    # A name too long for one line is drawn on two (render.panels.name_lines), a side box's entry
    # on up to three: the lines after a first one that opens brackets, until they close, go on it.
    continued: set[str] = set()
    depth = 0
    for text in drawn:
        if depth > 0:
            continued.add(text)
        elif not text.startswith("["):
            continue
        depth += text.count("[") - text.count("]")
        depth = max(depth, 0)
    stray = {
        text
        for text in drawn
        if not text.startswith("[")
        and not NOT_WORDS.fullmatch(text)
        and text not in NAMES.values()
        and text not in continued
    }
    assert not stray, stray


class Long(gettext.NullTranslations):
    """Every sentence three times as long, as a translation may be."""

    def gettext(self, message: str) -> str:
        return " ".join([message] * 3)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return " ".join([msgid1 if n == 1 else msgid2] * 3)


@pytest.mark.parametrize(
    "words", [ENGLISH, Words("x-long", Long()), hindi()], ids=["english", "long", "hindi"]
)
def test_longer_words_keep_to_their_place(words: Words, monkeypatch: pytest.MonkeyPatch) -> None:
    """No text drawn on a board (or a part of it), the legend or the chart runs off it or over
    another text."""
    written: dict[int, tuple[Image.Image, list[tuple[int, int, int, int]]]] = {}
    write = sprites.write

    def record(image: Image.Image, *args: object, **kwargs: object) -> tuple[int, int, int, int]:
        box = write(image, *args, **kwargs)  # type: ignore[arg-type]
        written.setdefault(id(image), (image, []))[1].append(box)
        return box

    monkeypatch.setattr(sprites, "write", record)
    monkeypatch.setattr(chart, "write", record)
    panels._patch.cache_clear()
    legend._legend_image.cache_clear()
    _boards(words)
    legend_png(words)
    _chart(words)
    panels._patch.cache_clear()
    assert len(written) > 10
    for image, boxes in written.values():
        width, height = image.size
        for k, (left, top, right, bottom) in enumerate(boxes):
            assert 0 <= left <= right <= width and 0 <= top <= bottom <= height, boxes[k]
            for other in boxes[k + 1 :]:
                apart = right <= other[0] or other[2] <= left or bottom <= other[1] or other[3] <= top
                assert apart, (boxes[k], other)


def test_no_hindi_word_is_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text of the Hindi boards, legend and chart fits its place whole: none is shortened with
    an ellipsis (a cut Devanagari word may read as another word)."""
    cut: list[str] = []
    fitted: list[str] = []
    fit = sprites.fit

    def record(words: str, sizes: tuple[int, ...], width: int) -> tuple[str, int]:
        shown, size = fit(words, sizes, width)
        fitted.append(words)
        if shown != words:
            cut.append(words)
        return shown, size

    monkeypatch.setattr(sprites, "fit", record)
    monkeypatch.setattr(chart, "fit", record)
    panels._patch.cache_clear()
    legend._legend_image.cache_clear()
    names = {0: "आशा", 1: "कंप्यूटर · माहिर", 2: "Ravi Shankar Prasad", 3: "कंप्यूटर · सामान्य"}
    _boards(hindi())
    board_png(Position.parse(FOUR), names=names, words=hindi())
    legend_png(hindi())
    _chart(hindi())
    panels._patch.cache_clear()
    assert len({words for words in fitted if re.search("[\u0900-\u097f]", words)}) > 30
    assert not cut, cut
