"""The effect vocabulary that card data is written in (DESIGN.md: effects are small named
functions). Each op is a step: ``{"op": "lose_secrecy", "n": 1}``; the engine adds the
``hero`` it applies to. Branching ops hold further effect lists."""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.decisions import AttackTarget, CardChoice
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.blights import attackable, blight_might, move_hero
from app.games.darkest_night.rules.common import (
    TRAVEL_SECRECY_CAP,
    can_spend,
    create_blight,
    gain,
    lose,
    lower_darkness,
    raise_darkness,
    spend,
)
from app.games.darkest_night.rules.items import gain_keys, give_item_from_stock
from app.games.darkest_night.rules.necromancer import move_necromancer
from app.games.darkest_night.rules.powers import default_grace, default_secrecy, set_power
from app.games.darkest_night.state import Hero, State
from app.kernel.types import Choice


def hero_of(ctx: Ctx, st: Step) -> Hero:
    return ctx.s.heroes[st["hero"]]


def cap_of(ctx: Ctx, hero: Hero, cap: Any, resource: str) -> int | None:
    """A cap written as a number, "default" (the hero's default) or absent (no limit)."""
    if cap is None:
        return None
    if cap == "default":
        return default_grace(ctx, hero) if resource == "grace" else default_secrecy(ctx, hero)
    if cap == "travel":
        return TRAVEL_SECRECY_CAP
    return int(cap)


def _why(st: Step, fallback: str) -> str:
    return str(st.get("why") or fallback)


@step("gain_grace", "cap", "hero", "n", "power", "why")
def gain_grace(ctx: Ctx, st: Step) -> None:
    """Gain ``n`` grace up to ``cap`` (DN 4.1)."""
    hero = hero_of(ctx, st)
    gain(
        ctx,
        hero,
        "grace",
        int(st.get("n", 1)),
        _why(st, "a card"),
        cap=cap_of(ctx, hero, st.get("cap"), "grace"),
    )


@step("lose_grace", "hero", "n", "power", "why")
def lose_grace(ctx: Ctx, st: Step) -> None:
    """Lose ``n`` grace, never below zero (DN 4.1)."""
    lose(ctx, hero_of(ctx, st), "grace", int(st.get("n", 1)), _why(st, "a card"))


@step("gain_secrecy", "cap", "hero", "n", "power", "to", "why")
def gain_secrecy(ctx: Ctx, st: Step) -> None:
    """Gain ``n`` secrecy up to ``cap`` (DN 4.1)."""
    hero = hero_of(ctx, st)
    gain(
        ctx,
        hero,
        "secrecy",
        int(st.get("n", 1)),
        _why(st, "a card"),
        cap=cap_of(ctx, hero, st.get("cap"), "secrecy"),
    )


@step("lose_secrecy", "hero", "n", "power", "why")
def lose_secrecy(ctx: Ctx, st: Step) -> None:
    """Lose ``n`` secrecy, never below zero (DN 4.1)."""
    lose(ctx, hero_of(ctx, st), "secrecy", int(st.get("n", 1)), _why(st, "a card"))


@step("gain_spark", "hero", "n", "power", "why")
def gain_spark(ctx: Ctx, st: Step) -> None:
    """Gain ``n`` sparks, at most 3 (DN 4.2)."""
    gain(ctx, hero_of(ctx, st), "sparks", int(st.get("n", 1)), _why(st, "a card"))


@step("lose_spark", "hero", "n", "power", "why")
def lose_spark(ctx: Ctx, st: Step) -> None:
    """Lose ``n`` sparks."""
    lose(ctx, hero_of(ctx, st), "sparks", int(st.get("n", 1)), _why(st, "a card"))


@step("darkness", "hero", "n", "power", "why")
def darkness(ctx: Ctx, st: Step) -> None:
    """Raise (or with a negative ``n`` lower) the darkness (DN 9.0)."""
    n = int(st.get("n", 1))
    if n >= 0:
        raise_darkness(ctx, n, _why(st, "a card"))
    else:
        lower_darkness(ctx, -n, _why(st, "a card"))


