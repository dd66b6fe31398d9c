"""Ratings: each member's OpenSkill rating per guild, and their rated games against people and computers.

Revision ID: 0003_ratings
Revises: 0002_command_sync
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_ratings"
down_revision: str | None = "0002_command_sync"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("games_people", sa.Integer(), nullable=False),
        sa.Column("wins_people", sa.Integer(), nullable=False),
        sa.Column("games_computers", sa.Integer(), nullable=False),
        sa.Column("wins_computers", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id", name=op.f("pk_ratings")),
    )


def downgrade() -> None:
    op.drop_table("ratings")
