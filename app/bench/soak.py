"""``umbra bench soak``: many Darkest Night tables played for minutes on one or two
``umbra serve`` processes sharing one database, optionally with chaos (issue 8).

A benchmark that gives a verdict: it looks for what breaks under long load and under
crashes, not for speed. The database is PostgreSQL (``--postgres-url``, else a throwaway
cluster from ``tests/pg_cluster.py``), or a temporary SQLite file with ``--no-postgres`` or
when PostgreSQL cannot be had; SQLite runs one server process (processes only hear about
each other's commits through PostgreSQL's NOTIFY). ``--workers 2`` runs two separate
server processes on two ports, so that one can be killed and restarted alone; each
table's client asks one of them first, its viewers are one per process.

``--tables N`` slots each hold a Darkest Night table of 4 seats: seats 1-3 played by the
server's bot, seat 0 by a careful client here (``app.bench.soak_clients``), which also
says something in the chat now and then. A finished game is replaced by a new table. For
``--minutes T``; then the clients finish what they have in flight, the bots of the tables
still playing are stopped, and every table is settled.

``--chaos``: one event at a time, every 30-90 s at seeded random moments (``--seed``), alternately
an outage of PostgreSQL (``pg_ctl stop -m immediate``, 1-3 s, ``pg_ctl restart``) and kill -9
of one server process (restarted 0.5-2 s later on the same port). Only the throwaway
cluster can be restarted: with ``--postgres-url`` or on SQLite chaos only kills processes.

Printed: commands sent, acknowledged and refused, errors by status and code, p50/p99
command latency (first send to acknowledgement, retries included), what the logs hold
by actor (bot moves), each server process's RSS and open file descriptors when it was
ready and when it ended (a restarted process is a new row), the chaos events; then three
checks, each a PASS or FAIL line: (1) every acknowledged command's events are in the log
with its command_id; (2) every viewer saw every event of its table's log exactly once and
in order; (3) no error answer was a 5xx other than 503 or a body other than
``{"error": {"code", "message"}}``, and no server process exited by itself. Exit code 0
only if all three pass; 2 if it cannot run here (no ``/proc``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.bench.databases import (
    BenchDatabase,
    _scratch_name,
    _start_cluster,
    postgres_database,
    purge_tables,
    sqlite_database,
)
from app.bench.soak_checks import Tally
from app.bench.soak_clients import SEAT_NAMES, Api, Clients, SoakPlan
from app.bench.soak_cluster import Chaos, ClusterSoakServer, Incarnation, PgControl, SoakServer, watch_exits
from app.bench.stats import fmt, percentile
from app.bench.stats import table as text_table

CLOCK = time.monotonic
SERVER_NAMES = "AB"


def make_plan(args: argparse.Namespace | Any) -> SoakPlan:
    quick = bool(getattr(args, "quick", False))
    tables = getattr(args, "tables", None)
    minutes = getattr(args, "minutes", None)
    seed = getattr(args, "seed", None)
    plan = SoakPlan(
        tables=max(1, tables if tables is not None else (3 if quick else 20)),
        minutes=max(0.01, minutes if minutes is not None else (0.3 if quick else 10.0)),
        workers=min(2, max(1, int(getattr(args, "workers", None) or 2))),
        processes=max(1, int(getattr(args, "processes", None) or 1)),
        chaos=bool(getattr(args, "chaos", False)),
        seed=seed if seed is not None else random.SystemRandom().randrange(1_000_000),
    )
    if quick:  # small enough for a test: a chaos event every few seconds
        plan = replace(
            plan,
            chaos_every_s=(2.0, 4.0),
            restart_after_s=(0.3, 1.0),
            progress_every_s=5.0,
            drain_budget_s=20.0,
        )
    return plan


@contextlib.contextmanager
def soak_database(args: argparse.Namespace | Any) -> Iterator[tuple[BenchDatabase, Any, str]]:
    """``(database, the throwaway cluster or None, why not PostgreSQL or "")``."""
    reason = "--no-postgres"
    if not getattr(args, "no_postgres", False):
        if getattr(args, "postgres_url", None):
            with postgres_database(args, "soak") as (pg, reason):
                if pg is not None:
                    yield pg, None, ""
                    return
        else:
            cluster, reason = _start_cluster()
            if cluster is not None:
                try:
                    name = _scratch_name("soak")
                    url = cluster.create_database(name)
                    durable_commits(cluster.url, name)
                    where = (
                        "the server at $UMBRA_TEST_PG_URL" if cluster.external_url else "a throwaway cluster"
                    )
                    about = f"database {name} on {where} (synchronous_commit=on)"
                    yield BenchDatabase("postgresql", url, about), cluster, ""
                finally:
                    cluster.stop()
                return
    with sqlite_database("soak") as db:
        yield db, None, reason


def durable_commits(maintenance_url: str, name: str) -> None:
    """``synchronous_commit = on`` for the soak's database. The throwaway cluster runs with
    it off, so a crash of PostgreSQL (chaos stops it with ``-m immediate``) may lose the
    last commits it acknowledged: by design, and not what the soak is about."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(maintenance_url, autocommit=True, connect_timeout=10) as conn:
        conn.execute(sql.SQL("ALTER DATABASE {} SET synchronous_commit = on").format(sql.Identifier(name)))


