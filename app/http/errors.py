"""Error wording shared by the JSON API and the pages."""

from __future__ import annotations

from typing import Any

RETRY_AFTER_SECONDS = 2
"""What a client is told to wait when the database is away (PostgreSQL restarts in ~1 s)."""


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
