"""The event store: append at the expected seq in one transaction, read the log back,
keep snapshots, tables and seats (DESIGN.md, "Store")."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import event as sa_event
from sqlalchemy import func, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as SATimeoutError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.kernel.types import Event
from app.store import schema
from app.store.urls import async_url, is_postgres

NOTIFY_CHANNEL = "umbra_events"
"""Payloads are ``<table_id>:<seq>`` after a commit, ``<table_id>:seats`` after a seat
changes hands: never any content, so the other processes read it from the store."""


DATABASE_ERRORS: tuple[type[BaseException], ...] = (DBAPIError, SATimeoutError, ConnectionError, TimeoutError)
"""What the store raises when the database fails or is away (see ``is_outage``)."""


def is_outage(exc: BaseException) -> bool:
    """Is ``exc`` the database being away (restarting, unreachable, out of connections,
    or SQLite locked past its timeout) rather than a bug? Such a request may be retried."""
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    return isinstance(
        exc, OperationalError | InterfaceError | SATimeoutError | ConnectionError | TimeoutError
    ) or (isinstance(exc, OSError) and not isinstance(exc, FileNotFoundError | PermissionError))


class SeqConflict(Exception):
    """Another writer appended at the expected seq first: reload and decide again."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    seq: int
    event: Event
    actor: str
    command_id: str | None
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "type": self.event.type,
            "v": self.event.v,
            "data": self.event.data,
            "actor": self.actor,
            "at": self.at.isoformat(),
        }


@dataclass(frozen=True, slots=True)
class TableRecord:
    id: str
    game: str
    name: str
    options: dict[str, Any]
    seed: str
    gm_token_hash: str
    engine_version: str
    status: str
    outcome: dict[str, Any] | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class RevokedToken:
    """A seat's invite link or device session that the game master revoked by handing the
    seat to a new player: kept (as a hash) so that it is refused with a reason, not as
    unknown."""

    token_hash: str
    kind: str
    """``invite`` or ``device``."""
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"hash": self.token_hash, "kind": self.kind, "at": self.at.isoformat()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RevokedToken:
        return cls(str(data["hash"]), str(data["kind"]), _aware(datetime.fromisoformat(data["at"])))


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    name: str
    token_hash: str
    session_hash: str | None
    bot: bool = False
    """The seat is played by the game's bot (until a person opens its invite link)."""
    revoked: tuple[RevokedToken, ...] = ()
    """The seat's revoked tokens, oldest first (see ``EventStore.reissue_seat``)."""


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=UTC)


