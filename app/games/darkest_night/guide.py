"""A first game's guide (issue 28): which step of a turn the question the table waits on
belongs to, named as the ``[[guide]]`` entries of ``content/rules_reference.toml`` name
them, so the page can say in two sentences what the step is for and what is usually chosen.

The name comes from the kind of decision (``decisions.py``), refined where one kind serves
several steps: a combat is a blight attacked (DN 12.1), the Necromancer (DN 12.2), a
blight's monster at the end of a turn (DN 11.2) or any other foe (DN 12.0); a roll is a
prayer, a search (DN 8.0) or any other roll (DN 5.0); a card's choice or several effects at
once read as the step of the turn they come in (DN 6.0)."""

from __future__ import annotations

from typing import Any

from app.kernel.flow.decisions import StepDecision

BY_KIND: dict[str, str] = {
    "choose_powers": "choose_powers",
    "next_hero": "next_hero",
    "action": "action",
    "attack_target": "attack",
    "after_roll": "after_roll",
    "wound": "wound",
    "exhaust_power": "exhaust_power",
    "quest_location": "quest_location",
    "quest_pay": "quest",
    "mystery_pay": "mystery",
    "sacrifice": "sacrifice",
    "destroy_blight_at": "destroy_blight",
    "choose_blight_type": "blight_type",
    "search_choice": "search_result",
    "search_fallback": "search_result",
    "supply_cache": "new_power",
    "epiphany": "new_power",
    "green_item": "item",
    "fallen_item": "item",
    "skull_token": "skull_token",
    "necromancer_move": "necromancer_move",
    "play_map_card": "play_map_card",
    "druid_form": "power",
    "peek_darkness": "power",
    "hb_attack": "power",
    "hb_move": "power",
    "hb_oath_quest": "power",
    "hb_pick_hero": "power",
    "hb_quest": "power",
    "hb_scrap": "power",
    "hb_seek_oath": "power",
}
"""The step of each kind of decision that always belongs to the same one."""

COMBATS = {"attack": "attack", "necromancer": "necromancer_combat", "monster": "monster"}
"""A combat's step by what it is against (``vs``); any other foe is a plain combat."""

ROLLS = {"pray": "pray", "search": "search"}
"""A roll's step by its purpose; any other is a plain roll."""

TURN_STEPS = {"start": "start", "event": "event", "end": "end"}
"""The steps of a hero's turn a card's choice or an ordering of effects may come in."""

STEPS = frozenset(
    {
        *BY_KIND.values(),
        *COMBATS.values(),
        *ROLLS.values(),
        *TURN_STEPS.values(),
        "choose_hero",
        "new_hero",
        "combat",
        "roll",
        "card_choice",
        "order_effects",
        "darkness",
    }
)
"""Every step ``guide_step`` may name (each has a ``[[guide]]`` entry: tested)."""


def guide_step(phase: str, turn_step: str | None, decision: Any) -> str | None:
    """The step the ``decision`` the table waits on belongs to, in the round's ``phase``
    and the hero turn's ``turn_step`` (``State.phase``, ``State.step``); None for no
    decision or a kind no guide speaks to."""
    if decision is None:
        return None
    kind = decision.kind
    if kind in BY_KIND:
        return BY_KIND[kind]
    step = decision.step if isinstance(decision, StepDecision) else {}
    if kind == "choose_hero":
        return "new_hero" if decision.replacing else "choose_hero"  # DN 13.1
    if kind == "combat":
        return COMBATS.get(step.get("vs"), "combat")
    if kind == "roll":
        return ROLLS.get(step.get("purpose"), "roll")
    if kind in ("card_choice", "order_effects"):
        if phase == "necromancer":
            return "darkness"  # a darkness card's demand on the heroes (DN 9.0)
        if phase == "turn" and turn_step in TURN_STEPS:
            return TURN_STEPS[turn_step]
        return kind
    return None
