"""Powers (DN 14.0): bonuses, tactics, actions, activation and exhaustion.

A power's data names what it does:

- ``bonus``: lasting modifiers while the power is in play and not exhausted, e.g.
  ``{op = "dice", roll = "elude", n = 1}`` (Loyalty) or ``{op = "default_grace", n = 1}``;
- ``active``: modifiers for the power's target while it is active, e.g. Wolf Form's
  ``{op = "dice", roll = "combat", n = 1}`` or Inspire's one-shot
  ``{op = "boost", n = 3, deactivate = true}``;
- ``tactic``: combat options (``{approach = "fight", dice = 2}``; costs, exhaustion and
  after-effects as data);
- ``action``: an action (``{effects = [...], cost = {secrecy = 1}, exhaust = true,
  activate = "hero_here"}``).

Corruption stops bonus powers, Confusion tactic powers, where they lie (DN 11.2). A hero's
default grace and secrecy are read here, with the lasting modifiers of powers and blights
(DN 4.1, 11.2).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from app.games.darkest_night.content import PowerDef
from app.games.darkest_night.decisions import ExhaustPower
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.common import blight_effect_active, blight_param_total, hero_name
from app.games.darkest_night.state import Hero, Power, State
from app.kernel.types import Choice

ROLL_GROUPS = {
    "fight": {"fight", "combat", "any"},
    "elude": {"elude", "combat", "any"},
    "search": {"search", "any"},
    "pray": {"pray", "any"},
}


active_of = attrgetter("active")


def spec(ctx: Ctx, power_id: str) -> PowerDef:
    return ctx.c.all_powers[power_id]  # ``Content.powers()``, without the call


def usable(power: Power) -> bool:
    return not power.exhausted


def artifacts_work(ctx: Ctx) -> bool:
    """Artifacts are items too (DN 14.4): under Decay, items have no effect (DN 11.2)."""
    memo = ctx.memo
    if memo is None:
        return not blight_effect_active(ctx, "items_disabled", None)
    known = memo.get("artifacts_work")
    if known is None:
        known = memo["artifacts_work"] = not blight_effect_active(ctx, "items_disabled", None)
    return known


def carried_powers(hero: Hero, with_artifacts: bool = True) -> list[Power]:
    """The hero's powers and the artifacts they carry (artifacts are powers, DN 14.4)."""
    if not with_artifacts or not hero.items:
        return hero.powers.copy()
    artifacts = [
        Power(
            i.data["card"],
            exhausted=i.data.get("exhausted", False),
            active=i.data.get("active", False),
            target=i.data.get("target"),
        )
        for i in hero.items
        if i.kind == "artifact"
    ]
    return hero.powers + artifacts


def bonus_mods(ctx: Ctx, hero: Hero) -> list[dict[str, Any]]:
    """Every lasting modifier that applies to ``hero`` now: its own usable powers'
    bonuses (unless Corruption is here), inactive effects, and active effects of any
    hero's powers that target it (worked out once per published state; callers only read)."""
    memo = ctx.memo
    if memo is None:
        return list_bonus_mods(ctx, hero)
    key = ("bonus_mods", hero.id)
    known = memo.get(key)
    if known is None:
        known = memo[key] = list_bonus_mods(ctx, hero)
    return known


def list_bonus_mods(ctx: Ctx, hero: Hero) -> list[dict[str, Any]]:
    mods: list[dict[str, Any]] = []
    corrupted = blight_effect_active(ctx, "no_bonus_powers", hero.location, hero=hero) > 0
    working = artifacts_work(ctx)
    powers = ctx.c.all_powers
    for power in carried_powers(hero, working):
        if power.exhausted:  # not ``usable``
            continue
        definition = powers[power.id]
        if not corrupted and definition.bonus:
            mods.extend(owned_mods(definition, "bonus", hero.id))
        if not power.active and definition.inactive:
            mods.extend(owned_mods(definition, "inactive", hero.id))
    for other in ctx.s.living():
        if not other.items and not any(map(active_of, other.powers)):
            continue  # no active power, no artifact (asked in C: most heroes most of the time)
        for power in carried_powers(other, working):
            if power.active and not power.exhausted and applies_to(power, other, hero):
                mods.extend(owned_mods(powers[power.id], "active", other.id))
    return mods


