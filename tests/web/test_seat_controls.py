"""A seat's own controls on its page (issue 11): handing the seat to the bot and taking it
back, the "auto-pass" setting as a checkbox, a refused click's message stamped with the
seq it was refused at (the page clears it with the next update), and a device whose seat
moved elsewhere led to the live spectator page."""

from __future__ import annotations

import html
import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.support.tables import auth, create_body, first_choice
from tests.web.test_darkest_night_board import new_dn_table, play, play_to_first_action, section


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url))) as test_client:
        yield test_client


def summary(client: TestClient, table_id: str) -> dict[str, Any]:
    return client.get(f"/api/tables/{table_id}").json()


def test_a_player_hands_their_own_seat_to_the_bot_and_takes_it_back(client: TestClient) -> None:
    table = client.post("/api/tables", json=create_body(seats=2)).json()
    tid = table["table_id"]
    client.get(f"/t/{tid}/join/{table['seats'][0]['token']}")
    page = section(client.get(f"/t/{tid}").text, "seats")
    assert 'aria-label="Let the bot play Player 1"' in page  # their own seat
    assert "Let the bot play Player 2" not in page  # not another player's

    before = summary(client, tid)
    assert before["waiting_for"] == [0]
    on = client.post(f"/t/{tid}/seats/0/bot", data={"on": "1"})
    assert on.status_code == 200 and 'id="flash"' in on.text
    assert summary(client, tid)["seats"][0]["bot"] is True
    assert "Bot playing — take it back" in section(client.get(f"/t/{tid}").text, "seats")
    # The bot plays the seat while it is on (an instant pace in test mode).
    deadline = time.monotonic() + 10
    while summary(client, tid)["seq"] == before["seq"]:
        assert time.monotonic() < deadline, "the bot did not play the seat"
        time.sleep(0.02)

    off = client.post(f"/t/{tid}/seats/0/bot", data={"on": "0"})
    assert off.status_code == 200
    assert summary(client, tid)["seats"][0]["bot"] is False
    # Taken back: the bot makes no move for that seat any more.
    settled = summary(client, tid)["seq"]
    time.sleep(0.2)
    now = summary(client, tid)
    assert now["seq"] == settled or 0 not in now["waiting_for"]


def test_auto_pass_is_a_checkbox_on_the_seat_page(client: TestClient) -> None:
    table = new_dn_table(client, seed="dn-switch")
    seat, payload = play_to_first_action(client, table)
    tid = table["table_id"]
    client.get(f"/t/{tid}/join/{table['seats'][seat]['token']}")
    prompts = section(client.get(f"/t/{tid}").text, "prompts")
    box = re.search(r'<label class="switch"><input type="checkbox"([^>]*)>', prompts)
    assert box and " checked" not in box.group(1) and '\\"on\\":true' in html.unescape(box.group(1))
    assert "Auto-pass when I have nothing to do" in prompts
    assert not re.search(r'class="choice"[^>]*>\s*<span class="label">Auto-pass', prompts)  # not a button

    toggle = next(
        c["command"]
        for p in payload["prompts"]
        for c in p["choices"]
        if c["command"]["type"] == "set_auto_pass"
    )
    play(client, table, seat, toggle, "auto-pass-on")
    prompts = section(client.get(f"/t/{tid}").text, "prompts")
    box = re.search(r'<label class="switch"><input type="checkbox"([^>]*)>', prompts)
    assert box and " checked" in box.group(1) and '\\"on\\":false' in html.unescape(box.group(1))
    assert "Auto-pass when I have nothing to do" in prompts


def test_a_click_on_a_moved_table_is_refused_with_the_seq_and_without_numbers(client: TestClient) -> None:
    table = client.post("/api/tables", json=create_body(seats=2)).json()
    tid, token = table["table_id"], table["seats"][0]["token"]
    client.get(f"/t/{tid}/join/{token}")
    view = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
    stale = first_choice(view, 0)
    other = next(c["command"] for p in view["prompts"] for c in p["choices"] if c["command"] != stale)
    assert client.post(f"/api/tables/{tid}/commands", json=stale, headers=auth(token)).status_code == 200
    seq = summary(client, tid)["seq"]
    refused = client.post(f"/t/{tid}/act", data={"command": json.dumps(other)})
    assert refused.status_code == 409
    assert f'data-seq="{seq}"' in refused.text and "the table has moved on" in refused.text
    assert not re.search(r"seq \d", refused.text)  # no event numbers for players


def test_a_device_whose_seat_moved_is_led_to_the_watch_page(client: TestClient) -> None:
    table = client.post("/api/tables", json=create_body(seats=2)).json()
    tid, token = table["table_id"], table["seats"][0]["token"]
    client.get(f"/t/{tid}/join/{token}")
    view = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
    command = first_choice(view, 0)
    assert 'data-seat-moved="/t/' in client.get(f"/t/{tid}").text

    with TestClient(client.app) as other:
        other.get(f"/t/{tid}/join/{token}")  # the seat opens on another device
    refused = client.post(f"/t/{tid}/act", data={"command": json.dumps(command)})
    assert refused.status_code == 403
    assert refused.headers["HX-Redirect"] == f"/t/{tid}/watch?seat_moved=1"
    assert summary(client, tid)["seq"] == view["seq"]  # nothing was done
    watch = client.get(refused.headers["HX-Redirect"]).text
    assert "flash-notice" in watch and "no longer controls it" in watch and "spectator" in watch
    assert "data-seat-moved" not in watch
    assert "no longer controls it" not in client.get(f"/t/{tid}/watch").text
