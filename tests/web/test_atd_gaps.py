"""Attack the Darkness: the gaps an audit of issue 13 found — log lines that name characters
by player and class, a Tabletop pick hidden from the players until placed, the Arena's
teams in the lobby's summary, and the initiative cuts kept on the board once the order is
set."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.games.attack_the_darkness.game import AttackTheDarkness
from app.kernel.types import SPECTATOR, Event
from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.support.tables import auth
from tests.web.test_attack_the_darkness_board import (
    drive,
    gm_page,
    new_table,
    page_of,
    seat_page,
    section,
    waiting,
    watch_page,
)

GAME = AttackTheDarkness()


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url))) as test_client:
        yield test_client


def session_of(client: TestClient, table: dict[str, Any]) -> Any:
    hub = client.app.state.hub
    return client.portal.call(hub.session, table["table_id"])


def log_lines(client: TestClient, table: dict[str, Any], as_url: str | None) -> list[str]:
    """Every log line a viewer gets (the seat whose link ``as_url`` is, or a spectator),
    through the "Show earlier entries" endpoint, newest page first."""
    tid = table["table_id"]
    if as_url is not None:
        page_of(client, as_url)  # that seat's cookie
    else:
        client.cookies.clear()
    before = session_of(client, table).seq
    lines: list[str] = []
    while before > 0:
        response = client.get(
            f"/t/{tid}/log", params={"before": before, "view": "seat" if as_url else "watch"}
        )
        assert response.status_code == 200, response.text
        found = re.findall(r'<span class="text">(.*?)</span>', response.text, flags=re.S)
        lines += [html.unescape(text) for text in found]
        before = max(0, before - 200)
    return lines


def test_log_lines_name_each_character_by_player_and_class(client: TestClient) -> None:
    """A move reads "Ann's Champion moves to …", never "Player 1" (issue 13), in the log
    and in what an undo takes back (both told by ``describe`` with the log context)."""
    table = new_table(client, seed="atd-names", **{"class": ["champion", "magician"]})
    drive(client, table, lambda gm: waiting("act")(gm) and gm["view"]["round"] >= 2, limit=1500)
    state = session_of(client, table).state
    context = GAME.log_context(state)
    assert context == {0: ("Ann", "Champion"), 1: ("Bob", "Magician")}
    moved = Event("Moved", {"who": "c0", "to": [3, 11], "why": "speed"})
    assert GAME.describe(moved, context) == "Ann's Champion moves to 3,11."
    assert GAME.describe(moved) == "Player 1 moves to 3,11."  # a line told without names
    played = Event("InitiativeSet", {"order": [1, 0]})
    assert GAME.describe(played, context) == "Initiative: Bob's Magician, Ann's Champion."
    lines = log_lines(client, table, None)
    assert any(line.startswith(("Ann's Champion", "Bob's Magician")) for line in lines), lines[:20]
    assert not any("Player 1" in line or "Player 2" in line for line in lines)
    # Monsters are named as the board names their tokens (public once placed), dead ones too.
    assert state.monster_cards, "the first encounter placed monsters"
    mid, card = next(iter(state.monster_cards.items()))
    monster = f"{_monster_name(card)} #{mid[1:]}"
    hit = Event("Moved", {"who": mid, "to": [1, 2], "why": "move"})
    assert GAME.describe(hit, context) == f"{monster} moves to 1,2 (move)."
    assert not any("monster #" in line for line in lines), [line for line in lines if "monster #" in line]


def _monster_name(card: str) -> str:
    from app.games.attack_the_darkness.content import load

    return load().monsters[card].name


def test_a_tabletop_pick_is_seen_by_the_players_once_placed(client: TestClient) -> None:
    """While the game master places a picked monster card, the players' and the spectators'
    views, pages and logs show nothing of it; the game master's do (AtD L274, issue 13)."""
    table = new_table(client, seed="atd-gm-hide", mode="tabletop", dungeon="random", encounters=1)
    gm = drive(client, table, waiting("gm_place"), limit=1500)
    picked = gm["view"]["line"][0]
    assert picked["monsters"] == [] and picked["name"]
    name = html.escape(picked["name"])
    tid = table["table_id"]
    for who, token in (("seat 0", table["seats"][0]["token"]), ("spectator", None)):
        payload = client.get(f"/api/tables/{tid}/view", headers=auth(token) if token else {}).json()
        assert [e["entry"] for e in payload["view"]["line"]] == [], f"the {who} sees the pick"
    for page in (seat_page(client, table, 0), seat_page(client, table, 1), watch_page(client, table)):
        assert name not in section(page, "atd-line")
        assert picked["name"] not in html.unescape(page)
    assert name in section(gm_page(client, table), "atd-line")
    for url in (table["seats"][0]["url"], None):
        lines = log_lines(client, table, url)
        assert not any(picked["name"] in line for line in lines), "the log names the pick"
    session = session_of(client, table)
    last = [e.event for e in client.portal.call(session.events_between, 0, session.seq)][-12:]
    for event in last:
        seen = GAME.event_view(event, SPECTATOR)
        if event.type in ("DungeonCardRevealed", "MonstersEntered") and not event.data.get("monsters"):
            assert seen is not None and "card" not in seen.data and "id" not in seen.data

    gm = drive(client, table, lambda gm: any(e["monsters"] for e in gm["view"]["line"]), limit=50)
    player = client.get(f"/api/tables/{tid}/view", headers=auth(table["seats"][0]["token"])).json()
    placed = [e for e in player["view"]["line"] if e["monsters"]]
    assert placed and placed[0]["name"] == picked["name"]
    lines = log_lines(client, table, None)
    assert any(line.startswith(f"{picked['name']} #") and "is placed at" in line for line in lines)


