"""Chapter 4, the Underworld (DO L494-542): its places (Gloomy Waters, Blood Bag, Eternal
Maze, Well of Fortune, Hidden Treasury, Dwarven Smithy, Permanent Camp, Ship Apothecary,
Shipload Gear Hoard, Sacred Grove), the hardcore regions' round-start effects (the Hive's
rusting slime, the Frozen Sea's chilling breeze, DO L500-501), the torch burning a path
through the Great Mycelia (DO L498), and the two darkness vortices (DO L533-542).
"""

from __future__ import annotations

from typing import Any

from app.games.dark_omen.board import distance, ring_sector, space_id
from app.games.dark_omen.content import Content
from app.games.dark_omen.engine import DoCtx, action
from app.games.dark_omen.rules.creatures import place_creature
from app.games.dark_omen.rules.heroes import (
    ap_left,
    ch,
    change,
    d6,
    gain_gear,
    location_at,
    spend_ap,
    spend_tokens,
    spend_torch,
    torch_charges,
)
from app.games.dark_omen.rules.stats import hardcore, has_torch, region_at, side_of
from app.games.dark_omen.state import Hero, Location, State
from app.kernel.types import Choice


def maze_exits(s: State, c: Content, here: int | str) -> list[tuple[int, int]]:
    """Eternal Maze: the nearest entrance 2 MP, the second 3, the farthest 4 (DO L508)."""
    assert isinstance(here, int)
    others = [sp for sp in side_of(s, c).location_spaces("eternal_maze") if sp != here]
    others.sort(key=lambda sp: (distance(here, sp), sp))
    return [(sp, 2 + i) for i, sp in enumerate(others[:3])]


def place_choices(s: State, c: Content, h: Hero, loc: Location) -> list[Choice]:
    """The Underworld's places (DO L505-532), open from the start."""
    seat = h.seat
    out: list[Choice] = []
    match loc.kind:
        case "gloomy_waters":
            if h.inventory and "round:gloomy" not in h.used:
                out.append(ch("gloomy", seat, "Discard a loot for 3 MP", token=h.inventory[0]))
        case "blood_bag":
            if h.max_hp > 1:
                out.append(ch("blood_bag", seat, "Max HP −1, then +4 HP"))
        case "ship_apothecary":
            out.append(ch("apothecary", seat, "Recover 2 HP and 1 MP (1 AP)"))
        case "well_of_fortune":
            if h.gold >= 1:
                out.append(ch("well", seat, "Wish (1 gold)", beg=False))
            if h.gold >= 2:
                out.append(ch("well", seat, "Beg (2 gold)", beg=True))
        case "sacred_grove":
            if h.effects.get("black", 0):
                out.append(ch("ritual", seat, "Perform the ritual (clears black tokens)"))
        case "hidden_treasury":  # two heroes on it open a chamber explored as a barrow (DO L517)
            together = sum(1 for o in s.heroes if o.alive and o.at == h.at)
            if together >= 2 and torch_charges(s, c, h) > 0:
                out.append(ch("explore_barrow", seat, "Explore the secret chamber (1 AP, a torch charge)"))
        case "dwarven_smithy":
            if has_torch(s, c, seat) and torch_charges(s, c, h) >= 2:
                for gid, n in h.charges.items():
                    card = c.gear.get(gid)
                    if card and n < int(card.get("charges", 0)):
                        out.append(ch("smithy", seat, f"Reforge {card['name']} (2 torch charges)", gear=gid))
        case "permanent_camp":
            if not loc.lit and torch_charges(s, c, h) > 0:
                out.append(ch("make_camp", seat, "Make a permanent campfire with a torch"))
        case "gear_hoard":
            if h.mp >= 5 and not any(x.hoard for x in s.creatures):  # shut while its dead walk
                out.append(ch("hoard", seat, "Search the cabins (5 MP)"))
        case "eternal_maze":
            for there, cost in maze_exits(s, c, h.at):
                if h.mp >= cost:
                    out.append(ch("maze", seat, f"Through the maze to {there} ({cost} MP)", to=there))
    return out