@step("clues", "hero", "mystery", "n", "power", "why")
def clues(ctx: Ctx, st: Step) -> None:
    """Gain clues; without mysteries, a die per clue and a key per 5–6 (DN 20.5)."""
    n = int(st.get("n", 1))
    if ctx.s.options.get("no_mysteries") and n > 0:
        faces = [ctx.rng.randint(1, 6) for _ in range(n)]
        keys = sum(1 for f in faces if f >= 5)
        ctx.emit(
            "DiceRolled",
            hero=st.get("hero"),
            purpose="keys",
            dice=n,
            target=5,
            faces=faces,
            kept=faces,
            successes=keys,
            relic=False,
            terror=False,
            sources=[],
        )
        gain_keys(ctx, st.get("hero"), keys, _why(st, "clues turned to keys (DN 20.5)"))
        return
    ctx.emit("CluesChanged", to=max(0, ctx.s.clues + n), by=n, why=_why(st, "a card"))


@step("keys", "n", "hero", "power", "why")
def keys(ctx: Ctx, st: Step) -> None:
    """Gain ``n`` keys, items the hero carries (playing without mysteries, DN 20.5)."""
    n = int(st.get("n", 1))
    if n < 0:
        ctx.emit("KeysChanged", to=max(0, ctx.s.keys + n), by=n, why=_why(st, "a card"))
        return
    gain_keys(ctx, st.get("hero"), n, _why(st, "a card"))


@step("create_blight", "hero", "power", "where", "why")
def create_blight_op(ctx: Ctx, st: Step) -> None:
    """``where``: "here" (the hero's location, default), "necromancer", or a location."""
    where = st.get("where", "here")
    if where == "here":
        where = hero_of(ctx, st).location
    elif where == "necromancer":
        where = ctx.s.necromancer
    create_blight(ctx, where, why=_why(st, "a card"))


@step("nothing")
def nothing(ctx: Ctx, st: Step) -> None:
    """An effect that changes nothing (kept so a card's text and data line up)."""


@step("by_secrecy", "cases", "hero", "power", "why")
def by_secrecy(ctx: Ctx, st: Step) -> None:
    """Cases by the hero's secrecy: ``cases = [{min, max, do}]`` (e.g. Dead Servant, DN 7.0)."""
    branch(ctx, st, hero_of(ctx, st).secrecy)


@step("by_darkness", "cases", "hero", "power", "why")
def by_darkness(ctx: Ctx, st: Step) -> None:
    """Cases by the darkness (events grow worse as it rises, DN 7.0)."""
    branch(ctx, st, ctx.s.darkness)


@step("by_blights_here", "cases", "hero", "power", "why")
def by_blights_here(ctx: Ctx, st: Step) -> None:
    """Cases by the number of blights at the hero's location, a Void counting as 2
    (DN 7.0 with the Void's text: Demon, Watchers, Dark Discharge)."""
    branch(ctx, st, ctx.s.blight_count(hero_of(ctx, st).location))


@step("by_grace", "cases", "hero", "power", "why")
def by_grace(ctx: Ctx, st: Step) -> None:
    """Cases by the hero's grace."""
    branch(ctx, st, hero_of(ctx, st).grace)


def branch(ctx: Ctx, st: Step, value: int) -> None:
    for case in st["cases"]:
        if int(case.get("min", -99)) <= value <= int(case.get("max", 999)):
            ctx.then(case.get("do", ()), hero=st["hero"])
            return


@step("if_necromancer_here", "do", "else", "hero", "power", "why")
def if_necromancer_here(ctx: Ctx, st: Step) -> None:
    """``do`` if the Necromancer is at the hero's location, else ``else``."""
    here = ctx.s.necromancer == hero_of(ctx, st).location
    ctx.then(st.get("do" if here else "else", ()), hero=st["hero"])


@step("if_monastery", "do", "else", "hero", "power", "why")
def if_monastery(ctx: Ctx, st: Step) -> None:
    """``do`` if the hero is in the Monastery, else ``else``."""
    here = hero_of(ctx, st).location == "Monastery"
    ctx.then(st.get("do" if here else "else", ()), hero=st["hero"])


@step("each_hero_here", "do", "hero", "power", "why")
def each_hero_here(ctx: Ctx, st: Step) -> None:
    """Apply ``do`` to every hero at this hero's location (this hero first)."""
    hero = hero_of(ctx, st)
    others = [h for h in ctx.s.heroes_at(hero.location) if h.id != hero.id]
    steps: list[Step] = []
    for target in [hero, *others]:
        steps += [dict(e) | {"hero": target.id} for e in st.get("do", ())]
    ctx.then(steps)


@step("each_hero", "do", "hero", "power", "why")
def each_hero(ctx: Ctx, st: Step) -> None:
    """Apply ``do`` to every living hero."""
    steps: list[Step] = []
    for target in ctx.s.living():
        steps += [dict(e) | {"hero": target.id} for e in st.get("do", ())]
    ctx.then(steps)


