"""The action step (DN 8.0): one action, free actions before or after it, none required.

Every standard action is offered when the rules allow it, and listed with the reason and
the rule when they do not ("search — the Monastery cannot be searched, DN 19.2")."""

from __future__ import annotations

from functools import cache, partial
from typing import Any

from app.games.darkest_night.content import MONASTERY
from app.games.darkest_night.decisions import Action
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.blights import attackable, move_hero
from app.games.darkest_night.rules.cards import placed_actions, run_placed_action
from app.games.darkest_night.rules.common import (
    NECROMANCER_STRENGTH,
    TRAVEL_SECRECY_CAP,
    automatic,
    blight_param_total,
    gain,
    hero_name,
    spend,
)
from app.games.darkest_night.rules.dice import chance, relic_adds, roll_dice_count, terror_here
from app.games.darkest_night.rules.items import keys_available, relic_cost, relic_limit, spend_keys
from app.games.darkest_night.rules.ops import attack_step
from app.games.darkest_night.rules.powers import (
    artifacts_work,
    attack_way,
    bonus_mods,
    carried_powers,
    default_grace,
    dice_bonus,
    note_use,
    refresh_all,
    set_power,
    spec,
)
from app.games.darkest_night.rules.stakes import (
    blight_dice_sources,
    dice_word,
    effects_text,
    extras_text,
    sources_text,
)
from app.games.darkest_night.state import Hero, State
from app.kernel.flow.memo import explained, published_memo
from app.kernel.types import Choice, Unavailable

PRAY_TARGET = 3
PRAY_DICE = 2


@step("action_step", "hero", "taken")
def action_step(ctx: Ctx, st: Step) -> None:
    """Ask the hero for an action (DN 8.0); ``taken`` once the one action is used."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead:
        return
    d = Action(seat=hero.seat, hero=hero.id, taken=bool(st.get("taken")))
    if d.taken and not card_actions(ctx, hero, main=False)[1]:
        # The action is taken and no free action is left, so ending the step would be the
        # only choice (``list_action_options``): nothing to ask (DN 8.0).
        ctx.emit("ActionStepEnded", hero=hero.id)
        automatic(ctx, hero.id, f"{hero_name(ctx, hero.id)} has no free action left: the action step ends")
        return
    ctx.ask(d)


def search_difficulty(ctx: Ctx, hero: Hero) -> int:
    """The location's difficulty, +2 per Dark Fog there, +1 per Enigma anywhere (DN 11.2)."""
    base = ctx.c.locations[hero.location].search
    return (
        base
        + blight_param_total(ctx, "search_difficulty", hero.location, hero=hero)
        + blight_param_total(ctx, "search_difficulty_everywhere", hero.location, hero=hero)
    )


def action_options(s: State, d: Action) -> tuple[list[Choice], list[Unavailable]]:
    """The choices and what is unavailable, listed once per published state (prompts asks
    for both, and each needs the whole list; see ``reading``)."""
    memo = published_memo(s)
    if memo is None:
        return list_action_options(s, d)
    known = memo.get("action_options")
    if known is None or known[0] is not d:
        known = memo["action_options"] = (d, list_action_options(s, d))
    choices, unavailable = known[1]
    return list(choices), list(unavailable)


