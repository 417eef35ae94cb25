"""Issue 23, item 3: a log an older release wrote with a boolean or a decimal where the
event's schema has a whole number (``HeroStats {"seat": true}``) still loads, on SQLite
and PostgreSQL: the table plays on, its views and served events read the whole number."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, delete, select, update

from app.store import schema
from app.store.urls import sync_url
from tests.support.api_play import ApiTable
from tests.support.tables import auth


def rewrite(db_url: str, tid: str, change: Any) -> list[int]:
    """Change the stored data of ``tid``'s events as ``change(type, data)`` says (None: keep),
    and drop its snapshots so that loading it reads the log; the seqs changed."""
    engine = create_engine(sync_url(db_url))
    changed = []
    try:
        with engine.begin() as conn:
            ev = schema.events.c
            rows = conn.execute(select(ev.seq, ev.type, ev.data).where(ev.table_id == tid)).all()
            for seq, kind, data in rows:
                new = change(kind, dict(data))
                if new is not None:
                    changed.append(seq)
                    where = (ev.table_id == tid) & (ev.seq == seq)
                    conn.execute(update(schema.events).where(where).values(data=new))
            conn.execute(delete(schema.snapshots).where(schema.snapshots.c.table_id == tid))
    finally:
        engine.dispose()
    return changed


def test_a_log_with_booleans_and_decimals_for_whole_numbers_loads_and_plays_on(
    client: TestClient, db_url: str
) -> None:
    table = ApiTable.create(client, "dark_omen", seed="stored-bad")
    rng = random.Random(4)
    for _ in range(25):
        table.step(rng)
    gm = auth(table.gm_token)
    view = client.get(f"/api/tables/{table.tid}/view", headers=gm).json()

    def corrupt(kind: str, data: dict[str, Any]) -> dict[str, Any] | None:
        if kind in ("HeroStats", "HeroPlaced", "HeroMoved") and data.get("seat") in (0, 1):
            return (
                data | {"seat": bool(data["seat"])}
                if kind != "HeroMoved"
                else data | {"seat": float(data["seat"])}
            )
        return None

    changed = rewrite(db_url, table.tid, corrupt)
    assert len(changed) >= 3, changed
    client.app.state.hub.sessions.pop(table.tid)  # type: ignore[attr-defined]  (read again from the log)
    again = client.get(f"/api/tables/{table.tid}/view", headers=gm).json()
    assert again["view"] == view["view"] and again["prompts"] == view["prompts"]
    served = client.get(f"/api/tables/{table.tid}/events?after=0&limit=5000", headers=gm).json()["events"]
    seats = [e["data"]["seat"] for e in served if e["seq"] in changed]
    assert seats and all(type(s) is int for s in seats), seats
    for _ in range(5):
        table.step(rng)  # and it plays on
