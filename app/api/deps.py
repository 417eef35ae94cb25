"""Request dependencies: the hub. (The tokens a request carries are read by ``app.http.tokens``.)"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from app.live.hub import Hub


async def get_hub(conn: HTTPConnection) -> Hub:
    """Async, so FastAPI calls it on the event loop (a plain function would be run in its
    thread pool: a hop per request for one attribute read)."""
    return conn.app.state.hub


HubDep = Annotated[Hub, Depends(get_hub)]
