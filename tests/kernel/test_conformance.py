"""The conformance test, over every registered game and the test-only Lanterns and Beacons games."""

from __future__ import annotations

import pytest

from app.kernel.conformance import ConformanceError, games_per_case, random_playout
from app.kernel.registry import all_games
from tests.support.beacons import BEACONS
from tests.support.lanterns import LANTERNS

GAMES = {**all_games(), LANTERNS.name: LANTERNS, BEACONS.name: BEACONS}
"""The product's games and the test games, whichever test files were collected first (a
test game registers itself when imported, so the registry alone depends on that order)."""


SEEDS = {"lanterns": 200}
"""Seeded games per game here (more with $UMBRA_CONFORMANCE_GAMES); each game's own tests
play more across its options."""


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_games_conform(name: str) -> None:
    game = GAMES[name]
    for seed in range(games_per_case(SEEDS.get(name, 8))):
        playout = random_playout(game, seed, check_every=3)
        assert playout.outcome is not None


def test_lanterns_with_every_option() -> None:
    for seed in range(50):
        options = {
            "target": 3 + seed % 20,
            "hand_size": 1 + seed % 4,
            "deck": ["short", "long"][seed % 2],
            "dice": seed % 3 != 0,
        }
        random_playout(LANTERNS, seed, options=options)


class LeakyLanterns(type(LANTERNS)):  # type: ignore[misc]
    def view(self, state, viewer):  # shows every hand to everyone
        return super().view(state, viewer) | {"hands": [list(h) for h in state.hands]}


_counter = iter(range(10**9))


class NondeterministicLanterns(type(LANTERNS)):  # type: ignore[misc]
    def evolve(self, state, event):  # evolve that is not a pure fold of the log
        new = super().evolve(state, event)
        if event.type == "CardPlayed":
            return new.__class__(**{**new.__dict__, "played": (*new.played, f"x{next(_counter)}")})
        return new


def test_the_check_catches_a_replay_that_differs() -> None:
    with pytest.raises(ConformanceError, match="replaying"):
        random_playout(NondeterministicLanterns(), 3, seats=2)


def test_the_check_catches_a_leak() -> None:
    with pytest.raises(ConformanceError, match="leaks"):
        random_playout(LeakyLanterns(), 1, seats=2)


class StuckLanterns(type(LANTERNS)):  # type: ignore[misc]
    def prompts(self, state):
        return [p for p in super().prompts(state) if not p.required]


def test_the_check_catches_a_stuck_game() -> None:
    with pytest.raises(ConformanceError, match="waits on nobody"):
        random_playout(StuckLanterns(), 1, seats=2)


class RefusingLanterns(type(LANTERNS)):  # type: ignore[misc]
    def decide(self, state, command, actor, rng):
        if command.type == "roll":
            from app.kernel import RuleError

            raise RuleError("nope", "refused")
        return super().decide(state, command, actor, rng)


def test_the_check_catches_an_offered_command_that_is_refused() -> None:
    with pytest.raises(ConformanceError, match="refused"):
        for seed in range(10):
            random_playout(RefusingLanterns(), seed, seats=2)
