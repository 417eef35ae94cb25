"""The CPU one command costs on the way in, and what a long table costs to open and keep
(``umbra bench store``, after the append figures; issue 10).

On the database at hand, in this process (no HTTP server, no socket, no viewer):

- ``POST /commands``: Darkest Night commands sent through the whole ASGI app (middleware,
  routing, validation, tokens, decide, append, evolve; no viewer is connected), each the
  first choice of the waited-on seat's required prompt (read with ``GET /view`` outside the
  measure). CPU ms per command: this process's CPU time (every thread: the aiosqlite
  worker too) over the POSTs; on a local PostgreSQL also its postmaster and backends' CPU.
- ``append``: ``EventStore.append`` of one command's 3 events, CPU ms the same way.
- ``open 10,000 events``: a Pulse table whose log holds 10,000 events (snapshots every
  ``snapshot_every`` = 100, as the server saves them) loaded cold into a session: p50 ms
  over a few loads; and the same table with no snapshot (the whole log replayed).
- ``memory per idle table``: the Python heap (``tracemalloc``) that loading 200 idle
  Darkest Night tables (fresh from setup; 40 with ``--quick``) takes, per table.

Figures print; nothing here fails on a time.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

DN = "darkest_night"
LONG_LOG = 10_000
IDLE_TABLES = 200


@dataclass
class PathFigures:
    lines: list[str] = field(default_factory=list)

    def add(self, text: str) -> None:
        self.lines.append(text)


def _proc_cpu(pid: int, *, children: bool = False) -> float:
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()
    ticks = int(fields[11]) + int(fields[12]) + ((int(fields[13]) + int(fields[14])) if children else 0)
    return ticks / os.sysconf("SC_CLK_TCK")


def _parent(pid: int) -> int:
    text = Path(f"/proc/{pid}/stat").read_text()
    return int(text[text.rindex(")") + 2 :].split()[1])


class PostgresCpu:
    """CPU seconds of a local PostgreSQL: its postmaster (with the children it reaped) and
    every live backend, from ``/proc``; None when the server is not on this machine."""

    def __init__(self, postmaster: int | None) -> None:
        self.postmaster = postmaster

    @classmethod
    async def find(cls, store: Any) -> PostgresCpu:
        if not store.is_postgres:
            return cls(None)
        from sqlalchemy import text

        try:
            async with store.engine.connect() as conn:
                backend = int(await conn.scalar(text("SELECT pg_backend_pid()")))
            return cls(_parent(backend))
        except (OSError, ValueError):
            return cls(None)

    def seconds(self) -> float | None:
        if self.postmaster is None:
            return None
        try:
            total = _proc_cpu(self.postmaster, children=True)
            for entry in os.scandir("/proc"):
                if entry.name.isdigit():
                    try:
                        if _parent(int(entry.name)) == self.postmaster:
                            total += _proc_cpu(int(entry.name))
                    except (OSError, ValueError):
                        continue
            return total
        except OSError:
            return None


class Asgi:
    """Calls into an ASGI app with a hand-made scope: nothing of an HTTP client's own work
    lands in the measure."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def call(self, method: str, path: str, token: str, body: bytes = b"") -> tuple[int, bytes]:
        headers = [
            (b"host", b"bench"),
            (b"authorization", b"Bearer " + token.encode()),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 1),
            "server": ("bench", 80),
        }
        sent = False
        status = 0
        chunks: list[bytes] = []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        return status, b"".join(chunks)


async def post_path(url: str, commands: int, figures: PathFigures) -> None:
    """CPU per ``POST /api/tables/{id}/commands`` through the whole app, no viewer."""
    from app.config import Settings
    from app.main import create_app

    app = create_app(Settings(database_url=url, test_mode=True))
    async with app.router.lifespan_context(app):
        hub = app.state.hub
        asgi = Asgi(app)
        created = await hub.create_table(DN, None, ["A", "B", "C", "D"], seed="bench-post")
        tokens = {seat: token for seat, _, token in created.seat_tokens}
        table = created.table_id
        pg = await PostgresCpu.find(hub.store)
        cpu = 0.0
        db_cpu = 0.0
        sent = 0
        for index in range(commands):
            session = await hub.session(table)
            if session.outcome is not None:
                break
            waiting = hub.waiting_for(session)
            seat = waiting[0] if waiting else 0
            status, raw = await asgi.call("GET", f"/api/tables/{table}/view", tokens[seat])
            view = json.loads(raw)
            prompt = next((p for p in view["prompts"] if p["seat"] == seat and p["required"]), None)
            if status != 200 or prompt is None or not prompt["choices"]:
                break
            body = json.dumps({**prompt["choices"][0]["command"], "command_id": f"bench-{index}"}).encode()
            db0, t0 = pg.seconds(), time.process_time()
            status, raw = await asgi.call("POST", f"/api/tables/{table}/commands", tokens[seat], body)
            cpu += time.process_time() - t0
            db1 = pg.seconds()
            if db0 is not None and db1 is not None:
                db_cpu += db1 - db0
            if status != 200:
                figures.add(f"POST /commands: HTTP {status} {raw[:200]!r}; stopped")
                break
            sent += 1
        if sent:
            extra = f", PostgreSQL {db_cpu * 1000 / sent:.2f} ms" if pg.postmaster else ""
            figures.add(
                f"POST /commands (Darkest Night, no viewer, in-process ASGI): {sent} commands, "
                f"CPU {cpu * 1000 / sent:.2f} ms per command{extra}"
            )


