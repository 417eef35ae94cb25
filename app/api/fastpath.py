"""The two requests of every move, answered without the framework's routing and dependency
machinery (issue 10): ``POST /api/tables/{id}/commands`` with a well-formed JSON command,
and ``GET /api/tables/{id}/view``. Matching a path against every route and solving each
route's dependencies cost as much CPU as the store's whole append.

Only the happy shape is taken here: a command body that is not JSON, not an object, or
not a valid ``CommandIn`` goes on to the FastAPI route, which answers it (422 and its
precise message) exactly as before. What the answer says is the routes' own code
(``app.api.tables``); an error raised on the way is answered by the app's exception
handlers, looked up as Starlette does (by the exception's class, most specific first).
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response

from app.api import tables
from app.api.models import CommandIn

Scope = dict[str, Any]

COMMANDS = re.compile(r"^/api/tables/([^/]+)/commands$")
VIEW = re.compile(r"^/api/tables/([^/]+)/view$")


async def answer(scope: Scope, body: bytes, send: Any) -> bool:
    """Answer the request if it is one of the two (and well-formed); False: not taken."""
    method, path = scope.get("method"), scope.get("path", "")
    if method == "POST":
        found = COMMANDS.match(path)
        if found is None or not _json_body(scope):
            return False
        try:
            data = json.loads(body)
            command = CommandIn.model_validate(data) if isinstance(data, dict) else None
        except (ValueError, ValidationError):
            return False
        if command is None:
            return False
        table_id = found.group(1)

        async def respond(request: Request) -> Response:
            return await tables.command_response(request.app.state.hub, request, table_id, command)

    elif method == "GET":
        found = VIEW.match(path)
        if found is None:
            return False
        table_id = found.group(1)

        async def respond(request: Request) -> Response:
            return await tables.view_response(request.app.state.hub, request, table_id)

    else:
        return False
    request = Request(scope)
    try:
        response = await respond(request)
    except Exception as exc:
        response = await handled(request, exc)
    await response(scope, _nothing_more, send)
    return True


async def handled(request: Request, exc: Exception) -> Response:
    """The app's own answer to ``exc`` (its exception handlers); re-raised if it has none."""
    handlers = request.app.exception_handlers
    for kind in type(exc).__mro__:
        handler = handlers.get(kind)
        if handler is not None:
            return await handler(request, exc)  # type: ignore[no-any-return]
    raise exc


def _json_body(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            return value.split(b";", 1)[0].strip().lower() == b"application/json"
    return False


async def _nothing_more() -> dict[str, Any]:
    return {"type": "http.disconnect"}