def list_action_options(s: State, d: Action) -> tuple[list[Choice], list[Unavailable]]:
    ctx = Ctx.reader(s)
    hero = s.heroes[d.hero]
    here = hero.location
    choices: list[Choice] = []
    unavailable: list[Unavailable] = []
    main_ok = not d.taken
    if main_ok:
        choices.extend(map(travel_choice, ctx.c.locations[here].adjacent))
        choices.append(HIDE)
        can_pray = here == MONASTERY or any(m["op"] == "can_pray" for m in bonus_mods(ctx, hero))
        if can_pray:
            choices.append(explained(s, "pray", {}, "Pray", partial(pray_detail, ctx, hero)))
        if here == MONASTERY:
            unavailable.append(NO_SEARCH_HERE)
        else:
            choices.append(explained(s, "search", {}, "Search", partial(search_detail, ctx, hero)))
            if not can_pray:
                unavailable.append(NO_PRAYER_HERE)
        choices.append(meditate_choice(hero.sparks))
        targets, blocked = attackable(ctx, hero)
        for blight_id, blight_type, might in targets:
            detail = partial(attack_detail, ctx, hero, blight_type, might)
            choices.append(explained(s, "attack", {"blight": blight_id}, f"Attack the {blight_type}", detail))
        for why in blocked:
            unavailable.append(Unavailable("attack", "Attack", why, "DN 11.2"))
        if not s.blights.get(here):
            unavailable.append(NO_BLIGHT_HERE)
        if s.necromancer == here and here != MONASTERY:
            detail = partial(necromancer_attack_detail, ctx, hero)
            choices.append(explained(s, "attack_necromancer", {}, "Attack the Necromancer", detail))
        resource, cost = relic_cost(s)
        have = keys_available(s, hero) if resource == "keys" else s.clues
        if s.relics.get(here) == "undiscovered":
            if have < cost:
                unavailable.append(
                    Unavailable(
                        "retrieve_relic",
                        "Retrieve the Holy Relic",
                        f"it costs {cost} {resource}; you have {have}",
                        "DN 8.0",
                    )
                )
            elif hero.relics() >= relic_limit(hero):
                unavailable.append(
                    Unavailable(
                        "retrieve_relic",
                        "Retrieve the Holy Relic",
                        "you already carry as many relics as you may",
                        "DN 15.2",
                    )
                )
            else:
                choices.append(
                    Choice(
                        "retrieve_relic", {}, "Retrieve the Holy Relic", f"spend {cost} {resource} (DN 8.0)"
                    )
                )
    main_actions, free_actions = card_actions(ctx, hero, main=main_ok)
    choices.extend(main_actions)
    choices.extend(free_actions)
    choices.append(TAKE_NO_ACTION if main_ok else END_ACTION_STEP)
    return choices, unavailable


def pray_detail(ctx: Ctx, hero: Hero) -> str:
    """A prayer's dice, odds and stakes (DN 8.0)."""
    dice = roll_dice_count(ctx, hero, "pray", PRAY_DICE, {})
    odds = chance(dice, PRAY_TARGET)
    sources = sources_text([("base", PRAY_DICE), *dice_bonus(ctx, hero, "pray", {})])
    return (
        f"{dice_word(dice)} vs {PRAY_TARGET} ({sources}): +1 grace per success up to "
        f"{default_grace(ctx, hero)}, then refresh your powers — {odds:.0%}; "
        "fail: no grace, your powers still refresh"
    )


def search_detail(ctx: Ctx, hero: Hero) -> str:
    """A search's dice, difficulty (raised by blights, DN 11.2), odds and stakes (DN 8.0)."""
    here = hero.location
    difficulty = search_difficulty(ctx, hero)
    dice = roll_dice_count(ctx, hero, "search", 1, {})
    sources = sources_text([("base", 1), *dice_bonus(ctx, hero, "search", {})])
    raised = difficulty - ctx.c.locations[here].search
    if raised:
        sources += f"; the {here}'s {ctx.c.locations[here].search}, blights +{raised} (DN 11.2)"
    return (
        f"{dice_word(dice)} vs {difficulty} ({sources}) — "
        f"{chance(dice, difficulty):.0%}; a map card per success, keep one result; "
        "fail: nothing found"
    )


def attack_detail(ctx: Ctx, hero: Hero, blight_type: str, might: int) -> str:
    """An attack on a blight: the fight's dice and their sources, the odds, the stakes (DN 8.0, 12.1)."""
    defense = effects_text(ctx.c.blights[blight_type].defense, none="no defense")
    return (
        f"fight: {fight_odds(ctx, hero, 'attack', might, 'might ')}; win: it is destroyed; "
        f"fail: {defense}; −1 secrecy either way (DN 8.0, 12.1)"
    )


def necromancer_attack_detail(ctx: Ctx, hero: Hero) -> str:
    """Attacking the Necromancer (DN 8.0, 12.2): a fight only, against his strength 7, with
    its dice, their sources and the odds as every roll states them; a Holy Relic's +1 to
    the highest die is the only way most heroes reach 7 (DN 15.2)."""
    odds = fight_odds(ctx, hero, "necromancer", NECROMANCER_STRENGTH)
    if not relic_adds(ctx, hero):
        odds += ": only a Holy Relic's +1 reaches 7"
    return (
        f"fight only: {odds}; win: he sacrifices a blight here, or with none a relic slays him; "
        "fail: a wound; −1 secrecy either way (DN 8.0, 12.2)"
    )