def camp_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """0 AP in the Underworld: warming up at the permanent camp once a round (DO L523); a
    torch charge burning a path through the Great Mycelia's vines (DO L498)."""
    seat = h.seat
    out: list[Choice] = []
    loc = location_at(s, h.at)
    if loc is not None and loc.lit and "round:camp" not in h.used:
        out.append(ch("warm", seat, "Warm up at the permanent camp (+2 MP)"))
    if (
        region_at(s, c, h.at) == "The Great Mycelia"
        and not h.effects.get("burnt_path")
        and torch_charges(s, c, h) > 0
    ):
        out.append(ch("burn_path", seat, "Burn a path through the vines with a torch charge"))
    return out


def underworld_round(ctx: DoCtx) -> None:
    """A chapter-4 round's start: each vortex moves 2d6 spaces round the middle ring (the
    first clockwise), hitting every hero on its path (DO L533-535); then, with the hardcore
    banners, the Hive's rusting slime and the Frozen Sea's chilling breeze (DO L500-501)."""
    s, c = ctx.s, ctx.c
    for i, start in enumerate(list(s.vortices)):
        roll = [d6(ctx), d6(ctx)]
        ring, sector = ring_sector(start)
        step = 1 if i == 0 else -1
        path = [space_id(ring, sector + step * k) for k in range(1, sum(roll) + 1)]
        ctx.emit("VortexMoved", vortex=i, to=path[-1], roll=roll)
        for h in s.heroes:
            if h.alive and h.at in path:
                vortex_hit(ctx, h.seat)
    if not hardcore(s):
        return
    side = side_of(s, c)
    for h in s.heroes:
        if not h.alive or not isinstance(h.at, int) or h.at == 39:
            continue
        region = side.region(h.at)
        if region == "The Hive" and ctx.rng.randint(1, 4) == 4:
            for gid, n in sorted(h.charges.items()):
                if n > 0:
                    ctx.emit("ChargesSet", seat=h.seat, gear=gid, n=n - 1)
        if region == "The Frozen Sea" and h.at not in s.campfires and torch_charges(s, c, h) == 0:
            change(ctx, h.seat, "the Chilling Breeze", hp=-1)


def vortex_contact(ctx: DoCtx, seat: int) -> None:
    """A hero on a vortex loses the round's AP and 1 HP and takes a black token, and is
    carried to the other vortex (DO L537-542)."""
    s = ctx.s
    h = s.heroes[seat]
    if s.chapter != 4 or h.at not in s.vortices:
        return
    other = s.vortices[1 - s.vortices.index(h.at)]
    ctx.emit("HeroMoved", seat=seat, to=other, ap=0, mp=0, used={}, **{"from": h.at})
    vortex_hit(ctx, seat)


def vortex_hit(ctx: DoCtx, seat: int) -> None:
    h = ctx.s.heroes[seat]
    if ap_left(h):
        spend_ap(ctx, seat, ap_left(h), "a darkness vortex")
    ctx.emit("EffectSet", seat=seat, effect="black", n=h.effects.get("black", 0) + 1)
    change(ctx, seat, "a darkness vortex", hp=-1)


