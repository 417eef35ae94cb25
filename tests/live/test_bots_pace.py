"""Bots move at a pace people can follow (issue 11): a table setting the game master
changes from the table page (a ``bot_pace`` command, logged, so it outlives a restart),
by default 1.5 s a move, and instant in test mode so tests and benches never wait."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from app.config import BOT_PACE, Settings
from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.support.tables import auth, create_body, first_choice


def command(client: TestClient, table: dict[str, Any], token: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/tables/{table['table_id']}/commands", json=body, headers=auth(token))


def pace_body(seconds: Any, command_id: str, seat: Any = "gm") -> dict[str, Any]:
    return {"command_id": command_id, "seat": seat, "type": "bot_pace", "args": {"seconds": seconds}}


def seq_of(client: TestClient, table: dict[str, Any]) -> int:
    return int(client.get(f"/api/tables/{table['table_id']}").json()["seq"])


def test_the_default_pace_comes_from_the_config() -> None:
    assert Settings().bot_delay == BOT_PACE == 1.5  # people can follow each move
    assert Settings(test_mode=True).bot_delay == 0.0  # tests and benches: at once
    assert Settings(test_mode=True, bot_delay=0.25).bot_delay == 0.25  # UMBRA_BOT_DELAY wins


def test_the_game_master_sets_the_pace_and_it_outlives_a_restart(sqlite_url: str) -> None:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url))) as client:
        table = client.post("/api/tables", json=create_body()).json()
        tid, gm = table["table_id"], table["gm_token"]
        seat0 = table["seats"][0]["token"]
        before = seq_of(client, table)
        # Refused, each with its reason, and nothing logged.
        assert (
            command(client, table, seat0, pace_body(1, "p-seat", seat=0)).json()["error"]["code"] == "gm_only"
        )
        for bad in (-1, 11, "slow", True, None):
            refused = command(client, table, gm, pace_body(bad, f"p-bad-{bad}"))
            assert refused.status_code == 422, refused.text
        assert seq_of(client, table) == before
        assert command(client, table, gm, pace_body(0.4, "p-1")).status_code == 200
        assert seq_of(client, table) == before + 1
        # Enough chat afterwards for snapshots past it: a reloaded table keeps only what
        # follows its newest snapshot in memory, so the pace is read from the older log.
        for i in range(25):
            chat = {"command_id": f"c-{i}", "seat": "gm", "type": "chat", "args": {"text": f"line {i}"}}
            assert command(client, table, gm, chat).status_code == 200

    with TestClient(create_app(make_settings(sqlite_url))) as client:
        assert client.get(f"/t/{tid}/gm/join/{gm}").status_code == 200
        page = client.get(f"/t/{tid}/gm").text
        assert '<option value="0.4" selected>0.4 s a move</option>' in page
        assert "sets the bots&#39; pace to 0.4 s a move" in client.get(f"/t/{tid}/watch").text

        # The bot waits that long before its move.
        assert (
            client.post(f"/api/tables/{tid}/seats/1/bot", json={"on": True}, headers=auth(gm)).status_code
            == 200
        )
        view = client.get(f"/api/tables/{tid}/view", headers=auth(seat0)).json()
        moved = command(client, table, seat0, first_choice(view, 0)).json()["seq"]
        started = time.monotonic()
        while seq_of(client, table) == moved:
            assert time.monotonic() - started < 10, "the bot did not move"
            time.sleep(0.02)
        assert time.monotonic() - started >= 0.35

        # The page's menu sets it back to "at once", and answers with the menu as it stands.
        menu = client.post(f"/t/{tid}/bot-pace", data={"seconds": "0"})
        assert menu.status_code == 200 and '<option value="0.0" selected>at once</option>' in menu.text
        refused = client.post(f"/t/{tid}/bot-pace", data={"seconds": "99"})
        assert refused.status_code == 422 and "bot-error" in refused.text
        client.cookies.clear()
        denied = client.post(f"/t/{tid}/bot-pace", data={"seconds": "3"})
        assert denied.status_code == 401

        # The log with its pace events is one this platform could have written: it imports.
        exported = client.get(f"/api/tables/{tid}/export", headers=auth(gm)).json()
        assert any(e["type"] == "table.bot_pace" for e in exported["events"])
        imported = client.post("/api/tables/import", json=exported)
        assert imported.status_code == 201, imported.text
