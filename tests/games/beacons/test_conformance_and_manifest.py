"""Beacons holds the kernel contract over many seeded random games (conformance), and its
flow manifest pins the published step vocabulary and decision schemas, as Darkest Night's
does (tests/games/darkest_night/test_flow_schema.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.kernel.conformance import random_playout
from app.kernel.flow import manifest
from app.kernel.registry import unregister
from tests.support.beacons.game import BEACONS, RULES

SCHEMA = Path(__file__).resolve().parents[2] / "support" / "beacons" / "flow_schema.json"
GAMES = int(os.environ.get("UMBRA_CONFORMANCE_GAMES", "0")) or 24

OPTION_SETS = [
    {"campaign": "single"},
    {"campaign": "campaign", "nights": 2},
    {"campaign": "campaign", "nights": 3, "colour": ["jade", None, "amber"]},
]

unregister(BEACONS.name)  # importing the package registers it: only tests that serve it keep it


@pytest.mark.parametrize("options", OPTION_SETS, ids=["single", "two-nights", "three-nights"])
def test_random_games_keep_the_contract(options: dict[str, object]) -> None:
    """Every offered command is accepted, no view or feed leaks a hand or the deck, every
    event is in event_types(), and the log replays to the same state."""
    outcomes = set()
    nights = []
    for seed in range(GAMES // len(OPTION_SETS) + 1):
        played = random_playout(BEACONS, seed, options=dict(options), optional_share=0.2)
        assert played.outcome is not None
        outcomes.add(played.outcome.result)
        nights.append(len(played.state.results))
        chapters = BEACONS.chapters(played.state)
        assert all(c.outcome is not None for c in chapters) and not any(c.current for c in chapters)
    assert set(nights) == {played.state.nights}
    assert outcomes == {"win", "loss"}


def test_the_manifest_lists_several_kinds_of_decision() -> None:
    stored = manifest.load(SCHEMA)
    assert {"next_watch", "act", "light_square", "ready"} <= set(stored["decisions"])
    assert stored["decisions"]["light_square"]["fields"] == ["card"]
    assert {"begin_night", "watch", "dusk", "end_night"} <= set(stored["steps"])


def test_a_renamed_step_without_an_upcaster_is_caught() -> None:
    stored = manifest.load(SCHEMA)
    stored["steps"]["kindle"] = ["seat"]
    assert any("kindle" in p for p in manifest.problems(RULES, stored))
