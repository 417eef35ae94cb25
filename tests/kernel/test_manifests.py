"""Every game's published flow vocabulary is pinned (issue 24: one manifest test over all
games). ``flow_schema.json`` beside a game's rules lists its step ops and parameters, its
decision kinds, fields and versions: a renamed op, parameter or decision field fails here
unless an upcaster reads the old one, so stored games keep loading. Write one anew with
``python -m app.kernel.flow.manifest <module>:RULES <path>`` and review the diff."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from app.kernel.flow import manifest

ROOT = Path(__file__).resolve().parents[2]
RULES = {
    "darkest_night": ("app.games.darkest_night.engine", "app/games/darkest_night/flow_schema.json"),
    "attack_the_darkness": (
        "app.games.attack_the_darkness.engine",
        "app/games/attack_the_darkness/flow_schema.json",
    ),
    "dark_omen": ("app.games.dark_omen.engine", "app/games/dark_omen/flow_schema.json"),
    "beacons (test game)": ("tests.support.beacons.game", "tests/support/beacons/flow_schema.json"),
}


@pytest.mark.parametrize("game", sorted(RULES))
def test_the_manifest_matches_the_rules(game: str) -> None:
    module, path = RULES[game]
    rules = importlib.import_module(module).RULES
    assert manifest.problems(rules, manifest.load(ROOT / path)) == [], (
        f"python -m app.kernel.flow.manifest {module}:RULES {path}"
    )


def test_every_game_with_flow_rules_is_pinned() -> None:
    pinned = {Path(path).parent.name for _, path in RULES.values()}
    for schema in (ROOT / "app" / "games").glob("*/flow_schema.json"):
        assert schema.parent.name in pinned, schema
