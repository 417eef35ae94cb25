"""The client side of ``umbra bench live``: the tables it plays and the websockets it
watches them through (see ``app.bench.live``)."""

from __future__ import annotations

import asyncio
import bisect
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from app.kernel.types import GM_SEAT

SEQ_MARKER = re.compile(r'id="seq"[^>]*data-seq="(\d+)"')
"""The seq marker of the shared table page (``templates/table.html``), in every fragment frame."""
CLOCK = time.perf_counter


@dataclass
class Watcher:
    """One websocket: a seat's (JSON frames, its token) or a spectator's (HTML fragments).
    Records when each frame arrived, its size and the seq it brings the viewer to."""

    table: LiveTable
    seat: Any
    """The seat whose token it uses; None for a spectator."""
    html: bool = False
    """A seat's socket asking for the seat page's html fragments (``--seat-format html``)."""
    arrivals: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    markers: list[int] = field(default_factory=list)
    """The seq each frame brought the viewer to (frames without one are not recorded)."""
    order: list[int] = field(default_factory=list)
    """JSON: every event seq in the order received."""
    contents: dict[int, tuple[str, Any]] = field(default_factory=dict)
    bad_frames: int = 0
    hello_seq: int | None = None
    last: int = 0
    closed: str | None = None
    ws: Any = None
    task: asyncio.Task[None] | None = None

    @property
    def is_spectator(self) -> bool:
        return self.seat is None

    @property
    def fragments(self) -> bool:
        """It receives html fragments (a spectator, or a seat with ``html``), not JSON events."""
        return self.seat is None or self.html

    async def listen(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                now = CLOCK()
                text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
                seq = self._html(text) if self.fragments else self._json(text)
                if seq is None:
                    continue
                self.arrivals.append(now)
                self.sizes.append(len(text.encode()))
                self.markers.append(seq)
                self.last = max(self.last, seq)
            self.closed = f"closed by the server ({self.ws.close_code})"
        except ConnectionClosed as exc:
            self.closed = f"connection lost: {exc}"

    @staticmethod
    def _html(text: str) -> int | None:
        found = SEQ_MARKER.search(text)
        return int(found.group(1)) if found else None

    def _json(self, text: str) -> int | None:
        message = json.loads(text)
        kind = message.get("type")
        if kind == "hello" and self.hello_seq is None:
            self.hello_seq = message["seq"]
            return None
        events = message.get("events")
        if kind != "events" or not events or events[-1]["seq"] != message["seq"]:
            self.bad_frames += 1
            return None
        for event in events:
            self.order.append(event["seq"])
            self.contents.setdefault(event["seq"], (event["type"], event["data"]))
        return int(message["seq"])

    def arrival_of(self, seq: int) -> float | None:
        """When the first frame at or past ``seq`` arrived (the seqs only grow)."""
        index = bisect.bisect_left(self.markers, seq)
        return self.arrivals[index] if index < len(self.markers) else None

    def bytes_between(self, start: float, end: float) -> list[int]:
        return [s for a, s in zip(self.arrivals, self.sizes, strict=True) if start <= a <= end]


@dataclass
class LiveTable:
    index: int
    id: str
    seed: str
    tokens: list[str]
    gm_token: str
    seq: int = 0
    """The newest seq this client knows of (from the server's answers)."""
    start_seq: int = 0
    """Where the table's log was when its websockets connected."""
    final_seq: int = 0
    seat: Any = 0
    """The seat the table waited on at the last look."""
    waiting: list[Any] = field(default_factory=list)
    """Every seat the table waited on at the last look or view (``waiting_for``)."""
    seat_clients: dict[Any, Any] = field(default_factory=dict)
    """Per seat, its own HTTP client (its own connection), made when the table first waits
    on several seats at once: each seat's commands go out as a separate player's would."""
    state: Any = None
    """The bot's replica of the game state, at ``replica_seq``."""
    replica_seq: int = 0
    commands: int = 0
    watchers: list[Watcher] = field(default_factory=list)
    expected: dict[int, tuple[Any, str, Any]] = field(default_factory=dict)
    """Per seq: (the seat that sent the command, the event's type and data as the POST's
    response showed them to that seat)."""
    resyncs: int = 0
    finished: bool = False
    page_bytes: dict[str, int] = field(default_factory=dict)

    def token_for(self, seat: Any) -> str:
        return self.gm_token if seat == GM_SEAT else self.tokens[seat]
