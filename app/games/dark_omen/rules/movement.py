"""Movement on the rotating labyrinth (DO L239-241, L292-298): a step to a neighbouring space
for 1 AP, a black line 4 MP more (``stats.obstacle_cost``), towns entered and left by their
gate and never blocked; Speed and Levity potions (DO L275-276); the hardcore banners'
Swamplands and Mole Dwarf City (DO L74, L499), the Great Mycelia's vines (DO L498), the
Mole Dwarf Ruin's bridges (DO L512). The board's geometry and its layers are ``board.py``.
"""

from __future__ import annotations

from typing import Any

from app.games.dark_omen.board import neighbours, town_links, town_node
from app.games.dark_omen.content import Content
from app.games.dark_omen.engine import DoCtx, action
from app.games.dark_omen.rules.heroes import ap_left, campfire_warmth, ch, change
from app.games.dark_omen.rules.omens import burning
from app.games.dark_omen.rules.stats import bridge_mp, move_ap, obstacle_cost, region_at, side_of
from app.games.dark_omen.rules.underworld import vortex_contact
from app.games.dark_omen.state import Hero, State
from app.kernel.types import Choice


def move_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Orthogonal steps at 1 AP; a black line costs 4 MP more (DO L240); towns are entered
    and left by the gate and never blocked (DO L297-298)."""
    seat = h.seat
    side = side_of(s, c)
    out = []
    here = h.at
    free = h.effects.get("free_steps", 0) > 0
    if isinstance(here, str):
        town, _ = here.split(":", 1)
        for node in town_links(town, here):
            out.append(ch("move", seat, f"Go to the {node.split(':')[1]}", to=node))
        if here.endswith(":gate"):
            entrance = side.towns[town]
            out.append(ch("move", seat, f"Leave {town} to space {entrance}", to=entrance))
        return [x for x in out if free or ap_left(h) >= 1]
    town = side.town_at(here)
    if town is not None:
        out.append(ch("move", seat, f"Enter {town}", to=town_node(town, "gate")))
    for there in neighbours(here):
        ap = move_ap(s, c, seat, there)
        if not free and ap > ap_left(h):
            continue
        bridge = bridge_mp(s, here, there)
        if bridge > h.mp:
            continue
        toll = f" (+{bridge} MP for the bridge)" if bridge else ""
        if side.blocked(side.edge(here, there), s.layers):
            if h.effects.get("levity", 0) > 0:
                out.append(ch("move", seat, f"Move to {there}, floating over the obstacle{toll}", to=there))
            elif h.mp >= obstacle_cost(s, c, seat) + bridge:
                cost = obstacle_cost(s, c, seat)
                out.append(
                    ch("move", seat, f"Move to {there} across the obstacle ({cost} MP){toll}", to=there)
                )
        else:
            out.append(ch("move", seat, f"Move to {there}{toll}", to=there))
    return out


@action("move")
def do_move(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    s, c = ctx.s, ctx.c
    h = s.heroes[seat]
    to = args["to"]
    if region_at(s, c, h.at) == "The Great Mycelia" and not h.effects.get("burnt_path"):
        roll = ctx.rng.randint(1, 4)
        if roll == 4:  # entangling vines: no move, and the roll costs 1 AP (DO L498)
            ctx.emit("ApSpent", seat=seat, n=1, why="entangling vines", engaged=False, roll=roll)
            return
    side = side_of(s, c)
    used: dict[str, int] = {}
    mp = 0
    ap = 1 if isinstance(to, str) or isinstance(h.at, str) else move_ap(s, c, seat, to)
    if isinstance(to, int) and isinstance(h.at, int) and side.blocked(side.edge(h.at, to), s.layers):
        if h.effects.get("levity", 0) > 0:
            used["levity"] = 1
        else:
            mp = obstacle_cost(s, c, seat)
    if isinstance(to, int) and isinstance(h.at, int):
        mp += bridge_mp(s, h.at, to)
    if h.effects.get("free_steps", 0) > 0:
        used["free_steps"] = 1
        ap = 0
    ctx.emit("HeroMoved", seat=seat, to=to, ap=ap, mp=mp, used=used, **{"from": h.at})
    scorch = burning(s, c, to)
    if scorch:
        change(ctx, seat, "the omen's fire", hp=-scorch)
    campfire_warmth(ctx, seat)
    vortex_contact(ctx, seat)
