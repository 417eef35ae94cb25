"""``GET /healthz``: the process is up and its database answers (for the proxy and Docker),
with its memory figures: tables in memory, evicted, watched, RSS and open files."""

from __future__ import annotations

import os
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text

from app.api.deps import HubDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz(hub: HubDep, request: Request, window: float = 60.0) -> Any:
    """Also the load: HTTP requests in progress and turned away (``app.api.gate``), and
    the event loop's lag over the last ``window`` seconds (``app.api.lag``)."""
    try:
        async with hub.store.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    except Exception as exc:  # the database is unreachable: say so, with a 503
        return JSONResponse({"status": "down", "reason": type(exc).__name__}, status_code=503)
    state = request.app.state
    return {
        "status": "ok",
        **hub.health(),
        **process_figures(),
        **state.load.figures(),
        "loop_lag_ms": state.loop_lag.figures(max(0.1, min(window, 600.0))),
        "pid": os.getpid(),
    }


def process_figures() -> dict[str, Any]:
    """This process's resident memory and open files (Linux /proc; absent elsewhere)."""
    out: dict[str, Any] = {}
    try:
        with open("/proc/self/statm") as statm:
            out["rss_bytes"] = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        out["open_files"] = len(os.listdir("/proc/self/fd"))
    except OSError:
        pass
    return out
