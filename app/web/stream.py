"""The HTML side of the table websocket: after each commit a viewer receives only the
fragments of its own view whose HTML changed (hx-swap-oob) and the new log lines."""

from __future__ import annotations

from typing import Any

from app.kernel.types import Viewer
from app.live.hub import Hub
from app.live.session import TableSession
from app.store import StoredEvent
from app.web import fragments


class HtmlStream:
    def __init__(self, app: Any, hub: Hub, session: TableSession, viewer: Viewer) -> None:
        self.env = app.state.templates
        self.hub, self.session, self.viewer = hub, session, viewer
        self.sent: dict[str, str] = {}
        """Element id -> its frame as last sent (its HTML with each part as a mark)."""

    def _changed(self) -> list[str]:
        """Each fragment whose frame changed, whole; otherwise the same, part by part."""
        ctx = fragments.context(self.hub, self.session, self.viewer)
        shell, board = fragments.all_fragments(self.env, self.session, ctx)
        out: list[str] = []
        for key, html in (shell | board).items():
            self._diff(key, html, out)
        return out

    def _diff(self, key: str, html: str, out: list[str]) -> None:
        frame, parts = fragments.split_parts(html)
        if self.sent.get(key) != frame:
            out.append(fragments.unmarked(html))
            self._remember(key, frame, parts)
            return
        for part_id, part in parts.items():
            self._diff(part_id, part, out)

    def _remember(self, key: str, frame: str, parts: dict[str, str]) -> None:
        self.sent[key] = frame
        for part_id, part in parts.items():
            self._remember(part_id, *fragments.split_parts(part))

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
            self._changed()
            return [self.sent["seats"]] if "seats" in self.sent else []  # no parts: frame == HTML
        return self._frames(events)

    def update(self, events: list[StoredEvent]) -> list[str]:
        return self._frames(events)

    def _frames(self, events: list[StoredEvent]) -> list[str]:
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
