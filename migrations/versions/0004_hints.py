"""Hints: the game option that offers the Hint button and the win chances, and each seat's hints used.

Revision ID: 0004_hints
Revises: 0003_ratings
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_hints"
down_revision: str | None = "0003_ratings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean(), server_default=sa.true(), nullable=False))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("hints_used", sa.Integer(), server_default="0", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("hints_used")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("hints")
