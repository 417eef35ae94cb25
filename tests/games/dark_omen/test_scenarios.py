"""The rulebook's worked examples (facts §23) that the pure pairing tests in test_combat.py
show only as dice lists, played here through the engine with rigged dice (rolling order:
each member's attack dice in team order, then the enemy's, then the damage rolls).

Heroes have 15 HP, 15 MP, no gear (an unarmed D4−1: a rigged 3 deals 2, DO L388); E is the
enemy, dealing a fixed 3."""

from __future__ import annotations

import pytest

from app.games.dark_omen.state import State
from app.kernel.types import RuleError
from tests.games.dark_omen.harness import arranged, choices, enemy, of, play, table
from tests.games.dark_omen.test_rules import holding

GREEN, PURPLE, YELLOW = 0, 1, 2


def launched(s: State, rolls: list[int], *joiners: int) -> State:
    s, _ = play(s, 0, "propose_team", creature="e1")
    for seat in joiners:
        s, _ = play(s, seat, "join_team", leader=0)
    s, _ = play(s, 0, "launch_team", rolls)
    return s


def finish(s: State, seats: list[int], dr: list[int]) -> tuple[State, list[tuple[str, int, int]]]:
    events: list = []
    for i, seat in enumerate(seats):
        s, events = play(s, seat, "finalize", dr if i == len(seats) - 1 else [])
    battle = of(events, "BattleEnded")[0]
    return s, [(x["by"], x["seat"], x["roll"]) for x in battle["strikes"]]


def test_l1_team_2_to_1_no_boost_one_enemy_roll_hits_both() -> None:
    """DO L443-444, facts §23.2: E 5; Green 4, Purple 3: one enemy DR hits both."""
    s = arranged(table(seats=2))
    enemy(s, hp=20)
    s = launched(s, [4, 3, 5], PURPLE)
    assert [h.ap for h in s.heroes] == [1, 1]
    s, strikes = finish(s, [GREEN, PURPLE], [])
    assert strikes == [("enemy", GREEN, 3), ("enemy", PURPLE, 3)]
    assert [h.hp for h in s.heroes] == [12, 12]


def test_l1_team_2_to_1_purple_boosts_to_a_tie_and_green_strikes() -> None:
    """DO L444: Purple boosts twice (4 MP) to tie the 5: Green deals damage, nobody is hit."""
    s = arranged(table(seats=2))
    enemy(s, hp=20)
    s = launched(s, [4, 3, 5], PURPLE)
    s, _ = play(s, PURPLE, "boost", index=0)
    s, _ = play(s, PURPLE, "boost", index=0)
    s, strikes = finish(s, [GREEN, PURPLE], [3])
    assert strikes == [("hero", GREEN, 2)] and s.heroes[PURPLE].mp == 11
    assert [h.hp for h in s.heroes] == [15, 15]


def test_l1_team_2_to_1_green_boosts_past_the_5_and_both_strike() -> None:
    """DO L444: Green boosts twice to a 6: both heroes deal damage, Green first."""
    s = arranged(table(seats=2))
    enemy(s, hp=20)
    s = launched(s, [4, 3, 5], PURPLE)
    s, _ = play(s, GREEN, "boost", index=0)
    s, _ = play(s, GREEN, "boost", index=0)
    s, strikes = finish(s, [GREEN, PURPLE], [3, 2])
    assert strikes == [("hero", GREEN, 2), ("hero", PURPLE, 1)]


def test_l1_team_2_to_1_against_a_6_a_tie_distracts_and_a_7_is_refused() -> None:
    """DO L447-448 (facts §23.2 variant): E 6, Green 5, Purple 3: Green boosts to 6, a tie
    that lets Purple strike; no boost makes a 7."""
    s = arranged(table(seats=2))
    enemy(s, hp=20)
    s = launched(s, [5, 3, 6], PURPLE)
    s, _ = play(s, GREEN, "boost", index=0)
    with pytest.raises(RuleError):
        play(s, GREEN, "boost", index=0)
    s, strikes = finish(s, [GREEN, PURPLE], [4])
    assert strikes == [("hero", PURPLE, 3)]


def test_l1_team_3_to_1_all_three_strike_highest_first() -> None:
    """DO L445: Yellow 6 bests the 5; Green 4 and Purple 3 are unpaired: all three strike."""
    s = arranged(table(seats=3))
    enemy(s, hp=30)
    s = launched(s, [4, 3, 6, 5], PURPLE, YELLOW)
    s, strikes = finish(s, [GREEN, PURPLE, YELLOW], [1, 2, 3])
    assert [(by, seat) for by, seat, _ in strikes] == [("hero", YELLOW), ("hero", GREEN), ("hero", PURPLE)]


def test_l2_solo_boosting_the_4_adds_a_second_strike_unless_the_enemy_fell() -> None:
    """DO L455-457, facts §23.5: E 5,4 against 6,4: one hero DR and the 4s tie; boosting
    the 4 adds a second DR, unless the first already killed the enemy."""
    s = arranged(table(chapter=2))
    enemy(s, level=2, hp=20)
    s, _ = play(s, 0, "attack", [6, 4, 5, 4], creature="e1")
    s, strikes = finish(s, [0], [3])
    assert strikes == [("hero", 0, 2)]
    s = arranged(table(chapter=2))
    enemy(s, level=2, hp=20)
    s, _ = play(s, 0, "attack", [6, 4, 5, 4], creature="e1")
    s, _ = play(s, 0, "boost", index=1)
    s, strikes = finish(s, [0], [3, 2])
    assert strikes == [("hero", 0, 2), ("hero", 0, 1)]
    s = arranged(table(chapter=2))
    enemy(s, level=2, hp=1)
    s, _ = play(s, 0, "attack", [6, 4, 5, 4], creature="e1")
    s, _ = play(s, 0, "boost", index=1)
    s, strikes = finish(s, [0], [3, 2])
    assert strikes == [("hero", 0, 2)] and not s.creatures


def test_the_heroic_cap_two_heroes_may_one_three_may_not() -> None:
    """DO L463, facts §23.8: chapter 3, an L3 enemy (3 dice). With two heroes one heroic is
    allowed (that hero adds a die, contributing two); a third hero's heroic is refused."""
    s = arranged(table(seats=2, chapter=3))
    enemy(s, level=3, hp=40)
    s, _ = play(s, 0, "propose_team", creature="e1")
    s, _ = play(s, 1, "join_team", leader=0, heroic=True)
    s, events = play(s, 0, "launch_team", [6, 1, 5, 4, 3, 2, 2, 1])
    rolled = of(events, "AttackRolled")[0]
    assert rolled["heroic"] == [1] and len(rolled["dice"]["1"]) == 3 and s.heroes[1].mp == 10
    s = arranged(table(seats=3, chapter=3))
    enemy(s, level=3, hp=40)
    s, _ = play(s, 0, "propose_team", creature="e1")
    s, _ = play(s, 1, "join_team", leader=0)
    assert ("join_team", {"leader": 0, "heroic": True}) not in choices(s, 2)
    with pytest.raises(RuleError):
        play(s, 2, "join_team", leader=0, heroic=True)


def test_three_herbs_make_no_advanced_potion() -> None:
    """DO L269, facts §23.11: exactly two herbs, or a herb and a mushroom."""
    s = arranged(table())
    holding(s, 0, "herb_blue", "herb_blue", "herb_yellow")
    with pytest.raises(RuleError):
        play(s, 0, "craft", recipe="morale", magic=True)
    s, _ = play(s, 0, "craft", recipe="morale")
    assert s.heroes[0].mp == 20
