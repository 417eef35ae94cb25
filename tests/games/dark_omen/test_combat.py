"""Dice battles as the rulebook's examples resolve them (DO L439-473; facts §23, 1-9)."""

from __future__ import annotations

import pytest

from app.games.dark_omen.rules.combat import Strike, contributed, ordered, strikes
from app.games.dark_omen.rules.damage import agreed_order
from app.kernel.types import RuleError
from tests.games.dark_omen.harness import arranged, choices, enemy, of, play, table


def team(
    enemy_dice: list[int], heroes: dict[int, list[int]], heroic: tuple[int, ...] = (), **kw: object
) -> list[Strike]:
    contributions, unused = {}, {}
    for seat, dice in heroes.items():
        contributions[seat], unused[seat] = contributed(dice, seat in heroic, True)
    return strikes(enemy_dice, ordered(contributions, unused), solo=False, **kw)  # type: ignore[arg-type]


E, H = "enemy", "hero"
GREEN, PURPLE, YELLOW, BLUE = 0, 1, 2, 3


def test_l1_team_2_to_1_the_enemy_die_hits_both_unless_someone_boosts() -> None:
    """DO L443-449: E 5; Green 4, Purple 3."""
    assert team([5], {GREEN: [4], PURPLE: [3]}) == [Strike(E, (GREEN, PURPLE))]
    assert team([5], {GREEN: [4], PURPLE: [5]}) == [Strike(H, (GREEN,))]  # Purple boosted ×2 to a tie
    assert team([5], {GREEN: [6], PURPLE: [3]}) == [Strike(H, (GREEN,)), Strike(H, (PURPLE,))]


def test_l1_team_2_to_1_continued_a_tie_distracts_the_six() -> None:
    """DO L447-449: E 6, Green 5 boosts to 6: Purple strikes."""
    assert team([6], {GREEN: [6], PURPLE: [3]}) == [Strike(H, (PURPLE,))]
    assert team([6], {GREEN: [5], PURPLE: [3]}) == [Strike(E, (GREEN, PURPLE))]


def test_l1_team_3_to_1_all_three_strike_in_order() -> None:
    """DO L445: Yellow bested the die: all three deal damage, highest first."""
    assert team([5], {YELLOW: [6], GREEN: [4], PURPLE: [3]}) == [
        Strike(H, (YELLOW,)),
        Strike(H, (GREEN,)),
        Strike(H, (PURPLE,)),
    ]


def test_l2_team_3_to_1() -> None:
    """DO L451-453: E 5,4; Green 6/1, Blue 4/1, Purple 3/1: Green, then Purple."""
    assert team([5, 4], {GREEN: [6, 1], BLUE: [4, 1], PURPLE: [3, 1]}) == [
        Strike(H, (GREEN,)),
        Strike(H, (PURPLE,)),
    ]


def test_l3_team_4_to_1_ties_go_to_the_higher_unused_die() -> None:
    """DO L465-466: E 6,5,3; Yellow 6/5, Blue 5/4, Purple 5/2, Green 2/1."""
    heroes = {YELLOW: [6, 5], BLUE: [5, 4], PURPLE: [5, 2], GREEN: [2, 1]}
    contributions = {s: contributed(d, False, True)[0] for s, d in heroes.items()}
    unused = {s: contributed(d, False, True)[1] for s, d in heroes.items()}
    assert [s for s, _ in ordered(contributions, unused)] == [YELLOW, BLUE, PURPLE, GREEN]
    assert team([6, 5, 3], heroes) == [Strike(H, (PURPLE,)), Strike(H, (GREEN,))]
    heroes[BLUE] = [6, 4]  # Blue boosts to 6: Yellow still leads (5 > 4)
    assert team([6, 5, 3], heroes) == [Strike(H, (BLUE,)), Strike(H, (PURPLE,)), Strike(H, (GREEN,))]


