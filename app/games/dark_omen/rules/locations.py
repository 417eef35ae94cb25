"""Location tokens (DO L301-313): face down until unlocked with 1 AP and 2 blood of the beast
(or by beating the creature on them); the Stones of Courage and Rejuvenation, River Travel,
campfires, Villages, and the Runehenges (an offering, then the player turns each layer,
DO L310-313; the Underworld's Dwarven Clocktowers likewise, DO L509). The Underworld's own
places are ``underworld.py``.
"""

from __future__ import annotations

from typing import Any

from app.games.dark_omen.board import obstacle_throw
from app.games.dark_omen.content import Content
from app.games.dark_omen.engine import DoCtx, action
from app.games.dark_omen.rules.gambling import game_choices
from app.games.dark_omen.rules.heroes import (
    campfire_warmth,
    ch,
    change,
    d6,
    face,
    faces,
    label,
    location_at,
    spend_ap,
    spend_tokens,
    spend_torch,
    torch_charges,
)
from app.games.dark_omen.rules.market import repair_choices
from app.games.dark_omen.rules.potions import HERBS
from app.games.dark_omen.rules.stats import side_of
from app.games.dark_omen.rules.underworld import place_choices
from app.games.dark_omen.state import Hero, Question, State
from app.kernel.types import Choice

OFFERINGS = ("straw_doll", "chicken", "mushroom", "red_mushroom", "gear_scroll", "coin", "ring")


def location_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """The location token under the hero (DO L301-313): unlocked with 1 AP + 2 blood of the
    beast, then used as its kind says (the Underworld's places: ``underworld.place_choices``)."""
    seat = h.seat
    loc = location_at(s, h.at)
    if loc is None:
        return []
    if not loc.open:
        return [ch("unlock", seat, "Unlock this location (1 AP, 2 blood)")] if h.blood >= 2 else []
    out = []
    match loc.kind:
        case "runehenge" | "dwarven_clocktower":
            for offering in offering_choices(s, c, h, loc.kind):
                out.append(
                    ch("runehenge", seat, f"Offer {offering[1]} at the runehenge", offering=offering[0])
                )
        case "stone_of_courage":
            seen = set()
            for token in h.inventory:
                f = face(c, token)
                if f not in seen and h.hp < h.max_hp:
                    seen.add(f)
                    out.append(ch("courage_stone", seat, f"Sacrifice the {label(f)} (+2 HP)", token=token))
        case "stone_of_rejuvenation":
            if "day:rejuvenation" not in h.used:
                out.append(ch("rejuvenate", seat, "Rest at the Stone of Rejuvenation (+2 MP)"))
        case "river_travel":
            if h.gold >= 2:
                out.append(ch("river", seat, "Travel by river (2 gold)"))
        case "village":
            if h.gold >= 1 and h.mp >= 1 and f"day:gamble:{h.at}" not in h.used:
                out += game_choices(seat)
            if f"day:repair:{h.at}" not in h.used:
                out += repair_choices(s, c, h)
        case _:
            out += place_choices(s, c, h, loc)
    return out


def turn_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """The runehenge's rolls lie on the table: the player picks each layer's direction
    (DO L312-313)."""
    return [
        ch("turn", h.seat, f"Turn white {w}, clear {cl}", white=w, clear=cl)
        for w in ("cw", "ccw")
        for cl in ("cw", "ccw")
    ]


def campfire_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """A campfire lit with a torch charge on the hero's space (DO L309)."""
    if isinstance(h.at, int) and h.at not in s.campfires and torch_charges(s, c, h) > 0:
        return [ch("campfire", h.seat, "Light a campfire with a torch charge (+2 MP)")]
    return []


def offering_choices(s: State, c: Content, h: Hero, kind: str) -> list[tuple[str, str]]:
    """A gold, gear, or loot token (DO L312); two herbs of different colours make one
    offering (DO L255). The Dwarven Clocktower takes a Sun or Hope rune, or 1 gold (DO L509)."""
    out: list[tuple[str, str]] = []
    if h.gold >= 1:
        out.append(("gold", "a gold coin"))
    if kind == "dwarven_clocktower":
        out += [(f"rune:{r}", c.runes[r]["name"]) for r in h.runes if c.runes[r]["house"] in ("Sun", "Hope")]
        return out
    held = faces(c, h.inventory)
    for f in OFFERINGS:
        if held[f]:
            token = next(t for t in h.inventory if face(c, t) == f)
            out.append((token, f"the {label(f)}"))
    colours = [f for f in HERBS if held[f]]
    if len(colours) >= 2:
        out.append((f"herbs:{colours[0]}:{colours[1]}", f"a {label(colours[0])} and a {label(colours[1])}"))
    if h.blood:
        out.append(("blood", "a blood of the beast"))
    return out


