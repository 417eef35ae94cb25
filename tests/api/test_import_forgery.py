"""Issue 8, items 1 and 3: an import is a signed export, checked whole; a forged or edited
log is refused with a precise 422 (413 when too large, 429 when too frequent) and nothing
is stored; no import costs memory or time out of proportion to its size."""

from __future__ import annotations

import copy
import json
import tracemalloc
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select

from app.kernel import table as kernel
from app.kernel.registry import get_game
from app.kernel.types import Event
from app.store import schema
from app.store.urls import sync_url
from tests.live.test_undo import choice, dn_table, post
from tests.support.hardening import TEST_KEY, keyed_client, resign, store_counts
from tests.support.tables import auth


def error_code(response: Any) -> str:
    assert response.headers["content-type"].startswith("application/json"), response.text
    return str(response.json()["error"]["code"])


def played_export(client: TestClient, seats: int = 2) -> dict[str, Any]:
    """A Darkest Night table after setup, a move taken back, and a prayer (dice)."""
    table = dn_table(client, seats=seats)
    tid, tokens = table["table_id"], [s["token"] for s in table["seats"]]
    for token in tokens:
        start = choice(client, tid, token, "take_turn")
        if start:
            post(client, tid, token, start)
            break
    token = next(t for t in tokens if choice(client, tid, t, "travel"))
    post(client, tid, token, choice(client, tid, token, "travel"))
    post(client, tid, token, choice(client, tid, token, "undo"))
    post(client, tid, token, choice(client, tid, token, "pray"))
    exported = client.get(f"/api/tables/{tid}/export", headers=auth(table["gm_token"])).json()
    assert exported["signature"].startswith("hmac-sha256:")
    return exported


@pytest.fixture
def keyed(db_url: str) -> Any:
    with keyed_client(db_url) as client:
        yield client, db_url, played_export(client)


def refused(client: TestClient, db_url: str, doc: Any, status: int, code: str) -> None:
    before = store_counts(db_url)
    response = client.post("/api/tables/import", json=doc)
    assert response.status_code == status, response.text
    assert error_code(response) == code, response.text
    assert store_counts(db_url) == before


def index_of(doc: dict[str, Any], type_: str) -> int:
    return next(i for i, e in enumerate(doc["events"]) if e["type"] == type_)


def test_an_untouched_export_imports_and_plays_on(keyed: Any) -> None:
    client, _, exported = keyed
    response = client.post("/api/tables/import", json=exported)
    assert response.status_code == 201, response.text
    new = response.json()
    view = client.get(f"/api/tables/{new['table_id']}/view", headers=auth(new["gm_token"])).json()
    assert view["seq"] == len(exported["events"])
    assert client.get(f"/t/{new['table_id']}/replay").status_code == 200


def test_an_import_is_replayed_once_and_kept_as_a_snapshot(keyed: Any) -> None:
    """The state the check replayed (in a worker thread) is the new table's snapshot at its
    last event, so loading the table replays nothing on the event loop; a restarted
    process loads the same view from it."""
    client, db_url, exported = keyed
    new = client.post("/api/tables/import", json=exported).json()
    tid, gm = new["table_id"], auth(new["gm_token"])
    engine = create_engine(sync_url(db_url))
    try:
        with engine.connect() as conn:
            query = select(schema.snapshots.c.seq).where(schema.snapshots.c.table_id == tid)
            assert list(conn.scalars(query)) == [len(exported["events"])]
    finally:
        engine.dispose()
    view = client.get(f"/api/tables/{tid}/view", headers=gm).json()
    with keyed_client(db_url) as restarted:
        assert restarted.get(f"/api/tables/{tid}/view", headers=gm).json() == view


def test_every_edit_breaks_the_signature(keyed: Any) -> None:
    """Dice set to sixes, a win injected, events swapped, deleted or retargeted, options
    edited, a seat removed: each is an edit, and the signature no longer verifies."""
    client, db_url, exported = keyed
    edits = []
    sixes = copy.deepcopy(exported)
    dice = sixes["events"][index_of(sixes, "DiceRolled")]
    dice["data"]["faces"] = [6, *dice["data"]["faces"]]
    edits.append(sixes)
    win = copy.deepcopy(exported)
    win["events"].append(
        {"seq": len(win["events"]) + 1, "type": "GameEnded", "v": 1, "data": {"won": True, "reason": "x"},
         "actor": "system", "at": win["events"][-1]["at"], "command_id": None}
    )  # fmt: skip
    win["outcome"] = {"winner": "heroes", "reason": "x"}
    edits.append(win)
    swapped = copy.deepcopy(exported)
    swapped["events"][-1], swapped["events"][-2] = swapped["events"][-2], swapped["events"][-1]
    edits.append(swapped)
    deleted = copy.deepcopy(exported)
    del deleted["events"][-3]
    edits.append(deleted)
    moved = copy.deepcopy(exported)
    target = moved["events"][index_of(moved, "HeroMoved")]["data"]
    target["to"] = "Ruins" if target["to"] != "Ruins" else "Swamp"
    edits.append(moved)
    edits.append(exported | {"options": exported["options"] | {"starting_darkness": 10}})
    edits.append(exported | {"seats": exported["seats"][:1]})
    edits.append({k: v for k, v in exported.items() if k != "signature"})
    for i, doc in enumerate(edits):
        assert doc != exported, i
        refused(client, db_url, doc, 422, "bad_signature")


def test_a_server_with_another_key_refuses_it(keyed: Any, db_url: str) -> None:
    client, _, exported = keyed
    from app.main import create_app
    from tests.conftest import make_settings

    with TestClient(create_app(make_settings(db_url, secret_key="another-key"))) as other:
        refused(other, db_url, exported, 422, "bad_signature")
    with TestClient(create_app(make_settings(db_url, secret_key=TEST_KEY))) as same:
        assert same.post("/api/tables/import", json=exported).status_code == 201


