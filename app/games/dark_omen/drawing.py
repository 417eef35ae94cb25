"""The map of Dark Omen as SVG geometry, computed from the board data (``board.py``,
``content/board.toml``): the presentation of facts §4's model, not a rule.

The board is drawn centred on (0, 0): ring 0 (the rim) between radii 400 and 500, ring 1
between 300 and 400, ring 2 between 200 and 300; sector ``s`` spans the angles
``s·θ … (s+1)·θ`` (θ = 360°/37) clockwise from the top. The towns sit in the middle, each
joined by a road to its entrance space.

What never changes for a side (cells, numbers, regions, walls, the slits' frames, towns)
is one static SVG; what the obstacle layers show is drawn in each layer's *own*
coordinates (the black marks of its masks, DO L164-165) and turned as a whole by the
layer's position (``pos·θ``), clipped to the slits it shows through. So a layer turning
is one CSS transform, and an Obstacle Throw can be animated (static/games/dark_omen/).

Templates cannot compute sines, so the SVG is generated once into
``templates/games/dark_omen/_drawing.html`` (``python -m app.games.dark_omen.drawing``);
``tests/web/test_dark_omen_board.py`` checks the file is what this module makes.
"""

from __future__ import annotations

import math
import sys
from functools import cache
from pathlib import Path

from app.games.dark_omen.board import (
    RINGS,
    SECTORS,
    TOWN_PLACES,
    Side,
    load_board,
    ring_sector,
    space_id,
    town_node,
)

STEP = 360 / SECTORS
"""Degrees per sector."""
RIM = 500
RING_WIDTH = 100
SLIT_HALF = 7
"""Half the width of a slit's window (board units)."""
SLOTS = (15, 37, 58, 79)
"""Where things stand in a space, inwards from its ring's outer edge: its number, then
location tokens and face-down loot, then creatures and dropped loot, then heroes."""
TEMPLATE = Path(__file__).resolve().parents[3] / "templates" / "games" / "dark_omen" / "_drawing.html"
TOWN_BOX = (168, 120)
"""A town's box in the middle of the map: its gate, market, tavern and healer (facts §4)."""
TOWN_RADIUS = 92
PLACE_LABELS = {"gate": "Gate", "market": "Market", "tavern": "Tavern", "healer": "Healer"}
REGION_CLASSES = ("do-region-0", "do-region-1", "do-region-2", "do-region-3")


def outer(ring: int) -> int:
    return RIM - RING_WIDTH * ring


def inner(ring: int) -> int:
    return outer(ring) - RING_WIDTH


def point(radius: float, degrees: float) -> tuple[float, float]:
    """Clockwise from the top (SVG's y grows downwards)."""
    a = math.radians(degrees)
    return radius * math.sin(a), -radius * math.cos(a)


def fmt(value: float) -> str:
    text = f"{value:.1f}"
    return "0" if text in ("0.0", "-0.0") else text.removesuffix(".0")


def xy(p: tuple[float, float]) -> str:
    return f"{fmt(p[0])} {fmt(p[1])}"


def annulus_sector(r_in: float, r_out: float, a0: float, a1: float) -> str:
    """The path of the ring piece between two radii and two angles."""
    large = 1 if a1 - a0 > 180 else 0
    return (
        f"M{xy(point(r_out, a0))}A{fmt(r_out)} {fmt(r_out)} 0 {large} 1 {xy(point(r_out, a1))}"
        f"L{xy(point(r_in, a1))}A{fmt(r_in)} {fmt(r_in)} 0 {large} 0 {xy(point(r_in, a0))}Z"
    )


def radial_line(angle: float, r_in: float, r_out: float) -> str:
    return f"M{xy(point(r_in, angle))}L{xy(point(r_out, angle))}"


def arc(radius: float, a0: float, a1: float) -> str:
    return f"M{xy(point(radius, a0))}A{fmt(radius)} {fmt(radius)} 0 0 1 {xy(point(radius, a1))}"


def radial_window(angle: float, r_in: float, r_out: float) -> str:
    """A thin window around a radial line (a ring-edge slit): ±SLIT_HALF across it."""
    half = math.degrees(SLIT_HALF / ((r_in + r_out) / 2))
    return annulus_sector(r_in + 2, r_out - 2, angle - half, angle + half)


def arc_window(radius: float, a0: float, a1: float) -> str:
    """A thin window around an arc (a radial-edge slit)."""
    inset = math.degrees(2 / radius)
    return annulus_sector(radius - SLIT_HALF, radius + SLIT_HALF, a0 + inset, a1 - inset)


