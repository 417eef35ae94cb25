"""Snapshots keyed by engine version and state schema hash; seats remember revoked tokens.

A snapshot's ``engine_version`` column now holds its key, ``<engine version>:<state schema
hash>`` (up to 64 characters). Snapshots saved under the bare engine version would never be
read again, so they are dropped (they are a cache: the log is the truth). A seat handed to
a new player keeps the hashes of its revoked invite and device tokens in ``revoked``.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.execute("DELETE FROM snapshots")
    with op.batch_alter_table("snapshots") as batch:
        batch.alter_column(
            "engine_version", existing_type=sa.String(32), type_=sa.String(64), existing_nullable=False
        )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("revoked", JSONType, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("revoked")
    op.execute("DELETE FROM snapshots")  # their keys do not fit the old column, nor its meaning
    with op.batch_alter_table("snapshots") as batch:
        batch.alter_column(
            "engine_version", existing_type=sa.String(64), type_=sa.String(32), existing_nullable=False
        )