@step("roll_test", "dice", "fail", "hero", "per_success", "power", "roll", "target", "why", "win")
def roll_test(ctx: Ctx, st: Step) -> None:
    """A roll outside combat: ``dice`` vs ``target``; ``win``/``fail`` effects; ``per_success``."""
    ctx.then(
        [
            {
                "op": "roll",
                "hero": st["hero"],
                "purpose": st.get("roll", "test"),
                "target": int(st["target"]),
                "base": int(st.get("dice", 1)),
                "then": {
                    "op": "roll_test_result",
                    "win": st.get("win", []),
                    "fail": st.get("fail", []),
                    "per_success": st.get("per_success", []),
                },
            }
        ]
    )


@step("roll_test_result", "faces", "fail", "hero", "kept", "per_success", "successes", "win")
def roll_test_result(ctx: Ctx, st: Step) -> None:
    steps = list(st["win"] if st["successes"] else st["fail"])
    for _ in range(st["successes"]):
        steps += list(st.get("per_success", []))
    ctx.then(steps, hero=st["hero"])


@step("fight", "allow", "awareness", "fail", "foe", "hero", "power", "strength", "vs", "why", "win")
def fight(ctx: Ctx, st: Step) -> None:
    """A combat written on a card: ``foe`` (a name in enemies.toml, or stats given here),
    ``win`` and ``fail`` effects, optionally only ``allow = ["elude"]``."""
    foe_name = st["foe"]
    known = ctx.c.foes.get(foe_name)
    strength = st.get("strength", known.strength if known else None)
    awareness = st.get("awareness", known.awareness if known else None)
    ctx.then(
        [
            {
                "op": "combat",
                "hero": st["hero"],
                "vs": st.get("vs", "event"),
                "foe": {"name": foe_name, "strength": strength or None, "awareness": awareness or None},
                "win": list(st.get("win", [])),
                "fail": list(st.get("fail", [])),
                "allow": list(st.get("allow", ["fight", "elude"])),
                "why": st.get("why", foe_name),
            }
        ]
    )


@step("choose", "hero", "options", "power", "title", "why")
def choose(ctx: Ctx, st: Step) -> None:
    """A choice a card gives the player: ``options = [{label, do, cost?}]``; an option
    with a cost the hero cannot pay is not offered (DN 4.1)."""
    hero = hero_of(ctx, st)
    offered = [i for i, o in enumerate(st["options"]) if affordable(hero, o.get("cost", {}))]
    if not offered:
        return
    if len(offered) == 1:
        resolve_option(ctx, hero, st["options"][offered[0]])
        return
    ctx.ask(
        CardChoice(
            seat=hero.seat,
            hero=hero.id,
            options=st["options"],
            offered=offered,
            title=st.get("title", "Choose"),
        )
    )


def affordable(hero: Hero, cost: dict[str, int]) -> bool:
    return all(can_spend(hero, res, n) for res, n in cost.items())


def resolve_option(ctx: Ctx, hero: Hero, option: dict[str, Any]) -> None:
    for res, n in option.get("cost", {}).items():
        spend(ctx, hero, res, n, option["label"])
    ctx.then(option.get("do", ()), hero=hero.id)


def card_choice_choices(s: State, d: CardChoice) -> list[Choice]:
    return [
        Choice("choose_option", {"option": i}, d.options[i]["label"], d.options[i].get("detail", ""))
        for i in d.offered
    ]


@decision(CardChoice, card_choice_choices)
def resolve_card_choice(ctx: Ctx, d: CardChoice, _t: str, args: dict[str, Any]) -> None:
    resolve_option(ctx, ctx.s.heroes[d.hero], d.options[args["option"]])


@step("spend_or", "else", "else_label", "hero", "n", "power", "resource", "title", "why")
def spend_or(ctx: Ctx, st: Step) -> None:
    """ "Spend N of a resource or suffer X": offered as a choice when the hero can pay."""
    hero = hero_of(ctx, st)
    cost = {st["resource"]: int(st.get("n", 1))}
    ctx.then(
        [
            {
                "op": "choose",
                "hero": hero.id,
                "title": st.get("title", "Pay or suffer"),
                "options": [
                    {"label": f"Spend {st.get('n', 1)} {st['resource']}", "cost": cost, "do": []},
                    {"label": st.get("else_label", "Suffer the consequence"), "do": st.get("else", [])},
                ],
            }
        ]
    )


