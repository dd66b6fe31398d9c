"""After the game: a member's record and rating, the leaderboard, the server's history, exports."""

from __future__ import annotations

from bot.core import ratings
from bot.core.records import GameSummary, Member
from bot.core.stats import MemberStats
from bot.core.store import RatingColumns, RatingRow
from bot.core.texts.board import level_name, side
from bot.core.texts.language import Language
from bot.core.texts.table import rules_name
from engine.record import Record
from engine.state import side_of


def rating(lang: Language, row: RatingColumns) -> str:
    """`1523 ± 301`, with a `?` while the member has fewer than MIN_GAMES rated games (provisional)."""
    shown = ratings.shown(row.mu)
    spread = round(ratings.SHOWN_PER_SKILL * row.sigma)
    if row.games < ratings.MIN_GAMES:
        return lang.gettext("**{rating}?** ± {spread}", rating=shown, spread=spread)
    return lang.gettext("**{rating}** ± {spread}", rating=shown, spread=spread)


def stats(lang: Language, name: str, record: MemberStats, row: RatingRow | None) -> str:
    """`/pachisi stats`: games, wins, captures and pieces home, then the rating."""
    counts = [
        lang.ngettext("{count} game", "{count} games", record.games),
        lang.ngettext("{count} win", "{count} wins", record.wins),
        lang.ngettext("{count} capture", "{count} captures", record.captures),
        lang.ngettext("{count} piece home", "{count} pieces home", record.pieces_home),
    ]
    head = lang.gettext("**{name}**: {counts}.", name=name, counts=", ".join(counts))
    if row is None:
        return (
            head
            + "\n"
            + lang.gettext("Not rated yet: a finished game against people or computers gives a rating.")
        )
    # Each number takes its own plural form: "1 game, 1 win", never "1 wins in 2 games".
    people = lang.gettext(
        "against people: {games}, {wins}",
        games=lang.ngettext("{count} game", "{count} games", row.games_people),
        wins=lang.ngettext("{count} win", "{count} wins", row.wins_people),
    )
    computers = lang.gettext(
        "against computers: {games}, {wins}",
        games=lang.ngettext("{count} game", "{count} games", row.games_computers),
        wins=lang.ngettext("{count} win", "{count} wins", row.wins_computers),
    )
    line = lang.gettext(
        "Rating {rating} · {people} · {computers}.",
        rating=rating(lang, row),
        people=people,
        computers=computers,
    )
    return head + "\n" + line


def leaderboard(lang: Language, rows: list[RatingColumns]) -> str:
    if not rows:
        return lang.ngettext(
            "Nobody has played {count} rated game in this server yet.",
            "Nobody has played {count} rated games in this server yet.",
            ratings.MIN_GAMES,
        )
    return "\n".join([lang.gettext("**Leaderboard** (by rating, surest first)"), *board_lines(lang, rows)])


def board_lines(lang: Language, rows: list[RatingColumns]) -> list[str]:
    """`1. <@user>: **1560** ± 210, 4 games, 3 wins`, one line per member, best first."""
    lines = []
    for rank, row in enumerate(rows, start=1):
        wins = row.wins_people + row.wins_computers
        lines.append(
            lang.gettext(
                "{rank}. <@{user}>: {rating}, {games}, {wins}",
                rank=rank,
                user=row.user_id,
                rating=rating(lang, row),
                games=lang.ngettext("{count} game", "{count} games", row.games),
                wins=lang.ngettext("{count} win", "{count} wins", wins),
            )
        )
    return lines


def _member(lang: Language, member: Member) -> str:
    if isinstance(member, int):
        return f"<@{member}>"
    return lang.gettext("computer ({level})", level=level_name(lang, member.removeprefix("computer:")))


def _side(lang: Language, game: GameSummary, side: int) -> str:
    """`@Asha + computer (normal)`: a side's seats joined by +, each seat's holders in turn by →
    (`@Ravi → computer (normal)`), so both sides read as the partnerships they are."""
    seats = [
        " → ".join(_member(lang, m) for m in players)
        for seat, players in game.seats.items()
        if side_of(seat, game.rules.players) == side
    ]
    return " + ".join(seats) or lang.gettext("nobody")


