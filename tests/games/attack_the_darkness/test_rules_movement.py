"""Movement and pushing (AtD L73, L79-87, L101): the speed move, card moves, allies and
enemies in the way, walls, flying, pushes. Squares are (x, y); ``ROW`` is an open strip
12 by 3 (y 0-2), ``GAP`` two tiles with a wall column at x = 4."""

from __future__ import annotations

import pytest

from app.kernel.types import RuleError
from tests.games.attack_the_darkness.harness import Table
from tests.games.attack_the_darkness.positions import (
    FAR,
    GAP,
    ROW,
    afflict,
    craft,
    declare,
    kinds,
    of_type,
    squares,
    where,
)


def around(x: int, y: int, n: int, open_: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The open squares within ``n`` steps (8 ways) of (x, y), itself excepted."""
    return {(a, b) for a, b in open_ if max(abs(a - x), abs(b - y)) <= n} - {(x, y)}


STRIP = {(x, y) for x in range(12) for y in range(3)}


def test_the_speed_move_reaches_every_square_within_speed_in_any_direction() -> None:
    """AtD L80: movement into any adjacent square, "whether in a straight line or diagonal";
    AtD L82: "a character may move as many squares as their speed"; AtD L85: the full
    distance is never required. A Champion has speed 2."""
    t = Table(1, classes=["champion"])
    craft(t, ROW, {0: (3, 1)}, ("ogre", FAR))
    assert squares(t) == around(3, 1, 2, STRIP)
    t.send(0, "speed", to=[4, 2])
    assert where(t, "c0") == [4, 2] and "speed" not in kinds(t)


def test_allies_are_moved_through_but_enemies_are_not() -> None:
    """AtD L80: "combatants can move through allies freely, though movement must end in an
    unoccupied square. Enemies cannot be moved through": a column of allies lets the
    Champion pass; a column of ogres does not."""
    t = Table(4, classes=["champion", "templar", "samurai", "magician"])
    craft(t, ROW, {0: (0, 1), 1: (1, 0), 2: (1, 1), 3: (1, 2)}, ("ogre", FAR))
    assert squares(t) == {(0, 0), (0, 2), (2, 0), (2, 1), (2, 2)}
    wall = Table(1, classes=["champion"])
    craft(wall, ROW, {0: (0, 1)}, ("ogre", (1, 0)), ("ogre", (1, 1)), ("ogre", (1, 2)))
    assert squares(wall) == {(0, 0), (0, 2)}


def test_the_space_between_tiles_blocks_movement() -> None:
    """AtD L101: "space between cards is considered a solid wall that blocks line of sight
    and all movement" (AtD L245): an Assassin (speed 4) beside the gap cannot cross it."""
    t = Table(1, classes=["assassin"])
    craft(t, GAP, {0: (3, 1)}, ("ogre", (8, 2)))
    offered = squares(t)
    assert offered and all(x <= 3 for x, _ in offered)
    with pytest.raises(RuleError):
        t.send(0, "speed", to=[5, 1])


def test_card_moves_add_up_and_each_is_up_to_its_number() -> None:
    """AtD L83: "Players can utilize as many such cards per turn as they can legally play";
    AtD L85: "it is never required to use the full allowed move distance". Footwork (0):
    move 3; Momentous adds 1 (its effect, AtD L123)."""
    t = Table(1, classes=["samurai"])
    craft(t, ROW, {0: (0, 1)}, ("ogre", FAR))
    first, second, third, momentous = t.hand(0, "footwork", "footwork", "footwork", "momentous")
    t.send(0, "speed", to=[3, 1])
    declare(t, 0, first)
    assert squares(t, "move") == around(3, 1, 3, STRIP) and "stay" in kinds(t)
    t.send(0, "move", to=[4, 1])  # one square of three
    declare(t, 0, second)
    t.send(0, "move", to=[7, 1])
    declare(t, 0, third, momentous)
    assert squares(t, "move") == around(7, 1, 4, STRIP) - {FAR}  # 3 + 1; the ogre's square taken
    events = t.send(0, "stay")
    assert not of_type(events, "Moved") and where(t, "c0") == [7, 1]


def test_a_push_moves_the_target_up_to_n_legal_squares() -> None:
    """AtD L87: "the target can be moved up to the number of squares specified, so long as
    the squares it is moved through (and the square it ends in) are legal moves": Bash
    (2 Push) cannot take the zombie through the characters, its enemies (AtD L80)."""
    t = Table(4, classes=["templar", "champion", "samurai", "magician"])
    zombie, _ = craft(
        t, ROW, {0: (0, 1), 1: (2, 0), 2: (2, 1), 3: (2, 2)}, ("zombies", (1, 1), 9), ("ogre", FAR)
    )
    bash, pious = t.hand(0, "bash", "pious")
    declare(t, 0, bash, pious)
    t.send(0, "target", who=zombie)
    assert squares(t, "move") == {(0, 0), (0, 2), (1, 0), (1, 2)}
    assert "stay" in kinds(t)  # "up to": no push at all is allowed
    t.send(0, "move", to=[1, 0])
    assert where(t, zombie) == [1, 0]


def test_an_immobilized_monster_can_still_be_pushed() -> None:
    """AtD L73: "Effects or abilities used upon an immobilized monster that push the monster
    can still cause the monster to move"."""
    t = Table(1, classes=["templar"])
    zombie, _ = craft(t, ROW, {0: (0, 1)}, ("zombies", (1, 1), 9), ("ogre", FAR))
    afflict(t, zombie, "immobilized", rounds=3)
    slam, pious = t.hand(0, "slam", "pious")
    declare(t, 0, slam, pious)
    t.send(0, "target", who=zombie)
    assert (3, 1) in squares(t, "move")
    events = t.send(0, "move", to=[3, 1])
    assert [(d["who"], d["to"], d["why"]) for d in of_type(events, "Moved")] == [(zombie, [3, 1], "push")]


def test_a_flying_monster_passes_over_its_enemies_a_walking_one_does_not() -> None:
    """AtD L80: "Enemies cannot be moved through unless the combatant is flying" (AtD L215:
    walking or flying): a dominated Demon (fly 5) crosses a column of zombies, its enemies
    now (AtD L75); a dominated Minotaur (walk 4) cannot."""
    t = Table(1, classes=["psion"])
    zombies = [("zombies", (6, y)) for y in range(3)]
    demon, minotaur, *_ = craft(t, ROW, {0: (0, 1)}, ("demon", (5, 1)), ("minotaur", (5, 0)), *zombies)
    for mid in (demon, minotaur):
        afflict(t, mid, "dominated", rounds=2)
    t.run({"op": "monster_turn", "monster": minotaur})
    assert squares(t, "move") and all(x <= 5 for x, _ in squares(t, "move"))
    t.send(0, "done")
    t.run({"op": "monster_turn", "monster": demon})
    assert {(7, 1), (9, 1)} <= squares(t, "move")
    events = t.send(0, "move", to=[9, 1])
    assert [(d["to"], d["why"]) for d in of_type(events, "Moved")] == [([9, 1], "dominated")]