def test_the_unblocked_die_hits_the_lowest_roller_or_the_table_option() -> None:
    """DO L430, L467: E 6,5,4; H1 5, H2 2."""
    assert team([6, 5, 4], {0: [5], 1: [2]}) == [Strike(E, (0,)), Strike(E, (1,)), Strike(E, (1,))]
    most_hp = {0: 12, 1: 9}
    picked = team([6, 5, 4], {0: [5], 1: [2]}, unblocked_target=lambda seats: max(seats, key=most_hp.get))
    assert picked[-1] == Strike(E, (0,))


def test_solo_pairs_resolve_from_the_top() -> None:
    """DO L455-457: E 5,4 against 6,4: one hero DR, the 4s tie; DO L460-461: E 6,5,4
    against 6,4: two enemy DRs."""
    assert strikes([5, 4], [(0, 6), (0, 4)], solo=True) == [Strike(H, (0,))]
    assert strikes([5, 4], [(0, 6), (0, 5)], solo=True) == [Strike(H, (0,)), Strike(H, (0,))]
    assert strikes([6, 5, 4], [(0, 6), (0, 4)], solo=True) == [Strike(E, (0,)), Strike(E, (0,))]
    assert strikes([6, 5, 4], [(0, 6), (0, 5)], solo=True) == [Strike(E, (0,))]
    assert strikes([6, 5, 4], [(0, 6), (0, 6)], solo=True) == [Strike(H, (0,)), Strike(E, (0,))]
    assert strikes([6, 5, 4], [(0, 6), (0, 5), (0, 5)], solo=True) == [Strike(H, (0,))]  # heroic: an extra 5
    assert strikes([6, 5, 4], [(0, 6), (0, 5), (0, 4)], solo=True) == []


# -- through the engine, with rigged dice ------------------------------------------------------------


def solo_l1() -> tuple[object, object]:
    s = arranged(table())
    foe = enemy(s, dr="3")
    return s, foe


def test_l1_solo_the_enemy_5_beats_a_4_and_strikes_once() -> None:
    """DO L439-441: Attack, Finalize: one enemy DR (≥ 1), AP −1."""
    s, _ = solo_l1()
    s, events = play(s, 0, "attack", [4, 5], creature="e1")
    assert of(events, "AttackRolled")[0]["dice"] == {"0": [4]} and s.heroes[0].ap == 1
    s, events = play(s, 0, "finalize")
    (battle,) = of(events, "BattleEnded")
    assert battle["strikes"] == [{"by": "enemy", "seat": 0, "roll": 3, "damage": 3}]
    assert s.heroes[0].hp == 12


def test_l1_solo_two_boosts_make_the_4_a_6() -> None:
    """DO L440: 4 MP for two boosts: the hero's 6 strikes; a third boost is refused."""
    s, _ = solo_l1()
    s, _ = play(s, 0, "attack", [4, 5], creature="e1")
    s, _ = play(s, 0, "boost", index=0)
    s, _ = play(s, 0, "boost", index=0)
    assert s.heroes[0].mp == 11
    with pytest.raises(RuleError):
        play(s, 0, "boost", index=0)
    s, events = play(s, 0, "finalize", [3])
    (battle,) = of(events, "BattleEnded")
    assert [x["by"] for x in battle["strikes"]] == ["hero"]
    assert s.creatures[0].hp == 20 - 2  # unarmed D4−1: a 3 deals 2


def test_l1_solo_one_boost_ties_and_nobody_strikes() -> None:
    s, _ = solo_l1()
    s, _ = play(s, 0, "attack", [4, 5], creature="e1")
    s, _ = play(s, 0, "boost", index=0)
    s, events = play(s, 0, "finalize")
    assert of(events, "BattleEnded")[0]["strikes"] == []


def test_armour_never_takes_an_enemy_blow_below_1() -> None:
    """DO L414: at least 1 damage."""
    s, _ = solo_l1()
    s.heroes[0].gear, s.heroes[0].equipped = ["g1_a6"], {"shield": "g1_a6"}
    s.creatures[0].dr = "1"
    s, _ = play(s, 0, "attack", [1, 6], creature="e1")
    s, events = play(s, 0, "finalize")
    assert of(events, "BattleEnded")[0]["strikes"][0]["damage"] == 1


