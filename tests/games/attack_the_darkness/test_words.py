"""Every event has a plain log line and every question a title (issue 13, "How it must be
shown"): no raw type names, no raw card or monster ids ("m6", "d12", "0a3"), monsters named
as the board names them ("Ooze #6"). The registries are walked, so a new event or decision
added without words fails here."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from app.games.attack_the_darkness import ATTACK_THE_DARKNESS as GAME
from app.games.attack_the_darkness.describe import describe_event
from app.games.attack_the_darkness.engine import RULES
from app.games.attack_the_darkness.view import TITLES
from app.kernel.types import Event
from tests.games.attack_the_darkness.harness import Table

GOLDEN = Path(__file__).parents[2] / "golden" / "games"
RAW_ID = re.compile(r"\b[mdv]\d+\b|\b\d[ar]\d+\b")
TYPE_NAME = re.compile(r"\b[A-Z][a-z]+[A-Z][a-z]+")

CRAFTED: dict[str, dict[str, Any]] = {
    "BossCardsReturned": {"n": 2, "cards": ["demon", "demon"]},
    "DecksRestored": {"seat": 0, "actions": [], "resources": [], "n": 30},
    "EquipmentAdded": {"seat": 1, "item": "d4", "id": "battle_axe", "key": "d4"},
    "EquipmentKept": {"seat": 0, "card": "d3", "id": "short_bow", "dropped": []},
    "EquipmentLeft": {"seat": 0, "card": "d3"},
    "EquipmentTraded": {"seat": 0, "to": 2, "give": "d3", "take": None},
    "EquipmentUsed": {"seat": 0, "item": "d3", "id": "healing_draught", "key": "d3"},
    "Missed": {"attacker": "m6", "target": "c1"},
    "MonsterSummoned": {"id": "m6"},
    "PenaltySet": {"who": "m6", "stat": "save", "n": 2, "until": 5, "left": None, "by": 0},
    "PenaltyUsed": {"who": "c0", "stat": "move"},
    "ReadyForDungeon": {"seat": 2},
    "SeedAdded": {"danger": 4},
    "SeedSpent": {"danger": 2},
    "TradeDeclined": {"seat": 0, "to": 1, "give": "d3", "take": "d9"},
    "TradeProposed": {"seat": 0, "to": 1, "give": None, "take": "d9"},
}
"""Events the recorded games never emit, with the data their rule emits."""
SILENT = {"Waiting"}
"""Bookkeeping the log leaves out (the table's waiting line says it)."""


def recorded_events() -> list[Event]:
    out = []
    for path in sorted(GOLDEN.glob("attack-*.json")):
        out += [
            Event(e["type"], e["data"], e.get("v", 1))
            for e in json.loads(path.read_text())["events"]
            if e["type"] in RULES.versions
        ]
    return out


def assert_plain(event: Event) -> str:
    line = describe_event(event)
    assert line, f"{event.type} has no log line"
    assert not RAW_ID.search(line), f"{event.type}: a raw id in {line!r}"
    assert not TYPE_NAME.search(line), f"{event.type}: a type name in {line!r}"
    return line


def test_every_event_type_has_a_plain_log_line() -> None:
    recorded = recorded_events()
    samples = {e.type for e in recorded} | set(CRAFTED)
    missing = sorted(set(RULES.versions) - samples - SILENT)
    assert not missing, f"no sample (recorded or crafted) to check the words of: {missing}"
    for event in recorded + [Event(t, d, RULES.versions[t]) for t, d in CRAFTED.items()]:
        if event.type not in SILENT:
            assert_plain(event)


def test_every_decision_kind_has_a_title() -> None:
    """Every decision of the registry (and every "any time" window) has its own title."""
    missing = sorted(set(RULES.decisions) - set(TITLES))
    assert not missing, f"decisions without a title: {missing}"
    assert all(w.title != "At any time" for w in RULES.windows.values())
    assert len(set(TITLES.values())) == len(TITLES)


@pytest.mark.parametrize(
    ("event", "line"),
    [
        (
            Event("MonsterPlaced", {"entry": "L3", "card": "demon", "id": "m6", "square": [4, 5], "hp": 9}),
            "Demon! #6 is placed at 4,5.",
        ),
        (
            Event(
                "MonstersEntered",
                {"entry": "L3", "card": "demon", "cards": ["d1"], "monsters": [], "name": "Demon!"},
            ),
            "Demon! joins the monster line.",
        ),
        (
            Event("PenaltySet", {"who": "c1", "stat": "damage", "n": 3, "until": None, "left": 2, "by": 0}),
            "Player 2 suffers −3 damage for the next 2 use(s).",
        ),
        (Event("TradingDone", {"seat": 1}), "Player 2 is done trading."),
        (
            Event("EquipmentAdded", {"seat": 0, "item": "d4", "id": "battle_axe", "key": "d4"}),
            "Player 1 adds Battle Axe to the card.",
        ),
    ],
)
def test_the_new_lines_say_what_happened(event: Event, line: str) -> None:
    """Tabletop's set enters the line with nobody placed yet: no "0 ×" (AtD L273-274)."""
    assert describe_event(event) == line


def test_choice_labels_name_monsters_as_the_board_does() -> None:
    """A target choice reads "Target Zombies! #1", as the token and the log say, not "m1"."""
    t = Table(1, classes=["champion"])
    t.craft([(0, 0, "h"), (4, 0, "h"), (8, 0, "h")], {0: (1, 1)})
    zombie = t.monster("zombies", (2, 1), hp=4)
    hack, hearty, other = t.hand(0, "hack", "hearty", "crush")
    t.send(0, "play", card=hack)
    t.send(0, "add", rc=hearty)
    t.send(0, "done")
    t.send(0, "discard", card=other)
    labels = [c.label for p in GAME.prompts(t.state) for c in p.choices]
    target = next(label for label in labels if label.startswith("Target"))
    assert target == f"Target Zombies! #{zombie[1:]}"
    assert not any(RAW_ID.search(label) for label in labels)


def test_no_prompt_of_a_recorded_game_shows_a_raw_id() -> None:
    """At every question of the recorded Tabletop and Arena games (no undos: their events
    fold straight), no title or choice label shows a card instance or a monster's id."""
    asked = 0
    for name in ("attack-tabletop", "attack-arena"):
        state = GAME.initial_state()
        for e in json.loads((GOLDEN / f"{name}.json").read_text())["events"]:
            state = GAME.evolve(state, Event(e["type"], e["data"], e.get("v", 1)))
            if e["type"] != "Waiting":
                continue
            for prompt in GAME.prompts(state):
                asked += 1
                assert not RAW_ID.search(prompt.title), prompt.title
                assert not [c.label for c in prompt.choices if RAW_ID.search(c.label)], prompt.title
    assert asked > 100
