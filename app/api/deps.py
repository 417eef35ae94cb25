"""Request dependencies: the hub, and (from ``app.http.tokens``) the tokens a request carries."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from app.http.tokens import (
    COOKIE_PREFIX,
    base_url,
    bearer_token,
    cookie_name,
    cookie_tokens,
    request_tokens,
)
from app.live.hub import Hub

__all__ = [
    "COOKIE_PREFIX",
    "HubDep",
    "base_url",
    "bearer_token",
    "cookie_name",
    "cookie_tokens",
    "get_hub",
    "request_tokens",
]


def get_hub(conn: HTTPConnection) -> Hub:
    return conn.app.state.hub


HubDep = Annotated[Hub, Depends(get_hub)]
