"""Distances, line of sight, target counts and areas, as the targets and areas a play
offers (AtD L88-101, L156-162, L193). Squares are (x, y); ``ROW`` is an open strip 12 by 3,
``GAP`` two tiles with a wall column at x = 4."""

from __future__ import annotations

import pytest

from app.kernel.types import RuleError
from tests.games.attack_the_darkness.harness import Table
from tests.games.attack_the_darkness.positions import (
    FAR,
    GAP,
    ROW,
    craft,
    damage_to,
    declare,
    hero,
    hp,
    kinds,
    knock_out,
    of_type,
    offered,
    targets,
    waiting,
    wound,
)


def aim(t: Table, card: str, *rcs: str) -> None:
    """Seat 0 plays ``card`` (a fixture) with fixture ``rcs``: the table then asks for a
    target or an area."""
    inst, *paid = t.hand(0, card, *rcs)
    declare(t, 0, inst, *paid)


def chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def box(x: int, y: int, o: str) -> set[tuple[int, int]]:
    """The 3-by-2 squares of an area placed at (x, y) across ("h") or down ("v")."""
    w, h = (3, 2) if o == "h" else (2, 3)
    return {(x + i, y + j) for i in range(w) for j in range(h)}


# -- distances (AtD L89-96) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "rcs", "hit"),
    [
        ("jab", [], {(1, 2), (1, 1)}),  # melee: adjacent only, diagonals too (AtD L90)
        ("lean", ["elemental"], {(1, 2), (1, 1), (2, 1)}),  # reach: 1 square farther (AtD L91)
        ("spark", [], {(2, 1), (3, 1), (9, 0)}),  # ranged: in sight, never adjacent (AtD L92)
        ("jab", ["thrown"], {(1, 2), (1, 1), (2, 1)}),  # Thrown: melee 1 farther (AtD L193)
        ("lean", ["elemental", "thrown"], {(1, 2), (1, 1), (2, 1), (3, 1)}),
    ],
)
def test_each_distance_offers_its_own_squares(card: str, rcs: list[str], hit: set[tuple[int, int]]) -> None:
    """AtD L89-96: melee affects adjacent targets, reach up to 1 square farther, ranged any
    target in line of sight but not adjacent ones."""
    t = Table(1, classes=["psion"])
    spots = [(1, 2), (1, 1), (2, 1), (3, 1), (9, 0)]
    ids = craft(t, ROW, {0: (0, 1)}, *(("ogre", sq) for sq in spots))
    aim(t, card, *rcs)
    assert targets(t) == {m for m, sq in zip(ids, spots, strict=True) if sq in hit}


def test_a_wall_between_breaks_line_of_sight() -> None:
    """AtD L99-101: a line broken by a wall means no LOS; "space between cards is considered
    a solid wall": the ogre 6 squares off across the gap cannot be aimed at; another ogre
    standing in the line does not block it (facts file §4: combatants never block)."""
    t = Table(1, classes=["magician"])
    across, near, behind = craft(t, GAP, {0: (0, 1)}, ("ogre", (6, 1)), ("ogre", (2, 1)), ("ogre", (3, 1)))
    aim(t, "spark")
    assert targets(t) == {near, behind}
    with pytest.raises(RuleError):
        t.send(0, "target", who=across)


# -- targets (AtD L157-158) ---------------------------------------------------------------------


def test_the_number_of_targets_is_a_maximum_and_there_is_no_minimum() -> None:
    """AtD L158: "The number of targets specified for an action is the maximum number of
    targets that can be affected. There is no minimum": Cleave hits up to 2 enemies; it may
    stop after one; a target is not chosen twice."""
    t = Table(1, classes=["champion"])
    a, b, c = craft(t, ROW, {0: (0, 1)}, ("ogre", (1, 0)), ("ogre", (1, 1)), ("ogre", (1, 2)))
    aim(t, "cleave", "pious", "pious")
    assert targets(t) == {a, b, c} and "done" in kinds(t)
    events = t.send(0, "target", who=a)
    assert targets(t) == {b, c}
    events += t.send(0, "target", who=b)
    assert "target" not in kinds(t)  # two chosen: the card's maximum
    assert [d["who"] for d in of_type(events, "Damaged")] == [a, b]
    aim(t, "cleave", "pious", "pious")
    events = t.send(0, "target", who=c)
    events += t.send(0, "done")
    assert [d["who"] for d in of_type(events, "Damaged")] == [c]
    assert waiting(t) == "act"


def test_an_ally_target_includes_oneself_and_never_an_enemy() -> None:
    """AtD L158: "Ally (a friendly target, including the player's character)": Cure (reach)
    offers the Templar and the ally within 2 squares, not the one 3 away, nor a monster."""
    t = Table(3, classes=["templar", "champion", "magician"])
    craft(t, ROW, {0: (0, 1), 1: (2, 1), 2: (3, 1)}, ("ogre", (1, 1)))
    aim(t, "cure", "pious")
    assert targets(t) == {"c0", "c1"}


