"""Combat (DN 12.0): fight or elude, with at most one tactic, or yield without
rolling (pulling punches, DN 12.3); what a win and a loss do; battling the Necromancer
(DN 12.2, 18.1). The roll itself is ``dice``."""

from __future__ import annotations

from functools import cache, partial
from typing import Any

from app.games.darkest_night.decisions import COMBAT, Combat, Sacrifice
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.blights import is_protected
from app.games.darkest_night.rules.common import NECROMANCER_STRENGTH, automatic, end_game, hero_name, spend
from app.games.darkest_night.rules.dice import blight_dice, chance, terror_here
from app.games.darkest_night.rules.powers import (
    Way,
    dice_bonus,
    note_use,
    sensible_ways,
    set_power,
    spec,
    tactics_by_approach,
)
from app.games.darkest_night.rules.stakes import (
    blight_dice_sources,
    combat_stakes,
    dice_word,
    extras_text,
    sources_text,
)
from app.games.darkest_night.state import Hero, State
from app.kernel.flow.memo import explained
from app.kernel.types import Choice


@step("combat", *COMBAT)
def combat(ctx: Ctx, st: Step) -> None:
    """A combat: the hero chooses fight or elude, and at most one tactic (DN 12.0)."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead:
        return
    ctx.emit("CombatStarted", hero=hero.id, foe=st["foe"], vs=st["vs"], why=st.get("why", ""))
    d = Combat(seat=hero.seat, step={k: v for k, v in st.items() if k != "op"})
    ways = combat_options(ctx.s, d.step) if own_attack(d.step) else []
    sensible = sensible_ways(hero, ways)
    if len(sensible) == 1:
        # The hero chose to attack and has one way to fight worth taking: asking again
        # has one answer.
        approach, power_id, option = sensible[0]
        tactic = power_id or (d.step.get("power") if d.step.get("dice") else None)
        how = f"with {spec(ctx, tactic).name}" if tactic else "with no tactic"
        who = hero_name(ctx, hero.id)
        why = "the only way to make this attack, DN 12.1"
        if len(ways) > 1 and tactic:
            why = f"{spec(ctx, tactic).name} costs nothing and rolls more dice than no tactic, DN 12.0"
        automatic(ctx, hero.id, f"{who} fights {how}", why=why)
        args = {"approach": approach, "tactic": power_id, "option": option_index(ctx, power_id, option)}
        resolve_combat(ctx, d, "resolve_combat", args)
        return
    ctx.ask(d)


def own_attack(d: dict[str, Any]) -> bool:
    """Whether the combat is the hero's own attack action (on a blight, or on the Necromancer,
    fight only): "when performing an attack action, a hero must always fight" (DN 12.1), so
    pulling punches, not resisting a foe (DN 12.3), is no answer to it."""
    return d.get("vs") == "attack" or (d.get("vs") == "necromancer" and d.get("allow") == ["fight"])


def combat_options(s: State, d: dict[str, Any]) -> list[Way]:
    """(approach, tactic power or None, tactic option) for every legal way to resolve it."""
    ctx = Ctx.reader(s)
    hero = s.heroes[d["hero"]]
    foe = d["foe"]
    allowed = d.get("allow", ["fight", "elude"])
    vs = d["vs"]
    out: list[Way] = []
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


# -- battling the Necromancer (DN 12.2) -------------------------------------------------


@step("battle_necromancer", "attack", "hero")
def battle_necromancer(ctx: Ctx, st: Step) -> None:
    """Strength 7, awareness 6; failing is a wound; eluding has no effect (DN 12.2).
    Attacking him (the hero's action) costs 1 secrecy, succeed or fail, "in the same way
    as a blight" (DN 8.0); being attacked by him (DN 7.2) does not."""
    hero = ctx.s.heroes[st["hero"]]
    revealed = []
    if st.get("attack"):
        revealed = [{"op": "lose_secrecy", "n": 1, "why": "attacking the Necromancer (DN 8.0)"}]
    ctx.then(
        [
            {
                "op": "combat",
                "hero": hero.id,
                "vs": "necromancer",
                "allow": ["fight"] if st.get("attack") else ["fight", "elude"],
                "foe": {"name": "Necromancer", "strength": NECROMANCER_STRENGTH, "awareness": 6},
                "win": [{"op": "necromancer_beaten", "approach": "$approach"}, *revealed],
                "fail": [{"op": "wound", "why": "the Necromancer"}, *revealed],
                "why": "the Necromancer",
            }
        ]
    )


@step("necromancer_beaten", "approach", "hero")
def necromancer_beaten(ctx: Ctx, st: Step) -> None:
    """A won fight: a pall card goes first (DN 20.1.5), else he sacrifices a blight here of
    the hero's choice, else a hero with a Holy Relic slays him (DN 12.2, 18.1)."""
    hero = ctx.s.heroes[st["hero"]]
    if ctx.s.last_roll and ctx.s.last_roll.get("purpose") == "elude":
        return  # eluding him successfully has no effect
    if ctx.s.pall:
        ctx.emit("PallReduced", card=ctx.s.pall[0])
        return
    blights = ctx.s.blights.get(ctx.s.necromancer, [])
    if blights:
        choosable = [b for b in blights if not is_protected(ctx, ctx.s.necromancer, b.id)] or blights
        if len(choosable) == 1:
            ctx.then(
                [
                    {
                        "op": "destroy_blight",
                        "hero": hero.id,
                        "blight": choosable[0].id,
                        "why": "the Necromancer sacrificed it to escape (DN 12.2)",
                    }
                ]
            )
            return
        ctx.ask(Sacrifice(seat=hero.seat, hero=hero.id, blights=[b.id for b in choosable]))
        return
    if hero.relics():
        end_game(ctx, "win", f"{hero_name(ctx, hero.id)} slew the Necromancer with a Holy Relic (DN 18.1).")
    else:
        ctx.emit("NecromancerUnharmed", hero=hero.id, why="only a hero holding a Holy Relic can slay him")


def sacrifice_choices(s: State, d: Sacrifice) -> list[Choice]:
    out = []
    for blight_id in d.blights:
        found = s.find_blight(blight_id)
        if found:
            out.append(
                Choice(
                    "destroy",
                    {"blight": blight_id},
                    f"Destroy the {found[1].type}",
                    "the Necromancer sacrifices it to escape (DN 12.2)",
                )
            )
    return out


@decision(Sacrifice, sacrifice_choices)
def resolve_sacrifice(ctx: Ctx, d: Sacrifice, _t: str, args: dict[str, Any]) -> None:
    ctx.then(
        [
            {
                "op": "destroy_blight",
                "hero": d.hero,
                "blight": args["blight"],
                "why": "the Necromancer sacrificed it to escape (DN 12.2)",
            }
        ]
    )
