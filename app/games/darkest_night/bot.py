"""A simple heuristic player: it fills an empty seat and measures the engine.

It plays only from the prompts (the same legal choices a person sees). As a hero: heal
when low, search for clues, retrieve relics, bring them home for the Holy Ritual, hunt
blights when the odds are good, and take the best odds in every fight. As the Necromancer
player (DN 20.3, ``choose_necromancer``): chase the most exposed heroes and play the map
cards whose blights hurt most. It ignores "any time" offers.
"""

from __future__ import annotations

import random
import re

from app.games.darkest_night.content import MONASTERY, load
from app.games.darkest_night.rules.necromancer import distances
from app.games.darkest_night.state import State
from app.kernel.types import Choice, Prompt

ODDS = re.compile(r"(\d+)%")


def odds(choice: Choice) -> int:
    found = ODDS.findall(choice.detail)
    return int(found[-1]) if found else 0


def first(choices: list[Choice], type_: str) -> Choice | None:
    return next((c for c in choices if c.type == type_), None)


def choose(state: State, prompt: Prompt, rng: random.Random) -> Choice:
    """The bot's choice for one prompt."""
    if state.necromancer_seat is not None and prompt.seat == state.necromancer_seat:
        return choose_necromancer(state, prompt, rng)
    choices = list(prompt.choices)
    kind = state.decision["kind"] if state.decision else ""
    if kind == "action":
        return choose_action(state, choices, rng)
    if kind == "combat":
        rolls = [c for c in choices if c.type == "resolve_combat"]
        return max(rolls, key=odds) if rolls else choices[0]
    if kind == "roll":
        decision = state.decision or {}
        wants_more = decision.get("target") and decision["target"] >= 5
        for type_ in ("use_boost", "spend_spark"):
            extra = first(choices, type_)
            if extra and wants_more:
                return extra
        return first(choices, "roll_dice") or choices[0]
    if kind == "after_roll":
        decision = state.decision or {}
        if decision.get("successes", 1) == 0 and len(choices) > 1:
            return choices[1]
        return choices[0]
    if kind == "wound":
        return first(choices, "spend_grace") or choices[0]
    if kind == "next_hero":
        return min(choices, key=lambda c: state.heroes[c.args["hero"]].secrecy)
    return rng.choice(choices) if kind in ("choose_hero", "choose_powers") else choices[0]


def choose_necromancer(state: State, prompt: Prompt, rng: random.Random) -> Choice:
    """The Necromancer player's seat (DN 20.3), an adversary picking only from the prompt.

    Movement (DN 20.3.2, "necromancer_move"): among the allowed destinations, go where his
    blight does most harm (a full location overflows it into the Monastery, DN 11.1 and
    18.3; next to the Monastery, heroes come and go) and closest to the most exposed hero
    (low secrecy: at 0 he attacks, DN 12.2), preferring a detected one. Blights (DN 20.3.3,
    "play_map_card"): the map card whose blight is mightiest, global (red) or, with heroes
    at that location, a monster (yellow) or a hindrance (blue). Ties go to ``rng``.
    """
    choices = list(prompt.choices)
    decision = state.decision or {}
    if decision.get("kind") == "necromancer_move":
        scores = [move_score(state, c.args["to"], decision["roll"]) for c in choices]
    elif decision.get("kind") == "play_map_card":
        scores = [blight_score(state, decision["location"], c.args["card"]) for c in choices]
    else:
        return choices[0]
    best = max(scores)
    return rng.choice([c for c, score in zip(choices, scores, strict=True) if score == best])


def move_score(state: State, to: str, roll: int) -> int:
    """How good ``to`` is for the Necromancer: blight harm minus the hunt (twice the
    distance plus the secrecy of the best prey)."""
    prey = [h for h in state.living() if h.location != MONASTERY]
    detected = [h for h in prey if roll > h.secrecy] or prey
    dist = distances(to)
    hunt = min((2 * dist.get(h.location, 9) + h.secrecy for h in detected), default=0)
    if state.blight_count(to) >= 4:
        return 4 - hunt  # his blight overflows into the Monastery (DN 11.1)
    return (1 if to in load().locations[MONASTERY].adjacent else 0) - hunt


def blight_score(state: State, location: str, card: str) -> int:
    """How much the blight this map card makes at ``location`` hurts the heroes."""
    content = load()
    spec = content.blights[content.map_cards[card].blights[location]]
    local = {"yellow": 2, "blue": 1}.get(spec.color, 0) if state.heroes_at(location) else 0
    return spec.might + (3 if spec.color == "red" else 0) + local


def choose_action(state: State, choices: list[Choice], rng: random.Random) -> Choice:
    decision = state.decision or {}
    hero = state.heroes[decision["hero"]]
    if decision.get("taken"):
        return first(choices, "end_action") or choices[0]
    by_type: dict[str, list[Choice]] = {}
    for choice in choices:
        by_type.setdefault(choice.type, []).append(choice)
    if "retrieve_relic" in by_type:
        return by_type["retrieve_relic"][0]
    if hero.grace <= 1:
        if "pray" in by_type:
            return by_type["pray"][0]
        return travel_towards(state, hero.location, MONASTERY, by_type) or choices[0]
    if hero.relics() and hero.location != MONASTERY:
        return travel_towards(state, hero.location, MONASTERY, by_type) or choices[0]
    if "attack_necromancer" in by_type and hero.relics() and not state.blights.get(hero.location):
        return by_type["attack_necromancer"][0]
    attacks = sorted(by_type.get("attack", []), key=odds, reverse=True)
    crowded = crowded_location(state)
    if attacks and hero.grace >= 2 and (hero.location == crowded or odds(attacks[0]) >= 40):
        return attacks[0]
    if crowded and crowded != hero.location and hero.grace >= 2:
        route = travel_towards(state, hero.location, crowded, by_type)
        if route is not None:
            return route
    if sum(p.exhausted for p in hero.powers) >= 2 and "hide" in by_type:
        return by_type["hide"][0]
    if "quest_action" in by_type and rng.random() < 0.5:
        return by_type["quest_action"][0]
    if hero.location == MONASTERY and hero.grace < hero.default_grace - 1 and "pray" in by_type:
        return by_type["pray"][0]
    if "search" in by_type:
        return by_type["search"][0]
    if "travel" in by_type:
        away = [
            c for c in by_type["travel"] if c.args["to"] != MONASTERY and c.args["to"] != state.necromancer
        ]
        return rng.choice(away or by_type["travel"])
    return by_type.get("meditate", [choices[0]])[0]


def crowded_location(state: State) -> str | None:
    """The location most in need of clearing: 3 or more blights (the Monastery fills when
    they overflow, DN 11.1)."""
    worst = max((loc for loc in state.blights if loc != MONASTERY), key=lambda loc: len(state.blights[loc]))
    return worst if len(state.blights[worst]) >= 2 else None


def travel_towards(state: State, here: str, target: str, by_type: dict[str, list[Choice]]) -> Choice | None:
    options = by_type.get("travel", [])
    for choice in options:
        if choice.args["to"] == target:
            return choice
    adjacent_to_target = set(load().locations[target].adjacent)
    closer = [c for c in options if c.args["to"] in adjacent_to_target]
    return closer[0] if closer else (options[0] if options else None)
