"""Small shared rules: resources (DN 4.1, 4.2), dice (DN 5.0), decks (DN 19.1), darkness
(DN 9.0), blight creation (DN 11.1) and the end of the game (DN 18.0)."""

from __future__ import annotations

from itertools import chain
from operator import attrgetter
from typing import Any

from app.games.darkest_night.content import LOCATIONS, MONASTERY
from app.games.darkest_night.describe import hero_label
from app.games.darkest_night.engine import Ctx
from app.games.darkest_night.state import Hero, State
from app.kernel.rng import roll, shuffle

MAX_SPARKS = 3
TRAVEL_SECRECY_CAP = 5
NECROMANCER_STRENGTH = 7


def hero_name(_: Ctx | State, hero_id: str) -> str:
    if not hero_id:
        return "Someone"
    name = _HERO_NAMES.get(hero_id)
    if name is None:
        name = _HERO_NAMES[hero_id] = hero_label(str(hero_id))
    return name


_HERO_NAMES: dict[str, str] = {}
"""``hero_name`` by hero id: a name comes from the content alone (asked for in every
prompt's labels)."""


# -- global and local effects of blights, darkness cards and powers -------------------


def blights_here(s: State, location: str) -> list[str]:
    return [b.type for b in s.blights.get(location, [])]


NO_BLIGHTS: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
type_of = attrgetter("type")
every_blight = chain.from_iterable
"""A blight's type, and the blights of every location in turn (``blights.values()``)."""


def blight_effect_active(ctx: Ctx, effect: str, location: str | None, *, hero: Hero | None = None) -> int:
    """How many blights with ``effect`` apply at ``location`` (red ones apply everywhere).

    Cursed Ashes let a hero ignore blight effects for the rest of a turn."""
    if hero is not None and hero.flags.get("ignore_blights"):
        return 0
    red, local = ctx.c.blights_by_effect.get(effect, NO_BLIGHTS)
    count = 0
    if local and location is not None:
        for blight in ctx.s.blights.get(location, ()):
            if blight.type in local:
                count += 1
    if red:
        for blights in ctx.s.blights.values():
            for blight in blights:
                if blight.type in red:
                    count += 1
    return count


def blight_param_total(ctx: Ctx, effect: str, location: str | None, *, hero: Hero | None = None) -> int:
    """The sum of ``params.n`` of the blights with ``effect`` that apply at ``location``."""
    if hero is not None and hero.flags.get("ignore_blights"):
        return 0
    red, local = ctx.c.blights_by_effect.get(effect, NO_BLIGHTS)
    applying = []
    if local and location is not None:
        applying += [b.type for b in ctx.s.blights.get(location, ()) if b.type in local]
    if red:
        applying += [b.type for blights in ctx.s.blights.values() for b in blights if b.type in red]
    return sum(int(ctx.c.blights[t].params.get("n", 0)) for t in applying)


def automatic(ctx: Ctx, hero_id: str | None, what: str, why: str = "") -> None:
    """Say in the log what the rules did without asking: a question with one meaningful
    answer is not asked (issue 11, "never ask what has one meaningful answer"), or a seat
    auto-passes (``why``)."""
    ctx.emit("Automatic", hero=hero_id, what=what, why=why)


# -- resources (DN 4.1, 4.2) ------------------------------------------------------------


def set_resource(ctx: Ctx, hero: Hero, field: str, value: int, why: str) -> None:
    old = getattr(hero, field)
    if value != old:
        ctx.emit("HeroChanged", hero=hero.id, stat=field, to=value, by=value - old, why=why)


def gain(ctx: Ctx, hero: Hero, resource: str, n: int, why: str, cap: int | None = None) -> int:
    """Gain up to ``cap`` (never lowering a value already above it, DN 4.1 examples).

    No one can gain grace where a Taint blight is (DN 4.1). Returns what was gained."""
    if n <= 0 or hero.dead:
        return 0
    if resource == "grace" and blight_effect_active(ctx, "no_grace_gain", hero.location, hero=hero):
        ctx.emit("GainPrevented", hero=hero.id, resource="grace", why="Taint blight here (DN 4.1)")
        return 0
    if resource == "sparks":
        cap = MAX_SPARKS if cap is None else min(cap, MAX_SPARKS)
    old = getattr(hero, resource)
    new = old + n
    if cap is not None:
        new = max(old, min(new, cap))
    set_resource(ctx, hero, resource, new, why)
    return new - old


def lose(ctx: Ctx, hero: Hero, resource: str, n: int, why: str) -> int:
    """Lose, never below zero: losses beyond zero are ignored (DN 4.1)."""
    if n <= 0 or hero.dead:
        return 0
    old = getattr(hero, resource)
    new = max(0, old - n)
    set_resource(ctx, hero, resource, new, why)
    return old - new


def can_spend(hero: Hero, resource: str, n: int) -> bool:
    """You cannot spend what you do not have (DN 4.1)."""
    return getattr(hero, resource) >= n


def spend(ctx: Ctx, hero: Hero, resource: str, n: int, why: str) -> None:
    if not can_spend(hero, resource, n):
        raise ValueError(f"{hero.id} cannot spend {n} {resource}")
    set_resource(ctx, hero, resource, getattr(hero, resource) - n, why)


# -- dice (DN 5.0) ------------------------------------------------------------------------


def roll_dice(ctx: Ctx, count: int) -> list[int]:
    """Roll ``count`` dice; regardless of penalties at least one die is rolled (DN 5.0)."""
    return roll(ctx.rng, max(1, count))  # ``ctx.rng.randint(1, 6)`` each


# -- decks (DN 19.1) ----------------------------------------------------------------------


