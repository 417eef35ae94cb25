"""A seat re-read begun before a seat changed hands (a catch-up heard by NOTIFY while a
device opens its invite link, say) must not be applied after the read of whoever changed
it: the join would be undone in memory, and the game master could hand a joined seat to
the bot (seen as a flaky 200 instead of 409 ``seat_joined`` on PostgreSQL)."""

from __future__ import annotations

import asyncio

from app.live.hub import Hub
from app.live.seats import seat_of
from app.store import EventStore, SeatRecord
from app.store.migrate import upgrade
from tests.conftest import make_settings


def test_a_stale_seat_read_never_undoes_a_join(db_url: str) -> None:
    upgrade(db_url)

    async def go() -> None:
        store = EventStore(db_url)
        hub = Hub(make_settings(db_url), store)
        try:
            created = await hub.create_table("darkest_night", None, ["Ann", "Bob"])
            tid, invite = created.table_id, created.seat_tokens[0][2]
            session = await hub.session(tid)
            read_seats = store.seats
            stale_read_made, release = asyncio.Event(), asyncio.Event()

            async def first_read_held(table_id: str) -> list[SeatRecord]:
                rows = await read_seats(table_id)
                if not stale_read_made.is_set():
                    stale_read_made.set()
                    await release.wait()  # returns the seats as they were before the join
                return rows

            store.seats = first_read_held  # type: ignore[method-assign]
            catch_up = asyncio.create_task(hub.cache.seats_changed(session))
            await stale_read_made.wait()
            join = asyncio.create_task(hub.claim_seat(tid, invite))
            while (await read_seats(tid))[0].session_hash is None:  # the join is stored
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)  # and has had its chance to re-read the seats
            release.set()
            await asyncio.gather(catch_up, join)
            assert seat_of(session, 0).session_hash is not None
        finally:
            await hub.stop()

    asyncio.run(go())
