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

from engine.errors import NotationError
from engine.state import Position, side_name

revision: str = "0006_conceded"
down_revision: str | None = "0005_tables"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


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
    """The live position and the winning side, when `result:` names a side not all home."""
    try:
        Position.parse(text)
        return text, None  # a real win or a draw
    except NotationError:
        pass
    tokens = text.split()
    result = next(t for t in tokens if t.startswith("result:")).removeprefix("result:")
    live = " ".join(t for t in tokens if not t.startswith("result:"))
    players = Position.parse(live).rules.players
    side = next((side for side in (0, 1) if side_name(side, players) == result), None)
    return (text, None) if side is None else (live, side)


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("conceded_to")
