"""Dice rolls (DN 5.0): a roll's dice and their sources (powers' bonuses, blights' penalties,
DN 11.2, 14.0), the odds, sparks and boosts added before it (DN 4.2, 14.1), a Holy Relic's
+1 to the highest fight die (DN 15.2), Terror's extra die (DN 11.2), the items used after it
(Charm, Bottled Magic, Vanishing Dust: DN 15.0), and tactics' after-effects (DN 12.0, 14.0)."""

from __future__ import annotations

from functools import partial
from math import comb
from typing import Any

from app.games.darkest_night.content import MONASTERY
from app.games.darkest_night.decisions import ROLL, ROLLED, ROLLING, AfterRoll, Roll
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.any_time import a_use_may
from app.games.darkest_night.rules.common import (
    automatic,
    blight_effect_active,
    blight_param_total,
    hero_name,
    roll_dice,
    spend,
)
from app.games.darkest_night.rules.items import relic_limit
from app.games.darkest_night.rules.powers import boosts, default_grace, dice_bonus, set_power, spec
from app.games.darkest_night.rules.stakes import (
    blight_dice_sources,
    dice_word,
    extras_text,
    roll_stakes,
    sources_text,
)
from app.games.darkest_night.state import Hero, State
from app.kernel.types import Choice


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
    pending["relic"] = purpose == "fight" and relic_adds(ctx, hero)
    pending["terror"] = terror_here(ctx, hero)
    if roll_asks(ctx, hero, pending) or (news(ctx) and extras_may_come(ctx.s, hero.id, pending)):
        ctx.ask(Roll(seat=hero.seat, step=pending))
        return
    who = hero_name(ctx, hero.id)
    if not nothing_to_add(ctx, hero, pending):  # sparks or boosts that cannot change the roll
        automatic(ctx, hero.id, f"{who}: no die added could change this roll, rolled at once")
    elif pending["relic"] and relic_could_be_handed_on(ctx.s, hero):  # refusing it: a sure loss
        why = "against 7 it is the only way to a success, DN 12.2, 15.2"
        automatic(ctx, hero.id, f"{who} takes the Holy Relic's +1", why=why)
    ctx.then([{"op": "roll_now", **pending}])


def roll_asks(ctx: Ctx, hero: Hero, pending: dict[str, Any]) -> bool:
    """Whether the roll question has an answer besides rolling that could change the roll:
    a spark or a boost to add to a roll more dice may change (DN 4.2, 14.1), or the Holy
    Relic's +1 to refuse (DN 15.2)."""
    if nothing_to_add(ctx, hero, pending):
        return False
    return pending["relic"] or not extra_dice_pointless(ctx, hero, pending)


NEWS = frozenset(
    {"DiceRolled", "CardDrawn", "EventRevealed", "PowerDrawn", "RenewalDrawn", "DarknessCardDrawn"}
)
"""Events that show something new (a die rolled, a card drawn): "any time" includes after
them and before their effects (DN 14.3.2)."""


def news(ctx: Ctx) -> bool:
    """Whether this command drew a card or rolled a die before this point: since the question
    it answered (whose "any time" offers were open beside it), something new may call for a
    use. Without news the roll follows that answer as the player saw it, so a use that could
    matter could have been made then: the roll is not held for it."""
    return any(e.type in NEWS for e in ctx.events)


def extras_may_come(s: State, hero_id: str, pending: dict[str, Any]) -> bool:
    """Whether something done "any time" before the roll (DN 14.3.2) may still give the
    roller something to add: a spark gained (Visions, a Lucky Coin, one given to the roller
    first), a boost refreshed (a Soothing Lyre). Then the roll waits, "Roll" its one listed
    answer beside those uses. A power drawn (a Treasure Chest) adds no answer: a boost
    acts once activated (DN 14.1), and the roll's dice were counted when it was called."""
    return a_use_may(
        s, partial(_roll_would_ask, hero_id=hero_id, pending=pending), to_hero=hero_id, hidden=no_draw
    )


def _roll_would_ask(s: State, hero_id: str, pending: dict[str, Any]) -> bool:
    return roll_asks(Ctx.reader(s), s.heroes[hero_id], pending)


def no_draw(_s: State, _use: Choice) -> bool:
    """A power drawn adds no answer to a roll's questions (``any_time.Hidden``): it brings
    no item, and no boost before it is activated."""
    return False


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


def relic_adds(ctx: Ctx, hero: Hero) -> bool:
    """Whether a Holy Relic adds 1 to the highest die of the hero's fight rolls now (DN 15.2):
    one is carried, it is not inert (``relic_acts``) and no Decay stops items (DN 11.2)."""
    return hero.relics() > 0 and relic_acts(hero) and not blight_effect_active(ctx, "items_disabled", None)


