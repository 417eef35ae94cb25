"""Static assets under hashed URLs (issue 11): ``static_url("umbra.js")`` is
``/static/umbra.js?v=<hash of its content>``, and a request that names the current hash is
answered ``Cache-Control: public, max-age=31536000, immutable`` — a browser keeps it a year
without asking again, and a changed file gets a new URL, so nobody runs yesterday's script.
A plain URL (or an old hash) gets a short cache: it may change under the same name."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
HASH_LENGTH = 12
IMMUTABLE = "public, max-age=31536000, immutable"
SHORT_CACHE = "public, max-age=60"
"""An unhashed URL: a minute, so a deployed change reaches every browser soon."""


@lru_cache(maxsize=256)
def content_hash(path: str) -> str | None:
    """The hash of ``static/<path>`` (read once per process: assets change only with a
    deploy, which restarts it), or None for a file that is not there or lies outside."""
    file = (STATIC / path).resolve()
    if not file.is_relative_to(STATIC.resolve()) or not file.is_file():
        return None
    return hashlib.sha256(file.read_bytes()).hexdigest()[:HASH_LENGTH]


def static_url(path: str) -> str:
    """The URL of ``static/<path>`` with its content hash, for the templates."""
    digest = content_hash(path)
    return f"/static/{path}?v={digest}" if digest else f"/static/{path}"


class HashedStaticFiles(StaticFiles):
    """``/static``: a file asked for under its current hash is cached for good."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            asked = _query_value(scope, "v")
            current = content_hash(path)
            fresh = asked is not None and current is not None and asked == current
            response.headers["Cache-Control"] = IMMUTABLE if fresh else SHORT_CACHE
        return response


def _query_value(scope: Scope, name: str) -> str | None:
    query: Any = scope.get("query_string", b"")
    for pair in bytes(query).decode("latin-1").split("&"):
        key, _, value = pair.partition("=")
        if key == name:
            return value
    return None
