"""The first gate of every request: bodies capped while they are read (chunked or not),
JSON nested too deep refused before a parser recurses into it, and paths that cannot name
anything (a NUL byte) answered 404 before any route or database sees them."""

from __future__ import annotations

import json
from typing import Any

from app.api.errors import error_body

Scope = dict[str, Any]

MAX_JSON_DEPTH = 64
"""No request of ours nests deeper than a dozen levels; 64 leaves room and stays far from
the parser's recursion limit (JSON 1,000 deep is a 422, not a crash or a 400)."""


def too_deep(body: bytes) -> bool:
    """Does this JSON text nest more than ``MAX_JSON_DEPTH`` deep? Costs nothing unless it
    holds that many brackets; then one C-speed parse (whose recursion limit a hostile
    text may hit: that is "too deep" too) and an iterative walk."""
    if body.count(b"[") + body.count(b"{") <= MAX_JSON_DEPTH:
        return False
    try:
        value = json.loads(body)
    except RecursionError:
        return True
    except ValueError:
        return False  # not JSON at all: the route says so precisely
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > MAX_JSON_DEPTH:
                return True
            stack.extend((sub, depth + 1) for sub in (item.values() if isinstance(item, dict) else item))
    return False


class BodyLimit:
    """ASGI middleware: reads an HTTP body up to ``max_bytes`` (``import_bytes`` for the
    import endpoint) and hands it on whole; answers 413 beyond it, 422 for JSON nested
    more than ``MAX_JSON_DEPTH`` deep, 404 for a path holding a NUL byte."""

    def __init__(self, app: Any, max_bytes: int, import_bytes: int | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.import_bytes = import_bytes or max_bytes

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if "\x00" in scope.get("path", "") or b"%00" in scope.get("raw_path", b""):
            if scope["type"] == "http":
                await send_error(send, 404, "not_found", "no such page: a path cannot hold a NUL byte")
            else:
                await send({"type": "websocket.close", "code": 4404})
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        body = await self.read(scope, receive, send)
        if body is not None:
            await self.app(scope, replaying(body, receive), send)

    async def read(self, scope: Scope, receive: Any, send: Any) -> bytes | None:
        """The whole body of an HTTP request, or None when it was refused (answered here:
        413, 422) or the client went away."""
        limit = self.import_bytes if scope.get("path") == "/api/tables/import" else self.max_bytes
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value[:20]) > limit:
                await send_error(send, 413, "too_large", f"the body is over {limit} bytes")
                return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await send_error(send, 413, "too_large", f"the body is over {limit} bytes")
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        if (body[:1] in (b"{", b"[") or _is_json(scope)) and too_deep(body):
            await send_error(send, 422, "too_complex", f"the JSON body nests more than {MAX_JSON_DEPTH} deep")
            return None
        return body


def replaying(body: bytes, receive: Any) -> Any:
    """A ``receive`` that hands the app ``body`` whole, then waits for the disconnect."""
    delivered = False

    async def replay() -> Any:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _is_json(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            return b"json" in value.lower()
    return False


async def send_error(send: Any, status: int, code: str, message: str) -> None:
    """Answer an HTTP request from inside an ASGI middleware, in the API's error shape."""
    body = json.dumps(error_body(code, message)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
