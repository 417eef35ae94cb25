"""The board of Dark Omen as data (facts §4; the rulebook gives no geometry, DO L64-82).

Three rings of 37 sectors make the spaces 1–111 (``id = 37·ring + sector + 1``; ring 0 is
the rim). Between two neighbouring spaces lies an edge that is open, a wall (a printed
black line) or a slit through which one of the two rotating obstacle layers shows
(DO L164-165): ring edges show the clear layer, radial edges the white layer. A layer at
position ``pos`` blocks the slit with index ``s`` in band ``b`` iff its mask, in the
layer's own coordinates, is black at ``(s - pos) mod 37``. "Tab on N" is ``pos = N - 1``
(DO L167). Towns are extra nodes (gate → market → tavern and healer) reached only from
their entrance space and never blocked (DO L297-298).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from app.kernel.flow.content import read_toml

SECTORS = 37
RINGS = 3
SPACES = SECTORS * RINGS
LAYERS = ("white", "clear")
TOWN_PLACES = ("gate", "market", "tavern", "healer")
CONTENT = Path(__file__).with_name("content")


def space_id(ring: int, sector: int) -> int:
    return SECTORS * ring + sector % SECTORS + 1


def ring_sector(space: int) -> tuple[int, int]:
    if not 1 <= space <= SPACES:
        raise ValueError(f"no space {space}")
    return divmod(space - 1, SECTORS)


def tab_to_pos(space: int) -> int:
    """DO L167 "the white tab on space 14": the layer's position is ``(14 - 1) mod 37``."""
    return (space - 1) % SECTORS


def pos_to_tab(pos: int) -> int:
    return pos % SECTORS + 1


def obstacle_throw(pos: int, roll: int, clockwise: bool | None = None) -> int:
    """DO L169-171: even rolls turn a layer clockwise, odd ones counter-clockwise, by the
    roll; at a runehenge the player picks the direction (``clockwise``, DO L312-313)."""
    cw = roll % 2 == 0 if clockwise is None else clockwise
    return (pos + (roll if cw else -roll)) % SECTORS


@dataclass(frozen=True)
class Edge:
    a: int
    b: int
    kind: str
    """"open", "wall" or "slit"."""
    layer: str | None
    """For a slit, the layer that shows through it ("clear" on ring edges, "white" on radial)."""
    band: int
    index: int


@dataclass(frozen=True)
class Side:
    """One side of the board (the overworld, or the Underworld on the back, DO L495)."""

    name: str
    edges: dict[tuple[int, int], Edge]
    masks: dict[str, tuple[str, ...]]
    regions: tuple[tuple[str, int, int], ...]
    loot: tuple[int, ...]
    towns: dict[str, int]
    locations: tuple[tuple[str, int], ...]

    def edge(self, a: int, b: int) -> Edge:
        return self.edges[(min(a, b), max(a, b))]

    def blocked(self, edge: Edge, layers: dict[str, int]) -> bool:
        """Is there a black line on this edge at these layer positions (DO L164-165)?"""
        if edge.kind == "open":
            return False
        if edge.kind == "wall":
            return True
        assert edge.layer is not None
        mask = self.masks[edge.layer][edge.band]
        return mask[(edge.index - layers[edge.layer]) % SECTORS] == "1"

    def region(self, space: int) -> str:
        _, sector = ring_sector(space)
        for name, first, last in self.regions:
            if first <= sector <= last:
                return name
        raise ValueError(f"space {space} lies in no region")

    def town_at(self, entrance: int) -> str | None:
        for town, space in self.towns.items():
            if space == entrance:
                return town
        return None

    def location_spaces(self, kind: str) -> list[int]:
        return [space for k, space in self.locations if k == kind]


def neighbours(space: int) -> list[int]:
    """Orthogonal neighbours on the map (DO L240): along the ring and across to the next."""
    ring, sector = ring_sector(space)
    out = [space_id(ring, sector - 1), space_id(ring, sector + 1)]
    if ring > 0:
        out.append(space_id(ring - 1, sector))
    if ring < RINGS - 1:
        out.append(space_id(ring + 1, sector))
    return out


