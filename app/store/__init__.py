"""The event store (SQLAlchemy Core over SQLite or PostgreSQL)."""

from app.store.store import EventStore, SeatRecord, SeqConflict, StoredEvent, TableRecord

__all__ = ["EventStore", "SeatRecord", "SeqConflict", "StoredEvent", "TableRecord"]