def ring_edge_angle(sector: int) -> float:
    """Ring edge ``(r, s)`` joins sectors s and s+1: the line at angle (s+1)·θ."""
    return (sector + 1) * STEP


def band_radius(gap: int) -> int:
    """Radial edge ``(g, s)`` joins rings g and g+1: the circle between them."""
    return inner(gap)


def town_boxes(side: Side) -> dict[str, tuple[float, float]]:
    """Each town's box centre in the middle of the map, towards its entrance's sector."""
    out = {}
    for town, entrance in side.towns.items():
        _, sector = ring_sector(entrance)
        cx, cy = point(TOWN_RADIUS, (sector + 0.5) * STEP)
        out[town] = (round(cx), round(cy))
    return out


def town_places(side: Side) -> dict[str, tuple[float, float]]:
    """The centre of each town place (``Town:gate``…), a 2 × 2 grid in the town's box."""
    w, h = TOWN_BOX
    out = {}
    for town, (cx, cy) in town_boxes(side).items():
        for i, place in enumerate(TOWN_PLACES):
            col, row = i % 2, i // 2
            out[town_node(town, place)] = (cx - w / 4 + col * w / 2, cy - h / 2 + 46 + row * 46)
    return out


def region_index(side: Side, sector: int) -> int:
    for i, (_, first, last) in enumerate(side.regions):
        if first <= sector <= last:
            return i
    return 0


@cache
def art(side_name: str) -> str:
    """The static SVG of one side: defs (the slit windows as clip paths), region labels,
    cells with their numbers, the loot spiral's spaces, slit frames, walls, towns."""
    board = load_board()
    side = board.overworld if side_name == "overworld" else board.underworld
    out: list[str] = []
    out.append("<defs>")
    for layer in ("clear", "white"):
        windows = []
        for edge in side.edges.values():
            if edge.kind != "slit" or edge.layer != layer:
                continue
            if layer == "clear":
                windows.append(radial_window(ring_edge_angle(edge.index), inner(edge.band), outer(edge.band)))
            else:
                r = band_radius(edge.band)
                windows.append(arc_window(r, edge.index * STEP, (edge.index + 1) * STEP))
        out.append(f'<clipPath id="do-clip-{layer}-{side_name}"><path d="{"".join(windows)}"/></clipPath>')
    out.append("</defs>")
    # Region names around the rim.
    out.append('<g class="do-regions" aria-hidden="true">')
    for i, (name, first, last) in enumerate(side.regions):
        mid = (first + last + 1) / 2 * STEP
        x, y = point(RIM + 22, mid)
        turn = mid if mid <= 90 or mid >= 270 else mid - 180
        out.append(
            f'<text class="do-region-name {REGION_CLASSES[i % 4]}" x="{fmt(x)}" y="{fmt(y)}"'
            f' transform="rotate({fmt(turn)} {fmt(x)} {fmt(y)})">{name}</text>'
        )
    out.append("</g>")
    # The cells: one clickable path per space, its number near the rim side.
    loot = set(side.loot)
    out.append('<g class="do-cells">')
    for ring in range(RINGS):
        for sector in range(SECTORS):
            space = space_id(ring, sector)
            region = side.regions[region_index(side, sector)][0]
            cls = f"do-cell {REGION_CLASSES[region_index(side, sector) % 4]}"
            if space in loot:
                cls += " do-cell-loot"
            d = annulus_sector(inner(ring), outer(ring), sector * STEP, (sector + 1) * STEP)
            out.append(
                f'<path id="do-space-{space}" class="{cls}" data-target="space:{space}" d="{d}">'
                f"<title>Space {space} ({region})</title></path>"
            )
    out.append("</g>")
    rings = (
        "".join(f'<circle r="{outer(ring)}"/>' for ring in range(RINGS)) + f'<circle r="{inner(RINGS - 1)}"/>'
    )
    out.append(f'<g class="do-ring-lines" aria-hidden="true">{rings}</g>')
    out.append('<g class="do-numbers" aria-hidden="true">')
    for ring in range(RINGS):
        for sector in range(SECTORS):
            x, y = point(outer(ring) - SLOTS[0], (sector + 0.5) * STEP)
            out.append(f'<text x="{fmt(x)}" y="{fmt(y + 5)}">{space_id(ring, sector)}</text>')
    out.append("</g>")
    # Slit frames (the passage open when no black shows through) and walls.
    frames, walls = [], []
    for edge in side.edges.values():
        if edge.kind == "open":
            continue
        if _is_ring_edge(edge.a, edge.b):
            angle = ring_edge_angle(edge.index)
            if edge.kind == "slit":
                frames.append(radial_window(angle, inner(edge.band), outer(edge.band)))
            else:
                walls.append(radial_line(angle, inner(edge.band) + 3, outer(edge.band) - 3))
        else:
            r = band_radius(edge.band)
            a0, a1 = edge.index * STEP, (edge.index + 1) * STEP
            if edge.kind == "slit":
                frames.append(arc_window(r, a0, a1))
            else:
                walls.append(arc(r, a0 + 0.4, a1 - 0.4))
    out.append(f'<path class="do-slit" d="{"".join(frames)}"/>')
    out.append(f'<path class="do-wall" d="{"".join(walls)}"/>')
    # Towns: a road from the entrance, a box of four places.
    w, h = TOWN_BOX
    places = town_places(side)
    for town, (cx, cy) in town_boxes(side).items():
        entrance = side.towns[town]
        ring, sector = ring_sector(entrance)
        ex, ey = point(inner(ring) + 30, (sector + 0.5) * STEP)
        out.append(f'<g class="do-town" data-town="{town}">')
        out.append(f'<path class="do-road" d="M{fmt(cx)} {fmt(cy)}L{fmt(ex)} {fmt(ey)}"/>')
        out.append(
            f'<rect class="do-town-box" x="{fmt(cx - w / 2)}" y="{fmt(cy - h / 2)}"'
            f' width="{w}" height="{h}" rx="10"/>'
        )
        out.append(
            f'<text class="do-town-name" x="{fmt(cx)}" y="{fmt(cy - h / 2 + 17)}">{town} · {entrance}</text>'
        )
        for place in TOWN_PLACES:
            node = town_node(town, place)
            px, py = places[node]
            out.append(
                f'<g class="do-place" data-target="space:{node}"><title>{town}: {PLACE_LABELS[place]}</title>'
                f'<rect x="{fmt(px - w / 4 + 4)}" y="{fmt(py - 22)}"'
                f' width="{fmt(w / 2 - 8)}" height="44" rx="6"/>'
                f'<text x="{fmt(px)}" y="{fmt(py - 7)}">{PLACE_LABELS[place]}</text></g>'
            )
        out.append("</g>")
    return "".join(out)


