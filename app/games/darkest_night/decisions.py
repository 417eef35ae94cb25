"""Every question Darkest Night's rules ask, one frozen dataclass per kind (the kernel's
``Decision``, ``app/kernel/flow/decisions.py``). Field names are published: stored games
hold them in their ``Waiting`` records, and ``flow_schema.json`` pins them. Each class's
docstring is the prompt's title (``view.TITLES``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.kernel.flow.decisions import Decision, StepDecision

COMBAT = ("hero", "vs", "foe", "win", "fail", "allow", "why", "dice", "power")
"""A combat as a step (DN 12.0): who fights what (``foe`` with its strength and
awareness), in which kind of fight (``vs``), what winning and failing do, which approaches
are allowed, and, for a power that is itself the attack, its dice and the power."""
ROLL = ("hero", "purpose", "target", "base", "vs", "tactic", "tactic_after", "then")
"""A roll as a step (DN 5.0): who rolls for what, against which target, with how many
base dice, in which fight, with which tactic's after-effects, and the step it feeds."""
ROLLING = (*ROLL, "dice", "sources", "relic", "terror")
"""A roll ready to be rolled: the dice counted with their sources, the Holy Relic's +1
(DN 15.2) and Terror's extra die (DN 11.2)."""
ROLLED = (*ROLLING, "faces", "successes", "no_items")
"""A roll made: its faces and successes; ``no_items`` when no item may act on it."""


@dataclass(frozen=True, kw_only=True)
class Action(Decision):
    """Choose an action."""

    kind = "action"

    hero: str
    taken: bool


@dataclass(frozen=True, kw_only=True)
class AfterRoll(StepDecision):
    """After the roll (its fields are the pending ``after_roll`` step's parameters)."""

    kind = "after_roll"
    params = ROLLED


@dataclass(frozen=True, kw_only=True)
class AttackTarget(Decision):
    """Choose the blight to attack."""

    kind = "attack_target"

    hero: str
    blights: list[Any]
    dice: int
    power: str | None


@dataclass(frozen=True, kw_only=True)
class CardChoice(Decision):
    """Choose."""

    kind = "card_choice"

    hero: str
    options: list[Any]
    offered: list[Any]
    title: str


@dataclass(frozen=True, kw_only=True)
class ChooseBlightType(Decision):
    """Choose the blight created."""

    kind = "choose_blight_type"
    first_answer_decides = True  # the heroes' players choose it together (DN 11.1, 20.3.3)

    location: str
    why: str
    options: list[Any]


@dataclass(frozen=True, kw_only=True)
class ChooseHero(Decision):
    """Choose a hero."""

    kind = "choose_hero"

    slot: int
    replacing: str | None
    dual: bool
    secondary_of: str | None


@dataclass(frozen=True, kw_only=True)
class ChoosePowers(Decision):
    """Choose your starting powers."""

    kind = "choose_powers"

    hero: str
    from_hero: str
    count: int
    starting: list[Any]


@dataclass(frozen=True, kw_only=True)
class Combat(StepDecision):
    """Fight or elude (its fields are the pending ``combat`` step's parameters)."""

    kind = "combat"
    params = COMBAT


@dataclass(frozen=True, kw_only=True)
class DestroyBlightAt(Decision):
    """Destroy a blight."""

    kind = "destroy_blight_at"

    hero: str
    blights: list[Any]
    why: str


@dataclass(frozen=True, kw_only=True)
class DruidForm(Decision):
    """Celerity: take a Form?."""

    kind = "druid_form"

    hero: str
    forms: list[Any]


@dataclass(frozen=True, kw_only=True)
class Epiphany(Decision):
    """Epiphany: take any power from your deck."""

    kind = "epiphany"

    hero: str


@dataclass(frozen=True, kw_only=True)
class ExhaustPower(Decision):
    """Exhaust a power."""

    kind = "exhaust_power"

    hero: str
    n: int
    why: str


@dataclass(frozen=True, kw_only=True)
class FallenItem(Decision):
    """Who takes the fallen hero's item?."""

    kind = "fallen_item"

    hero: str
    item: str
    to: list[Any]


@dataclass(frozen=True, kw_only=True)
class GreenItem(Decision):
    """Choose a green-backed item."""

    kind = "green_item"

    hero: str
    options: list[Any]
    why: str


@dataclass(frozen=True, kw_only=True)
class HbAttack(Decision):
    """Attack a blight?."""

    kind = "hb_attack"

    hero: str
    blights: list[Any]


@dataclass(frozen=True, kw_only=True)
class HbMove(Decision):
    """Move on?."""

    kind = "hb_move"

    hero: str
    places: list[Any]
    why: str


@dataclass(frozen=True, kw_only=True)
class HbOathQuest(Decision):
    """Swear the Oath on which quest?."""

    kind = "hb_oath_quest"

    hero: str
    oath: str
    ends: list[Any]
    quests: list[Any]


@dataclass(frozen=True, kw_only=True)
class HbPickHero(Decision):
    """Choose a hero."""

    kind = "hb_pick_hero"

    hero: str
    heroes: list[Any]
    do: list[Any]
    cost: dict[str, Any]
    why: str


