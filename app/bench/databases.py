"""The databases the benchmarks run on: a temporary SQLite file, and PostgreSQL.

PostgreSQL comes from ``--postgres-url``: a scratch database is created on that server and
dropped afterwards; if the role may not create databases, the named database itself is
used (brought to the newest schema, as ``umbra migrate`` would) and the bench deletes its
own rows. Without a URL it comes from a throwaway cluster started with
``tests/pg_cluster.py``. That module lives in the checkout's tests, which ``app`` never
imports at module level: the bench is a developer tool run from a checkout, so the repo
root is put on ``sys.path`` only when a cluster is wanted.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

import app

ROOT = Path(app.__file__).resolve().parents[1]


@dataclass(frozen=True)
class BenchDatabase:
    label: str
    """``sqlite`` or ``postgresql``: the first column of the figures."""
    url: str
    about: str
    """Where it is, for people (never a password)."""
    shared: bool = False
    """True when this is a database the bench did not create: it must delete its rows."""


def safe_url(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


@contextlib.contextmanager
def sqlite_database(name: str) -> Iterator[BenchDatabase]:
    """A fresh SQLite file in a temporary directory, removed afterwards."""
    folder = tempfile.mkdtemp(prefix="umbra-bench-")
    path = Path(folder) / f"{name}.db"
    try:
        yield BenchDatabase("sqlite", f"sqlite:///{path}", f"temporary file {path}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


def _scratch_name(purpose: str) -> str:
    return f"umbra_bench_{purpose}_{os.getpid()}_{uuid.uuid4().hex[:8]}"


def _with_dbname(url: str, name: str) -> str:
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def _start_cluster() -> tuple[Any, str]:
    """A started ``tests.pg_cluster.PgCluster``, or None and the reason it is not."""
    if not (ROOT / "tests" / "pg_cluster.py").is_file():
        return None, f"no tests/pg_cluster.py under {ROOT} (run from a checkout, or pass --postgres-url)"
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    try:
        from tests.pg_cluster import PgCluster, available
    except ImportError as exc:
        return None, f"cannot import tests.pg_cluster: {_first_line(exc)}"
    ok, reason = available()
    if not ok:
        return None, reason
    cluster = PgCluster()
    try:
        cluster.start()
    except Exception as exc:
        cluster.stop()
        return None, f"the throwaway cluster did not start: {_first_line(exc)}"
    return cluster, ""


@contextlib.contextmanager
def postgres_database(
    args: argparse.Namespace | Any, purpose: str
) -> Iterator[tuple[BenchDatabase | None, str]]:
    """``(database, "")``, or ``(None, why PostgreSQL is skipped)``."""
    if getattr(args, "no_postgres", False):
        yield None, "--no-postgres"
        return
    given = getattr(args, "postgres_url", None)
    if given:
        with _given_server(given, purpose) as found:
            yield found
        return
    cluster, reason = _start_cluster()
    if cluster is None:
        yield None, reason
        return
    try:
        name = _scratch_name(purpose)
        url = cluster.create_database(name)
        where = "the server at $UMBRA_TEST_PG_URL" if cluster.external_url else "a throwaway cluster"
        yield BenchDatabase("postgresql", url, f"database {name} on {where} (tests/pg_cluster.py)"), ""
    finally:
        cluster.stop()


@contextlib.contextmanager
def _given_server(given: str, purpose: str) -> Iterator[tuple[BenchDatabase | None, str]]:
    import psycopg
    from psycopg import sql

    from app.store.urls import is_postgres, libpq_dsn

    try:
        if not is_postgres(given):
            raise ValueError("not a postgresql:// URL")
        dsn = libpq_dsn(given)
    except ValueError as exc:
        yield None, f"--postgres-url {safe_url(given)!r}: {exc}"
        return
    name = _scratch_name(purpose)
    try:
        with psycopg.connect(dsn, autocommit=True, connect_timeout=10) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.OperationalError as exc:
        yield None, f"cannot connect to {safe_url(given)}: {_first_line(exc)}"
        return
    except psycopg.Error as exc:
        # No right to create databases: use the named one, and delete our rows after.
        about = (
            f"{safe_url(given)} itself (no scratch database: {_first_line(exc)}); "
            "the bench deletes its rows afterwards"
        )
        yield BenchDatabase("postgresql", given, about, shared=True), ""
        return
    try:
        yield (
            BenchDatabase(
                "postgresql", _with_dbname(given, name), f"scratch database {name} on {safe_url(given)}"
            ),
            "",
        )
    finally:
        with (
            contextlib.suppress(psycopg.Error),
            psycopg.connect(dsn, autocommit=True, connect_timeout=10) as conn,
        ):
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def purge_tables(database_url: str, table_ids: Sequence[str], extra_tables: Sequence[str] = ()) -> None:
    """Delete the bench's rows from a database it did not create (and drop its own tables)."""
    from sqlalchemy import create_engine, pool, text

    from app.store import schema
    from app.store.urls import sync_url

    engine = create_engine(sync_url(database_url), poolclass=pool.NullPool)
    try:
        with engine.begin() as conn:
            for t in (schema.snapshots, schema.events, schema.commands, schema.seats):
                conn.execute(t.delete().where(t.c.table_id.in_(list(table_ids))))
            conn.execute(schema.tables.delete().where(schema.tables.c.id.in_(list(table_ids))))
            for name in extra_tables:
                conn.execute(text(f"DROP TABLE IF EXISTS {name}"))
    finally:
        engine.dispose()


def postgres_settings(database_url: str) -> str:
    """The server version and the settings that decide what a commit costs."""
    import psycopg

    from app.store.urls import libpq_dsn

    with psycopg.connect(libpq_dsn(database_url), autocommit=True, connect_timeout=10) as conn:
        values = {
            k: conn.execute(f"SHOW {k}").fetchone()[0]  # type: ignore[index]
            for k in ("server_version", "fsync", "synchronous_commit", "wal_sync_method")
        }
    version = values.pop("server_version").split()[0]
    return f"PostgreSQL {version}, " + ", ".join(f"{k}={v}" for k, v in values.items())


async def sqlite_settings(engine: Any) -> str:
    """The SQLite version and the pragmas that decide what a commit costs, as the app's
    connections see them (``EventStore`` sets WAL on every connection)."""
    from sqlalchemy import text

    names = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}
    async with engine.connect() as conn:
        version = await conn.scalar(text("SELECT sqlite_version()"))
        journal = await conn.scalar(text("PRAGMA journal_mode"))
        sync = await conn.scalar(text("PRAGMA synchronous"))
    return f"SQLite {version}, journal_mode={journal}, synchronous={names.get(sync, sync)}"


def on_each_database(
    args: argparse.Namespace | Any, name: str, bench_one: Callable[[BenchDatabase], bool]
) -> int:
    """Run ``bench_one`` on a temporary SQLite file (unless ``--no-sqlite``), then on
    PostgreSQL when one can be had; the exit code: 0 if every run succeeded and at least
    one ran, else 1."""
    ok, ran = True, 0
    if getattr(args, "no_sqlite", False):
        print("sqlite: skipped: --no-sqlite", flush=True)
    else:
        with sqlite_database(name) as db:
            ok &= bench_one(db)
            ran += 1
    with postgres_database(args, name.replace("-", "_")) as (pg, reason):
        if pg is None:
            print(f"postgresql: skipped: {reason}", flush=True)
        else:
            ok &= bench_one(pg)
            ran += 1
    return 0 if ok and ran else 1
