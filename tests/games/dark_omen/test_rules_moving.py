"""Movement and the rotating labyrinth (DO L164-171, L239-241, L297-298, L308, L312-313,
L362, L554; facts §4, §8), the movement potions (DO L275-276, L283) and the Swamplands
banner (DO L74), played through offered commands only."""

from __future__ import annotations

import pytest

from app.kernel.types import RuleError
from tests.games.dark_omen.harness import arranged, enemy, of, play, table
from tests.games.dark_omen.positions import C, holding, offered, seen, steps, types, unlocked


def closed(s: object, a: int, b: int) -> bool:
    """A black line between ``a`` and ``b`` as the view draws it."""
    return f"{a}-{b}" in seen(s)["blocked"] or f"{b}-{a}" in seen(s)["blocked"]  # type: ignore[arg-type]


def test_a_step_goes_to_an_orthogonal_neighbour_only() -> None:
    """DO L240: "move to an adjacent (non-diagonal) space"; around the runehenge on 47 the
    spaces are 10, 46, 48 and 84 (DO L554)."""
    s = arranged(table(), at=47)
    assert steps(s) == {10, 46, 48, 84}
    with pytest.raises(RuleError):
        play(s, 0, "move", to=11)  # diagonal
    with pytest.raises(RuleError):
        play(s, 0, "move", to=49)  # two spaces away


def test_with_no_morale_the_black_lines_close_the_way() -> None:
    """DO L240: a black line is crossed "for the cost of 4 MP" — with less, not at all."""
    s = arranged(table(), at=41, mp=3)
    assert closed(s, 41, 78) and 78 not in steps(s)
    s = arranged(table(), at=41, mp=4)
    s, events = play(s, 0, "move", to=78)
    assert of(events, "HeroMoved")[0]["mp"] == 4 and s.heroes[0].mp == 0


def test_heroes_share_a_space_and_walk_through_each_other() -> None:
    """DO L241: "Player figures can move through or share the same space on the map"."""
    s = arranged(table(seats=2), at=39)
    s.heroes[1].at = 40
    assert 40 in steps(s)
    s, _ = play(s, 0, "move", to=40)
    s, _ = play(s, 0, "move", to=41)
    assert (s.heroes[0].at, s.heroes[1].at, s.heroes[0].ap) == (41, 40, 2)


def test_stepping_onto_an_enemy_starts_no_fight_and_it_may_be_left() -> None:
    """DO L362: "you engage your enemy by entering their space and then setting up the
    combat for your next action"; enemies do not engage you; facts §8: enemies never
    block and a hero may leave their space."""
    s = arranged(table(), at=39)
    enemy(s, space=40)
    s, events = play(s, 0, "move", to=40)
    assert types(events)[0] == "HeroMoved" and "AttackRolled" not in types(events)
    assert s.heroes[0].ap == 1 and s.heroes[0].hp == 15 and s.heroes[0].pending is None
    assert offered(s, 0, "attack") == [{"creature": "e1"}]
    s, _ = play(s, 0, "move", to=41)
    assert s.heroes[0].at == 41


def test_a_town_is_entered_and_left_only_by_its_gate() -> None:
    """DO L297: "Towns must be entered and exited through the front entrance before the
    market"; each step in town costs an AP like one on the board."""
    s = arranged(table(), at="Hoglichten:tavern")
    assert steps(s) == {"Hoglichten:market"}
    s, _ = play(s, 0, "move", to="Hoglichten:market")
    assert 39 not in steps(s)
    s, _ = play(s, 0, "move", to="Hoglichten:gate")
    assert 39 in steps(s)
    s, _ = play(s, 0, "move", to=39)
    assert s.heroes[0].ap == 3
    assert "Ravensden:gate" not in steps(s)  # the other town's gate is by space 57


def test_obstacles_never_block_a_town() -> None:
    """DO L298: "Obstacles never block the entrance of towns or your moment through the
    town": with no morale at all every town step is still open, at no MP."""
    s = arranged(table(), at=57, mp=0)
    assert "Ravensden:gate" in steps(s)
    for place in ("Ravensden:gate", "Ravensden:market", "Ravensden:healer"):
        s, events = play(s, 0, "move", to=place)
        assert of(events, "HeroMoved")[0]["mp"] == 0


