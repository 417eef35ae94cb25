"""The store's hot statements on PostgreSQL, on psycopg's own connections (issue 10): an
append, a catch-up read, a refusal's check. SQLAlchemy's async layer (a greenlet hop, the
statement's compiled-cache look-up and parameter processing, the pool's checkout) cost as
much CPU per statement as the driver's own work; everything else still goes through it.

A driver error is raised as SQLAlchemy would raise it (``DBAPIError.instance``: a taken seq
is an ``IntegrityError``, a database away an ``OperationalError``), and a connection that
broke is dropped and said invalidated, so ``EventStore._once_more`` retries it once on a
fresh one exactly as it does for the pool's connections."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus
from sqlalchemy.exc import DBAPIError

IDLE = TransactionStatus.IDLE

RECYCLE_SECONDS = 1800
"""A connection older than this is closed rather than reused (as the pool's ``pool_recycle``)."""


class RawPool:
    """At most ``size`` psycopg connections in autocommit, reused; a statement waits for one.
    Each connection keeps one cursor, reused by every statement run on it: making a cursor
    per statement (``AsyncConnection.execute``) was about a sixth of a statement's CPU here."""

    def __init__(self, dsn: str, size: int) -> None:
        self.dsn = dsn
        self.size = size
        self._idle: list[tuple[psycopg.AsyncCursor[Any], float]] = []
        self._slots: asyncio.Semaphore | None = None

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for cursor, _ in idle:
            await cursor.connection.close()

    @asynccontextmanager
    async def _cursor(self) -> AsyncIterator[psycopg.AsyncCursor[Any]]:
        """An idle connection's cursor (a new connection if none is idle), given back after."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        async with self._slots:
            cursor, born = None, 0.0
            while self._idle:
                cursor, born = self._idle.pop()
                if not cursor.connection.closed and time.monotonic() - born < RECYCLE_SECONDS:
                    break
                await cursor.connection.close()
                cursor = None
            if cursor is None:
                conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
                cursor, born = conn.cursor(), time.monotonic()
            try:
                yield cursor
            finally:
                conn = cursor.connection
                # A statement cut off midway (its task cancelled) leaves the connection busy.
                if conn.broken or conn.closed or conn.info.transaction_status != IDLE:
                    await conn.close()
                else:
                    self._idle.append((cursor, born))

    async def rows(self, sql: str, params: Any) -> list[tuple[Any, ...]]:
        """Every row of one statement."""
        try:
            async with self._cursor() as cursor:
                await cursor.execute(sql, params)
                return await cursor.fetchall()
        except psycopg.Error as exc:
            broken = isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError)
            raise DBAPIError.instance(sql, params, exc, psycopg.Error, connection_invalidated=broken) from exc
