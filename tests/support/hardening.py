"""Helpers for the hardening tests: what the store holds, and a client whose secret key the
test knows (so a test can re-sign a forged export and reach the checks behind the signature)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select

from app.live.exports import sign
from app.main import create_app
from app.store import schema
from app.store.migrate import upgrade
from app.store.urls import sync_url
from tests.conftest import make_settings

TEST_KEY = "a-test-secret-key"


def store_counts(db_url: str) -> dict[str, int]:
    """Rows per table of the store: a refused request must leave these unchanged."""
    engine = create_engine(sync_url(db_url))
    try:
        with engine.connect() as conn:
            return {
                t.name: int(conn.scalar(select(func.count()).select_from(t)) or 0)
                for t in (schema.tables, schema.seats, schema.events)
            }
    finally:
        engine.dispose()


@contextmanager
def keyed_client(db_url: str, **overrides: Any) -> Iterator[TestClient]:
    """A client of an app that signs with ``TEST_KEY`` and lets a test import freely."""
    upgrade(db_url)
    settings = make_settings(db_url, **({"secret_key": TEST_KEY, "imports_per_minute": 10_000} | overrides))
    with TestClient(create_app(settings)) as client:
        yield client


def resign(doc: Any, key: str = TEST_KEY) -> Any:
    """``doc`` signed again, as a forger holding the key could (to test what lies behind);
    anything but an object is returned as it is."""
    if not isinstance(doc, dict):
        return doc
    doc = {k: v for k, v in doc.items() if k != "signature"}
    return doc | {"signature": sign(key, doc)}
