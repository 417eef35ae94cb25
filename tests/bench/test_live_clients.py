"""``umbra bench live``'s seats move from the prompts their own sockets pushed (issue 10: no
``GET /view`` per move): an html seat page's prompts fragment, read back by the bench, holds
the very prompts ``GET /view`` serves that seat, and each button's command, completed as the
bench completes a click, is accepted by ``POST /commands`` (over a real server)."""

from __future__ import annotations

from typing import Any

import httpx
from websockets.sync.client import connect

from app.bench.live import page_command
from app.bench.live_clients import PROMPTS_PART, LiveTable, page_prompts
from tests.conftest import LiveServer
from tests.support.tables import auth

PER_CLICK = ("command_id", "seq")
"""What a page's button leaves out of its command: the click adds them."""


def shown(prompts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``GET /view``'s prompts as a page shows them as buttons: the switches (a setting's
    ``{"on": ...}`` command, a checkbox) and prompts left with no button are not there."""
    out = []
    for p in prompts:
        choices = [
            {
                "label": c["label"],
                "detail": c["detail"] or "",
                "command": {k: v for k, v in c["command"].items() if k not in PER_CLICK},
            }
            for c in p["choices"]
            if not (len(c["command"]["args"]) == 1 and isinstance(c["command"]["args"].get("on"), bool))
        ]
        if choices:
            out.append({**{k: p[k] for k in ("seat", "title", "required")}, "choices": choices})
    return out


def test_a_seat_pages_pushed_prompts_are_its_view_prompts_and_can_be_sent(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=10) as client:
        body = {"game": "darkest_night", "seed": "bench-push", "seats": [{"name": "Ann"}, {"name": "Bo"}]}
        created = client.post("/api/tables", json=body).json()
        tid = created["table_id"]
        seat = client.get(f"/api/tables/{tid}").json()["waiting_for"][0]
        token = created["seats"][seat]["token"]
        with connect(f"{live_server.ws_url}/ws/tables/{tid}?format=html&after=0&token={token}") as page:
            frame = page.recv(timeout=10)  # a page at seq 0 gets every fragment
            part = PROMPTS_PART.search(frame)
            assert part is not None
            pushed = page_prompts(part.group(1))
            view = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
            assert pushed and pushed == shown(view["prompts"])
            tokens = [s["token"] for s in created["seats"]]
            table = LiveTable(0, tid, "bench-push", tokens, created["gm_token"])
            required = next(p for p in pushed if p["required"])
            command = page_command(table, view["seq"], required["choices"][0]["command"])
            sent = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))
            assert sent.status_code == 200, sent.text
            again = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))
            assert again.json()["replayed"] is True  # the same click is the same command