def draw(ctx: Ctx, deck_name: str, *, reason: str = "", private_seat: int | None = None) -> str | None:
    """Draw the top card, reshuffling the discards into a new deck when it runs out.

    With no cards and no discards, nothing is drawn (DN 19.1)."""
    deck = ctx.s.decks[deck_name]
    if not deck.cards:
        if not deck.discard:
            ctx.emit("DeckEmpty", deck=deck_name)
            return None
        reshuffle(ctx, deck_name)
    card = deck.cards[0]
    if private_seat is not None:
        ctx.emit("CardDrawn", deck=deck_name, card=card, reason=reason, private_seat=private_seat)
    else:
        ctx.emit("CardDrawn", deck=deck_name, card=card, reason=reason)
    return card


def reshuffle(ctx: Ctx, deck_name: str, extra: list[str] | None = None) -> None:
    deck = ctx.s.decks[deck_name]
    cards = list(deck.cards) + list(deck.discard) + list(extra or [])
    shuffle(ctx.rng, cards)
    ctx.emit("DeckShuffled", deck=deck_name, order=cards, with_discards=True)


def discard(ctx: Ctx, deck_name: str, card: str) -> None:
    ctx.emit("CardDiscarded", deck=deck_name, card=card)


# -- darkness (DN 9.0) --------------------------------------------------------------------


DARKNESS_SCHEDULES = {
    0: (),
    1: (15,),
    2: (10, 20),
    3: (7, 14, 21),
    4: (5, 10, 15, 20),
    5: (4, 8, 12, 16, 20),
    6: (2, 6, 10, 14, 18, 22),
    7: (0, 4, 8, 12, 16, 20, 24),
    8: (0, 3, 6, 9, 12, 15, 18, 21),
}
"""When darkness cards are drawn, by how many are used (DN 20.1.1)."""

DARKNESS_LIMIT = 30


def raise_darkness(ctx: Ctx, n: int, why: str) -> None:
    """Raise the darkness; each point beyond 30 creates a blight in the Monastery instead
    (DN 9.0, 18.3). Thresholds draw darkness cards (DN 9.0, 20.1.1)."""
    for _ in range(n):
        if ctx.s.result is not None:
            return
        if ctx.s.darkness >= DARKNESS_LIMIT:
            ctx.emit("DarknessOverflowed", why=why)
            create_blight(ctx, MONASTERY, why="darkness beyond 30 (DN 9.0)")
            continue
        ctx.emit("DarknessChanged", to=ctx.s.darkness + 1, by=1, why=why)
        check_darkness_thresholds(ctx)


def lower_darkness(ctx: Ctx, n: int, why: str) -> None:
    if n > 0:
        ctx.emit("DarknessChanged", to=ctx.s.darkness - n, by=-n, why=why)


def check_darkness_thresholds(ctx: Ctx) -> None:
    schedule = darkness_schedule(ctx.s)
    reached = ctx.s.darkness_thresholds_reached
    while reached < len(schedule) and ctx.s.darkness >= schedule[reached]:
        reached += 1
        ctx.then([{"op": "draw_darkness_card", "thresholds": reached}])


def darkness_schedule(s: State) -> tuple[int, ...]:
    if s.options.get("no_darkness_deck"):
        return (10, 20)
    return DARKNESS_SCHEDULES[int(s.options.get("darkness_cards", 2))]


def darkness_rule(ctx: Ctx, rule: str) -> bool:
    """Is a darkness card with this lasting rule in play (``rule = "last_gasp"``)?"""
    return any(ctx.c.darkness[c].data.get("rule") == rule for c in ctx.s.darkness_cards)


# -- blights (DN 11.1) --------------------------------------------------------------------


def create_blight(ctx: Ctx, location: str, *, why: str, blight_type: str | None = None) -> None:
    """Create a blight at ``location`` (DN 11.1): the type from the map deck unless given.
    Whether the location is full is decided when the blight is placed, not now, so two
    blights created in a row cannot both squeeze into the last space."""
    if ctx.s.result is not None:
        return
    ctx.then([{"op": "create_blight_at", "location": location, "why": why, "type": blight_type}])


def blight_destination(ctx: Ctx, location: str) -> str | None:
    """Where a new blight goes: a location with 4 or more sends it to the Monastery; a
    Monastery with 4 or more loses the game (DN 11.1, 18.3), and then it goes nowhere."""
    if location != MONASTERY and ctx.s.blight_count(location) >= 4:
        ctx.emit("BlightRedirected", location=location, why="4 blights there already (DN 11.1)")
        location = MONASTERY
    if location == MONASTERY and ctx.s.blight_count(MONASTERY) >= 4:
        end_game(ctx, "loss", "The Monastery is overrun: a fifth blight fell on it (DN 18.3).")
        return None
    return location


def place_blight(ctx: Ctx, location: str, blight_type: str, why: str) -> None:
    blight_id = f"b{ctx.s.next_blight}"
    ctx.emit("BlightPlaced", location=location, blight=blight_id, type=blight_type, why=why)


def stock_of(ctx: Ctx, blight_type: str) -> int:
    in_play = sum(1 for bs in ctx.s.blights.values() for b in bs if b.type == blight_type)
    return ctx.c.blights[blight_type].tokens - in_play


def end_game(ctx: Ctx, result: str, reason: str) -> None:
    if ctx.s.result is None:
        ctx.emit("GameEnded", result=result, reason=reason)


def location_order() -> tuple[str, ...]:
    return LOCATIONS


def describe_dice(faces: list[int]) -> str:
    return ", ".join(str(f) for f in faces)


def pick(d: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: d[k] for k in keys if k in d}
