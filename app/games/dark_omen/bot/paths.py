"""Finding the way through the labyrinth for the bot: what each space costs to reach from a
goal today (the layers turn every day, DO L167-171), in action points with a black line
priced by the morale it takes (DO L240), and the step along the cheapest way, into and out
of towns by their gates (DO L297-298)."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from functools import lru_cache

from app.games.dark_omen.board import SECTORS, neighbours, ring_sector, town_node
from app.games.dark_omen.content import load
from app.games.dark_omen.rules.stats import hardcore, move_ap, obstacle_cost, side_of
from app.games.dark_omen.state import State
from app.kernel.types import Choice

FAR = 1 << 20
"""Out of reach today."""

CROSSING = 6.0
"""What a black line adds to a step, in action points' worth: its 4 MP are two boosts in
the boss's battle (DO L240, L406)."""

MP_KEPT = 8
"""Morale a hero would rather keep for battles: a black line that leaves less costs twice
as much, unless ``hurry`` says the boss waits."""

VORTEX = 4.0
"""A vortex's space in the Underworld takes the round's AP and 1 HP (DO L537-539)."""


def crossing_toll(s: State, seat: int, hurry: bool) -> float:
    """A black line's price in steps: dearer when it would leave the hero short of morale
    for battles (``MP_KEPT``), cheaper when the boss waits (``hurry``)."""
    h = s.heroes[seat]
    if h.effects.get("levity", 0) > 0:
        return 0.0
    if hurry:
        return CROSSING / 2
    short = h.mp < obstacle_cost(s, load(), seat) + MP_KEPT
    return CROSSING * (2 if short else 1)


def vortex_danger(s: State, space: int) -> float:
    """How likely a vortex passes over this middle-ring space at the next round's start:
    each moves 2d6 round the middle ring, the first clockwise (DO L534-535)."""
    if s.chapter != 4 or not s.vortices or ring_sector(space)[0] != 1:
        return 0.0
    sector = ring_sector(space)[1]
    danger = 0.0
    for i, vortex in enumerate(s.vortices):
        ahead = (
            (sector - ring_sector(vortex)[1]) % SECTORS
            if i == 0
            else (ring_sector(vortex)[1] - sector) % SECTORS
        )
        danger += TWO_D6_AT_LEAST.get(ahead, 0.0) if ahead else 1.0
    return min(1.0, danger)


TWO_D6_AT_LEAST = {
    k: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= k) / 36 for k in range(1, 13)
}


@lru_cache(maxsize=512)
def links(side_name: str, white: int, clear: int) -> dict[int, tuple[tuple[int, bool], ...]]:
    """Each space's neighbours, and whether a black line lies between, at these layer
    positions (pure, so cached: the layers turn once a day)."""
    board = load().board
    side = board.overworld if side_name == "overworld" else board.underworld
    layers = {"white": white, "clear": clear}
    return {
        space: tuple((there, side.blocked(side.edge(space, there), layers)) for there in neighbours(space))
        for space in range(1, 3 * SECTORS + 1)
    }


def costs_from(
    s: State, seat: int, goals: Iterable[int] | dict[int, float], hurry: bool = False
) -> dict[int, float]:
    """What reaching the nearest of ``goals`` costs from each space (Dijkstra backwards from
    the goals, each at its own starting cost when given as a dict; the board's steps are
    symmetric). A black line is crossed only with morale to spare, or in a ``hurry``."""
    c = load()
    side = side_of(s, c)
    h = s.heroes[seat]
    crossing = obstacle_cost(s, c, seat)
    may_cross = h.mp >= crossing or h.effects.get("levity", 0) > 0
    toll = crossing_toll(s, seat, hurry)
    graph = links(side.name, s.layers["white"], s.layers["clear"])
    flat = not hardcore(s)
    entering: dict[int, float] = {}
    for vortex in s.vortices:
        entering[vortex] = VORTEX
    if s.chapter == 4:
        for space in range(SECTORS + 1, 2 * SECTORS + 1):
            entering[space] = entering.get(space, 0.0) + 3 * vortex_danger(s, space)
    best: dict[int, float] = {}
    heap: list[tuple[float, int]] = []
    starts = goals if isinstance(goals, dict) else dict.fromkeys(goals, 0.0)
    for goal, cost in starts.items():
        best[goal] = cost
        heap.append((cost, goal))
    heapq.heapify(heap)
    while heap:
        cost, node = heapq.heappop(heap)
        if cost > best.get(node, FAR):
            continue
        into = (1.0 if flat else float(move_ap(s, c, seat, node))) + entering.get(node, 0.0)
        for there, blocked in graph[node]:
            step = into
            if blocked:
                if not may_cross:
                    continue
                step += toll
            total = cost + step
            if total < best.get(there, FAR):
                best[there] = total
                heapq.heappush(heap, (total, there))
    return best