def l3_solo(mp: int = 15) -> object:
    s = arranged(table(chapter=3), mp=mp)
    enemy(s, level=3, dr="2")
    return s


def test_l3_heroic_attack_adds_a_die_declared_before_rolling() -> None:
    """DO L460-462: E 6,5,4 against 6,4 and a heroic 5: no enemy DR; 5 MP."""
    s = l3_solo()
    assert ("attack", {"creature": "e1", "heroic": True}) in choices(s, 0)
    s, events = play(s, 0, "attack", [6, 4, 5, 6, 5, 4], creature="e1", heroic=True)
    assert s.heroes[0].mp == 10
    s, events = play(s, 0, "finalize")
    assert of(events, "BattleEnded")[0]["strikes"] == []


def test_l3_without_heroics_two_enemy_blows_and_boosting_the_4() -> None:
    s = l3_solo()
    s, _ = play(s, 0, "attack", [6, 4, 6, 5, 4], creature="e1")
    s2, events = play(s, 0, "finalize")
    assert [x["by"] for x in of(events, "BattleEnded")[0]["strikes"]] == ["enemy", "enemy"]
    s, _ = play(s, 0, "boost", index=1)  # 4 → 5: ties the 5, one enemy DR
    s3, events = play(s, 0, "finalize")
    assert [x["by"] for x in of(events, "BattleEnded")[0]["strikes"]] == ["enemy"]
    s, _ = play(s, 0, "boost", index=1)  # → 6: beats the 5, one DR each
    s4, events = play(s, 0, "finalize", [2])
    assert [x["by"] for x in of(events, "BattleEnded")[0]["strikes"]] == ["hero", "enemy"]


def test_no_heroic_attack_before_chapter_3_or_after_the_roll() -> None:
    s = arranged(table(chapter=2))
    enemy(s, level=2)
    with pytest.raises(RuleError):
        play(s, 0, "attack", [6, 4, 5, 4, 4], creature="e1", heroic=True)
    s = l3_solo()
    s, _ = play(s, 0, "attack", [6, 4, 6, 5, 4], creature="e1")
    assert not any(t == "attack" for t, _ in choices(s, 0))


def test_giant_strength_makes_a_heroic_attack_cost_3() -> None:
    """DO L462: Ragna's hero side has Giant Strength."""
    s = arranged(table(chapter=3, character=["ragna"]))
    enemy(s, level=3)
    s, _ = play(s, 0, "attack", [6, 4, 5, 6, 5, 4], creature="e1", heroic=True)
    assert s.heroes[0].mp == 12


def test_a_kill_gives_the_finisher_blood_and_everyone_involved_2_mp() -> None:
    """DO L421-422; L2 team 3:1: if Green kills E, Purple is skipped."""
    s = arranged(table(seats=3, chapter=2), mp=10)
    enemy(s, level=2, hp=3)
    s, _ = play(s, 0, "propose_team", creature="e1")
    s, _ = play(s, 1, "join_team", leader=0)
    s, _ = play(s, 2, "join_team", leader=0)
    # Green (0) 6/1, Blue (1) 4/1, Purple (2) 3/1 against 5, 4
    s, events = play(s, 0, "launch_team", [6, 1, 4, 1, 3, 1, 5, 4])
    assert [h.ap for h in s.heroes] == [1, 1, 1]
    for seat in (0, 1):
        s, _ = play(s, seat, "finalize")
    s, events = play(s, 2, "finalize", [4])
    battle = of(events, "BattleEnded")[0]
    assert [(x["by"], x["seat"]) for x in battle["strikes"]] == [("hero", 0)]
    assert s.heroes[0].blood == 1 and s.heroes[1].blood == 0
    assert [h.mp for h in s.heroes] == [13, 12, 12]  # Visko (seat 0) gains 1 more: his raven
    assert not s.creatures


