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

_Held = tuple[dict[str, tuple[int, int]], tuple[int, ...] | None]
"""What a page holds: its ``sent`` and its ``board``."""


class HtmlStream:
    def __init__(self, app: Any, hub: Hub, session: TableSession, viewer: Viewer) -> None:
        self.env = app.state.templates
        self.hub, self.session, self.viewer = hub, session, viewer
        self.sent: dict[str, tuple[int, int]] = {}
        """Element id -> (version, frame hash) of the part this page holds: two small
        numbers per part, never its HTML (``app.web.parts``)."""
        self.board: tuple[int, ...] | None = None
        """The versions of the board fragments this page holds, each with all that is inside
        it exactly as made (what ``_diff`` leaves): a page's board diff is then a function of
        that and the new board, made once per seq for every page holding the same board."""

    def _nodes(self) -> tuple[dict[str, Node], dict[str, Node]]:
        ctx = fragments.context(self.hub, self.session, self.viewer)
        return fragments.page_nodes(self.env, self.session, ctx)

    def _changed(self) -> list[str]:
        """Each fragment whose own HTML changed, whole; inside the others, the same, part by
        part. Decided on the renders' versions: a part whose slice of the view did not
        change is the very render this page already holds, and is not even compared."""
        shell, board = self._nodes()
        out: list[str] = []
        writes: dict[str, tuple[int, int]] = {}
        for node in shell.values():
            self._diff(node, out, writes)
        out += self._board_changes(board, writes)
        self.sent.update(writes)
        return out

    def _board_changes(self, board: dict[str, Node], writes: dict[str, tuple[int, int]]) -> list[str]:
        """The board's part of ``_changed``, shared by the pages that held the same board."""
        now = tuple(node.version for node in board.values())
        diffs = fragments.renders_of(self.session).board_diffs
        made = diffs.get((self.board, now)) if self.board is not None else None
        if made is None:
            frames: list[str] = []
            board_writes: dict[str, tuple[int, int]] = {}
            for node in board.values():
                self._diff(node, frames, board_writes)
            if self.board is not None:  # a page that held no whole board holds what only it knows
                diffs[(self.board, now)] = (frames, board_writes)
        else:
            frames, board_writes = made
        writes.update(board_writes)
        self.board = now
        return frames

    def _diff(self, node: Node, out: list[str], writes: dict[str, tuple[int, int]]) -> None:
        """``node``'s changes against what this page holds, into ``out`` (frames) and
        ``writes`` (what the page holds after them); ``sent`` itself is read, not written."""
        held = self.sent.get(node.id)
        if held is not None and held[0] == node.version:
            return
        if held is not None and held[1] == node.frame_hash:
            writes[node.id] = (node.version, node.frame_hash)
            for child in node.children.values():
                self._diff(child, out, writes)
            return
        out.append(fragments.node_html(self.session, node))
        self._remember(node, writes)

    @staticmethod
    def _remember(node: Node, sent: dict[str, tuple[int, int]]) -> None:
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
            shell, board = self._nodes()
            for node in [*shell.values(), *board.values()]:
                self._remember(node, self.sent)
            self.board = tuple(node.version for node in board.values())
            return [shell["seats"].html()] if "seats" in shell else []
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
        made: list[tuple[_Held, list[str], _Held]] = session.derived(
            ("html_frames", self.viewer, span, session.seat_epoch), list
        )
        for before, frames, after in made:
            if before == (self.sent, self.board):
                self.sent, self.board = dict(after[0]), after[1]
                return frames
        before = (dict(self.sent), self.board)
        frames = self._make_frames(events)
        made.append((before, frames, (dict(self.sent), self.board)))
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
