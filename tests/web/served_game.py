"""A real app on SQLite that serves one test game besides the usual ones, registered only
while the test runs: the test games' modules register themselves when imported, and other
tests must see only the games they expect."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fastapi.testclient import TestClient

from app.kernel.game import Game
from app.kernel.registry import register, unregister
from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import TEST_GAMES, make_settings


@contextmanager
def serving(sqlite_url: str, game: Game, module: str) -> Iterator[TestClient]:
    """A client of an app whose settings name ``module`` (the one defining ``game``) too."""
    upgrade(sqlite_url)
    settings = make_settings(sqlite_url, extra_games=(*TEST_GAMES, module))
    try:
        app = create_app(settings)  # imports the module, which registers the game...
        register(game)  # ...unless an earlier import did and a test unregistered it
        with TestClient(app) as client:
            yield client
    finally:
        unregister(game.name)
