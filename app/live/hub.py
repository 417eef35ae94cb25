"""The per-process hub: creates, loads and caches table sessions, resolves tokens to
viewers, and imports and exports logs. It knows no game's rules."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.config import Settings
from app.kernel import table as kernel
from app.kernel.game import Game, has_bot, validate_options
from app.kernel.registry import get_game
from app.kernel.rng import new_seed, rng_for
from app.kernel.types import GM_SEAT, SPECTATOR, Choice, Event, Prompt, RuleError, SeatInfo, Viewer
from app.live.auth import new_table_id, new_token, token_hash
from app.live.bots import BotDriver
from app.live.session import TableSession
from app.store import EventStore, SeatRecord, StoredEvent, TableRecord

log = logging.getLogger(__name__)

EXPORT_FORMAT = "umbra-log"
EXPORT_VERSION = 1
MAX_SEAT_NAME = 40
MAX_TABLE_NAME = 80


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
        self._loading: dict[str, asyncio.Lock] = {}
        self.listener: Any = None
        self.bots = BotDriver(self, delay=settings.bot_delay)

    async def start(self) -> None:
        if self.store.is_postgres:
            from app.live.notify import PgListener

            self.listener = PgListener(self.store.database_url, self._on_notify, on_reconnect=self.resync_all)
            await self.listener.start()
        await self.bots.start()

    async def stop(self) -> None:
        await self.bots.stop()
        if self.listener is not None:
            await self.listener.stop()
        await self.store.close()

    # -- sessions ---------------------------------------------------------------------

    async def session(self, table_id: str) -> TableSession:
        """The live session of a table, loading it from the store on first use."""
        session = self.sessions.get(table_id)
        if session is not None:
            return session
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            session = self.sessions.get(table_id)
            if session is None:
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

    async def _on_notify(self, payload: str) -> None:
        table_id, _, what = payload.rpartition(":")
        session = self.sessions.get(table_id)
        if session is None:
            return
        if what == "seats":
            session.seats_changed(await self.store.seats(table_id))
            self.bots.watch(session)
        elif not what.isdigit():
            await session.catch_up()
        elif int(what) > session.seq:
            await session.catch_up(int(what))

    async def resync_all(self) -> None:
        """After the listener reconnects: anything may have been missed, so catch up."""
        for session in list(self.sessions.values()):
            await session.catch_up()
            session.seats_changed(await self.store.seats(session.id))
            self.bots.watch(session)

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
        names = check_seat_names(game, seat_names)
        options = validate_options(game, options)
        seed = seed or new_seed()
        opening = game.setup(options, [SeatInfo(i, n) for i, n in enumerate(names)], rng_for(seed, 1))
        at = datetime.now(UTC)
        stored = [StoredEvent(i + 1, e, "system", None, at) for i, e in enumerate(opening)]
        return await self._insert(game, check_table_name(name), options, seed, names, stored)

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
        session = await self.session(table_id)
        events = await self.store.events_after(table_id, 0)
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "game": session.game.name,
            "engine_version": session.record.engine_version,
            "name": session.record.name,
            "options": session.record.options,
            "seats": [{"seat": s.seat, "name": s.name} for s in session.seats],
            "outcome": session.outcome.to_json() if session.outcome else None,
            "events": [e.to_json() | {"command_id": e.command_id} for e in events],
        }

    async def import_log(self, data: dict[str, Any]) -> CreatedTable:
        """A new table from an exported log, verified by replaying every event."""
        if data.get("format") != EXPORT_FORMAT or data.get("version") != EXPORT_VERSION:
            raise RuleError("bad_export", f"not an {EXPORT_FORMAT} v{EXPORT_VERSION} file")
        game = get_game(str(data.get("game")))
        if game is None:
            raise RuleError("unknown_game", f"there is no game {data.get('game')!r}")
        names = check_seat_names(game, [s.get("name") for s in _list(data, "seats")])
        options = validate_options(game, data.get("options") or {})
        stored: list[StoredEvent] = []
        for expected, raw in enumerate(_list(data, "events"), start=1):
            stored.append(_imported_event(raw, expected))
        try:
            state = kernel.replay_log(game, [(s.seq, s.event) for s in stored])
            game.prompts(state)
            game.outcome(state)
        except Exception as exc:
            raise RuleError("replay_failed", f"the log does not replay: {exc}") from exc
        return await self._insert(
            game, check_table_name(str(data.get("name") or "")), options, new_seed(), names, stored
        )


def check_seat_names(game: Game, names: list[Any]) -> list[str]:
    if not game.min_seats <= len(names) <= game.max_seats:
        raise RuleError(
            "seat_count",
            f"{game.title} seats {game.min_seats}–{game.max_seats} players, not {len(names)}",
        )
    out = []
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise RuleError("seat_name", f"seat {i} needs a name")
        if len(name.strip()) > MAX_SEAT_NAME:
            raise RuleError("seat_name", f"seat names are at most {MAX_SEAT_NAME} characters")
        out.append(name.strip())
    return out


def check_table_name(name: str) -> str:
    if len(name) > MAX_TABLE_NAME:
        raise RuleError("table_name", f"a table name is at most {MAX_TABLE_NAME} characters")
    return name.strip()


def prompt_json(session: TableSession, prompt: Prompt) -> dict[str, Any]:
    """A prompt with each choice as a ready-to-send command.

    The ``command_id`` is derived from the table, the seq and the command itself, so
    sending the same choice twice from the same state is one command, not two."""

    def command(choice_type: str, args: dict[str, Any]) -> dict[str, Any]:
        body = json.dumps([session.id, session.seq, prompt.seat, choice_type, args], sort_keys=True)
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


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise RuleError("bad_export", f"the export's {key!r} must be a list")
    return value


def _imported_event(raw: Any, expected_seq: int) -> StoredEvent:
    if not isinstance(raw, dict):
        raise RuleError("bad_export", f"event {expected_seq} is not an object")
    if raw.get("seq") != expected_seq:
        raise RuleError(
            "bad_export", f"events must run 1, 2, 3… without gaps; found {raw.get('seq')!r} at {expected_seq}"
        )
    if not isinstance(raw.get("type"), str) or not isinstance(raw.get("data"), dict):
        raise RuleError("bad_export", f"event {expected_seq} needs a type and a data object")
    try:
        at = datetime.fromisoformat(raw["at"]) if raw.get("at") else datetime.now(UTC)
    except (TypeError, ValueError) as exc:
        raise RuleError("bad_export", f"event {expected_seq} has a bad time {raw.get('at')!r}") from exc
    version = raw.get("v", 1)
    if not isinstance(version, int):
        raise RuleError("bad_export", f"event {expected_seq} has a bad version")
    command_id = raw.get("command_id")
    return StoredEvent(
        expected_seq,
        Event(raw["type"], raw["data"], version),
        str(raw.get("actor") or "system")[:64],
        command_id if isinstance(command_id, str) else None,
        at if at.tzinfo else at.replace(tzinfo=UTC),
    )