def fight_odds(ctx: Ctx, hero: Hero, vs: str, target: int, named: str = "") -> str:
    """ "3 dice vs 5 (Skewer 2 dice, Battle Cry +1) — 70% with Skewer": the hero's own attack
    fought the way it will be when only one is worth taking (``powers.attack_way``), else
    with no tactic (the way is then asked); a Holy Relic's +1 and Terror as the roll
    takes them (DN 12.0, 15.2, 11.2)."""
    _, power_id, option = attack_way(ctx, hero, vs)
    base = int(option.get("dice", 1))
    sources = [(spec(ctx, power_id).name if power_id else "base", base)]
    sources += dice_bonus(ctx, hero, "fight", {"vs": vs})
    sources += blight_dice_sources(ctx, hero, "fight")
    dice = max(1, sum(n for _, n in sources))
    relic, terror = relic_adds(ctx, hero), terror_here(ctx, hero)
    odds = chance(dice, target, relic=relic, terror=terror)
    how = f"with {spec(ctx, power_id).name}" if power_id else "with no tactic"
    return (
        f"{dice_word(dice)} vs {named}{target} ({sources_text(sources)}{extras_text(relic, terror)})"
        f" — {odds:.0%} {how}"
    )


@cache
def meditate_choice(sparks: int) -> Choice:
    """Meditate, for a hero with ``sparks`` (made once per number)."""
    return Choice(
        "meditate",
        {},
        "Meditate",
        f"gain a spark ({sparks}/3)" if sparks < 3 else "you already have 3 sparks",
    )


@cache
def travel_choice(dest: str) -> Choice:
    """Travel to ``dest`` (the same choice wherever it is offered: made once per place)."""
    return Choice(
        "travel", {"to": dest}, f"Travel to the {dest}", f"+1 secrecy (up to {TRAVEL_SECRECY_CAP}, DN 8.0)"
    )


# The action step's choices and refusals that say the same every time (made once; a
# choice's arguments are only ever read).
HIDE = Choice("hide", {}, "Hide", "refresh your powers, +1 secrecy (up to 5)")
TAKE_NO_ACTION = Choice("end_action", {}, "Take no action", "you need not act (DN 8.0)")
END_ACTION_STEP = Choice("end_action", {}, "End your action step", "")
NO_SEARCH_HERE = Unavailable("search", "Search", "the Monastery cannot be searched", "DN 19.2")
NO_PRAYER_HERE = Unavailable("pray", "Pray", "only in the Monastery", "DN 8.0")
NO_BLIGHT_HERE = Unavailable("attack", "Attack a blight", "there is no blight here", "DN 8.0")


def card_actions(ctx: Ctx, hero: Hero, *, main: bool) -> tuple[list[Choice], list[Choice]]:
    """Action effects of powers (DN 14.0), quests here (DN 16.2) and mysteries here (DN 17.3):
    those that are the hero's action (only if ``main``: the action is still to take) and the
    free actions, in one pass over the hero's powers."""
    main_out: list[Choice] = []
    free_out: list[Choice] = []
    for power in carried_powers(hero, artifacts_work(ctx)):
        action = spec(ctx, power.id).action
        if not action or power.exhausted:
            continue
        free = bool(action.get("free"))
        if not (free or main):
            continue
        if hero.turns_per_round == 2 and hero.last_action_power == power.id:
            continue  # the dual-class action limit (DN 20.2.3)
        if free and power.id in hero.free_actions:
            continue
        cost = action.get("cost", {})
        if any(getattr(hero, res) < n for res, n in cost.items()):
            continue
        if not action_condition(ctx, hero, action):
            continue
        out = free_out if free else main_out
        for args, label in action_targets(ctx, hero, power.id, action):
            out.append(Choice("power_action", {"power": power.id, **args}, label, spec(ctx, power.id).text))
    if main:
        main_out.extend(placed_actions(ctx, hero))
    return main_out, free_out


