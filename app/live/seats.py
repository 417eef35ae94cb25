"""Seats and tokens: who a request's tokens make it, an invite link taking a seat over on a
device, handing a seat to the game's bot, and the game master handing a seat to a new
player. Seat changes are platform facts, not game events: they live in the ``seats``
table (token hashes only, never tokens) and reach other processes by NOTIFY."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.kernel.game import has_bot
from app.kernel.types import GM_SEAT, SPECTATOR, RuleError, Viewer
from app.live import inputs
from app.live.auth import new_token, token_hash
from app.live.errors import AuthError, NotFound
from app.live.session import TableSession
from app.live.sessions import SessionCache
from app.store import RevokedToken, SeatRecord

MAX_REVOKED = 32
"""Revoked tokens remembered per seat (two per hand-over: the invite and the device). An
older one is still refused, as an unknown token (401) rather than with the reason."""
HANDOVER_ATTEMPTS = 5
MAX_KNOWN_VIEWERS = 256
"""Token sets remembered per table (``TableSession.viewers``): a table's seats, devices and
game master, with room to spare; past it the memory starts again."""


@dataclass(frozen=True, slots=True)
class ReissuedSeat:
    seat: int
    name: str
    invite_token: str
    revoked: int
    """How many tokens this hand-over revoked (the invite, and the device session if any)."""


def seat_of(session: TableSession, seat: int) -> SeatRecord:
    record = next((s for s in session.seats if s.seat == seat), None)
    if record is None:
        raise NotFound(f"table {session.id} has no seat {seat}")
    return record


def revoked_error(session: TableSession, digest: str) -> AuthError | None:
    """The 403 for a token the game master revoked by handing its seat over, if it is one."""
    for record in session.seats:
        for revoked in record.revoked:
            if revoked.token_hash == digest:
                what = "invite link" if revoked.kind == "invite" else "device session"
                return AuthError(
                    403,
                    "seat_reissued",
                    f"this {what} of seat {record.seat} at table {session.id} was revoked on "
                    f"{revoked.at:%Y-%m-%d at %H:%M} UTC, when the game master handed the seat to a "
                    "new player; ask the game master for the current invite link",
                )
    return None


class SeatKeeper:
    def __init__(self, cache: SessionCache) -> None:
        self.cache = cache
        self.store = cache.store

    async def viewer(
        self, table_id: str, tokens: list[str], *, required: bool = False, lenient: bool = False
    ) -> Viewer:
        """Resolve the tokens a request carries into one viewer (the union of the seats
        they hold). No token is a spectator; an unrecognised or revoked token is an error,
        unless ``lenient`` (a browser's cookie may keep tokens of seats since taken over)."""
        session = await self.cache.session(table_id)
        if not tokens:
            if required:
                raise AuthError(401, "token_missing", "this needs a seat or game-master token")
            return SPECTATOR
        key = (*tokens, required, lenient)
        known = session.viewers.get(key)
        if known is not None:
            return known
        viewer = self._resolve(session, tokens, required=required, lenient=lenient)
        if len(session.viewers) >= MAX_KNOWN_VIEWERS:
            session.viewers.clear()
        session.viewers[key] = viewer
        return viewer

    def _resolve(self, session: TableSession, tokens: list[str], *, required: bool, lenient: bool) -> Viewer:
        table_id = session.id
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
                raise revoked_error(session, digest) or AuthError(
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
        session = await self.cache.session(table_id)
        digest = token_hash(invite_token)
        seat = next((s for s in session.seats if s.token_hash == digest), None)
        if seat is None:
            raise revoked_error(session, digest) or AuthError(
                401, "token_invalid", f"that is not an invite link of table {table_id}"
            )
        device_token = new_token()
        await self.store.set_session(table_id, seat.seat, token_hash(device_token))
        await session.reread_seats()
        return seat.seat, device_token

    async def set_bot(self, table_id: str, seat: int, on: bool, viewer: Viewer) -> TableSession:
        """Hand a seat to the game's bot (``on``) or take it back: the game master's or the
        seat's own call. A seat a person has joined is theirs to hand over."""
        session = await self.cache.session(table_id)
        record = seat_of(session, seat)
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
            await self.cache.seats_changed(session)
        return session

    async def reissue(
        self, table_id: str, seat: int, viewer: Viewer, name: str | None = None
    ) -> ReissuedSeat:
        """The game master hands a seat to a new player: a new invite link for the seat, its
        old invite link and the device session that holds it revoked (a request with them
        gets 403 ``seat_reissued``; the device's live page loses the seat at once), and the
        seat renamed if ``name`` is given. The game itself does not change: a bot playing the
        seat plays on until the new player opens the link."""
        session = await self.cache.session(table_id)
        if not viewer.is_gm:
            raise AuthError(403, "gm_only", "only the game master may hand a seat to a new player")
        seat_of(session, seat)
        new_name = inputs.check_seat_name(seat, name) if name is not None else None
        invite = new_token()
        for _ in range(HANDOVER_ATTEMPTS):
            record = seat_of(session, seat)
            at = datetime.now(UTC)
            revoked = [RevokedToken(record.token_hash, "invite", at)]
            if record.session_hash is not None:
                revoked.append(RevokedToken(record.session_hash, "device", at))
            done = await self.store.reissue_seat(
                table_id,
                record,
                token_hash=token_hash(invite),
                name=new_name or record.name,
                revoked=[*record.revoked, *revoked][-MAX_REVOKED:],
            )
            if done:
                await self.cache.seats_changed(session)
                return ReissuedSeat(seat, new_name or record.name, invite, len(revoked))
            # A device opened the seat's link meanwhile (maybe on another process): re-read.
            await session.reread_seats()
        raise RuleError(
            "busy", "the seat kept changing hands while it was being handed over; try again", status=409
        )