async def append_cpu(url: str, appends: int, figures: PathFigures) -> None:
    """CPU per ``EventStore.append`` of a 3-event command."""
    from app.bench.store import COMMAND_EVENTS, _record
    from app.live.auth import new_table_id, new_token, token_hash
    from app.store import EventStore, SeatRecord

    store = EventStore(url)
    try:
        table = new_table_id()
        await store.create_table(_record(table), [SeatRecord(0, "b", token_hash(new_token()), None)], [])
        pg = await PostgresCpu.find(store)
        for i in range(20):  # warm-up
            await store.append(table, i * 3, COMMAND_EVENTS, actor="seat:0", command_id=f"w{i}")
        seq = 60
        db0, t0 = pg.seconds(), time.process_time()
        for i in range(appends):
            await store.append(table, seq, COMMAND_EVENTS, actor="seat:0", command_id=f"c{i}")
            seq += 3
        cpu = time.process_time() - t0
        db1 = pg.seconds()
        extra = (
            f", PostgreSQL {(db1 - db0) * 1000 / appends:.2f} ms"
            if db0 is not None and db1 is not None
            else ""
        )
        figures.add(f"append (3 events, one writer): CPU {cpu * 1000 / appends:.3f} ms per append{extra}")
    finally:
        await store.close()


async def open_long_table(url: str, loads: int, figures: PathFigures) -> None:
    """Cold loads of a table with ``LONG_LOG`` events, with and without snapshots."""
    import pickle

    from app.bench.pulse import PULSE
    from app.kernel import playout
    from app.kernel.types import Choice, Event, Prompt
    from app.live.auth import new_table_id, new_token, token_hash
    from app.live.session import TableSession, snapshot_key
    from app.store import EventStore, SeatRecord, StoredEvent, TableRecord

    store = EventStore(url)
    try:
        game = PULSE
        seed = "bench-long"
        played = playout.set_up(game, {"limit": 0}, ["A", "B"], seed)
        at = datetime.now(UTC)
        log = [StoredEvent(i + 1, e, "system", None, at) for i, e in enumerate(played.opening)]
        snapshots: list[tuple[int, bytes]] = []

        def tick(_state: Any, prompts: list[Prompt]) -> tuple[Prompt, Choice]:
            seat = (len(log) + 1) % 2  # the seats tick in turn
            prompt = next(p for p in prompts if p.seat == seat)
            return prompt, next(c for c in prompt.choices if c.type == "tick")

        def store_it(table: playout.Played, prompt: Prompt, _choice: Choice, events: list[Event]) -> None:
            seq = len(log) + 1
            log.extend(
                StoredEvent(seq + i, e, f"seat:{prompt.seat}", f"t{seq}", at) for i, e in enumerate(events)
            )
            if len(log) // 100 > (seq - 1) // 100:
                snapshots.append((len(log), pickle.dumps(table.state, protocol=pickle.HIGHEST_PROTOCOL)))

        while len(log) < LONG_LOG:
            playout.play(played, tick, max_commands=1, on_command=store_it)
        ids = {"snapshots": new_table_id(), "no snapshot": new_table_id()}
        for kind, table_id in ids.items():
            record = TableRecord(
                table_id, game.name, "long", {"limit": 0}, seed, token_hash(new_token()),
                game.engine_version, "running", None, at,
            )  # fmt: skip
            seats = [SeatRecord(i, n, token_hash(new_token()), None) for i, n in enumerate("AB")]
            await store.create_table(record, seats, log)
            if kind == "snapshots":
                for seq, blob in snapshots:
                    await store.save_snapshot(table_id, seq, snapshot_key(game), blob)
        for kind, table_id in ids.items():
            record = await store.table(table_id)
            assert record is not None
            times = []
            for _ in range(loads):
                t0 = time.perf_counter()
                session = await TableSession.load(store, game, record, snapshot_every=100)
                times.append((time.perf_counter() - t0) * 1000)
                assert session.seq == len(log)
            figures.add(
                f"open a {len(log):,}-event table ({kind}): p50 {statistics.median(times):.1f} ms, "
                f"best {min(times):.1f} ms over {loads} cold loads"
            )
    finally:
        await store.close()


async def idle_memory(url: str, count: int, figures: PathFigures) -> None:
    """RSS per idle loaded Darkest Night table (fresh from setup)."""
    from app.config import Settings
    from app.live.hub import Hub
    from app.store import EventStore

    hub = Hub(Settings(database_url=url, test_mode=True), EventStore(url))
    try:
        ids = [
            (await hub.create_table(DN, None, ["A", "B", "C", "D"], seed=f"idle-{i}")).table_id
            for i in range(count)
        ]
        for table_id in ids:
            hub.bots.forget(table_id)
        hub.sessions.clear()
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for table_id in ids:
            await hub.session(table_id)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        figures.add(
            f"memory per idle loaded table (Darkest Night, {count} tables): "
            f"{(after - before) / count / 1024:.0f} KiB (Python heap, tracemalloc)"
        )
    finally:
        await hub.store.close()


def command_path(url: str, *, quick: bool) -> list[str]:
    """Every figure above on the database at ``url`` (already migrated), as lines."""
    figures = PathFigures()
    steps: list[Callable[[], Any]] = [
        lambda: post_path(url, 60 if quick else 300, figures),
        lambda: append_cpu(url, 200 if quick else 1000, figures),
        lambda: open_long_table(url, 3 if quick else 7, figures),
        lambda: idle_memory(url, 40 if quick else IDLE_TABLES, figures),
    ]
    for step in steps:
        try:
            asyncio.run(step())
        except Exception as exc:  # report and go on: each figure stands alone
            figures.add(f"FAILED: {type(exc).__name__}: {exc}")
    return figures.lines
