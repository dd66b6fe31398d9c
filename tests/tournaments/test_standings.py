"""Standings from results: points, Buchholz, opponents' ratings, shared ranks, byes, partnerships,
withdrawals."""

from __future__ import annotations

from bot.core.tournaments.pairing import COMPUTER, Table
from bot.core.tournaments.standings import Entrant, Game, Line, podium, score, standings


def two(round_number: int, a: int, b: int | None, winner: int | None = 0, done: bool = True) -> Game:
    return Game(round_number, Table(((a,), (b,))), winner, done)


def test_points_and_tie_breaks_from_a_small_swiss() -> None:
    entrants = [Entrant(1, 1600), Entrant(2, 1500), Entrant(3, 1400)]
    games = [
        two(1, 1, 2, winner=0),  # 1 beats 2
        two(1, 3, COMPUTER, winner=1),  # 3's bye: a win though the computer won the game
        two(2, 3, 1, winner=0),  # 3 beats 1
        two(2, 2, COMPUTER, winner=0),  # 2's bye
    ]
    lines = standings(entrants, games)
    assert lines == [
        Line(rank=1, member=3, points=2, buchholz=1, opponents_rating=1600, games=2),
        Line(rank=2, member=1, points=1, buchholz=3, opponents_rating=2900, games=2),
        Line(rank=3, member=2, points=1, buchholz=1, opponents_rating=1600, games=2),
    ]
    assert podium(lines) == lines


def test_members_equal_on_every_tie_break_share_a_rank() -> None:
    entrants = [Entrant(1, 1500), Entrant(2, 1500), Entrant(3, 1500), Entrant(4, 1500)]
    games = [two(1, 1, 2, winner=None), two(1, 3, 4, winner=None)]
    assert [line.rank for line in standings(entrants, games)] == [1, 1, 1, 1]
    assert {line.points for line in standings(entrants, games)} == {0.5}


def test_a_game_still_playing_counts_nothing() -> None:
    entrants = [Entrant(1, 1500), Entrant(2, 1500)]
    lines = standings(entrants, [two(1, 1, 2, done=False)])
    assert [(line.points, line.games) for line in lines] == [(0, 0), (0, 0)]


def test_partners_share_the_result_and_face_both_opponents() -> None:
    entrants = [Entrant(m, 1500 + m) for m in (1, 2, 3, 4)]
    games = [Game(1, Table(((1, 2), (3, 4))), winner=1, done=True)]
    lines = {line.member: line for line in standings(entrants, games)}
    assert lines[3].points == lines[4].points == 1
    assert lines[1].points == lines[2].points == 0
    assert lines[1].buchholz == 2 and lines[1].opponents_rating == 1503 + 1504
    assert lines[3].buchholz == 0 and lines[3].opponents_rating == 1501 + 1502


def test_a_side_facing_only_computers_has_a_bye() -> None:
    entrants = [Entrant(1, 1500), Entrant(2, 1500)]
    games = [Game(1, Table(((1, 2), (COMPUTER, COMPUTER))), winner=1, done=True)]
    assert [line.points for line in standings(entrants, games)] == [1, 1]


def test_a_withdrawn_member_loses_from_their_round_on_and_their_earlier_results_stand() -> None:
    gone = Entrant(2, 1500, withdrawn_round=2)
    entrants = [Entrant(1, 1500), gone, Entrant(3, 1500), Entrant(4, 1500)]
    partners = Game(2, Table(((1, 2), (3, 4))), done=False)
    assert score(gone, 0, partners) == 0, "a loss though the game plays on"
    assert score(entrants[0], 0, partners) is None, "the partner waits for the result"
    games = [two(1, 2, 3, winner=0), partners]
    lines = {line.member: line for line in standings(entrants, games)}
    assert (lines[2].points, lines[2].games, lines[2].withdrawn) == (1, 2, True)
    assert (lines[1].points, lines[1].games) == (0, 0)