def test_an_enemy_target_is_never_an_ally() -> None:
    """AtD L158: Enemy is "a hostile target": Jab offers the adjacent ogre, not the adjacent
    ally."""
    t = Table(2, classes=["assassin", "champion"])
    (ogre,) = craft(t, ROW, {0: (0, 1), 1: (1, 1)}, ("ogre", (1, 0)))
    aim(t, "jab")
    assert targets(t) == {ogre}
    with pytest.raises(RuleError):
        t.send(0, "target", who="c1")


# -- areas (AtD L159-162) -----------------------------------------------------------------------


def test_a_ranged_area_is_a_3_by_2_box_across_or_down_with_no_square_adjacent() -> None:
    """AtD L159: an area is "a box that is 3 squares by 2 squares"; AtD L162: "Area effects
    can be vertical or horizontal but not diagonal", and for a ranged one "no affected
    squares can be adjacent to the Magician" (AtD L160)."""
    t = Table(1, classes=["magician"])
    craft(t, ROW, {0: (1, 1)}, ("ogre", (3, 1)), ("ogre", (5, 2)))
    aim(t, "fireball", "magical", "magical", "magical")
    areas = offered(t, "area")
    assert areas and {a["o"] for a in areas} == {"h", "v"}
    for a in areas:
        assert all(chebyshev(sq, (1, 1)) >= 2 for sq in box(a["x"], a["y"], a["o"]))
    assert {"x": 2, "y": 0, "o": "h"} not in areas  # would hold (2, 1), next to the caster
    with pytest.raises(RuleError):
        t.send(0, "area", x=2, y=0, o="h")


def test_everything_inside_an_attack_area_is_hit_the_caster_and_allies_too() -> None:
    """AtD L161: "Everything within the affected area is targeted by the action. This means
    that area-effect attack cards can hurt allies (including yourself)": a melee-distance
    Psionic Hurricane around the Psion (facts file §6: a melee box may hold the caster)."""
    t = Table(2, classes=["psion", "champion"])
    ogre, _ = craft(t, ROW, {0: (1, 1), 1: (2, 1)}, ("ogre", (2, 2)), ("ogre", FAR))
    aim(t, "psionic_hurricane", "elemental", "elemental", "elemental")
    assert {"x": 0, "y": 1, "o": "h"} in offered(t, "area")
    events = t.send(0, "area", x=0, y=1, o="h")
    assert sorted(of_type(events, "AreaPlaced")[0]["hits"]) == sorted(["c0", "c1", ogre])
    assert damage_to(events, "c0") == [3] and damage_to(events, "c1") == [3]
    assert damage_to(events, ogre) == [3 - 2]  # the ogre defends (save 2)


def test_a_recovery_area_heals_enemies_inside_it() -> None:
    """AtD L161: "area-effect recover cards can heal enemies": Faith heals the wounded
    Templar and the wounded ogre standing in its box."""
    t = Table(1, classes=["templar"])
    (ogre,) = craft(t, ROW, {0: (1, 1)}, ("ogre", (2, 1), 5))
    wound(t, 0, 6)
    aim(t, "faith", "pious", "pious")
    events = t.send(0, "area", x=0, y=0, o="h")
    assert {(d["who"], d["amount"]) for d in of_type(events, "Healed")} == {("c0", 3), (ogre, 3)}
    assert hp(t, ogre) == 8


def test_an_area_attack_passes_over_an_unconscious_ally_and_a_healing_area_wakes_it() -> None:
    """AtD L69: "An unconscious character cannot be attacked"; any HP gained wakes it
    (facts file §2: attack areas skip it, healing areas wake it)."""
    t = Table(2, classes=["psion", "templar"])
    ogre, _ = craft(t, ROW, {0: (1, 1), 1: (2, 1)}, ("ogre", (2, 2)), ("ogre", FAR))
    knock_out(t, 1)
    aim(t, "psionic_hurricane", "elemental", "elemental", "elemental")
    events = t.send(0, "area", x=0, y=1, o="h")
    assert "c1" not in of_type(events, "AreaPlaced")[0]["hits"]
    assert damage_to(events, "c1") == [] and hero(t, 1)["unconscious"]
    aim(t, "faith", "elemental", "elemental")
    events = t.send(0, "area", x=0, y=0, o="h")
    woke = [d for d in of_type(events, "Healed") if d["who"] == "c1"]
    assert [(d["amount"], d["woke"]) for d in woke] == [(3, True)]
    assert not hero(t, 1)["unconscious"] and hp(t, ogre) > 0


def test_one_square_of_an_area_in_sight_is_enough() -> None:
    """AtD L160: "only one of the affected squares needs to be in LOS for the whole area to
    be affected": a Firewall straddling the gap hits an ogre behind the wall that no single
    target card could aim at."""
    t = Table(1, classes=["psion"])
    (ogre,) = craft(t, GAP, {0: (0, 1)}, ("ogre", (5, 1)))
    aim(t, "spark")
    assert waiting(t) == "act"  # no target to offer: the Spark is spent for nothing
    aim(t, "firewall", "elemental", "elemental")
    assert {"x": 3, "y": 0, "o": "h"} in offered(t, "area")
    events = t.send(0, "area", x=3, y=0, o="h")
    assert of_type(events, "AreaPlaced")[0]["hits"] == [ogre]
    assert damage_to(events, ogre) == [2]  # the ogre defends against melee only
