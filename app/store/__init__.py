"""The event store (SQLAlchemy Core over SQLite or PostgreSQL)."""

from app.store.store import (
    DATABASE_ERRORS,
    CommandSpent,
    EventStore,
    RevokedToken,
    SeatRecord,
    SeqConflict,
    StoredEvent,
    TableRecord,
    is_outage,
)

__all__ = [
    "DATABASE_ERRORS",
    "EventStore",
    "RevokedToken",
    "SeatRecord",
    "CommandSpent",
    "SeqConflict",
    "StoredEvent",
    "TableRecord",
    "is_outage",
]