def action_condition(ctx: Ctx, hero: Hero, action: dict[str, Any]) -> bool:
    where = action.get("where")
    if where == "monastery" and hero.location != MONASTERY:
        return False
    if where == "not_monastery" and hero.location == MONASTERY:
        return False
    if where == "necromancer" and ctx.s.necromancer != hero.location:
        return False
    if where == "quest" and not any(q.location == hero.location for q in ctx.s.quests):
        return False
    if any(hero.power(p) is not None and hero.power(p).active for p in action.get("unless_active", ())):
        return False  # e.g. no new Oath while one is sworn
    return not (action.get("needs_blight") and not attackable(ctx, hero)[0])


def action_targets(
    ctx: Ctx, hero: Hero, power_id: str, action: dict[str, Any]
) -> list[tuple[dict[str, Any], str]]:
    name = spec(ctx, power_id).name
    target = action.get("target")
    if target == "hero_here":
        return [
            ({"target": f"hero:{h.id}"}, f"{name} on {hero_name(ctx, h.id)}")
            for h in ctx.s.heroes_at(hero.location)
        ]
    if target == "any_hero":
        return [({"target": f"hero:{h.id}"}, f"{name} on {hero_name(ctx, h.id)}") for h in ctx.s.living()]
    if target == "location_here":
        return [({"target": f"loc:{hero.location}"}, f"{name} in the {hero.location}")]
    if target == "adjacent":
        return [({"to": x}, f"{name} to the {x}") for x in ctx.c.locations[hero.location].adjacent]
    if target == "blight_here":
        return [
            ({"target": f"blight:{b.id}"}, f"{name} on the {b.type}")
            for b in ctx.s.blights.get(hero.location, [])
        ]
    power = hero.power(power_id)
    if action.get("toggle") and power is not None and power.active:
        return [({}, f"{name} (deactivate)")]
    return [({}, name)]


def action_choices(s: State, d: Action) -> list[Choice]:
    return action_options(s, d)[0]


def action_unavailable(s: State, d: Action) -> list[Unavailable]:
    return action_options(s, d)[1]


@decision(Action, action_choices, unavailable=action_unavailable)
def resolve_action(ctx: Ctx, d: Action, type_: str, args: dict[str, Any]) -> None:
    hero = ctx.s.heroes[d.hero]
    if type_ == "end_action":
        ctx.emit("ActionStepEnded", hero=hero.id)
        return
    free = type_ == "power_action" and bool(spec(ctx, args["power"]).action.get("free"))
    ctx.emit("ActionTaken", hero=hero.id, action=type_, args=args, free=free)
    if free:
        ctx.emit(
            "HeroChanged",
            hero=hero.id,
            stat="free_actions",
            to=[*hero.free_actions, args["power"]],
            by=0,
            why="a free action (DN 8.0)",
        )
    elif hero.turns_per_round == 2:
        last = args["power"] if type_ == "power_action" else None
        ctx.emit(
            "HeroChanged",
            hero=hero.id,
            stat="last_action_power",
            to=last,
            by=0,
            why="dual-class action limit (DN 20.2.3)",
        )
    # Afterwards the step stays open for free actions (DN 8.0); the action's own steps,
    # scheduled next, come first.
    ctx.then([{"op": "action_step", "hero": hero.id, "taken": d.taken or not free}])
    ACTIONS[type_](ctx, hero, args)


def travel(ctx: Ctx, hero: Hero, args: dict[str, Any]) -> None:
    """Travel: move to an adjacent location, +1 secrecy up to 5 (DN 8.0)."""
    move_hero(ctx, hero, args["to"], "travel")
    gain(ctx, hero, "secrecy", 1, "travelling (DN 8.0)", cap=TRAVEL_SECRECY_CAP)


def hide(ctx: Ctx, hero: Hero, _: dict[str, Any]) -> None:
    """Hide: refresh all powers, then +1 secrecy up to 5 (DN 8.0)."""
    refresh_all(ctx, hero, "hiding (DN 8.0)")
    gain(ctx, hero, "secrecy", 1, "hiding (DN 8.0)", cap=TRAVEL_SECRECY_CAP)


def meditate(ctx: Ctx, hero: Hero, _: dict[str, Any]) -> None:
    gain(ctx, hero, "sparks", 1, "meditating (DN 8.0)")


