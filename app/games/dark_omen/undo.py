"""Which Dark Omen actions a player may take back, and what each one touched (issue 15:
"undo of your own last moves until dice, a reveal or another player's action touching the
same things").

Every seat spends its AP at once (DO L210-212), so another seat's commit usually follows
yours at once; the platform lets you take yours back past theirs when the two touched
different things (``app.kernel.history.undo_refusal``). Both answers are read from the
events alone: an import is checked without replaying it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from app.kernel.flow.records import WAITING_EVENT
from app.kernel.types import Event

TAKE_BACK = frozenset(
    {
        "HeroMoved",  # a step, the omen's fire, a vortex's carry: no die (DO L239-240, L537-542)
        "ApSpent",  # unless it carries a roll (entangling vines, DO L498)
        "ApChanged",  # traveler's bread (+1 AP, DO L252)
        "RoundPassed",  # the rest of the round's AP forfeited (DO L211)
        "HeroStats",  # health, mana, gold, blood paid or gained at a known price
        "EffectSet",
        "Used",  # "once a day / a round" marks of the hero's own
        "LootTaken",  # a face-up token picked up from the ground (DO L245)
        "LootDropped",  # laid face up (DO L245)
        "LootGiven",  # an exchange between heroes on one space (facts §21)
        "LootSpent",  # crafted, drunk, sold: back to the pile, which nobody sees into
        "GearGained",  # bought, crafted
        "GearLost",
        "GearEquipped",
        "ChargesSet",
        "DiscountSet",  # unless it carries the haggling dice
        "ChapterReady",  # between chapters, a seat ready (with its guild, DO L189)
        WAITING_EVENT,  # where the table waits: see ``footprint``
    }
)
"""What an action that can be taken back consists of. Everything else is irrevocable: a
die rolled (battles ``AttackRolled`` … ``BattleEnded`` DO L404-430, ``PendingRoll`` for the
runehenge, a gamble, a barrow DO L312-356, haggling, the well, a hoard), something hidden
turned face up (``LootRevealed`` a loot token DO L243, ``LocationUnlocked`` a location
token DO L302, ``CreatureRevealed`` / ``CreatureTokenFlipped``, ``OmenDrawn``, ``RunesCast``,
``StoryRead``), the labyrinth turned (``LayersTurned``), a round, day or chapter begun or
ended (``RoundBegan`` … ``ChapterEnded``, ``LootDealt``), a creature placed or moved, a hero
fallen (``HeroDied``, ``GraveDug``), or anything asking another seat (``TeamProposed``,
``GambleOpened``) or changing what all share (``MeterMoved``, ``BloodOffered``,
``PropTended``, ``CampfireLit``, ``CampMade``)."""

DICE_KEYS = frozenset({"roll", "rolls", "dice"})
"""An event carrying one of these holds a die's result."""


def undoable(events: Sequence[Event]) -> bool:
    """Nothing random and nothing hidden in the action: only ``TAKE_BACK`` events, none
    carrying dice. (A step out of the Great Mycelia rolls for entangling vines, DO L498;
    only the 4 stops the hero, and that one is stored with its roll: the move that got
    through may be taken back, which rerolls nothing in the player's favour.)"""
    return bool(events) and all(e.type in TAKE_BACK and not DICE_KEYS & e.data.keys() for e in events)


def footprint(events: Sequence[Event]) -> frozenset[str] | None:
    """The heroes, spaces and face-up loot the action touched, or None when it cannot be
    told apart from what other seats do next: when it ended its hero's round (the table's
    ``Waiting`` no longer asks that seat, so every later answer was asked without it,
    DO L211) or was a 0-AP action after the round (facts §21)."""
    seat = next((e.data["seat"] for e in events if isinstance(e.data.get("seat"), int)), None)
    waiting = next((e for e in reversed(events) if e.type == WAITING_EVENT), None)
    if seat is None or waiting is None or not still_acting(waiting.data.get("decision"), seat):
        return None
    touched: set[str] = set()
    for event in events:
        if event.type != WAITING_EVENT:
            touched.update(_touched(event))
    return frozenset(touched)


def still_acting(decision: Any, seat: int) -> bool:
    """Does this decision record ask ``seat`` in the round where every seat acts at once?"""
    if not isinstance(decision, dict) or decision.get("kind") != "act":
        return False
    seats = decision.get("seats")
    return isinstance(seats, list) and seat in seats


def _touched(event: Event) -> Iterable[str]:
    data = event.data
    if isinstance(data.get("seat"), int):
        yield hero(data["seat"])
    if event.type == "LootGiven":
        yield hero(data["to"])  # the hero receiving, on the same space
    if event.type == "HeroMoved":
        yield space(data["from"])
        yield space(data["to"])
    if "space" in data:
        yield space(data["space"])
    if event.type in ("LootTaken", "LootDropped"):
        yield f"the loot on space {data['space']}"


def hero(seat: int) -> str:
    return f"seat {seat + 1}'s hero"


def space(where: Any) -> str:
    return f"space {where}"