def test_behind_the_signature_every_event_is_checked(keyed: Any) -> None:
    """What a forger holding the key could sign is still checked: order, one opening event,
    known types and versions, bounds, chat as chat makes it, undo only of the newest
    undoable command of the undoing seat, and a table that can go on."""
    client, db_url, exported = keyed
    events = exported["events"]
    cases: list[tuple[str, dict[str, Any], str]] = []

    def case(name: str, change: Any, code: str = "bad_export") -> None:
        doc = copy.deepcopy(exported)
        change(doc)
        cases.append((name, resign(doc), code))

    def swap(doc: dict[str, Any]) -> None:
        doc["events"][5], doc["events"][6] = doc["events"][6], doc["events"][5]

    case("swapped", swap)
    case("deleted", lambda d: d["events"].pop(7))
    case("second opening", lambda d: d["events"].append(dict(d["events"][0], seq=len(events) + 1)))
    case("unknown type", lambda d: d["events"][-1].update(type="TreasureFound"))
    case("future version", lambda d: d["events"][-1].update(v=7))
    case("platform type", lambda d: d["events"][-1].update(type="table.teleport"))
    case("bad actor", lambda d: d["events"][-1].update(actor="seat:9"))
    case("empty", lambda d: d.update(events=[], outcome=None))
    case("long chat", lambda d: d["events"].append(chat(d, "x" * 200_000)), "too_complex")
    case("chat over 500", lambda d: d["events"].append(chat(d, "x" * 501)))
    case("unstorable chat", lambda d: d["events"].append(chat(d, "a\udc00")), "bad_text")
    case("undo of dice", lambda d: d["events"].append(undo_newest(d)))
    case("undo of everything", lambda d: d["events"].append(undo(d, [1, len(d["events"])])))
    case("undo bomb", lambda d: d["events"].append(undo(d, [1, 10**12])))
    forged_outcome = {"winner": "heroes", "reason": "forged"}
    case("outcome claimed", lambda d: d.update(outcome=forged_outcome), "replay_failed")
    nonsense = {"nonsense": 1}
    case("bad data", lambda d: d["events"][1].update(data=nonsense), "replay_failed")
    for name, doc, code in cases:
        before = store_counts(db_url)
        body = json.dumps(doc)  # ASCII-escaped: a lone surrogate travels as "\udc00"
        headers = {"content-type": "application/json"}
        response = client.post("/api/tables/import", content=body, headers=headers)
        assert response.status_code == 422 and error_code(response) == code, (name, response.text)
        assert store_counts(db_url) == before, name


def chat(doc: dict[str, Any], text: str) -> dict[str, Any]:
    last = doc["events"][-1]
    return {"seq": last["seq"] + 1, "type": "table.chat", "v": 1, "data": {"seat": 0, "text": text},
            "actor": "seat:0", "at": last["at"], "command_id": "chat-forged"}  # fmt: skip


def undo(doc: dict[str, Any], span: list[int]) -> dict[str, Any]:
    last = doc["events"][-1]
    seat = int(last["actor"].split(":")[1]) if last["actor"].startswith("seat:") else 0
    return {"seq": last["seq"] + 1, "type": "table.undo", "v": 1,
            "data": {"seat": seat, "undone": span, "count": span[1] - span[0] + 1},
            "actor": f"seat:{seat}", "at": last["at"], "command_id": "undo-forged"}  # fmt: skip


def undo_newest(doc: dict[str, Any]) -> dict[str, Any]:
    """An undo of the newest command (the prayer, which rolled dice)."""
    last = doc["events"][-1]
    first = last["seq"]
    while doc["events"][first - 2]["command_id"] == last["command_id"]:
        first -= 1
    return undo(doc, [first, last["seq"]])


def test_size_caps_and_rate_limit(db_url: str) -> None:
    with keyed_client(db_url, max_import_events=20) as client:
        exported = played_export(client)
        refused(client, db_url, exported, 413, "too_large")
    with keyed_client(db_url, max_import_bytes=10_000) as client:
        exported = played_export(client)
        blob = json.dumps(exported).encode()
        assert len(blob) > 10_000
        before = store_counts(db_url)
        headers = {"content-type": "application/json"}
        response = client.post("/api/tables/import", content=blob, headers=headers)
        assert response.status_code == 413 and error_code(response) == "too_large"
        assert store_counts(db_url) == before
    with keyed_client(db_url, imports_per_minute=2) as client:
        exported = played_export(client)
        assert client.post("/api/tables/import", json=exported).status_code == 201
        assert client.post("/api/tables/import", json=exported).status_code == 201
        before = store_counts(db_url)
        response = client.post("/api/tables/import", json=exported)
        assert response.status_code == 429 and error_code(response) == "rate_limited"
        assert int(response.headers["retry-after"]) >= 1
        assert store_counts(db_url) == before


def test_an_undo_bomb_already_stored_costs_nothing(keyed: Any) -> None:
    """A log written before the checks existed may hold ``undone: [1, 10**12]``: it is
    clamped to the events before it, never expanded (it once took 12 GiB)."""
    game = get_game("darkest_night")
    assert game is not None
    _, _, exported = keyed
    log = [(e["seq"], Event(e["type"], e["data"], e["v"])) for e in exported["events"]]
    n = len(log)
    log.append((n + 1, Event(kernel.UNDO_EVENT, {"seat": 0, "undone": [1, 10**12], "count": 1})))
    tracemalloc.start()
    try:
        state = kernel.replay_log(game, log)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20
    assert state == game.initial_state()  # everything before it was taken back
