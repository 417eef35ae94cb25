"""Dice rolls (DN 5.0) and combat (DN 12.0): fight or elude, one tactic, sparks before the
roll (DN 4.2), a Holy Relic's +1 to the highest fight die (DN 15.2), items after it,
pulling punches (DN 12.3), wounds and death (DN 13.1, 13.5)."""

from __future__ import annotations

from functools import cache, partial
from math import comb
from typing import Any

from app.games.darkest_night.content import MONASTERY
from app.games.darkest_night.decisions import (
    COMBAT,
    ROLL,
    ROLLED,
    ROLLING,
    AfterRoll,
    Combat,
    FallenItem,
    Roll,
    Wound,
)
from app.games.darkest_night.engine import Ctx, Step, decision, explained, step
from app.games.darkest_night.rules.common import (
    automatic,
    blight_effect_active,
    blight_param_total,
    can_spend,
    hero_name,
    raise_darkness,
    roll_dice,
    spend,
)
from app.games.darkest_night.rules.items import can_receive, item_name, relic_limit
from app.games.darkest_night.rules.powers import (
    boosts,
    default_grace,
    dice_bonus,
    note_use,
    set_power,
    spec,
    tactics_by_approach,
)
from app.games.darkest_night.rules.stakes import (
    blight_dice_sources,
    combat_stakes,
    dice_word,
    extras_text,
    roll_stakes,
    sources_text,
)
from app.games.darkest_night.state import Hero, Item, State
from app.kernel.types import Choice

ROLL_NAMES = {"fight": "fight", "elude": "elude", "search": "search", "pray": "pray"}


def foe_label(foe: dict[str, Any]) -> str:
    s = foe.get("strength")
    a = foe.get("awareness")
    return f"{foe['name']} ({s if s else '–'} strength, {a if a else '–'} awareness)"


def chance(dice: int, target: int, *, relic: bool = False, terror: bool = False, need: int = 1) -> float:
    """The chance that a roll succeeds: at least ``need`` dice reach ``target`` (DN 5.0).
    A relic adds 1 to the highest die (DN 15.2); Terror adds a die and drops the highest."""
    key = (dice, target, relic, terror, need)
    known = _CHANCES.get(key)
    if known is None:
        known = _CHANCES[key] = _chance(dice, target, relic, terror, need)
    return known


_CHANCES: dict[tuple[int, int, bool, bool, int], float] = {}
"""``chance`` by its arguments: a pure function of a few small numbers, asked for every
combat, search and prayer choice's label in every prompt (the table stays small)."""


def _chance(dice: int, target: int, relic: bool, terror: bool, need: int) -> float:
    if relic:
        target -= 1  # only the highest die matters for the first success
    p = min(1.0, max(0.0, (7 - target) / 6))
    n = max(1, dice)
    if terror:
        n += 1
        need += 1
    miss = sum(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(need))
    return 1 - miss


# -- combat -----------------------------------------------------------------------------


