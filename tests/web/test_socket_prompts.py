"""A seat's prompts come on its socket (issue 10): each JSON frame that brings a viewer to the
table's newest seq carries its prompts with ready-to-send commands, whom the table waits on
and the outcome, so a player moves without asking ``GET /view`` first; an HTML page gets its
prompts fragment, buttons carrying the same commands (less the seq and id a click adds).
Over a real uvicorn server, with a spectator's HTML page assembled from its frames checked
against a fresh render."""

from __future__ import annotations

import functools
import html
import json
import re
from contextlib import ExitStack
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tests.conftest import LiveServer
from tests.support.tables import auth
from tests.web.page_model import Page

HX_COMMAND = re.compile(r'hx-vals="([^"]*)"')


def new_table(client: httpx.Client) -> dict[str, Any]:
    body = {"game": "darkest_night", "seed": "pushed", "seats": [{"name": "Ann"}, {"name": "Bo"}]}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def next_frame(ws: ClientConnection) -> dict[str, Any]:
    return json.loads(ws.recv(timeout=10))


def test_every_move_is_sent_from_the_prompts_the_socket_pushed(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=10) as client:
        table = new_table(client)
        tid = table["table_id"]
        tokens = {s["seat"]: s["token"] for s in table["seats"]}
        watch = client.get(f"/t/{tid}/watch").text
        at = Page(watch).seq
        with ExitStack() as stack:
            sockets = {
                seat: stack.enter_context(
                    connect(f"{live_server.ws_url}/ws/tables/{tid}?after={at}&token={token}", open_timeout=10)
                )
                for seat, token in tokens.items()
            }
            spectator = stack.enter_context(
                connect(f"{live_server.ws_url}/ws/tables/{tid}?format=html&after={at}", open_timeout=10)
            )
            page = Page(watch)
            latest: dict[int, dict[str, Any]] = {}
            for seat, ws in sockets.items():
                hello = next_frame(ws)
                assert hello["type"] == "hello" and hello["seq"] == page.seq
                assert {"prompts", "waiting_for", "outcome"} <= hello.keys()
                latest[seat] = hello
            page.apply(spectator.recv(timeout=10))  # the players panel, on connect
            for _ in range(14):
                seat = next(s for s in latest if s in latest[s]["waiting_for"])
                prompt = next(p for p in latest[seat]["prompts"] if p["required"])
                command = prompt["choices"][0]["command"]
                assert command["seq"] == latest[seat]["seq"]
                response = client.post(
                    f"/api/tables/{tid}/commands", json=command, headers=auth(tokens[seat])
                )
                assert response.status_code == 200, response.text
                seq = response.json()["seq"]
                for other, ws in sockets.items():
                    frame = next_frame(ws)
                    assert frame["type"] == "events" and frame["seq"] == seq
                    assert all(p["seat"] == other for p in frame["prompts"])  # its own only
                    latest[other] = frame
                frame = spectator.recv(timeout=10)
                page.apply(frame)
                assert page.seq == seq
            # The spectator's page, assembled from what it was sent, is the page served now.
            fresh = Page(client.get(f"/t/{tid}/watch").text)
            assert page.live_html() == fresh.live_html()
            assert page.log_lines()[: len(fresh.log_lines())] == fresh.log_lines()


def test_a_pages_prompt_buttons_carry_the_pushed_commands(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=10) as client:
        table = new_table(client)
        tid = table["table_id"]
        seat = client.get(f"/api/tables/{tid}").json()["waiting_for"][0]
        token = table["seats"][seat]["token"]
        with (
            connect(f"{live_server.ws_url}/ws/tables/{tid}?token={token}", open_timeout=10) as ws,
            connect(f"{live_server.ws_url}/ws/tables/{tid}?format=html&after=0&token={token}") as page,
        ):
            pushed = next_frame(ws)["prompts"]
            frame = page.recv(timeout=10)  # a page at seq 0 gets everything
            # Every command control (a prompt's button, or a setting's checkbox at the top of the
            # choices) sends a pushed command, and every pushed command has its control; the
            # players panel's bot switch sends no command.
            sent = [json.loads(html.unescape(v)) for v in HX_COMMAND.findall(frame)]
            buttons = [json.loads(v["command"]) for v in sent if "command" in v]
            in_order = functools.partial(json.dumps, sort_keys=True)
            # A button's command is the pushed one without its seq and id, which the page
            # sends (its seq) and the server derives (the id) at the click.
            per_seq = ("command_id", "seq")
            assert sorted(buttons, key=in_order) == sorted(
                (
                    {k: v for k, v in c["command"].items() if k not in per_seq}
                    for p in pushed
                    for c in p["choices"]
                ),
                key=in_order,
            )
