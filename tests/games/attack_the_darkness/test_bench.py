"""The engine benchmark plays seeded games to their end, the same game for the same seed,
and ``umbra bench engine attack_the_darkness`` finds the game's own bench module."""

from __future__ import annotations

from app.bench.engine import _bench_runner
from app.games.attack_the_darkness.bench import play


def test_seeded_games_end_and_repeat() -> None:
    first = play({"dungeon": "tavern_cellar"}, 2, 3, bot=False)
    assert first[0] in ("win", "loss") and first[1] > 10
    assert play({"dungeon": "tavern_cellar"}, 2, 3, bot=False) == first
    result, commands = play({"dungeon": "tavern_cellar"}, 2, 1, bot=True)
    assert result in ("win", "loss") and commands < 5_000


def test_the_engine_bench_uses_the_game_module() -> None:
    assert _bench_runner("app.games.attack_the_darkness") is not None
