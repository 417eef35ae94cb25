"""The tokens a request carries: a bearer header or ``token`` query parameter (API clients),
else the ``umbra_<table>`` cookie a browser got from its invite links."""

from __future__ import annotations

from starlette.requests import HTTPConnection, Request

COOKIE_PREFIX = "umbra_"


def cookie_name(table_id: str) -> str:
    return COOKIE_PREFIX + table_id


def cookie_tokens(conn: HTTPConnection, table_id: str) -> list[str]:
    raw = conn.cookies.get(cookie_name(table_id), "")
    return [t for t in raw.split(".") if t]


def bearer_token(conn: HTTPConnection) -> str | None:
    header = conn.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


def request_tokens(conn: HTTPConnection, table_id: str) -> list[str]:
    """An API client's bearer token, else a ``token`` query parameter, else the cookie
    this browser got from its invite links."""
    token = bearer_token(conn) or conn.query_params.get("token")
    if token:
        return [token]
    return cookie_tokens(conn, table_id)


def base_url(request: Request) -> str:
    configured = request.app.state.settings.public_url
    return configured or str(request.base_url).rstrip("/")
