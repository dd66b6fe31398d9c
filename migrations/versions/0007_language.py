"""The table's language: what a game's table shares (turn messages, the card, the result) is in it.

Games stored before it were English.

Revision ID: 0007_language
Revises: 0006_conceded
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_language"
down_revision: str | None = "0006_conceded"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("language", sa.String(length=16), server_default="en", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("language")
