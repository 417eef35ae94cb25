"""The HTML side of the table websocket: after each commit a viewer receives only the
fragments of its own view whose HTML changed (hx-swap-oob) and the new log lines."""

from __future__ import annotations

from typing import Any

from app.kernel.types import Viewer
from app.live.hub import Hub
from app.live.session import TableSession
from app.store import StoredEvent
from app.web import fragments
from app.web.parts import Node


class HtmlStream:
    def __init__(self, app: Any, hub: Hub, session: TableSession, viewer: Viewer) -> None:
        self.env = app.state.templates
        self.hub, self.session, self.viewer = hub, session, viewer
        self.sent: dict[str, tuple[int, int]] = {}
        """Element id -> (version, frame hash) of the part this page holds: two small
        numbers per part, never its HTML (``app.web.parts``)."""

    def _nodes(self) -> dict[str, Node]:
        ctx = fragments.context(self.hub, self.session, self.viewer)
        return fragments.all_nodes(self.env, self.session, ctx)

    def _changed(self) -> list[str]:
        """Each fragment whose own HTML changed, whole; inside the others, the same, part by
        part. Decided on the renders' versions: a part whose slice of the view did not
        change is the very render this page already holds, and is not even compared."""
        out: list[str] = []
        for node in self._nodes().values():
            self._diff(node, out)
        return out

    def _diff(self, node: Node, out: list[str]) -> None:
        held = self.sent.get(node.id)
        if held is not None and held[0] == node.version:
            return
        if held is not None and held[1] == node.frame_hash:
            self.sent[node.id] = (node.version, node.frame_hash)
            for child in node.children.values():
                self._diff(child, out)
            return
        out.append(fragments.node_html(self.session, node))
        self._remember(node)

    def _remember(self, node: Node) -> None:
        sent = self.sent
        sent[node.id] = (node.version, node.frame_hash)
        for each in node.inner:
            sent[each.id] = (each.version, each.frame_hash)

    def _log(self, events: list[StoredEvent]) -> str:
        entries = fragments.log_entries(self.env, self.hub, self.session, events, self.viewer)
        if not entries:
            return ""
        return '<div hx-swap-oob="afterbegin:#log-entries">' + "".join(reversed(entries)) + "</div>"

    def opening(self, events: list[StoredEvent]) -> list[str]:
        """On (re)connect: a page that missed events may be stale in any fragment, so it
        gets every fragment and the missed log; a page rendered at the current seq is
        already up to date and gets nothing."""
        if not events:
            # The page is current, except maybe who holds which seat (seats can change
            # hands without an event): remember the rest, send the players panel.
            nodes = self._nodes()
            for node in nodes.values():
                self._remember(node)
            return [nodes["seats"].html()] if "seats" in nodes else []
        return self._frames(events)

    def update(self, events: list[StoredEvent]) -> list[str]:
        return self._frames(events)

    def _frames(self, events: list[StoredEvent]) -> list[str]:
        """The frames for ``events``, made once for every page of this viewer holding what
        this page holds (two spectators, one seat open in two tabs): their frames are a
        function of what they hold, the table at this seq and the events, so the second
        page is handed the first one's frames and what it holds after them."""
        session = self.session
        span = (events[0].seq, events[-1].seq) if events else None
        made: list[tuple[dict[str, tuple[int, int]], list[str], dict[str, tuple[int, int]]]] = (
            session.derived(("html_frames", self.viewer, span, session.seat_epoch), list)
        )
        for before, frames, after in made:
            if before == self.sent:
                self.sent = dict(after)
                return frames
        before = dict(self.sent)
        frames = self._make_frames(events)
        made.append((before, frames, dict(self.sent)))
        return frames

    def _make_frames(self, events: list[StoredEvent]) -> list[str]:
        parts = self._changed()
        log = self._log(events)
        if log:
            parts.append(log)
        return ["\n".join(parts)] if parts else []

    def seat_lost(self) -> str:
        return (
            '<div id="flash" class="flash flash-error" role="alert">This seat was opened on '
            "another device, or the game master handed it to a new player, so this page no "
            "longer controls it. Open your invite link again to take it back (after a hand-over "
            "only the new link from the game master works).</div>"
        )
