"""Random positions from simulated games all render, within the size limit, pieces in place."""

from __future__ import annotations

from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Rules
from engine.board import HOME, ROUTES
from engine.throws import throw_cowries
from render import DrawnMove, board_png, layout, theme
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
    choices = position.legal_moves(throw)
    story = [DrawnMove(move, before)] if move is not None else []
    png = board_png(
        position,
        names={seat: f"Player {seat} with a long display name" for seat in position.rules.seats},
        moves=story,
        throw=throw,
        cowries=cowries,
        choices=choices,
    )
    assert len(png) <= MAX_BYTES
    image = decode(png)
    banner = position.result is not None  # a finished game's band goes under the board
    assert image.size == (layout.WIDTH, layout.FINISHED_HEIGHT if banner else layout.HEIGHT)
    # Every square holding pieces of one seat shows that seat's colour: in full, or small on the
    # corner of the choice tile covering a landing square.
    landings = {ROUTES[m.seat][m.dst] for m in choices if m.dst < HOME}
    holders: dict[int, set[int]] = {}
    for seat in position.rules.seats:
        for step in position.steps[seat]:
            if 0 < step < HOME:
                holders.setdefault(ROUTES[seat][step], set()).add(seat)
    for square, seats in holders.items():  # none hidden by the end-of-game banner either
        left, top, right, bottom = layout.square_box(square)
        for seat in seats:
            if square in landings:
                found = count_colour(
                    image, (left - 14, top - 14, right + 14, bottom + 14), theme.SEAT_COLOURS[seat]
                )
                assert found > 20, (square, seat, "on a tile")
            else:
                assert count_colour(image, (left, top, right, bottom), theme.SEAT_COLOURS[seat]) > 40, (
                    square,
                    seat,
                )
