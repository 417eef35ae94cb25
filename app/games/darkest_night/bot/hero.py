"""The bot in a hero's seat: every decision but the action step, which ``planner`` scores."""

from __future__ import annotations

import random
from typing import Any

from app.games.darkest_night.bot.common import first, hero_distances, odds
from app.games.darkest_night.bot.planner import choose_action, goal_location, kill_chance
from app.games.darkest_night.bot.values import (
    CLUE,
    RESULT_VALUE,
    blight_harm,
    blight_type_harm,
    power_value,
)
from app.games.darkest_night.content import load
from app.games.darkest_night.decisions import (
    AfterRoll,
    CardChoice,
    Combat,
    FallenItem,
    HbMove,
    MysteryPay,
    QuestPay,
    Roll,
    SearchChoice,
)
from app.games.darkest_night.state import Hero, State, kind_of
from app.kernel.types import Choice, Prompt

# -- the hero seats --------------------------------------------------------------------------

HERO_PREFERENCE = (
    "seer",
    "mesmer",
    "crusader",
    "valkyrie",
    "knight",
    "rogue",
    "tinker",
    "shaman",
    "wayfarer",
    "druid",
    "prince",
    "bard",
    "paragon",
)
"""Heroes in the order the bot picks them (DN 3.2): clue finders and blight fighters first."""


def choose_hero(choices: list[Choice]) -> Choice:
    """Pick the highest-ranked hero offered (DN 3.2, 13.1)."""
    rank = {hero: i for i, hero in enumerate(HERO_PREFERENCE)}
    return min(choices, key=lambda c: rank.get(kind_of(str(c.args.get("hero", ""))), len(rank)))


def choose_powers(choices: list[Choice]) -> Choice:
    """The 3 starting powers (DN 3.2) with the most value."""
    return max(choices, key=lambda c: sum(power_value(p) for p in c.args.get("powers", [])))


def choose_fallen_item_taker(state: State, choices: list[Choice]) -> Choice:
    """A fallen bearer's relic goes to the hero likeliest to slay the Necromancer with it
    and live through the tries (DN 13.1, 15.1, 18.1); any other item to the one with the
    most grace."""
    decision = state.decision
    assert isinstance(decision, FallenItem)
    item = state.heroes[decision.hero].item(decision.item)
    relic = item is not None and item.kind == "holy_relic"

    def score(c: Choice) -> float:
        hero = state.heroes[str(c.args["to"])]
        return kill_chance(state, hero) + 0.1 * min(hero.grace, 3) if relic else hero.grace

    return max(choices, key=score)


def choose_hero_turn(state: State, choices: list[Choice]) -> Choice:
    """Who goes next (DN 6.0): a relic bearer last, so the others clear the Necromancer's
    blights before he fights (DN 18.1); otherwise those with the least secrecy first."""

    def key(c: Choice) -> tuple[int, int, int]:
        hero = state.heroes[c.args["hero"]]
        bearer = 1 if hero.relics() else 0
        at_necro = 0 if hero.location == state.necromancer else 1
        return bearer, at_necro, hero.secrecy

    return min(choices, key=key)


