"""The sessions a process holds: loaded from the store on first use (one load however many
ask at once), evicted when idle, and caught up with commits and seat changes made by other
processes (NOTIFY on PostgreSQL, with a periodic sweep as a safety net). DESIGN.md, "Live"."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from dataclasses import dataclass
from typing import Any

from app.config import Settings
from app.kernel.registry import get_game
from app.live.bots import BotDriver
from app.live.errors import NotFound
from app.live.session import TableSession
from app.store import EventStore

log = logging.getLogger(__name__)

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
"""What a table id can look like (ids are made by ``new_table_id``); anything else is 404."""
SWEEP_SECONDS = 5.0
MIN_IDLE_FOR_LRU = 5.0


@dataclass(frozen=True, slots=True)
class Wanted:
    """A catch-up a table is owed: to ``upto`` (None: whatever is stored), and whether its
    seats changed hands."""

    upto: int | None
    seats: bool


class SessionCache:
    def __init__(self, settings: Settings, store: EventStore) -> None:
        self.settings = settings
        self.store = store
        self.sessions: dict[str, TableSession] = {}
        self._loads: dict[str, asyncio.Future[TableSession]] = {}
        self._wanted: dict[str, Wanted] = {}
        self._catching: dict[str, asyncio.Task[None]] = {}
        self._housekeeping: asyncio.Task[None] | None = None
        self.evicted = 0
        self.listener: Any = None
        self.bots = BotDriver(self, delay=settings.bot_delay, strength=settings.bot_strength)

    async def start(self) -> None:
        if self.store.is_postgres:
            from app.live.notify import PgListener

            self.listener = PgListener(self.store.database_url, self._on_notify, on_reconnect=self.resync_all)
            await self.listener.start()
        await self.bots.start()
        self._housekeeping = asyncio.create_task(self._keep_house(), name="hub-housekeeping")

    async def stop(self) -> None:
        if self._housekeeping is not None:
            self._housekeeping.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._housekeeping
        await self.bots.stop()
        if self.listener is not None:
            await self.listener.stop()

    # -- loading ----------------------------------------------------------------------

    async def session(self, table_id: str) -> TableSession:
        """The live session of a table, loading it from the store on first use (one load
        however many ask at once; a failed load is not remembered)."""
        session = self.sessions.get(table_id)
        if session is None:
            if not TABLE_ID.match(table_id):
                raise NotFound(f"no table {table_id[:40]!r}")
            task = self._loads.get(table_id)
            if task is None:
                task = asyncio.ensure_future(self._load(table_id))
                self._loads[table_id] = task
                task.add_done_callback(lambda _: self._loads.pop(table_id, None))
            session = await asyncio.shield(task)
        session.last_used = time.monotonic()
        return session

    async def _load(self, table_id: str) -> TableSession:
        record = await self.store.table(table_id)
        if record is None:
            raise NotFound(f"no table {table_id!r}")
        game = get_game(record.game)
        if game is None:
            raise NotFound(f"table {table_id!r} is a game this server does not run")
        session = await TableSession.load(
            self.store, game, record, snapshot_every=self.settings.snapshot_every
        )
        self.sessions[table_id] = session
        self.bots.watch(session)
        return session

    async def seats_changed(self, session: TableSession) -> None:
        """This process changed a seat of ``session``: re-read its seats (other processes
        hear it by NOTIFY) and let the bots notice."""
        await session.reread_seats()
        self.bots.watch(session)

    # -- leaving memory ---------------------------------------------------------------

    def _unwatched(self, session: TableSession) -> bool:
        """Nobody here watches ``session``: no subscriber, no bot playing, no command in hand."""
        return session.subscribers == 0 and not session.lock.locked() and not self.bots.is_playing(session.id)

    def _drop(self, session: TableSession) -> None:
        self.bots.forget(session.id)
        del self.sessions[session.id]
        self.evicted += 1

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Let tables leave memory (they reload from snapshot + log on demand): every table
        idle for ``idle_evict_seconds`` that nobody watches and no bot is playing, and,
        above ``max_loaded_tables``, the least recently used such tables idle a few seconds.
        A bot merely waiting on a person is stopped too; loading the table restarts it."""
        now = time.monotonic() if now is None else now
        idle = [s for s in self.sessions.values() if self._unwatched(s)]
        idle.sort(key=lambda s: s.last_used)
        over = len(self.sessions) - self.settings.max_loaded_tables
        gone: list[str] = []
        for session in idle:
            quiet = now - session.last_used
            if quiet >= self.settings.idle_evict_seconds or (over > 0 and quiet >= MIN_IDLE_FOR_LRU):
                self._drop(session)
                gone.append(session.id)
                over -= 1
        return gone

    async def _keep_house(self) -> None:
        """Every few seconds: evict idle tables; on PostgreSQL, check that every watched
        table is at its newest seq (a safety net under NOTIFY, which a dropped listener
        connection can miss)."""
        period = max(0.5, min(SWEEP_SECONDS, self.settings.idle_evict_seconds / 4))
        while True:
            await asyncio.sleep(period)
            try:
                self.evict_idle()
                if self.store.is_postgres:
                    await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database may be away: try again next time
                log.warning("housekeeping skipped: %s", exc)

    def health(self) -> dict[str, Any]:
        return {
            "tables_loaded": len(self.sessions),
            "tables_evicted": self.evicted,
            "max_loaded_tables": self.settings.max_loaded_tables,
            "idle_evict_seconds": self.settings.idle_evict_seconds,
            "viewers": sum(s.subscribers for s in self.sessions.values()),
            "bots_playing": sum(1 for s in self.sessions.values() if self.bots.is_playing(s.id)),
        }

    # -- catching up with other processes ---------------------------------------------

    async def sweep(self) -> None:
        watched = [s for s in self.sessions.values() if s.subscribers or self.bots.is_playing(s.id)]
        newest = await self.store.tables_seqs([s.id for s in watched])
        for session in watched:
            if newest.get(session.id, 0) > session.seq:
                self._poke(session, newest[session.id])

    async def _on_notify(self, payload: str) -> None:
        """A commit or a seat change on another process (or this one): catch up in the
        background, one catch-up per table at a time, so one slow table holds up no other."""
        table_id, _, what = payload.rpartition(":")
        session = self.sessions.get(table_id)
        if session is None:
            return
        if what.isdigit() and int(what) > session.seq and self._unwatched(session):
            # Another process serves this table (issue 25: each table lives in the process
            # nginx routes it to; this one merely created or once read it) and nobody here
            # watches it: let it go rather than read and fold every commit it makes. A
            # request for it here reloads it from the store.
            self._drop(session)
            return
        if what == "seats":
            self._poke(session, None, seats=True)
        elif not what.isdigit():
            self._poke(session, None)
        elif int(what) > session.seq:  # not this process's own commit, already applied
            self._poke(session, int(what))

    def _poke(self, session: TableSession, upto: int | None, *, seats: bool = False) -> None:
        """Ask for a catch-up of ``session`` (to ``upto``, or to whatever is stored: None),
        merged with any asked for already; one task per table runs them in turn."""
        had = self._wanted.get(session.id)
        if had is not None:
            upto = None if upto is None or had.upto is None else max(upto, had.upto)
            seats = seats or had.seats
        self._wanted[session.id] = Wanted(upto, seats)
        if session.id not in self._catching:
            task = asyncio.create_task(self._catch_up(session), name=f"catch-up-{session.id}")
            self._catching[session.id] = task

    async def _catch_up(self, session: TableSession) -> None:
        try:
            while (wanted := self._wanted.pop(session.id, None)) is not None:
                if self.sessions.get(session.id) is not session:
                    return  # evicted meanwhile: a reload reads the store afresh
                try:
                    if wanted.seats:
                        await self.seats_changed(session)
                    await session.catch_up(wanted.upto)
                except Exception as exc:  # the sweep or the listener's resync tries again
                    log.warning("catching up %s failed: %s", session.id, exc)
        finally:
            self._catching.pop(session.id, None)

    async def resync_all(self) -> None:
        """After the listener reconnects: anything may have been missed, so catch up."""
        for session in list(self.sessions.values()):
            self._poke(session, None, seats=True)
