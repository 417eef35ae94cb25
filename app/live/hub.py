"""The per-process hub: one object the routes, the benches and the tests hold. It knows no
game's rules and does little itself; each concern has its own module:

- ``sessions``: loading, caching and evicting table sessions, catching up with other
  processes (NOTIFY, sweep), and the bots that play loaded tables (``bots``);
- ``seats``: tokens and seats (who is asking, invite links, the bot switch, hand-overs);
- ``tables``: creating tables, importing and exporting logs;
- ``wire``: what a viewer is sent (view, prompts as ready-to-send commands, events).
"""

from __future__ import annotations

import logging
from typing import Any

from app.config import Settings
from app.kernel.types import Prompt, Viewer
from app.live import wire
from app.live.bots import BotDriver
from app.live.errors import AuthError, NotFound
from app.live.seats import ReissuedSeat, SeatKeeper
from app.live.session import TableSession
from app.live.sessions import TABLE_ID, SessionCache
from app.live.tables import CreatedTable, TableMaker
from app.live.wire import prompt_json
from app.store import EventStore, StoredEvent, is_outage

log = logging.getLogger(__name__)

__all__ = [
    "TABLE_ID",
    "AuthError",
    "CreatedTable",
    "Hub",
    "NotFound",
    "ReissuedSeat",
    "prompt_json",
]


class Hub:
    def __init__(self, settings: Settings, store: EventStore) -> None:
        self.settings = settings
        self.store = store
        self.cache = SessionCache(settings, store)
        self.seat_keeper = SeatKeeper(self.cache)
        self.tables = TableMaker(settings, store, self.cache)

    # -- the process's sessions (app.live.sessions) -----------------------------------

    @property
    def sessions(self) -> dict[str, TableSession]:
        return self.cache.sessions

    @property
    def bots(self) -> BotDriver:
        return self.cache.bots

    @property
    def listener(self) -> Any:
        return self.cache.listener

    @property
    def evicted(self) -> int:
        return self.cache.evicted

    async def start(self) -> None:
        await check_durable_commits(self.store, allow=self.settings.allow_async_commit)
        await self.cache.start()

    async def stop(self) -> None:
        await self.cache.stop()
        await self.store.close()

    async def session(self, table_id: str) -> TableSession:
        return await self.cache.session(table_id)

    def evict_idle(self, now: float | None = None) -> list[str]:
        return self.cache.evict_idle(now)

    def health(self) -> dict[str, Any]:
        return self.cache.health()

    # -- creating, importing and exporting tables (app.live.tables) -------------------

    async def create_table(
        self,
        game_name: str,
        options: dict[str, Any] | None,
        seat_names: list[str],
        *,
        seed: str | None = None,
        name: str = "",
    ) -> CreatedTable:
        return await self.tables.create_table(game_name, options, seat_names, seed=seed, name=name)

    async def export(self, table_id: str) -> dict[str, Any]:
        return await self.tables.export(table_id)

    async def import_log(self, data: Any) -> CreatedTable:
        return await self.tables.import_log(data)

    # -- seats and tokens (app.live.seats) --------------------------------------------

    async def viewer(
        self, table_id: str, tokens: list[str], *, required: bool = False, lenient: bool = False
    ) -> Viewer:
        return await self.seat_keeper.viewer(table_id, tokens, required=required, lenient=lenient)

    async def claim_seat(self, table_id: str, invite_token: str) -> tuple[int, str]:
        return await self.seat_keeper.claim_seat(table_id, invite_token)

    async def set_bot(self, table_id: str, seat: int, on: bool, viewer: Viewer) -> TableSession:
        return await self.seat_keeper.set_bot(table_id, seat, on, viewer)

    async def reissue_seat(
        self, table_id: str, seat: int, viewer: Viewer, name: str | None = None
    ) -> ReissuedSeat:
        return await self.seat_keeper.reissue(table_id, seat, viewer, name)

    # -- what a viewer is sent (app.live.wire) ----------------------------------------

    def prompts_for(self, session: TableSession, viewer: Viewer) -> list[Prompt]:
        return wire.prompts_for(session, viewer)

    def waiting_for(self, session: TableSession) -> list[Any]:
        return wire.waiting_for(session)

    def waiting_for_any_one(self, session: TableSession) -> bool:
        return wire.waiting_for_any_one(session)

    def view_payload(self, session: TableSession, viewer: Viewer) -> dict[str, Any]:
        return wire.view_payload(session, viewer)

    def events_payload(
        self, session: TableSession, events: list[StoredEvent], viewer: Viewer
    ) -> list[dict[str, Any]]:
        return wire.events_payload(session, events, viewer)


class AsyncCommitRefused(RuntimeError):
    """The server will not serve on a database that may lose acknowledged commands."""


async def check_durable_commits(store: EventStore, *, allow: bool) -> None:
    """Refuse to start on a PostgreSQL with ``synchronous_commit = off`` (issue 23): there a
    commit returns before its WAL is flushed, so a crash can lose a command the server has
    already answered 200 for (seen: 4 of 1,484 after an immediate stop). With ``allow``
    (``UMBRA_ALLOW_ASYNC_COMMIT=1``) it serves, after a loud warning. A database that is not
    answering is not judged here: the server starts and retries as it always has."""
    try:
        setting = await store.synchronous_commit()
    except Exception as exc:
        if not is_outage(exc):
            raise
        log.warning("could not read synchronous_commit (database unavailable: %s)", exc)
        return
    if setting != "off":
        return
    problem = (
        "PostgreSQL's synchronous_commit is off for this database: a crash could lose commands "
        "the server already acknowledged. Turn it on (ALTER DATABASE … SET synchronous_commit = on, "
        "or in postgresql.conf)"
    )
    if not allow:
        raise AsyncCommitRefused(f"{problem}, or set UMBRA_ALLOW_ASYNC_COMMIT=1 to serve anyway.")
    log.warning("*** %s. Serving anyway because UMBRA_ALLOW_ASYNC_COMMIT=1. ***", problem)
