"""Every error is JSON ``{"error": {"code", "message"}}`` with a status a client can act on:
401/403 token or seat, 404 unknown table, 409 stale, 413 too large, 422 malformed or
forbidden by the rules (the message names the rule)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.kernel.types import RuleError
from app.live.hub import AuthError, NotFound


def error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse(error_body(code, message), status_code=status)


def describe_validation(errors: list[Any]) -> str:
    """A readable one-liner from pydantic's errors: ``body.seats.0.name: Field required``."""
    parts = []
    for err in errors[:5]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        kind = err.get("type", "")
        if kind == "json_invalid":
            msg = "the body is not valid JSON"
            ctx = err.get("ctx") or {}
            if ctx.get("error"):
                msg += f" ({ctx['error']})"
            parts.append(msg)
        elif kind == "extra_forbidden":
            parts.append(f"{loc}: unknown field")
        elif kind == "missing":
            parts.append(f"{loc}: required")
        else:
            parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def install(app: FastAPI) -> None:
    @app.exception_handler(RuleError)
    async def rule_error(_: Request, exc: RuleError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(AuthError)
    async def auth_error(_: Request, exc: AuthError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(NotFound)
    async def not_found(_: Request, exc: NotFound) -> JSONResponse:
        return error_response(404, "not_found", str(exc))

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(422, "invalid_request", describe_validation(list(exc.errors())))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(
            exc.status_code, "http_error"
        )
        return error_response(exc.status_code, code, str(exc.detail))
