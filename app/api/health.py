"""``GET /healthz``: the process is up and its database answers (for the proxy and Docker)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from app.api.deps import HubDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz(hub: HubDep) -> Any:
    try:
        async with hub.store.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    except Exception as exc:  # the database is unreachable: say so, with a 503
        return JSONResponse({"status": "down", "reason": type(exc).__name__}, status_code=503)
    return {"status": "ok", "tables_loaded": len(hub.sessions)}
