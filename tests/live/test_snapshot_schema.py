"""Snapshots are a cache keyed by engine version and state schema hash (DESIGN.md, "Saves
outlive releases"), on SQLite and PostgreSQL: a snapshot saved under another schema (here a
state class with one more field, the engine version unchanged) is ignored and the log
replayed, and its bytes are never unpickled."""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from functools import partial
from typing import Any

from fastapi.testclient import TestClient

from app.kernel.registry import get_game
from app.live.session import TableSession, rebuild, snapshot_key
from app.main import create_app
from app.store import EventStore
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.support.lanterns import Lanterns, LanternsState
from tests.support.tables import auth, create_body, first_choice

SPRUNG: list[str] = []


def spring(where: str) -> None:
    """What unpickling a trap runs: it records that it ran, then fails the load."""
    SPRUNG.append(where)
    raise RuntimeError("a snapshot under a foreign key was unpickled")


class Trap:
    def __init__(self, where: str) -> None:
        self.where = where

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return spring, (self.where,)


@dataclass(frozen=True)
class LanternsStateNext(LanternsState):
    """The next release's state: one more field. Nobody bumped the engine version."""

    lanterns_lit: int = 0


class LanternsNext(Lanterns):
    def initial_state(self) -> LanternsStateNext:
        return LanternsStateNext()


def played_table(client: TestClient, moves: int) -> str:
    table = client.post("/api/tables", json=create_body(seats=2, target=60, deck="long")).json()
    tid = table["table_id"]
    for _ in range(moves):
        seat = client.get(f"/api/tables/{tid}").json()["waiting_for"][0]
        token = auth(table["seats"][seat]["token"])
        view = client.get(f"/api/tables/{tid}/view", headers=token).json()
        sent = client.post(f"/api/tables/{tid}/commands", json=first_choice(view, seat=seat), headers=token)
        assert sent.status_code == 200, sent.text
    return tid


def test_a_snapshot_of_another_state_schema_is_ignored_and_the_log_replayed(db_url: str) -> None:
    upgrade(db_url)
    game, next_release = get_game("lanterns"), LanternsNext()
    assert game is not None and next_release.engine_version == game.engine_version
    assert snapshot_key(next_release) != snapshot_key(game)
    assert snapshot_key(game).startswith(f"{game.engine_version}:")
    with TestClient(create_app(make_settings(db_url, snapshot_every=4))) as client:
        tid = played_table(client, 12)
        store: EventStore = client.app.state.hub.store
        live_state = client.app.state.hub.sessions[tid].state
        saved = client.portal.call(store.latest_snapshot, tid, snapshot_key(game))
        assert saved is not None and saved[0] > 4  # this release's snapshots exist…

        state, seq, events = client.portal.call(rebuild, store, game, tid)
        assert [e.seq for e in events] == list(range(saved[0] + 1, seq + 1))  # …and this release
        assert state == live_state  # uses them

        state, seq_next, events = client.portal.call(rebuild, store, next_release, tid)
        assert [e.seq for e in events] == list(range(1, seq + 1))  # the next release replays it all
        assert seq_next == seq
        assert type(state) is LanternsStateNext and state.lanterns_lit == 0
        assert state.scores == live_state.scores and state.deck == live_state.deck

        record = client.portal.call(store.table, tid)
        assert record is not None
        session = client.portal.call(
            partial(TableSession.load, store, next_release, record, snapshot_every=4)
        )
        assert type(session.state) is LanternsStateNext and session.seq == seq


def test_a_snapshot_under_a_foreign_key_is_never_unpickled(db_url: str) -> None:
    upgrade(db_url)
    game = get_game("lanterns")
    assert game is not None
    SPRUNG.clear()
    with TestClient(create_app(make_settings(db_url, snapshot_every=0))) as client:
        tid = played_table(client, 6)
        store: EventStore = client.app.state.hub.store
        live_state = client.app.state.hub.sessions[tid].state
        last = client.app.state.hub.sessions[tid].seq
        foreign = [snapshot_key(LanternsNext()), f"0:{snapshot_key(game).split(':')[1]}", "1"]
        for key in foreign:
            blob = pickle.dumps(Trap(key))
            client.portal.call(store.save_snapshot, tid, last, key, blob)
        state, _, events = client.portal.call(rebuild, store, game, tid)
        assert SPRUNG == [] and events[0].seq == 1 and state == live_state

        # The trap works: saved under this release's own key it is unpickled (and the
        # failed load falls back to the log, since a snapshot is only a cache).
        client.portal.call(store.save_snapshot, tid, last, snapshot_key(game), pickle.dumps(Trap("own")))
        state, _, events = client.portal.call(rebuild, store, game, tid)
        assert SPRUNG == ["own"] and events[0].seq == 1 and state == live_state
