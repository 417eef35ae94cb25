"""Distances, line of sight and Area placement on crafted maps (AtD L88-101, L159-162;
facts file §4 for the diagonal and corner decision)."""

from __future__ import annotations

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.grid import in_distance, line_of_sight, reachable, tile_order
from app.games.attack_the_darkness.rules.targeting import area_members, area_ok, target_ok
from tests.games.attack_the_darkness.harness import Table

C = load()
OPEN = frozenset((x, y) for x in range(6) for y in range(6))


def test_distances() -> None:
    """Melee: adjacent (diagonals too); reach: up to 2; ranged: not adjacent, no maximum."""
    assert in_distance("melee", 1) and not in_distance("melee", 2)
    assert in_distance("reach", 1) and in_distance("reach", 2) and not in_distance("reach", 3)
    assert not in_distance("ranged", 1) and in_distance("ranged", 2) and in_distance("ranged", 40)
    assert in_distance("melee", 2, extra=1)  # Reaching (AtD L193)


def test_line_of_sight_walls_and_corners() -> None:
    """A wall square's interior blocks; a line only touching a wall's corner does not."""
    walled = OPEN - {(2, 2)}
    assert not line_of_sight(walled, (0, 2), (4, 2))  # straight through the wall
    assert not line_of_sight(walled, (0, 0), (4, 4))  # diagonal through its centre
    assert line_of_sight(walled, (0, 1), (4, 1))
    corner = OPEN - {(1, 0), (0, 1)}
    assert line_of_sight(corner, (0, 0), (1, 1))  # between two walls, touching corners only
    assert not line_of_sight(OPEN - {(1, 1)}, (0, 0), (2, 1))


def test_tile_gaps_are_walls() -> None:
    """Space between cards blocks sight and movement (AtD L101)."""
    left = {(x, y) for x in range(3) for y in range(4)}
    right = {(x, y) for x in range(4, 7) for y in range(4)}
    both = frozenset(left | right)
    assert not line_of_sight(both, (2, 1), (4, 1))
    assert (4, 1) not in reachable(both, (2, 1), 5, blocked=set(), occupied=set())


def test_diagonal_steps_between_walls() -> None:
    """Decision (facts file §4): a diagonal step is allowed even between two walls."""
    corner = frozenset(OPEN - {(1, 0), (0, 1)})
    assert reachable(corner, (0, 0), 1, blocked=set(), occupied=set())[(1, 1)] == 1


def test_enemies_block_movement_allies_do_not() -> None:
    strip = frozenset((x, 0) for x in range(5))
    assert (3, 0) not in reachable(strip, (0, 0), 4, blocked={(2, 0)}, occupied={(2, 0)})
    assert (3, 0) in reachable(strip, (0, 0), 4, blocked=set(), occupied={(2, 0)})
    assert (2, 0) not in reachable(strip, (0, 0), 4, blocked=set(), occupied={(2, 0)})  # ends unoccupied


def test_token_order_on_a_tile() -> None:
    """Logo first, then clockwise round the ring, spiralling in (AtD L259-260)."""
    order = tile_order(0, 0, "v")
    assert order[0] == (0, 0) and order[1] == (1, 0) and order[3] == (2, 1)
    assert order[-2:] == [(1, 1), (1, 2)] and len(set(order)) == 12


def test_targets_and_areas_on_a_map() -> None:
    """Melee at 2 refused; reach at 2 ok, 3 refused; ranged adjacent refused; ranged across a
    gap refused; a Fireball touching the caster refused; one open square in sight suffices
    and everything inside is hit, the caster's ally included (AtD L156-162)."""
    t = Table(2, classes=["magician", "champion"])
    t.craft([(0, 0, "h"), (4, 0, "h"), (9, 0, "h")], {0: (1, 1), 1: (2, 2)})
    s = t.state
    near = t.monster("ogre", (3, 1))
    adjacent = t.monster("ogre", (2, 1))
    far = t.monster("ogre", (10, 1))
    me = "c0"
    melee = C.actions["punch"].parts[0]
    reach = C.actions["lance"].parts[0]
    ranged = C.actions["beam"].parts[0]
    assert not target_ok(s, me, melee, near) and target_ok(s, me, melee, adjacent)
    assert target_ok(s, me, reach, near)
    s.monsters[near].pos = (4, 1)
    assert not target_ok(s, me, reach, near)
    assert not target_ok(s, me, ranged, adjacent) and target_ok(s, me, ranged, near)
    assert not target_ok(s, me, ranged, far)  # the gap between x 7 and 9 is a wall
    fireball = C.actions["fireball"].parts[0]
    assert not area_ok(s, me, fireball, (2, 0), "h")  # a square adjacent to the caster
    assert area_ok(s, me, fireball, (3, 1), "v")
    s.chars[1].pos = (4, 2)
    hit = area_members(s, (3, 1), "h", fireball)
    assert near in hit and "c1" in hit  # allies inside are hit too (AtD L161)
    # beyond the gap (x = 8 is wall) no square is in sight; straddling it, one open square is
    assert not area_ok(s, me, fireball, (8, 0), "h")
    assert area_ok(s, me, fireball, (6, 0), "h")