@action("burn_path")
def do_burn_path(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """A torch charge burns a path: move freely through the Great Mycelia all round (DO L498)."""
    spend_torch(ctx, seat)
    ctx.emit("EffectSet", seat=seat, effect="burnt_path", n=1)


@action("warm")
def do_warm(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """The permanent camp: +2 MP while on it, once a round (DO L523)."""
    ctx.emit("Used", seat=seat, key="round:camp")
    change(ctx, seat, "the permanent camp", mp=2)


@action("make_camp")
def do_make_camp(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_ap(ctx, seat, 1, "making camp")
    spend_torch(ctx, seat)
    ctx.emit("CampMade", seat=seat, space=ctx.s.heroes[seat].at)


@action("smithy")
def do_smithy(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """A torch charge lights the forge, another pays the full repair (DO L519)."""
    spend_ap(ctx, seat, 1, "the Dwarven Smithy")
    spend_torch(ctx, seat)
    spend_torch(ctx, seat)
    ctx.emit("ChargesSet", seat=seat, gear=args["gear"], n=int(ctx.c.gear[args["gear"]]["charges"]))


@action("hoard")
def do_hoard(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """5 MP and a d6: 1 nothing; 2–4 a random L2 gear (broken if it needs charges); 5 a
    random L4 gear; 6 a random L4 creature (DO L529-532)."""
    h = ctx.s.heroes[seat]
    spend_ap(ctx, seat, 1, "the Gear Hoard")
    change(ctx, seat, "searching the cabins", mp=-5)
    roll = d6(ctx)
    ctx.emit("HoardSearched", seat=seat, roll=roll)
    owned = {g for o in ctx.s.heroes for g in o.gear}
    if 2 <= roll <= 5:
        lvl = 2 if roll <= 4 else 4
        pool = [g for g in ctx.c.shop(4) if ctx.c.gear[g]["level"] == lvl and g not in owned]
        if pool:
            gid = ctx.rng.choice(pool)
            if roll <= 4 and ctx.c.gear[gid].get("charges"):
                ctx.emit("HoardSearched", seat=seat, roll=roll, broken=gid)
            else:
                gain_gear(ctx, seat, gid, "the Gear Hoard")
    elif roll == 6:
        cid = place_creature(ctx, h.at, 4, kind="creature", hoard=True)  # type: ignore[arg-type]
        ctx.emit("SurpriseAttack", seat=seat, creature=cid)


@action("gloomy")
def do_gloomy(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_ap(ctx, seat, 1, "Gloomy Waters")
    ctx.emit("Used", seat=seat, key="round:gloomy")
    spend_tokens(ctx, seat, [args["token"]], "into the Gloomy Waters")
    change(ctx, seat, "Gloomy Waters", mp=3)


@action("blood_bag")
def do_blood_bag(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_ap(ctx, seat, 1, "Blood Bag")
    change(ctx, seat, "the Blood Bag", max_hp=-1)
    change(ctx, seat, "the Blood Bag", hp=4)


@action("apothecary")
def do_apothecary(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """The Ship Apothecary: each AP spent there gives back 2 HP and 1 MP (DO L525)."""
    spend_ap(ctx, seat, 1, "Ship Apothecary")
    change(ctx, seat, "the Ship Apothecary", hp=2, mp=1)


@action("well")
def do_well(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """The Well of Fortune: a wish (1 gold) or a plea (2 gold); only a 6 brings gear, of a
    rolled level for a wish, level 4 for a plea (DO L515)."""
    spend_ap(ctx, seat, 1, "Well of Fortune")
    change(ctx, seat, "a coin in the well", gold=-(2 if args["beg"] else 1))
    roll = d6(ctx)
    ctx.emit("WellAnswered", seat=seat, roll=roll)
    if roll == 6:
        lvl = 4 if args["beg"] else (1 + (d6(ctx) - 1) // 2)
        owned = {g for h in ctx.s.heroes for g in h.gear}
        pool = [g for g in ctx.c.shop(4) if ctx.c.gear[g]["level"] == lvl and g not in owned]
        if pool:
            gain_gear(ctx, seat, ctx.rng.choice(pool), "the Well of Fortune")


@action("ritual")
def do_ritual(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_ap(ctx, seat, 1, "a ritual in the Sacred Grove")
    ctx.emit("EffectSet", seat=seat, effect="black", n=0)


@action("maze")
def do_maze(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    h = ctx.s.heroes[seat]
    cost = dict(maze_exits(ctx.s, ctx.c, h.at))[args["to"]]
    spend_ap(ctx, seat, 1, "the Eternal Maze")
    ctx.emit("HeroMoved", seat=seat, to=args["to"], ap=0, mp=cost, used={}, **{"from": h.at})
