"""The encounter grid (AtD L79-101, L244-251): squares on placed tiles are open, every
other square is wall ("space between cards is considered a solid wall", AtD L101).

**Decision (diagonals and corners, facts file §4):** a step goes to any of the 8
neighbours, diagonals included even between two walls (the rulebook allows diagonal moves
without exception, AtD L80); line of sight runs centre to centre and is broken only when
the line passes through a wall square's *interior* — a line that merely touches a wall
square's corner is not broken, matching the diagonal step. Distances count Chebyshev
steps ignoring obstacles: melee 1, reach 1–2, ranged 2 or more (never adjacent)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from functools import lru_cache

Square = tuple[int, int]
TILE_W, TILE_H = 3, 4
"""Every tile back is a 3×4 grid (facts file §10); "v" is 3 wide, "h" 4 wide."""


def tile_squares(x: int, y: int, orient: str) -> list[Square]:
    w, h = (TILE_W, TILE_H) if orient == "v" else (TILE_H, TILE_W)
    return [(x + i, y + j) for j in range(h) for i in range(w)]


def tile_order(x: int, y: int, orient: str) -> list[Square]:
    """Token placement order on a tile (AtD L256, L260): the logo square (top-left when
    vertical, top-right when horizontal), then clockwise round the ring, then the two
    centre squares."""
    w, h = (TILE_W, TILE_H) if orient == "v" else (TILE_H, TILE_W)
    ring: list[Square] = (
        [(i, 0) for i in range(w)]
        + [(w - 1, j) for j in range(1, h)]
        + [(i, h - 1) for i in range(w - 2, -1, -1)]
        + [(0, j) for j in range(h - 2, 0, -1)]
    )
    centre = [(i, j) for j in range(1, h - 1) for i in range(1, w - 1)]
    if orient == "h":
        start = ring.index((w - 1, 0))
        ring = ring[start:] + ring[:start]
        centre = sorted(centre, key=lambda sq: (-sq[0], sq[1]))
    return [(x + i, y + j) for i, j in ring + centre]


def chebyshev(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def in_distance(kind: str, d: int, extra: int = 0) -> bool:
    """Does a target ``d`` squares away meet the distance ``kind`` (AtD L89-92)? ``extra``
    adds squares to melee and reach (Reaching, AtD L193)."""
    if kind == "melee":
        return 1 <= d <= 1 + extra
    if kind == "reach":
        return 1 <= d <= 2 + extra
    if kind == "ranged":
        return d >= 2
    return d == 0


@lru_cache(maxsize=200_000)
def line_of_sight(open_squares: frozenset[Square], a: Square, b: Square) -> bool:
    """Centre-to-centre line (AtD L99-101), exact in integers: every square whose interior
    the segment crosses must be open. A segment passing exactly through a corner point
    touches the four squares there only at that corner, so none of them blocks."""
    if a == b:
        return True
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    return all(sq in open_squares for sq in _crossed(x0, y0, dx, dy))


def _crossed(x0: int, y0: int, dx: int, dy: int) -> Iterable[Square]:
    """The squares whose open interior the segment from (x0, y0) to (x0+dx, y0+dy) (square
    centres) passes through. Square (i, j) spans [i-0.5, i+0.5] × [j-0.5, j+0.5]; the
    segment is parametrised by t in [0, 1]. Works in doubled coordinates to stay integral."""
    lo_x, hi_x = min(x0, x0 + dx), max(x0, x0 + dx)
    lo_y, hi_y = min(y0, y0 + dy), max(y0, y0 + dy)
    for i in range(lo_x, hi_x + 1):
        for j in range(lo_y, hi_y + 1):
            if _segment_enters(x0, y0, dx, dy, i, j):
                yield (i, j)


def _segment_enters(x0: int, y0: int, dx: int, dy: int, i: int, j: int) -> bool:
    """Does the segment pass through the open interior of square (i, j)? Clip the
    parameter t to the square's slab on each axis (strictly inside) and check the two
    intervals overlap with positive length, in exact integer fractions (num, den > 0)."""
    lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1
    for p0, d, c in ((x0, dx, i), (y0, dy, j)):
        if d == 0:
            if not (2 * c - 1 < 2 * p0 < 2 * c + 1):
                return False
            continue
        den = 2 * abs(d)
        sign = 1 if d > 0 else -1
        a = (2 * c - 1 - 2 * p0) * sign
        b = (2 * c + 1 - 2 * p0) * sign
        if a > b:
            a, b = b, a
        if a * lo_d > lo_n * den:
            lo_n, lo_d = a, den
        if b * hi_d < hi_n * den:
            hi_n, hi_d = b, den
    return lo_n * hi_d < hi_n * lo_d


def neighbours(sq: Square) -> list[Square]:
    x, y = sq
    return [(x + i, y + j) for i in (-1, 0, 1) for j in (-1, 0, 1) if i or j]


def reachable(
    open_squares: frozenset[Square] | set[Square],
    start: Square,
    steps: int,
    *,
    blocked: set[Square],
    occupied: set[Square],
) -> dict[Square, int]:
    """Squares a mover can end on within ``steps`` (AtD L80): through open squares, never
    through ``blocked`` (enemies, unless flying), ending on a square not ``occupied``;
    passing allies is free. Each step costs 1 (facts file §4)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        sq = queue.popleft()
        if dist[sq] >= steps:
            continue
        for nxt in neighbours(sq):
            if nxt in dist or nxt not in open_squares or nxt in blocked:
                continue
            dist[nxt] = dist[sq] + 1
            queue.append(nxt)
    return {sq: d for sq, d in dist.items() if sq not in occupied or sq == start}


def path_distances(
    open_squares: frozenset[Square] | set[Square],
    starts: Iterable[Square],
    blocked: set[Square] = frozenset(),  # type: ignore[assignment]
) -> dict[Square, int]:
    """Walking distance from the nearest of ``starts`` to every open square (remembered for
    a map and its starts when nothing is blocked: the monsters and the bot ask it often).
    The answer is shared: read it, never change it."""
    if blocked or not isinstance(open_squares, frozenset):
        return _path_distances(open_squares, starts, blocked)
    key = (open_squares, tuple(sorted(set(starts))))
    found = _DISTANCES.get(key)
    if found is None:
        found = _path_distances(open_squares, key[1], blocked)
        if len(_DISTANCES) > 2000:
            _DISTANCES.clear()
        _DISTANCES[key] = found
    return found


_DISTANCES: dict[tuple[frozenset[Square], tuple[Square, ...]], dict[Square, int]] = {}


def _path_distances(
    open_squares: frozenset[Square] | set[Square], starts: Iterable[Square], blocked: set[Square]
) -> dict[Square, int]:
    dist: dict[Square, int] = {}
    queue: deque[Square] = deque()
    for s in starts:
        dist[s] = 0
        queue.append(s)
    while queue:
        sq = queue.popleft()
        for nxt in neighbours(sq):
            if nxt in dist or nxt not in open_squares or nxt in blocked:
                continue
            dist[nxt] = dist[sq] + 1
            queue.append(nxt)
    return dist


def area_boxes(anchor: Square, orient: str) -> list[Square]:
    """The 3×2 box of an Area effect (AtD L159, L162): "h" 3 wide × 2 tall, "v" 2 × 3."""
    x, y = anchor
    w, h = (3, 2) if orient == "h" else (2, 3)
    return [(x + i, y + j) for j in range(h) for i in range(w)]


def sq_key(sq: Square) -> str:
    return f"{sq[0]}-{sq[1]}"


def parse_sq(text: str) -> Square:
    x, y = text.split("-")
    return int(x), int(y)