@step("gain_item", "hero", "kind", "power", "why")
def gain_item(ctx: Ctx, st: Step) -> None:
    """Take an item token from the stock; if none is left, any green-backed item (DN 16.2)."""
    give_item_from_stock(ctx, hero_of(ctx, st), st["kind"], _why(st, "a card"))


@step("move_hero", "hero", "power", "to", "why")
def move_hero_op(ctx: Ctx, st: Step) -> None:
    """Move the hero: ``to`` a location, "necromancer", or "monastery"."""
    hero = hero_of(ctx, st)
    to = st.get("to", "Monastery")
    if to == "necromancer":
        to = ctx.s.necromancer
    move_hero(ctx, hero, to, _why(st, "a card"))


@step("move_necromancer", "hero", "power", "to", "why")
def move_necromancer_op(ctx: Ctx, st: Step) -> None:
    """Move the Necromancer: ``to`` "here" (the hero's location) or a location."""
    to = st.get("to", "here")
    if to == "here":
        to = hero_of(ctx, st).location
    move_necromancer(ctx, to, _why(st, "a card"))


@step("flag_turn", "flag", "hero", "power", "why")
def flag_turn(ctx: Ctx, st: Step) -> None:
    """Mark the hero for the rest of this turn (``flag`` names a rule hook, e.g.
    ``safe_from_wounds``)."""
    ctx.emit("HeroFlagged", hero=st["hero"], flag="turn:" + st["flag"], value=_why(st, "a card"))


@step("ignore_blights", "hero", "power", "why")
def ignore_blights(ctx: Ctx, st: Step) -> None:
    """The hero ignores blights' effects for the rest of the turn (Cursed Ashes)."""
    ctx.emit("HeroFlagged", hero=st["hero"], flag="ignore_blights", value=True)


@step("exhaust_this", "hero", "power", "why")
def exhaust_this(ctx: Ctx, st: Step) -> None:
    """Exhaust the power whose effect this is."""
    if st.get("power"):
        set_power(ctx, hero_of(ctx, st), st["power"], exhausted=True, why="its own effect")


@step("auto_search", "hero", "power", "why")
def auto_search(ctx: Ctx, st: Step) -> None:
    """Take the search result here without rolling, as one success (Dowse, DN 14.1)."""
    ctx.then([{"op": "search_result", "hero": st["hero"], "successes": 1}])


@step("attack_with", "dice", "hero", "power", "why")
def attack_with(ctx: Ctx, st: Step) -> None:
    """Attack a blight here with the dice this power gives (choose which if several)."""
    hero = hero_of(ctx, st)
    targets, _ = attackable(ctx, hero)
    if not targets:
        return
    if len(targets) == 1:
        ctx.then([attack_step(ctx, hero, targets[0][0], st)])
        return
    ctx.ask(
        AttackTarget(
            seat=hero.seat,
            hero=hero.id,
            blights=[t[0] for t in targets],
            dice=int(st["dice"]),
            power=st.get("power"),
        )
    )


def attack_step(ctx: Ctx, hero: Hero, blight_id: str, st: dict[str, Any]) -> Step:
    found = ctx.s.find_blight(blight_id)
    assert found is not None
    blight = found[1]
    return {
        "op": "combat",
        "hero": hero.id,
        "vs": "attack",
        "allow": ["fight"],
        "dice": int(st["dice"]),
        "power": st.get("power"),
        "foe": {"name": blight.type, "strength": blight_might(ctx, blight.type), "awareness": None},
        "win": [{"op": "destroy_blight", "blight": blight.id, "why": "attacked"}],
        "fail": [
            dict(e) | {"why": f"the {blight.type}'s defense"} for e in ctx.c.blights[blight.type].defense
        ],
        "why": f"attacking the {blight.type}",
    }


def attack_target_choices(s: State, d: AttackTarget) -> list[Choice]:
    out = []
    for blight_id in d.blights:
        found = s.find_blight(blight_id)
        if found:
            out.append(Choice("attack_target", {"blight": blight_id}, f"Attack the {found[1].type}"))
    return out


@decision(AttackTarget, attack_target_choices)
def resolve_attack_target(ctx: Ctx, d: AttackTarget, _t: str, args: dict[str, Any]) -> None:
    ctx.then([attack_step(ctx, ctx.s.heroes[d.hero], args["blight"], {"dice": d.dice, "power": d.power})])