_OWNED_MODS: dict[tuple[int, str, str], tuple[PowerDef, tuple[dict[str, Any], ...]]] = {}
"""``owned_mods`` worked out: by the power's definition (its id: the definition is kept in
the value, so the id is never reused while the entry lives), the kind and the owner."""


def owned_mods(definition: PowerDef, kind: str, owner: str) -> tuple[dict[str, Any], ...]:
    """A power's ``bonus``, ``inactive`` or ``active`` modifiers, each naming the power and
    its owner. Made once per definition and owner: content never changes, and the
    modifiers are only ever read (``bonus_mods``)."""
    key = (id(definition), kind, owner)
    known = _OWNED_MODS.get(key)
    if known is None:
        mods = tuple(m | {"power": definition.id, "owner": owner} for m in getattr(definition, kind))
        known = _OWNED_MODS[key] = (definition, mods)
    return known[1]


def applies_to(power: Power, owner: Hero, hero: Hero) -> bool:
    """Whom an active power's effects reach: its target hero, the heroes at its target
    location, or (with no target) its owner (DN 14.1)."""
    target = power.target
    if target is None:
        return owner.id == hero.id
    kind, _, value = target.partition(":")
    if kind == "hero":
        return value == hero.id
    if kind == "loc":
        return hero.location == value
    return False


def bonus_total(ctx: Ctx, hero: Hero, op: str) -> int:
    return sum(int(m.get("n", 0)) for m in bonus_mods(ctx, hero) if m["op"] == op)


def default_grace(ctx: Ctx, hero: Hero) -> int:
    """Default grace with lasting modifiers (Stigma: −2 each, DN 11.2; powers' bonuses)."""
    value = hero.default_grace + blight_param_total(ctx, "default_grace", hero.location, hero=hero)
    value += bonus_total(ctx, hero, "default_grace")
    return max(0, value)


def default_secrecy(ctx: Ctx, hero: Hero) -> int:
    return max(0, hero.default_secrecy + bonus_total(ctx, hero, "default_secrecy"))


def dice_bonus(
    ctx: Ctx, hero: Hero, roll: str, context: dict[str, Any] | None = None
) -> list[tuple[str, int]]:
    """(source, dice) for every always-on dice modifier of this kind of roll (worked out
    once per state, like ``bonus_mods``: a prompt asks for each of its choices' labels and
    dice; callers only read the list)."""
    memo = ctx.memo
    if memo is None:
        return list_dice_bonus(ctx, hero, roll, context or {})
    vs = context.get("vs") if context else None  # all ``condition_met`` reads of the context
    key = ("dice_bonus", hero.id, hero.location, roll, vs)
    known = memo.get(key)
    if known is None:
        known = memo[key] = list_dice_bonus(ctx, hero, roll, context or {})
    return known


def list_dice_bonus(ctx: Ctx, hero: Hero, roll: str, context: dict[str, Any]) -> list[tuple[str, int]]:
    out = []
    for mod in bonus_mods(ctx, hero):
        if mod["op"] != "dice" or mod.get("roll", "any") not in ROLL_GROUPS.get(roll, {roll, "any"}):
            continue
        if not condition_met(ctx, hero, mod, context):
            continue
        out.append((spec(ctx, mod["power"]).name, int(mod["n"])))
    return out