@step("combat", *COMBAT)
def combat(ctx: Ctx, st: Step) -> None:
    """A combat: the hero chooses fight or elude, and at most one tactic (DN 12.0)."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead:
        return
    ctx.emit("CombatStarted", hero=hero.id, foe=st["foe"], vs=st["vs"], why=st.get("why", ""))
    d = Combat(seat=hero.seat, step={k: v for k, v in st.items() if k != "op"})
    ways = combat_options(ctx.s, d.step) if own_attack(d.step) else []
    if len(ways) == 1:
        # The hero chose to attack and has one way to fight: asking again has one answer.
        approach, power_id, option = ways[0]
        tactic = power_id or (d.step.get("power") if d.step.get("dice") else None)
        how = f"with {spec(ctx, tactic).name}" if tactic else "with no tactic"
        who = hero_name(ctx, hero.id)
        automatic(ctx, hero.id, f"{who} fights {how}", why="the only way to make this attack, DN 12.1")
        args = {"approach": approach, "tactic": power_id, "option": option_index(ctx, power_id, option)}
        resolve_combat(ctx, d, "resolve_combat", args)
        return
    ctx.ask(d)


def own_attack(d: dict[str, Any]) -> bool:
    """Whether the combat is the hero's own attack action (on a blight, or on the Necromancer,
    fight only): "when performing an attack action, a hero must always fight" (DN 12.1), so
    pulling punches, not resisting a foe (DN 12.3), is no answer to it."""
    return d.get("vs") == "attack" or (d.get("vs") == "necromancer" and d.get("allow") == ["fight"])


def combat_options(s: State, d: dict[str, Any]) -> list[tuple[str, str | None, dict[str, Any]]]:
    """(approach, tactic power or None, tactic option) for every legal way to resolve it."""
    ctx = Ctx.reader(s)
    hero = s.heroes[d["hero"]]
    foe = d["foe"]
    allowed = d.get("allow", ["fight", "elude"])
    vs = d["vs"]
    out: list[tuple[str, str | None, dict[str, Any]]] = []
    if d.get("dice"):  # a power that is itself the way to fight (e.g. Consecration)
        return [("fight", None, {"dice": int(d["dice"])})]
    approaches = tuple(
        approach
        for approach, stat in (("fight", foe.get("strength")), ("elude", foe.get("awareness")))
        if approach in allowed and stat
    )
    if not approaches:
        return out
    for approach, found in tactics_by_approach(ctx, hero, approaches, vs).items():
        out.append((approach, None, {"dice": 1}))
        out.extend((approach, power.id, option) for power, option in found)
    return out


def combat_choices(s: State, decision: Combat) -> list[Choice]:
    d = decision.step
    ctx = Ctx.reader(s)
    out = []
    stakes = CombatStakes(ctx, s.heroes[d["hero"]], d)
    for approach, power_id, option in combat_options(s, d):
        tactic = power_id or (d.get("power") if d.get("dice") else None)
        how = f"with {spec(ctx, tactic).name}" if tactic else "with no tactic"
        args = {"approach": approach, "tactic": power_id, "option": option_index(ctx, power_id, option)}
        detail = partial(stakes.detail, approach, tactic, option)
        out.append(explained(s, "resolve_combat", args, f"{approach.capitalize()} {how}", detail))
    if not own_attack(d):
        out.append(yield_choice(combat_stakes(d)[1]))
    return out


class CombatStakes:
    """What each way of resolving a combat says (issue 11: its dice and their sources, the
    odds, what a win and a loss do): the parts every way shares worked out once, when the
    first detail is read."""

    def __init__(self, ctx: Ctx, hero: Hero, d: dict[str, Any]) -> None:
        self.ctx, self.hero, self.d = ctx, hero, d
        self.shared: tuple[str, str, bool, bool] | None = None
        """(on a win, on a loss, Terror here, the hero carries a relic), once read."""
        self.by_approach: dict[str, tuple[int, list[tuple[str, int]]]] = {}
        """Per approach, what every option's roll adds to its base dice (``roll_dice_count``)
        and the sources of those dice: the same for each tactic of the approach."""

    def detail(self, approach: str, tactic: str | None, option: dict[str, Any]) -> str:
        ctx, hero, d = self.ctx, self.hero, self.d
        if self.shared is None:
            self.shared = (*combat_stakes(d), terror_here(ctx, hero), hero.relics() > 0)
        win, fail, terror, relics = self.shared
        foe = d["foe"]
        target = foe["strength"] if approach == "fight" else foe["awareness"]
        base = int(option.get("dice", 1))
        known = self.by_approach.get(approach)
        if known is None:
            bonus = dice_bonus(ctx, hero, approach, {"vs": d.get("vs")})
            added = sum(n for _, n in bonus) + blight_dice(ctx, hero, approach)
            known = self.by_approach[approach] = (added, [*bonus, *blight_dice_sources(ctx, hero, approach)])
        dice = max(1, base + known[0])  # roll_dice_count(ctx, hero, approach, base, d)
        relic = approach == "fight" and relics
        odds = chance(dice, target, relic=relic, terror=terror)
        sources = [(spec(ctx, tactic).name if tactic else "base", base), *known[1]]
        costs = "".join(f", spend {n} {res}" for res, n in option.get("cost", {}).items())
        outcome = f"win: {win}" if approach == "fight" or d.get("win") else "win: you slip past"
        return (
            f"{dice_word(dice)} vs {target}{costs} ({sources_text(sources)}{extras_text(relic, terror)})"
            f" — {odds:.0%} to win; {outcome}; fail: {fail}"
        )


@cache
def yield_choice(fail: str) -> Choice:
    """Yield to a foe whose win costs ``fail`` (made once per loss: a choice is only read)."""
    return Choice("yield", {}, "Yield without rolling", f"accept the loss: {fail} (pulling punches, DN 12.3)")


def option_index(ctx: Ctx, power_id: str | None, option: dict[str, Any]) -> int:
    if power_id is None:
        return 0
    return list(spec(ctx, power_id).tactic).index(option)


def roll_dice_count(ctx: Ctx, hero: Hero, roll: str, base: int, d: dict[str, Any]) -> int:
    total = base + sum(n for _, n in dice_bonus(ctx, hero, roll, {"vs": d.get("vs")}))
    total += blight_dice(ctx, hero, roll)
    return max(1, total)


def blight_dice(ctx: Ctx, hero: Hero, roll: str) -> int:
    """Unholy Aura: −1 fight die; Evil Presence: −1 elude die (DN 11.2)."""
    if roll == "fight":
        return blight_param_total(ctx, "fight_dice", hero.location, hero=hero)
    if roll == "elude":
        return blight_param_total(ctx, "elude_dice", hero.location, hero=hero)
    return 0


def terror_here(ctx: Ctx, hero: Hero) -> bool:
    return blight_effect_active(ctx, "terror_dice", hero.location, hero=hero) > 0


@decision(Combat, combat_choices)
def resolve_combat(ctx: Ctx, decision: Combat, type_: str, args: dict[str, Any]) -> None:
    d = decision.step
    hero = ctx.s.heroes[d["hero"]]
    if type_ == "yield":
        ctx.emit("CombatYielded", hero=hero.id, foe=d["foe"]["name"])
        finish_combat(ctx, d, won=False, successes=0, approach="yield")
        return
    approach, power_id = args["approach"], args["tactic"]
    option: dict[str, Any] = {"dice": int(d.get("dice", 1))}
    if power_id is not None:
        note_use(ctx, hero, power_id)
        option = dict(spec(ctx, power_id).tactic[args["option"]])
        for resource, n in option.get("cost", {}).items():
            spend(ctx, hero, resource, n, f"{spec(ctx, power_id).name} (tactic)")
        if option.get("exhaust"):
            set_power(ctx, hero, power_id, exhausted=True, why="used as a tactic")
    if hero.turns_per_round == 2 and power_id != hero.last_tactic:
        ctx.emit(
            "HeroChanged",
            hero=hero.id,
            stat="last_tactic",
            to=power_id,
            by=0,
            why="dual-class tactic limit (DN 20.2.3)",
        )
    target = d["foe"]["strength"] if approach == "fight" else d["foe"]["awareness"]
    ctx.then(
        [
            {
                "op": "roll",
                "hero": hero.id,
                "purpose": approach,
                "target": target,
                "base": int(option.get("dice", 1)),
                "vs": d["vs"],
                "tactic": power_id,
                "tactic_after": list(option.get("after", ())),
                "then": {
                    "op": "combat_result",
                    "combat": dict(d),
                    "approach": approach,
                },
            }
        ]
    )


@step("combat_result", "approach", "combat", "faces", "hero", "kept", "successes")
def combat_result(ctx: Ctx, st: Step) -> None:
    """After the combat roll: win with any success, else the loss (DN 12.0)."""
    finish_combat(
        ctx, st["combat"], won=st["successes"] > 0, successes=st["successes"], approach=st["approach"]
    )


def finish_combat(ctx: Ctx, d: dict[str, Any], *, won: bool, successes: int, approach: str) -> None:
    hero = ctx.s.heroes[d["hero"]]
    ctx.emit(
        "CombatEnded", hero=hero.id, foe=d["foe"]["name"], won=won, approach=approach, successes=successes
    )
    steps = [substitute(x, successes, hero.id) for x in (d.get("win", []) if won else d.get("fail", []))]
    hook = ("combat_eluded" if approach == "elude" else "combat_won") if won else "combat_lost"
    steps.append({"op": "power_hook", "hook": hook, "hero": hero.id, "vs": d.get("vs")})
    if d.get("vs") == "attack":
        # Succeed or fail, attacking reveals you: lose 1 secrecy (DN 8.0, 12.1).
        steps.append({"op": "lose_secrecy", "hero": hero.id, "n": 1, "why": "attacking (DN 12.1)"})
    ctx.then(steps)


def substitute(effect: dict[str, Any], successes: int, hero_id: str) -> dict[str, Any]:
    out = {k: (successes if v == "$successes" else v) for k, v in effect.items()}
    out.setdefault("hero", hero_id)
    return out


# -- the roll itself ---------------------------------------------------------------------


@step("roll", *ROLL)
def roll(ctx: Ctx, st: Step) -> None:
    """Set up a roll: its dice and the optional boosts the hero may add before rolling."""
    hero = ctx.s.heroes[st["hero"]]
    purpose = st["purpose"]
    base = int(st.get("base", 1))
    # A roll an event card calls for is "part of the event" (DN 16.1: Balance applies).
    vs = st.get("vs") or ("event" if ctx.s.step == "event" and ctx.s.current == hero.id else None)
    st = dict(st) | {"vs": vs}
    tactic = st.get("tactic")
    sources = [(spec(ctx, tactic).name if tactic else "base", base)]  # a tactic's dice by name
    sources += dice_bonus(ctx, hero, purpose, {"vs": vs})
    sources += blight_dice_sources(ctx, hero, purpose)  # each blight by name (DN 11.2)
    pending = {k: v for k, v in st.items() if k != "op"}
    pending["dice"] = sum(n for _, n in sources)
    pending["sources"] = [[name, n] for name, n in sources]
    pending["relic"] = (
        purpose == "fight"
        and hero.relics() > 0
        and relic_acts(hero)
        and not blight_effect_active(ctx, "items_disabled", None)
    )
    pending["terror"] = terror_here(ctx, hero)
    if not has_boosts(ctx, hero, pending):
        ctx.then([{"op": "roll_now", **pending}])
        return
    d = Roll(seat=hero.seat, step=pending)
    if nothing_to_add(ctx, hero, pending):  # rolling is the only choice: roll
        ctx.then([{"op": "roll_now", **pending}])
        return
    if not pending["relic"] and extra_dice_pointless(ctx, hero, pending):
        automatic(
            ctx, hero.id, f"{hero_name(ctx, hero.id)}: no die added could change this roll, rolled at once"
        )
        ctx.then([{"op": "roll_now", **pending}])
        return
    ctx.ask(d)


def extra_dice_pointless(ctx: Ctx, hero: Hero, pending: dict[str, Any]) -> bool:
    """Whether no spark or boost could change what the roll does: a target no die reaches
    (a 7 without a Holy Relic, DN 12.2), or a prayer whose grace is already full or cannot
    be gained (DN 8.0, 4.1)."""
    target = pending.get("target")
    if target is None:
        return False  # a die for a place: more dice, more places to choose from (DN 16.1)
    if int(target) > 6:
        return True
    then = pending.get("then") or {}
    if then.get("op") == "prayed":
        full = hero.grace >= default_grace(ctx, hero)
        return full or blight_effect_active(ctx, "no_grace_gain", hero.location, hero=hero) > 0
    return False


def relic_acts(hero: Hero) -> bool:
    """In the dual-class variant one relic is inert on the first turn of the round (DN 20.2.3)."""
    if hero.turns_per_round == 2 and hero.relics() < 2:
        return hero.turns_left == 1
    return True


def relic_could_be_handed_on(s: State, hero: Hero) -> bool:
    """Refusing the relic's +1 keeps it free to give or store this turn (DN 15.2): worth
    asking only with a hero here who may take a relic, or at the Monastery to store it."""
    if hero.location == MONASTERY:
        return True
    return any(
        other.id != hero.id and other.relics() < relic_limit(other) for other in s.heroes_at(hero.location)
    )


def has_boosts(ctx: Ctx, hero: Hero, pending: dict[str, Any]) -> bool:
    return (
        hero.sparks > 0
        or bool(boosts(ctx, hero, pending["purpose"], {"vs": pending.get("vs")}))
        or pending["relic"]
    )


def nothing_to_add(ctx: Ctx, hero: Hero, step: dict[str, Any]) -> bool:
    """Whether rolling as it stands is the roll's only choice: ``roll_choices`` would list
    no spark to spend, no boost and no relic to refuse (asked without labelling them)."""
    if hero.sparks > 0 or boosts(ctx, hero, step["purpose"], {"vs": step.get("vs")}):
        return False
    return not (step["relic"] and relic_could_be_handed_on(ctx.s, hero))


def roll_choices(s: State, decision: Roll) -> list[Choice]:
    d = decision.step
    ctx = Ctx.reader(s)
    hero = s.heroes[d["hero"]]
    dice, target = max(1, d["dice"]), d.get("target")
    odds = ""
    if target:
        odds = f" — {chance(dice, target, relic=d['relic'], terror=d['terror']):.0%}"
    explained = sources_text(d["sources"]) + extras_text(d["relic"], d["terror"])
    stakes = roll_stakes(ctx, hero, d)
    out = [
        Choice(
            "roll_dice",
            {},
            f"Roll {dice_word(dice)}" + (f" needing {target}+" if target else ""),
            explained + odds + (f"; {stakes}" if stakes else ""),
        )
    ]
    if hero.sparks > 0:
        out.append(spark_choice(hero.sparks))
    for mod in boosts(ctx, hero, d["purpose"], {"vs": d.get("vs")}):
        out.append(
            Choice(
                "use_boost",
                {"power": mod["power"]},
                f"Use {spec(ctx, mod['power']).name}: +{mod['n']} dice",
                "then it is no longer active" if mod.get("deactivate") else "",
            )
        )
    if d["relic"] and relic_could_be_handed_on(s, hero):
        out.append(
            Choice(
                "refuse_relic",
                {},
                "Refuse the Holy Relic's +1",
                "keep it free to hand on this turn (DN 15.2)",
            )
        )
    return out


@cache
def spark_choice(sparks: int) -> Choice:
    """Spend a spark on a roll, for a hero with ``sparks`` (made once per number)."""
    return Choice("spend_spark", {}, "Spend a spark: +1 die", f"{sparks} left (DN 4.2)")


@decision(Roll, roll_choices)
def resolve_roll(ctx: Ctx, decision: Roll, type_: str, args: dict[str, Any]) -> None:
    d = decision.step
    hero = ctx.s.heroes[d["hero"]]
    pending = dict(d)
    if type_ == "roll_dice":
        ctx.then([{"op": "roll_now", **pending}])
        return
    if type_ == "spend_spark":
        spend(ctx, hero, "sparks", 1, "an extra die (DN 4.2)")
        pending["dice"] += 1
        pending["sources"] = [*pending["sources"], ["spark", 1]]
    elif type_ == "use_boost":
        mod = next(
            m for m in boosts(ctx, hero, d["purpose"], {"vs": d.get("vs")}) if m["power"] == args["power"]
        )
        owner = ctx.s.heroes[mod["owner"]]
        if mod.get("deactivate"):
            set_power(ctx, owner, mod["power"], active=False, target=None, why="its boost was used")
        pending["dice"] += int(mod["n"])
        pending["sources"] = [*pending["sources"], [spec(ctx, mod["power"]).name, int(mod["n"])]]
    elif type_ == "refuse_relic":
        pending["relic"] = False
    again = Roll(seat=hero.seat, step=pending)
    if nothing_to_add(ctx, hero, pending):  # nothing more to add: roll now
        ctx.then([{"op": "roll_now", **pending}])
        return
    ctx.ask(again)  # the player rolls when ready


@step("roll_now", *ROLLING)
def roll_now(ctx: Ctx, st: Step) -> None:
    """Roll the dice (Terror adds one to drop), then record the roll (DN 5.0)."""
    hero = ctx.s.heroes[st["hero"]]
    if st.get("relic"):
        # Taking the relic's +1 is using it: locked until this hero's next turn (DN 15.1, 15.2).
        relic = next((i for i in hero.items if i.kind == "holy_relic"), None)
        if relic is not None and not relic.locked:
            ctx.emit("ItemUsed", hero=hero.id, item=relic.id, kind=relic.kind, discard=False)
    dice = max(1, st["dice"])
    faces = roll_dice(ctx, dice + (1 if st.get("terror") else 0))
    record_roll(ctx, hero, st, faces)


def evaluate(faces: list[int], target: int | None, *, relic: bool, terror: bool) -> tuple[list[int], int]:
    """The dice that count (Terror drops the highest) with the relic's +1 on the highest."""
    kept = sorted(faces, reverse=True)
    if terror and len(kept) > 1:
        kept = kept[1:]
    if relic and kept:
        kept[0] += 1
    if target is None:
        return kept, 0
    return kept, sum(1 for f in kept if f >= target)