def test_river_travel_costs_1_ap_and_2_gold() -> None:
    """DO L308: "Spend 2 gold and 1 AP to move your figure from one river space on the map
    to the other" (spaces 7 and 108, once the token is face up, DO L302)."""
    s = arranged(table(), gold=3)
    assert seen(s)["locations"]["7"]["kind"] == seen(s)["locations"]["108"]["kind"] == "river_travel"
    s = unlocked(s, 0, 7)
    s, _ = play(s, 0, "river")
    assert (s.heroes[0].at, s.heroes[0].gold, s.heroes[0].ap) == (108, 1, 1)
    s.heroes[0].gold = 1
    assert offered(s, 0, "river") == []


def test_a_face_down_location_does_nothing_until_unlocked() -> None:
    """DO L302: location tokens start face down; "To flip them over and unlock them you
    may pay 2 blood of the beast tokens" (and 1 AP, DO L238)."""
    s = arranged(table(), at=7, gold=5)
    assert not seen(s)["locations"]["7"]["open"] and offered(s, 0, "river") == []
    assert offered(s, 0, "unlock") == []  # no blood
    s.heroes[0].blood = 2
    s, events = play(s, 0, "unlock")
    assert of(events, "LocationUnlocked")[0]["space"] == 7 and seen(s)["locations"]["7"]["open"]
    assert (s.heroes[0].blood, s.heroes[0].ap) == (0, 1)


# -- movement potions (DO L275-276, L283) ------------------------------------------------------------


def test_speed_moves_two_spaces_for_1_ap() -> None:
    """DO L275: Speed (Yellow + Yellow): "Spend 1 AP to move 2 spaces"."""
    s = arranged(table(), at=39)
    holding(s, 0, "herb_yellow", "herb_yellow")
    s, _ = play(s, 0, "craft", recipe="speed")
    s, _ = play(s, 0, "move", to=40)
    s, _ = play(s, 0, "move", to=41)
    assert (s.heroes[0].at, s.heroes[0].ap) == (41, 1)
    s, _ = play(s, 0, "move", to=42)
    assert s.heroes[0].ap == 2  # the potion moved two spaces, not more


def test_adrenaline_moves_two_spaces_for_1_ap_and_takes_an_ap_next_round() -> None:
    """DO L283: Adrenaline (Yellow + mushrooms): "Spend 1 AP to move 2 spaces. Lose 1 AP
    next round"."""
    s = arranged(table(), at=39)
    holding(s, 0, "herb_yellow", "mushroom")
    s, _ = play(s, 0, "craft", recipe="adrenaline")
    s, _ = play(s, 0, "move", to=40)
    s, _ = play(s, 0, "move", to=41)
    assert s.heroes[0].ap == 1
    s, events = play(s, 0, "end_round")
    assert of(events, "RoundBegan")[0]["ap_limits"] == [5]


def test_levity_floats_over_one_obstacle_at_no_morale() -> None:
    """DO L276: Levity (Yellow + Purple): "Ignore an obstacle" — one, the next after that
    costs 4 MP again (DO L240)."""
    s = arranged(table(), at=41, mp=0)
    holding(s, 0, "herb_yellow", "herb_purple")
    assert 78 not in steps(s)
    s, _ = play(s, 0, "craft", recipe="levity")
    s, _ = play(s, 0, "move", to=78)
    assert (s.heroes[0].at, s.heroes[0].mp, s.heroes[0].ap) == (78, 0, 1)
    assert 41 not in steps(s)  # back across the same line: the potion is spent


# -- the Swamplands banner (DO L73-74) ---------------------------------------------------------------


def test_hardcore_swamplands_make_a_step_cost_2_ap() -> None:
    """DO L74: "Swamplands - Hardcore: Moving costs 2 AP"; the light side does nothing
    (facts §4)."""
    assert C.board.side(1).region(66) == C.board.side(1).region(67) == "Swamplands"
    s = arranged(table(hardcore_regions=True), at=66)
    s, events = play(s, 0, "move", to=67)
    assert of(events, "HeroMoved")[0]["ap"] == 2 and s.heroes[0].ap == 2
    s = arranged(table(), at=66)
    s, _ = play(s, 0, "move", to=67)
    assert s.heroes[0].ap == 1


def test_a_swamp_step_is_not_offered_with_a_single_ap_left() -> None:
    """DO L74 with DO L211: a 2-AP step cannot be paid out of the round's last AP."""
    s = arranged(table(hardcore_regions=True), at=66)
    for _ in range(5):
        s, _ = play(s, 0, "meditate")
    assert 67 not in steps(s) and 29 not in steps(s)
