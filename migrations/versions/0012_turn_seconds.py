"""A game's own move time: a tournament's games give each member the organizer's move time, other
games the bot's setting (NULL).

Revision ID: 0012_turn_seconds
Revises: 0011_tournaments
Create Date: 2026-12-06 06:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_turn_seconds"
down_revision: str | None = "0011_tournaments"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("turn_seconds", sa.Integer(), nullable=True))


def downgrade() -> None:
    # In place (SQLite 3.35+ drops a plain column), as 0010 does: a batch copy would cascade.
    op.drop_column("games", "turn_seconds")