def record_roll(ctx: Ctx, hero: Hero, st: dict[str, Any], faces: list[int]) -> None:
    kept, successes = evaluate(
        faces, st.get("target"), relic=st.get("relic", False), terror=st.get("terror", False)
    )
    ctx.emit(
        "DiceRolled",
        hero=hero.id,
        purpose=st["purpose"],
        dice=len(faces),
        target=st.get("target"),
        faces=faces,
        kept=kept,
        successes=successes,
        relic=st.get("relic", False),
        terror=st.get("terror", False),
        sources=st.get("sources", []),
    )
    pending = {k: v for k, v in st.items() if k != "op"} | {"faces": faces, "successes": successes}
    ctx.then([{"op": "after_roll", **pending}])


def after_roll_items(ctx: Ctx, hero: Hero, st: dict[str, Any]) -> list[tuple[str, str]]:
    """(item id, kind) of items the hero could use on this roll now (DN 15.0)."""
    if blight_effect_active(ctx, "items_disabled", hero.location):
        return []
    out = []
    for item in hero.items:
        if item.locked:
            continue
        if (
            item.kind == "charm"
            or (item.kind == "bottled_magic" and st["purpose"] == "fight" and not more_dice_pointless(st))
            or (item.kind == "vanishing_dust" and st["purpose"] == "elude" and st["successes"] == 0)
        ):
            out.append((item.id, item.kind))
    return out


