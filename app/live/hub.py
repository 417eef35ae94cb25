"""The per-process hub: creates, loads and caches table sessions, resolves tokens to
viewers, and imports and exports logs. It knows no game's rules."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import re
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.config import Settings
from app.kernel import table as kernel
from app.kernel.game import Game, has_bot
from app.kernel.registry import get_game
from app.kernel.rng import new_seed, rng_for
from app.kernel.text import check_text
from app.kernel.types import GM_SEAT, SPECTATOR, Choice, Prompt, RuleError, SeatInfo, Viewer
from app.live import exports, inputs
from app.live.auth import new_table_id, new_token, token_hash
from app.live.bots import BotDriver
from app.live.session import TableSession
from app.store import EventStore, SeatRecord, StoredEvent, TableRecord

log = logging.getLogger(__name__)

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
"""What a table id can look like (ids are made by ``new_table_id``); anything else is 404."""
SWEEP_SECONDS = 5.0
MIN_IDLE_FOR_LRU = 5.0


class AuthError(Exception):
    """A missing, forged or superseded token (401), or a seat not held (403)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class NotFound(Exception):
    pass


@dataclass(frozen=True, slots=True)
class Wanted:
    """A catch-up a table is owed: to ``upto`` (None: whatever is stored), and whether its
    seats changed hands."""

    upto: int | None
    seats: bool


@dataclass(frozen=True, slots=True)
class CreatedTable:
    table_id: str
    seat_tokens: list[tuple[int, str, str]]
    """(seat, name, invite token) per seat."""
    gm_token: str


