"""Names: the display name a seat's member had when they sat down, and the starter's.

The bot kept display names only in memory, so after a restart a member's panel read "Player 5823"
until they clicked again. Games stored before this revision have no names: they show the member as
before until the member acts.

Revision ID: 0010_names
Revises: 0009_seasons
Create Date: 2026-12-03 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_names"
down_revision: str | None = "0009_seasons"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("name", sa.String(length=100), nullable=True))
    op.add_column("games", sa.Column("starter_name", sa.String(length=100), nullable=True))


def downgrade() -> None:
    # In place (SQLite 3.35+ drops a plain column): a batch copy of `games` would drop the table,
    # and with foreign keys on that deletes every game's seats and moves (ON DELETE CASCADE).
    op.drop_column("games", "starter_name")
    op.drop_column("seats", "name")