def test_a_heroic_that_outnumbers_the_enemy_dice_is_not_taken() -> None:
    """DO L463: three heroes against an L3 enemy: no heroic die is added."""
    s = arranged(table(seats=3, chapter=3))
    enemy(s, level=3)
    s, _ = play(s, 0, "propose_team", creature="e1")
    s, _ = play(s, 1, "join_team", leader=0, heroic=True)
    s, _ = play(s, 2, "join_team", leader=0)
    s, events = play(s, 0, "launch_team", [6, 1, 5, 1, 4, 1, 3, 2, 1])
    rolled = of(events, "AttackRolled")[0]
    assert rolled["heroic"] == [] and len(rolled["dice"]["1"]) == 2
    assert s.heroes[1].mp == 15


def test_tied_players_may_agree_who_faces_the_enemy_first() -> None:
    """DO L428, L465: Yellow 6/5 and Blue 6/4 tie; by default Yellow leads (5 > 4); if both
    name Blue, Blue faces the enemy's 6 and Yellow's 6 beats its 5."""
    heroes = {YELLOW: [6, 5], BLUE: [6, 4], PURPLE: [5, 2], GREEN: [2, 1]}
    contributions = {s: contributed(d, False, True)[0] for s, d in heroes.items()}
    unused = {s: contributed(d, False, True)[1] for s, d in heroes.items()}
    order = ordered(contributions, unused)
    assert agreed_order(order, {str(YELLOW): BLUE}) == order  # only one of them asked
    swapped = agreed_order(order, {str(YELLOW): BLUE, str(BLUE): BLUE})
    assert [s for s, _ in swapped] == [BLUE, YELLOW, PURPLE, GREEN]
    assert strikes([6, 5, 3], swapped, solo=False) == [
        Strike(H, (YELLOW,)),
        Strike(H, (PURPLE,)),
        Strike(H, (GREEN,)),
    ]


def test_team_members_vote_on_a_tie_in_the_boost_window() -> None:
    s = arranged(table(seats=2, chapter=2))
    enemy(s, level=2, hp=30)
    s, _ = play(s, 0, "propose_team", creature="e1")
    s, _ = play(s, 1, "join_team", leader=0)
    s, _ = play(s, 0, "launch_team", [6, 1, 6, 5, 6, 4])
    assert ("tie_first", {"first": 1}) in choices(s, 0)
    s, _ = play(s, 0, "tie_first", first=0)
    s, _ = play(s, 1, "tie_first", first=0)
    assert s.heroes[0].pending.tie_votes == {"0": 0, "1": 0}
    s, _ = play(s, 0, "finalize")
    s, events = play(s, 1, "finalize", [2])
    # seat 0 first: its 6 ties the enemy 6; seat 1's 6 beats the 4 and strikes
    assert [(x["by"], x["seat"]) for x in of(events, "BattleEnded")[0]["strikes"]] == [("hero", 1)]


def test_a_ranged_attack_takes_no_blow_and_the_enemy_rushes_the_attacker() -> None:
    """DO L363-365: within range, in a straight clear line; the attacker takes no enemy
    damage; the creature then rushes to the ranged attacker's space."""
    from app.games.dark_omen.board import line_of_sight, load_board

    side = load_board().overworld
    layers = {"white": 0, "clear": 0}
    here, there = next(
        (a, b)
        for a in range(1, 112)
        for b in range(1, 112)
        if a != b and line_of_sight(side, a, b, layers) == 2
    )
    s = arranged(table(), at=here)
    s.heroes[0].gear, s.heroes[0].equipped = ["g1_w5"], {"primary": "g1_w5"}  # a bow: range 2
    enemy(s, space=there, dr="5")
    assert ("attack", {"creature": "e1"}) in choices(s, 0)
    s, _ = play(s, 0, "attack", [1, 6], creature="e1")
    s, events = play(s, 0, "finalize")
    assert of(events, "BattleEnded")[0]["strikes"] == []  # the enemy's win hits nobody at range
    assert s.heroes[0].hp == 15 and s.creatures[0].space == here
