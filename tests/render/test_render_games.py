"""Random positions from simulated games all render, within the size limit, pieces in place."""

from __future__ import annotations

from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Rules
from engine.board import HOME, ROUTES
from engine.throws import throw_cowries
from render import board_png, layout, theme
from tests.render.helpers import count_colour, decode, random_game

MAX_BYTES = 150 * 1024


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    throws=st.integers(0, 600),
    rules=st.sampled_from(["classic", "standard", "classic,last_square=off", "classic,enter_moves=on"]),
    players=st.sampled_from([2, 4]),
    pieces=st.integers(1, 4),
)
def test_positions_from_random_games_render_within_limits(
    seed: int, throws: int, rules: str, players: int, pieces: int
) -> None:
    before, position, move = random_game(
        seed, throws, Rules.parse(rules).with_options(players=players, pieces=pieces)
    )
    throw, cowries = throw_cowries(Random(seed))
    png = board_png(
        position,
        names={seat: f"Player {seat} with a long display name" for seat in position.rules.seats},
        last_move=move,
        last_position=before,
        throw=throw,
        cowries=cowries,
        choices=position.legal_moves(throw),
    )
    assert len(png) <= MAX_BYTES
    image = decode(png)
    assert image.size == (layout.WIDTH, layout.HEIGHT) and image.size[0] >= 900
    # Every square holding pieces of one seat shows that seat's colour.
    holders: dict[int, set[int]] = {}
    for seat in position.rules.seats:
        for step in position.steps[seat]:
            if 0 < step < HOME:
                holders.setdefault(ROUTES[seat][step], set()).add(seat)
    for square, seats in holders.items():
        for seat in seats:
            assert count_colour(image, layout.square_box(square), theme.SEAT_COLOURS[seat]) > 40, (
                square,
                seat,
            )
