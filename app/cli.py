"""The ``umbra`` command: serve, migrate, bench."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from app.bench import HELP as BENCH_HELP
from app.config import Settings
from app.kernel.event_schema import main as event_schema_main


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.store.migrate import upgrade
    from app.store.urls import is_postgres

    settings = Settings.from_env()
    if args.workers < 1 or args.processes < 1:
        print("umbra serve: --workers and --processes must be at least 1", file=sys.stderr)
        return 2
    if args.processes > 1:
        if args.workers > 1:
            print("umbra serve: --processes runs one worker each; leave --workers out", file=sys.stderr)
            return 2
        if not is_postgres(settings.database_url):
            print(
                f"umbra serve: --processes {args.processes} needs PostgreSQL (DATABASE_URL=postgresql://…): "
                "a process serving a table another process served before hears its commits through "
                "LISTEN/NOTIFY, and SQLite has no such channel, so with SQLite a server runs one process",
                file=sys.stderr,
            )
            return 2
        from app.serving.cluster import serve_cluster

        upgrade(settings.database_url)
        return serve_cluster(args.host, args.port, args.processes, args.log_level)
    if args.workers > 1 and not is_postgres(settings.database_url):
        print(
            f"umbra serve: --workers {args.workers} needs PostgreSQL (DATABASE_URL=postgresql://...): "
            "the processes of a server hear each other's commits through its LISTEN/NOTIFY, and SQLite "
            "has no such channel, so with SQLite a server runs one process (--workers 1)",
            file=sys.stderr,
        )
        return 2
    upgrade(settings.database_url)
    workers = f", {args.workers} worker processes" if args.workers > 1 else ""
    print(
        f"umbra: serving on http://{args.host}:{args.port} (database {settings.database_url}{workers})",
        flush=True,
    )
    uvicorn.run(
        "app.main:create_served_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        proxy_headers=True,
        forwarded_allow_ips=os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
        # Longer than any client's idle keep-alive (httpx, browsers: 5 to 60 s), so the
        # server never closes a pooled connection just as a client sends on it (a dropped
        # request, httpx ReadError, under load); a proxy in front keeps its own.
        timeout_keep_alive=int(os.environ.get("UMBRA_KEEP_ALIVE_SECONDS", "75")),
    )
    return 0


def cmd_migrate(_: argparse.Namespace) -> int:
    from app.store.migrate import upgrade

    settings = Settings.from_env()
    upgrade(settings.database_url)
    print(f"umbra: {settings.database_url} is at the newest schema")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from app.bench import run

    return run(args.what, args.game, args)


class Parser(argparse.ArgumentParser):
    """Checks the options that depend on which bench runs: ``--workers`` means worker
    processes of one server for 'live' (any number), separate servers for 'soak' (1 or 2)."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, rest = super().parse_known_args(args, namespace)
        if getattr(parsed, "what", None) == "soak" and getattr(parsed, "workers", None) not in (None, 1, 2):
            self.error(f"argument --workers: umbra bench soak runs 1 or 2 servers, not {parsed.workers}")
        return parsed, rest


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="umbra",
        description="Umbra: dark cooperative board games, played together in the browser.",
        epilog="Settings come from the environment: DATABASE_URL (default sqlite:///data/umbra.db), "
        "UMBRA_PUBLIC_URL, UMBRA_TEST_MODE.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    serve = sub.add_parser("serve", help="apply migrations, then serve the web app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes, each serving any table (PostgreSQL only: they hear each other's "
        "commits by LISTEN/NOTIFY; default 1)",
    )
    serve.add_argument(
        "--processes",
        type=int,
        default=1,
        help="serving processes behind a generated nginx on --host/--port, each table living in "
        "one of them (a consistent hash of its id); a process that dies is restarted "
        "(PostgreSQL and Debian's nginx; default 1: one process, no nginx)",
    )
    serve.add_argument("--log-level", default="info")
    serve.set_defaults(func=cmd_serve)

    migrate = sub.add_parser("migrate", help="bring the database to the newest schema")
    migrate.set_defaults(func=cmd_migrate)

    schema = sub.add_parser(
        "event-schema",
        help="learn a game's event_schema.json from seeded random games and the golden games",
    )
    schema.add_argument("game")
    schema.add_argument("games", type=int, nargs="?", default=60, help="seeded games per option set")
    schema.add_argument("options", nargs="*", help="option sets, each as JSON (default: the defaults)")
    schema.set_defaults(func=lambda a: event_schema_main([a.game, str(a.games), *a.options]))

    bench = sub.add_parser(
        "bench",
        help="measure the store, the live layer or an engine; soak the servers",
        description="Benchmarks of this checkout (a developer tool). What each prints:",
        epilog=BENCH_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bench.add_argument("what", choices=["store", "live", "soak", "engine", "bots"])
    bench.add_argument(
        "game",
        nargs="?",
        default=None,
        help="a game, for 'engine', 'bots' and 'live' (live: pulse by default)",
    )
    bench.add_argument(
        "--postgres-url",
        default=os.environ.get("UMBRA_BENCH_PG_URL"),
        help="an existing PostgreSQL to use (default: start a throwaway cluster)",
    )
    bench.add_argument("--quick", action="store_true", help="a smaller run, for a smoke test")
    bench.add_argument(
        "--per-hero",
        action="store_true",
        help="engine darkest_night: also the bot's win rate per hero "
        "(about 1,500 bot games; 5 per hero with --quick)",
    )
    bench.add_argument("--no-postgres", action="store_true", help="SQLite only: skip PostgreSQL")
    bench.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only: skip SQLite")
    bench.add_argument(
        "--tables",
        type=int,
        default=None,
        metavar="N",
        help="tables played at once (live: 50, 5 with --quick; soak: 20, 3 with --quick)",
    )
    bench.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="W",
        help="live: worker processes of the one 'umbra serve' (PostgreSQL only; default 1); soak: separate "
        "'umbra serve' processes sharing the database (1 or 2; default 2; SQLite: 1)",
    )
    bench.add_argument(
        "--processes",
        type=int,
        default=None,
        metavar="P",
        help="live and soak: 'umbra serve --processes P', P serving processes behind nginx, each "
        "table in one (PostgreSQL and nginx; default 1); live sums the server's CPU over the whole "
        "tree; soak --chaos kills one serving process at a time",
    )
    live = bench.add_argument_group("live", "options of 'umbra bench live'")
    live.add_argument(
        "--seats", type=int, default=None, metavar="S", help="seats per table (default: the game's max_seats)"
    )
    live.add_argument(
        "--rate",
        type=float,
        default=None,
        metavar="R",
        help="a fixed offered load: R commands per second per table, tables at random offsets, "
        "for --seconds (default: one round in flight per table, as fast as the server answers: the "
        "waited-on seat's command, or every waited-on seat's at once)",
    )
    live.add_argument(
        "--seconds", type=float, default=None, metavar="S", help="--rate phase length (30; 10 with --quick)"
    )
    live.add_argument(
        "--viewers", type=int, default=None, metavar="V", help="html spectator sockets per table (default 2)"
    )
    live.add_argument(
        "--seat-format",
        choices=["json", "html"],
        default="json",
        help="what each seat's websocket asks for: json events (checked exactly-once, in order) or the "
        "seat page's html fragments, as a browser gets them (default json)",
    )
    live.add_argument("--json", action="store_true", help="print the figures as one JSON document on stdout")
    soak = bench.add_argument_group("soak", "options of 'umbra bench soak'")
    soak.add_argument(
        "--minutes", type=float, default=None, metavar="T", help="how long to play (10; 0.3 with --quick)"
    )
    soak.add_argument(
        "--chaos", action="store_true", help="kill a server process or restart PostgreSQL now and then"
    )
    soak.add_argument(
        "--seed", type=int, default=None, metavar="S", help="seed of the tables, the clients and the chaos"
    )
    bots = bench.add_argument_group("bots", "options of 'umbra bench bots' (and --json, --quick)")
    bots.add_argument(
        "--games", type=int, default=None, metavar="N", help="games per scenario (20; 2 with --quick)"
    )
    bots.add_argument(
        "--jobs", type=int, default=None, metavar="J", help="processes playing games (one per core)"
    )
    bots.add_argument(
        "--strength",
        choices=["strong", "quick"],
        default="strong",
        help="the bot: the search or the heuristic",
    )
    bots.add_argument("--scenario", default=None, metavar="A,B", help="only these scenarios")
    bots.add_argument(
        "--live",
        action="store_true",
        help="tables of bots on a real server (the first scenario, --tables, --seconds): their pace and "
        "the event loop's lag",
    )
    bots.add_argument("--pace", type=float, default=None, metavar="S", help="--live: the bots' pace (0.5 s)")
    bench.set_defaults(func=cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