def more_dice_pointless(st: dict[str, Any]) -> bool:
    """Whether dice added after the roll (Bottled Magic, DN 15.0) cannot change what it does:
    the fight is already won and nothing counts its successes (a tactic's after-effect or a
    win that scales with them, e.g. a quest's progress, DN 16.2)."""
    if st.get("successes", 0) <= 0 or (st.get("then") or {}).get("op") != "combat_result":
        return False
    if any(str(a.get("when", "")).startswith("successes") for a in st.get("tactic_after", ())):
        return False
    combat_ = st["then"].get("combat") or {}
    return "$successes" not in repr(combat_.get("win", []))


@step("after_roll", *ROLLED)
def after_roll(ctx: Ctx, st: Step) -> None:
    """After a roll: offer the items that act on it (Charm, Bottled Magic, Vanishing Dust)."""
    hero = ctx.s.heroes[st["hero"]]
    if after_roll_items(ctx, hero, st) and not st.get("no_items"):
        ctx.ask(AfterRoll(seat=hero.seat, step={k: v for k, v in st.items() if k != "op"}))
        return
    if (
        not st.get("no_items")
        and any(i.kind == "bottled_magic" and not i.locked for i in hero.items)
        and more_dice_pointless(st)
        and not blight_effect_active(ctx, "items_disabled", hero.location)
    ):
        who = hero_name(ctx, hero.id)
        automatic(
            ctx, hero.id, f"{who} keeps the roll", why="the fight is won: more dice could change nothing"
        )
    conclude_roll(ctx, hero, st)


