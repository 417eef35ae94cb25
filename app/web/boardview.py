"""What a page's board is drawn from: the game's ``view`` and, if the game has any, its
``page_extras`` (what pages show beyond the view: Darkest Night's event card in play).
Extras stay out of ``view`` itself, so the API's views and the recorded golden games keep
their shape; like the view, they hold only what that viewer may see."""

from __future__ import annotations

from typing import Any

from app.kernel.game import Game
from app.kernel.types import Viewer


def board_view(game: Game, state: Any, viewer: Viewer) -> dict[str, Any]:
    view = game.view(state, viewer)
    more = game.page_extras(state, viewer)
    return view | more if more else view