def relic_acts(hero: Hero) -> bool:
    """In the dual-class variant one relic is inert on the first turn of the round (DN 20.2.3)."""
    if hero.turns_per_round == 2 and hero.relics() < 2:
        return hero.turns_left == 1
    return True


def relic_refusable(s: State, hero: Hero, step: dict[str, Any]) -> bool:
    """Whether refusing the Holy Relic's +1 is an answer worth offering (DN 15.2): the roll
    takes it, the relic could be handed on this turn, and the roll can succeed without
    it. Against the Necromancer's 7 the +1 is the only way to a success (DN 12.2): refused,
    the fight is a sure loss, which yielding (DN 12.3), eluding or not attacking give
    without spending the roll, so keeping it is the one sensible answer."""
    return bool(step["relic"]) and int(step.get("target") or 0) <= 6 and relic_could_be_handed_on(s, hero)


def relic_could_be_handed_on(s: State, hero: Hero) -> bool:
    """Refusing the relic's +1 keeps it free to give or store this turn (DN 15.2): worth
    asking only with a hero here who may take a relic, or at the Monastery to store it."""
    if hero.location == MONASTERY:
        return True
    return any(
        other.id != hero.id and other.relics() < relic_limit(other) for other in s.heroes_at(hero.location)
    )


def nothing_to_add(ctx: Ctx, hero: Hero, step: dict[str, Any]) -> bool:
    """Whether rolling as it stands is the roll's only choice: ``roll_choices`` would list
    no spark to spend, no boost and no relic to refuse (asked without labelling them)."""
    if hero.sparks > 0 or boosts(ctx, hero, step["purpose"], {"vs": step.get("vs")}):
        return False
    return not relic_refusable(ctx.s, hero, step)


def roll_choices(s: State, decision: Roll) -> list[Choice]:
    """Roll as it stands, or spend 1, 2… of the hero's sparks and roll at once (DN 4.2: one
    click whatever the number, each with its odds); a boost to use or the relic's +1 to
    refuse asks again afterwards."""
    d = decision.step
    ctx = Ctx.reader(s)
    hero = s.heroes[d["hero"]]
    explained = sources_text(d["sources"]) + extras_text(d["relic"], d["terror"])
    stakes = roll_stakes(ctx, hero, d)
    out = [
        Choice(
            "roll_dice",
            {},
            roll_label(d, 0),
            explained + odds_text(d, 0) + (f"; {stakes}" if stakes else ""),
        )
    ]
    for n in range(1, hero.sparks + 1):
        left = hero.sparks - n
        dice = f"+{n} di{'ce' if n > 1 else 'e'}"
        detail = f"{dice}{odds_text(d, n)}; {left} spark{'s' if left != 1 else ''} left (DN 4.2)"
        out.append(Choice("roll_dice", {"sparks": n}, roll_label(d, n), detail))
    for mod in boosts(ctx, hero, d["purpose"], {"vs": d.get("vs")}):
        out.append(
            Choice(
                "use_boost",
                {"power": mod["power"]},
                f"Use {spec(ctx, mod['power']).name}: +{mod['n']} dice",
                "then it is no longer active" if mod.get("deactivate") else "",
            )
        )
    if relic_refusable(s, hero, d):
        out.append(
            Choice(
                "refuse_relic",
                {},
                "Refuse the Holy Relic's +1",
                "keep it free to hand on this turn (DN 15.2)",
            )
        )
    return out


def roll_label(d: dict[str, Any], sparks: int) -> str:
    """ "Roll 2 dice needing 4+", or with sparks spent "Spend 2 sparks: roll 4 dice needing 4+"."""
    dice = max(1, d["dice"] + sparks)
    target = d.get("target")
    roll = f"oll {dice_word(dice)}" + (f" needing {target}+" if target else "")
    if not sparks:
        return "R" + roll
    return f"Spend {sparks} spark{'s' if sparks > 1 else ''}: r" + roll


def odds_text(d: dict[str, Any], sparks: int) -> str:
    """ " — 75%": the roll's chance with ``sparks`` more dice (none for a roll with no target)."""
    target = d.get("target")
    if not target:
        return ""
    dice = max(1, d["dice"] + sparks)
    return f" — {chance(dice, target, relic=d['relic'], terror=d['terror']):.0%}"