def after_roll_choices(s: State, decision: AfterRoll) -> list[Choice]:
    d = decision.step
    ctx = Ctx.reader(s)
    hero = s.heroes[d["hero"]]
    result = f"{d['successes']} success{'es' if d['successes'] != 1 else ''}" if d.get("target") else ""
    out = [Choice("accept_roll", {}, "Keep the roll", result)]
    labels = {
        "charm": "Charm: reroll all the dice",
        "bottled_magic": "Bottled Magic: roll 3 more dice",
        "vanishing_dust": "Vanishing Dust: the elude succeeds",
    }
    seen = set()
    for item_id, kind in after_roll_items(ctx, hero, d):
        if kind not in seen:
            seen.add(kind)
            out.append(Choice("use_roll_item", {"item": item_id}, labels[kind], "the item is discarded"))
    return out


@decision(AfterRoll, after_roll_choices)
def resolve_after_roll(ctx: Ctx, decision: AfterRoll, type_: str, args: dict[str, Any]) -> None:
    d = decision.step
    hero = ctx.s.heroes[d["hero"]]
    st = dict(d)
    if type_ == "accept_roll":
        conclude_roll(ctx, hero, st)
        return
    item = hero.item(args["item"])
    assert item is not None
    ctx.emit("ItemUsed", hero=hero.id, item=item.id, kind=item.kind)
    if item.kind == "charm":
        faces = roll_dice(ctx, len(st["faces"]))
        record_roll(ctx, hero, st, faces)
    elif item.kind == "bottled_magic":
        faces = st["faces"] + roll_dice(ctx, 3)
        record_roll(ctx, hero, st, faces)
    else:  # vanishing dust
        conclude_roll(ctx, hero, st | {"successes": max(1, st["successes"])})