def run_soak(args: argparse.Namespace | Any) -> int:
    if not Path("/proc/self/status").exists():
        print("umbra bench soak needs /proc (Linux) to read the servers' memory and file descriptors")
        return 2
    plan = make_plan(args)
    with soak_database(args) as (db, cluster, why_not_pg):
        notes = []
        if db.label != "postgresql":
            notes.append(f"SQLite, one server process (PostgreSQL skipped: {why_not_pg})")
            plan = replace(plan, workers=1, processes=1)
        pg = PgControl(cluster)
        if plan.chaos and not pg.can_restart:
            where = "SQLite" if db.label != "postgresql" else "a PostgreSQL server this bench did not start"
            notes.append(f"chaos can only kill server processes: the database is {where}")
        process = "process" if plan.workers == 1 else "processes"
        servers = f"{plan.workers} server {process}"
        if plan.processes > 1:
            servers = f"umbra serve --processes {plan.processes} (nginx in front, each table in one process)"
        print(
            f"umbra bench soak: {plan.tables} Darkest Night tables (1 client seat + {len(SEAT_NAMES) - 1} "
            f"bot seats + {plan.viewers_per_table} viewers each) for {plan.minutes:g} min on "
            f"{servers}; chaos {'on' if plan.chaos else 'off'}; seed {plan.seed}\n"
            f"{db.label}: {db.about}" + "".join(f"\nnote: {n}" for n in notes),
            flush=True,
        )
        with tempfile.TemporaryDirectory(prefix="umbra-soak-") as folder:
            outcome = Outcome()
            try:
                asyncio.run(soak(db, pg, plan, Path(folder), outcome))
            except Exception as exc:
                print(f"FAIL the soak could not run: {type(exc).__name__}: {exc}", flush=True)
                for server in outcome.servers:
                    print(f"server {server.name} log (tail):\n{server.log_tail(15)}", flush=True)
                return 1
            finally:
                if db.shared and outcome.clients is not None:
                    purge_tables(db.url, [t.id for t in outcome.clients.tables])
        return 0 if report(plan, outcome) else 1


class Outcome:
    """What a run leaves for the report."""

    def __init__(self) -> None:
        self.servers: list[SoakServer] = []
        self.clients: Clients | None = None
        self.tally = Tally()
        self.chaos: Chaos | None = None
        self.exits: list[str] = []
        self.crashed: list[str] = []
        """Client tasks that ended with an exception (a bug in the bench)."""


