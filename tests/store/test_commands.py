"""Command ids are spent by the append itself (issue 10): no look-up before it, the store
the arbiter, exactly once however a command is retried, raced or replayed from an old log;
and a pooled PostgreSQL connection that died is replaced without a failed request."""

from __future__ import annotations

import asyncio

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from app.kernel.types import Event
from app.store import CommandSpent, EventStore, SeatRecord, SeqConflict, StoredEvent
from app.store.migrate import alembic_config, upgrade
from app.store.store import _now
from app.store.urls import libpq_dsn, sync_url
from tests.store.test_store import fresh_store, run, table_record


def test_a_spent_command_id_appends_nothing_and_tells_its_first_events(db_url: str) -> None:
    upgrade(db_url)

    async def go() -> None:
        store = await fresh_store(db_url)
        await store.append("t1", 0, [Event("A"), Event("B")], actor="seat:0", command_id="c1")
        with pytest.raises(CommandSpent) as spent:
            await store.append("t1", 2, [Event("C")], actor="seat:0", command_id="c1")
        assert [(e.seq, e.event.type, e.actor) for e in spent.value.events] == [
            (1, "A", "seat:0"),
            (2, "B", "seat:0"),
        ]
        assert [e.seq for e in await store.events_after("t1", 0)] == [1, 2]
        # The same id is free at another table, and a seq conflict spends no id.
        await store.create_table(table_record("t2"), [SeatRecord(0, "Bo", "i" * 64, None)], [])
        assert [s.seq for s in await store.append("t2", 0, [Event("X")], actor="a", command_id="c1")] == [1]
        with pytest.raises(SeqConflict):
            await store.append("t1", 1, [Event("D")], actor="seat:0", command_id="c2")
        assert [s.seq for s in await store.append("t1", 2, [Event("D")], actor="a", command_id="c2")] == [3]
        await store.close()

    run(go())


def test_one_command_id_raced_at_many_seqs_lands_once(db_url: str) -> None:
    upgrade(db_url)

    async def go() -> None:
        store = await fresh_store(db_url)
        await store.append("t1", 0, [Event("A")], actor="a", command_id="first")

        async def attempt(expected: int) -> str:
            try:
                await store.append("t1", expected, [Event("X"), Event("Y")], actor="a", command_id="raced")
                return "stored"
            except CommandSpent:
                return "spent"
            except SeqConflict:
                return "conflict"

        # Each expected seq is free or not: the id must still land exactly once.
        outcomes = await asyncio.gather(*(attempt(seq) for seq in (1, 1, 2, 3, 1, 5, 1, 2)))
        assert outcomes.count("stored") == 1
        events = await store.events_after("t1", 0)
        raced = [e.seq for e in events if e.command_id == "raced"]
        assert len(raced) == 2 and raced[1] == raced[0] + 1
        await store.close()

    run(go())


def test_an_imported_log_spends_its_command_ids(db_url: str) -> None:
    upgrade(db_url)

    async def go() -> None:
        store = EventStore(db_url)
        at = _now()
        log = [
            StoredEvent(1, Event("A"), "system", None, at),
            StoredEvent(2, Event("B"), "seat:0", "old", at),
            StoredEvent(3, Event("C"), "seat:0", "old", at),
        ]
        await store.create_table(table_record("t3"), [SeatRecord(0, "Ann", "j" * 64, None)], log)
        with pytest.raises(CommandSpent) as spent:
            await store.append("t3", 3, [Event("D")], actor="seat:0", command_id="old")
        assert [e.seq for e in spent.value.events] == [2, 3]
        await store.close()

    run(go())


def test_0005_spends_the_command_ids_already_in_the_log(db_url: str) -> None:
    command.upgrade(alembic_config(db_url), "0004")
    engine = create_engine(sync_url(db_url))
    try:
        with engine.begin() as conn:
            for seq, command_id in ((1, None), (2, "a"), (3, "a"), (4, "b")):
                conn.execute(
                    text(
                        "INSERT INTO events (table_id, seq, type, version, data, actor, command_id, at) "
                        "VALUES ('t1', :seq, 'E', 1, '{}', 'seat:0', :cid, CURRENT_TIMESTAMP)"
                    ),
                    {"seq": seq, "cid": command_id},
                )
        upgrade(db_url)
        with engine.begin() as conn:
            rows = conn.execute(text("SELECT command_id, seq FROM commands ORDER BY seq")).all()
        assert [tuple(r) for r in rows] == [("a", 2), ("b", 4)]
        command.downgrade(alembic_config(db_url), "0004")
        upgrade(db_url)
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_a_dead_pooled_connection_is_replaced_without_a_failure(pg_url: str) -> None:
    """No pre-ping per checkout: when PostgreSQL has dropped the pool's connections (a
    restart, an idle timeout), the next read and the next append still succeed."""
    import psycopg

    upgrade(pg_url)

    async def go() -> None:
        store = await fresh_store(pg_url)
        await store.append("t1", 0, [Event("A")], actor="a", command_id="c1")
        assert len(await store.events_after("t1", 0)) == 1  # the pool now holds a connection

        def kill_the_pool() -> None:
            with psycopg.connect(libpq_dsn(pg_url), autocommit=True) as conn:
                conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )

        await asyncio.to_thread(kill_the_pool)
        assert [e.seq for e in await store.events_after("t1", 0)] == [1]
        await asyncio.to_thread(kill_the_pool)
        assert [s.seq for s in await store.append("t1", 1, [Event("B")], actor="a", command_id="c2")] == [2]
        await asyncio.to_thread(kill_the_pool)
        with pytest.raises(CommandSpent):
            await store.append("t1", 2, [Event("B")], actor="a", command_id="c2")
        await store.close()

    run(go())
