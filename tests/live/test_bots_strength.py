"""How a table's bots play (issue 27): the game master picks strong (the search) or quick
(the heuristic) per table, from the table page or the API (a ``bot_strength`` command,
logged, so it outlives a restart); strong by default, quick in test mode. Either way the
bot decides on a world redrawn for its seat, in the bots' thread."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.kernel import playout
from app.kernel.search import quick_choice, search_choice
from app.live.bots import think
from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.support.lanterns import LANTERNS
from tests.support.tables import auth, create_body, first_choice


def command(client: TestClient, table: dict[str, Any], token: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/tables/{table['table_id']}/commands", json=body, headers=auth(token))


def strength_body(strength: Any, command_id: str, seat: Any = "gm") -> dict[str, Any]:
    return {"command_id": command_id, "seat": seat, "type": "bot_strength", "args": {"strength": strength}}


def seq_of(client: TestClient, table: dict[str, Any]) -> int:
    return int(client.get(f"/api/tables/{table['table_id']}").json()["seq"])


def test_the_default_strength_comes_from_the_config() -> None:
    assert Settings().bot_strength == "strong"
    assert Settings(test_mode=True).bot_strength == "quick"  # tests never wait on a search
    assert Settings(test_mode=True, bot_strength="strong").bot_strength == "strong"
    with pytest.raises(ValueError, match="strong or quick"):
        Settings(bot_strength="grandmaster")


def test_think_searches_when_strong_and_asks_the_heuristic_when_quick() -> None:
    state = playout.set_up(LANTERNS, {"target": 12}, ["Ann", "Bo"], "strength").state
    prompt = next(p for p in LANTERNS.prompts(state) if p.required)
    assert think(LANTERNS, state, prompt, random.Random(4), "strong") == search_choice(
        LANTERNS, state, prompt, random.Random(4)
    )
    assert think(LANTERNS, state, prompt, random.Random(4), "quick") == quick_choice(
        LANTERNS, state, prompt, random.Random(4)
    )


def test_the_game_master_sets_the_strength_and_it_outlives_a_restart(sqlite_url: str) -> None:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url))) as client:
        table = client.post("/api/tables", json=create_body()).json()
        tid, gm = table["table_id"], table["gm_token"]
        seat0 = table["seats"][0]["token"]
        before = seq_of(client, table)
        refused = command(client, table, seat0, strength_body("strong", "s-seat", seat=0))
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "gm_only"
        for i, bad in enumerate(("grandmaster", "", 1, None, ["strong"])):
            refused = command(client, table, gm, strength_body(bad, f"s-bad-{i}"))
            assert refused.status_code == 422, refused.text
            assert refused.json()["error"]["code"] == "bad_bot_strength"
        assert seq_of(client, table) == before
        assert command(client, table, gm, strength_body("strong", "s-1")).status_code == 200
        assert seq_of(client, table) == before + 1

    with TestClient(create_app(make_settings(sqlite_url))) as client:
        assert client.get(f"/t/{tid}/gm/join/{gm}").status_code == 200
        page = client.get(f"/t/{tid}/gm").text
        assert '<option value="strong" selected>strong (thinks a moment ahead)</option>' in page
        assert "sets the bots to play strong (thinks a moment ahead)" in client.get(f"/t/{tid}/watch").text

        # The strong bot plays its seat (thinking in the bots' thread).
        assert (
            client.post(f"/api/tables/{tid}/seats/1/bot", json={"on": True}, headers=auth(gm)).status_code
            == 200
        )
        view = client.get(f"/api/tables/{tid}/view", headers=auth(seat0)).json()
        moved = command(client, table, seat0, first_choice(view, 0)).json()["seq"]
        started = time.monotonic()
        while seq_of(client, table) == moved:
            assert time.monotonic() - started < 10, "the strong bot did not move"
            time.sleep(0.02)

        # The page's menu sets it to quick, and answers with both menus as they stand.
        menu = client.post(f"/t/{tid}/bot-strength", data={"strength": "quick"})
        assert menu.status_code == 200
        assert '<option value="quick" selected>quick (plays by rule of thumb)</option>' in menu.text
        assert 'id="bot-pace"' in menu.text
        refused = client.post(f"/t/{tid}/bot-strength", data={"strength": "x" * 5000})
        assert refused.status_code == 422 and "bot-error" in refused.text
        client.cookies.clear()
        assert client.post(f"/t/{tid}/bot-strength", data={"strength": "strong"}).status_code == 401

        # The log with its strength events is one this platform could have written: it imports.
        exported = client.get(f"/api/tables/{tid}/export", headers=auth(gm)).json()
        assert [e["data"] for e in exported["events"] if e["type"] == "table.bot_strength"] == [
            {"strength": "strong"},
            {"strength": "quick"},
        ]
        assert client.post("/api/tables/import", json=exported).status_code == 201