def boosts(ctx: Ctx, hero: Hero, roll: str, context: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Optional one-shot dice sources (Inspire's +3, DN 14.1 example) for this roll."""
    out = []
    for mod in bonus_mods(ctx, hero):
        if mod["op"] != "boost" or mod.get("roll", "any") not in ROLL_GROUPS.get(roll, {roll, "any"}):
            continue
        if condition_met(ctx, hero, mod, context or {}):
            out.append(mod)
    return out


def condition_met(ctx: Ctx, hero: Hero, mod: dict[str, Any], context: dict[str, Any]) -> bool:
    """A modifier's optional conditions: ``vs`` (blight, necromancer, monster, event),
    ``at`` (a location or "target")."""
    vs = mod.get("vs")
    if vs and context.get("vs") not in (vs if isinstance(vs, list) else [vs]):
        return False
    at = mod.get("at")
    return not (at and at != hero.location)


def tactics(ctx: Ctx, hero: Hero, approach: str, vs: str) -> list[tuple[Power, dict[str, Any]]]:
    """Tactics the hero may use now (not exhausted, costs payable, no Confusion here,
    not the same tactic twice running for a dual-class hero, DN 20.2.3); Psion Stones
    share a tactic with every hero (DN 15.0)."""
    return tactics_by_approach(ctx, hero, (approach,), vs)[approach]


def tactics_by_approach(
    ctx: Ctx, hero: Hero, approaches: tuple[str, ...], vs: str
) -> dict[str, list[tuple[Power, dict[str, Any]]]]:
    """``tactics`` for each of ``approaches``, in one pass over the powers (a combat asks
    for fight and elude)."""
    found: dict[str, list[tuple[Power, dict[str, Any]]]] = {approach: [] for approach in approaches}
    if blight_effect_active(ctx, "no_tactics", hero.location, hero=hero):
        return found
    sources: list[tuple[Hero, Power]] = [(hero, p) for p in carried_powers(hero, artifacts_work(ctx))]
    for other in ctx.s.living():
        if other.id != hero.id:
            sources += [(other, p) for p in other.powers if p.data.get("psion")]
    for owner, power in sources:
        if power.exhausted:
            continue
        if (
            owner.id == hero.id
            and hero.turns_per_round == 2
            and hero.last_tactic == power.id
            and not power.data.get("psion")
        ):
            continue
        for option in spec(ctx, power.id).tactic:
            way = option.get("approach")
            wanted = option.get("vs")
            if wanted and vs not in (wanted if isinstance(wanted, list) else [wanted]):
                continue
            cost = option.get("cost", {})
            if any(getattr(hero, res) < n for res, n in cost.items()):
                continue
            for approach, options in found.items():
                if way in (approach, "either"):
                    options.append((power, option))
    return found


Way = tuple[str, str | None, dict[str, Any]]
"""(approach, tactic power or None, tactic option): one way to resolve a combat (DN 12.0)."""


def free_way(hero: Hero, way: Way) -> bool:
    """Whether choosing this way costs and risks nothing but its roll: no tactic, or a
    tactic of the hero's own with no cost, no exhaustion and no after-effect (DN 12.0). Not
    for a dual-class hero, who may not use a tactic twice running (DN 20.2.3), nor an
    artifact's tactic, which using locks until the carrier's next turn (DN 15.1)."""
    _, power_id, option = way
    if power_id is None:
        return True
    return (
        hero.turns_per_round == 1
        and hero.power(power_id) is not None
        and not option.get("cost")
        and not option.get("exhaust")
        and not option.get("after")
    )


def outdone(hero: Hero, way: Way, ways: list[Way]) -> bool:
    """Whether a free way of the same approach rolls more dice than this free way (a free
    tactic beside fighting with no tactic): taking fewer dice for nothing is no answer a
    player would give (DN 12.0: the other dice sources add to both alike)."""
    if not free_way(hero, way):
        return False
    dice = int(way[2].get("dice", 1))
    return any(
        other[0] == way[0] and int(other[2].get("dice", 1)) > dice and free_way(hero, other) for other in ways
    )


def sensible_ways(hero: Hero, ways: list[Way]) -> list[Way]:
    """The ways to resolve a combat that no other way outdoes (``outdone``)."""
    return [way for way in ways if not outdone(hero, way, ways)]


def attack_way(ctx: Ctx, hero: Hero, vs: str) -> Way:
    """The way the hero's own attack will be fought when only one is worth taking (the fight
    is then not asked, DN 12.1), else fighting with no tactic, the baseline the attack's
    button states before the way is asked."""
    ways: list[Way] = [("fight", None, {"dice": 1})]
    ways += [("fight", power.id, option) for power, option in tactics(ctx, hero, "fight", vs)]
    sensible = sensible_ways(hero, ways)
    return sensible[0] if len(sensible) == 1 else ways[0]


# -- changing powers -------------------------------------------------------------------


def set_power(ctx: Ctx, hero: Hero, power_id: str, **changes: Any) -> None:
    """Exhaust, refresh, activate or deactivate a power or a carried artifact."""
    if hero.power(power_id) is not None:
        ctx.emit("PowerChanged", hero=hero.id, power=power_id, **changes)
        return
    for item in hero.items:
        if item.kind == "artifact" and item.data.get("card") == power_id:
            data = dict(item.data) | changes
            ctx.emit("ArtifactChanged", hero=hero.id, item=item.id, data=data)
            return


def note_use(ctx: Ctx, hero: Hero, power_id: str) -> None:
    """Using an artifact locks it until its carrier's next turn (DN 15.1)."""
    for item in hero.items:
        if item.kind == "artifact" and item.data.get("card") == power_id and not item.locked:
            ctx.emit("ItemUsed", hero=hero.id, item=item.id, kind="artifact", discard=False)


def refresh_all(ctx: Ctx, hero: Hero, why: str) -> None:
    """Refresh every exhausted power (DN 14.2); a suppressed one is active again."""
    for power in carried_powers(hero):
        if power.exhausted:
            set_power(ctx, hero, power.id, exhausted=False, why=why)


def exhaustible(hero: Hero) -> list[Power]:
    return [p for p in carried_powers(hero) if not p.exhausted]


@step("exhaust_power", "hero", "n", "power", "why")
def exhaust_power(ctx: Ctx, st: Step) -> None:
    """Exhaust a power of the hero's choice, not one already exhausted (DN 13.4)."""
    hero = ctx.s.heroes[st["hero"]]
    left = int(st.get("n", 1))
    if left <= 0 or hero.dead:
        return
    options = exhaustible(hero)
    if not options:
        return
    if len(options) == 1:
        set_power(ctx, hero, options[0].id, exhausted=True, why=st.get("why", ""))
        if left > 1:
            ctx.then([dict(st) | {"n": left - 1}])
        return
    ctx.ask(ExhaustPower(seat=hero.seat, hero=hero.id, n=left, why=st.get("why", "")))


def exhaust_choices(s: State, d: ExhaustPower) -> list[Choice]:
    ctx = Ctx.reader(s)
    hero = s.heroes[d.hero]
    return [
        Choice(
            "exhaust",
            {"power": p.id},
            f"Exhaust {spec(ctx, p.id).name}",
            ("it is active: it becomes suppressed (DN 14.2)" if p.active else "")
            + (f" — {d.why}" if d.why else ""),
        )
        for p in exhaustible(hero)
    ]


@decision(ExhaustPower, exhaust_choices)
def resolve_exhaust(ctx: Ctx, d: ExhaustPower, _t: str, args: dict[str, Any]) -> None:
    hero = ctx.s.heroes[d.hero]
    set_power(ctx, hero, args["power"], exhausted=True, why=d.why)
    if d.n > 1:
        ctx.then([{"op": "exhaust_power", "hero": hero.id, "n": d.n - 1, "why": d.why}])


@step("exhaust_all_powers", "hero", "power", "why")
def exhaust_all_powers(ctx: Ctx, st: Step) -> None:
    hero = ctx.s.heroes[st["hero"]]
    for power in exhaustible(hero):
        set_power(ctx, hero, power.id, exhausted=True, why=st.get("why", ""))


@step("refresh_powers", "hero", "power", "to", "why")
def refresh_powers(ctx: Ctx, st: Step) -> None:
    refresh_all(ctx, ctx.s.heroes[st["hero"]], st.get("why", ""))


@step("power_hook", "hero", "hook", "vs")
def power_hook(ctx: Ctx, st: Step) -> None:
    """Powers with effects at a moment (``{op = "on", hook = ..., effects = [...]}`` among
    their bonus or active modifiers). Hooks: turn_start, turn_end, blight_destroyed,
    combat_won, combat_eluded, combat_lost, quest_completed."""
    hero = ctx.s.heroes.get(st.get("hero", ""))
    if hero is None or hero.dead:
        return
    steps: list[Step] = []
    for mod in bonus_mods(ctx, hero):
        if mod["op"] == "on" and mod.get("hook") == st["hook"]:
            steps.extend(dict(e) | {"hero": hero.id, "power": mod["power"]} for e in mod.get("effects", ()))
    ctx.then(steps)


def power_label(s: State, power_id: str) -> str:
    ctx = Ctx.reader(s)
    return spec(ctx, power_id).name


def owner_name(s: State, hero_id: str) -> str:
    return hero_name(s, hero_id)
