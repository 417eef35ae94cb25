"""Issue 15 in Dark Omen: a player takes back their own last moves while everyone moves at
once, until dice, a reveal or another player's action touching the same hero, space or
loot; on a live table, in the log, and through an export and import."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import count
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.games.dark_omen import DARK_OMEN, undo
from app.kernel import history
from app.kernel.types import Event
from tests.games.dark_omen.harness import arranged, play, table
from tests.support.hardening import keyed_client
from tests.support.tables import auth


def facts(seat: int, events: list[Event]) -> history.UndoFacts:
    return history.undo_facts(DARK_OMEN, f"seat:{seat}", events)


def test_what_a_move_touches_and_what_blocks_it() -> None:
    s = arranged(table(2), at=10)
    s.heroes[1].at = 12
    s, moved = play(s, 0, "move", to=11)
    assert DARK_OMEN.undoable(moved)
    assert {"seat 1's hero", "space 10", "space 11"} <= (DARK_OMEN.undo_footprint(moved) or set())
    s, elsewhere = play(s, 1, "move", to=13)
    assert history.undo_refusal(facts(0, moved), [facts(1, elsewhere)]) is None
    s, onto = play(s, 1, "move", to=12)
    assert history.undo_refusal(facts(0, moved), [facts(1, elsewhere), facts(1, onto)]) is None
    s, onto = play(s, 1, "move", to=11)
    refusal = history.undo_refusal(facts(0, moved), [facts(1, elsewhere), facts(1, onto)])
    assert refusal == "another player's later action touched the same things (space 11)"


def test_the_same_loot_blocks() -> None:
    s = arranged(table(2), at=10)
    s.heroes[0].inventory = ["l01"]
    s, dropped = play(s, 0, "drop", token="l01")
    assert DARK_OMEN.undoable(dropped)
    s, taken = play(s, 1, "take", token="l01")
    refusal = history.undo_refusal(facts(0, dropped), [facts(1, taken)])
    assert refusal is not None and "the loot on space 10" in refusal


def test_dice_reveals_and_a_finished_round_cannot_be_told_apart() -> None:
    assert not undo.undoable([Event("ApSpent", {"seat": 0, "n": 1, "roll": 4})])
    assert not undo.undoable([Event("LootRevealed", {"seat": 0, "space": 3, "token": "l01"})])
    assert not undo.undoable([Event("LayersTurned", {"white": 1, "clear": 0})])
    assert not undo.undoable([Event("RoundBegan", {"round": 2, "ap_limits": [6]})])
    assert not undo.undoable([])
    done = {"decision": {"kind": "act", "seat": "any", "seats": [1]}, "pending": [], "steps_v": 1}
    passed = [Event("RoundPassed", {"seat": 0}), Event("Waiting", done)]
    assert undo.undoable(passed) and undo.footprint(passed) is None


# -- through the API ----------------------------------------------------------------------


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with keyed_client(db_url) as test_client:
        yield test_client


def new_table(client: TestClient) -> tuple[str, list[str], str]:
    body = {
        "game": "dark_omen",
        "options": {"mode": "quick_chapter", "chapter": 1},
        "seats": [{"name": "Ann"}, {"name": "Bo"}],
        "seed": "undo",
    }
    t = client.post("/api/tables", json=body).json()
    return t["table_id"], [s["token"] for s in t["seats"]], t["gm_token"]


def view(client: TestClient, tid: str, token: str) -> dict[str, Any]:
    return client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()  # type: ignore[no-any-return]


COMMAND_IDS = count()


def send(client: TestClient, tid: str, token: str, seat: int, type_: str, **args: Any) -> Any:
    command = {"command_id": f"c{next(COMMAND_IDS)}", "seat": seat, "type": type_, "args": args}
    return client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))


def offered_undo(v: dict[str, Any]) -> bool:
    return any(c["command"]["type"] == "undo" for p in v["prompts"] for c in p["choices"])


def test_undo_past_another_players_independent_move_then_refused_after_a_touching_one(
    client: TestClient,
) -> None:
    tid, tokens, gm = new_table(client)
    before = view(client, tid, tokens[0])["view"]["heroes"]
    start0, start1 = before[0]["at"], before[1]["at"]  # 64 and 28 at this seed
    first = send(client, tid, tokens[0], 0, "move", to=63)
    assert first.status_code == 200, first.text
    moved = [e["seq"] for e in first.json()["events"]]
    assert view(client, tid, tokens[0])["view"]["heroes"][0]["ap_left"] < before[0]["ap_left"]
    assert send(client, tid, tokens[1], 1, "move", to=29).status_code == 200
    assert offered_undo(view(client, tid, tokens[0]))
    assert send(client, tid, tokens[0], 0, "undo").status_code == 200
    heroes = view(client, tid, tokens[0])["view"]["heroes"]
    assert heroes[0]["at"] == start0 and heroes[0] == before[0]
    assert heroes[1]["at"] == 29 and heroes[1]["at"] != start1
    # Seat 1 takes its own back too (seat 0's undo left it standing, untouched).
    assert send(client, tid, tokens[1], 1, "undo").status_code == 200
    assert view(client, tid, tokens[1])["view"]["heroes"][1]["at"] == start1
    # Both step onto space 65: seat 0's move can no longer be taken back.
    assert send(client, tid, tokens[0], 0, "move", to=65).status_code == 200
    assert send(client, tid, tokens[1], 1, "move", to=65).status_code == 200
    assert not offered_undo(view(client, tid, tokens[0]))
    refused = send(client, tid, tokens[0], 0, "undo")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "cannot_undo"
    assert "touched the same things (space 65)" in refused.json()["error"]["message"]
    # The log marks only seat 0's move as taken back (not seat 1's, which came after it).
    log = client.get(f"/t/{tid}/watch").text
    spans = re.findall(r'class="log-entry log-undo" data-seq="(\d+)" data-undone="(\d+)-(\d+)"', log)
    first_undo = min(spans, key=lambda span: int(span[0]))
    assert first_undo[1:] == (str(moved[0]), str(moved[-1]))
    # The export imports (its undos checked by the rule above), replaying to the same table.
    exported = client.get(f"/api/tables/{tid}/export", headers=auth(gm)).json()
    imported = client.post("/api/tables/import", json=exported)
    assert imported.status_code == 201, imported.text
    copy = imported.json()
    again = view(client, copy["table_id"], copy["gm_token"])["view"]["heroes"]
    assert again == view(client, tid, gm)["view"]["heroes"]
