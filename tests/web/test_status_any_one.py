"""The status line when one question is put to several seats (issue 26, item 4): "Waiting for
Ann, Bo, Cy — that's you" did not say who should act. A question the first answer settles
for all (``Prompt.any_one``: Darkest Night's "who takes the next turn", DN 6.0) reads "Any one
of you, Bo or Cy may answer below" on an asked seat's page and "Waiting for any one of Ann,
Bo or Cy" elsewhere; a question each seat answers for itself keeps "Waiting for …" (Dark
Omen's action points, every seat acting)."""

from __future__ import annotations

import html
import random
import re
from typing import Any

import httpx
from fastapi.testclient import TestClient

from app.games.dark_omen import DARK_OMEN
from app.games.darkest_night import DARKEST_NIGHT
from app.kernel import table as kernel
from app.kernel.types import SeatInfo
from tests.games.darkest_night.harness import Table
from tests.support import harness as shared
from tests.support.tables import auth

NAMES = ["Ann", "Bo", "<i>Cy</i>"]


def status(page: str) -> str:
    found = re.search(r'<section id="status"[^>]*>(.*?)</section>', page, flags=re.S)
    assert found, "no #status"
    return html.unescape(" ".join(re.sub(r"<[^>]+>", "", found.group(1)).split()))


def dn_table_at_next_hero(client: httpx.Client) -> dict[str, Any]:
    """Three players, a hero each and the fourth Ann's (hero_seats), played until the round
    asks who takes the first turn."""
    body = {
        "game": "darkest_night",
        "seed": "any-one",
        "options": {"hero_seats": [0, 1, 2, 0]},
        "seats": [{"name": name} for name in NAMES],
    }
    table = client.post("/api/tables", json=body).json()
    tid = table["table_id"]
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    for step in range(40):
        seat = client.get(f"/api/tables/{tid}").json()["waiting_for"][0]
        payload = client.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
        if (payload["view"].get("waiting") or {}).get("kind") == "next_hero":
            return table
        prompt = next(p for p in payload["prompts"] if p["required"])
        command = prompt["choices"][0]["command"] | {"command_id": f"setup-{step}"}
        response = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(tokens[seat]))
        assert response.status_code == 200, response.text
    raise AssertionError("the round never asked who goes first")


def test_who_goes_next_says_any_one_of_the_players_may_answer(client: TestClient) -> None:
    """DN 6.0: the players select a hero to go next; the first answer does it."""
    table = dn_table_at_next_hero(client)
    tid = table["table_id"]
    assert client.get(f"/api/tables/{tid}").json()["waiting_for"] == [0, 1, 2]
    ann = status(client.get(table["seats"][0]["url"]).text)
    assert ann == "Any one of you, Bo or <i>Cy</i> may answer below: the first answer counts."
    both = status(client.get(table["seats"][2]["url"]).text)  # this browser now holds Ann's and Cy's seats
    assert both == "Any one of you or Bo may answer below: the first answer counts."
    client.cookies.clear()
    cy = status(client.get(table["seats"][2]["url"]).text)
    assert cy == "Any one of you, Ann or Bo may answer below: the first answer counts."
    watching = status(client.get(f"/t/{tid}/watch").text)
    assert watching == "Waiting for any one of Ann, Bo or <i>Cy</i>: the first answer counts."
    assert "<i>Cy</i>" not in client.get(f"/t/{tid}/watch").text  # a name is text, not markup


def test_the_prompts_say_whether_one_answer_settles_the_question() -> None:
    """``Prompt.any_one``: set on a question the first answer settles for all (who goes
    next, DN 6.0); not on one each seat answers for itself (Dark Omen's round, every seat
    spending its action points at once, DO L211), nor on a question put to one seat."""
    t = Table.start(seats=3, options={"hero_seats": [0, 1, 2, 0]})
    asked = [p for p in DARKEST_NIGHT.prompts(t.state) if p.required]
    assert t.decision.kind == "next_hero" and [p.seat for p in asked] == [0, 1, 2]
    assert all(p.any_one for p in asked)
    t.begin_turn("prince")
    assert not any(p.any_one for p in DARKEST_NIGHT.prompts(t.state))

    rng = random.Random(1)
    state = kernel.replay(DARK_OMEN, DARK_OMEN.setup({}, [SeatInfo(i, f"P{i}") for i in range(2)], rng))
    for _ in range(30):
        required = [p for p in DARK_OMEN.prompts(state) if p.required]
        if len({p.seat for p in required}) > 1:
            break
        choice = required[0].choices[0]
        state, _ = shared.play(DARK_OMEN, state, required[0].seat, choice.type, dict(choice.args), rng)
    required = [p for p in DARK_OMEN.prompts(state) if p.required]
    assert len({p.seat for p in required}) > 1, "Dark Omen's round asks every seat at once"
    assert not any(p.any_one for p in required)