def choose_hero_decision(state: State, prompt: Prompt, rng: random.Random) -> Choice:
    """A hero seat's choice (DN 8.0, 12.0, 13.1 and the cards' own decisions)."""
    choices = list(prompt.choices)
    decision = state.decision
    kind = decision.kind if decision is not None else ""
    if kind == "action":
        return choose_action(state, choices, rng)
    if kind == "combat":
        return choose_combat(state, choices)
    if kind == "roll":
        return choose_roll(state, choices)
    if kind == "after_roll":
        rolled = decision.step if isinstance(decision, AfterRoll) else {}
        if rolled.get("successes", 1) == 0 and rolled.get("purpose") != "pray" and len(choices) > 1:
            return choices[1]
        return choices[0]
    if kind == "wound":
        return first(choices, "spend_grace") or choices[0]
    if kind == "next_hero":
        return choose_hero_turn(state, choices)
    if kind == "choose_hero":
        return choose_hero(choices)
    if kind == "choose_powers":
        return choose_powers(choices)
    if kind in ("supply_cache", "epiphany"):
        return max(choices, key=lambda c: power_value(str(c.args.get("power", ""))))
    if kind == "exhaust_power":
        return min(choices, key=lambda c: power_value(str(c.args.get("power", ""))))
    if kind == "search_choice":
        return choose_search_result(state, choices)
    if kind == "card_choice":
        return choose_card_option(state, choices)
    if kind in ("sacrifice", "destroy_blight_at"):
        return max(choices, key=lambda c: blight_harm(state, str(c.args.get("blight", ""))))
    if kind in ("attack_target", "hb_attack"):
        return choose_attack_target(state, choices)
    if kind == "hb_move":
        return choose_move_on(state, choices)
    if kind == "hb_pick_hero":
        return choose_hero_to_help(state, choices)
    if kind == "choose_blight_type":
        return min(choices, key=lambda c: blight_type_harm(str(c.args.get("type", c.label))))
    if kind == "fallen_item":
        return choose_fallen_item_taker(state, choices)
    if kind in ("mystery_pay", "quest_pay"):
        return choose_payment(state, choices)
    return choices[0]


# -- small decisions --------------------------------------------------------------------------


def choose_combat(state: State, choices: list[Choice]) -> Choice:
    """The best odds (DN 12.0); a tactic that costs grace or exhausts is kept for the fights
    that matter (the Necromancer, a wound at stake)."""
    assert isinstance(state.decision, Combat)
    step = state.decision.step
    hero = state.heroes[step["hero"]]
    stakes = step.get("vs") in ("necromancer", "attack") or any(
        e.get("op") == "wound" for e in step.get("fail", [])
    )
    rolls = [c for c in choices if c.type == "resolve_combat"]
    if not rolls:
        return choices[0]
    if step.get("vs") == "necromancer" and hero.relics():
        # only a fight can slay him or make him sacrifice a blight (DN 12.2)
        rolls = [c for c in rolls if c.args.get("approach") == "fight"] or rolls

    kill_shot = step.get("vs") == "necromancer" and hero.relics() and not state.blights.get(hero.location)

    def score(c: Choice) -> float:
        value = odds(c) / 100
        if "spend 1 grace" in c.detail and not kill_shot:
            value -= 0.2 if stakes and hero.grace >= 4 else 0.5
        return value

    return max(rolls, key=score)


def choose_roll(state: State, choices: list[Choice]) -> Choice:
    """Before a roll (DN 4.2): sparks and one-shot boosts go on the rolls that matter."""
    assert isinstance(state.decision, Roll)
    step = state.decision.step
    purpose = step.get("purpose")
    target = step.get("target") or 0
    roll = first(choices, "roll_dice")
    chance_now = odds(roll) if roll else 100
    vs = step.get("vs")
    hero = state.heroes[step["hero"]]
    crucial = (
        vs == "necromancer"
        and purpose == "fight"
        and not state.blights.get(hero.location)
        and bool(step.get("relic"))
    )
    wanted = purpose in ("fight", "elude", "search", "test") and target >= 4 and chance_now < 70
    for choice in choices:
        if choice.type == "use_boost" and "no longer active" not in choice.detail:
            return choice  # a lasting bonus costs nothing
    if crucial or (wanted and vs in ("attack", "mystery")):
        boost = first(choices, "use_boost")
        if boost is not None and (crucial or chance_now < 50):
            return boost
    if crucial or (wanted and not hero.relics()):  # a bearer keeps his sparks for the kill (DN 18.1)
        # Sparks until the odds reach 70%, all of them on a crucial roll (one choice each).
        sparks = [c for c in choices if c.type == "roll_dice" and c.args.get("sparks")]
        if sparks:
            return sparks[-1] if crucial else next((c for c in sparks if odds(c) >= 70), sparks[-1])
    return roll or choices[0]


def choose_search_result(state: State, choices: list[Choice]) -> Choice:
    """With several map cards, keep the best result (DN 8.0): clues first."""
    assert isinstance(state.decision, SearchChoice)
    hero = state.heroes[state.decision.hero]
    cards = load().map_cards

    def value(c: Choice) -> float:
        card = cards.get(str(c.args.get("card", "")))
        result = card.search.get(hero.location, "") if card else ""
        return RESULT_VALUE.get(result, 1.0)

    return max(choices, key=value)


