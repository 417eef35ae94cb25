"""The registry of games.

A game registers itself (``register(GAME)`` on its module's last line) when its module is
imported. The kernel never imports a game: the installed distributions name the code that
imports them under the entry-point group ``umbra.games`` (Umbra's own ``pyproject.toml``
points it at its games package's ``discover``), and the registry loads that group once, the first
time anyone asks for a game. Tests and benches add games of their own by importing their
modules (``UMBRA_EXTRA_GAMES``); those register the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points

from app.kernel.game import Game

ENTRY_POINT_GROUP = "umbra.games"

_games: dict[str, Game] = {}
_discovered = False


class NoGamesInstalled(RuntimeError):
    """No distribution declares the ``umbra.games`` entry point: the package's metadata is
    missing or stale (installed before the entry point was added). Reinstall it."""


def register(game: Game) -> Game:
    """Add ``game`` to the registry (idempotent for the same object)."""
    existing = _games.get(game.name)
    if existing is not None and existing is not game:
        raise ValueError(f"a different game is already registered as {game.name!r}")
    _games[game.name] = game
    return game


def unregister(name: str) -> None:
    _games.pop(name, None)


def discover() -> None:
    """Load every ``umbra.games`` entry point once: each is a module (imported, its games
    register themselves) or a callable (called, it imports them)."""
    global _discovered
    if _discovered:
        return
    found = entry_points(group=ENTRY_POINT_GROUP)
    if not found:
        raise NoGamesInstalled(
            f"no installed package declares the {ENTRY_POINT_GROUP!r} entry point, so no game can be "
            "found: install umbra (make install, or pip install -e .) so its metadata is current"
        )
    _discovered = True  # first, so a game that asks the registry while it loads does not recurse
    try:
        for point in sorted(found, key=lambda p: p.name):
            loaded: object = point.load()
            if callable(loaded):
                hook: Callable[[], object] = loaded
                hook()
    except BaseException:
        _discovered = False  # a broken game fails every ask, not only the first
        raise


def all_games() -> dict[str, Game]:
    discover()
    return dict(sorted(_games.items()))


def get_game(name: str) -> Game | None:
    discover()
    return _games.get(name)