def pray(ctx: Ctx, hero: Hero, _: dict[str, Any]) -> None:
    """Pray: 2 dice vs 3, +1 grace per success up to default, then refresh (DN 8.0)."""
    ctx.then([pray_roll(hero.id)])


def pray_roll(hero_id: str) -> Step:
    """The prayer's roll, wherever a hero prays (the Monastery, a Chapel, a mystery)."""
    return {
        "op": "roll",
        "hero": hero_id,
        "purpose": "pray",
        "target": PRAY_TARGET,
        "base": PRAY_DICE,
        "then": {"op": "prayed"},
    }


@step("prayed", "faces", "hero", "kept", "successes")
def prayed(ctx: Ctx, st: Step) -> None:
    """After the prayer's roll: +1 grace per success up to default, then refresh (DN 8.0)."""
    hero = ctx.s.heroes[st["hero"]]
    gain(ctx, hero, "grace", st["successes"], "praying (DN 8.0)", cap=default_grace(ctx, hero))
    refresh_all(ctx, hero, "praying (DN 8.0)")


def search(ctx: Ctx, hero: Hero, _: dict[str, Any]) -> None:
    """Search: dice vs the difficulty; a map card per success (DN 8.0)."""
    ctx.then(
        [
            {
                "op": "roll",
                "hero": hero.id,
                "purpose": "search",
                "target": search_difficulty(ctx, hero),
                "base": 1,
                "then": {"op": "search_result"},
            }
        ]
    )


def attack(ctx: Ctx, hero: Hero, args: dict[str, Any]) -> None:
    """Attack a blight here: fight vs its might; win destroys it, failing suffers its
    defense; lose 1 secrecy either way (DN 8.0, 12.1)."""
    step_ = attack_step(ctx, hero, args["blight"], {"dice": 1})
    del step_["dice"], step_["power"]
    ctx.then([step_])


def attack_necromancer(ctx: Ctx, hero: Hero, _: dict[str, Any]) -> None:
    ctx.then([{"op": "battle_necromancer", "hero": hero.id, "attack": True}])


def retrieve_relic(ctx: Ctx, hero: Hero, _: dict[str, Any]) -> None:
    """Spend 10 clues for the undiscovered Holy Relic here (DN 8.0, 20.2.1, 20.5)."""
    resource, cost = relic_cost(ctx.s)
    if resource == "keys":
        spend_keys(ctx, hero, cost, "retrieving a Holy Relic (DN 20.5)")
    else:
        ctx.emit("CluesChanged", to=ctx.s.clues - cost, by=-cost, why="retrieving a Holy Relic")
    ctx.emit("RelicRetrieved", hero=hero.id, location=hero.location, item=f"i{ctx.s.next_item}")


def power_action(ctx: Ctx, hero: Hero, args: dict[str, Any]) -> None:
    """A power's action (DN 14.0): pay, maybe exhaust or (de)activate, then its effects."""
    power_id = args["power"]
    action = spec(ctx, power_id).action or {}
    name = spec(ctx, power_id).name
    note_use(ctx, hero, power_id)
    for resource, n in action.get("cost", {}).items():
        spend(ctx, hero, resource, n, name)
    if action.get("exhaust"):
        set_power(ctx, hero, power_id, exhausted=True, why=f"used {name}")
    power = hero.power(power_id)
    if action.get("toggle") and power is not None and power.active:
        set_power(ctx, hero, power_id, active=False, target=None, why=f"{name} ended")
        return
    if action.get("activate"):
        for other in action.get("deactivates", ()):
            if hero.power(other) is not None and hero.power(other).active:
                set_power(ctx, hero, other, active=False, target=None, why=f"{name} replaces it")
        set_power(ctx, hero, power_id, active=True, target=args.get("target"), why=f"activated {name}")
    steps = [
        dict(e) | {"hero": hero.id, "power": power_id} | pick_args(args) for e in action.get("effects", ())
    ]
    ctx.then(steps)


def pick_args(args: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in args.items() if k in ("to", "target")}


ACTIONS = {
    "travel": travel,
    "hide": hide,
    "meditate": meditate,
    "pray": pray,
    "search": search,
    "attack": attack,
    "attack_necromancer": attack_necromancer,
    "retrieve_relic": retrieve_relic,
    "power_action": power_action,
    "quest_action": run_placed_action,
    "mystery_action": run_placed_action,
}
