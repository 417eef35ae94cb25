"""Benchmarks behind ``umbra bench``: a developer tool, run from a checkout.

``umbra bench store``
    Appends per second and p50/p99 append latency of ``EventStore.append`` (one command
    of 3 events, and a single event) on a temporary SQLite file and on PostgreSQL, each
    beside a bare single-row ``INSERT`` + ``COMMIT`` through the same engine and driver in
    the same run. The ratio to the bare insert is the figure that matters. See
    ``app.bench.store``.

``umbra bench live``
    Command-to-push latency over real websockets on loopback: a real ``umbra serve``
    process, 100 tables of the bench game Pulse (``app.bench.pulse``) with 5 viewers each,
    commands sent over HTTP; p50/p99 over every (command, viewer) pair, commands per
    second, and a check that every viewer got every event exactly once and in order.
    See ``app.bench.live``.

``umbra bench live darkest_night``
    Darkest Night played live: 50 tables of 4 seats played by the heuristic bot from the
    client side (prompts from ``GET /view``, commands over HTTP) and 2 spectators each on
    ``format=html`` websockets: command-to-fragment latency p50/p99 at each spectator,
    bytes sent per command per spectator against a full page render (the diff ratio), and
    the server's CPU time per command. See ``app.bench.live_darkest_night``.

``umbra bench soak``
    Darkest Night tables (``--tables``, 20) played for ``--minutes`` (10) by the server's
    bot and one careful client seat each, on one or two ``umbra serve`` processes
    (``--workers``) sharing one database, with JSON viewers that resume after a drop;
    ``--chaos`` kills a server process or restarts PostgreSQL now and then (``--seed``).
    Reports commands, errors, latency, bot moves and each process's memory and file
    descriptors, and checks that every acknowledged command is in the log and every
    viewer saw every event once and in order. See ``app.bench.soak``.

``umbra bench engine <game>``
    Dispatched to the game: if ``app/games/<game>/bench.py`` exists and defines
    ``run(args) -> int``, that function runs with the parsed command-line arguments
    (``args.quick`` asks for a smaller run) and its result is the exit code. Without one
    the command prints ``no engine benchmark for <game> yet`` and exits with 2.

PostgreSQL: ``--postgres-url`` (or ``UMBRA_BENCH_PG_URL``) names a server; the bench
creates a scratch database there and drops it afterwards. Without one it starts a
throwaway cluster with ``tests/pg_cluster.py`` from the checkout. If neither works (or
``--no-postgres`` is given) it says why PostgreSQL was skipped and reports SQLite only.

Exit codes: 0 done (and, for ``live``, no event lost, duplicated or out of order, and no
command failed; for ``live darkest_night``, no command failed and every spectator got
every command's frame; for ``soak``, its three checks passed); 1 a benchmark failed; 2
nothing to run.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

__all__ = ["run"]


def run(what: str, game: str | None, args: argparse.Namespace | Any) -> int:
    """Run benchmark ``what`` (``store``, ``live``, ``soak`` or ``engine``) and return an exit code."""
    if what == "store":
        if game:
            print(f"umbra bench store takes no game (got {game!r})")
            return 2
        from app.bench.store import run_store

        return run_store(args)
    if what == "live":
        if game and game.replace("-", "_") == "darkest_night":
            from app.bench.live_darkest_night import run_live_darkest_night

            return run_live_darkest_night(args)
        if game and game != "pulse":
            print(f"umbra bench live runs pulse or darkest_night; no live benchmark for {game} yet")
            return 2
        from app.bench.live import run_live

        return run_live(args)
    if what == "soak":
        if game and game.replace("-", "_") != "darkest_night":
            print(f"umbra bench soak plays darkest_night; no soak for {game} yet")
            return 2
        from app.bench.soak import run_soak

        return run_soak(args)
    if what == "engine":
        return run_engine(game, args)
    print(f"unknown benchmark {what!r}: store, live, soak or engine")
    return 2


def run_engine(game: str | None, args: argparse.Namespace | Any) -> int:
    """Hand over to ``app.games.<game>.bench.run(args)``, if the game provides one."""
    if not game:
        print("umbra bench engine needs a game: umbra bench engine <game>")
        return 2
    package = game.replace("-", "_")
    if not package.isidentifier():
        print(f"no engine benchmark for {game} yet")
        return 2
    name = f"app.games.{package}.bench"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        # Only "there is no such module" means no benchmark; an import error inside an
        # existing bench module is a real failure and propagates.
        if exc.name not in (name, f"app.games.{package}"):
            raise
        print(f"no engine benchmark for {game} yet")
        return 2
    runner = getattr(module, "run", None)
    if not callable(runner):
        print(f"no engine benchmark for {game} yet ({name} defines no run(args))")
        return 2
    return int(runner(args) or 0)
