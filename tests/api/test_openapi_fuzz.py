"""Issue 23, item 5: schemathesis generates requests for every operation of the app's own
OpenAPI schema and sends them to a real server (uvicorn, SQLite), most of them to real
tables of each game with a real seat's or game master's token. Whatever it sends: never
a 5xx, every API error is ``{"error": {"code", "message"}}``, and a refused command leaves
its table's seq where it was.

``UMBRA_OPENAPI_CASES`` sets the examples per operation (CI: 25)."""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from app.main import create_app
from tests.conftest import LiveServer, make_settings
from tests.support.api_play import SCENARIOS

EXAMPLES = int(os.environ.get("UMBRA_OPENAPI_CASES", "25"))


class Served:
    """A server with one table of each game, and its tokens."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.tables: list[tuple[str, list[str]]] = []
        for game, (options, seats) in sorted(SCENARIOS.items()):
            body = {"game": game, "options": options, "seats": [{"name": f"P{i}"} for i in range(seats)]}
            made = httpx.post(f"{server.url}/api/tables", json=body, timeout=30).json()
            tokens = [made["gm_token"], *(s["token"] for s in made["seats"])]
            self.tables.append((made["table_id"], tokens))

    def seq(self, table_id: str) -> int | None:
        """The table's seq, or None while a bot holds one of its seats: a bot an earlier case
        switched on plays in the background, so its commits say nothing of this request."""
        response = httpx.get(f"{self.server.url}/api/tables/{table_id}", timeout=30)
        if response.status_code != 200:
            return None
        summary = response.json()
        return None if any(seat.get("bot") for seat in summary["seats"]) else summary["seq"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    where = tmp_path_factory.mktemp("openapi")
    server = LiveServer(f"sqlite:///{where / 'umbra.db'}", log_path=where / "server.log").start()
    try:
        yield Served(server)
    finally:
        server.stop()


# The app's own schema, as a server serves it at /openapi.json (made without starting it).
schema = schemathesis.openapi.from_dict(create_app(make_settings("sqlite://")).openapi())


def pick(text: Any, among: list[Any]) -> Any:
    """One of ``among``, chosen by ``text`` (the same case picks the same, run after run)."""
    return among[zlib.crc32(str(text).encode()) % len(among)]


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_request_fails_the_server_or_moves_a_table_it_refused(case: Any, served: Served) -> None:
    params = case.path_parameters or {}
    table_id = None
    headers: dict[str, str] = {}
    if "table_id" in params:
        chosen = pick(params["table_id"], [*served.tables, None])  # a real table, mostly
        if chosen is not None:
            table_id, tokens = chosen
            params["table_id"] = table_id
            headers["Authorization"] = f"Bearer {pick(case.body, tokens)}"
    before = served.seq(table_id) if table_id else None
    response = case.call(base_url=served.server.url, headers=headers, timeout=30)
    assert response.status_code < 500, (case.method, case.formatted_path, case.body, response.text[:300])
    if response.status_code >= 400 and case.formatted_path.startswith("/api/"):
        kind = response.headers.get("content-type") or [""]  # schemathesis lists each header's values
        assert kind[0].startswith("application/json"), response.text[:200]
        error = response.json()["error"]
        assert error["code"] and error["message"], response.text[:300]
        if table_id is not None:
            assert served.seq(table_id) == before, (case.method, case.formatted_path, case.body)