@decision(Roll, roll_choices)
def resolve_roll(ctx: Ctx, decision: Roll, type_: str, args: dict[str, Any]) -> None:
    d = decision.step
    hero = ctx.s.heroes[d["hero"]]
    pending = dict(d)
    if type_ == "roll_dice":
        sparks = int(args.get("sparks", 0))
        if sparks:
            spend(ctx, hero, "sparks", sparks, f"{sparks} extra di{'ce' if sparks > 1 else 'e'} (DN 4.2)")
            pending["dice"] += sparks
            pending["sources"] = [*pending["sources"], ["spark" if sparks == 1 else "sparks", sparks]]
        ctx.then([{"op": "roll_now", **pending}])
        return
    if type_ == "use_boost":
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
    if not roll_asks(ctx, hero, pending):
        ctx.then([{"op": "roll_now", **pending}])  # nothing more to add: roll now
        return
    ctx.ask(Roll(seat=hero.seat, step=pending))  # the player rolls when ready


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
            (item.kind == "charm" and not more_dice_pointless(st))
            or (item.kind == "bottled_magic" and st["purpose"] == "fight" and not more_dice_pointless(st))
            or (item.kind == "vanishing_dust" and st["purpose"] == "elude" and st["successes"] == 0)
        ):
            out.append((item.id, item.kind))
    return out


def more_dice_pointless(st: dict[str, Any]) -> bool:
    """Whether dice added after the roll (Bottled Magic) or rerolled (a Charm) cannot better
    what it does (DN 15.0): the fight is already won and nothing counts its successes (a
    tactic's after-effect or a win that scales with them, e.g. a quest's progress, DN 16.2);
    a reroll could only lose it."""
    if st.get("successes", 0) <= 0 or (st.get("then") or {}).get("op") != "combat_result":
        return False
    if any(str(a.get("when", "")).startswith("successes") for a in st.get("tactic_after", ())):
        return False
    combat_ = st["then"].get("combat") or {}
    return "$successes" not in repr(combat_.get("win", []))


def roll_items_may_come(s: State, hero_id: str, st: dict[str, Any]) -> bool:
    """Whether something done "any time" after the roll, before its effects (DN 14.3.2), may
    still put an item that acts on it in the roller's hands: a hero here gives a Charm, the
    roller takes one stored at the Monastery (DN 15.1). Then the roll waits, "Keep the roll"
    its one listed answer beside those trades."""
    return a_use_may(s, partial(_items_would_act, hero_id=hero_id, st=st), to_hero=hero_id, hidden=no_draw)


def _items_would_act(s: State, hero_id: str, st: dict[str, Any]) -> bool:
    return bool(after_roll_items(Ctx.reader(s), s.heroes[hero_id], st))


@step("after_roll", *ROLLED)
def after_roll(ctx: Ctx, st: Step) -> None:
    """After a roll: offer the items that act on it (Charm, Bottled Magic, Vanishing Dust),
    held or that a trade may still bring (DN 14.3.2, 15.1)."""
    hero = ctx.s.heroes[st["hero"]]
    items = not st.get("no_items")
    if items and (after_roll_items(ctx, hero, st) or roll_items_may_come(ctx.s, hero.id, st)):
        ctx.ask(AfterRoll(seat=hero.seat, step={k: v for k, v in st.items() if k != "op"}))
        return
    held = {i.kind for i in hero.items if not i.locked} & {"bottled_magic", "charm"} if items else set()
    if held and more_dice_pointless(st) and not blight_effect_active(ctx, "items_disabled", hero.location):
        who = hero_name(ctx, hero.id)
        why = "the fight is won: more dice could change nothing"
        if "charm" in held:
            why = (
                "the fight is won: "
                + ("more dice or " if len(held) > 1 else "")
                + "a reroll could only lose it"
            )
        automatic(ctx, hero.id, f"{who} keeps the roll", why=why)
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


def settle_roll(ctx: Ctx, d: Roll | AfterRoll) -> None:
    """A roll asked about again after something done "any time" (DN 14.3.2) that left one
    answer, with nothing more to come from what may still be done at any time: the last
    spark spent or the Charm given away meanwhile. It goes on at once."""
    hero = ctx.s.heroes[d.step["hero"]]
    if isinstance(d, Roll):
        if not roll_asks(ctx, hero, d.step) and not extras_may_come(ctx.s, hero.id, d.step):
            ctx.s.decision = None
            ctx.then([{"op": "roll_now", **d.step}])
    elif not after_roll_items(ctx, hero, d.step) and not roll_items_may_come(ctx.s, hero.id, d.step):
        ctx.s.decision = None
        conclude_roll(ctx, hero, dict(d.step))
