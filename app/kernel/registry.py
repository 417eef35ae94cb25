"""The registry of games. Each game registers itself on its module's last line."""

from __future__ import annotations

import importlib
import pkgutil

from app.kernel.game import Game

_games: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    """Add ``game`` to the registry (idempotent for the same object)."""
    existing = _games.get(game.name)
    if existing is not None and existing is not game:
        raise ValueError(f"a different game is already registered as {game.name!r}")
    _games[game.name] = game
    return game


def unregister(name: str) -> None:
    _games.pop(name, None)


def _load_products() -> None:
    """Import every package under ``app.games`` so that each registers itself."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import app.games as games_pkg

    for module in pkgutil.iter_modules(games_pkg.__path__):
        if module.ispkg:
            importlib.import_module(f"app.games.{module.name}")


def all_games() -> dict[str, Game]:
    _load_products()
    return dict(sorted(_games.items()))


def get_game(name: str) -> Game | None:
    _load_products()
    return _games.get(name)