@dataclass(frozen=True, kw_only=True)
class HbQuest(Decision):
    """Choose a quest."""

    kind = "hb_quest"

    hero: str
    quests: list[Any]
    what: str
    n: int


@dataclass(frozen=True, kw_only=True)
class HbScrap(Decision):
    """Scrap which item?."""

    kind = "hb_scrap"

    hero: str
    items: list[Any]
    do: list[Any]
    power: str | None


@dataclass(frozen=True, kw_only=True)
class HbSeekOath(Decision):
    """Take an Oath card?."""

    kind = "hb_seek_oath"

    hero: str
    oaths: list[Any]


@dataclass(frozen=True, kw_only=True)
class MysteryPay(Decision):
    """Pay for the mystery."""

    kind = "mystery_pay"

    hero: str
    mystery: str
    ways: list[Any]
    detail: str


@dataclass(frozen=True, kw_only=True)
class NecromancerMove(Decision):
    """Move the Necromancer."""

    kind = "necromancer_move"

    targets: list[Any]
    roll: int


@dataclass(frozen=True, kw_only=True)
class NextHero(Decision):
    """Choose who takes the next turn."""

    kind = "next_hero"
    first_answer_decides = True  # "the players select a hero to go next" (DN 6.0)


@dataclass(frozen=True, kw_only=True)
class OrderEffects(Decision):
    """Several things happen at once: choose what comes first."""

    kind = "order_effects"

    hero: str
    groups: list[Any]


@dataclass(frozen=True, kw_only=True)
class PeekDarkness(Decision):
    """The top darkness card."""

    kind = "peek_darkness"

    hero: str
    card: str
    alone: bool


@dataclass(frozen=True, kw_only=True)
class PlayMapCard(Decision):
    """Play a map card."""

    kind = "play_map_card"

    location: str
    why: str


@dataclass(frozen=True, kw_only=True)
class QuestLocation(Decision):
    """Where does the quest appear?."""

    kind = "quest_location"

    hero: str
    card: str
    places: list[Any]


@dataclass(frozen=True, kw_only=True)
class QuestPay(Decision):
    """Pay for the quest."""

    kind = "quest_pay"

    hero: str
    quest: str
    name: str
    params: dict[str, Any]
    ways: list[Any]
    detail: str


@dataclass(frozen=True, kw_only=True)
class Roll(StepDecision):
    """Ready to roll (its fields are the pending ``roll`` step's parameters)."""

    kind = "roll"
    params = ROLLING


@dataclass(frozen=True, kw_only=True)
class Sacrifice(Decision):
    """The Necromancer sacrifices a blight: choose it."""

    kind = "sacrifice"

    hero: str
    blights: list[Any]


@dataclass(frozen=True, kw_only=True)
class SearchChoice(Decision):
    """Choose a search result."""

    kind = "search_choice"

    hero: str
    cards: list[Any]


@dataclass(frozen=True, kw_only=True)
class SearchFallback(Decision):
    """Nothing found: take something else."""

    kind = "search_fallback"

    hero: str


@dataclass(frozen=True, kw_only=True)
class SkullToken(Decision):
    """Skull Token?."""

    kind = "skull_token"
    first_answer_decides = True  # any carrier's player may use one (DN 15.0)

    roll: int


@dataclass(frozen=True, kw_only=True)
class SupplyCache(Decision):
    """Supply cache: keep one power."""

    kind = "supply_cache"

    hero: str
    drawn: list[Any]


@dataclass(frozen=True, kw_only=True)
class Wound(Decision):
    """A wound!."""

    kind = "wound"

    hero: str
    why: str


def decision_title(d: Decision) -> str | None:
    """A title that depends on the question, where the kind's fixed title would mislead: a
    combat names its foe and only the approaches allowed ("Fight the Necromancer" when he
    is attacked, DN 8.0, 12.2; "Elude the Scout" when a dash forbids fighting, DN 12.0)."""
    if isinstance(d, Combat):
        step = d.step
        foe = step.get("foe", {})
        allowed = step.get("allow", ["fight", "elude"])
        ways = [
            way
            for way, stat in (("fight", "strength"), ("elude", "awareness"))
            if way in allowed and (foe.get(stat) or (way == "fight" and step.get("dice")))
        ]
        name = foe.get("name", "")
        article = "the " if name and name[0].isupper() and not name.startswith(("A ", "An ")) else ""
        verb = " or ".join(ways).capitalize() if ways else "Face"
        return f"{verb} {article}{name}".strip()
    if d.kind == "fallen_item":
        return "Who takes the fallen hero's item?"
    return None


def decision_hero(d: Decision) -> str | None:
    """The hero a decision is about, if any (a roll's or a combat's is its step's)."""
    if isinstance(d, StepDecision):
        hero = d.step.get("hero")
        return str(hero) if hero is not None else None
    hero = getattr(d, "hero", None)
    return str(hero) if hero is not None else None
