"""Scenario helpers: a table set up, then arranged (a hero here, an enemy there), and
commands decided with rigged dice, rolled in the order the rules roll them."""

from __future__ import annotations

from typing import Any

from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.content import base_token
from app.games.dark_omen.decisions import Act
from app.games.dark_omen.state import Creature, Omen, State
from app.kernel import table as kernel
from app.kernel.rng import rng_for
from app.kernel.types import Event, SeatInfo
from tests.support import harness as shared


class Rigged(shared.Rigged):
    """Dice from a list, in rolling order; anything else (draws) from a seeded generator."""

    def __init__(self, rolls: list[int]) -> None:
        super().__init__(rolls, 7)


def table(seats: int = 1, **options: Any) -> State:
    """A Quick Start table (chapter 1 unless said), waiting on the first round."""
    opts = {"mode": "quick_chapter", "chapter": 1, **options}
    from app.kernel.game import validate_options

    events = DARK_OMEN.setup(
        validate_options(DARK_OMEN, opts), [SeatInfo(i, f"P{i + 1}") for i in range(seats)], rng_for("t", 1)
    )
    return kernel.replay(DARK_OMEN, events)


def arranged(state: State, *, at: int = 10, hp: int = 15, mp: int = 15, gold: int = 0) -> State:
    """Every hero on ``at`` with the given tracks, no gear, no runes, nothing on the map,
    the round fresh, the layers at 0 (so tests are not at the mercy of the setup)."""
    s = state.clone()
    for h in s.heroes:
        h.at, h.hp, h.mp, h.gold = at, hp, mp, gold
        h.gear, h.equipped, h.charges, h.runes, h.inventory, h.potions = [], {}, {}, [], [], []
        h.ap, h.ap_limit, h.done, h.pending, h.must_attack, h.effects = 0, 6, False, None, None, {}
    lying = [*s.loot.values(), *(t for ts in s.dropped.values() for t in ts)]
    s.pile = sorted({*s.pile, *(base_token(t) for t in lying)})
    s.creatures, s.loot, s.dropped = [], {}, {}
    s.omen = Omen("a_call_for_aid")  # nobody to escort: stays active
    s.layers = {"white": 0, "clear": 0}
    s.decision = Act(seat="any", seats=[h.seat for h in s.heroes])
    s.agenda = []
    return s


def enemy(
    state: State,
    *,
    space: int = 10,
    level: int = 1,
    hp: int = 20,
    armor: int = 0,
    dr: str = "3",
    cid: str = "e1",
    name: str = "Test Foe",
) -> Creature:
    """A known creature (a Groll's card, the given stats) on ``space``; change its fields to
    make it a boss, a guard or a face-down token."""
    creature = Creature(
        id=cid,
        space=space,
        level=level,
        kind="creature",
        dice=level,
        card="groll",
        name=name,
        hp=hp,
        armor=armor,
        dr=dr,
    )
    state.creatures.append(creature)
    return creature


def play(
    state: State, seat: int, type_: str, rolls: list[int] | None = None, **args: Any
) -> tuple[State, list[Event]]:
    """``seat``'s command, played as at a live table: refused unless it is offered."""
    return shared.play(DARK_OMEN, state, seat, type_, args, Rigged(rolls or []))


def of(events: list[Event], type_: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == type_]


def choices(state: State, seat: int) -> list[tuple[str, dict[str, Any]]]:
    return shared.offered(DARK_OMEN, state, seat)
