"""Ratings: stronger computers are worth more, shares scale the change, a rebuild equals live play."""

from __future__ import annotations

from random import Random

import pytest

from bot.core.ratings import (
    LEVEL_MU,
    NEW,
    RatedGame,
    Rating,
    fit_level,
    level_rating,
    ranking,
    rate,
    rebuild,
    sides_from_throws,
)

ASHA, RAVI, MEERA = 101, 202, 303


def test_the_levels_are_the_arena_fit_in_order() -> None:
    for level in ("random", "easy", "hard", "expert"):
        assert LEVEL_MU[level] == round(fit_level(level), 2)
    assert LEVEL_MU["easy"] < LEVEL_MU["normal"] < LEVEL_MU["hard"]


@pytest.mark.parametrize("players", [2, 4])
def test_beating_hard_computers_gains_more_than_beating_easy_ones(players: int) -> None:
    def after_win(level: str) -> Rating:
        mine: dict[int | str, float] = {ASHA: 1.0}
        if players == 4:
            mine["normal"] = 1.0  # a computer partner
        theirs: dict[int | str, float] = {level: float(players // 2)}
        return rate({}, RatedGame((mine, theirs), winner=0))[ASHA]

    easy, normal, hard = after_win("easy"), after_win("normal"), after_win("hard")
    assert NEW.mu < easy.mu < normal.mu < hard.mu
    assert easy.ordinal < normal.ordinal < hard.ordinal


def test_losing_to_easy_computers_costs_more_than_losing_to_hard_ones() -> None:
    def after_loss(level: str) -> Rating:
        return rate({}, RatedGame(({ASHA: 1.0}, {level: 1.0}), winner=1))[ASHA]

    assert after_loss("easy").mu < after_loss("hard").mu < NEW.mu


def test_a_win_over_people_moves_both_and_a_draw_moves_less() -> None:
    game = RatedGame(({ASHA: 1.0}, {RAVI: 1.0}), winner=0)
    new = rate({}, game)
    assert new[ASHA].mu > NEW.mu > new[RAVI].mu
    assert new[ASHA].mu - NEW.mu == pytest.approx(NEW.mu - new[RAVI].mu)
    assert new[ASHA].sigma < NEW.sigma and new[RAVI].sigma < NEW.sigma
    drawn = rate({ASHA: new[ASHA]}, RatedGame(({ASHA: 1.0}, {RAVI: 1.0}), winner=None))
    assert drawn[ASHA].mu < new[ASHA].mu  # the stronger one drew: down a little
    assert abs(drawn[ASHA].mu - new[ASHA].mu) < new[ASHA].mu - NEW.mu


def test_a_part_game_moves_a_rating_by_about_its_share_either_way() -> None:
    for winner in (0, 1):
        whole = rate({}, RatedGame(({ASHA: 1.0}, {"normal": 1.0}), winner))[ASHA]
        half = rate({}, RatedGame(({ASHA: 0.5, "normal": 0.5}, {"normal": 1.0}), winner))[ASHA]
        tenth = rate({}, RatedGame(({ASHA: 0.1, "normal": 0.9}, {"normal": 1.0}), winner))[ASHA]
        assert abs(tenth.mu - NEW.mu) < abs(half.mu - NEW.mu) < abs(whole.mu - NEW.mu)
        assert tenth.sigma > half.sigma > whole.sigma
        assert (half.mu - NEW.mu) * (whole.mu - NEW.mu) > 0  # same direction


def test_shares_come_from_who_threw_for_each_seat() -> None:
    levels = {0: "hard", 1: "hard", 2: "normal", 3: "easy"}
    throws = (
        [(0, ASHA)] * 6 + [(0, None)] * 2 + [(1, None)] * 5 + [(2, RAVI)] * 3 + [(2, None)] + [(3, RAVI)] * 4
    )
    black_yellow, red_green = sides_from_throws(4, levels, throws)
    assert black_yellow == {ASHA: 0.75, "hard": 0.25, RAVI: 0.75, "normal": 0.25}
    assert red_green == {"hard": 1.0, RAVI: 1.0}
    two = sides_from_throws(2, {0: "easy", 2: "easy"}, [(0, ASHA), (2, None), (2, MEERA)])
    assert two == ({ASHA: 1.0}, {"easy": 0.5, MEERA: 0.5})


def test_only_games_with_a_user_on_one_side_only_are_rated() -> None:
    assert rate({}, RatedGame(({"hard": 1.0}, {"easy": 1.0}), winner=0)) == {}
    assert rate({}, RatedGame(({ASHA: 1.0}, {}), winner=0)) == {}  # nobody threw for the other side
    assert rate({}, RatedGame(({ASHA: 0.5, "easy": 0.5}, {ASHA: 0.5, "easy": 0.5}), winner=0)) == {}
    assert set(rate({}, RatedGame(({ASHA: 1.0}, {RAVI: 1.0, "easy": 1.0}), winner=1))) == {ASHA, RAVI}


def random_games(count: int, seed: int) -> list[RatedGame]:
    rng = Random(seed)
    users = [ASHA, RAVI, MEERA, 404, 505]
    games = []
    for _ in range(count):
        seated = rng.sample(users, 2)
        sides: tuple[dict[int | str, float], dict[int | str, float]] = ({}, {})
        for side, user in zip(sides, seated, strict=True):
            share = rng.choice([1.0, 1.0, 0.5, 0.25])
            side[user] = share
            if share < 1:
                side[rng.choice(["easy", "normal", "hard"])] = 1 - share
            side[rng.choice(["easy", "normal", "hard"])] = 1.0
        games.append(RatedGame(sides, rng.choice([0, 1, 1, None])))
    return games


def test_a_rebuild_gives_what_live_updates_gave() -> None:
    """Live: each game's new ratings stored (here: as text, like a database would) and read back."""
    games = random_games(60, seed=3)
    stored: dict[int, str] = {}
    for game in games:
        current = {user: Rating(*map(float, text.split())) for user, text in stored.items()}
        for user, new in rate(current, game).items():
            stored[user] = f"{new.mu!r} {new.sigma!r}"
    live = {user: Rating(*map(float, text.split())) for user, text in stored.items()}
    assert rebuild(games) == live
    assert rebuild(games[::-1]) != live  # the order of the games matters, so a rebuild keeps it


def test_the_ranking_is_by_ordinal_among_members_with_enough_games() -> None:
    ratings = {
        ASHA: Rating(30.0, 6.0),  # ordinal 12
        RAVI: Rating(26.0, 3.0),  # ordinal 17
        MEERA: Rating(40.0, 2.0),  # ordinal 34, but only two games
        404: Rating(25.0, 2.6),  # ordinal 17.2
    }
    games = {ASHA: 5, RAVI: 9, MEERA: 2, 404: 3}
    assert [user for user, _ in ranking(ratings, games)] == [404, RAVI, ASHA]
    assert ranking(ratings, games, min_games=1)[0][0] == MEERA


def test_a_computer_level_is_a_fixed_rating() -> None:
    assert level_rating("hard") == Rating(LEVEL_MU["hard"], 1.0)
    with pytest.raises(KeyError):
        level_rating("grandmaster")
