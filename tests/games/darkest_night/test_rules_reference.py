"""Darkest Night's rules at hand (issue 28): the first game's guide names the step of a
turn the table waits on (``guide.py``), every step it can name has a guide, and the
reference reads as the rulebook does (its chapters in order, its entries under them)."""

from __future__ import annotations

import inspect
import random
import re

import pytest

from app.games.darkest_night import DARKEST_NIGHT, decisions
from app.games.darkest_night.decisions import CardChoice, ChooseHero, Combat, OrderEffects, Roll
from app.games.darkest_night.guide import BY_KIND, STEPS, guide_step
from app.games.darkest_night.state import State
from app.kernel import table as kernel
from app.kernel.flow.decisions import Decision
from app.kernel.game import validate_options
from app.kernel.types import Prompt, SeatInfo
from tests.games.darkest_night.harness import Table, run_steps

REFERENCE = DARKEST_NIGHT.rules_reference()
KINDS_BY_CONTEXT = {"choose_hero", "combat", "roll", "card_choice", "order_effects"}
"""The kinds whose step depends on the question or the moment (``guide.guide_step``)."""


def required(state: State) -> list[Prompt]:
    return [p for p in DARKEST_NIGHT.prompts(state) if p.required]


def steps_of(state: State) -> set[str | None]:
    return {DARKEST_NIGHT.guide_step(state, p) for p in required(state)}


def test_every_step_the_guide_can_name_has_a_guide_and_every_guide_a_step() -> None:
    assert REFERENCE is not None
    assert set(REFERENCE.guides) == STEPS
    for step, guide in REFERENCE.guides.items():
        assert REFERENCE.resolve(guide.ref) is not None, step
        assert len(re.split(r"(?<=[.!?])\s+", guide.text)) == 2, f"{step}: two sentences"


def test_every_kind_of_decision_has_a_step() -> None:
    """A new kind of question must be given a step (or a reason to have none) here."""
    kinds = {
        cls.kind
        for _, cls in inspect.getmembers(decisions, inspect.isclass)
        if issubclass(cls, Decision) and cls.kind and cls.__module__ == decisions.__name__
    }
    assert kinds == set(BY_KIND) | KINDS_BY_CONTEXT


def test_choosing_heroes_then_powers() -> None:
    options = validate_options(DARKEST_NIGHT, {})
    opening = DARKEST_NIGHT.setup(options, [SeatInfo(0, "Ann"), SeatInfo(1, "Bo")], random.Random(0))
    table = Table(kernel.replay(DARKEST_NIGHT, opening), list(opening))
    assert steps_of(table.state) == {"choose_hero"}
    table.act("choose_hero", hero="seer")
    assert steps_of(table.state) == {"choose_powers"}


def test_the_round_choosing_who_goes_next_then_the_action_step_in_the_monastery() -> None:
    table = Table.start(seats=2)
    assert steps_of(table.state) == {"next_hero"}  # asked of both players (DN 6.0)
    assert len(required(table.state)) == 2
    table.begin_turn("prince")  # from the Monastery: no event (DN 7.3), straight to the action
    assert table.state.step == "action"
    assert steps_of(table.state) == {"action"}


def test_a_foe_met_in_the_action_step_and_an_any_time_offer() -> None:
    table = Table.start()
    table.begin_turn("valkyrie")
    run_steps(table, [{"op": "fight", "hero": "valkyrie", "foe": "Ghoul", "strength": 4, "awareness": 3}])
    assert table.decision.kind == "combat"
    assert steps_of(table.state) == {"combat"}
    optional = [p for p in DARKEST_NIGHT.prompts(table.state) if not p.required]
    assert all(DARKEST_NIGHT.guide_step(table.state, p) is None for p in optional)


def combat(vs: str) -> Combat:
    return Combat(seat=0, step={"hero": "valkyrie", "vs": vs, "foe": {"name": "Ghoul"}})


def roll(purpose: str) -> Roll:
    return Roll(seat=0, step={"hero": "valkyrie", "purpose": purpose, "vs": None})


CARD_CHOICE = CardChoice(seat=0, hero="seer", options=[], offered=[], title="Choose")
EFFECTS = OrderEffects(seat=0, hero="seer", groups=[])
NEW_HERO = ChooseHero(seat=0, slot=0, replacing="seer", dual=False, secondary_of=None)


@pytest.mark.parametrize(
    ("phase", "step", "decision", "expected"),
    [
        ("turn", "action", combat("attack"), "attack"),
        ("turn", "event", combat("necromancer"), "necromancer_combat"),
        ("turn", "action", combat("necromancer"), "necromancer_combat"),
        ("turn", "end", combat("monster"), "monster"),
        ("turn", "event", combat("event"), "combat"),
        ("turn", "action", roll("pray"), "pray"),
        ("turn", "action", roll("search"), "search"),
        ("turn", "event", roll("elude"), "roll"),
        ("turn", "event", CARD_CHOICE, "event"),
        ("turn", "action", CARD_CHOICE, "card_choice"),
        ("necromancer", None, CARD_CHOICE, "darkness"),  # a darkness card's demand
        ("turn", "end", EFFECTS, "end"),
        ("turn", "start", EFFECTS, "start"),
        ("turn", "action", EFFECTS, "order_effects"),
        ("heroes", None, NEW_HERO, "new_hero"),
        ("setup", None, None, None),
    ],
)
def test_the_step_of_a_question_by_what_it_is_and_when(
    phase: str, step: str | None, decision: Decision | None, expected: str | None
) -> None:
    assert guide_step(phase, step, decision) == expected


def test_the_reference_follows_the_rulebook() -> None:
    """Chapters 1–20 in the rulebook's order, each entry under its own chapter."""
    assert REFERENCE is not None
    numbers = [int(title.split()[0]) for title, _ in REFERENCE.chapters]
    assert numbers == list(range(1, 21))
    for title, entries in REFERENCE.chapters:
        chapter = title.split()[0]
        assert entries, title
        assert all(e.ref.split()[1].split(".")[0] == chapter for e in entries), title
    assert len(REFERENCE.terms) >= 12
    assert all(REFERENCE.resolve(t.ref) is not None for t in REFERENCE.terms)