@action("unlock")
def do_unlock(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 AP and 2 blood of the beast (DO L302)."""
    h = ctx.s.heroes[seat]
    spend_ap(ctx, seat, 1, "unlocking")
    change(ctx, seat, "unlocking a location", blood=-2)
    ctx.emit("LocationUnlocked", space=h.at, why="two blood of the beast")


def pay_offering(ctx: DoCtx, seat: int, offering: str) -> None:
    h = ctx.s.heroes[seat]
    if offering == "gold":
        change(ctx, seat, "an offering", gold=-1)
    elif offering == "blood":
        change(ctx, seat, "an offering", blood=-1)
    elif offering.startswith("rune:"):
        ctx.emit("RuneDiscarded", seat=seat, rune=offering[5:], why="an offering")
    elif offering.startswith("herbs:"):
        _, a, b = offering.split(":")
        tokens = [
            next(t for t in h.inventory if face(ctx.c, t) == a),
            next(t for t in h.inventory if face(ctx.c, t) == b),
        ]
        spend_tokens(ctx, seat, tokens, "an offering")
    else:
        spend_tokens(ctx, seat, [offering], "an offering")


@action("runehenge")
def do_runehenge(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 AP and an offering; roll a d6 per layer, then choose each direction (DO L312-313)."""
    spend_ap(ctx, seat, 1, "runehenge")
    pay_offering(ctx, seat, args["offering"])
    ctx.emit("PendingRoll", seat=seat, kind="runehenge", rolls=[d6(ctx), d6(ctx)])


@action("turn")
def do_turn(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    h = ctx.s.heroes[seat]
    assert isinstance(h.pending, Question) and h.pending.rolls is not None
    white_roll, clear_roll = h.pending.rolls
    layers = ctx.s.layers
    ctx.emit(
        "LayersTurned",
        white=obstacle_throw(layers["white"], white_roll, args["white"] == "cw"),
        clear=obstacle_throw(layers["clear"], clear_roll, args["clear"] == "cw"),
        rolls=[white_roll, clear_roll],
        why="runehenge",
        seat=seat,
    )
    ctx.emit("PendingCleared", seat=seat)


@action("courage_stone")
def do_courage_stone(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """The Stone of Courage: an item from the inventory sacrificed for 2 HP (DO L303)."""
    spend_ap(ctx, seat, 1, "Stone of Courage")
    spend_tokens(ctx, seat, [args["token"]], "sacrificed at the Stone of Courage")
    change(ctx, seat, "the Stone of Courage", hp=2)


@action("rejuvenate")
def do_rejuvenate(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """The Stone of Rejuvenation: 2 MP for nothing, once a day (DO L304)."""
    spend_ap(ctx, seat, 1, "Stone of Rejuvenation")
    ctx.emit("Used", seat=seat, key="day:rejuvenation")
    change(ctx, seat, "the Stone of Rejuvenation", mp=2)


@action("river")
def do_river(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 AP + 2 gold to the other river space (DO L308)."""
    h = ctx.s.heroes[seat]
    other = next(sp for sp in side_of(ctx.s, ctx.c).location_spaces("river_travel") if sp != h.at)
    change(ctx, seat, "river travel", gold=-2)
    ctx.emit("HeroMoved", seat=seat, to=other, ap=1, mp=0, used={}, **{"from": h.at})


@action("campfire")
def do_campfire(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """A campfire lit with a torch charge (a straw doll counts), for one round (DO L309):
    every hero on its space regains 2 MP, the one who lit it first; those who step onto it
    later in the round regain theirs as they arrive (``campfire_warmth``)."""
    h = ctx.s.heroes[seat]
    spend_torch(ctx, seat)
    ctx.emit("CampfireLit", seat=seat, space=h.at)
    for other in sorted(ctx.s.heroes, key=lambda x: x.seat != seat):
        if other.at == h.at:
            campfire_warmth(ctx, other.seat)
