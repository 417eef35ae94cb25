"""The event store on SQLite and PostgreSQL: appends at the expected seq, conflicts,
idempotency look-ups, snapshots by engine version, and the Alembic history."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from app.kernel.types import Event
from app.store import EventStore, SeatRecord, SeqConflict, TableRecord
from app.store.migrate import upgrade


def table_record(table_id: str = "t1") -> TableRecord:
    return TableRecord(
        id=table_id,
        game="lanterns",
        name="",
        options={},
        seed="s",
        gm_token_hash="g" * 64,
        engine_version="1",
        status="running",
        outcome=None,
        created_at=datetime.now(UTC),
    )


def run(coro):  # noqa: ANN001, ANN201
    return asyncio.run(coro)


async def fresh_store(url: str, table_id: str = "t1") -> EventStore:
    store = EventStore(url)
    await store.create_table(table_record(table_id), [SeatRecord(0, "Ann", "h" * 64, None)], [])
    return store


def test_migrations_apply_twice(db_url: str) -> None:
    upgrade(db_url)
    upgrade(db_url)  # already at head: nothing to do, no error


def test_append_is_contiguous_and_reads_back(db_url: str) -> None:
    upgrade(db_url)

    async def go() -> None:
        store = await fresh_store(db_url)
        first = await store.append(
            "t1", 0, [Event("A", {"x": 1}), Event("B")], actor="seat:0", command_id="c1"
        )
        second = await store.append("t1", 2, [Event("C", {"y": [1, 2]})], actor="gm", command_id="c2")
        assert [s.seq for s in first + second] == [1, 2, 3]
        events = await store.events_after("t1", 0)
        assert [(e.seq, e.event.type, e.event.data, e.actor) for e in events] == [
            (1, "A", {"x": 1}, "seat:0"),
            (2, "B", {}, "seat:0"),
            (3, "C", {"y": [1, 2]}, "gm"),
        ]
        assert [e.seq for e in await store.events_after("t1", 1, upto=2)] == [2]
        assert await store.last_seq("t1") == 3
        await store.close()

    run(go())


def test_append_at_a_taken_seq_conflicts_and_stores_nothing(db_url: str) -> None:
    upgrade(db_url)

    async def go() -> None:
        store = await fresh_store(db_url)
        await store.append("t1", 0, [Event("A")], actor="seat:0", command_id="c1")
        with pytest.raises(SeqConflict):
            await store.append("t1", 0, [Event("B"), Event("C")], actor="seat:0", command_id="c2")
        assert [e.event.type for e in await store.events_after("t1", 0)] == ["A"]
        assert await store.command_result("t1", "c2") == []
        await store.close()

    run(go())


def test_concurrent_appends_at_one_seq_one_wins(db_url: str) -> None:
    upgrade(db_url)

    async def go() -> None:
        store = await fresh_store(db_url)

        async def attempt(i: int) -> bool:
            try:
                await store.append("t1", 0, [Event("X", {"i": i}), Event("Y")], actor="a", command_id=f"c{i}")
                return True
            except SeqConflict:
                return False

        wins = await asyncio.gather(*(attempt(i) for i in range(10)))
        assert sum(wins) == 1
        events = await store.events_after("t1", 0)
        assert [e.seq for e in events] == [1, 2]
        assert events[0].command_id == events[1].command_id
        await store.close()

    run(go())


def test_command_result_finds_every_event_of_a_command(db_url: str) -> None:
    upgrade(db_url)

    async def go() -> None:
        store = await fresh_store(db_url)
        await store.append("t1", 0, [Event("A"), Event("B")], actor="a", command_id="same")
        found = await store.command_result("t1", "same")
        assert [e.seq for e in found] == [1, 2]
        assert await store.command_result("t1", "other") == []
        await store.close()

    run(go())


def test_refusal_check_reads_what_came_after_and_what_the_command_made(db_url: str) -> None:
    upgrade(db_url)

    async def go() -> None:
        store = await fresh_store(db_url)
        await store.append("t1", 0, [Event("A"), Event("B")], actor="a", command_id="first")
        await store.append("t1", 2, [Event("C")], actor="a", command_id="second")
        newer, done = await store.refusal_check("t1", 1, "first")
        assert [e.seq for e in newer] == [2, 3]
        assert [e.seq for e in done] == [1, 2]
        newer, done = await store.refusal_check("t1", 3, "fresh")
        assert (newer, done) == ([], [])
        await store.close()

    run(go())


def test_snapshots_are_keyed_by_engine_version(db_url: str) -> None:
    upgrade(db_url)

    async def go() -> None:
        store = await fresh_store(db_url)
        await store.save_snapshot("t1", 10, "1", b"ten")
        await store.save_snapshot("t1", 20, "1", b"twenty")
        await store.save_snapshot("t1", 30, "2", b"thirty-v2")
        await store.save_snapshot("t1", 20, "1", b"twenty")  # a second process: no error
        assert await store.latest_snapshot("t1", "1") == (20, b"twenty")
        assert await store.latest_snapshot("t1", "1", upto=15) == (10, b"ten")
        assert await store.latest_snapshot("t1", "2") == (30, b"thirty-v2")
        assert await store.latest_snapshot("t1", "3") is None
        await store.close()

    run(go())


def test_tables_are_separate_logs(db_url: str) -> None:
    upgrade(db_url)

    async def go() -> None:
        store = await fresh_store(db_url, "t1")
        await store.create_table(table_record("t2"), [SeatRecord(0, "Bo", "k" * 64, None)], [])
        await store.append("t1", 0, [Event("A")], actor="a", command_id="c")
        await store.append("t2", 0, [Event("B")], actor="a", command_id="c")
        assert [e.event.type for e in await store.events_after("t1", 0)] == ["A"]
        assert [e.event.type for e in await store.events_after("t2", 0)] == ["B"]
        assert (await store.table("t2")).game == "lanterns"
        assert await store.table("nope") is None
        await store.close()

    run(go())