def conclude_roll(ctx: Ctx, hero: Hero, st: dict[str, Any]) -> None:
    """Tactic after-effects (exhaust on failure, costs on few successes), then what the
    roll was for."""
    successes = st["successes"]
    steps = []
    for after in st.get("tactic_after", ()):
        when = after.get("when", "always")
        hit = (
            when == "always"
            or (when == "fail" and successes == 0)
            or (when == "win" and successes > 0)
            or (when == "successes_below" and successes < int(after.get("n", 1)))
            or (when == "successes_at_least" and successes >= int(after.get("n", 1)))
        )
        if hit:
            steps += [dict(e) | {"hero": hero.id, "power": st.get("tactic")} for e in after.get("do", ())]
    kept, _ = evaluate(
        st["faces"], st.get("target"), relic=st.get("relic", False), terror=st.get("terror", False)
    )
    then = {"hero": hero.id} | dict(st["then"]) | {"successes": successes, "faces": st["faces"], "kept": kept}
    ctx.then([*steps, then])


# -- wounds and death (DN 13.1, 13.5) ----------------------------------------------------


@step("wound", "hero", "power", "quest", "why")
def wound(ctx: Ctx, st: Step) -> None:
    """A wound kills unless the hero spends 1 grace (DN 13.1)."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead:
        return
    if hero.flags.get("turn:safe_from_wounds"):
        ctx.emit("WoundPrevented", hero=hero.id, why=hero.flags["turn:safe_from_wounds"])
        return
    if can_spend(hero, "grace", 1):
        ctx.ask(Wound(seat=hero.seat, hero=hero.id, why=st.get("why", "")))
        return
    ctx.then([{"op": "die", "hero": hero.id, "why": st.get("why", "a wound with no grace left")}])


def settle_pending(ctx: Ctx) -> None:
    """A wound asked about, then made moot before it resolved by something used "any time"
    (DN 14.3.2: "after making a die roll … but before resolving its effects"): Shield
    Maiden spares the hero, so the wound prompt is not asked again; a hero already dead
    suffers nothing more."""
    d = ctx.s.decision
    if isinstance(d, Roll | AfterRoll):
        settle_roll(ctx, d)
        return
    if not isinstance(d, Wound):
        return
    hero = ctx.s.heroes[d.hero]
    if hero.dead:
        ctx.s.decision = None
    elif hero.flags.get("turn:safe_from_wounds"):
        ctx.s.decision = None
        ctx.emit("WoundPrevented", hero=hero.id, why=hero.flags["turn:safe_from_wounds"])


def settle_roll(ctx: Ctx, d: Roll | AfterRoll) -> None:
    """A roll asked about again after something done "any time" (DN 14.3.2) that left one
    answer: the last spark spent or the Charm given away meanwhile. It goes on at once."""
    hero = ctx.s.heroes[d.step["hero"]]
    if isinstance(d, Roll):
        if nothing_to_add(ctx, hero, d.step):
            ctx.s.decision = None
            ctx.then([{"op": "roll_now", **d.step}])
    elif not after_roll_items(ctx, hero, d.step):
        ctx.s.decision = None
        conclude_roll(ctx, hero, dict(d.step))


def wound_choices(s: State, d: Wound) -> list[Choice]:
    """Spend 1 grace or die (DN 13.1), listing only what the hero can do now (DN 4.1)."""
    hero = s.heroes[d.hero]
    out = []
    if can_spend(hero, "grace", 1):
        out.append(Choice("spend_grace", {}, "Spend 1 grace to survive", f"{hero.grace} grace now (DN 13.1)"))
    out.append(
        Choice(
            "accept_death",
            {},
            f"Let the wound kill {hero_name(s, hero.id)}",
            "not recommended (DN 13.1)" if out else "no grace left to spend (DN 13.1, 4.1)",
        )
    )
    return out


@decision(Wound, wound_choices)
def resolve_wound(ctx: Ctx, d: Wound, type_: str, _a: dict[str, Any]) -> None:
    hero = ctx.s.heroes[d.hero]
    if type_ == "spend_grace":
        spend(ctx, hero, "grace", 1, "negating a wound (DN 13.1)")
        return
    ctx.then([{"op": "die", "hero": hero.id, "why": d.why}])


def end_turn_now(ctx: Ctx, hero: Hero) -> None:
    """A hero's turn ends at once (death, DN 13.1): drop what was left of it."""
    ctx.s.agenda = [x for x in ctx.s.agenda if x.get("hero") != hero.id]
    if ctx.s.current == hero.id:
        ctx.then([{"op": "turn_close", "hero": hero.id}])


