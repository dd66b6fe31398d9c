"""The daily puzzle's words: the question, the verdict with every choice's chance and reasons (the
Hint's words), the tactic with its place in the rules, streaks, and the servers' daily post."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from bot.core.puzzles import Daily, Streak
from bot.core.texts.board import choice_letter, colour, move_steps
from bot.core.texts.hints import choice_line, reasons_room
from bot.core.texts.language import Language
from engine.analysis import Analysis
from engine.puzzles import EASY, MEDIUM, Puzzle


def tactic_name(lang: Language, tactic: str) -> str:
    names = {
        "capture_condition": lang.gettext("the capture that opens home"),
        "endgame": lang.gettext("the endgame squares"),
        "partner": lang.gettext("playing the side, not the seat"),
        "grace": lang.gettext("the decision after a grace"),
        "blockade": lang.gettext("blockades"),
        "capture": lang.gettext("captures"),
        "nine_gap": lang.gettext("the nine-gap"),
        "castle": lang.gettext("castles"),
    }
    return names[tactic]


def difficulty(lang: Language, puzzle: Puzzle) -> str:
    """The puzzle's grade: the strongest computer that misses its best move (engine/puzzles.py)."""
    if puzzle.difficulty == EASY and puzzle.easy < 0.5:
        return lang.gettext("Difficulty: ★☆☆ (the easy computer misses it, the normal one finds it).")
    if puzzle.difficulty == EASY:
        return lang.gettext("Difficulty: ★☆☆ (even the easy computer finds it).")
    if puzzle.difficulty == MEDIUM:
        return lang.gettext("Difficulty: ★★☆ (the normal computer misses it, the hard one finds it).")
    return lang.gettext("Difficulty: ★★★ (even the hard computer misses it).")


def streak(lang: Language, record: Streak) -> str:
    return lang.ngettext(
        "Your streak: {count} day in a row (best {best}).",
        "Your streak: {count} days in a row (best {best}).",
        record.current,
        best=record.best,
    )


def question(lang: Language, daily: Daily) -> str:
    """The puzzle's message above its board and buttons."""
    puzzle = daily.puzzle
    seat = puzzle.position.turn
    if puzzle.position.rules.players == 4:
        task = lang.gettext(
            "**Daily puzzle #{number}** ({day}): {colour}, partnered with {partner}, to play a throw of "
            "**{throw}**. Which move is best?",
            number=daily.number,
            day=daily.day.isoformat(),
            colour=colour(lang, seat),
            partner=colour(lang, (seat + 2) % 4),
            throw=puzzle.throw,
        )
    else:
        task = lang.gettext(
            "**Daily puzzle #{number}** ({day}): {colour} to play a throw of **{throw}**, two players. "
            "Which move is best?",
            number=daily.number,
            day=daily.day.isoformat(),
            colour=colour(lang, seat),
            throw=puzzle.throw,
        )
    lines = [
        task,
        lang.gettext("Choose on the buttons: one answer counts."),
        difficulty(lang, puzzle),
        streak(lang, daily.streak),
    ]
    return "\n".join(lines)


def verdict(lang: Language, daily: Daily, analysis: Analysis) -> str:
    """The answer's result: right or not, every choice's chance and reasons, the tactic, the streak."""
    answer = daily.answer
    assert answer is not None
    puzzle, position = daily.puzzle, daily.puzzle.position
    moves = puzzle.moves()
    letters = {move: choice_letter(i) for i, move in enumerate(moves)}
    chosen = move_steps(lang, position, answer.move)
    if answer.solved:
        head = lang.gettext(
            "✅ **Right!** {letter}, {move}, is the best move of puzzle #{number}.",
            letter=letters[answer.move],
            move=chosen,
            number=daily.number,
        )
    else:
        head = lang.gettext(
            "❌ **Not this time.** You chose {letter}, {move}; the best move of puzzle #{number} is "
            "**{best_letter}**, {best}.",
            letter=letters[answer.move],
            move=chosen,
            number=daily.number,
            best_letter=letters[puzzle.best],
            best=move_steps(lang, position, puzzle.best),
        )
    lines = [
        head,
        lang.gettext(
            "Each choice's chance to win (if every seat played like the normal computer from there):"
        ),
    ]
    by_move = {choice.move: choice for choice in analysis.choices}
    room = reasons_room(len(moves))
    lines += [choice_line(lang, by_move[move], position, letters, room) for move in moves]
    lines.append(
        lang.gettext(
            "The tactic: **{tactic}**. More in the rules' strategy: `/pachisi rules section:{section}`.",
            tactic=tactic_name(lang, puzzle.tactic),
            section=lang.pgettext("command choice", "Strategy"),
        )
    )
    lines.append(streak(lang, daily.streak))
    lines.append(lang.gettext("The next puzzle comes at midnight UTC."))
    return "\n".join(lines)


def stats_line(lang: Language, record: Streak) -> str:
    """The daily puzzle in `/pachisi stats`."""
    if not record.answered:
        return lang.gettext("Daily puzzle: none answered yet (`/pachisi puzzle`).")
    return lang.ngettext(
        "Daily puzzle: streak {current} (best {best}), {solved} solved of {count} answered.",
        "Daily puzzle: streak {current} (best {best}), {solved} solved of {count} answered.",
        record.answered,
        current=record.current,
        best=record.best,
        solved=record.solved,
    )


def daily_post(lang: Language, number: int, day: date, pings: Sequence[int]) -> str:
    """The servers' daily post: short, and a mention only for members who asked for one."""
    text = lang.gettext(
        "🧩 The daily Pachisi puzzle #{number} ({day}) is ready: `/pachisi puzzle`, one answer each.",
        number=number,
        day=day.isoformat(),
    )
    if pings:
        text += "\n" + " ".join(f"<@{user}>" for user in pings)
    return text


def channel_set(lang: Language, channel_id: int) -> str:
    return lang.gettext(
        "The daily puzzle will be posted in <#{channel}> every day at midnight UTC, pinging nobody: "
        "members who want a ping use `/pachisi puzzle-ping on`.",
        channel=channel_id,
    )


def channel_stopped(lang: Language, was_set: bool) -> str:
    if was_set:
        return lang.gettext("The daily puzzle is no longer posted in this server.")
    return lang.gettext("The daily puzzle was not posted in this server: nothing changed.")


def ping_set(lang: Language, on: bool, has_channel: bool) -> str:
    if on and has_channel:
        return lang.gettext("The daily puzzle post in this server will ping you.")
    if on:
        return lang.gettext(
            "The daily puzzle post will ping you once this server has one: its admins choose the "
            "channel with `/pachisi puzzle-channel`."
        )
    return lang.gettext("The daily puzzle post in this server will not ping you.")
