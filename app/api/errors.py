"""Every error is JSON ``{"error": {"code", "message"}}`` with a status a client can act on:
401/403 token or seat, 404 unknown table, 409 stale, 413 too large, 422 malformed or
forbidden by the rules (the message names the rule)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DataError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.api.ratelimit import RateLimited
from app.http.errors import RETRY_AFTER_SECONDS, describe_validation
from app.kernel.text import UNSTORABLE
from app.kernel.types import RuleError
from app.live.errors import AuthError, NotFound
from app.store import DATABASE_ERRORS, is_outage

log = logging.getLogger(__name__)


def error_body(code: str, message: str) -> dict[str, Any]:
    # A message may quote what the client sent: keep it encodable whatever that was.
    return {"error": {"code": code, "message": UNSTORABLE.sub("\ufffd", message)}}


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(error_body(code, message), status_code=status, headers=headers)


def unavailable_response() -> JSONResponse:
    return error_response(
        503,
        "unavailable",
        "the database is not answering right now; nothing was done, so send the same request "
        "again (the same command_id is safe to retry)",
        {"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


def wants_html(request: Request) -> bool:
    """A browser page or an htmx request (not the JSON API) made this request."""
    if request.url.path.startswith(("/api/", "/ws/", "/healthz")):
        return False
    return "hx-request" in request.headers or "text/html" in request.headers.get("accept", "")


def install(app: FastAPI) -> None:
    @app.exception_handler(RuleError)
    async def rule_error(_: Request, exc: RuleError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
        return error_response(exc.status, exc.code, exc.message, headers)

    @app.exception_handler(AuthError)
    async def auth_error(_: Request, exc: AuthError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(NotFound)
    async def not_found(_: Request, exc: NotFound) -> JSONResponse:
        return error_response(404, "not_found", str(exc))

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(422, "invalid_request", describe_validation(list(exc.errors())))

    async def unexpected(request: Request, exc: Exception) -> Response:
        """The last resort, so that even a bug answers JSON: 503 when the database is
        away (retry), else 500 (logged with its traceback)."""
        outage = is_outage(exc)
        method = request.scope.get("method", "WS")  # a websocket's scope has no method
        if outage:
            log.warning("%s %s: database unavailable (%s)", method, request.url.path, exc)
        else:
            log.error("%s %s failed", method, request.url.path, exc_info=exc)
        if isinstance(exc, DataError):
            # A value the database cannot hold slipped past the checks: refused, not a crash.
            return error_response(422, "bad_text", "the request holds a value the database cannot store")
        html = getattr(request.app.state, "html_error", None)
        if html is not None and wants_html(request):
            return html(request, outage)  # type: ignore[no-any-return]
        if outage:
            return unavailable_response()
        return error_response(500, "internal", "the server failed on this request; it has been logged")

    # The database's own errors are answered here (503 or 500) like any handled error;
    # anything else unexpected reaches the server-error layer, still answered as JSON.
    for kind in (*DATABASE_ERRORS, Exception):
        app.add_exception_handler(kind, unexpected)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(
            exc.status_code, "http_error"
        )
        if exc.status_code == 400 and "parsing the body" in str(exc.detail):
            # FastAPI's word for a body it could not decode (bad UTF-8, say): a 422 like
            # every other malformed body.
            return error_response(422, "invalid_request", "the body could not be decoded as JSON")
        return error_response(exc.status_code, code, str(exc.detail), getattr(exc, "headers", None))
