"""The application factory."""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware

from app.api import collector, errors, health, mine, tables, ws
from app.api.encoding import GZIP_LEVEL, GZIP_MINIMUM_BYTES
from app.api.gate import Gate, Load
from app.api.lag import LoopLag
from app.api.ratelimit import RateLimit
from app.config import Settings
from app.live.hub import Hub
from app.store import EventStore
from app.web.assets import HashedStaticFiles

ROOT = Path(__file__).resolve().parents[1]


class UmbraApp(FastAPI):
    """FastAPI behind the ``Gate`` (``app.api.gate``; issue 10): a request meets the gate
    first, and ``POST /commands`` and ``GET /view`` are answered there, past the framework's
    own layers (its error and gzip middleware, routing), which cost as much CPU per move as
    the answer itself; everything else goes on to ``framework``, FastAPI as it is."""

    gate: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self.gate is None:
            await super().__call__(scope, receive, send)
            return
        scope["app"] = self  # as the framework sets it: the short way's requests read it
        await self.gate(scope, receive, send)

    async def framework(self, scope: Any, receive: Any, send: Any) -> None:
        await super().__call__(scope, receive, send)


def create_served_app() -> FastAPI:
    """``create_app`` for ``umbra serve``'s processes (uvicorn's factory): the process is the
    server's alone, so its garbage collector is tuned for serving (``app.api.collector``)."""
    return create_app(serving=True)


def create_app(settings: Settings | None = None, *, serving: bool = False) -> FastAPI:
    """Build the app. The database must already be migrated (``umbra serve`` does it).
    ``serving``: the app owns its process (``create_served_app``)."""
    settings = settings or Settings.from_env()
    for module in settings.extra_games:
        importlib.import_module(module)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(settings, EventStore(settings.database_url))
        app.state.hub = hub
        await hub.start()
        app.state.loop_lag.start()
        if serving:
            collector.settle()  # started: what is alive now lives as long as the process
        try:
            yield
        finally:
            await app.state.loop_lag.stop()
            await hub.stop()

    app = UmbraApp(
        title="Umbra",
        summary="Dark cooperative board games, played together in the browser.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.import_limit = RateLimit(settings.imports_per_minute, 60.0)
    app.state.load = Load(settings.max_in_flight)
    app.state.loop_lag = LoopLag()
    # In front of everything: one layer for the browser protections, the body limits and the
    # overload valve, and the short way of the two requests of every move (``UmbraApp``).
    app.gate = Gate(
        app.framework,
        load=app.state.load,
        max_bytes=settings.max_body_bytes,
        import_bytes=settings.max_import_bytes,
        public_url=settings.public_url,
    )
    # Pages, JSON and assets above a kilobyte leave gzipped (issue 11; a DN table page and its
    # assets weigh a third as much; the short way gzips its own). Websocket frames untouched.
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_BYTES, compresslevel=GZIP_LEVEL)
    errors.install(app)
    app.include_router(health.router)
    app.include_router(tables.router)
    app.include_router(mine.router)
    app.include_router(ws.router)
    from app.web import routes as web_routes
    from app.web import rules as web_rules
    from app.web import seats as web_seats
    from app.web import tables as web_tables

    web_routes.install(app)
    app.include_router(web_tables.router)
    app.include_router(web_seats.router)
    app.include_router(web_rules.router)
    app.include_router(web_rules.api)
    app.mount("/static", HashedStaticFiles(directory=ROOT / "static"), name="static")
    return app
