"""``WS /ws/tables/{id}?after=N``: first everything after N, then each commit as it
happens, each event exactly once and in order. JSON frames for API clients; HTML
fragments (hx-swap-oob) when the page asks with ``format=html``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.http.streams import Stream, stream_factory
from app.http.tokens import bearer_token, cookie_tokens
from app.kernel.types import Viewer
from app.live import wire
from app.live.errors import AuthError, NotFound
from app.live.hub import Hub
from app.live.session import TableSession
from app.store import StoredEvent, is_outage

router = APIRouter()
log = logging.getLogger(__name__)

CLOSE_UNKNOWN_TABLE = 4404
CLOSE_BAD_TOKEN = 4401
CLOSE_SEAT_MOVED = 4409
CLOSE_TRY_AGAIN_LATER = 1013
"""RFC 6455's "try again later": the database is not answering. Browsers' sockets (htmx's
ws extension) reconnect after it, as after a restart, and resume from their last seq."""


class JsonStream:
    def __init__(self, hub: Hub, session: TableSession, viewer: Viewer) -> None:
        self.hub, self.session, self.viewer = hub, session, viewer

    def opening(self, events: list[StoredEvent]) -> list[str]:
        hello = {
            "type": "hello",
            "table_id": self.session.id,
            "seq": self.session.seq,
            "viewer": {"role": self.viewer.role, "seats": sorted(self.viewer.seats, key=str)},
        } | wire.seat_state(self.session, self.viewer)
        return [json.dumps(hello), *self.update(events)]

    def update(self, events: list[StoredEvent]) -> list[str]:
        """The events' frame, encoded once per seq for every socket of an equal viewer that
        is sent the same events (two API spectators): the same bytes, made once."""
        if not events:
            return []
        session, viewer = self.session, self.viewer
        key = ("json_frame", viewer, events[0].seq, events[-1].seq)
        return [session.derived(key, lambda: json.dumps(wire.events_frame(session, events, viewer)))]

    def seat_lost(self) -> str:
        return json.dumps(
            {
                "type": "error",
                "error": {
                    "code": "seat_moved",
                    "message": "this seat was opened on another device, or handed to a new player "
                    "by the game master",
                },
            }
        )


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    hub: Hub = websocket.app.state.hub
    await websocket.accept()
    query = websocket.query_params
    query_token = bearer_token(websocket) or query.get("token")
    tokens = [query_token] if query_token else cookie_tokens(websocket, table_id)
    try:
        session = await hub.session(table_id)
        viewer = await hub.viewer(table_id, tokens, lenient=not query_token)
    except NotFound as exc:
        await _close_with(websocket, CLOSE_UNKNOWN_TABLE, "not_found", str(exc))
        return
    except AuthError as exc:
        await _close_with(websocket, CLOSE_BAD_TOKEN, exc.code, exc.message)
        return
    except Exception as exc:
        if not is_outage(exc):
            raise
        await _close_for_outage(websocket, table_id, exc)
        return
    try:
        after = max(0, min(int(query.get("after", "0")), session.seq))
    except ValueError:
        await _close_with(websocket, 4422, "invalid_request", "after must be a whole number")
        return
    stream = make_stream(websocket, hub, session, viewer)
    receiver = asyncio.create_task(_drain(websocket))
    wakeup = _Wakeup(receiver)
    session.subscribers += 1  # a watched table stays in memory
    try:
        last = session.seq
        for frame in stream.opening(await session.events_between(after, last)):
            await websocket.send_text(frame)
        while True:
            epoch = session.seat_epoch
            while session.seq <= last and session.seat_epoch == epoch and not receiver.done():
                await wakeup.next(session)
            if receiver.done():
                return
            if session.seat_epoch != epoch and viewer.role == "seat":
                try:
                    still = await hub.viewer(table_id, tokens, lenient=not query_token)
                except AuthError:
                    still = None
                if still is None or still.seats != viewer.seats:
                    await websocket.send_text(stream.seat_lost())
                    await websocket.close(CLOSE_SEAT_MOVED)
                    return
            upto = session.seq
            events = await session.events_between(last, upto)
            last = upto
            for frame in stream.update(events):
                await websocket.send_text(frame)
    except (WebSocketDisconnect, RuntimeError):
        return
    except Exception as exc:
        if not is_outage(exc):
            raise
        await _close_for_outage(websocket, table_id, exc)
    finally:
        session.subscribers -= 1
        session.last_used = time.monotonic()
        receiver.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await receiver


def make_stream(websocket: WebSocket, hub: Hub, session: TableSession, viewer: Viewer) -> Stream:
    """JSON frames, or the format the page asks for (``format=html``: added by the pages,
    see ``app.http.streams``)."""
    fmt = websocket.query_params.get("format", "json")
    factory = stream_factory(websocket.app, fmt) if fmt != "json" else None
    if factory is not None:
        return factory(websocket.app, hub, session, viewer)
    return JsonStream(hub, session, viewer)


class _Wakeup:
    """A socket's wait for the table's next publish or its client's going away: one future
    per wait, resolved by the session (``TableSession.wakeups``) or by the end of the
    ``receiver``, instead of a task and an ``asyncio.wait`` per commit per socket."""

    def __init__(self, receiver: asyncio.Task[None]) -> None:
        self.future: asyncio.Future[None] | None = None
        receiver.add_done_callback(self._wake)

    def _wake(self, _: object = None) -> None:
        if self.future is not None and not self.future.done():
            self.future.set_result(None)

    async def next(self, session: TableSession) -> None:
        self.future = asyncio.get_running_loop().create_future()
        session.wakeups.add(self.future)
        try:
            await self.future
        finally:
            session.wakeups.discard(self.future)
            self.future = None


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, so a disconnect is noticed at once."""
    while True:
        message: Any = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return


async def _close_with(websocket: WebSocket, code: int, error: str, message: str) -> None:
    await websocket.send_text(json.dumps({"type": "error", "error": {"code": error, "message": message}}))
    await websocket.close(code)


async def _close_for_outage(websocket: WebSocket, table_id: str, exc: Exception) -> None:
    """The database went away while the socket was opened or read what it missed: say so,
    close with 1013 (the client comes back on its own) and log one line, no traceback."""
    log.warning("WS /ws/tables/%s: database unavailable (%s)", table_id, exc)
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await _close_with(
            websocket,
            CLOSE_TRY_AGAIN_LATER,
            "unavailable",
            "the database is not answering right now; reconnect in a moment",
        )
