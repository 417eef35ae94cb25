"""The tables of the event store (DESIGN.md, "Store"). Alembic's history mirrors these."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    false,
)
from sqlalchemy.dialects.postgresql import JSONB

metadata = MetaData()
SNAPSHOT_KEY_LENGTH = 64
JSONType = JSON().with_variant(JSONB(), "postgresql")

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("name", Text, nullable=False, default=""),
    Column("options", JSONType, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("gm_token_hash", String(64), nullable=False),
    Column("engine_version", String(32), nullable=False),
    Column("status", String(16), nullable=False, default="running"),
    Column("outcome", JSONType, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", Text, nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("session_hash", String(64), nullable=True),
    Column("bot", Boolean, nullable=False, default=False, server_default=false()),
    Column("revoked", JSONType, nullable=True),
    # [{"hash", "kind", "at"}]: the seat's revoked invite and device tokens (hashes only).
)

events = Table(
    "events",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("type", String(64), nullable=False),
    Column("version", Integer, nullable=False, default=1),
    Column("data", JSONType, nullable=False),
    Column("actor", String(64), nullable=False),
    Column("command_id", String(64), nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
)
Index("ix_events_command", events.c.table_id, events.c.command_id)

commands = Table(
    "commands",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("command_id", String(64), primary_key=True),
    Column("seq", Integer, nullable=False, autoincrement=False),
    # The first seq the command produced. A command id is spent once per table: the append
    # that claims it here is the only one whose events are stored (see ``EventStore.append``).
)

snapshots = Table(
    "snapshots",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("engine_version", String(SNAPSHOT_KEY_LENGTH), primary_key=True),
    # The snapshot key, ``<engine version>:<state schema hash>``: a snapshot is read only
    # by the engine and state schema that wrote it.
    Column("state", LargeBinary, nullable=False),
)

platform_settings = Table(
    "platform_settings",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)
