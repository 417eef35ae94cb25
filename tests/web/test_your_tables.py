"""Your tables (``POST /api/tables/mine``, ``/tables``) and campaigns on the table page,
through a real app on SQLite (and PostgreSQL for the main path)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel.registry import register, unregister
from app.main import create_app
from app.store.migrate import upgrade
from app.web.tables import ago
from tests.conftest import make_settings
from tests.support.tables import auth, create_body, second_device
from tests.support.vigil import VIGIL

MINE = "/api/tables/mine"


@pytest.fixture
def vigil() -> Iterator[None]:
    """The test campaign, registered for this test only."""
    register(VIGIL)
    try:
        yield
    finally:
        unregister(VIGIL.name)


@pytest.fixture
def app_client(sqlite_url: str, vigil: None) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url))) as test_client:
        yield test_client


def new_table(client: TestClient, seats: int = 2, name: str = "", **options: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=create_body(seats=seats, **options) | {"name": name})
    assert response.status_code == 201, response.text
    return response.json()


def new_vigil(client: TestClient, nights: int = 2, seats: int = 1) -> dict[str, Any]:
    body = {
        "game": "vigil",
        "options": {"nights": nights},
        "seats": [{"name": f"Keeper {i}"} for i in range(seats)],
    }
    response = client.post("/api/tables", json=body | {"name": "The long watch"})
    assert response.status_code == 201, response.text
    return response.json()


def join(client: TestClient, table: dict[str, Any], seat: int) -> None:
    """Open a seat's invite link in this client (the browser keeps the device cookie)."""
    token = table["seats"][seat]["token"]
    response = client.get(f"/t/{table['table_id']}/join/{token}", follow_redirects=False)
    assert response.status_code == 303, response.text