def step_toward(
    s: State, seat: int, goals: Iterable[int] | dict[int, float], moves: list[Choice], hurry: bool = False
) -> Choice | None:
    """The move along the cheapest way to the nearest goal space (goals given as a dict
    start at their own cost: a less welcome one), from a space or out of a town; None when
    already there or no move gets closer."""
    wanted = goals if isinstance(goals, dict) else dict.fromkeys(goals, 0.0)
    if not wanted or not moves:
        return None
    h = s.heroes[seat]
    if isinstance(h.at, str):
        return leave_town(s, seat, moves)
    if h.at in wanted and wanted[h.at] <= min(wanted.values()):
        return None
    costs = costs_from(s, seat, wanted, hurry)
    here = costs.get(h.at, FAR)
    c = load()
    side = side_of(s, c)
    best: tuple[float, int, Choice] | None = None
    for move in moves:
        to = move.args.get("to")
        if not isinstance(to, int):
            continue
        blocked = side.blocked(side.edge(h.at, to), s.layers)
        edge = 1.0 + (crossing_toll(s, seat, hurry) if blocked else 0.0) + 3 * vortex_danger(s, to)
        if to in s.vortices and to not in wanted:
            edge += VORTEX
        total = edge + costs.get(to, FAR)
        if best is None or (total, to) < (best[0], best[1]):
            best = (total, to, move)
    if best is None or costs.get(best[1], FAR) >= here:
        return None
    return best[2]


def cost_to(s: State, seat: int, goals: Iterable[int] | dict[int, float], hurry: bool = False) -> float:
    """What the hero's way to the nearest goal costs (from a town: its entrance and the
    steps out of the town)."""
    h = s.heroes[seat]
    here, extra = entrance_of(s, h.at)
    return extra + costs_from(s, seat, goals, hurry).get(here, FAR)


def entrance_of(s: State, at: int | str) -> tuple[int, int]:
    """A node's space on the map and the steps from it out to that space."""
    if isinstance(at, int):
        return at, 0
    town, place = at.split(":", 1)
    entrance = side_of(s, load()).towns[town]
    return entrance, {"gate": 1, "market": 2}.get(place, 3)


def nearest_town(s: State, seat: int) -> str:
    """The town whose entrance the hero reaches most cheaply."""
    h = s.heroes[seat]
    towns = side_of(s, load()).towns
    if isinstance(h.at, str):
        return h.at.split(":", 1)[0]
    costs = costs_from(s, seat, [h.at])
    return min(towns, key=lambda t: (costs.get(towns[t], FAR), t))


def town_cost(s: State, seat: int, place: str) -> float:
    """Action points to the nearest town's ``place`` ("market", "tavern")."""
    h = s.heroes[seat]
    town = nearest_town(s, seat)
    if isinstance(h.at, str):
        here = h.at.split(":", 1)[1]
        return 0.0 if here == place else 1.0 if place == "market" or here == "market" else 2.0
    entrance = side_of(s, load()).towns[town]
    inside = {"gate": 1, "market": 2}.get(place, 3)
    return costs_from(s, seat, [entrance]).get(h.at, FAR) + inside


def go_to_town(s: State, seat: int, place: str, moves: list[Choice]) -> Choice | None:
    """The move toward the nearest town's ``place``: along the map to its entrance, through
    the gate and the market; None when there already."""
    h = s.heroes[seat]
    town = nearest_town(s, seat)
    goal = town_node(town, place)
    if h.at == goal:
        return None
    if isinstance(h.at, str):
        here = h.at.split(":", 1)[1]
        wanted = town_node(town, "market") if here in ("gate", "tavern", "healer") else goal
        return next((m for m in moves if m.args.get("to") == wanted), None)
    entrance = side_of(s, load()).towns[town]
    if h.at == entrance:
        return next((m for m in moves if m.args.get("to") == town_node(town, "gate")), None)
    return step_toward(s, seat, [entrance], moves)


def leave_town(s: State, seat: int, moves: list[Choice]) -> Choice | None:
    """Out of a town: to the market, the gate, then the entrance space."""
    h = s.heroes[seat]
    assert isinstance(h.at, str)
    town, place = h.at.split(":", 1)
    if place == "gate":
        entrance = side_of(s, load()).towns[town]
        return next((m for m in moves if m.args.get("to") == entrance), None)
    wanted = town_node(town, "gate") if place == "market" else town_node(town, "market")
    return next((m for m in moves if m.args.get("to") == wanted), None)