@step("die", "hero", "why")
def die(ctx: Ctx, st: Step) -> None:
    """Death (DN 13.1): the turn ends at once, items go to a hero here (or wait for the
    next to arrive), darkness +1; the player picks a new hero next round."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead:
        return
    ctx.emit("HeroDied", hero=hero.id, location=hero.location, why=st.get("why", ""))
    end_turn_now(ctx, hero)
    raise_darkness(ctx, 1, f"{hero_name(ctx, hero.id)} died (DN 13.1)")
    # First of all, the items go at once (DN 15.1), before the turn closes.
    ctx.then([{"op": "fallen_items", "fallen": hero.id}])


def fallen_item_receivers(s: State, fallen: Hero, item: Item) -> list[str]:
    """The heroes at the fallen hero's location who may take ``item``: a hero carrying a
    Holy Relic takes no second one (DN 15.2)."""
    return [h.id for h in s.heroes_at(fallen.location) if can_receive(h, item)]


@step("fallen_items", "fallen")
def fallen_items(ctx: Ctx, st: Step) -> None:
    """A fallen hero's items go to heroes at that location, the players choosing who takes
    each one; an item no one there may take (or with no one there) waits for the next hero
    to arrive (DN 13.1, 15.1, 15.2). One possible taker takes it without asking."""
    fallen = ctx.s.heroes[st["fallen"]]
    for item in list(fallen.items):
        receivers = fallen_item_receivers(ctx.s, fallen, item)
        if len(receivers) > 1:
            ctx.then([dict(st)])
            ctx.ask(FallenItem(seat=fallen.seat, hero=fallen.id, item=item.id, to=receivers))
            return
        to = receivers[0] if receivers else f"orphaned:{fallen.location}"
        # The kind names the item in the log ("the Crusader's Charm lies in the Village").
        named = {"kind": item.kind} if to.startswith("orphaned:") else {}
        ctx.emit(
            "ItemGiven",
            item=item.id,
            **{"from": fallen.id},
            to=to,
            why="from a fallen hero (DN 15.1)",
            **named,
        )


def fallen_item_choices(s: State, d: FallenItem) -> list[Choice]:
    fallen = s.heroes[d.hero]
    item = fallen.item(d.item)
    name = item_name(Ctx.reader(s), item) if item is not None else "the item"
    return [
        Choice(
            "take_fallen_item",
            {"item": d.item, "to": to},
            f"{hero_name(s, to)} takes the {name}",
            f"left by {hero_name(s, fallen.id)} (DN 15.1)",
        )
        for to in d.to
    ]


@decision(FallenItem, fallen_item_choices)
def resolve_fallen_item(ctx: Ctx, d: FallenItem, _t: str, args: dict[str, Any]) -> None:
    ctx.emit("ItemGiven", item=d.item, **{"from": d.hero}, to=args["to"], why="from a fallen hero (DN 15.1)")


@step("lose_turn", "hero", "power", "why")
def lose_turn(ctx: Ctx, st: Step) -> None:
    """Lose your next turn; if already lost, nothing more (DN 13.3)."""
    hero = ctx.s.heroes[st["hero"]]
    if not hero.dead and not hero.lost_turn:
        ctx.emit("HeroChanged", hero=hero.id, stat="lost_turn", to=True, by=1, why=st.get("why", ""))