async def soak(db: BenchDatabase, pg: PgControl, plan: SoakPlan, folder: Path, out: Outcome) -> None:
    t0 = CLOCK()

    def say(message: str) -> None:
        print(f"[{CLOCK() - t0:7.1f} s] {message}", flush=True)

    if plan.processes > 1:
        cluster = ClusterSoakServer("A", db.url, folder / "cluster.log", plan.bot_delay, t0, plan.processes)
        out.servers = [cluster]
    else:
        out.servers = [
            SoakServer(name, db.url, folder / f"server-{name}.log", plan.bot_delay, t0)
            for name in SERVER_NAMES[: plan.workers]
        ]
    stop, stop_watch = asyncio.Event(), asyncio.Event()
    api = Api(out.servers, out.tally, t0, connections=plan.tables * 2 + 16)
    background: list[asyncio.Task[Any]] = []
    try:
        for server in out.servers:
            server.start()
        await asyncio.gather(*(s.wait_ready() for s in out.servers))
        say(
            "servers ready: "
            + ", ".join(f"{s.name} pid {s.current.pid if s.current else '?'} {s.url}" for s in out.servers)
        )
        clients = out.clients = Clients(plan, out.servers, api, out.tally, stop)
        watcher = asyncio.create_task(watch_exits(out.servers, stop_watch, say))
        if plan.chaos:
            rng = random.Random(f"{plan.seed}:chaos")
            out.chaos = Chaos(
                out.servers, pg, rng, plan.chaos_every_s, plan.restart_after_s, plan.pg_down_s, t0, say
            )
            background.append(asyncio.create_task(out.chaos.run(stop)))
        progress = asyncio.create_task(report_progress(out.tally, plan, stop, say))
        slots = [asyncio.create_task(clients.slot(i)) for i in range(plan.tables)]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), plan.minutes * 60)
        stop.set()
        await asyncio.gather(*background, progress)
        say("time is up: the clients finish what they have in flight")
        done, pending = await asyncio.wait(slots, timeout=plan.command_budget_s + 15)
        for task in pending:
            task.cancel()
            out.crashed.append("a table's client was still busy after its time budget")
        out.crashed += [repr(t.exception()) for t in done if not t.cancelled() and t.exception()]
        say("settling every table: bots stopped, logs read, viewers drained")
        gate = asyncio.Semaphore(8)

        async def settle(table: Any) -> None:
            async with gate:
                await clients.settle(table, final=True)

        await asyncio.gather(*clients.settling, *(settle(t) for t in clients.tables if not t.settled))
        stop_watch.set()
        out.exits = await watcher
    finally:
        stop.set()
        stop_watch.set()
        for task in background:
            task.cancel()
        if out.clients is not None:
            for table in out.clients.tables:
                for viewer in table.viewers:
                    await viewer.stop()
        for server in out.servers:
            server.stop()
        await api.close()
    say("done")


async def report_progress(tally: Tally, plan: SoakPlan, stop: asyncio.Event, say: Any) -> None:
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), plan.progress_every_s)
        if stop.is_set():
            return
        errors = sum(tally.command_errors.values())
        say(
            f"{sum(tally.sent.values())} commands sent, {tally.acknowledged} acknowledged, {errors} command "
            f"errors; {tally.tables_created} tables, {tally.games_finished} games finished"
        )


def counted(counter: Counter[str]) -> str:
    return ", ".join(f"{label} x{n}" for label, n in counter.most_common()) or "none"


def incarnation_row(name: str, inc: Incarnation) -> list[str]:
    def mib(stats: Any) -> str:
        return f"{stats.rss_kib / 1024:.1f}" if stats else "-"

    def fds(stats: Any) -> str:
        return str(stats.fds) if stats else "-"

    ended = f"{inc.ended_s:.1f} s" if inc.ended_s is not None else "-"
    return [name, str(inc.pid), f"{inc.started_s:.1f} s", ended, inc.how, mib(inc.start), mib(inc.end),
            fds(inc.start), fds(inc.end)]  # fmt: skip


