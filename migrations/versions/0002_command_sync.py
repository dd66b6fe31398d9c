"""The hash of the slash commands last synced, so that only a changed command tree is synced again.

Revision ID: 0002_command_sync
Revises: 0001
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_command_sync"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "command_sync",
        sa.Column("scope", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("payload_hash", sa.String(length=64), nullable=False),
        sa.Column("synced_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("scope", name=op.f("pk_command_sync")),
    )


def downgrade() -> None:
    op.drop_table("command_sync")
