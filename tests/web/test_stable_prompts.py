"""Prompt buttons that stay the same HTML while their choices are offered (issue 10): a button
carries its command without ``seq`` and ``command_id``, the page sends its seq with the click
and the server derives the command id from that seq and the command (``wire.choice_command_id``).
So a command that leaves a seat's choices as they were sends that seat no prompts frame, a
double-submitted click applies once, and a click from a page the table has moved past is
still refused as stale."""

from __future__ import annotations

import html
import json
import re
from contextlib import ExitStack
from typing import Any

import httpx
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from tests.conftest import LiveServer
from tests.support.tables import auth, create_body, first_choice
from tests.web.test_darkest_night_board import new_dn_table, play, play_to_first_action, section, tokens

HX_COMMAND = re.compile(r'class="choice"[^>]*hx-vals="([^"]*)"')


def page_commands(page: str) -> list[dict[str, Any]]:
    """The command each prompt button of a page sends (its ``hx-vals``), in order."""
    return [json.loads(json.loads(html.unescape(v))["command"]) for v in HX_COMMAND.findall(page)]


def page_seq(page: str) -> int:
    found = re.search(r'id="seq" class="seq" data-seq="(\d+)"', page)
    assert found, "no #seq on the page"
    return int(found.group(1))


def test_a_seat_whose_choices_did_not_change_gets_no_prompts_frame(live_server: LiveServer) -> None:
    with ExitStack() as stack:
        api = stack.enter_context(httpx.Client(base_url=live_server.url, timeout=10))
        table = new_dn_table(api, seed="stable-prompts")
        tid = table["table_id"]
        play_to_first_action(api, table)
        seat_tokens = tokens(table)
        pages = {
            seat: stack.enter_context(httpx.Client(base_url=live_server.url, timeout=10))
            for seat in seat_tokens
        }
        for seat, token in seat_tokens.items():
            pages[seat].get(f"/t/{tid}/join/{token}")
        held = {seat: section(pages[seat].get(f"/t/{tid}").text, "prompts") for seat in pages}
        at = api.get(f"/api/tables/{tid}").json()["seq"]
        sockets = {
            seat: stack.enter_context(
                connect(
                    f"{live_server.ws_url}/ws/tables/{tid}?format=html&after={at}&token={token}",
                    open_timeout=10,
                )
            )
            for seat, token in seat_tokens.items()
        }
        for ws in sockets.values():
            assert 'id="prompts"' not in str(ws.recv(timeout=10))  # the players panel, on connect

        unchanged_without_frame = 0
        for step in range(12):
            summary = api.get(f"/api/tables/{tid}").json()
            if summary["outcome"] is not None:
                break
            mover = summary["waiting_for"][0]
            view = api.get(f"/api/tables/{tid}/view", headers=auth(seat_tokens[mover])).json()
            if step == 0:  # a chat line moves the seq and changes nobody's choices
                command = {"seat": mover, "type": "chat", "args": {"text": "onwards"}}
            else:
                command = next(p for p in view["prompts"] if p["required"])["choices"][0]["command"]
            play(api, table, mover, command, f"stable-{step}")
            for seat, ws in sockets.items():
                frame = str(ws.recv(timeout=10))
                assert 'id="seq"' in frame  # every page learns the new seq
                now = section(pages[seat].get(f"/t/{tid}").text, "prompts")
                # A prompts frame exactly when the seat's choices (their HTML) changed.
                assert ('id="prompts"' in frame) == (now != held[seat]), (step, seat)
                if now == held[seat]:
                    unchanged_without_frame += 1
                    if step == 0:
                        assert 'id="prompts"' not in frame
                held[seat] = now
        assert unchanged_without_frame >= len(sockets)  # the chat line, at least


def test_a_double_submitted_click_applies_once_and_a_stale_one_is_refused(client: TestClient) -> None:
    table = client.post("/api/tables", json=create_body(seats=2)).json()
    tid, token = table["table_id"], table["seats"][0]["token"]
    client.get(f"/t/{tid}/join/{token}")
    page = client.get(f"/t/{tid}").text
    seq = page_seq(page)
    commands = page_commands(page)
    assert commands and all(c.keys() == {"seat", "type", "args"} for c in commands)
    pushed = first_choice(client.get(f"/api/tables/{tid}/view", headers=auth(token)).json(), 0)
    clicked = next(c for c in commands if (c["type"], c["args"]) == (pushed["type"], pushed["args"]))

    form = {"command": json.dumps(clicked), "seq": str(seq)}
    first = client.post(f"/t/{tid}/act", data=form)
    assert first.status_code == 200, first.text
    moved = client.get(f"/api/tables/{tid}").json()["seq"]
    assert moved > seq
    again = client.post(f"/t/{tid}/act", data=form)  # the same click, sent twice
    assert again.status_code == 200 and "flash-error" not in again.text
    assert client.get(f"/api/tables/{tid}").json()["seq"] == moved
    # One command, under the very id the JSON wire offered for that choice at that seq: the
    # pushed command sent now is answered as that one, not done again (nor refused as stale).
    same = client.post(f"/api/tables/{tid}/commands", json=pushed, headers=auth(token))
    assert same.status_code == 200, same.text
    assert client.get(f"/api/tables/{tid}").json()["seq"] == moved

    # Another button of the page drawn before the move: refused as stale, nothing done.
    other = next(c for c in commands if c != clicked)
    stale = client.post(f"/t/{tid}/act", data={"command": json.dumps(other), "seq": str(seq)})
    assert stale.status_code == 409
    assert "the table has moved on" in stale.text and f'data-seq="{moved}"' in stale.text
    assert client.get(f"/api/tables/{tid}").json()["seq"] == moved


def test_a_click_without_the_pages_seq_is_refused_precisely(client: TestClient) -> None:
    table = client.post("/api/tables", json=create_body(seats=2)).json()
    tid, token = table["table_id"], table["seats"][0]["token"]
    client.get(f"/t/{tid}/join/{token}")
    page = client.get(f"/t/{tid}").text
    command = json.dumps(page_commands(page)[0])
    for form in ({"command": command}, {"command": command, "seq": "-1"}, {"command": command, "seq": "x"}):
        refused = client.post(f"/t/{tid}/act", data=form)
        assert refused.status_code == 422
        assert "That command is malformed: seq: the page&#39;s seq is missing or not a number" in refused.text
    assert client.get(f"/api/tables/{tid}").json()["seq"] == page_seq(page)
