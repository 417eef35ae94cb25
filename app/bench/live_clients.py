"""The client side of ``umbra bench live``: the tables it plays and the websockets it
watches them through (see ``app.bench.live``)."""

from __future__ import annotations

import asyncio
import bisect
import html
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from app.kernel.types import GM_SEAT

SEQ_MARKER = re.compile(r'id="seq"[^>]*data-seq="(\d+)"')
"""The seq marker of the shared table page (``templates/table.html``), in every fragment frame."""
PROMPTS_PART = re.compile(r'<section id="prompts"[^>]*>(.*?)</section>', re.DOTALL)
"""A seat page's prompts fragment (``templates/table.html``), sent whole when its choices change."""
PROMPT_BLOCK = re.compile(
    r'<div class="prompt( prompt-optional)?"(?: data-step="[^"]*")?>(.*?)(?=<div class="prompt[ "]|$)',
    re.DOTALL,
)
PROMPT_TITLE = re.compile(r"<h3>(.*?)</h3>", re.DOTALL)
CHOICE_BUTTON = re.compile(
    r'<button type="button" class="choice"[^>]*?hx-vals="([^"]*)"[^>]*>\s*<span class="label">(.*?)</span>'
    r'(?:<small class="detail">(.*?)</small>)?',
    re.DOTALL,
)
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
    pushed: dict[str, Any] | None = None
    """The newest prompts this socket pushed (issue 10: a move needs no ``GET /view``), with
    ``seq``, the seq they are the prompts of: a JSON frame's ``prompts``, ``waiting_for`` and
    ``outcome``; for an html seat page, the choices of its prompts fragment (``prompts``
    only, each button's command less the ``seq`` and ``command_id`` a click adds), at the seq
    of the newest frame (the fragment is sent only when it changes)."""
    page_prompts: list[dict[str, Any]] | None = None
    """An html seat page's prompts fragment as it holds it now (None until one came)."""
    frame_came: asyncio.Event = field(default_factory=asyncio.Event)
    """Set (and replaced) at each frame, for a wait on ``pushed``."""
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
                came, self.frame_came = self.frame_came, asyncio.Event()
                came.set()
                if seq is None:
                    continue
                self.arrivals.append(now)
                self.sizes.append(len(text.encode()))
                self.markers.append(seq)
                self.last = max(self.last, seq)
            self.closed = f"closed by the server ({self.ws.close_code})"
        except ConnectionClosed as exc:
            self.closed = f"connection lost: {exc}"

    def _html(self, text: str) -> int | None:
        found = SEQ_MARKER.search(text)
        if self.html and not self.is_spectator:
            part = PROMPTS_PART.search(text)
            if part is not None:
                self.page_prompts = page_prompts(part.group(1))
            if found is not None and self.page_prompts is not None:
                self.pushed = {"seq": int(found.group(1)), "prompts": self.page_prompts}
        return int(found.group(1)) if found else None

    def _json(self, text: str) -> int | None:
        message = json.loads(text)
        kind = message.get("type")
        if "prompts" in message and kind in ("hello", "events"):
            self.pushed = {k: message[k] for k in ("seq", "prompts", "waiting_for", "outcome")}
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

    async def pushed_at(self, seq: int, budget_s: float) -> dict[str, Any] | None:
        """``pushed`` once it is the prompts of ``seq`` or later: the frame of a commit comes
        a moment after the POST's answer. None if it did not come within ``budget_s``."""
        deadline = CLOCK() + budget_s
        while self.pushed is None or self.pushed["seq"] < seq:
            if self.fragments and self.last >= seq:
                return None  # the page is at ``seq`` but was never sent its prompts fragment
            left = deadline - CLOCK()
            if left <= 0 or self.closed:
                return None
            try:
                await asyncio.wait_for(self.frame_came.wait(), left)
            except TimeoutError:
                return None
        return self.pushed

    def arrival_of(self, seq: int) -> float | None:
        """When the first frame at or past ``seq`` arrived (the seqs only grow)."""
        index = bisect.bisect_left(self.markers, seq)
        return self.arrivals[index] if index < len(self.markers) else None

    def bytes_between(self, start: float, end: float) -> list[int]:
        return [s for a, s in zip(self.arrivals, self.sizes, strict=True) if start <= a <= end]


def page_prompts(part: str) -> list[dict[str, Any]]:
    """A seat page's prompts fragment (its inner HTML) read back as the prompts it shows, in
    ``GET /view``'s shape less what the page does not show: each prompt's ``seat`` (from its
    commands), ``title``, ``required`` and its choice buttons (``label``, ``detail`` and the
    ``command`` the button sends). A seat setting shown as a switch is not a choice here."""
    prompts = []
    for optional, body in PROMPT_BLOCK.findall(part):
        choices = []
        for vals, label, detail in CHOICE_BUTTON.findall(body):
            command = json.loads(json.loads(html.unescape(vals))["command"])
            text = {"label": html.unescape(label), "detail": html.unescape(detail)}
            choices.append({**text, "command": command})
        if not choices:
            continue
        title = PROMPT_TITLE.search(body)
        prompts.append(
            {
                "seat": choices[0]["command"]["seat"],
                "title": html.unescape(title.group(1)) if title else "",
                "required": not optional,
                "choices": choices,
            }
        )
    return prompts


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

    def seat_watcher(self, seat: Any) -> Watcher | None:
        """The socket of ``seat`` (its own token), if it has one."""
        return next((w for w in self.watchers if w.seat == seat and w.seat is not None), None)
