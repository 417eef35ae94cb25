"""``umbra bench live [<game>]``: any registered game played live over real websockets on
loopback, with no game-specific code (the bench game Pulse when no game is named).

For each database (a temporary SQLite file; PostgreSQL when one is available) the bench
starts a real server (``python -m app.cli serve``, test mode, ``UMBRA_EXTRA_GAMES`` with the
bench game and any module the environment's ``UMBRA_EXTRA_GAMES`` names) and creates, over
the public HTTP API, 50 tables of the game (5 with ``--quick``; ``--tables``) with the
game's default options and its ``max_seats`` seats (``--seats``; fewer if the server
refuses that many). Each table gets one websocket per seat with that seat's token (JSON
frames, ``/ws/tables/{id}?after=<seq>&token=...``, what an API client sees) and 2 spectators
connected like a browser's watch page (``format=html``: the changed HTML fragments).

The seats are played from this process as API clients would: for each command the bench
takes the prompts the socket of the seat the table waits on pushed with the frame of the
last commit (issue 10: a JSON frame's ``prompts``, ready-to-send commands; an html seat
page's prompts fragment, whose buttons carry the same commands less the ``seq`` and
``command_id`` a click adds, with the bot's replica saying whom the table waits on), and
sends one of the commands of that seat's required prompt. It asks ``GET
/api/tables/{id}/view`` with the seat's token instead (counted, "GET /view per command")
only when the socket has not pushed them: a table's first move on an html page that was
never sent its prompts fragment, a game without a bot on html seats, a frame that did not
come within ``PUSH_WAIT_S``. When the game has a bot (``app.kernel.game.has_bot``) the bot
picks, ``game.bot_choice(state, prompt, rng)``, on a replica of the table's state (the log
read once with the game-master token, then every command decided locally in lockstep with
the server: same seed, same seq), checked against every command's response and rebuilt
from the log if they ever differ. Without a bot the pick is a seeded random one among the
served choices. Nothing here knows a game's rules, commands or names.

When the table waits on several seats at once (the replica's required prompts say so with
a bot, the last view's ``waiting_for`` without), those seats act as a real table's players
would: each from its own HTTP client (its own connection, its own token) asks its own
``GET /view``, picks, and all their POSTs go out together. The server commits them in
some order; a command the game then refuses because another seat's got there first (409
``taken``, or ``stale``: chosen from a view the table has moved past and no longer legal)
is a refused race, counted apart from the failures; the bot's replica follows the
committed ones in the order of their seqs. A round never sends more commands than the
phase has left for the table.

After 2 warm-up commands per table (not reported) come two measured phases, one round in
flight per table (one command, or one per waited-on seat): 4 commands per table with one
table at a time (the server has nothing else to do), then 60 per table (20 with
``--quick``) with every table at once, or until a game ends. With ``--rate`` each slot
sends one command (a fixed offered load of commands). Reported for each phase:

- commands and commands per second;
- push: command-to-frame latency p50/p95/p99 over every (command, seat websocket) pair,
  from just before the POST until the JSON frame holding the command's seq arrives;
- frag: the same at each html spectator (the frame carrying the page's seq marker);
- the POST round trip p50/p99;
- bytes sent per command per spectator (uncompressed: permessage-deflate is off) against
  a full page render (``GET /t/{id}/watch`` at the start and the end): the diff ratio;
- server CPU per command: the server process's user + system time (``/proc/<pid>/stat``)
  over the phase divided by its commands, covering everything it did meanwhile (each
  ``GET /view`` and ``POST``, refused ones too, and the frames rendered and sent to every
  viewer);
- the POSTs sent together with another seat's, in how many rounds, and the refused races.

The run fails (exit 1) if a command fails, a viewer misses a command's frame or loses its
socket, a seat's websocket loses, duplicates or reorders an event or shows its own
command's event other than the POST's response did, or the bot's replica disagrees with
the server. Every phase is bounded in time. The client runs on one event loop in this
process: its latencies include the time the loop takes to get to a frame (and, with a
bot, the bot's thinking), so they are an upper bound for the server's own. With every
table at once the server is saturated, and the latency is mostly queueing.

The tables and websockets are in ``app.bench.live_clients``, the figures in
``app.bench.live_report``, the server process in ``app.bench.server``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import random
import shlex
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.bench.databases import BenchDatabase, on_each_database, purge_tables
from app.bench.live_clients import CLOCK, LiveTable, Watcher
from app.bench.live_report import Figures, Phase, collect
from app.bench.server import (
    Server,
    cpu_seconds,
    database_settings,
    extra_game_modules,
    import_extra_games,
    postgres_cpu,
    tree_cpu_by_name,
)
from app.kernel.game import Game, has_bot
from app.kernel.types import GM_SEAT
from app.store.urls import is_postgres

__all__ = ["run_live"]

DEFAULT_GAME = "pulse"
SPECTATORS = 2
OVERLOAD_RETRIES = 5
VIEW_TRIES = 6
PUSH_WAIT_S = 10.0
"""How long a seat waits for its socket's frame of the last commit before asking ``GET /view``
(under saturation a frame follows the POST's answer by milliseconds at p50, seconds at p99)."""


@dataclass(frozen=True)
class Plan:
    tables: int
    commands_per_table: int
    """In the phase with every table at once."""
    alone_commands: int
    """Per table in the phase with one table at a time."""
    warmup_commands: int
    connect_budget_s: float
    run_budget_s: float
    drain_budget_s: float
    spectators: int = SPECTATORS
    create_concurrency: int = 8
    connect_concurrency: int = 50
    max_attempts: int = 3
    """Tries per command before a table gives up (every failed try is counted)."""
    rate: float | None = None
    """``--rate``: commands per second per table, a fixed offered load (None: closed loop)."""
    rate_seconds: float = 30.0
    seat_format: str = "json"
    workers: int = 1
    processes: int = 1
    """``--processes``: serving processes behind the generated nginx (``umbra serve --processes``)."""


FULL = Plan(
    tables=50,
    commands_per_table=60,
    alone_commands=4,
    warmup_commands=2,
    connect_budget_s=60,
    run_budget_s=300,
    drain_budget_s=20,
)
QUICK = Plan(
    tables=5,
    commands_per_table=20,
    alone_commands=4,
    warmup_commands=2,
    connect_budget_s=30,
    run_budget_s=60,
    drain_budget_s=10,
    rate_seconds=10.0,
)


# -- the run -------------------------------------------------------------------------------


def find_game(name: str | None) -> tuple[Game | None, str]:
    """The registered game called ``name`` (``-`` read as ``_``; Pulse by default), after
    importing the bench game and ``UMBRA_EXTRA_GAMES``, or None and why not."""
    from app.kernel.registry import all_games, get_game

    import_extra_games()
    wanted = (name or DEFAULT_GAME).replace("-", "_")
    game = get_game(wanted)
    if game is None:
        known = ", ".join(sorted(all_games()))
        return None, f"umbra bench live: no game named {name!r} (registered: {known})"
    return game, ""


def command_line(game_name: str, args: argparse.Namespace | Any) -> str:
    """The ``umbra bench live`` command that runs this bench again (printed with its figures;
    an existing server's ``--postgres-url`` is left out: it may hold a password)."""
    words = ["umbra", "bench", "live", game_name]
    for flag in ("quick", "no_postgres", "no_sqlite", "json"):
        if getattr(args, flag, False):
            words.append("--" + flag.replace("_", "-"))
    for option in ("tables", "seats", "rate", "seconds", "viewers", "seat_format", "workers", "processes"):
        value = getattr(args, option, None)
        if value is None or (option in ("workers", "processes") and value == 1):
            continue
        words += ["--" + option.replace("_", "-"), f"{value:g}" if isinstance(value, float) else str(value)]
    return shlex.join(words)


def run_live(game_name: str | None, args: argparse.Namespace | Any) -> int:
    game, why = find_game(game_name)
    if game is None:
        print(why)
        return 2
    if not Path("/proc/self/stat").exists():
        print("umbra bench live needs /proc (Linux) to read the server's CPU time")
        return 2
    base = QUICK if getattr(args, "quick", False) else FULL
    tables = base.tables if getattr(args, "tables", None) is None else args.tables
    if tables < 1:
        print("umbra bench live: --tables must be at least 1")
        return 2
    rate = getattr(args, "rate", None)
    if rate is not None and not 0 < rate <= 100:
        print("umbra bench live: --rate is commands per second per table, above 0 and at most 100")
        return 2
    viewers = getattr(args, "viewers", None)
    workers = getattr(args, "workers", None) or 1
    processes = getattr(args, "processes", None) or 1
    if (viewers is not None and not 0 <= viewers <= 50) or workers < 1 or processes < 1:
        print("umbra bench live: --viewers takes 0 to 50, --workers and --processes at least 1")
        return 2
    if workers > 1 and processes > 1:
        print("umbra bench live: --processes runs one worker each; leave --workers out")
        return 2
    seconds = getattr(args, "seconds", None)
    plan = Plan(
        **{
            **base.__dict__,
            "tables": tables,
            "rate": rate,
            "rate_seconds": base.rate_seconds if seconds is None else max(1.0, seconds),
            "spectators": base.spectators if viewers is None else viewers,
            "seat_format": getattr(args, "seat_format", None) or "json",
            "workers": workers,
            "processes": processes,
            "run_budget_s": base.run_budget_s if seconds is None else max(base.run_budget_s, seconds * 3),
        }
    )
    seats = game.max_seats if getattr(args, "seats", None) is None else args.seats
    if not game.min_seats <= seats <= game.max_seats:
        print(f"umbra bench live: {game.title} takes {game.min_seats} to {game.max_seats} seats, not {seats}")
        return 2
    as_json = bool(getattr(args, "json", False))
    results: list[Figures] = []
    out = sys.stdout
    command = command_line(game.name, args)
    with contextlib.redirect_stdout(sys.stderr) if as_json else contextlib.nullcontext():
        print(f"command: {command}", flush=True)
        print(describe(game, plan, seats, base is QUICK), flush=True)
        code = on_each_database(
            args, f"live-{game.name}", lambda db: bench_database(db, game, plan, seats, results)
        )
    if as_json:
        runs = [f.to_json() for f in results]
        out.write(json.dumps({"game": game.name, "command": command, "ok": code == 0, "runs": runs}))
        out.write("\n")
    return code


def describe(game: Game, plan: Plan, seats: int, quick: bool) -> str:
    picker = "bot" if has_bot(game) else "random"
    mode = "quick" if quick else "full"
    seat_sockets = "json" if plan.seat_format == "json" else "html"
    if plan.rate is None:
        load = (
            "one round in flight per table (the waited-on seat's command, or every waited-on seat's "
            f"at once, each from its own client); after {plan.warmup_commands} warm-up commands per table, "
            f"{plan.alone_commands} per table with one table at a time, then {plan.commands_per_table} per "
            f"table with all {plan.tables} at once"
        )
    else:
        load = (
            f"a fixed offered load: {plan.rate:g} command(s) per second per table, the tables at random "
            f"offsets, for {plan.rate_seconds:g} s after {plan.warmup_commands} warm-up commands per table "
            f"({plan.tables * plan.rate:g} commands/s offered)"
        )
    workers = f"; the server runs {plan.workers} worker processes" if plan.workers > 1 else ""
    if plan.processes > 1:
        workers = f"; the server runs {plan.processes} processes behind nginx, each table in one"
    return (
        f"umbra bench live {game.name} ({mode}: {plan.tables} tables x (up to {seats} {picker} seats on "
        f"{seat_sockets} websockets + {plan.spectators} html spectators) on loopback; {load}{workers})\n"
        "push: from just before the POST until a seat's websocket delivers the frame with the "
        "command's seq, over every (command, seat) pair; frag: the same at each html spectator; "
        "B/cmd/spectator: uncompressed frame bytes; CPU: /proc user+system time of the server's "
        "processes over the phase (GET /view, POST, fan-out); PG: PostgreSQL's postmaster and backends "
        "(when local); lag: the server's event-loop lag over the phase (/healthz); refused races: POSTs "
        "sent at once by several waited-on seats that the server refused (409 taken/stale) because another "
        "seat's command got there first (not failures)"
    )


def bench_database(db: BenchDatabase, game: Game, plan: Plan, seats: int, results: list[Figures]) -> bool:
    """Start a real server on ``db``, play against it, print the figures; the tables it
    created are removed afterwards from a shared database."""
    print(f"{db.label}: {db.about} ...", flush=True)
    if max(plan.workers, plan.processes) > 1 and not is_postgres(db.url):
        flag = f"--workers {plan.workers}" if plan.workers > 1 else f"--processes {plan.processes}"
        print(f"{db.label}: skipped: {flag} needs PostgreSQL (SQLite serves one process)")
        return True
    picker = "bot" if has_bot(game) else "random"
    figures = Figures(db, game.name, picker, spectators=plan.spectators)
    figures.workers, figures.seat_format = plan.workers, plan.seat_format
    figures.processes = plan.processes
    with tempfile.TemporaryDirectory(prefix="umbra-bench-") as folder:
        log = Path(folder) / "server.log"
        server = Server(db.url, log, extra_game_modules(), workers=plan.workers, processes=plan.processes)
        table_ids: list[str] = []
        try:
            server.start()
            asyncio.run(bench_server(server, game, plan, seats, figures, table_ids))
        except Exception as exc:
            print(f"{db.label}: FAILED: {type(exc).__name__}: {exc}", flush=True)
            tail = server.log_tail(15)
            if tail:
                print(tail, flush=True)
            return False
        finally:
            server.stop()
            if db.shared and table_ids:
                purge_tables(db.url, table_ids)
    print(figures.report(), flush=True)
    results.append(figures)
    return figures.ok


async def bench_server(
    server: Server, game: Game, plan: Plan, seats: int, figures: Figures, table_ids: list[str]
) -> None:
    import httpx

    limits = httpx.Limits(max_connections=plan.tables + 8, max_keepalive_connections=plan.tables + 8)
    async with httpx.AsyncClient(base_url=server.url, timeout=60, trust_env=False, limits=limits) as client:
        await server.wait_ready(client, game.name)
        figures.settings = await database_settings(figures.database.url)
        tables = await create_tables(client, game, plan, seats, figures, table_ids)
        figures.tables, figures.seats = len(tables), len(tables[0].tokens)
        await asyncio.gather(*(look(client, t) for t in tables))
        if figures.picker == "bot":
            await asyncio.gather(*(resync(client, game, t, count=False) for t in tables))
        watchers = [w for t in tables for w in t.watchers]
        if plan.rate is None:
            figures.phases = [
                Phase("warm-up", plan.tables, plan.warmup_commands, measured=False),
                Phase("1 table at a time", 1, plan.alone_commands),
                Phase(f"{plan.tables} tables at once", plan.tables, plan.commands_per_table),
            ]
        else:
            rated = Phase(f"{plan.tables} tables at {plan.rate:g}/s", plan.tables, 0)
            rated.offered_per_s = plan.tables * plan.rate
            figures.phases = [Phase("warm-up", plan.tables, plan.warmup_commands, measured=False), rated]
        database_cpu = await asyncio.to_thread(postgres_cpu, figures.database.url)
        try:
            started = CLOCK()
            await connect_all(server, watchers, plan)
            figures.connect_s = CLOCK() - started
            deadline = CLOCK() + plan.run_budget_s
            for phase in figures.phases:
                cpu0, db0, phase.start = server_cpu(server), database_cpu(), CLOCK()
                proxy0 = proxy_cpu(server)
                client_cpu0 = time.process_time()
                await run_phase(client, game, tables, plan, phase, deadline)
                phase.drained = await caught_up(tables, plan.drain_budget_s)
                phase.cpu_s, db1, phase.end = server_cpu(server) - cpu0, database_cpu(), CLOCK()
                phase.proxy_cpu_s = proxy_cpu(server) - proxy0
                phase.client_cpu_s = time.process_time() - client_cpu0
                if db0 is not None and db1 is not None:
                    phase.db_cpu_s = db1 - db0
                phase.loop_lag_ms = await loop_lag(client, phase.end - phase.start)
                if not phase.measured:
                    await asyncio.gather(*(page_size(client, t, "start") for t in tables))
            await asyncio.gather(*(page_size(client, t, "end") for t in tables))
            await asyncio.gather(*(look(client, t, final=True) for t in tables))
            figures.drained = await caught_up(tables, plan.drain_budget_s, final=True)
        finally:
            await close_all(watchers)
            await asyncio.gather(*(c.aclose() for t in tables for c in t.seat_clients.values()))
    collect(tables, figures)


async def create_tables(
    client: Any, game: Game, plan: Plan, seats: int, figures: Figures, table_ids: list[str]
) -> list[LiveTable]:
    """Create the tables with the game's default options and ``seats`` seats, or the most
    seats up to that which the server accepts with those options (each refusal is noted
    in the figures)."""

    async def create(index: int, count: int) -> tuple[int, Any]:
        body = {
            "game": game.name,
            "seats": [{"name": f"Player {i + 1}"} for i in range(count)],
            "seed": table_seed(game, index),
            "name": f"bench {index}",
        }
        response = await client.post("/api/tables", json=body)
        if response.status_code != 201:
            return response.status_code, response.text
        data = response.json()
        table_ids.append(data["table_id"])
        return 201, data

    for count in range(seats, game.min_seats - 1, -1):
        status, first = await create(0, count)
        if status == 201:
            break
        figures.refusals.append(f"{count} seats: HTTP {status} {str(first)[:200]}")
        if status != 422:
            break
    if status != 201:
        raise RuntimeError("creating a table: " + "; ".join(figures.refusals))
    gate = asyncio.Semaphore(plan.create_concurrency)

    async def another(index: int) -> Any:
        async with gate:
            status, data = await create(index, count)
        if status != 201:
            raise RuntimeError(f"creating a table: HTTP {status} {str(data)[:300]}")
        return data

    created = [first, *await asyncio.gather(*(another(i) for i in range(1, plan.tables)))]
    tables = []
    for index, data in enumerate(created):
        tokens = [s["token"] for s in data["seats"]]
        table = LiveTable(index, data["table_id"], table_seed(game, index), tokens, data["gm_token"])
        table.watchers = [
            Watcher(table, seat, html=plan.seat_format == "html") for seat in range(len(tokens))
        ]
        table.watchers += [Watcher(table, None) for _ in range(plan.spectators)]
        tables.append(table)
    return tables


def table_seed(game: Game, index: int) -> str:
    """Each table's seed (the server takes one in test mode): the bot's replica decides
    every command with it, as the server does."""
    return f"bench-{game.name}-{index}"


async def look(client: Any, table: LiveTable, *, final: bool = False) -> None:
    """Where the table's log is and whom it waits on (``GET /api/tables/{id}``)."""
    response = await client.get(f"/api/tables/{table.id}")
    response.raise_for_status()
    summary = response.json()
    if final:
        table.final_seq = summary["seq"]
        return
    table.seq = table.start_seq = summary["seq"]
    table.waiting = list(summary["waiting_for"])
    if summary["waiting_for"]:
        table.seat = summary["waiting_for"][0]
    table.finished = summary["status"] != "running"


async def resync(client: Any, game: Game, table: LiveTable, *, count: bool = True) -> None:
    """Rebuild the bot's replica from the table's whole log (read with the game-master token)."""
    from app.kernel import table as kernel
    from app.kernel.types import Event

    log: list[tuple[int, Event]] = []
    while True:
        response = await client.get(
            f"/api/tables/{table.id}/events",
            params={"after": log[-1][0] if log else 0, "limit": 5000},
            headers={"Authorization": f"Bearer {table.gm_token}"},
        )
        response.raise_for_status()
        data = response.json()
        log += [(e["seq"], Event(e["type"], e["data"], e["v"])) for e in data["events"]]
        if not data["events"] or log[-1][0] >= data["seq"]:
            break
    table.state = kernel.replay_log(game, log)
    table.replica_seq = log[-1][0] if log else 0
    if count:
        table.resyncs += 1


async def connect_all(server: Server, watchers: list[Watcher], plan: Plan) -> None:
    """Open every websocket after the table's current seq; wait for each seat's hello."""
    from websockets.asyncio.client import connect

    gate = asyncio.Semaphore(plan.connect_concurrency)

    async def open_one(w: Watcher) -> None:
        url = f"{server.ws_url}/ws/tables/{w.table.id}?after={w.table.start_seq}"
        url += "" if w.is_spectator else f"&token={w.table.token_for(w.seat)}"
        url += "&format=html" if w.fragments else ""
        async with gate:
            w.ws = await connect(
                url,
                open_timeout=plan.connect_budget_s,
                ping_interval=None,
                proxy=None,
                compression=None,
                max_size=16 * 2**20,
            )
        w.last = w.table.start_seq
        w.task = asyncio.create_task(w.listen())

    def ready(w: Watcher) -> bool:
        return w.fragments or (w.hello_seq is not None and w.last >= w.hello_seq)

    async def all_open() -> None:
        await asyncio.gather(*(open_one(w) for w in watchers))
        while not all(ready(w) for w in watchers):
            if any(w.closed for w in watchers):
                raise RuntimeError(next(w.closed for w in watchers if w.closed))
            await asyncio.sleep(0.02)

    try:
        await asyncio.wait_for(all_open(), plan.connect_budget_s)
    except TimeoutError as exc:
        count = sum(1 for w in watchers if w.ws is not None and ready(w))
        raise RuntimeError(f"only {count} of {len(watchers)} websockets were ready in time") from exc


async def close_all(watchers: Sequence[Any]) -> None:
    """Stop each socket reader (anything with a ``task`` and a ``ws``) and close its socket."""

    async def close(w: Any) -> None:
        if w.task is not None:
            w.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await w.task
        if w.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(w.ws.close(), 5)

    await asyncio.gather(*(close(w) for w in watchers))


async def run_phase(
    client: Any, game: Game, tables: list[LiveTable], plan: Plan, phase: Phase, deadline: float
) -> None:
    if phase.offered_per_s is not None and plan.rate is not None:
        end = min(deadline, CLOCK() + plan.rate_seconds)
        await asyncio.gather(*(play_at_rate(client, game, t, plan.rate, phase, end) for t in tables))
        return
    if phase.tables_at_once >= len(tables):
        await asyncio.gather(*(play(client, game, t, plan, phase, deadline) for t in tables))
        return
    for table in tables:
        await play(client, game, table, plan, phase, deadline)


async def play(client: Any, game: Game, table: LiveTable, plan: Plan, phase: Phase, deadline: float) -> None:
    """Play the phase's commands at this table (fewer if the game ends first): one round
    at a time, the waited-on seat's command or every waited-on seat's at once."""
    played = attempts = 0
    while played < phase.commands_per_table:
        if table.finished:
            return
        if CLOCK() > deadline:
            phase.cut_short += 1
            return
        if attempts == plan.max_attempts:
            return  # this table keeps failing: its failures are counted, leave it
        before = table.commands
        seats = waited_seats(game, table)[: phase.commands_per_table - played]
        if len(seats) > 1:
            ok = await step_together(client, game, table, seats, phase)
        else:
            ok = await step(client, game, table, phase)
        played += table.commands - before
        attempts = 0 if ok and table.commands > before else attempts + 1


async def play_at_rate(
    client: Any, game: Game, table: LiveTable, rate: float, phase: Phase, end: float
) -> None:
    """One command every ``1 / rate`` s at this table, from a random offset, until ``end``:
    a fixed offered load. A command whose slot came while the previous one was still out
    is sent as soon as that one is back, and counted late if by over half an interval."""
    interval = 1.0 / rate
    slot = CLOCK() + random.Random(f"{table.seed}:offset").uniform(0, interval)
    while slot < end and not table.finished:
        wait = slot - CLOCK()
        if wait > 0:
            await asyncio.sleep(wait)
        elif -wait > interval / 2:
            phase.late += 1
        await step(client, game, table, phase)
        slot += interval


async def pushed_view(game: Game, table: LiveTable, seat: Any) -> dict[str, Any] | None:
    """What ``GET /view`` would answer ``seat`` after the last commit, from what its own
    socket pushed with that commit's frame (waited for, up to ``PUSH_WAIT_S``): a JSON
    frame's prompts, ``waiting_for`` and outcome as they are; an html page's prompts
    fragment with each button's command completed as the page's click completes it (the
    page's seq; a command id made from that seq and the command, so sending the same choice
    again is the same command), whom the table waits on and its outcome from the bot's
    replica at that seq. None when the socket has not pushed them (see the module's doc)."""
    watcher = table.seat_watcher(seat)
    if watcher is None or (watcher.fragments and table.state is None):
        return None  # an html page does not say whom the table waits on: only a replica can
    pushed = await watcher.pushed_at(table.seq, PUSH_WAIT_S)
    if pushed is None or not watcher.fragments:
        return pushed
    seq = pushed["seq"]
    if table.replica_seq != seq:
        return None
    outcome = game.outcome(table.state)
    waiting = [] if outcome else list(dict.fromkeys(p.seat for p in game.prompts(table.state) if p.required))
    if seat in waiting and not any(p["seat"] == seat and p["required"] for p in pushed["prompts"]):
        return None  # the page shows the seat's choice otherwise than as buttons: ask
    prompts = [
        {**p, "choices": [{**c, "command": page_command(table, seq, c["command"])} for c in p["choices"]]}
        for p in pushed["prompts"]
    ]
    return {
        "seq": seq,
        "prompts": prompts,
        "waiting_for": waiting,
        "outcome": outcome.to_json() if outcome else None,
    }


def page_command(table: LiveTable, seq: int, command: dict[str, Any]) -> dict[str, Any]:
    """A page button's command as ``POST /commands`` takes it: with the page's ``seq`` and a
    ``command_id`` derived from the table, that seq and the command."""
    body = json.dumps([table.id, seq, command["seat"], command["type"], command["args"]], sort_keys=True)
    digest = hashlib.sha256(body.encode()).hexdigest()[:24]
    return {**command, "seq": seq, "command_id": f"bench-{seq}-{digest}"}


async def served_view(client: Any, game: Game, table: LiveTable, phase: Phase) -> dict[str, Any] | None:
    """The prompts of the seat the table waits on (the one the bot's replica says, else the
    one waited on at the last look or push, another if they say the table waits on others
    now): pushed on its socket (``pushed_view``), else ``GET /view?after=<last commit>`` as
    that seat (asking again as another seat if the view says the table waits on others
    now); None if it failed (counted). ``after`` makes any worker answer at the last commit
    or later (read your writes), so a view behind it is a failure of the server, still
    counted and asked again."""
    if table.state is not None:
        waiting = [p.seat for p in game.prompts(table.state) if p.required]
        if waiting and table.seat not in waiting:
            table.seat = waiting[0]
    for _ in range(2):
        pushed = await pushed_view(game, table, table.seat)
        if pushed is None:
            break
        table.waiting = list(pushed["waiting_for"])
        waiting = pushed["waiting_for"]
        if pushed["outcome"] is not None or not waiting or table.seat in waiting:
            phase.pushed += 1
            return pushed
        table.seat = waiting[table.commands % len(waiting)]
    view: dict[str, Any] | None = None
    for _ in range(VIEW_TRIES):
        phase.views += 1
        headers = {"Authorization": f"Bearer {table.token_for(table.seat)}"}
        params = {"after": table.seq} if table.seq else None
        response = await send(
            client, phase, "GET", f"/api/tables/{table.id}/view", headers=headers, params=params
        )
        if response.status_code != 200:
            phase.failures[f"GET /view: HTTP {response.status_code}: {response.text[:160]}"] += 1
            return None
        view = response.json()
        table.waiting = list(view["waiting_for"])
        if view["seq"] < table.seq:
            # ``after`` promises otherwise: a careful client asks again rather than choose
            # on an old view.
            phase.retries["GET /view: behind the last commit despite ?after"] += 1
            await asyncio.sleep(0.005)
            continue
        waiting = view["waiting_for"]
        if view["outcome"] is not None or not waiting or table.seat in waiting:
            return view
        table.seat = waiting[table.commands % len(waiting)]
    return view


async def send(client: Any, phase: Phase, method: str, url: str, **kwargs: Any) -> Any:
    """One request, sent again once if the connection broke before an answer came (a
    pooled keep-alive connection the server closed as it was reused), as a careful client
    would: safe for a command too, whose ``command_id`` makes a repeat return the first
    result; and sent again after ``Retry-After`` when the server said 503 (overloaded, or
    its database away for a moment), up to a few times. Each retry is counted and
    reported; a second break is a failure."""
    import httpx

    for _ in range(OVERLOAD_RETRIES):
        try:
            response = await client.request(method, url, **kwargs)
        except (httpx.ReadError, httpx.RemoteProtocolError, httpx.WriteError) as exc:
            phase.retries[f"{method}: {type(exc).__name__}"] += 1
            response = await client.request(method, url, **kwargs)
        if response.status_code != 503 or "retry-after" not in response.headers:
            return response
        code = response.json().get("error", {}).get("code", "?") if response.content else "?"
        phase.retries[f"{method}: 503 {code} (sent again after Retry-After)"] += 1
        await asyncio.sleep(min(5.0, float(response.headers["retry-after"])))
    return response


async def step(client: Any, game: Game, table: LiveTable, phase: Phase) -> bool:
    """One command: the waited-on seat's prompts from GET /view, a pick (the bot's or a
    seeded random one), the POST, and the bot's replica moved on in lockstep. False if it
    failed (counted)."""
    import httpx

    try:
        view = await served_view(client, game, table, phase)
        if view is None:
            return False
        table.seq = view["seq"]
        if view["outcome"] is not None:
            table.finished = True
            return True
        seat = table.seat
        offered = next(
            (p for p in view["prompts"] if p["seat"] == seat and p["required"] and p["choices"]), None
        )
        if offered is None:
            phase.failures[f"GET /view offers the waited-on seat {seat!r} nothing"] += 1
            table.finished = True
            return True
        if table.state is not None and table.replica_seq != view["seq"]:
            await resync(client, game, table)  # counted: the replica fell behind the server
        command = pick(game, table, offered, view["seq"])
        t0 = CLOCK()
        response = await send(
            client,
            phase,
            "POST",
            f"/api/tables/{table.id}/commands",
            json=command,
            headers={"Authorization": f"Bearer {table.token_for(seat)}"},
        )
        t1 = CLOCK()
    except httpx.HTTPError as exc:
        phase.failures[f"{type(exc).__name__}: {exc}"] += 1
        return False
    if response.status_code != 200:
        phase.failures[f"POST: HTTP {response.status_code}: {response.text[:160]}"] += 1
        if table.state is not None:
            await resync(client, game, table)
        return False
    body = response.json()
    for event in body["events"]:
        table.expected[event["seq"]] = (seat, event["type"], event["data"])
    if table.state is not None:
        await follow(client, game, table, command, body)
    table.seq = body["seq"]
    table.commands += 1
    phase.sent.append((table, body["seq"], t0))
    phase.reply_ms.append((t1 - t0) * 1000)
    return True


RACE_CODES = frozenset({"taken", "stale"})
"""The 409 codes of a command another seat's beat to it (see ``step_together``)."""


def waited_seats(game: Game, table: LiveTable) -> list[Any]:
    """The seats the table waits on now: the required prompts of the bot's replica, else
    the ``waiting_for`` of the last look or view (a view corrects it: ``step_together``)."""
    if table.state is not None:
        seats = [p.seat for p in game.prompts(table.state) if p.required]
    else:
        seats = list(table.waiting)
    return list(dict.fromkeys(seats))


def seat_client(client: Any, table: LiveTable, seat: Any) -> Any:
    """The seat's own HTTP client (made once, closed at the end of the run): one
    connection per player, as separate browsers or bots would have."""
    import httpx

    if seat not in table.seat_clients:
        table.seat_clients[seat] = httpx.AsyncClient(
            base_url=client.base_url,
            timeout=60,
            trust_env=False,
            limits=httpx.Limits(max_connections=1, max_keepalive_connections=1),
        )
    return table.seat_clients[seat]


async def seat_view(
    client: Any, game: Game, table: LiveTable, seat: Any, phase: Phase
) -> dict[str, Any] | None:
    """``seat``'s prompts as its socket pushed them (``pushed_view``), else ``GET
    /view?after=<last commit>`` as ``seat`` from its own client, asked again (and counted) if
    it is behind that commit, as ``served_view`` does; None if it failed (counted)."""
    import httpx

    pushed = await pushed_view(game, table, seat)
    if pushed is not None:
        phase.pushed += 1
        return pushed
    headers = {"Authorization": f"Bearer {table.token_for(seat)}"}
    params = {"after": table.seq} if table.seq else None
    view: dict[str, Any] | None = None
    for _ in range(VIEW_TRIES):
        phase.views += 1
        try:
            response = await send(
                seat_client(client, table, seat),
                phase,
                "GET",
                f"/api/tables/{table.id}/view",
                headers=headers,
                params=params,
            )
        except httpx.HTTPError as exc:
            phase.failures[f"GET /view: {type(exc).__name__}: {exc}"] += 1
            return None
        if response.status_code != 200:
            phase.failures[f"GET /view: HTTP {response.status_code}: {response.text[:160]}"] += 1
            return None
        view = response.json()
        if view is not None and view["seq"] >= table.seq:
            return view
        phase.retries["GET /view: behind the last commit despite ?after"] += 1
        await asyncio.sleep(0.005)
    return view


async def post_as(
    client: Any, table: LiveTable, seat: Any, command: dict[str, Any], phase: Phase
) -> tuple[Any, float, float] | None:
    """The seat's POST from its own client: (response, time before, time after), or None if
    the connection failed (counted)."""
    import httpx

    t0 = CLOCK()
    try:
        response = await send(
            seat_client(client, table, seat),
            phase,
            "POST",
            f"/api/tables/{table.id}/commands",
            json=command,
            headers={"Authorization": f"Bearer {table.token_for(seat)}"},
        )
    except httpx.HTTPError as exc:
        phase.failures[f"POST: {type(exc).__name__}: {exc}"] += 1
        return None
    return response, t0, CLOCK()


def error_code(response: Any) -> str:
    try:
        return str(response.json().get("error", {}).get("code", "?"))
    except ValueError:
        return "?"


async def step_together(client: Any, game: Game, table: LiveTable, seats: list[Any], phase: Phase) -> bool:
    """One round with several seats waited on: each seat's own ``GET /view`` (all at once),
    its pick, then every POST at once. A 409 ``taken``/``stale`` is a refused race (the
    game's answer to a command another seat's beat), anything else not 200 a failure. The
    bot's replica then follows the committed commands in the order of their seqs. False if
    nothing was committed and something failed."""
    views = await asyncio.gather(*(seat_view(client, game, table, seat, phase) for seat in seats))
    offers: list[tuple[Any, dict[str, Any], int]] = []
    failed = False
    for seat, view in zip(seats, views, strict=True):
        if view is None:
            failed = True
            continue
        table.seq = max(table.seq, view["seq"])
        table.waiting = list(view["waiting_for"])
        if view["outcome"] is not None:
            table.finished = True
            return True
        offered = next(
            (p for p in view["prompts"] if p["seat"] == seat and p["required"] and p["choices"]), None
        )
        if offered is not None:
            offers.append((seat, offered, view["seq"]))
        elif seat in view["waiting_for"]:
            phase.failures[f"GET /view offers the waited-on seat {seat!r} nothing"] += 1
            failed = True
    if not offers:
        return not failed
    if table.state is not None and any(seq != table.replica_seq for _, _, seq in offers):
        await resync(client, game, table)  # counted: the replica fell behind the server
    together = len(offers) > 1
    commands = [(seat, pick(game, table, offered, seq, together=together)) for seat, offered, seq in offers]
    if together:
        phase.rounds_together += 1
        phase.sent_together += len(commands)
    answers = await asyncio.gather(*(post_as(client, table, seat, cmd, phase) for seat, cmd in commands))
    committed: list[tuple[dict[str, Any], Any]] = []
    for (seat, command), answer in zip(commands, answers, strict=True):
        if answer is None:
            failed = True
            continue
        response, t0, t1 = answer
        if response.status_code == 409 and error_code(response) in RACE_CODES:
            phase.refused[f"409 {error_code(response)}"] += 1
            continue
        if response.status_code != 200:
            phase.failures[f"POST: HTTP {response.status_code}: {response.text[:160]}"] += 1
            failed = True
            continue
        body = response.json()
        for event in body["events"]:
            table.expected[event["seq"]] = (seat, event["type"], event["data"])
        table.seq = max(table.seq, body["seq"])
        table.commands += 1
        phase.sent.append((table, body["seq"], t0))
        phase.reply_ms.append((t1 - t0) * 1000)
        committed.append((command, body))
    if table.state is not None:
        if failed:
            await resync(client, game, table)  # counted, as after any failed command
        else:
            committed.sort(
                key=lambda done: done[1]["events"][0]["seq"] if done[1]["events"] else done[1]["seq"]
            )
            for command, body in committed:
                await follow(client, game, table, command, body)
    return bool(committed) or not failed


def pick(
    game: Game, table: LiveTable, offered: dict[str, Any], seq: int, *, together: bool = False
) -> dict[str, Any]:
    """The command to send: the bot's choice on the replica when the game has a bot (and
    it plays this prompt), else a seeded random one of the served choices; seeded by the
    seat too when several seats choose from the same seq."""
    from app.kernel.types import Choice, Prompt

    if together:
        seq_key: Any = f"{seq}:{offered['seat']}"
    else:
        seq_key = seq
    served = [c["command"] for c in offered["choices"]]
    if table.state is not None:
        choices = tuple(
            Choice(c["command"]["type"], c["command"]["args"], c["label"], c["detail"])
            for c in offered["choices"]
        )
        prompt = Prompt(offered["seat"], offered["title"], choices)
        chosen = game.bot_choice(table.state, prompt, random.Random(f"{table.seed}:bot:{seq_key}"))  # type: ignore[attr-defined]
        for index, choice in enumerate(choices):
            if choice is chosen:
                return served[index]
        for index, choice in enumerate(choices):
            if chosen is not None and (choice.type, choice.args) == (chosen.type, chosen.args):
                return served[index]
    return served[random.Random(f"{table.seed}:pick:{seq_key}").randrange(len(served))]


async def follow(client: Any, game: Game, table: LiveTable, command: dict[str, Any], body: Any) -> None:
    """Decide the command on the replica as the server did (same seed and seq) and check
    the events' seqs and types against the response; rebuild the replica if they differ."""
    from app.kernel import table as kernel
    from app.kernel.rng import rng_for
    from app.kernel.types import GAME_MASTER, Command, Viewer

    seat = command["seat"]
    actor = GAME_MASTER if seat == GM_SEAT else Viewer("seat", frozenset({seat}))
    events = kernel.decide(
        game,
        table.state,
        Command(seat, command["type"], command["args"]),
        actor,
        rng_for(table.seed, table.replica_seq + 1),
    )
    mine = [(table.replica_seq + 1 + i, e.type) for i, e in enumerate(events)]
    told = [(e["seq"], e["type"]) for e in body["events"]]
    agrees = len(mine) == len(told) and all(
        a[0] == b[0] and (b[1] == "hidden" or a[1] == b[1]) for a, b in zip(mine, told, strict=True)
    )
    if agrees and body["seq"] == table.replica_seq + len(events):
        table.state = kernel.fold_all(game, table.state, events)
        table.replica_seq = body["seq"]
    else:
        await resync(client, game, table)  # counted: the replica disagreed with the server


def proxy_cpu(server: Server) -> float:
    """nginx's CPU seconds in front of ``--processes`` (already in ``server_cpu``); 0 without."""
    return tree_cpu_by_name(server.pid).get("nginx", 0.0) if server.processes > 1 else 0.0


def server_cpu(server: Server) -> float:
    """The server's CPU seconds: its one process, or summed over its whole tree (with
    workers: the supervisor and each; with processes: the supervisor, each serving process,
    nginx and its worker)."""
    return cpu_seconds(server.pid, children=server.workers > 1 or server.processes > 1)


async def loop_lag(client: Any, seconds: float) -> dict[str, float]:
    """The server's event-loop lag over the last ``seconds`` (one worker's, with several)."""
    try:
        response = await client.get("/healthz", params={"window": f"{max(0.1, seconds):.1f}"})
        return dict(response.json().get("loop_lag_ms", {}))
    except Exception:  # a figure, not a check
        return {}


async def caught_up(tables: list[LiveTable], budget_s: float, *, final: bool = False) -> bool:
    """Wait until every viewer has the frame of its table's newest seq."""
    deadline = CLOCK() + budget_s
    while True:
        if all(w.last >= (t.final_seq if final else t.seq) or w.closed for t in tables for w in t.watchers):
            return True
        if CLOCK() > deadline:
            return False
        await asyncio.sleep(0.01)


async def page_size(client: Any, table: LiveTable, when: str) -> None:
    response = await client.get(f"/t/{table.id}/watch")
    response.raise_for_status()
    table.page_bytes[when] = len(response.content)
