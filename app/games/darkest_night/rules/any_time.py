"""What a player may do at any time for their heroes, even while another player is asked
(DN 14.3.2, 15.1): give, store and take items, use an item or an "any time" power, and
turn auto-pass on or off (``autopass``)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from operator import attrgetter
from typing import Any

from app.games.darkest_night.content import LOCATIONS, MONASTERY, load
from app.games.darkest_night.engine import RULES, Ctx
from app.games.darkest_night.rules.autopass import auto_pass_choice, set_auto_pass
from app.games.darkest_night.rules.blights import move_hero
from app.games.darkest_night.rules.common import TRAVEL_SECRECY_CAP, gain, hero_name, lose, spend
from app.games.darkest_night.rules.items import can_receive, item_name
from app.games.darkest_night.rules.powers import (
    artifacts_work,
    carried_powers,
    note_use,
    refresh_all,
    set_power,
    spec,
)
from app.games.darkest_night.state import Hero, Item, State
from app.kernel.types import Choice

ANY_TIME_COMMANDS = ("give_item", "store_item", "take_stored_item", "use_item", "use_power", "set_auto_pass")


def anytime_choices(s: State, seat: int) -> list[Choice]:
    """What a player may do at any time for their heroes: give, store, take, use."""
    if s.result is not None or s.phase == "setup":
        return []
    mine = [h for h in s.heroes.values() if not h.dead and h.seat == seat]
    if not mine:
        return []
    any_time = load().any_time_powers
    ctx: Ctx | None = None
    """The reader, made once a hero may have something to offer."""
    out: list[Choice] = []
    decayed: bool | None = None
    """Decay: items have no effect (DN 11.2); asked once a hero carries an item."""
    for hero in mine:
        if not hero.items and (not s.stored or hero.location != MONASTERY):
            # Most heroes most of the time: nothing to give or take, and (no item, so no
            # artifact) no power to use unless one of their powers has an "any time" use.
            if not any_time.isdisjoint(map(id_of, hero.powers)):
                ctx = ctx or Ctx.reader(s)
                out.extend(power_uses(ctx, hero))
            continue
        ctx = ctx or Ctx.reader(s)
        if decayed is None:
            decayed = not artifacts_work(ctx)
        name = hero_name(ctx, hero.id)
        here = s.heroes_at(hero.location) if hero.items else []
        for item in hero.items:
            if item.locked:
                continue
            label = item_name(ctx, item)
            for other in here:
                if other.id != hero.id and can_receive(other, item):
                    out.append(
                        Choice(
                            "give_item",
                            {"hero": hero.id, "item": item.id, "to": other.id},
                            f"{name}: give {label} to {hero_name(ctx, other.id)}",
                            "free (DN 15.1)",
                        )
                    )
            if hero.location == MONASTERY:
                out.append(
                    Choice(
                        "store_item",
                        {"hero": hero.id, "item": item.id},
                        f"{name}: store {label} at the Monastery",
                        "free (DN 15.1)",
                    )
                )
            if not decayed:
                out.extend(item_uses(ctx, hero, item))
        if hero.location == MONASTERY:
            for item in s.stored:
                if can_receive(hero, item):
                    out.append(
                        Choice(
                            "take_stored_item",
                            {"hero": hero.id, "item": item.id},
                            f"{name}: take {item_name(ctx, item)} from the Monastery",
                            "free (DN 15.1)",
                        )
                    )
        out.extend(power_uses(ctx, hero))
    out.append(auto_pass_choice(s, seat))
    return out


USES = frozenset({"use_item", "use_power"})
"""The "any time" offers that act on the game (DN 14.3.2, 15.0): using a power or an item.
Trades (give, store, take) do not change what a wound does, and a fallen hero's items pass
on anyway (DN 15.1); turning auto-pass on or off is a setting."""


TRADES = frozenset({"give_item", "take_stored_item"})
"""The "any time" offers that move an item to a hero (DN 15.1): one bringing the roller a
Charm may change a roll (DN 15.0) as much as a use."""


def anytime_uses(s: State, to_hero: str | None = None) -> list[Choice]:
    """Every seat's "any time" uses now (DN 14.3.2): what a question the rules would skip
    must still wait for, since any of them may change what it resolves (the Crusader's
    Martyr or the Valkyrie's Shield Maiden before a wound at 0 grace, DN 13.1); with
    ``to_hero``, the trades that bring that hero an item too (DN 15.1)."""
    seats = sorted({h.seat for h in s.heroes.values() if not h.dead})
    return [
        c
        for seat in seats
        for c in anytime_choices(s, seat)
        if c.type in USES or (to_hero is not None and c.type in TRADES and receiver(c) == to_hero)
    ]


def receiver(trade: Choice) -> str:
    """The hero a trade gives its item to (a hero taking a stored item takes it)."""
    return str(trade.args.get("to", trade.args["hero"]))


POWER_DRAWING_ITEMS = frozenset({"treasure_chest", "tome_of_retraining"})
"""Items whose use draws powers (DN 15.0): the power drawn is hidden (the deck's order), so
what it would change cannot be tried; ``Hidden`` says whether such a use counts."""

TRY_DEPTH = 3
"""How many "any time" uses and their questions one tried way may take (the Soothing Lyre
refreshes Martyr, then Martyr gains the grace; Intercession asks which hero)."""

Reached = Callable[[State], bool]
"""What a tried use must bring about (a wound spared, a roll with something to add)."""

Hidden = Callable[[State, Choice], bool]
"""Whether a use that draws a hidden power counts as possibly reaching it, untried."""


def every_draw(_s: State, _use: Choice) -> bool:
    """Every power drawn counts (``Hidden``): a wound's rescue may be the card drawn."""
    return True


class _AgendaDone(Exception):
    """A tried use has run all its steps."""


def _stop(_: Ctx) -> None:
    raise _AgendaDone


def a_use_may(
    s: State,
    reached: Reached,
    *,
    to_hero: str | None = None,
    hidden: Hidden = every_draw,
    depth: int = TRY_DEPTH,
) -> bool:
    """Whether some seat may still bring ``reached`` about by what it may do at any time
    (DN 14.3.2): each use offered (``anytime_uses``, with the trades to ``to_hero``) is
    tried on a copy of the state, with every answer to the questions it asks, up to
    ``depth`` uses and questions deep; a use that draws a hidden power counts when
    ``hidden`` says so. A question the rules would skip as having one answer waits, as the
    one listed answer beside those uses, only when this is true."""
    if depth <= 0:
        return False
    for use in anytime_uses(s, to_hero):
        if use.type == "use_item" and item_kind(s, use.args) in POWER_DRAWING_ITEMS:
            if hidden(s, use):
                return True
            continue
        ctx = Ctx(s.clone(), random.Random(0), load())
        ctx.s.decision, ctx.s.agenda = None, []
        resolve_anytime(ctx, s.heroes[use.args["hero"]].seat, use.type, dict(use.args))
        if _reached_after(ctx, reached, to_hero, hidden, depth):
            return True
    return False


def _reached_after(ctx: Ctx, reached: Reached, to_hero: str | None, hidden: Hidden, depth: int) -> bool:
    """Run what a tried use scheduled; answer each question it asks every way it may be
    answered; then whether ``reached`` holds, or may by a further use."""
    with contextlib.suppress(_AgendaDone):
        ctx.run(_stop)
    d = ctx.s.decision
    if d is not None:
        rule = ctx.rules.decisions[d.kind]
        for choice in rule.choices(ctx.s, d):
            answered = Ctx(ctx.s.clone(), random.Random(0), load())
            answered.s.decision = None
            rule.resolve(answered, d, choice.type, dict(choice.args))
            if _reached_after(answered, reached, to_hero, hidden, depth - 1):
                return True
        return False
    return reached(ctx.s) or a_use_may(ctx.s, reached, to_hero=to_hero, hidden=hidden, depth=depth - 1)


def item_kind(s: State, args: dict[str, Any]) -> str:
    item = s.heroes[args["hero"]].item(args["item"])
    return item.kind if item is not None else ""


def own_turn(s: State, hero: Hero) -> bool:
    return s.phase == "turn" and s.current == hero.id


def item_uses(ctx: Ctx, hero: Hero, item: Item) -> list[Choice]:
    s = ctx.s
    name = hero_name(ctx, hero.id)
    kind = item.kind
    if kind == "treasure_chest" and hero.deck:
        return [
            Choice(
                "use_item",
                {"hero": hero.id, "item": item.id},
                f"{name}: open the Treasure Chest",
                "draw a power card",
            )
        ]
    if kind == "soothing_lyre":
        return [
            Choice(
                "use_item",
                {"hero": hero.id, "item": item.id},
                f"{name}: play the Soothing Lyre",
                "refresh every power of every hero",
            )
        ]
    if kind == "tome_of_retraining" and len(hero.deck) >= 1:
        return [
            Choice(
                "use_item",
                {"hero": hero.id, "item": item.id, "power": p.id},
                f"{name}: Tome of Retraining, retrain {spec(ctx, p.id).name}",
                "it goes to the bottom of your deck; draw 2 powers and keep both",
            )
            for p in hero.powers
        ]
    if kind == "waystone" and own_turn(s, hero):
        return [
            Choice(
                "use_item",
                {"hero": hero.id, "item": item.id, "to": loc},
                f"{name}: Waystone to the {loc}",
                "+1 secrecy (up to 5)",
            )
            for loc in LOCATIONS
            if loc != hero.location
        ]
    if kind == "cursed_ashes" and own_turn(s, hero) and not hero.flags.get("ignore_blights"):
        return [
            Choice(
                "use_item",
                {"hero": hero.id, "item": item.id},
                f"{name}: scatter the Cursed Ashes",
                "ignore blights' effects for the rest of this turn",
            )
        ]
    if kind == "psion_stone" and own_turn(s, hero):
        return [
            Choice(
                "use_item",
                {"hero": hero.id, "item": item.id, "power": p.id},
                f"{name}: attach the Psion Stone to {spec(ctx, p.id).name}",
                "every hero may then use this tactic",
            )
            for p in hero.powers
            if spec(ctx, p.id).tactic and not p.data.get("psion")
        ]
    return []


id_of = attrgetter("id")
"""A power's id (mapped over a hero's powers in C: every prompt asks, for each hero)."""


def power_uses(ctx: Ctx, hero: Hero) -> list[Choice]:
    """Powers with an "any time" effect (DN 14.3.2)."""
    out: list[Choice] = []
    any_time = ctx.c.any_time_powers
    if any_time.isdisjoint(map(id_of, hero.powers)):
        for item in hero.items:  # an artifact is a power too (a loop: asked for every hero)
            if item.kind == "artifact" and item.data["card"] in any_time:
                break
        else:
            return out
    for power in carried_powers(hero, artifacts_work(ctx)):
        definition = spec(ctx, power.id)
        use = definition.any_time
        if not use or power.exhausted:
            continue
        if any(getattr(hero, r) < n for r, n in use.get("cost", {}).items()):
            continue
        out.append(
            Choice(
                "use_power",
                {"hero": hero.id, "power": power.id},
                f"{hero_name(ctx, hero.id)}: {definition.name}",
                definition.text,
            )
        )
    return out


def resolve_anytime(ctx: Ctx, seat: int, type_: str, args: dict[str, Any]) -> None:
    """An "any time" command, found among ``anytime_choices`` of its seat (``FlowGame.decide``)."""
    if type_ == "set_auto_pass":
        set_auto_pass(ctx, seat, args["on"])
        return
    hero = ctx.s.heroes[args["hero"]]
    if type_ == "give_item":
        item = hero.item(args["item"])
        assert item is not None
        receiver = ctx.s.heroes[args["to"]]
        ctx.emit("ItemGiven", item=item.id, **{"from": hero.id}, to=receiver.id, why="a trade (DN 15.1)")
        if item.kind == "holy_relic":
            lose(ctx, receiver, "secrecy", 1, "receiving a Holy Relic (DN 15.2)")
    elif type_ == "store_item":
        ctx.emit("ItemGiven", item=args["item"], **{"from": hero.id}, to="monastery", why="stored (DN 15.1)")
    elif type_ == "take_stored_item":
        ctx.emit(
            "ItemGiven", item=args["item"], **{"from": "monastery"}, to=hero.id, why="retrieved (DN 15.1)"
        )
    elif type_ == "use_item":
        use_item(ctx, hero, args)
    elif type_ == "use_power":
        use_power(ctx, hero, args["power"])


def use_item(ctx: Ctx, hero: Hero, args: dict[str, Any]) -> None:
    item = hero.item(args["item"])
    assert item is not None
    kind = item.kind
    lasting = kind == "psion_stone"
    ctx.emit("ItemUsed", hero=hero.id, item=item.id, kind=kind, discard=not lasting)
    if kind == "treasure_chest":
        ctx.then([{"op": "draw_power", "hero": hero.id, "why": "a Treasure Chest"}])
    elif kind == "soothing_lyre":
        for other in ctx.s.living():
            refresh_all(ctx, other, "the Soothing Lyre")
    elif kind == "tome_of_retraining":
        ctx.emit("PowerReturned", hero=hero.id, power=args["power"], bottom=True)
        ctx.then(
            [
                {"op": "draw_power", "hero": hero.id, "why": "a Tome of Retraining"},
                {"op": "draw_power", "hero": hero.id, "why": "a Tome of Retraining"},
            ]
        )
    elif kind == "waystone":
        move_hero(ctx, hero, args["to"], "a Waystone")
        gain(ctx, hero, "secrecy", 1, "a Waystone", cap=TRAVEL_SECRECY_CAP)
    elif kind == "cursed_ashes":
        ctx.emit("HeroFlagged", hero=hero.id, flag="ignore_blights", value=True)
    elif kind == "psion_stone":
        # Attached once for good (DN 15.0: a basic item is used once; a gold one's effect
        # lasts): the stone leaves the hero's items, to no stock, and stays on the power.
        power = hero.power(args["power"])
        assert power is not None
        ctx.emit("PowerChanged", hero=hero.id, power=power.id, data=dict(power.data) | {"psion": True})
        ctx.emit(
            "ItemLost",
            hero=hero.id,
            item=item.id,
            why=f"attached to {spec(ctx, power.id).name} (DN 15.0)",
            to_stock=False,
        )


def use_power(ctx: Ctx, hero: Hero, power_id: str) -> None:
    definition = spec(ctx, power_id)
    use = definition.any_time or {}
    note_use(ctx, hero, power_id)
    for resource, n in use.get("cost", {}).items():
        spend(ctx, hero, resource, n, definition.name)
    if use.get("exhaust"):
        set_power(ctx, hero, power_id, exhausted=True, why=f"used {definition.name}")
    ctx.emit("PowerUsed", hero=hero.id, power=power_id)
    ctx.then([dict(e) | {"hero": hero.id, "power": power_id} for e in use.get("effects", ())])


ANY_TIME = RULES.window("any_time", ANY_TIME_COMMANDS, anytime_choices, resolve_anytime)
"""Giving, storing, taking and using items and "any time" powers, while the table waits on
any decision, even another player's (DN 14.3.2, 15.1)."""
