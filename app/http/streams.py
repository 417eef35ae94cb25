"""The websocket's frame formats. The socket (``app.api.ws``) speaks JSON by itself; another
format (the pages' HTML fragments) is added by the layer that renders it, so the API never
imports the pages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from app.kernel.types import Viewer
from app.store import StoredEvent

if TYPE_CHECKING:
    from app.live.hub import Hub
    from app.live.session import TableSession


class Stream(Protocol):
    """Turns committed events into frames for one viewer."""

    def opening(self, events: list[StoredEvent]) -> list[str]: ...

    def update(self, events: list[StoredEvent]) -> list[str]: ...

    def seat_lost(self) -> str: ...


class StreamFactory(Protocol):
    def __call__(self, app: Any, hub: Hub, session: TableSession, viewer: Viewer) -> Stream: ...


def add_stream(app: Any, name: str, factory: StreamFactory) -> None:
    """Serve ``?format=<name>`` on the table websocket with ``factory``."""
    streams: dict[str, StreamFactory] = getattr(app.state, "streams", {})
    streams[name] = factory
    app.state.streams = streams


def stream_factory(app: Any, name: str) -> StreamFactory | None:
    return getattr(app.state, "streams", {}).get(name)
