"""The event store (SQLAlchemy Core over SQLite or PostgreSQL)."""

from app.store.store import (
    DATABASE_ERRORS,
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
    "SeqConflict",
    "StoredEvent",
    "TableRecord",
    "is_outage",
]
