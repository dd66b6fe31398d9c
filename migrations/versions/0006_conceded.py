"""Resigned games: the side a resignation conceded to, kept apart from the (live) position.

Before this, a conceded two-player game stored its position with `result:` naming a side whose
pieces are not all home, which the notation refuses: such rows are rewritten here.

Revision ID: 0006_conceded
Revises: 0005_tables
Create Date: 2026-12-02 03:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_conceded"
down_revision: str | None = "0005_tables"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEATS = ("black", "red", "yellow", "green")
"""The seat tokens of the position notation as it was at this revision, in turn order."""
SIDE_SEATS = {4: (("black", "yellow"), ("red", "green")), 2: (("black",), ("yellow",))}
"""Each side's seats by the number of players: side 0 first."""
HOME = "84"
"""The step of a piece that has come home."""


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("conceded_to", sa.Integer(), nullable=True))
    games = sa.table("games", sa.column("id"), sa.column("position"), sa.column("conceded_to"))
    bind = op.get_bind()
    rows = bind.execute(sa.select(games.c.id, games.c.position).where(games.c.position.like("% result:%")))
    for game_id, position in rows.all():
        live, conceded = _conceded(position)
        if conceded is not None:
            bind.execute(
                games.update().where(games.c.id == game_id).values(position=live, conceded_to=conceded)
            )


def _conceded(text: str) -> tuple[str, int | None]:
    """The live position and the winning side, when `result:` names a side not all home.

    The notation is read here as it was written before this revision (RULES.md 9 then): seat
    tokens `black:<steps>`, then `turn:`, `captured:`, `rules:` and an optional `result:`. The
    migration carries this reader so that a later change to the engine's notation cannot change
    what it does to old rows.
    """
    tokens = text.split(" ")
    steps = {name: value.split(",") for name, _, value in (t.partition(":") for t in tokens) if name in SEATS}
    result = next((t.removeprefix("result:") for t in tokens if t.startswith("result:")), None)
    sides = SIDE_SEATS.get(len(steps))
    if result is None or sides is None:
        return text, None
    names = ["+".join(seats) for seats in sides]
    home = [all(set(steps.get(seat, ())) == {HOME} for seat in seats) for seats in sides]
    if result not in names or any(home):  # a draw, a real win, or a row this reader does not know
        return text, None
    live = " ".join(t for t in tokens if not t.startswith("result:"))
    return live, names.index(result)


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("conceded_to")
