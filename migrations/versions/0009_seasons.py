"""Seasons: ratings per calendar month and server, and when each game ended (its season).

A game that had already ended gets the time of its last throw (or of its last change, if it had
none) as `ended_at`. The seasons of games played before this revision are filled in by
`python -m bot ratings --rebuild`.

Revision ID: 0009_seasons
Revises: 0008_puzzles
Create Date: 2026-12-02 13:20:16
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_seasons"
down_revision: str | None = "0008_puzzles"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "season_ratings",
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("season", sa.String(length=7), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("games_people", sa.Integer(), nullable=False),
        sa.Column("wins_people", sa.Integer(), nullable=False),
        sa.Column("games_computers", sa.Integer(), nullable=False),
        sa.Column("wins_computers", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "season", "user_id", name=op.f("pk_season_ratings")),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True))
    games = sa.table(
        "games", sa.column("id"), sa.column("status"), sa.column("ended_at"), sa.column("updated_at")
    )
    moves = sa.table("moves", sa.column("game_id"), sa.column("created_at"))
    last_throw = (
        sa.select(sa.func.max(moves.c.created_at)).where(moves.c.game_id == games.c.id).scalar_subquery()
    )
    ended = games.c.status != "active"
    op.execute(games.update().where(ended).values(ended_at=last_throw))
    op.execute(games.update().where(ended, games.c.ended_at.is_(None)).values(ended_at=games.c.updated_at))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("ended_at")
    op.drop_table("season_ratings")
