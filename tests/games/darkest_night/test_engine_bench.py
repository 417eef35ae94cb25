"""The engine benchmark's random player plays whole games, the same game for the same seed."""

from __future__ import annotations

from app.games.darkest_night.bench import random_game


def test_the_benchmark_plays_seeded_random_games_to_their_end() -> None:
    first = random_game(3)
    assert first.result in ("win", "loss") and first.commands > 20
    assert random_game(3) == first


def test_the_timed_game_is_the_same_game_and_adds_up_each_phase() -> None:
    from app.games.darkest_night.bench import PHASES

    phases: dict[str, float] = {}
    assert random_game(3, phases=phases) == random_game(3)
    assert set(phases) == set(PHASES) and all(seconds > 0 for seconds in phases.values())
