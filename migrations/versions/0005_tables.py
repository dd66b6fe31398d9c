"""Tables in threads: the table card's channel and message, everyone who played, auto-throw.

Revision ID: 0005_tables
Revises: 0004_hints
Create Date: 2026-12-01 23:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_tables"
down_revision: str | None = "0004_hints"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("card_channel_id", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("card_message_id", sa.BigInteger(), nullable=True))
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_players_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_game_players")),
    )
    op.create_table(
        "player_settings",
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("auto_throw", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_player_settings")),
    )


def downgrade() -> None:
    op.drop_table("player_settings")
    op.drop_table("game_players")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("card_message_id")
        batch.drop_column("card_channel_id")
