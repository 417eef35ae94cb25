"""The rules reference on the web (issue 28), shown with the test game Lanterns: its page,
the side panel's entry fragment, the no-script link, the JSON, and what a table page
carries for it (the panel, the guide's data, each prompt's step, each log line's rule)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.support.tables import auth, create_body, first_choice


def test_the_rules_page_is_organised_like_the_rulebook(client: TestClient) -> None:
    page = client.get("/games/lanterns/rules")
    assert page.status_code == 200
    assert re.findall(r'<article class="rule-entry" id="([^"]+)"', page.text) == ["LR-1", "LR-2.1", "LR-2.2"]
    assert "2 Turns" in page.text and "Index of terms" in page.text and 'id="term-hand"' in page.text


def test_the_panel_shows_the_entry_covering_a_citation(client: TestClient) -> None:
    entry = client.get("/games/lanterns/rules/entry", params={"ref": "LR 2.1.3"})
    assert entry.status_code == 200
    assert "Taking turns" in entry.text and "Covers LR 2.1.3." in entry.text
    assert 'href="/games/lanterns/rules#LR-2.1"' in entry.text
    index = client.get("/games/lanterns/rules/entry")
    assert index.status_code == 200 and 'data-rule-ref="LR 1"' in index.text


def test_unknown_rules_and_citations_are_refused_plainly(client: TestClient) -> None:
    assert client.get("/games/chess/rules").status_code == 404
    assert client.get("/games/chess/rules/entry", params={"ref": "LR 1"}).status_code == 404
    missing = client.get("/games/lanterns/rules/entry", params={"ref": "LR 9"})
    assert missing.status_code == 404 and "No entry covers" in missing.text
    long = client.get("/games/lanterns/rules/entry", params={"ref": "LR " + "1." * 5000})
    assert long.status_code == 404 and len(long.text) < 2000
    api = client.get("/api/games/chess/rules")
    assert api.status_code == 404 and api.json()["error"]["code"] == "no_rules"


def test_a_citation_link_without_script_lands_on_its_entry(client: TestClient) -> None:
    go = client.get("/games/lanterns/rules/go", params={"ref": "LR 2.2"}, follow_redirects=False)
    assert go.status_code == 303 and go.headers["location"] == "/games/lanterns/rules#LR-2.2"
    assert client.get("/games/lanterns/rules/go", params={"ref": "LR 7"}).status_code == 404


def test_the_json_reference(client: TestClient) -> None:
    data = client.get("/api/games/lanterns/rules").json()
    assert data["prefix"] == "LR"
    assert [e["ref"] for c in data["chapters"] for e in c["entries"]] == ["LR 1", "LR 2.1", "LR 2.2"]
    assert data["guides"]["turn"]["ref"] == "LR 2.1"


def test_a_table_page_carries_the_panel_the_guide_and_the_rules_of_its_lines(client: TestClient) -> None:
    table = client.post("/api/tables", json=create_body()).json()
    tid, seat0 = table["table_id"], table["seats"][0]["token"]
    view = client.get(f"/api/tables/{tid}/view", headers=auth(seat0)).json()
    played = first_choice(view, 0, "play")
    assert client.post(f"/api/tables/{tid}/commands", json=played, headers=auth(seat0)).status_code == 200
    client.get(table["seats"][1]["url"])
    page = client.get(f"/t/{tid}").text
    assert 'id="rules-panel"' in page and "data-rules=" in page and 'id="first-game-guide"' in page
    assert 'data-default="on"' in page  # a player's first game shows the guide
    assert '<div class="prompt" data-step="turn">' in page
    assert 'data-rule="LR 2.2"' in page  # the card played: its rule, shown on request
    assert "&#34;prefix&#34;: &#34;LR&#34;" in page
    watch = client.get(f"/t/{tid}/watch").text
    assert 'data-default="off"' in watch  # spectators: off unless asked for
    assert 'href="/games/lanterns/rules"' in client.get("/lobby", params={"game": "lanterns"}).text
