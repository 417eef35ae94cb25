"""Benchmarks behind ``umbra bench``: a developer tool, run from a checkout.

``HELP`` below is what ``umbra bench --help`` prints about each benchmark; the modules say
how each measures.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["HELP", "run"]

HELP = """\
benchmarks (each runs on a temporary SQLite file, then on PostgreSQL):

umbra bench store
    Appends per second and p50/p99 append latency of EventStore.append (one command of 3
    events, and a single event), each beside a bare single-row INSERT + COMMIT through the
    same engine and driver: the ratio to the bare insert is the figure that matters.

umbra bench live [<game>]
    Any registered game (default: the bench game pulse) played live against a real
    'umbra serve' process: N tables (--tables; 50, 5 with --quick) of the game's default
    options and max_seats seats (--seats), created over the HTTP API; a JSON websocket per
    seat and 2 html spectators per table. Each command is one the server offers the
    waited-on seat (GET /view), picked by the game's bot if it has one (on a replica kept
    in lockstep with the server), else at random, and POSTed. Per phase (1 table at a
    time, then all at once): commands and commands/s; push p50/p95/p99, from just before
    the POST to the frame at each seat's websocket; frag p50/p95/p99, the same at each
    spectator; POST p50/p99; bytes per command per spectator and the diff ratio against a
    full page render; the server's CPU ms per command and CPU %. Fails if a command fails,
    a viewer misses a frame, or a seat's websocket loses, repeats or reorders an event.
    --processes P serves through 'umbra serve --processes P' (PostgreSQL, nginx): P
    processes behind the generated nginx, each table in one; the server's CPU is summed
    over the whole tree (the processes, nginx and its worker), PostgreSQL's apart.
    Extra game modules for the server and the bench: UMBRA_EXTRA_GAMES=module[,module].

umbra bench soak
    Darkest Night tables (--tables, 20) played for --minutes (10) by the server's bot and
    one careful client seat each, on one or two 'umbra serve' processes (--workers)
    sharing one database, with JSON viewers that resume after a drop; --chaos kills a
    server or restarts PostgreSQL now and then (--seed). Prints commands, errors, latency,
    bot moves, each process's memory and file descriptors, and checks that every
    acknowledged command is in the log and every viewer saw every event once, in order.

umbra bench engine <game>
    The game's own engine benchmark when its package has a 'bench' module with
    run(args) (e.g. app/games/darkest_night/bench.py); otherwise random legal playouts of
    the pure engine (app.kernel.conformance.random_playout, every seat count in turn) for
    20 s (3 s with --quick): commands/s, games/s and the median commands per game.

umbra bench bots <game>
    Whole games with bots in every seat, per scenario of the game (its bench module's
    BOT_SCENARIOS), --games seeded games each (20; 2 with --quick) on --jobs processes:
    games, wins, win rate with its 95 % interval, decision time p50/p95 (questions with two
    or more answers). --strength strong (default: the search, app/kernel/search.py) or
    quick (the heuristic); --scenario a,b plays only those; --json prints one JSON
    document {"scenarios": [{"name", "games", "wins", "decision_ms_p50", ...}]}.
    --live: instead, --tables (2) tables of the first scenario, every seat a bot at --pace
    (0.5 s), on a real server for --seconds (30): moves, seconds between moves, stalled
    tables and the event loop's lag; fails if a table stalls or the lag reaches 50 ms.

PostgreSQL: --postgres-url (or UMBRA_BENCH_PG_URL) names a server, where the bench makes
a scratch database and drops it afterwards; without one it starts a throwaway cluster
(tests/pg_cluster.py). --no-postgres, or no PostgreSQL to be had: SQLite only, saying why.

Exit codes: 0 done and every check passed; 1 a benchmark or one of its checks failed;
2 nothing to run (an unknown game, a bad option).
"""


def run(what: str, game: str | None, args: argparse.Namespace | Any) -> int:
    """Run benchmark ``what`` (``store``, ``live``, ``soak`` or ``engine``) and return an exit code."""
    if what == "store":
        if game:
            print(f"umbra bench store takes no game (got {game!r})")
            return 2
        from app.bench.store import run_store

        return run_store(args)
    if what == "live":
        from app.bench.live import run_live

        return run_live(game, args)
    if what == "soak":
        if game and game.replace("-", "_") != "darkest_night":
            print(f"umbra bench soak plays darkest_night; no soak for {game} yet")
            return 2
        from app.bench.soak import run_soak

        return run_soak(args)
    if what == "bots":
        from app.bench.bots import run_bots

        return run_bots(game, args)
    if what == "engine":
        from app.bench.engine import run_engine

        return run_engine(game, args)
    print(f"unknown benchmark {what!r}: store, live, soak, engine or bots")
    return 2
