"""No raw ids in the text of a Darkest Night page (issue 11): after some seeded play, the
seat pages (the Necromancer player's with his hand of map cards) show no snake_case id and
no map card id in their visible text; ids stay in attributes only."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from tests.web.test_darkest_night_board import new_dn_table, play, play_to_first_action, seat_view

RAW_ID = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\bmap\d+\b")


def visible_text(page: str) -> str:
    body = page.split("<body", 1)[1]
    body = re.sub(r"<(script|style|title)\b.*?</\1>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def test_a_played_table_shows_no_raw_ids(client: TestClient) -> None:
    table = new_dn_table(client, seed="dn-page-labels", necromancer_player=True)
    tid = table["table_id"]
    play_to_first_action(client, table)
    for step in range(40):  # the first choices of the next prompts: travels, searches, the Necromancer's turn
        seat = client.get(f"/api/tables/{tid}").json()["waiting_for"][0]
        prompt = next(p for p in seat_view(client, table, seat)["prompts"] if p["required"])
        play(client, table, seat, prompt["choices"][-1]["command"], f"labels-{step}")
    necromancer = client.get(table["seats"][1]["url"]).text
    assert "data-card=" in necromancer  # his hand is shown to him …
    for page in (necromancer, client.get(table["seats"][0]["url"]).text, client.get(f"/t/{tid}/watch").text):
        text = visible_text(page)
        assert not RAW_ID.findall(text), sorted(set(RAW_ID.findall(text)))
