"""Across processes: PostgreSQL LISTEN/NOTIFY carrying ``(table_id, seq)`` only; each
process then catches up from the store (DESIGN.md, "Live")."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import psycopg

from app.store.store import NOTIFY_CHANNEL
from app.store.urls import libpq_dsn

log = logging.getLogger(__name__)


class PgListener:
    def __init__(
        self,
        database_url: str,
        on_payload: Callable[[str], Awaitable[None]],
        on_reconnect: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.dsn = libpq_dsn(database_url)
        self.on_payload = on_payload
        self.on_reconnect = on_reconnect
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="pg-listener")
        await asyncio.wait_for(self._ready.wait(), timeout=30)

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self._ready.set()
                    if not first and self.on_reconnect:
                        await self.on_reconnect()
                    first = False
                    async for note in conn.notifies():
                        try:
                            await self.on_payload(note.payload)
                        except Exception:
                            log.exception("handling notify %r failed", note.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("LISTEN connection lost; reconnecting")
                await asyncio.sleep(1)
