"""The HTML fan-out makes one view and one board per ``Game.view_key`` per seq (issue 10):
spectators and Darkest Night's hero seats share them, the Necromancer player (DN 20.3, his
hand of map cards) gets his own, and pages sharing a key get the same board frames."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel.types import SPECTATOR, Viewer
from app.main import create_app
from app.store.migrate import upgrade
from app.web import fragments
from app.web.stream import HtmlStream
from tests.conftest import make_settings
from tests.web.render_profile import play_one

HERO, NECRO = Viewer("seat", frozenset({0})), Viewer("seat", frozenset({1}))


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url, snapshot_every=0))) as client:
        yield client


def necromancer_table(client: TestClient, seed: str) -> Any:
    body = {
        "game": "darkest_night",
        "seed": seed,
        "seats": [{"name": "Ann"}, {"name": "Nick"}],
        "options": {"necromancer_player": True, "hero_seats": [0, 0, 0, 0]},
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return client.portal.call(client.app.state.hub.session, response.json()["table_id"])  # type: ignore[attr-defined]


def test_spectators_and_hero_seats_share_one_view_and_board_the_necromancer_his_own(
    client: TestClient,
) -> None:
    app: Any = client.app
    hub = app.state.hub
    session = necromancer_table(client, "view-key-fanout")
    assert session.state.necromancer_seat == 1
    viewers = [SPECTATOR, SPECTATOR, HERO, NECRO]
    streams = [HtmlStream(app, hub, session, v) for v in viewers]
    for stream in streams:
        stream.opening([])
    rng = random.Random("view-key-fanout")
    views_made = 0
    original = session.game.view

    def counting_view(state: Any, viewer: Viewer) -> dict[str, Any]:
        nonlocal views_made
        views_made += 1
        return original(state, viewer)

    session.game = _Counting(session.game, counting_view)
    played = 0
    while played < 40:
        events = play_one(client, session, rng)
        if events is None:
            break
        played += 1
        views_made = 0
        frames = [stream.update(events) for stream in streams]
        assert views_made == 2, "one view for the public key, one for the Necromancer's"
        contexts = [fragments.context(hub, session, v) for v in viewers]
        public = contexts[0]["view"]
        assert contexts[1]["view"] is public and contexts[2]["view"] is public
        assert contexts[3]["view"] is not public
        assert isinstance(public["necromancer_hand"], int)
        assert isinstance(contexts[3]["view"]["necromancer_hand"], list)
        assert len(fragments.renders_of(session).boards) == 2
        assert frames[0] == frames[1], "two spectators get the very same frames"
    assert played >= 20


class _Counting:
    """The game, with ``view`` counted (everything else passed through)."""

    def __init__(self, game: Any, view: Any) -> None:
        self._game, self.view = game, view

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def test_pages_holding_the_same_share_frames_and_a_page_behind_gets_its_own(client: TestClient) -> None:
    """Two spectators in step are handed one list of frames; a spectator that skipped a commit
    (its socket was busy) gets the frames its own held parts call for, shared with its twin."""
    app: Any = client.app
    hub = app.state.hub
    session = necromancer_table(client, "shared-frames")
    in_step = [HtmlStream(app, hub, session, SPECTATOR) for _ in range(2)]
    behind = [HtmlStream(app, hub, session, SPECTATOR) for _ in range(2)]
    for stream in [*in_step, *behind]:
        stream.opening([])
    rng = random.Random("shared-frames")
    missed: list[Any] = []
    for step in range(30):
        events = play_one(client, session, rng)
        assert events is not None
        first, second = (stream.update(events) for stream in in_step)
        assert first is second or first == second == []
        missed.extend(events)
        if step % 3:
            continue
        check = HtmlStream(app, hub, session, SPECTATOR)
        check.sent = dict(behind[0].sent)
        expected = check._make_frames(missed)
        got = [stream.update(missed) for stream in behind]
        assert got[0] == expected and got[1] is got[0]
        assert behind[0].sent == behind[1].sent == check.sent
        missed = []


def test_pages_holding_the_same_board_share_its_diff_and_hold_it_exactly(client: TestClient) -> None:
    """A page's board diff is made once per seq for every page holding the same board
    (``HtmlStream.board``): that is right only while such a page holds each part of that board
    exactly. Pages of different viewers, one opened late, one that skipped commits and one
    reconnecting with what it missed, each hold, after every update, the board's every part as
    made, and send what a page diffing on its own would."""
    app: Any = client.app
    hub = app.state.hub
    session = necromancer_table(client, "shared-board")
    streams = [HtmlStream(app, hub, session, v) for v in (SPECTATOR, HERO, HERO, NECRO)]
    for stream in streams:
        stream.opening([])
    rng = random.Random("shared-board")
    behind = HtmlStream(app, hub, session, SPECTATOR)
    behind.opening([])
    missed: list[Any] = []
    shared = 0
    for step in range(40):
        events = play_one(client, session, rng)
        assert events is not None
        missed.extend(events)
        for stream in streams:
            alone = HtmlStream(app, hub, session, stream.viewer)
            alone.sent, alone.board = dict(stream.sent), None  # None: no board diff to share
            expected = alone._make_frames(events)
            before = len(fragments.renders_of(session).board_diffs)
            assert stream.update(events) == expected
            shared += len(fragments.renders_of(session).board_diffs) == before and stream.board is not None
            assert stream.sent == alone.sent
        if step == 10:  # a page opened late, and one reconnecting from seq 0
            late, reconnecting = HtmlStream(app, hub, session, HERO), HtmlStream(app, hub, session, SPECTATOR)
            late.opening([])
            reconnecting.opening(client.portal.call(session.events_between, 0, session.seq))
            streams += [late, reconnecting]
        if step % 4 == 3:
            behind.update(missed)
            missed = []
            streams_and_behind = [*streams, behind]
        else:
            streams_and_behind = streams
        for stream in streams_and_behind:
            ctx = fragments.context(hub, session, stream.viewer)
            _, board = fragments.page_nodes(app.state.templates, session, ctx)
            assert stream.board == tuple(node.version for node in board.values())
            for node in board.values():
                for each in [node, *node.inner]:
                    assert stream.sent[each.id] == (each.version, each.frame_hash)
    assert shared > 40, "pages holding the same board were handed its diff"
