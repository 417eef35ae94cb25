"""Search results (DN 8.0): a map card per success, one result kept, a power card or a
green-backed item after three misses; what each result gives: items, mysteries (DN 17.2),
forgotten shrines (DN 4.1), revelations, epiphanies, supply caches and other powers drawn
(DN 14.0), artifacts (DN 14.4); without mysteries, keys (DN 20.5)."""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.content import load
from app.games.darkest_night.decisions import Epiphany, SearchChoice, SearchFallback, SupplyCache
from app.games.darkest_night.describe import result_name
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.common import discard, draw, gain
from app.games.darkest_night.rules.items import gain_keys
from app.games.darkest_night.rules.powers import default_grace, refresh_all
from app.games.darkest_night.state import Hero, State
from app.kernel.rng import shuffle
from app.kernel.types import Choice


@step("search_result", "faces", "hero", "kept", "successes")
def search_result(ctx: Ctx, st: Step) -> None:
    """A map card per success; cards whose result cannot be taken are replaced; after 3
    misses a power card or any green-backed item (DN 8.0)."""
    hero = ctx.s.heroes[st["hero"]]
    if st["successes"] == 0:
        ctx.emit("SearchFailed", hero=hero.id)
        return
    cards: list[str] = []
    misses = 0
    while len(cards) < st["successes"] and misses < 3:
        card = draw(ctx, "map", reason="searching")
        if card is None:
            break
        result = ctx.c.map_cards[card].search.get(hero.location)
        if result and result_available(ctx, hero, result):
            cards.append(card)
        else:
            ctx.emit("SearchResultUnavailable", card=card, result=result)
            discard(ctx, "map", card)
            misses += 1
    if not cards:
        if misses >= 3:
            ctx.ask(SearchFallback(seat=hero.seat, hero=hero.id))
        return
    if len(cards) == 1:
        take_search_result(ctx, hero, cards[0], [])
        return
    ctx.ask(SearchChoice(seat=hero.seat, hero=hero.id, cards=cards))


def result_available(ctx: Ctx, hero: Hero, result: str) -> bool:
    if result == "artifact":
        deck = ctx.s.decks["artifact"]
        return bool(deck.cards or deck.discard)
    if result in ctx.c.items:
        return ctx.s.item_stock.get(result, 0) > 0
    if result == "mystery":
        if ctx.s.options.get("no_mysteries"):
            return True  # the symbol is a key (DN 20.5)
        deck = ctx.s.decks["mystery"]
        return bool(deck.cards or deck.discard)
    if result in ("supply_cache", "epiphany"):
        return bool(hero.deck)
    return True


def search_choice_choices(s: State, d: SearchChoice) -> list[Choice]:
    content = load()
    hero = s.heroes[d.hero]
    return [
        Choice(
            "take_result",
            {"card": c},
            result_name(content.map_cards[c].search[hero.location]),
            "the other cards are discarded",
        )
        for c in d.cards
    ]


@decision(SearchChoice, search_choice_choices)
def resolve_search_choice(ctx: Ctx, d: SearchChoice, _t: str, args: dict[str, Any]) -> None:
    hero = ctx.s.heroes[d.hero]
    take_search_result(ctx, hero, args["card"], [c for c in d.cards if c != args["card"]])


def take_search_result(ctx: Ctx, hero: Hero, card: str, others: list[str]) -> None:
    result = ctx.c.map_cards[card].search[hero.location]
    ctx.emit("SearchSucceeded", hero=hero.id, card=card, result=result, location=hero.location)
    for other in [*others, card]:
        discard(ctx, "map", other)
    ctx.then(
        [
            {
                "op": "gain_item" if result in ctx.c.items and result != "artifact" else f"find_{result}",
                "kind": result,
                "hero": hero.id,
                "why": "searching",
            }
        ]
    )


def fallback_choices(s: State, d: SearchFallback) -> list[Choice]:
    content = load()
    hero = s.heroes[d.hero]
    out = []
    if hero.deck:
        out.append(Choice("fallback_power", {}, "Draw a power card", "three map cards gave nothing (DN 8.0)"))
    for kind, spec in content.items.items():
        if spec.back == "green" and s.item_stock.get(kind, 0) > 0:
            out.append(Choice("fallback_item", {"kind": kind}, f"Take a {spec.name}", spec.text))
    return out or [Choice("fallback_nothing", {}, "Receive nothing", "nothing is left to take (DN 8.0)")]


@decision(SearchFallback, fallback_choices)
def resolve_fallback(ctx: Ctx, d: SearchFallback, type_: str, args: dict[str, Any]) -> None:
    if type_ == "fallback_power":
        ctx.then([{"op": "draw_power", "hero": d.hero}])
    elif type_ == "fallback_item":
        ctx.then([{"op": "gain_item", "hero": d.hero, "kind": args["kind"], "why": "searching"}])


@step("find_mystery", "hero", "kind", "why")
def find_mystery(ctx: Ctx, st: Step) -> None:
    """A search result: draw a mystery card (DN 17.2); without mysteries, a key (DN 20.5)."""
    if ctx.s.options.get("no_mysteries"):
        gain_keys(ctx, st["hero"], 1, "a mystery symbol is a key (DN 20.5)")
        return
    ctx.then([{"op": "draw_mystery", "hero": st["hero"]}])


@step("find_forgotten_shrine", "hero", "kind", "power", "why")
def find_forgotten_shrine(ctx: Ctx, st: Step) -> None:
    """+2 grace with no limit (DN 4.1 example)."""
    gain(ctx, ctx.s.heroes[st["hero"]], "grace", 2, "a forgotten shrine (DN 4.1)")