def mine(client: TestClient, *links: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.post(MINE, json={"links": list(links)})
    assert response.status_code == 200, response.text
    return response.json()["tables"]


def act(client: TestClient, table: dict[str, Any], seat: int, type_: str, n: int = 0) -> None:
    body = {"command_id": f"{type_}-{seat}-{n}", "seat": seat, "type": type_, "args": {}}
    token = table["seats"][seat]["token"]
    response = client.post(f"/api/tables/{table['table_id']}/commands", json=body, headers=auth(token))
    assert response.status_code == 200, response.text


def test_a_browser_finds_the_seat_it_opened(client: TestClient) -> None:
    """The main path, on both databases: the seat's cookie authorises the lookup."""
    table = new_table(client)
    tid = table["table_id"]
    assert mine(client, {"table_id": tid}) == [{"table_id": tid, "status": "unknown"}]  # not joined yet
    join(client, table, 0)
    [entry] = mine(client, {"table_id": tid})
    assert entry["status"] == "ok" and entry["role"] == "seat" and entry["url"] == f"/t/{tid}"
    assert (entry["game"], entry["game_title"]) == ("lanterns", "Lanterns (test game)")
    assert entry["you"] == ["Player 1"]
    assert [p["name"] for p in entry["players"]] == ["Player 1", "Player 2"]
    assert [p["joined"] for p in entry["players"]] == [True, False]
    assert entry["waiting_for"] == ["Player 1"] and entry["your_move"] is True
    assert entry["outcome"] is None and entry["campaign"] is None
    moved = datetime.fromisoformat(entry["last_move_at"])
    assert abs((datetime.now(UTC) - moved.replace(tzinfo=moved.tzinfo or UTC)).total_seconds()) < 60


def test_whose_move_follows_the_game(app_client: TestClient) -> None:
    table = new_table(app_client)
    tid, seat1 = table["table_id"], table["seats"][1]["token"]
    [as_seat1] = mine(app_client, {"table_id": tid, "token": seat1})
    assert as_seat1["you"] == ["Player 2"] and as_seat1["your_move"] is False
    assert as_seat1["waiting_for"] == ["Player 1"]
    act(app_client, table, 0, "roll")
    [as_seat1] = mine(app_client, {"table_id": tid, "token": seat1})
    assert as_seat1["waiting_for"] == ["Player 2"] and as_seat1["your_move"] is True


def test_the_game_master_link(app_client: TestClient) -> None:
    table = new_table(app_client)
    tid = table["table_id"]
    [gm] = mine(app_client, {"table_id": tid, "token": table["gm_token"]})
    assert gm["role"] == "gm" and gm["url"] == f"/t/{tid}/gm" and gm["you"] == ["Game master"]
    # Lanterns' game master may gift a point any time, but the table never waits on it.
    assert gm["your_move"] is False and gm["waiting_for"] == ["Player 1"]
    # The browser that opened the game-master link finds it by its cookie.
    assert app_client.get(f"/t/{tid}/gm/join/{table['gm_token']}", follow_redirects=False).status_code == 303
    assert mine(app_client, {"table_id": tid})[0]["role"] == "gm"


def test_unknown_tables_tell_nothing(app_client: TestClient) -> None:
    table = new_table(app_client)
    tid = table["table_id"]
    other = new_table(app_client)
    answers = mine(
        app_client,
        {"table_id": "nosuchtable0"},
        {"table_id": tid, "token": "wrong-token"},
        {"table_id": tid, "token": other["gm_token"]},  # a real token of another table
        {"table_id": tid},  # no cookie for it
    )
    assert answers == [
        {"table_id": "nosuchtable0", "status": "unknown"},
        {"table_id": tid, "status": "unknown"},
        {"table_id": tid, "status": "unknown"},
        {"table_id": tid, "status": "unknown"},
    ]


def test_a_seat_taken_over_elsewhere_is_no_longer_listed(sqlite_url: str, vigil: None) -> None:
    upgrade(sqlite_url)
    app = create_app(make_settings(sqlite_url))
    with TestClient(app) as laptop, second_device(laptop) as phone:
        table = new_table(laptop)
        tid = table["table_id"]
        join(laptop, table, 0)
        assert mine(laptop, {"table_id": tid})[0]["status"] == "ok"
        join(phone, table, 0)  # the invite link opened on another device takes the seat
        assert mine(phone, {"table_id": tid})[0]["you"] == ["Player 1"]
        assert mine(laptop, {"table_id": tid}) == [{"table_id": tid, "status": "unknown"}]


def test_a_finished_table_shows_its_outcome(app_client: TestClient) -> None:
    table = new_table(app_client, seats=1, target=3)
    tid, token = table["table_id"], table["seats"][0]["token"]
    for n in range(10):
        if mine(app_client, {"table_id": tid, "token": token})[0]["outcome"]:
            break
        act(app_client, table, 0, "roll", n)
    [entry] = mine(app_client, {"table_id": tid, "token": token})
    assert entry["outcome"]["result"] == "win" and entry["outcome"]["winners"] == [0]
    assert entry["waiting_for"] == [] and entry["your_move"] is False


def test_chat_is_not_a_move(app_client: TestClient) -> None:
    table = new_table(app_client)
    tid, token = table["table_id"], table["seats"][0]["token"]
    before = mine(app_client, {"table_id": tid, "token": token})[0]["last_move_at"]
    chat = {"command_id": "chat-1", "seat": 0, "type": "chat", "args": {"text": "back next week"}}
    response = app_client.post(f"/api/tables/{tid}/commands", json=chat, headers=auth(token))
    assert response.status_code == 200, response.text
    assert mine(app_client, {"table_id": tid, "token": token})[0]["last_move_at"] == before
    act(app_client, table, 0, "roll")
    assert mine(app_client, {"table_id": tid, "token": token})[0]["last_move_at"] > before


def test_repeated_links_are_answered_once(app_client: TestClient) -> None:
    table = new_table(app_client)
    link = {"table_id": table["table_id"], "token": table["gm_token"]}
    assert len(mine(app_client, link, link, link)) == 1


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"links": [{"table_id": f"t{i}"} for i in range(201)]}, "links"),
        ({"links": [{"table_id": "../etc"}]}, "links.0.table_id"),
        ({"links": [{"table_id": "x" * 33}]}, "links.0.table_id"),
        ({"links": [{"table_id": "abc", "token": "has space"}]}, "links.0.token"),
        ({"links": [{"table_id": "abc", "extra": 1}]}, "links.0.extra"),
        ({"links": [{"table_id": 7}]}, "links.0.table_id"),
        ({"links": "abc"}, "links"),
        ({}, "links"),
    ],
)
def test_bad_bodies_are_refused_precisely(app_client: TestClient, body: Any, where: str) -> None:
    response = app_client.post(MINE, json=body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_request" and error["message"].startswith(where), error


def test_at_most_two_hundred_tables_at_once(app_client: TestClient) -> None:
    links = [{"table_id": f"t{i:03d}"} for i in range(200)]
    tables = mine(app_client, *links)
    assert len(tables) == 200 and {t["status"] for t in tables} == {"unknown"}


# -- campaigns ----------------------------------------------------------------------------


def test_a_campaign_reports_its_chapter_and_the_time_between(app_client: TestClient) -> None:
    table = new_vigil(app_client, nights=2)
    tid, token = table["table_id"], table["seats"][0]["token"]

    def campaign() -> dict[str, Any]:
        [entry] = mine(app_client, {"table_id": tid, "token": token})
        return entry["campaign"] | {"your_move": entry["your_move"], "outcome": entry["outcome"]}

    first = campaign()
    assert first["current"] == {
        "index": 0,
        "title": "Night 1",
        "outcome": None,
        "current": True,
        "detail": "",
    }
    assert [c["current"] for c in first["chapters"]] == [True, False] and first["between"] is False
    assert (first["total"], first["played"], first["line"]) == (2, 0, "Night 1 (1 of 2)")
    act(app_client, table, 0, "light", 1)
    act(app_client, table, 0, "light", 2)  # two flames win the night
    between = campaign()
    assert between["current"] is None and between["between"] is True and between["played"] == 1
    assert between["line"] == "Between chapters: 1 of 2 played"
    assert between["your_move"] is True  # the first player begins the next night
    assert between["chapters"][0]["outcome"] == {"result": "win", "reason": "Night 1 was won", "winners": []}
    act(app_client, table, 0, "begin")
    assert campaign()["current"]["title"] == "Night 2"
    act(app_client, table, 0, "falter")
    over = campaign()
    assert over["between"] is False and over["line"] == "Campaign over: 2 of 2 chapters played"
    assert over["outcome"]["result"] == "loss" and over["your_move"] is False


def test_the_table_page_marks_each_chapter(app_client: TestClient) -> None:
    table = new_vigil(app_client, nights=3)
    tid = table["table_id"]
    join(app_client, table, 0)
    page = app_client.get(f"/t/{tid}").text
    assert '<span class="campaign-line">Night 1 (1 of 3).</span>' in page
    act(app_client, table, 0, "falter")
    act(app_client, table, 0, "begin")
    page = app_client.get(f"/t/{tid}").text
    assert "Night 2 (2 of 3)." in page
    chapter_lines = [line for line in page.split("<li ") if "log-chapter" in line]
    assert len(chapter_lines) == 2 and "Night 2 falls." in chapter_lines[0]  # newest first
    assert "Night 1 falls." in chapter_lines[1]


# -- the page -----------------------------------------------------------------------------


def test_table_pages_remember_themselves_but_watching_does_not(app_client: TestClient) -> None:
    table = new_table(app_client)
    tid = table["table_id"]
    join(app_client, table, 0)
    seat = app_client.get(f"/t/{tid}").text
    assert re.search(
        rf'src="/static/tables\.js\?v=[0-9a-f]+" defer '
        rf'data-remember="{tid}" data-title="Lanterns \(test game\)"',
        seat,
    )
    app_client.get(f"/t/{tid}/gm/join/{table['gm_token']}")
    assert f'data-remember="{tid}"' in app_client.get(f"/t/{tid}/gm").text
    assert "data-remember" not in app_client.get(f"/t/{tid}/watch").text
    assert '<a href="/tables"' in app_client.get("/").text


def test_the_tables_page_and_its_rows(app_client: TestClient) -> None:
    page = app_client.get("/tables")
    assert page.status_code == 200
    assert 'id="your-tables" data-max="200"' in page.text and "/static/tables.js" in page.text
    assert app_client.get("/static/tables.js").status_code == 200

    mine_to_move = new_table(app_client, name="Chapter two")
    waiting = new_table(app_client)
    join(app_client, mine_to_move, 0)
    join(app_client, waiting, 1)
    links = {"links": [{"table_id": t["table_id"]} for t in (waiting, mine_to_move)] + [{"table_id": "gone"}]}
    rows = app_client.post("/tables/rows", json=links)
    assert rows.status_code == 200
    html = rows.text
    # The table where it is this browser's move comes first, with its badge and link.
    first, second, gone = html.split('<li class="my-table')[1:]
    assert f'href="/t/{mine_to_move["table_id"]}">Chapter two</a>' in first and "Your move" in first
    assert f'href="/t/{waiting["table_id"]}"' in second and "Your move" not in second
    assert "Waiting for Player 1." in second and "you: Player 2" in second
    assert 'data-forget="gone"' in gone and "no longer holds a seat" in gone

    empty = app_client.post("/tables/rows", json={"links": []})
    assert empty.status_code == 200 and "No tables yet" in empty.text
    bad = app_client.post("/tables/rows", json={"links": [{"table_id": "<script>"}]})
    assert bad.status_code == 422 and "links.0.table_id" in bad.text and "<script>" not in bad.text


def test_ago_says_it_plainly() -> None:
    now = datetime(2026, 11, 30, 12, tzinfo=UTC)
    assert ago(None, now) == "no move yet"
    assert ago(now - timedelta(seconds=20), now) == "just now"
    assert ago(now - timedelta(minutes=1), now) == "1 minute ago"
    assert ago(now - timedelta(hours=5), now) == "5 hours ago"
    assert ago(now - timedelta(days=8), now) == "1 week ago"
    assert ago((now - timedelta(days=2)).replace(tzinfo=None), now) == "2 days ago"
