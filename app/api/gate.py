"""The one middleware in front of the app (issue 10): the browser protections (CSRF guard,
security headers: ``app.api.security``), the body limits (``app.api.limits``) and the
overload valve, in a single ASGI layer, so a request pays for one wrapper, not one each;
then the two requests of every move take the short way (``app.api.fastpath``).

Overload: beyond ``max_in_flight`` HTTP requests in progress at once, a new request is
answered at once with 503 ``overloaded`` and ``Retry-After`` (before its body is even read),
never left to time out or dropped: the connection stays open for the retry, and a retried
command is safe (its ``command_id``). ``/healthz`` and ``/static`` are never turned away.
Websockets are not counted: a viewer's socket costs nothing while the table is quiet.
"""

from __future__ import annotations

import json
from typing import Any

from app.api import fastpath
from app.api.errors import error_body
from app.api.limits import BodyLimit, replaying, send_error
from app.api.security import BrowserProtections, security_headers

Scope = dict[str, Any]

OVERLOAD_RETRY_AFTER_SECONDS = 1
UNCOUNTED_PREFIXES = ("/healthz", "/static/")


class Load:
    """The HTTP requests in progress, and how many were turned away (``/healthz``)."""

    def __init__(self, max_in_flight: int) -> None:
        self.max_in_flight = max_in_flight
        self.in_flight = 0
        self.turned_away = 0

    def figures(self) -> dict[str, int]:
        return {
            "requests_in_flight": self.in_flight,
            "max_requests_in_flight": self.max_in_flight,
            "requests_turned_away": self.turned_away,
        }


class Gate:
    def __init__(
        self,
        app: Any,
        *,
        load: Load,
        max_bytes: int,
        import_bytes: int | None = None,
        public_url: str = "",
    ) -> None:
        self.app = app
        self.guard = BrowserProtections(public_url)
        self.limits = BodyLimit(app, max_bytes, import_bytes)
        self.load = load

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "websocket":
            if self.guard.foreign_socket(scope):
                await receive()  # the websocket.connect message
                await send({"type": "websocket.close", "code": 1008, "reason": "cross_site"})
            elif _nul_path(scope):
                await send({"type": "websocket.close", "code": 4404})
            else:
                await self.app(scope, receive, send)
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        extra = security_headers(path)

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in extra if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        if self.guard.cross_site(scope):
            await send_error(
                send_with_headers,
                403,
                "cross_site",
                "this request came from another site; open the table's page on this server "
                "and act from there",
            )
            return
        if _nul_path(scope):
            await send_error(
                send_with_headers, 404, "not_found", "no such page: a path cannot hold a NUL byte"
            )
            return
        load = self.load
        counted = not path.startswith(UNCOUNTED_PREFIXES)
        if counted and load.in_flight >= load.max_in_flight:
            load.turned_away += 1
            await send_overloaded(send_with_headers, load.max_in_flight)
            return
        if counted:
            load.in_flight += 1
        try:
            body = await self.limits.read(scope, receive, send_with_headers)
            if body is not None and not await fastpath.answer(scope, body, send_with_headers):
                await self.app(scope, replaying(body, receive), send_with_headers)
        finally:
            if counted:
                load.in_flight -= 1


def _nul_path(scope: Scope) -> bool:
    return "\x00" in scope.get("path", "") or b"%00" in scope.get("raw_path", b"")


async def send_overloaded(send: Any, limit: int) -> None:
    body = json.dumps(
        error_body(
            "overloaded",
            f"the server is busy ({limit} requests in progress); nothing was done, so send the same "
            f"request again after {OVERLOAD_RETRY_AFTER_SECONDS} s (the same command_id is safe to retry)",
        )
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(OVERLOAD_RETRY_AFTER_SECONDS).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
