"""``umbra bench store``: what an append costs, next to what the database costs.

On each database (a temporary SQLite file; PostgreSQL when one is available) one writer
runs, back to back and in interleaved blocks so that drift hits all three alike:

- ``bare INSERT + COMMIT``: one row into a plain ``bench_bare(id int primary key, payload
  text)`` table, in its own transaction, through the same ``AsyncEngine`` (aiosqlite /
  psycopg async) the app uses. The floor: what one commit costs on this database.
- ``append 1 event`` and ``append 3 events``: ``EventStore.append`` of one event, and of
  three (what a typical command produces), at the expected seq, in one transaction (on
  PostgreSQL including its ``pg_notify``).

It reports operations per second, p50/p99 latency, and the ratio of the mean append time
to the mean bare insert time: the store's own overhead, independent of the disk. The
database's durability settings are printed too (the throwaway test cluster runs with
``fsync=off``, so its absolute figures are not those of a durable server).

Then, on the same database, ``app.bench.command_path``: the CPU per ``POST /commands``
through the whole app and per append (with PostgreSQL's own CPU when it runs here), the
time to open a table with a 10,000-event log (with snapshots, and without), and the memory
an idle loaded table takes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text

from app.bench.databases import (
    BenchDatabase,
    on_each_database,
    postgres_settings,
    purge_tables,
    sqlite_settings,
)
from app.bench.stats import fmt, percentile, table
from app.kernel.types import Event
from app.live.auth import new_table_id, new_token, token_hash
from app.store import EventStore, SeatRecord, TableRecord
from app.store.migrate import upgrade

BARE_TABLE = "bench_bare"
COMMAND_EVENTS = [
    Event("CardPlayed", {"seat": 0, "card": "lantern07-2", "value": 2}),
    Event("CardDrawn", {"seat": 0, "card": "lantern11-6"}),
    Event("TurnPassed", {"to": 1}),
]
ONE_EVENT = [Event("DieRolled", {"seat": 0, "faces": [4]})]
BARE_PAYLOAD = json.dumps(ONE_EVENT[0].data)


@dataclass(frozen=True)
class Plan:
    max_samples: int
    """Per operation."""
    budget_s: float
    """Per database, after the warm-up."""
    warmup: int
    block: int


FULL = Plan(max_samples=4000, budget_s=25.0, warmup=50, block=100)
QUICK = Plan(max_samples=300, budget_s=2.0, warmup=10, block=50)


@dataclass
class Operation:
    name: str
    step: Callable[[], Awaitable[None]]
    samples: list[int] = field(default_factory=list)
    """Nanoseconds per call."""

    @property
    def per_second(self) -> float:
        total = sum(self.samples)
        return len(self.samples) / (total / 1e9) if total else float("nan")

    @property
    def mean_ns(self) -> float:
        return sum(self.samples) / len(self.samples) if self.samples else float("nan")

    def ms(self, p: float) -> float:
        return percentile(self.samples, p) / 1e6


@dataclass
class Figures:
    database: BenchDatabase
    settings: str
    operations: list[Operation]


def run_store(args: argparse.Namespace | Any) -> int:
    plan = QUICK if getattr(args, "quick", False) else FULL
    mode = "quick" if plan is QUICK else "full"
    print(
        f"umbra bench store ({mode}: per database up to {plan.max_samples} of each operation "
        f"or {plan.budget_s:g} s, after {plan.warmup} warm-up calls; one writer, back to back)",
        flush=True,
    )
    results: list[Figures] = []
    code = on_each_database(args, "store", lambda db: _bench_one(db, plan, results))
    if results:
        print()
        print(report(results))
    return code


def _bench_one(db: BenchDatabase, plan: Plan, results: list[Figures]) -> bool:
    from app.bench.command_path import command_path

    print(f"{db.label}: {db.about} ...", flush=True)
    try:
        upgrade(db.url)
        figures = asyncio.run(bench_database(db, plan))
    except Exception as exc:  # report and go on with the other database
        print(f"{db.label}: FAILED: {type(exc).__name__}: {exc}", flush=True)
        return False
    print(f"{db.label}: {figures.settings}", flush=True)
    results.append(figures)
    lines = command_path(db.url, quick=plan is QUICK)
    for line in lines:
        print(f"{db.label}: {line}", flush=True)
    return not any(line.startswith("FAILED") for line in lines)


def report(results: list[Figures]) -> str:
    rows = []
    for fig in results:
        bare = fig.operations[0]
        for op in fig.operations:
            rows.append(
                [
                    fig.database.label,
                    op.name,
                    str(len(op.samples)),
                    fmt(op.per_second, 0),
                    fmt(op.ms(50), 3),
                    fmt(op.ms(99), 3),
                    fmt(op.mean_ns / bare.mean_ns, 2),
                ]
            )
    body = table(["database", "operation", "n", "per s", "p50 ms", "p99 ms", "x bare"], rows)
    legend = (
        "per s: operations per second, one writer back to back; p50/p99: latency of one call;\n"
        "x bare: mean time of the operation / mean time of a bare INSERT + COMMIT on the same database"
    )
    return f"{body}\n\n{legend}"


async def bench_database(db: BenchDatabase, plan: Plan) -> Figures:
    store = EventStore(db.url)
    tables = {1: new_table_id(), 3: new_table_id()}
    try:
        if store.is_postgres:
            settings = await asyncio.to_thread(postgres_settings, db.url)
        else:
            settings = await sqlite_settings(store.engine)
        async with store.engine.begin() as conn:
            await conn.execute(text(f"DROP TABLE IF EXISTS {BARE_TABLE}"))
            await conn.execute(text(f"CREATE TABLE {BARE_TABLE} (id integer PRIMARY KEY, payload text)"))
        for tid in tables.values():
            await store.create_table(
                _record(tid), [SeatRecord(0, "bench", token_hash(new_token()), None)], []
            )
        operations = [
            Operation("bare INSERT + COMMIT", _bare(store)),
            Operation("append 1 event", _append(store, tables[1], ONE_EVENT)),
            Operation("append 3 events (1 command)", _append(store, tables[3], COMMAND_EVENTS)),
        ]
        await measure(operations, plan)
        return Figures(db, settings, operations)
    finally:
        try:
            async with store.engine.begin() as conn:
                await conn.execute(text(f"DROP TABLE IF EXISTS {BARE_TABLE}"))
        finally:
            await store.close()
            if db.shared:
                await asyncio.to_thread(purge_tables, db.url, list(tables.values()))


async def measure(operations: list[Operation], plan: Plan) -> None:
    """Warm up, then run the operations in interleaved blocks until each has
    ``max_samples`` or the time budget is spent."""
    for op in operations:
        for _ in range(plan.warmup):
            await op.step()
    deadline = time.perf_counter() + plan.budget_s
    clock = time.perf_counter_ns
    while time.perf_counter() < deadline and any(len(op.samples) < plan.max_samples for op in operations):
        for op in operations:
            for _ in range(min(plan.block, plan.max_samples - len(op.samples))):
                t0 = clock()
                await op.step()
                op.samples.append(clock() - t0)


def _record(table_id: str) -> TableRecord:
    return TableRecord(
        id=table_id,
        game="bench",
        name="umbra bench store",
        options={},
        seed=new_token(),
        gm_token_hash=token_hash(new_token()),
        engine_version="1",
        status="running",
        outcome=None,
        created_at=datetime.now(UTC),
    )


def _bare(store: EventStore) -> Callable[[], Awaitable[None]]:
    insert = text(f"INSERT INTO {BARE_TABLE} (id, payload) VALUES (:id, :payload)")
    counter = iter(range(1, 1 << 62))

    async def step() -> None:
        async with store.engine.begin() as conn:
            await conn.execute(insert, {"id": next(counter), "payload": BARE_PAYLOAD})

    return step


def _append(store: EventStore, table_id: str, events: list[Event]) -> Callable[[], Awaitable[None]]:
    seq = 0
    counter = iter(range(1, 1 << 62))

    async def step() -> None:
        nonlocal seq
        stored = await store.append(
            table_id, seq, events, actor="seat:0", command_id=f"bench-{len(events)}-{next(counter)}"
        )
        seq = stored[-1].seq

    return step