def report(plan: SoakPlan, out: Outcome) -> bool:
    t = out.tally
    sent = sum(t.sent.values())
    kinds = ", ".join(f"{n} {k}s" for k, n in t.sent.most_common())
    lines = [
        "summary",
        f"  commands: {sent} sent ({kinds or 'none'}), {t.acknowledged} acknowledged ({t.replayed} of them "
        f"replayed: the first answer was lost), {t.refused} refused, {t.gave_up} given up; "
        f"{t.attempts} POST attempts",
        f"  command latency, first send to acknowledgement: p50 {fmt(percentile(t.latency_ms, 50), 1)} ms, "
        f"p99 {fmt(percentile(t.latency_ms, 99), 1)} ms",
        f"  command errors by status and code: {counted(t.command_errors)}",
        f"  other request errors: {counted(t.other_errors)}",
        f"  games: {t.tables_created} tables created, {t.games_finished} games finished "
        f"({counted(t.outcomes)})",
        f"  logs: {sum(t.log_events.values())} events ({counted(t.log_events)}); bot moves committed: "
        f"{t.bot_commands} commands, {t.log_events['bot']} events",
        f"  events by actor: {counted(t.actors)}",
        f"  viewers: {t.viewers_checked} checked, {t.connections} connections, dropped: {counted(t.drops)}; "
        f"bad frames {t.bad_frames}",
        f"  longest pause between two commits at a table: {t.max_gap_s:.1f} s ({t.max_gap_where or '-'})",
        "  server processes (RSS MiB and open fds when ready and when ended):",
    ]
    headers = ["server", "pid", "started", "ended", "how", "RSS ready", "RSS end", "fds ready", "fds end"]
    rows = [incarnation_row(s.name, inc) for s in out.servers for inc in s.incarnations]
    lines += ["    " + line for line in text_table(headers, rows, left=5).splitlines()]
    if out.chaos is not None:
        lines.append(f"  chaos events: {len(out.chaos.events)}")
        lines += [f"    [{e.at_s:7.1f} s] {e.what}" for e in out.chaos.events]
    lines += [f"  not settled: {u}" for u in t.unsettled]
    lines += [f"  client task failed: {c}" for c in out.crashed]
    if t.unacked_in_log:
        lines.append(f"  client commands in the logs never acknowledged (given up on): {t.unacked_in_log}")

    ok1 = not t.acks_bad and not t.unsettled and not out.crashed and t.acks_checked > 0
    ok2 = not t.viewers_bad and not t.unsettled and t.viewers_checked > 0
    exits = out.exits + (out.chaos.failures if out.chaos is not None else [])
    ok3 = not t.faults and not exits
    lines.append(
        f"{'PASS' if ok1 else 'FAIL'} check 1, acknowledged commands are in the log: "
        f"{t.acks_checked} checked, {t.acks_bad} wrong"
    )
    lines += [f"    {s}" for s in t.ack_samples]
    lines.append(
        f"{'PASS' if ok2 else 'FAIL'} check 2, every viewer saw each event once and in order: "
        f"{t.viewers_checked} viewers, {t.viewers_bad} wrong ({t.lost} events lost, "
        f"{t.duplicated} duplicated, {t.out_of_order} out of order)"
    )
    lines += [f"    {s}" for s in t.viewer_samples]
    lines.append(
        f"{'PASS' if ok3 else 'FAIL'} check 3, errors are 503s or 4xx with JSON bodies and no server exited "
        f"by itself: {counted(t.faults)}; exits: {'; '.join(exits) or 'none'}"
    )
    lines += [f"    {s}" for s in t.fault_samples]
    ok = ok1 and ok2 and ok3
    lines.append(f"result: {'PASS' if ok else 'FAIL'}")
    print("\n".join(lines), flush=True)
    return ok
