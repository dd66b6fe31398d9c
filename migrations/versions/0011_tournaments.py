"""Tournaments: the events, their entrants, rounds, tables (with each table's game and result)
and the seats at the tables. New tables only: nothing existing changes.

Revision ID: 0011_tournaments
Revises: 0010_names
Create Date: 2026-12-06 04:48:16
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_tournaments"
down_revision: str | None = "0010_names"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("organizer_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("rules", sa.String(length=200), nullable=False),
        sa.Column("move_seconds", sa.Integer(), nullable=False),
        sa.Column("round_seconds", sa.Integer(), nullable=False),
        sa.Column("signup_closes_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("level", sa.String(length=16), nullable=False),
        sa.Column("language", sa.String(length=16), server_default="en", nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("card_message_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("format IN ('swiss', 'round-robin')", name=op.f("ck_tournaments_format")),
        sa.CheckConstraint(
            "status IN ('signup', 'running', 'finished', 'cancelled')", name=op.f("ck_tournaments_status")
        ),
        sa.CheckConstraint("table_size IN (2, 4)", name=op.f("ck_tournaments_table_size")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    live = sa.text("status IN ('signup', 'running')")
    op.create_index(
        "uq_tournaments_live_channel",
        "tournaments",
        ["channel_id"],
        unique=True,
        sqlite_where=live,
        postgresql_where=live,
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=True),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("withdrawn_round", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_entrants_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", name=op.f("pk_tournament_entrants")),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_rounds_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_tournament_rounds")),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("decided_by", sa.String(length=16), nullable=True),
        sa.Column("win_chance", sa.Double(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "decided_by IN ('game', 'adjudication', 'forfeit')", name=op.f("ck_tournament_tables_decided_by")
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_tournament_tables_game_id_games"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_tables_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_tables")),
        sa.UniqueConstraint("game_id", name=op.f("uq_tournament_tables_game_id")),
        sa.UniqueConstraint(
            "tournament_id", "round", "number", name=op.f("uq_tournament_tables_tournament_id_round_number")
        ),
    )
    op.create_table(
        "tournament_seats",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tournament_tables.id"],
            name=op.f("fk_tournament_seats_table_id_tournament_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", "side", "place", name=op.f("pk_tournament_seats")),
    )


def downgrade() -> None:
    op.drop_table("tournament_seats")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_rounds")
    op.drop_table("tournament_entrants")
    op.drop_index("uq_tournaments_live_channel", table_name="tournaments")
    op.drop_table("tournaments")
