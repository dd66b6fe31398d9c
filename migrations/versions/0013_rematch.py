"""A finished game's rematch: the game opened by its Rematch button, so a second click (a double
click, or another player's) finds it instead of opening a second table.

Revision ID: 0013_rematch
Revises: 0012_turn_seconds
Create Date: 2026-12-06 08:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_rematch"
down_revision: str | None = "0012_turn_seconds"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("rematch_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    # In place (SQLite 3.35+ drops a plain column), as 0012 does: a batch copy would cascade.
    op.drop_column("games", "rematch_id")