def option_score(state: State, hero: Hero, option: dict[str, Any]) -> float:
    """A card's option (DN 7.0), in clue-tenths: darkness and blights hurt everyone."""
    score = 0.0
    for resource, n in option.get("cost", {}).items():
        if resource == "grace":
            score -= 6 * n + (20 if hero.grace - n < 1 else 0)
        elif resource == "secrecy":
            score -= 2 * n
        else:
            score -= 3 * n
    for effect in option.get("do", []):
        op = effect.get("op", "")
        n = int(effect.get("n", 1)) if isinstance(effect.get("n", 1), int) else 1
        if op == "wound":
            score -= 8 if hero.grace >= 2 else 40
        elif op == "create_blight":
            score -= 25
        elif op == "darkness":
            score -= 7 * n
        elif op == "lose_turn":
            score -= 8
        elif op == "exhaust_all_powers":
            score -= 4
        elif op == "lose_grace":
            score -= 6 * n
        elif op == "lose_secrecy":
            score -= 2 * n
        elif op in ("draw_power", "draw_artifact"):
            score += 5
        elif op == "gain_spark":
            score += 2 * n
        elif op == "gain_item":
            score += 2
        elif op == "clues":
            score += CLUE * n
        elif op == "fight":
            score -= 3
    return score


def choose_card_option(state: State, choices: list[Choice]) -> Choice:
    """An event's choice (DN 7.0): the option that costs the least."""
    decision = state.decision
    if not isinstance(decision, CardChoice):
        return choices[0]
    hero = state.heroes.get(decision.hero)
    options = decision.options
    if hero is None or not options:
        return choices[0]

    def score(c: Choice) -> float:
        index = c.args.get("option")
        if not isinstance(index, int) or index >= len(options):
            return -100.0
        return option_score(state, hero, options[index])

    return max(choices, key=score)


def choose_attack_target(state: State, choices: list[Choice]) -> Choice:
    """Attack the weakest blight (DN 12.1), a Shroud first since it guards the rest."""
    content = load()
    best: tuple[float, Choice] | None = None
    for c in choices:
        found = state.find_blight(str(c.args.get("blight", "")))
        if found is None:
            continue
        spec = content.blights[found[1].type]
        score = (
            -spec.might + (3 if spec.effect == "protects_here" else 0) + blight_harm(state, found[1].id) / 10
        )
        if best is None or score > best[0]:
            best = (score, c)
    return best[1] if best else choices[0]


def choose_move_on(state: State, choices: list[Choice]) -> Choice:
    """A second step (Hard Ride, Long Road): on if it brings the hero closer to the goal."""
    decision = state.decision
    hero = state.heroes.get(decision.hero) if isinstance(decision, HbMove) else None
    if hero is None:
        return first(choices, "stay") or choices[-1]
    goal = goal_location(state, hero)
    here = hero_distances(goal).get(hero.location, 9)
    moves = [c for c in choices if c.type == "move_to"]
    better = [c for c in moves if hero_distances(goal).get(c.args["to"], 9) < here]
    return better[0] if better else (first(choices, "stay") or choices[-1])


def choose_hero_to_help(state: State, choices: list[Choice]) -> Choice:
    """A power aimed at a hero: the one with the least grace."""
    picks = [c for c in choices if c.type == "pick_hero" and c.args.get("target") in state.heroes]
    if not picks:
        return choices[-1]
    return min(picks, key=lambda c: state.heroes[c.args["target"]].grace)


def choose_payment(state: State, choices: list[Choice]) -> Choice:
    """Pay a mystery or quest (DN 16.2, 17.3) unless it would leave the hero without grace."""
    decision = state.decision
    hero = state.heroes.get(decision.hero) if isinstance(decision, QuestPay | MysteryPay) else None
    for c in choices:
        if c.type != "pay":
            continue
        text = f"{c.label} {c.detail}".lower()
        if "clue" in text and "spend 2 clues" in text:
            continue
        if hero is not None and "grace" in text and hero.grace <= 2:
            continue
        return c
    return next((c for c in choices if c.type != "pay"), choices[-1])
