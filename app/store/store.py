"""The event store: append at the expected seq in one transaction, read the log back,
keep snapshots, tables and seats (DESIGN.md, "Store")."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import Engine, create_engine, func, literal, select, text, union_all, update
from sqlalchemy import event as sa_event
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as SATimeoutError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.kernel.types import Event
from app.store import schema
from app.store.raw import RawPool
from app.store.urls import async_url, is_postgres, libpq_dsn, sync_url

T = TypeVar("T")
R = TypeVar("R")

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


class CommandSpent(Exception):
    """The command id of an append was already spent at this table: nothing was appended;
    ``events`` are what the command id produced when it was committed."""

    def __init__(self, events: list[StoredEvent]) -> None:
        super().__init__(f"command already committed at seq {events[0].seq if events else '?'}")
        self.events = events


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

    def __init__(self, database_url: str, *, pool_size: int = 32) -> None:
        self.database_url = database_url
        self.is_postgres = is_postgres(database_url)
        kwargs: dict[str, Any] = {}
        if self.is_postgres:
            # No pre-ping (a round trip on every checkout): a connection that died is
            # invalidated by the error it raises, and the read or append is tried again
            # once on a fresh one (``_once_more``). Enough connections kept for a command in
            # flight at each of a few dozen busy tables: an overflow connection is opened and
            # closed around one statement (a PostgreSQL backend forked per command, under load).
            kwargs = {"pool_size": pool_size, "max_overflow": pool_size // 2, "pool_recycle": 1800}
        self.engine: AsyncEngine = create_async_engine(async_url(database_url), **kwargs)
        self.quick: AsyncEngine = (
            self.engine.execution_options(isolation_level="AUTOCOMMIT") if self.is_postgres else self.engine
        )
        """The engine for single statements on the hot path: on PostgreSQL in autocommit,
        so a read or an append is one round trip (no BEGIN before it, no ROLLBACK after)."""
        self.raw: RawPool | None = RawPool(libpq_dsn(database_url), pool_size) if self.is_postgres else None
        """On PostgreSQL, the hot path's own connections (``app.store.raw``): the append, the
        catch-up read and a refusal's check, on the driver without SQLAlchemy's layer."""
        self._sqlite_writes: asyncio.Lock | None = None
        self._sqlite_appends: Engine | None = None
        self._bind_data: Callable[[Any], Any] = _same
        self._bind_at: Callable[[Any], Any] = _same
        if not self.is_postgres:
            sa_event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
            # Appends run whole in one worker thread (BEGIN, the two INSERTs, COMMIT) on the
            # plain sqlite3 driver: one hop off the event loop instead of one per statement.
            self._sqlite_appends = create_engine(sync_url(database_url), pool_size=1, max_overflow=0)
            sa_event.listen(self._sqlite_appends, "connect", _sqlite_pragmas)
            dialect = self._sqlite_appends.dialect
            self._bind_data = schema.events.c.data.type.dialect_impl(dialect).bind_processor(dialect) or _same
            self._bind_at = schema.events.c.at.type.dialect_impl(dialect).bind_processor(dialect) or _same
            # SQLite has one writer at a time: queue writers here rather than in its
            # busy-timeout retries, which made the latency tail long under load.
            self._sqlite_writes = asyncio.Lock()

    async def close(self) -> None:
        if self.raw is not None:
            await self.raw.close()
        await self.engine.dispose()
        if self._sqlite_appends is not None:
            self._sqlite_appends.dispose()

    async def synchronous_commit(self) -> str | None:
        """PostgreSQL's ``synchronous_commit`` as this server's connections get it (the
        server's, the database's or the role's setting); None on SQLite, which has no such
        setting (its appends are durable: ``synchronous=FULL``)."""
        if not self.is_postgres:
            return None
        async with self.engine.connect() as conn:
            return str((await conn.execute(text("SHOW synchronous_commit"))).scalar_one())

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
                spent: dict[str, int] = {}
                for s in stored:
                    if s.command_id is not None:
                        spent.setdefault(s.command_id, s.seq)
                if spent:
                    await conn.execute(
                        schema.commands.insert(),
                        [{"table_id": table.id, "command_id": c, "seq": q} for c, q in spent.items()],
                    )

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
        rows = await self._once_more(lambda: self._read(query, tuple))
        return {row[0]: int(row[1]) for row in rows}

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
        """Append ``events`` as seqs ``expected_seq + 1 …`` in one transaction, and spend
        ``command_id`` at this table in the same transaction (one statement, one round trip
        on PostgreSQL).

        Raises ``SeqConflict`` if another writer took any of those seqs first, and
        ``CommandSpent`` if ``command_id`` was already committed here; then nothing of this
        append is stored.
        """
        at = _now()
        stored = [StoredEvent(expected_seq + 1 + i, e, actor, command_id, at) for i, e in enumerate(events)]
        if not stored:
            return []
        try:
            if self.is_postgres:
                appended = await self._once_more(lambda: self._append_pg(table_id, stored))
            else:
                appended = await self._append_sqlite(table_id, stored)
        except IntegrityError as exc:
            raise SeqConflict(f"table {table_id} moved past seq {expected_seq}") from exc
        if not appended:
            assert command_id is not None
            raise CommandSpent(await self.command_result(table_id, command_id))
        return stored

    async def _append_pg(self, table_id: str, stored: list[StoredEvent]) -> bool:
        """One statement: claim the command id, insert the events if it was free, NOTIFY
        if they were inserted. False: the command id was spent (nothing inserted)."""
        first = stored[0]
        rows = [
            {"seq": s.seq, "type": s.event.type, "version": s.event.v, "data": s.event.data} for s in stored
        ]
        params = {
            "table_id": table_id,
            "command_id": first.command_id,
            "first_seq": first.seq,
            "actor": first.actor,
            "at": first.at,
            "rows": json.dumps(rows, separators=(",", ":")),
            "channel": NOTIFY_CHANNEL,
            "payload": f"{table_id}:{stored[-1].seq}",
        }
        assert self.raw is not None
        rows = await self.raw.rows(_PG_APPEND_RAW, params)
        return bool(rows[0][0])

    async def _append_sqlite(self, table_id: str, stored: list[StoredEvent]) -> bool:
        async with self._writing():
            return await asyncio.to_thread(self._append_sqlite_sync, table_id, stored)

    def _append_sqlite_sync(self, table_id: str, stored: list[StoredEvent]) -> bool:
        """The SQLite append, in a worker thread: spend the command id, then insert, on the
        driver's own connection (no SQLAlchemy statement built or compiled per append: that
        was most of an append's CPU). Values are bound as the columns' types bind them, so
        the rows read back exactly as before."""
        assert self._sqlite_appends is not None
        first = stored[0]
        rows = [
            (
                table_id,
                s.seq,
                s.event.type,
                s.event.v,
                self._bind_data(s.event.data),
                s.actor,
                s.command_id,
                self._bind_at(s.at),
            )
            for s in stored
        ]
        raw = self._sqlite_appends.raw_connection()
        try:
            cursor = raw.cursor()
            try:
                if first.command_id is not None:
                    cursor.execute(_SQLITE_CLAIM, (table_id, first.command_id, first.seq))
                    if cursor.rowcount != 1:
                        raw.rollback()
                        return False
                cursor.executemany(_SQLITE_APPEND, rows)
                raw.commit()
            except sqlite3.Error as exc:  # as SQLAlchemy would raise it (IntegrityError: a seq taken)
                raw.rollback()
                raise DBAPIError.instance(_SQLITE_APPEND, None, exc, sqlite3.Error) from exc
            except BaseException:
                raw.rollback()
                raise
            finally:
                cursor.close()
        finally:
            raw.close()  # back to the pool
        return True

    async def _once_more(self, attempt: Callable[[], Awaitable[T]]) -> T:
        """Run ``attempt``, and once more if it failed on a pooled connection that had died
        (PostgreSQL restarted, or a proxy dropped it): the pool has invalidated it, so the
        retry gets a fresh one. Safe for reads, and for appends, whose command id makes a
        repeat of a commit whose answer was lost a ``CommandSpent``. A database that is
        still away fails the second time, and the caller says 503."""
        try:
            return await attempt()
        except DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            return await attempt()

    async def events_after(
        self, table_id: str, after: int = 0, *, upto: int | None = None, limit: int | None = None
    ) -> list[StoredEvent]:
        if self.raw is not None:  # the catch-up read of every commit: no query built for it
            raw = self.raw
            sql = _PG_EVENTS + (" AND seq <= %(upto)s" if upto is not None else "") + " ORDER BY seq"
            sql += " LIMIT %(limit)s" if limit is not None else ""
            params = {"table_id": table_id, "after": after, "upto": upto, "limit": limit}
            rows = await self._once_more(lambda: raw.rows(sql, params))
            return [_raw_stored(r) for r in rows]
        query = (
            select(schema.events)
            .where(schema.events.c.table_id == table_id, schema.events.c.seq > after)
            .order_by(schema.events.c.seq)
        )
        if upto is not None:
            query = query.where(schema.events.c.seq <= upto)
        if limit is not None:
            query = query.limit(limit)
        return await self._once_more(lambda: self._read(query, _stored))

    async def command_result(self, table_id: str, command_id: str) -> list[StoredEvent]:
        """The events a command already produced (empty if it never committed)."""
        query = (
            select(schema.events)
            .where(schema.events.c.table_id == table_id, schema.events.c.command_id == command_id)
            .order_by(schema.events.c.seq)
        )
        return await self._once_more(lambda: self._read(query, _stored))

    async def refusal_check(
        self, table_id: str, after: int, command_id: str
    ) -> tuple[list[StoredEvent], list[StoredEvent]]:
        """What a command the rules refused is checked against, in one SELECT: the events
        after ``after`` (another process moved the table on) and the events ``command_id``
        already produced (a retry of a command that committed): ``events_after`` and
        ``command_result`` at once."""
        if self.raw is not None:
            raw = self.raw
            params = {"table_id": table_id, "after": after, "command_id": command_id}
            rows = await self._once_more(lambda: raw.rows(_PG_REFUSAL, params))
            parts: tuple[list[StoredEvent], list[StoredEvent]] = ([], [])
            for part, *row in rows:
                parts[part].append(_raw_stored(row))
            return parts
        ev = schema.events.c
        # Two SELECTs in one statement, each on its own index (an OR of the two may not be).
        query = union_all(
            select(schema.events, literal(0).label("part")).where(ev.table_id == table_id, ev.seq > after),
            select(schema.events, literal(1).label("part")).where(
                ev.table_id == table_id, ev.command_id == command_id
            ),
        ).order_by("part", "seq")
        rows = await self._once_more(lambda: self._read(query, lambda row: (row.part, _stored(row))))
        return [s for part, s in rows if part == 0], [s for part, s in rows if part == 1]

    async def _read(self, query: Any, make: Callable[[Any], R]) -> list[R]:
        """One SELECT on the hot-path engine, each row made into ``make(row)``."""
        async with self.quick.connect() as conn:
            return [make(r) for r in await conn.execute(query)]

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
        if self.raw is not None:  # one statement in autocommit, not BEGIN, INSERT, COMMIT
            params = {"table_id": table_id, "seq": seq, "key": key, "state": state}
            await self.raw.rows(_PG_SNAPSHOT, params)
            return
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


_PG_APPEND = text(
    """
    WITH claimed AS (
        INSERT INTO commands (table_id, command_id, seq)
        SELECT CAST(:table_id AS varchar), CAST(:command_id AS varchar), CAST(:first_seq AS integer)
        WHERE CAST(:command_id AS varchar) IS NOT NULL
        ON CONFLICT DO NOTHING
        RETURNING seq
    ), appended AS (
        INSERT INTO events (table_id, seq, type, version, data, actor, command_id, at)
        SELECT CAST(:table_id AS varchar), r.seq, r.type, r.version, r.data, CAST(:actor AS varchar),
            CAST(:command_id AS varchar), CAST(:at AS timestamptz)
        FROM jsonb_to_recordset(CAST(:rows AS jsonb)) AS r(seq int, type text, version int, data jsonb)
        WHERE CAST(:command_id AS varchar) IS NULL OR EXISTS (SELECT 1 FROM claimed)
        RETURNING seq
    )
    SELECT count(*) FROM (
        SELECT pg_notify(CAST(:channel AS text), CAST(:payload AS text))
        FROM (SELECT 1 FROM appended LIMIT 1) AS one
    ) AS notified
    """
)
"""The append on PostgreSQL, in one statement: spend the command id (if it was free),
insert the events (only then), and NOTIFY the other processes (only if they were
inserted; delivered at commit). Answers 1 if appended, 0 if the command id was spent. A
seq another writer took first fails the whole statement (the events' primary key), and
then the command id is not spent either."""


_PG_APPEND_RAW = re.sub(r":(\w+)", r"%(\1)s", _PG_APPEND.text)
_PG_EVENTS = (
    "SELECT seq, type, version, data, actor, command_id, at FROM events WHERE table_id = %(table_id)s"
    " AND seq > %(after)s"
)
_PG_REFUSAL = (
    "(SELECT 0 AS part, seq, type, version, data, actor, command_id, at FROM events "
    "WHERE table_id = %(table_id)s AND seq > %(after)s) UNION ALL "
    "(SELECT 1, seq, type, version, data, actor, command_id, at FROM events "
    "WHERE table_id = %(table_id)s AND command_id = %(command_id)s) ORDER BY part, seq"
)
_PG_SNAPSHOT = (
    "INSERT INTO snapshots (table_id, seq, engine_version, state) "
    "VALUES (%(table_id)s, %(seq)s, %(key)s, %(state)s) ON CONFLICT DO NOTHING RETURNING seq"
)
"""``events_after``, ``refusal_check`` and ``save_snapshot`` as the driver runs them
(``app.store.raw``; a snapshot another process saved first holds the same state)."""


_SQLITE_CLAIM = "INSERT INTO commands (table_id, command_id, seq) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
_SQLITE_APPEND = (
    "INSERT INTO events (table_id, seq, type, version, data, actor, command_id, at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
"""The append on SQLite, as the driver runs it (``EventStore._append_sqlite_sync``)."""


def _same(value: Any) -> Any:
    return value


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


def _raw_stored(row: Sequence[Any]) -> StoredEvent:
    """A row of ``_PG_EVENTS`` (seq, type, version, data, actor, command_id, at)."""
    return StoredEvent(row[0], Event(row[1], row[3], row[2]), row[4], row[5], _aware(row[6]))


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