def test_the_arena_lobby_says_who_plays_for_which_team(client: TestClient) -> None:
    """Seat k plays for team k mod teams (the ``teams`` option, AtD L288): the summary
    lists each team's players, as the table then deals them."""
    names = ["Ann", "Bob", "Cy", "Di", "Ed"]
    lines = GAME.describe_options({"mode": "arena", "teams": 2}, names)
    assert lines == ["Arena: 2 teams on The Arena", "Team 1: Ann, Cy, Ed", "Team 2: Bob, Di"]
    assert GAME.describe_options({"mode": "arena", "teams": 3}, names[:3])[1:] == [
        "Team 1: Ann",
        "Team 2: Bob",
        "Team 3: Cy",
    ]
    table = new_table(client, seed="atd-teams", seats=4, mode="arena", teams=2)
    dealt = session_of(client, table).state.teams
    assert dealt == [0, 1, 0, 1]
    summary = client.post(
        "/lobby/summary",
        data={
            "game": "attack_the_darkness",
            "opt_mode": "arena",
            "opt_teams": "2",
            "seat": ["Ann", "Bob", "Cy", "Di"],
        },
    )
    assert summary.status_code == 200
    text = html.unescape(summary.text)
    assert "Team 1: Ann, Cy" in text and "Team 2: Bob, Di" in text


def test_arena_cuts_stay_on_the_board_once_the_order_is_set(client: TestClient) -> None:
    """The initiative cuts (AtD L290) are still in the view and on every page after the
    order is set, so a player sees why the order is what it is."""
    table = new_table(client, seed="atd-arena", mode="arena", teams=2)
    gm = drive(client, table, waiting("act"))
    state = session_of(client, table).state
    assert state.cuts == {} and state.last_cuts, "the order is set from the cuts"
    assert gm["view"]["cuts"] == {k: list(v) for k, v in state.last_cuts.items()}
    for page in (watch_page(client, table), seat_page(client, table, 0)):
        status = section(page, "atd-status")
        assert "Initiative cuts" in status
        for seat, costs in state.last_cuts.items():
            assert f"{['Ann', 'Bob'][int(seat)]}: <b>{', '.join(map(str, costs))}</b>" in status
