"""The live layer's own refusals, answered as JSON by ``app.api.errors`` and as a page or a
flash by the web routes."""

from __future__ import annotations


class AuthError(Exception):
    """A missing, forged or superseded token (401), or a seat not held or handed to someone
    else (403)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class NotFound(Exception):
    """An unknown table, seat, or a game this server does not run (404)."""