class EventStore:
    """Async access to the store on SQLite (aiosqlite) or PostgreSQL (psycopg 3)."""

    def __init__(self, database_url: str, *, pool_size: int = 10) -> None:
        self.database_url = database_url
        self.is_postgres = is_postgres(database_url)
        kwargs: dict[str, Any] = {}
        if self.is_postgres:
            kwargs = {"pool_size": pool_size, "max_overflow": pool_size, "pool_pre_ping": True}
        self.engine: AsyncEngine = create_async_engine(async_url(database_url), **kwargs)
        self._sqlite_writes: asyncio.Lock | None = None
        if not self.is_postgres:
            sa_event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
            # SQLite has one writer at a time: queue writers here rather than in its
            # busy-timeout retries, which made the latency tail long under load.
            self._sqlite_writes = asyncio.Lock()

    async def close(self) -> None:
        await self.engine.dispose()

    def _writing(self) -> contextlib.AbstractAsyncContextManager[Any]:
        return self._sqlite_writes if self._sqlite_writes is not None else contextlib.nullcontext()

    async def _notify(self, conn: Any, payload: str) -> None:
        """On PostgreSQL, tell other processes inside the same transaction: the NOTIFY is
        delivered only if, and when, the transaction commits."""
        if self.is_postgres:
            await conn.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": NOTIFY_CHANNEL, "payload": payload},
            )

    # -- tables and seats -------------------------------------------------------------

    async def create_table(
        self,
        table: TableRecord,
        seats: Sequence[SeatRecord],
        stored: Sequence[StoredEvent],
    ) -> None:
        """Create a table, its seats and its first events in one transaction."""
        async with self.engine.begin() as conn:
            await conn.execute(
                schema.tables.insert().values(
                    id=table.id,
                    game=table.game,
                    name=table.name,
                    options=table.options,
                    seed=table.seed,
                    gm_token_hash=table.gm_token_hash,
                    engine_version=table.engine_version,
                    status=table.status,
                    outcome=table.outcome,
                    created_at=table.created_at,
                )
            )
            await conn.execute(
                schema.seats.insert(),
                [
                    {
                        "table_id": table.id,
                        "seat": s.seat,
                        "name": s.name,
                        "token_hash": s.token_hash,
                        "session_hash": s.session_hash,
                        "bot": s.bot,
                    }
                    for s in seats
                ],
            )
            if stored:
                await conn.execute(schema.events.insert(), [_row(table.id, s) for s in stored])

    async def table(self, table_id: str) -> TableRecord | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(schema.tables).where(schema.tables.c.id == table_id))).first()
        if row is None:
            return None
        return TableRecord(
            id=row.id,
            game=row.game,
            name=row.name,
            options=row.options,
            seed=row.seed,
            gm_token_hash=row.gm_token_hash,
            engine_version=row.engine_version,
            status=row.status,
            outcome=row.outcome,
            created_at=_aware(row.created_at),
        )

    async def seats(self, table_id: str) -> list[SeatRecord]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(schema.seats).where(schema.seats.c.table_id == table_id).order_by(schema.seats.c.seat)
            )
            return [
                SeatRecord(
                    r.seat,
                    r.name,
                    r.token_hash,
                    r.session_hash,
                    bool(r.bot),
                    tuple(RevokedToken.from_json(d) for d in r.revoked or ()),
                )
                for r in rows
            ]

    async def set_session(self, table_id: str, seat: int, session_hash: str) -> None:
        """A seat link opened on a device: that device's session now holds the seat (and
        the bot, if it played the seat, stops)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(schema.seats)
                .where(schema.seats.c.table_id == table_id, schema.seats.c.seat == seat)
                .values(session_hash=session_hash, bot=False)
            )
            await self._notify(conn, f"{table_id}:seats")

    async def reissue_seat(
        self,
        table_id: str,
        before: SeatRecord,
        *,
        token_hash: str,
        name: str,
        revoked: Sequence[RevokedToken],
    ) -> bool:
        """Hand a seat to a new player: a new invite (its hash), no device session, maybe a
        new name, and ``revoked`` as the seat's revoked tokens. Changes the seat only if it
        is still as ``before`` (no device claimed it meanwhile): False otherwise, and then
        nothing changed."""
        seats = schema.seats.c
        async with self._writing(), self.engine.begin() as conn:
            done = await conn.execute(
                update(schema.seats)
                .where(
                    seats.table_id == table_id,
                    seats.seat == before.seat,
                    seats.token_hash == before.token_hash,
                    seats.session_hash.is_(None)
                    if before.session_hash is None
                    else seats.session_hash == before.session_hash,
                )
                .values(
                    token_hash=token_hash,
                    session_hash=None,
                    name=name,
                    revoked=[r.to_json() for r in revoked],
                )
            )
            if done.rowcount != 1:
                return False
            await self._notify(conn, f"{table_id}:seats")
        return True

    async def set_bot(self, table_id: str, seat: int, on: bool) -> None:
        """Hand a seat to the game's bot, or take it back."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(schema.seats)
                .where(schema.seats.c.table_id == table_id, schema.seats.c.seat == seat)
                .values(bot=on)
            )
            await self._notify(conn, f"{table_id}:seats")

    async def bot_tables(self, limit: int = 1000) -> list[str]:
        """Running tables with a seat the bot plays (resumed when a server starts)."""
        query = (
            select(schema.seats.c.table_id)
            .join(schema.tables, schema.tables.c.id == schema.seats.c.table_id)
            .where(schema.seats.c.bot.is_(True), schema.tables.c.status == "running")
            .distinct()
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [r.table_id for r in await conn.execute(query)]

    async def set_status(self, table_id: str, status: str, outcome: dict[str, Any] | None) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                update(schema.tables)
                .where(schema.tables.c.id == table_id)
                .values(status=status, outcome=outcome)
            )

    async def list_tables(self, limit: int = 50) -> list[TableRecord]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(schema.tables.c.id).order_by(schema.tables.c.created_at.desc()).limit(limit)
            )
            ids = [r.id for r in rows]
        return [t for t in [await self.table(i) for i in ids] if t is not None]

    async def platform_setting(self, key: str, make: Callable[[], str]) -> str:
        """The platform's own setting ``key``; the first caller on this database stores
        ``make()``, and every process (replica) after it reads that same value."""
        query = select(schema.platform_settings.c.value).where(schema.platform_settings.c.key == key)
        async with self.engine.connect() as conn:
            value = await conn.scalar(query)
        if value is not None:
            return str(value)
        try:
            async with self._writing(), self.engine.begin() as conn:
                await conn.execute(schema.platform_settings.insert().values(key=key, value=make()))
        except IntegrityError:
            pass  # another process stored it first: read theirs
        async with self.engine.connect() as conn:
            return str(await conn.scalar(query))

    async def tables_seqs(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The newest seq of each table (for a cheap "did anyone commit?" sweep)."""
        if not table_ids:
            return {}
        query = (
            select(schema.events.c.table_id, func.max(schema.events.c.seq))
            .where(schema.events.c.table_id.in_(list(table_ids)))
            .group_by(schema.events.c.table_id)
        )
        async with self.engine.connect() as conn:
            return {row[0]: int(row[1]) for row in await conn.execute(query)}

    # -- the log ----------------------------------------------------------------------

    async def append(
        self,
        table_id: str,
        expected_seq: int,
        events: Sequence[Event],
        *,
        actor: str,
        command_id: str | None,
    ) -> list[StoredEvent]:
        """Append ``events`` as seqs ``expected_seq + 1 …`` in one transaction.

        Raises ``SeqConflict`` if another writer took any of those seqs first; then
        nothing of this append is stored.
        """
        at = _now()
        stored = [StoredEvent(expected_seq + 1 + i, e, actor, command_id, at) for i, e in enumerate(events)]
        if not stored:
            return []
        try:
            async with self._writing(), self.engine.begin() as conn:
                await conn.execute(schema.events.insert(), [_row(table_id, s) for s in stored])
                await self._notify(conn, f"{table_id}:{stored[-1].seq}")
        except IntegrityError as exc:
            raise SeqConflict(f"table {table_id} moved past seq {expected_seq}") from exc
        return stored

    async def events_after(
        self, table_id: str, after: int = 0, *, upto: int | None = None, limit: int | None = None
    ) -> list[StoredEvent]:
        query = (
            select(schema.events)
            .where(schema.events.c.table_id == table_id, schema.events.c.seq > after)
            .order_by(schema.events.c.seq)
        )
        if upto is not None:
            query = query.where(schema.events.c.seq <= upto)
        if limit is not None:
            query = query.limit(limit)
        async with self.engine.connect() as conn:
            return [_stored(r) for r in await conn.execute(query)]

    async def command_result(self, table_id: str, command_id: str) -> list[StoredEvent]:
        """The events a command already produced (empty if it never committed)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(schema.events)
                .where(schema.events.c.table_id == table_id, schema.events.c.command_id == command_id)
                .order_by(schema.events.c.seq)
            )
            return [_stored(r) for r in rows]

    async def last_seq(self, table_id: str) -> int:
        async with self.engine.connect() as conn:
            value = await conn.scalar(
                select(func.max(schema.events.c.seq)).where(schema.events.c.table_id == table_id)
            )
        return int(value or 0)

    # -- snapshots --------------------------------------------------------------------

    async def save_snapshot(self, table_id: str, seq: int, key: str, state: bytes) -> None:
        """Keep ``state`` (the bytes of the state after ``seq``) under ``key``: what made
        it, ``<engine version>:<state schema hash>`` (see ``app.live.session.snapshot_key``)."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    schema.snapshots.insert().values(
                        table_id=table_id, seq=seq, engine_version=key, state=state
                    )
                )
        except IntegrityError:
            pass  # another process saved the same snapshot: it holds the same state

    async def latest_snapshot(
        self, table_id: str, key: str, *, upto: int | None = None
    ) -> tuple[int, bytes] | None:
        """The newest snapshot saved under ``key``. Snapshots under any other key (another
        engine version or state schema) are never read: not even their bytes leave the
        database."""
        query = (
            select(schema.snapshots.c.seq, schema.snapshots.c.state)
            .where(
                schema.snapshots.c.table_id == table_id,
                schema.snapshots.c.engine_version == key,
            )
            .order_by(schema.snapshots.c.seq.desc())
            .limit(1)
        )
        if upto is not None:
            query = query.where(schema.snapshots.c.seq <= upto)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return (row.seq, row.state) if row else None


def _row(table_id: str, s: StoredEvent) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seq": s.seq,
        "type": s.event.type,
        "version": s.event.v,
        "data": s.event.data,
        "actor": s.actor,
        "command_id": s.command_id,
        "at": s.at,
    }


def _stored(row: Any) -> StoredEvent:
    return StoredEvent(
        seq=row.seq,
        event=Event(row.type, row.data, row.version),
        actor=row.actor,
        command_id=row.command_id,
        at=_aware(row.at),
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