def history_line(lang: Language, game: GameSummary) -> str:
    rules = game.rules
    shape = lang.ngettext("{count} player", "{count} players", rules.players)
    if rules.pieces != 4:
        pieces = lang.ngettext("{count} piece", "{count} pieces", rules.pieces)
        shape = lang.gettext("{players}, {pieces}", players=shape, pieces=pieces)
    sides = lang.gettext("{first} vs {second}", first=_side(lang, game, 0), second=_side(lang, game, 1))
    if game.result == "active":
        result = lang.gettext("in play")
    elif game.result == "*":
        result = lang.gettext("abandoned")
    elif game.result == "draw":
        result = lang.gettext("draw")
    else:
        result = won(lang, 0 if game.result.startswith("black") else 1, rules.players)
    when = lang.moment(game.created_at)
    throws = lang.ngettext("{count} throw", "{count} throws", game.throws)
    return f"`#{game.id}` " + lang.gettext(
        "{when} UTC · {rules}, {shape} · {sides} · {result} · {throws}",
        when=when, rules=rules_name(lang, rules), shape=shape, sides=sides, result=result, throws=throws,
    )  # fmt: skip


def history(lang: Language, games: list[GameSummary]) -> str:
    if not games:
        return lang.gettext("No games in this server yet. Start one with `/pachisi start`.")
    lines = [lang.gettext("**Recent games**"), *(history_line(lang, g) for g in games)]
    lines.append(
        lang.gettext(
            "Replay one with `/pachisi replay game:<number>`, or get its record with `/pachisi export`."
        )
    )
    return "\n".join(lines)


def record_result(lang: Language, record: Record) -> str:
    """How a recorded game stands: `Black + Yellow won`, `a draw (frozen)`, `abandoned`..."""
    if record.result == "*":
        return (
            lang.gettext("abandoned")
            if record.termination == "abandoned"
            else lang.gettext("still being played")
        )
    if record.result == "draw":
        if record.termination == "frozen":
            return lang.gettext("a draw (frozen)")
        return lang.gettext("a draw (throw limit)")
    return won(
        lang, 0 if record.result.startswith("black") else 1, record.rules.players,
        resigned=record.termination == "resignation",
    )  # fmt: skip


def won(lang: Language, winner: int, players: int, *, resigned: bool = False) -> str:
    """`Black won`, `Black + Yellow won`: the plural form follows the side's seats, so a language
    whose verb agrees with a partnership (Hindi जीतीं) can say so."""
    seats = 2 if players == 4 else 1
    name = side(lang, winner, players)
    if resigned:
        return lang.ngettext("{side} won by resignation", "{side} won by resignation", seats, side=name)
    return lang.ngettext("{side} won", "{side} won", seats, side=name)


def export(lang: Language, game_id: int, record: Record, url: str | None = None) -> str:
    """The export's answer; `url`: the project's page (PROJECT_URL), where the format is described."""
    throws = lang.ngettext("{count} throw", "{count} throws", len(record.throws))
    text = lang.gettext(
        "The record of game #{game}: {throws}, {result}. It is the game written down throw by throw, like "
        "a chess game's PGN: keep it, share it, or open it in any text editor. `/pachisi rules` "
        "explains how its moves are written (Notation).",
        game=game_id,
        throws=throws,
        result=record_result(lang, record),
    )
    if url:
        text += " " + lang.gettext("The format in full, under Game records: <{url}>", url=url)
    return text


def replay(lang: Language, game_id: int, record: Record) -> str:
    throws = lang.ngettext("{count} throw", "{count} throws", len(record.throws))
    return lang.gettext(
        "Game #{game}: {throws}, {result}.", game=game_id, throws=throws, result=record_result(lang, record)
    )


def replay_too_large(lang: Language, game_id: int) -> str:
    return lang.gettext("The replay of game #{game} is too large to post.", game=game_id)
