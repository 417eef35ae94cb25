"""``TableSession.events_between`` reads the events it keeps in memory (every live socket's
read after each commit) exactly as the store holds them, for any span: inside the window,
past its newest event, empty, and beyond what memory keeps (then from the store)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.live.test_eviction import new_table, play


def test_the_events_kept_in_memory_are_the_stored_ones_for_any_span(db_url: str) -> None:
    upgrade(db_url)
    with TestClient(create_app(make_settings(db_url))) as client:
        hub = client.app.state.hub
        table = new_table(client)
        play(client, table, 6)
        session = client.portal.call(hub.session, table["table_id"])
        stored = client.portal.call(hub.store.events_after, session.id, 0)
        assert stored and stored[-1].seq == session.seq and session.recent[0].seq == 1
        last = session.seq
        spans = [(a, u) for a in range(0, last + 2) for u in (a, a + 1, a + 3, last, last + 5)]
        for after, upto in spans:
            want = [e for e in stored if after < e.seq <= upto]
            assert client.portal.call(session.events_between, after, upto) == want, (after, upto)
        # Past what memory keeps, the store answers.
        while session.recent[0].seq < 4:
            session.recent.popleft()
        assert client.portal.call(session.events_between, 1, last) == [e for e in stored if e.seq > 1]
