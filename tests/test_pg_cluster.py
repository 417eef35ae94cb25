"""The throwaway PostgreSQL cluster used by the postgres-marked tests works."""

from __future__ import annotations

import psycopg
import pytest

pytestmark = pytest.mark.postgres


def test_version_is_15(pg_url: str) -> None:
    assert pg_url.startswith("postgresql://")
    with psycopg.connect(pg_url) as conn:
        (version,) = conn.execute("select version()").fetchone()
        (dbname,) = conn.execute("select current_database()").fetchone()
    assert "PostgreSQL 15" in version
    assert pg_url.endswith("/" + dbname)


def test_each_test_gets_a_fresh_database(pg_url: str) -> None:
    with psycopg.connect(pg_url) as conn:
        conn.execute("create table marker (x int)")  # would fail if the db were reused
        (n,) = conn.execute(
            "select count(*) from information_schema.tables where table_schema = 'public'"
        ).fetchone()
    assert n == 1


def test_listen_notify_roundtrip(pg_url: str) -> None:
    with (
        psycopg.connect(pg_url, autocommit=True) as listener,
        psycopg.connect(pg_url, autocommit=True) as sender,
    ):
        listener.execute("LISTEN umbra_test")
        listener_pid, sender_pid = listener.info.backend_pid, sender.info.backend_pid
        sender.execute("SELECT pg_notify('umbra_test', 'table-1:42')")
        # NOTIFY inside a transaction is delivered only at commit.
        with sender.transaction():
            sender.execute("NOTIFY umbra_test, 'table-1:43'")
        got: list[tuple[str, str, int]] = []
        for note in listener.notifies(timeout=5, stop_after=2):
            got.append((note.channel, note.payload, note.pid))
    assert [(c, p) for c, p, _ in got] == [
        ("umbra_test", "table-1:42"),
        ("umbra_test", "table-1:43"),
    ]
    assert {pid for _, _, pid in got} == {sender_pid} != {listener_pid}