@step("find_revelation", "hero", "kind", "power", "why")
def find_revelation(ctx: Ctx, st: Step) -> None:
    """A search result: 3 clues (and Revelation's permanent mysteries); without mysteries,
    a key (DN 20.5: a revelation symbol is a key, no dice)."""
    if ctx.s.options.get("no_mysteries"):
        gain_keys(ctx, st["hero"], 1, "a revelation symbol is a key (DN 20.5)")
        return
    ctx.then([{"op": "clues", "hero": st["hero"], "n": 3, "why": "a revelation"}])
    ctx.then([{"op": "permanent_hook", "hook": "revelation", "hero": st["hero"]}])


@step("find_inspiration", "hero")
def find_inspiration(ctx: Ctx, st: Step) -> None:
    """Inspiration (authored): a spark and your powers refreshed."""
    hero = ctx.s.heroes[st["hero"]]
    gain(ctx, hero, "sparks", 1, "inspiration")
    refresh_all(ctx, hero, "inspiration")


@step("find_stardust", "hero", "kind", "why")
def find_stardust(ctx: Ctx, st: Step) -> None:
    """Stardust (authored): +2 secrecy up to 7 and 1 grace up to default."""
    hero = ctx.s.heroes[st["hero"]]
    gain(ctx, hero, "secrecy", 2, "stardust", cap=7)
    gain(ctx, hero, "grace", 1, "stardust", cap=default_grace(ctx, hero))


@step("find_epiphany", "hero", "kind", "power", "why")
def find_epiphany(ctx: Ctx, st: Step) -> None:
    """Choose any card of your power deck, then shuffle it (first edition's wording)."""
    hero = ctx.s.heroes[st["hero"]]
    ctx.then([{"op": "permanent_hook", "hook": "epiphany", "hero": hero.id}])
    if hero.deck:
        ctx.ask(Epiphany(seat=hero.seat, hero=hero.id))


def epiphany_choices(s: State, d: Epiphany) -> list[Choice]:
    powers = load().powers()
    return [
        Choice("take_power", {"power": p}, powers[p].name, powers[p].text)
        for p in sorted(s.heroes[d.hero].deck)
    ]


@decision(Epiphany, epiphany_choices)
def resolve_epiphany(ctx: Ctx, d: Epiphany, _t: str, args: dict[str, Any]) -> None:
    take_power_from_deck(ctx, ctx.s.heroes[d.hero], args["power"], "an epiphany")


def take_power_from_deck(ctx: Ctx, hero: Hero, power: str, why: str) -> None:
    """Take a chosen card from the power deck, then shuffle the deck."""
    ctx.emit("PowerDrawn", hero=hero.id, power=power, why=why)
    ctx.emit("PowerGained", hero=hero.id, power=power)
    order = list(hero.deck)
    shuffle(ctx.rng, order)
    ctx.emit("PowerDeckShuffled", hero=hero.id, order=order)


@step("find_supply_cache", "hero", "kind", "power", "why")
def find_supply_cache(ctx: Ctx, st: Step) -> None:
    """Draw 2 powers, keep 1, the other to the bottom of the deck (Extended Example)."""
    hero = ctx.s.heroes[st["hero"]]
    drawn = hero.deck[:2]
    if not drawn:
        return  # an empty power deck gives nothing (DN 19.1)
    for power in drawn:
        ctx.emit("PowerDrawn", hero=hero.id, power=power, why="a supply cache", private_seat=hero.seat)
    if len(drawn) == 1:
        ctx.emit("PowerGained", hero=hero.id, power=drawn[0])
        return
    ctx.ask(SupplyCache(seat=hero.seat, hero=hero.id, drawn=drawn))


def supply_choices(s: State, d: SupplyCache) -> list[Choice]:
    powers = load().powers()
    return [Choice("keep_power", {"power": p}, f"Keep {powers[p].name}", powers[p].text) for p in d.drawn]


@decision(SupplyCache, supply_choices)
def resolve_supply(ctx: Ctx, d: SupplyCache, _t: str, args: dict[str, Any]) -> None:
    hero = ctx.s.heroes[d.hero]
    ctx.emit("PowerGained", hero=hero.id, power=args["power"])
    other = next(p for p in d.drawn if p != args["power"])
    ctx.emit("PowerPutBack", hero=hero.id, power=other, bottom=True, private_seat=hero.seat)


@step("draw_power", "hero", "power", "why")
def draw_power(ctx: Ctx, st: Step) -> None:
    """Draw the top card of the hero's power deck into play (DN 14.0)."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.deck:
        power = hero.deck[0]
        ctx.emit("PowerDrawn", hero=hero.id, power=power, why=st.get("why", "a card"))
        ctx.emit("PowerGained", hero=hero.id, power=power)


@step("find_artifact", "hero", "kind", "why")
def find_artifact(ctx: Ctx, st: Step) -> None:
    """A search result: draw an artifact card (DN 14.4)."""
    ctx.then([{"op": "draw_artifact", "hero": st["hero"]}])


@step("draw_artifact", "hero", "power", "why")
def draw_artifact(ctx: Ctx, st: Step) -> None:
    """An artifact card: a power that is also an item (DN 14.4)."""
    card = draw(ctx, "artifact", reason="an artifact")
    if card is None:
        return
    hero = ctx.s.heroes[st["hero"]]
    ctx.emit(
        "ItemGained",
        hero=hero.id,
        item=f"i{ctx.s.next_item}",
        kind="artifact",
        from_stock=False,
        data={"card": card, "exhausted": False, "active": False, "target": None},
    )
