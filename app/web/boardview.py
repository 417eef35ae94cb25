"""What a page's board is drawn from: the game's ``view`` and, if the game has any, its
``page_extras`` (what pages show beyond the view: Darkest Night's event card in play).
Extras stay out of ``view`` itself, so the API's views and the recorded golden games keep
their shape; like the view, they hold only what that viewer may see."""

from __future__ import annotations

from typing import Any

from app.kernel.game import Game
from app.kernel.types import Viewer
from app.live.session import TableSession


def board_view(game: Game, state: Any, viewer: Viewer) -> dict[str, Any]:
    view = game.view(state, viewer)
    more = game.page_extras(state, viewer)
    return view | more if more else view


def page_view(session: TableSession, viewer: Viewer) -> dict[str, Any]:
    """``board_view`` of the table's current state, once per seq for all viewers the game
    says see alike (``Game.view_key``): the very same dict for each, so their pages share
    one board render found by identity, not by comparing views."""
    game, state = session.game, session.state

    def make() -> dict[str, Any]:
        view = session.view_for(viewer)
        more = game.page_extras(state, viewer)
        return view | more if more else view

    return session.derived(("page_view", game.view_key(state, viewer)), make)  # type: ignore[no-any-return]
