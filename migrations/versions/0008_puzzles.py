"""The daily puzzle: members' answers (one a day) and streaks, the servers' post channels and pings.

Revision ID: 0008_puzzles
Revises: 0007_language
Create Date: 2026-12-02 13:13:59
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_puzzles"
down_revision: str | None = "0007_language"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "puzzle_answers",
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("puzzle", sa.Integer(), nullable=False),
        sa.Column("move", sa.String(length=16), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "day", name=op.f("pk_puzzle_answers")),
    )
    op.create_table(
        "puzzle_channels",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("set_by", sa.BigInteger(), nullable=False),
        sa.Column("posted_on", sa.Date(), nullable=True),
        sa.PrimaryKeyConstraint("guild_id", name=op.f("pk_puzzle_channels")),
    )
    op.create_table(
        "puzzle_pings",
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id", name=op.f("pk_puzzle_pings")),
    )
    op.create_table(
        "puzzle_streaks",
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("current", sa.Integer(), nullable=False),
        sa.Column("best", sa.Integer(), nullable=False),
        sa.Column("last_solved", sa.Date(), nullable=True),
        sa.Column("answered", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_puzzle_streaks")),
    )


def downgrade() -> None:
    op.drop_table("puzzle_streaks")
    op.drop_table("puzzle_pings")
    op.drop_table("puzzle_channels")
    op.drop_table("puzzle_answers")