class Hub:
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
        self.bots = BotDriver(self, delay=settings.bot_delay)
        self._signing_key: str | None = None

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
        await self.store.close()

    # -- sessions ---------------------------------------------------------------------

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

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Let tables leave memory (they reload from snapshot + log on demand): every table
        idle for ``idle_evict_seconds`` that nobody watches and no bot is playing, and,
        above ``max_loaded_tables``, the least recently used such tables idle a few seconds.
        A bot merely waiting on a person is stopped too; loading the table restarts it."""
        now = time.monotonic() if now is None else now
        idle = [
            s
            for s in self.sessions.values()
            if s.subscribers == 0 and not s.lock.locked() and not self.bots.is_playing(s.id)
        ]
        idle.sort(key=lambda s: s.last_used)
        over = len(self.sessions) - self.settings.max_loaded_tables
        gone: list[str] = []
        for session in idle:
            quiet = now - session.last_used
            if quiet >= self.settings.idle_evict_seconds or (over > 0 and quiet >= MIN_IDLE_FOR_LRU):
                self.bots.forget(session.id)
                del self.sessions[session.id]
                gone.append(session.id)
                over -= 1
        self.evicted += len(gone)
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

    async def sweep(self) -> None:
        watched = [s for s in self.sessions.values() if s.subscribers or self.bots.is_playing(s.id)]
        newest = await self.store.tables_seqs([s.id for s in watched])
        for session in watched:
            if newest.get(session.id, 0) > session.seq:
                self._poke(session, newest[session.id])

    def health(self) -> dict[str, Any]:
        return {
            "tables_loaded": len(self.sessions),
            "tables_evicted": self.evicted,
            "max_loaded_tables": self.settings.max_loaded_tables,
            "idle_evict_seconds": self.settings.idle_evict_seconds,
            "viewers": sum(s.subscribers for s in self.sessions.values()),
            "bots_playing": sum(1 for s in self.sessions.values() if self.bots.is_playing(s.id)),
        }

    async def _on_notify(self, payload: str) -> None:
        """A commit or a seat change on another process (or this one): catch up in the
        background, one catch-up per table at a time, so one slow table holds up no other."""
        table_id, _, what = payload.rpartition(":")
        session = self.sessions.get(table_id)
        if session is None:
            return
        if what == "seats":
            self._poke(session, None, seats=True)
        else:
            self._poke(session, int(what) if what.isdigit() else None)

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
                        session.seats_changed(await self.store.seats(session.id))
                        self.bots.watch(session)
                    await session.catch_up(wanted.upto)
                except Exception as exc:  # the sweep or the listener's resync tries again
                    log.warning("catching up %s failed: %s", session.id, exc)
        finally:
            self._catching.pop(session.id, None)

    async def resync_all(self) -> None:
        """After the listener reconnects: anything may have been missed, so catch up."""
        for session in list(self.sessions.values()):
            self._poke(session, None, seats=True)

    # -- creating tables --------------------------------------------------------------

    async def create_table(
        self,
        game_name: str,
        options: dict[str, Any] | None,
        seat_names: list[str],
        *,
        seed: str | None = None,
        name: str = "",
    ) -> CreatedTable:
        game = get_game(game_name)
        if game is None:
            raise RuleError("unknown_game", f"there is no game {game_name!r}")
        if seed is not None and not self.settings.test_mode:
            raise RuleError("seed_not_allowed", "a seed is accepted only in test mode")
        if seed is not None:
            check_text(seed, "the seed")
        names = inputs.check_seat_names(game, seat_names)
        options = inputs.check_options(game, options, len(names))
        seed = seed or new_seed()
        opening = game.setup(options, [SeatInfo(i, n) for i, n in enumerate(names)], rng_for(seed, 1))
        at = datetime.now(UTC)
        stored = [StoredEvent(i + 1, e, "system", None, at) for i, e in enumerate(opening)]
        return await self._insert(game, inputs.check_table_name(name), options, seed, names, stored)

    async def _insert(
        self,
        game: Game,
        name: str,
        options: dict[str, Any],
        seed: str,
        names: list[str],
        stored: list[StoredEvent],
    ) -> CreatedTable:
        table_id, gm_token = new_table_id(), new_token()
        tokens = [new_token() for _ in names]
        record = TableRecord(
            id=table_id,
            game=game.name,
            name=name,
            options=options,
            seed=seed,
            gm_token_hash=token_hash(gm_token),
            engine_version=game.engine_version,
            status="running",
            outcome=None,
            created_at=datetime.now(UTC),
        )
        seat_rows = [
            SeatRecord(i, n, token_hash(t), None) for i, (n, t) in enumerate(zip(names, tokens, strict=True))
        ]
        await self.store.create_table(record, seat_rows, stored)
        session = await self.session(table_id)
        if session.outcome is not None:
            await self.store.set_status(table_id, "finished", session.outcome.to_json())
        return CreatedTable(
            table_id, [(i, n, t) for i, (n, t) in enumerate(zip(names, tokens, strict=True))], gm_token
        )

    # -- who is asking ----------------------------------------------------------------

    async def viewer(
        self, table_id: str, tokens: list[str], *, required: bool = False, lenient: bool = False
    ) -> Viewer:
        """Resolve the tokens a request carries into one viewer (the union of the seats
        they hold). No token is a spectator; an unrecognised token is an error, unless
        ``lenient`` (a browser's cookie may keep tokens of seats since taken over)."""
        session = await self.session(table_id)
        if not tokens:
            if required:
                raise AuthError(401, "token_missing", "this needs a seat or game-master token")
            return SPECTATOR
        seats: set[Any] = set()
        gm = False
        for token in tokens:
            digest = token_hash(token)
            if digest == session.record.gm_token_hash:
                gm = True
                continue
            seat = next((s.seat for s in session.seats if digest in (s.token_hash, s.session_hash)), None)
            if seat is None:
                if lenient:
                    continue
                raise AuthError(
                    401,
                    "token_invalid",
                    f"that token opens nothing at table {table_id} (if it was a device "
                    "session, the seat may have been opened on another device since)",
                )
            seats.add(seat)
        if gm:
            return Viewer("gm", frozenset({GM_SEAT, *seats}))
        if not seats:
            if required:
                raise AuthError(401, "token_invalid", "none of your tokens opens this table")
            return SPECTATOR
        return Viewer("seat", frozenset(seats))

    async def claim_seat(self, table_id: str, invite_token: str) -> tuple[int, str]:
        """An invite link opened on a device: that device takes the seat over.

        Returns the seat and a fresh device-session token; the device that held the seat
        before loses it (its live page is told so)."""
        session = await self.session(table_id)
        digest = token_hash(invite_token)
        seat = next((s for s in session.seats if s.token_hash == digest), None)
        if seat is None:
            raise AuthError(401, "token_invalid", f"that is not an invite link of table {table_id}")
        device_token = new_token()
        await self.store.set_session(table_id, seat.seat, token_hash(device_token))
        session.seats_changed(await self.store.seats(table_id))
        return seat.seat, device_token

    async def set_bot(self, table_id: str, seat: int, on: bool, viewer: Viewer) -> TableSession:
        """Hand a seat to the game's bot (``on``) or take it back: the game master's or the
        seat's own call. A seat a person has joined is theirs to hand over."""
        session = await self.session(table_id)
        record = next((s for s in session.seats if s.seat == seat), None)
        if record is None:
            raise NotFound(f"table {table_id} has no seat {seat}")
        if not (viewer.is_gm or viewer.holds(seat)):
            raise AuthError(
                403,
                "seat_not_held",
                f"only the game master or {record.name}'s player may hand that seat over",
            )
        if on and not has_bot(session.game):
            raise RuleError("no_bot", f"{session.game.title} has no bot to play a seat")
        if on and record.session_hash is not None and not viewer.holds(seat):
            raise RuleError(
                "seat_joined",
                f"{record.name} has joined that seat: only they may hand it to the bot",
                status=409,
            )
        if record.bot != on:
            await self.store.set_bot(table_id, seat, on)
            session.seats_changed(await self.store.seats(table_id))
            self.bots.watch(session)
        return session

    # -- what a viewer sees -----------------------------------------------------------

    def prompts_for(self, session: TableSession, viewer: Viewer) -> list[Prompt]:
        """The game's prompts for this viewer's seats, and "undo" where it is allowed."""
        if session.outcome is not None:
            return []
        prompts = [p for p in session.game_prompts() if viewer.holds(p.seat)]
        for seat in sorted(s for s in viewer.seats if isinstance(s, int)):
            command = session.undoable_command(seat)
            if command:
                detail = "; ".join(t for e in command if (t := kernel.describe(session.game, e.event)))
                prompts.append(
                    Prompt(
                        seat,
                        "Take it back?",
                        (Choice(kernel.UNDO, {}, "Undo your last action", detail[:200]),),
                        required=False,
                    )
                )
        return prompts

    def waiting_for(self, session: TableSession) -> list[Any]:
        """Whose decision the table waits on (public)."""
        if session.outcome is not None:
            return []
        seen: list[Any] = []
        for p in session.game_prompts():
            if p.required and p.seat not in seen:
                seen.append(p.seat)
        return seen

    def view_payload(self, session: TableSession, viewer: Viewer) -> dict[str, Any]:
        return {
            "seq": session.seq,
            "view": session.game.view(session.state, viewer),
            "prompts": [prompt_json(session, p) for p in self.prompts_for(session, viewer)],
            "waiting_for": self.waiting_for(session),
            "outcome": session.outcome.to_json() if session.outcome else None,
        }

    def events_payload(
        self, session: TableSession, events: list[StoredEvent], viewer: Viewer
    ) -> list[dict[str, Any]]:
        out = []
        for stored in events:
            visible = kernel.event_for_viewer(session.game, stored.event, viewer)
            if visible is None:
                out.append(
                    {
                        "seq": stored.seq,
                        "type": "hidden",
                        "v": 1,
                        "data": {},
                        "actor": stored.actor,
                        "at": stored.at.isoformat(),
                    }
                )
                continue
            out.append(
                {
                    "seq": stored.seq,
                    "type": visible.type,
                    "v": visible.v,
                    "data": visible.data,
                    "actor": stored.actor,
                    "at": stored.at.isoformat(),
                    "text": kernel.describe(session.game, visible),
                }
            )
        return out

    # -- export and import ------------------------------------------------------------

    async def export(self, table_id: str) -> dict[str, Any]:
        """The whole log, signed with this server's key (never the secret seed)."""
        session = await self.session(table_id)
        events = await self.store.events_after(table_id, 0)
        key = await self.signing_key()
        return exports.export_doc(session.game, session.record, session.seats, session.outcome, events, key)

    async def import_log(self, data: Any) -> CreatedTable:
        """A new table from a signed export, checked whole (see ``app.live.exports``); the
        checks and the replay run in a worker thread so no table freezes meanwhile."""
        key = await self.signing_key()
        checked = await asyncio.to_thread(
            exports.check_import, data, key, max_events=self.settings.max_import_events
        )
        return await self._insert(
            checked.game, checked.name, checked.options, new_seed(), checked.seat_names, checked.events
        )

    async def signing_key(self) -> str:
        """``UMBRA_SECRET_KEY``, else the key generated once and kept in the database."""
        if self._signing_key is None:
            self._signing_key = self.settings.secret_key or await self.store.platform_setting(
                exports.SIGNING_KEY_SETTING, lambda: secrets.token_urlsafe(32)
            )
        return self._signing_key


def prompt_json(session: TableSession, prompt: Prompt) -> dict[str, Any]:
    """A prompt with each choice as a ready-to-send command.

    The ``command_id`` is derived from the table, the seq and the command itself, so
    sending the same choice twice from the same state is one command, not two; the
    table's secret seed goes into it too, so no one can predict another seat's ids."""

    def command(choice_type: str, args: dict[str, Any]) -> dict[str, Any]:
        # The table's secret seed keeps another seat from guessing (and spending) this id.
        body = json.dumps(
            [session.record.seed, session.id, session.seq, prompt.seat, choice_type, args], sort_keys=True
        )
        digest = hashlib.sha256(body.encode()).hexdigest()[:20]
        return {
            "command_id": f"{session.seq}-{digest}",
            "seat": prompt.seat,
            "type": choice_type,
            "args": args,
            "seq": session.seq,
        }

    return {
        "seat": prompt.seat,
        "title": prompt.title,
        "required": prompt.required,
        "choices": [
            {"label": c.label, "detail": c.detail, "command": command(c.type, c.args)} for c in prompt.choices
        ],
        "unavailable": [
            {"type": u.type, "label": u.label, "reason": u.reason, "rule": u.rule} for u in prompt.unavailable
        ],
    }
