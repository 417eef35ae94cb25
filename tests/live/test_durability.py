"""Issue 23, item 6: a server does not serve on a PostgreSQL that may lose what it
acknowledged (``synchronous_commit = off``) unless told to with a loud warning."""

from __future__ import annotations

import logging

import psycopg
import pytest
from fastapi.testclient import TestClient
from psycopg import sql
from sqlalchemy.engine import make_url

from app.live.hub import AsyncCommitRefused
from app.main import create_app
from app.store.migrate import upgrade
from app.store.urls import libpq_dsn
from tests.conftest import make_settings
from tests.support.tables import create_body

pytestmark = pytest.mark.postgres


def set_synchronous_commit(url: str, value: str) -> None:
    name = make_url(url).database
    with psycopg.connect(libpq_dsn(url), autocommit=True) as conn:
        conn.execute(
            sql.SQL("ALTER DATABASE {} SET synchronous_commit = {}").format(
                sql.Identifier(name), sql.SQL(value)
            )
        )


def test_a_server_refuses_to_serve_when_commits_are_asynchronous(pg_url: str) -> None:
    upgrade(pg_url)
    set_synchronous_commit(pg_url, "off")
    app = create_app(make_settings(pg_url))
    with pytest.raises(AsyncCommitRefused, match="UMBRA_ALLOW_ASYNC_COMMIT=1"), TestClient(app):
        pass


def test_it_serves_with_a_loud_warning_when_allowed(pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    upgrade(pg_url)
    set_synchronous_commit(pg_url, "off")
    app = create_app(make_settings(pg_url, allow_async_commit=True))
    with caplog.at_level(logging.WARNING, logger="app.live.hub"), TestClient(app) as client:
        assert client.post("/api/tables", json=create_body()).status_code == 201
    assert any("synchronous_commit is off" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("value", ["on", "local", "remote_write"])
def test_durable_settings_serve_quietly(pg_url: str, value: str, caplog: pytest.LogCaptureFixture) -> None:
    upgrade(pg_url)
    set_synchronous_commit(pg_url, value)
    app = create_app(make_settings(pg_url))
    with caplog.at_level(logging.WARNING, logger="app.live.hub"), TestClient(app) as client:
        assert client.post("/api/tables", json=create_body()).status_code == 201
    assert not [r for r in caplog.records if "synchronous_commit" in r.getMessage()]
