"""Wounds, lost turns and death (DN 13.0): a wound kills unless the hero spends a grace
(DN 13.1); death ends the turn, raises the darkness and leaves the hero's items to the
heroes there, or to the next to arrive (DN 13.1, 15.1); a lost turn (DN 13.3)."""

from __future__ import annotations

from functools import partial
from typing import Any

from app.games.darkest_night.decisions import AfterRoll, FallenItem, Roll, Wound
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.any_time import a_use_may
from app.games.darkest_night.rules.common import automatic, can_spend, hero_name, raise_darkness, spend
from app.games.darkest_night.rules.dice import settle_roll
from app.games.darkest_night.rules.items import can_receive, item_name
from app.games.darkest_night.state import Hero, Item, State
from app.kernel.types import Choice


@step("wound", "hero", "power", "quest", "why")
def wound(ctx: Ctx, st: Step) -> None:
    """A wound kills unless the hero spends 1 grace (DN 13.1), "unless another effect
    prevents it": at 0 grace the wound still waits while any seat may use a power or an
    item at any time (DN 14.3.2: after a roll, before its effects), e.g. the Crusader's
    Martyr (1 grace) or the Valkyrie's Shield Maiden; with none, death has one answer.
    With grace to spend and no use that could spare the wound itself, spending it is the
    one sensible answer (the other is death): spent without asking, and said in the log."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead:
        return
    if hero.flags.get("turn:safe_from_wounds"):
        ctx.emit("WoundPrevented", hero=hero.id, why=hero.flags["turn:safe_from_wounds"])
        return
    if can_spend(hero, "grace", 1) and not may_be_spared(ctx.s, hero.id):
        survive(ctx, hero)
        return
    if can_spend(hero, "grace", 1) or may_be_saved(ctx.s, hero.id):
        ctx.ask(Wound(seat=hero.seat, hero=hero.id, why=st.get("why", "")))
        return
    ctx.then([{"op": "die", "hero": hero.id, "why": st.get("why", "a wound with no grace left")}])


def survive(ctx: Ctx, hero: Hero) -> None:
    """Spend the grace that death is the only other answer to (DN 13.1), saying so."""
    why = "death was the only other answer, DN 13.1"
    automatic(ctx, hero.id, f"{hero_name(ctx, hero.id)} spends 1 grace to survive the wound", why=why)
    spend(ctx, hero, "grace", 1, "negating a wound (DN 13.1)")


def settle_pending(ctx: Ctx) -> None:
    """A wound asked about, then made moot before it resolved by something used "any time"
    (DN 14.3.2: "after making a die roll … but before resolving its effects"): Shield
    Maiden spares the hero, so the wound prompt is not asked again; a hero already dead
    suffers nothing more; a hero at 0 grace whom nothing used at any time can save any
    more dies (DN 13.1: death is then the one answer), and one with a grace (Martyr's) that
    nothing can spare any more spends it."""
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
    elif can_spend(hero, "grace", 1):
        if not may_be_spared(ctx.s, hero.id):
            ctx.s.decision = None
            survive(ctx, hero)
    elif not may_be_saved(ctx.s, hero.id):
        ctx.s.decision = None
        ctx.then([{"op": "die", "hero": hero.id, "why": d.why or "a wound with no grace left"}])


def spared(s: State, hero_id: str) -> bool:
    """Whether a wound would now spare the hero: a grace to spend, or safe this turn (DN 13.1)."""
    hero = s.heroes[hero_id]
    return not hero.dead and (can_spend(hero, "grace", 1) or shielded(s, hero_id))


def shielded(s: State, hero_id: str) -> bool:
    """Whether wounds spare the hero this turn without a grace spent (Shield Maiden)."""
    hero = s.heroes[hero_id]
    return not hero.dead and bool(hero.flags.get("turn:safe_from_wounds"))


def may_be_spared(s: State, hero_id: str) -> bool:
    """Whether some seat may still keep the wound off the hero, so that no grace need be
    spent (Shield Maiden, Prophecy of Safety: DN 14.3.2), tried as ``may_be_saved``."""
    return a_use_may(s, partial(shielded, hero_id=hero_id))


def may_be_saved(s: State, hero_id: str) -> bool:
    """Whether some seat may still keep a wound from killing this hero at 0 grace, by a power
    or an item used at any time (DN 13.1 "unless another effect prevents it", DN 14.3.2):
    each use offered is tried on a copy of the state (``any_time.a_use_may``: with the
    questions it asks, up to three deep; a power drawn counts untried, the draw is hidden);
    the wound asks only if one may work, so a use that cannot help (a Shield Maiden at
    another location, 2 secrecy) asks nothing."""
    return a_use_may(s, partial(spared, hero_id=hero_id))


NO_GRACE_LEFT = "no grace left (DN 13.1, 4.1): a power or an item used at any time may still save (DN 14.3.2)"


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
            "not recommended (DN 13.1)" if out else NO_GRACE_LEFT,
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
