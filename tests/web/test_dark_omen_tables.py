"""A Dark Omen campaign on "your tables" and the table header (issue 15, "Lobby"): its
chapter, day and darkness meter (``Chapter.detail``), through a real app on SQLite."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.state import DAYS_PER_CHAPTER, METER_MAX, Result
from app.kernel.game import campaign
from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.games.dark_omen.harness import table
from tests.support.tables import auth

MINE = "/api/tables/mine"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url))) as test_client:
        yield test_client


def new_campaign(client: TestClient, **options: Any) -> dict[str, Any]:
    body = {
        "game": "dark_omen",
        "seed": "do-tables",
        "name": "Tuesday nights",
        "options": {"mode": "campaign", "difficulty": "light", **options},
        "seats": [{"name": "Ann"}, {"name": "Bo"}],
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    table = response.json()
    joined = client.get(f"/t/{table['table_id']}/join/{table['seats'][0]['token']}", follow_redirects=False)
    assert joined.status_code == 303, joined.text
    return table


def standing(client: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    """The table's view (public) and its "your tables" entry, as this browser gets it."""
    tid = table["table_id"]
    view = client.get(f"/api/tables/{tid}/view").json()["view"]
    response = client.post(MINE, json={"links": [{"table_id": tid}]})
    assert response.status_code == 200, response.text
    [entry] = response.json()["tables"]
    return {"view": view, "campaign": entry["campaign"]}


def expected_detail(view: dict[str, Any]) -> str:
    return f"day {view['day']} of {DAYS_PER_CHAPTER} \u00b7 darkness meter {view['meter']} of {METER_MAX}"


def end_the_day(client: TestClient, table: dict[str, Any]) -> None:
    """Every seat ends its rounds until the next day dawns (DO L211: a round ends when all
    players have ended theirs)."""
    tid = table["table_id"]
    day = client.get(f"/api/tables/{tid}/view").json()["view"]["day"]
    for n in range(40):
        for seat, held in enumerate(table["seats"]):
            payload = client.get(f"/api/tables/{tid}/view", headers=auth(held["token"])).json()
            if payload["view"]["day"] != day:
                return
            offered = [c["command"] for p in payload["prompts"] for c in p["choices"]]
            end = next((c for c in offered if c["type"] == "end_round"), None)
            if end is not None:
                body = end | {"command_id": f"end-{seat}-{n}"}
                response = client.post(f"/api/tables/{tid}/commands", json=body, headers=auth(held["token"]))
                assert response.status_code == 200, response.text
    raise AssertionError("the day did not end")


def test_your_tables_shows_the_chapter_day_and_darkness_meter(client: TestClient) -> None:
    table = new_campaign(client)
    first = standing(client, table)
    detail = expected_detail(first["view"])
    assert first["view"]["day"] == 1 and detail.startswith("day 1 of 6 \u00b7 darkness meter ")
    current = first["campaign"]["current"]
    assert (current["title"], current["current"], current["detail"]) == ("Chapter 1", True, detail)
    assert first["campaign"]["line"] == f"Chapter 1 (1 of 4), {detail}"
    assert all(c["detail"] == "" for c in first["campaign"]["chapters"] if not c["current"])

    # The /tables row and the table header say the same.
    rows = client.post("/tables/rows", json={"links": [{"table_id": table["table_id"]}]})
    assert (
        rows.status_code == 200 and f'<span class="chapter">Chapter 1 (1 of 4), {detail}</span>' in rows.text
    )
    page = client.get(f"/t/{table['table_id']}").text
    assert f'<span class="campaign-line">Chapter 1 (1 of 4), {detail}.</span>' in page

    # A day later the line follows the day, and the meter wherever the omen left it.
    end_the_day(client, table)
    later = standing(client, table)
    assert later["view"]["day"] == 2
    assert later["campaign"]["current"]["detail"] == expected_detail(later["view"])
    assert later["campaign"]["line"] == f"Chapter 1 (1 of 4), {expected_detail(later['view'])}"
    page = client.get(f"/t/{table['table_id']}/watch").text
    assert f"Chapter 1 (1 of 4), {expected_detail(later['view'])}." in page


def test_a_quick_start_is_a_campaign_of_one_chapter_with_its_day_and_meter(client: TestClient) -> None:
    table = new_campaign(client, mode="quick_chapter", chapter=3)
    first = standing(client, table)
    assert [c["title"] for c in first["campaign"]["chapters"]] == ["Chapter 3"]
    assert first["campaign"]["line"] == f"Chapter 3 (1 of 1), {expected_detail(first['view'])}"


def test_between_chapters_the_line_keeps_the_darkness_meter() -> None:
    """Between chapters (DO L110-116) the meter carries over to the next one: the line says
    where it stands; a campaign that is over says only how many chapters were played."""
    state = table(2, mode="campaign").clone()
    state.chapter, state.results, state.meter = None, ["win"], 6
    standing = campaign(DARK_OMEN, state)
    assert standing is not None and standing["between"] is True
    assert standing["line"] == f"Between chapters: 1 of 4 played, darkness meter 6 of {METER_MAX}"
    assert [c["detail"] for c in standing["chapters"]] == [f"darkness meter 6 of {METER_MAX}", "", "", ""]
    state.result = Result("loss", "the darkness meter reached 0")
    over = campaign(DARK_OMEN, state)
    assert over is not None and over["line"] == "Campaign over: 1 of 4 chapters played"
