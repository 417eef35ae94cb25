"""What of a pending question a viewer may see (the ``Waiting`` event's records)."""

from __future__ import annotations

from typing import Any

from app.kernel.types import Viewer


def slim_record(record: dict[str, Any] | None, viewer: Viewer) -> dict[str, Any] | None:
    """A decision's record as a viewer not asked sees it: its kind and who is asked (its
    fields may name cards in a hand or on top of a deck)."""
    if not record:
        return record
    asked = record.get("seats") or [record.get("seat")]
    if any(viewer.holds(s) for s in asked):
        return record
    return {k: record[k] for k in ("kind", "v", "seat", "seats") if k in record}
