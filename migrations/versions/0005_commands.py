"""Command ids have a table of their own, so that the store answers "was this command
already committed?" inside the append itself (one statement on PostgreSQL) instead of a
SELECT before every append.

``commands(table_id, command_id, seq)``: one row per committed command id, ``seq`` the
first event it produced. Filled from the existing log.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "commands",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("command_id", sa.String(64), primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
    )
    op.execute(
        "INSERT INTO commands (table_id, command_id, seq) "
        "SELECT table_id, command_id, MIN(seq) FROM events WHERE command_id IS NOT NULL "
        "GROUP BY table_id, command_id"
    )


def downgrade() -> None:
    op.drop_table("commands")