def town_node(town: str, place: str) -> str:
    return f"{town}:{place}"


def town_links(town: str, node: str) -> list[str]:
    """Inside a town: gate ↔ market ↔ tavern / healer (facts §4)."""
    place = node.split(":", 1)[1]
    links = {
        "gate": ["market"],
        "market": ["gate", "tavern", "healer"],
        "tavern": ["market"],
        "healer": ["market"],
    }[place]
    return [town_node(town, p) for p in links]


_KIND = {"o": "open", "w": "wall", "s": "slit"}


def _side(name: str, raw: dict[str, Any]) -> Side:
    edges: dict[tuple[int, int], Edge] = {}
    for ring, row in enumerate(raw["ring_edges"]):
        for sector, code in enumerate(row):
            a, b = space_id(ring, sector), space_id(ring, sector + 1)
            kind = _KIND[code]
            edges[(min(a, b), max(a, b))] = Edge(
                a, b, kind, "clear" if kind == "slit" else None, ring, sector
            )
    for gap, row in enumerate(raw["radial_edges"]):
        for sector, code in enumerate(row):
            a, b = space_id(gap, sector), space_id(gap + 1, sector)
            kind = _KIND[code]
            edges[(a, b)] = Edge(a, b, kind, "white" if kind == "slit" else None, gap, sector)
    return Side(
        name=name,
        edges=edges,
        masks={"clear": tuple(raw["clear_mask"]), "white": tuple(raw["white_mask"])},
        regions=tuple((r["name"], r["first"], r["last"]) for r in raw["regions"]),
        loot=tuple(raw["loot"]),
        towns={t["name"]: t["entrance"] for t in raw["towns"]},
        locations=tuple((loc["kind"], loc["space"]) for loc in raw["locations"]),
    )


@dataclass(frozen=True)
class Board:
    overworld: Side
    underworld: Side

    def side(self, chapter: int) -> Side:
        """Chapter 4 is played on the Underworld, the back of the same boards (DO L495)."""
        return self.underworld if chapter == 4 else self.overworld


@cache
def load_board() -> Board:
    raw = read_toml(CONTENT, "board.toml")
    return Board(_side("overworld", raw["overworld"]), _side("underworld", raw["underworld"]))


def crossings_to(side: Side, target: int, layers: dict[str, int]) -> dict[int, int]:
    """The fewest obstacle crossings from every space to ``target`` (0-1 shortest paths),
    for the reachability invariant (facts §4)."""
    best = {target: 0}
    heap = [(0, target)]
    while heap:
        cost, here = heapq.heappop(heap)
        if cost > best.get(here, 1 << 30):
            continue
        for there in neighbours(here):
            step = cost + (1 if side.blocked(side.edge(here, there), layers) else 0)
            if step < best.get(there, 1 << 30):
                best[there] = step
                heapq.heappush(heap, (step, there))
    return best


def distance(a: int, b: int) -> int:
    """Orthogonal steps between two spaces, ignoring obstacles (rings wrap)."""
    ra, sa = ring_sector(a)
    rb, sb = ring_sector(b)
    ds = abs(sa - sb)
    return abs(ra - rb) + min(ds, SECTORS - ds)


def line_of_sight(side: Side, a: int, b: int, layers: dict[str, int]) -> int | None:
    """DO L365: range counts straight along a ring or a radius with no black line between;
    the number of steps, or None when ``b`` is not in a straight, clear line from ``a``."""
    if a == b:
        return 0
    ra, sa = ring_sector(a)
    rb, sb = ring_sector(b)
    if ra == rb:
        for step in (1, -1):
            here, n = a, 0
            while n < SECTORS // 2 + 1:
                there = space_id(ra, ring_sector(here)[1] + step)
                if side.blocked(side.edge(here, there), layers):
                    break
                here, n = there, n + 1
                if here == b:
                    return n
        return None
    if sa == sb:
        step = 1 if rb > ra else -1
        here = a
        for ring in range(ra + step, rb + step, step):
            there = space_id(ring, sa)
            if side.blocked(side.edge(here, there), layers):
                return None
            here = there
        return abs(rb - ra)
    return None
