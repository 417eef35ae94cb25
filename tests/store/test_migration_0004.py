"""Migration 0004 on SQLite and PostgreSQL: snapshots keyed by the bare engine version are
dropped (never read again), the key column takes ``<engine version>:<schema hash>`` keys,
seats gain their revoked tokens; and it goes back down."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from alembic import command
from sqlalchemy import create_engine, insert, select, text

from app.store import EventStore, RevokedToken, SeatRecord
from app.store import schema as store_schema
from app.store.migrate import alembic_config, upgrade
from app.store.urls import sync_url
from tests.store.test_store import table_record

LONG_KEY = "2026.11.30-release-candidate-12:" + "f" * 16


def test_0004_drops_old_snapshots_and_widens_the_key(db_url: str) -> None:
    command.upgrade(alembic_config(db_url), "0003")
    engine = create_engine(sync_url(db_url))
    with engine.begin() as conn:
        conn.execute(
            text("INSERT INTO snapshots (table_id, seq, engine_version, state) VALUES ('t1', 10, '1', :b)"),
            {"b": b"old pickle"},
        )
        seat = {"table_id": "t1", "seat": 0, "name": "Ann", "token_hash": "h", "session_hash": None}
        conn.execute(insert(store_schema.seats).values(**seat, bot=False))
    upgrade(db_url)
    with engine.begin() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM snapshots")).scalar() == 0
        conn.execute(
            insert(store_schema.snapshots).values(table_id="t1", seq=20, engine_version=LONG_KEY, state=b"s")
        )
        assert conn.execute(select(store_schema.snapshots.c.engine_version)).scalar() == LONG_KEY

    async def seats() -> list[SeatRecord]:
        store = EventStore(db_url)
        try:
            return await store.seats("t1")
        finally:
            await store.close()

    assert asyncio.run(seats()) == [SeatRecord(0, "Ann", "h", None, False, ())]
    command.downgrade(alembic_config(db_url), "0003")
    with engine.begin() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM snapshots")).scalar() == 0
        assert conn.execute(text("SELECT name FROM seats")).scalar() == "Ann"
    upgrade(db_url)
    engine.dispose()


def test_a_reissue_changes_the_seat_only_if_nobody_claimed_it_meanwhile(db_url: str) -> None:
    upgrade(db_url)

    async def go() -> None:
        store = EventStore(db_url)
        await store.create_table(table_record(), [SeatRecord(0, "Ann", "a" * 64, None)], [])
        (before,) = await store.seats("t1")
        await store.set_session("t1", 0, "d" * 64)  # a device opened the link in between
        at = datetime.now(UTC)
        revoked = [RevokedToken("a" * 64, "invite", at)]
        assert not await store.reissue_seat("t1", before, token_hash="b" * 64, name="Bea", revoked=revoked)
        (now,) = await store.seats("t1")
        assert (now.token_hash, now.session_hash, now.name, now.revoked) == ("a" * 64, "d" * 64, "Ann", ())
        assert await store.reissue_seat("t1", now, token_hash="b" * 64, name="Bea", revoked=revoked)
        (after,) = await store.seats("t1")
        assert (after.token_hash, after.session_hash, after.name) == ("b" * 64, None, "Bea")
        assert after.revoked == (RevokedToken("a" * 64, "invite", at),)
        await store.close()

    asyncio.run(go())
