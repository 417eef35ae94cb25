"""Items (DN 15.0): tokens gained from the stock, or any green-backed one when none is left
(DN 16.2); who may receive one and what it is called; keys, the items of a game without
mysteries (DN 20.5); Holy Relics: their cost (DN 8.0, 20.2.1), how many a hero may carry
and how many cost secrecy this turn (DN 15.2, 20.2.3). What may be done with items at any
time is ``any_time``."""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.content import load
from app.games.darkest_night.decisions import GreenItem
from app.games.darkest_night.engine import Ctx, decision
from app.games.darkest_night.state import Hero, Item, State
from app.kernel.types import Choice


def give_item_from_stock(ctx: Ctx, hero: Hero, kind: str, why: str) -> None:
    """Take a token; with none left, any green-backed item instead (DN 16.2)."""
    if ctx.s.item_stock.get(kind, 0) <= 0:
        greens = [k for k, v in ctx.c.items.items() if v.back == "green" and ctx.s.item_stock.get(k, 0) > 0]
        if not greens:
            ctx.emit("ItemUnavailable", hero=hero.id, kind=kind)
            return
        ctx.ask(GreenItem(seat=hero.seat, hero=hero.id, options=greens, why=why))
        return
    ctx.emit("ItemGained", hero=hero.id, item=f"i{ctx.s.next_item}", kind=kind, why=why)


KEY = "key"
"""Playing without mysteries, keys are items (DN 20.5): no token of the box, as many as earned."""


def gain_keys(ctx: Ctx, hero_id: str | None, n: int, why: str) -> None:
    """``n`` keys to the hero who earned them, as items carried (DN 20.5). With no hero to
    carry them (an effect of no hero's), they go to the heroes' old shared pool."""
    hero = ctx.s.heroes.get(hero_id) if hero_id else None
    if n <= 0:
        return
    if hero is None or hero.dead:
        ctx.emit("KeysChanged", to=ctx.s.keys + n, by=n, why=why)
        return
    for _ in range(n):
        ctx.emit("ItemGained", hero=hero.id, item=f"i{ctx.s.next_item}", kind=KEY, why=why, from_stock=False)


def keys_within_reach(s: State, hero: Hero) -> list[tuple[Hero, Item]]:
    """The keys ``hero`` may use: their own first, then those of heroes at the same place,
    who share what they carry until someone uses it (DN 15.1)."""
    carriers = [hero, *(h for h in s.heroes_at(hero.location) if h.id != hero.id)]
    return [(h, i) for h in carriers for i in h.items if i.kind == KEY]


def keys_available(s: State, hero: Hero) -> int:
    """Keys ``hero`` can spend now: within reach, plus the shared pool of games saved before
    keys were items (DN 20.5)."""
    return len(keys_within_reach(s, hero)) + s.keys


def keys_held(s: State) -> int:
    """Every key the heroes have (carried, stored, left by the fallen, the old pool)."""
    carried = sum(1 for h in s.living() for i in h.items if i.kind == KEY)
    lying = sum(1 for i in s.stored if i.kind == KEY) + sum(
        1 for items in s.orphaned.values() for i in items if i.kind == KEY
    )
    return carried + lying + s.keys


def spend_keys(ctx: Ctx, hero: Hero, n: int, why: str) -> None:
    """Discard ``n`` keys within reach, the hero's own first, then the old pool (DN 20.5)."""
    for carrier, item in keys_within_reach(ctx.s, hero)[:n]:
        ctx.emit("ItemLost", hero=carrier.id, item=item.id, why=why, to_stock=False)
        n -= 1
    if n > 0:
        ctx.emit("KeysChanged", to=ctx.s.keys - n, by=-n, why=why)


def relic_cost(s: State) -> tuple[str, int]:
    """10 clues; the first relic with 5 heroes 17 (DN 20.2.1); 3 keys without mysteries (DN 20.5)."""
    if s.options.get("no_mysteries"):
        return "keys", 3
    if s.options["heroes"] == 5 and s.relics_retrieved == 0:
        return "clues", 17
    return "clues", 10


def relic_limit(hero: Hero) -> int:
    return 2 if hero.turns_per_round == 2 else 1


def can_receive(hero: Hero, item: Item) -> bool:
    """One Holy Relic per hero (two for a dual-class hero) (DN 15.2, 20.2.3)."""
    return item.kind != "holy_relic" or hero.relics() < relic_limit(hero)


def relic_count_this_turn(s: State, hero: Hero) -> int:
    """How many relics act this turn: one, or in the dual-class variant one only on the
    second turn of the round unless the hero carries two (DN 20.2.3)."""
    relics = hero.relics()
    if not relics:
        return 0
    if hero.turns_per_round == 2:
        second_turn = hero.turns_left == 1
        return 1 if (relics >= 2 or second_turn) else 0
    return 1


def item_name(ctx: Ctx, item: Item) -> str:
    if item.kind == "artifact":
        return ctx.c.artifacts[item.data["card"]].name
    return ctx.c.items[item.kind].name


def green_item_choices(s: State, d: GreenItem) -> list[Choice]:
    items = load().items
    return [Choice("take_item", {"kind": k}, f"Take a {items[k].name}", items[k].text) for k in d.options]


@decision(GreenItem, green_item_choices)
def resolve_green_item(ctx: Ctx, d: GreenItem, _t: str, args: dict[str, Any]) -> None:
    """No token of the reward left: any green-backed item instead (DN 16.2)."""
    ctx.emit("ItemGained", hero=d.hero, item=f"i{ctx.s.next_item}", kind=args["kind"], why=d.why)
