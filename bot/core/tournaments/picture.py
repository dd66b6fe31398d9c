"""The standings picture of a tournament: its snapshot turned into the rows `render.standings`
draws, names as the members entered (their display names then), words in the table's language."""

from __future__ import annotations

from bot.core.texts.language import Language
from bot.core.texts.table import member_name
from bot.core.tournaments.snapshot import Tournament
from render.standings import Pairing, Standing, standings_png


def standings_picture(lang: Language, tournament: Tournament, next_round: int | None = None) -> bytes:
    """The PNG: the standings now, and the tables of `next_round` when it is paired."""
    names = {e.member: member_name(lang, e.member, {}, e.name) for e in tournament.entrants}
    rows = [
        Standing(
            line.rank,
            names[line.member],
            line.points,
            line.buchholz,
            line.opponents_rating,
            line.games,
            line.withdrawn,
        )
        for line in tournament.standings()
    ]
    pairings = [
        Pairing(t.number, (_names(names, t.sides[0]), _names(names, t.sides[1])))
        for t in (tournament.round_tables(next_round) if next_round is not None else [])
    ]
    shown_round = tournament.current_round if next_round is None else next_round - 1
    return standings_png(
        tournament.name,
        shown_round,
        tournament.rounds,
        rows,
        pairings,
        level=tournament.level,
        finished=tournament.status == "finished",
        words=lang.picture,
    )


def _names(names: dict[int, str], side: tuple[int | None, ...]) -> tuple[str | None, ...]:
    return tuple(None if m is None else names[m] for m in side)