def _is_ring_edge(a: int, b: int) -> bool:
    return ring_sector(a)[0] == ring_sector(b)[0]


@cache
def marks(side_name: str, layer: str) -> str:
    """A layer's black marks in its own coordinates (DO L164-165): where its mask is black
    at index i, a bar on edge index i; turned by the layer's position, each bar lands on
    the slit it blocks (``Side.blocked``)."""
    board = load_board()
    side = board.overworld if side_name == "overworld" else board.underworld
    bars = []
    for band, mask in enumerate(side.masks[layer]):
        for i, bit in enumerate(mask):
            if bit != "1":
                continue
            if layer == "clear":
                bars.append(radial_line(ring_edge_angle(i), inner(band), outer(band)))
            else:
                bars.append(arc(band_radius(band), i * STEP - 1, (i + 1) * STEP + 1))
    return f'<path class="do-bar do-bar-{layer}" d="{"".join(bars)}"/>'


def template() -> str:
    """The generated Jinja file: the static art and layer marks of both sides as macros,
    the town places' centres as a dict."""
    board = load_board()
    lines = [
        "{#- Generated by `python -m app.games.dark_omen.drawing` from content/board.toml: do not edit.",
        "    The static art of each side and each layer's black marks in its own coordinates",
        "    (app/games/dark_omen/drawing.py). -#}",
    ]
    for side_name in ("overworld", "underworld"):
        lines.append(f"{{% macro art_{side_name}() %}}{art(side_name)}{{% endmacro %}}")
        for layer in ("white", "clear"):
            lines.append(
                f"{{% macro marks_{side_name}_{layer}() %}}{marks(side_name, layer)}{{% endmacro %}}"
            )
    places = {}
    for side_name, side in (("overworld", board.overworld), ("underworld", board.underworld)):
        places[side_name] = {node: (round(x), round(y)) for node, (x, y) in town_places(side).items()}
    lines.append("{% set PLACES = " + repr(places) + " %}")
    geometry = {"sectors": SECTORS, "rim": RIM, "ring_width": RING_WIDTH, "slots": list(SLOTS)}
    lines.append("{% set GEOMETRY = " + repr(geometry) + " %}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    target = Path(argv[1]) if len(argv) > 1 else TEMPLATE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(template(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
