"""Dice battles beyond the rulebook's worked examples (DO L359-436; facts §15): where an
attack may be made, how many dice each side rolls, weapon and armour arithmetic, the
enemy's damage die, defeat and its rewards, changing gear while engaged, the Mountains and
Woodlands banners (DO L75-76), the meter's Valor and Resistance (DO L40-41, L418) and the
team attack's invitations, played through offered commands with rigged dice (rolling
order: the hero's attack dice, the enemy's, then the damage rolls).

The heroes are Nyrkki (no combat ability in chapters 1-2) unless a test says otherwise."""

from __future__ import annotations

import pytest

from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.state import State
from app.kernel.types import RuleError
from tests.games.dark_omen.harness import arranged, choices, enemy, of, play, table
from tests.games.dark_omen.positions import creature, offered, rounds_ended, seen, types


def hero(chapter: int = 1, **kw: object) -> State:
    return arranged(table(chapter=chapter, character=["nyrkki"]), **kw)  # type: ignore[arg-type]


def wear(s: State, seat: int, **slots: str) -> None:
    s.heroes[seat].gear = list(slots.values())
    s.heroes[seat].equipped = dict(slots)


def strikes(events: list) -> list[tuple[str, int]]:  # type: ignore[type-arg]
    return [(x["by"], x["damage"]) for x in of(events, "BattleEnded")[0]["strikes"]]


def fight(s: State, rolls: list[int], damage: list[int], seat: int = 0) -> tuple[State, list]:  # type: ignore[type-arg]
    s, _ = play(s, seat, "attack", rolls, creature="e1")
    return play(s, seat, "finalize", damage)


# -- engaging (DO L361-365, L400) -------------------------------------------------------------------


def test_a_melee_attack_needs_the_enemys_space_and_costs_1_ap() -> None:
    """DO L400: "you must be on their space (unless you have a ranged weapon), then you must
    spend 1 AP"."""
    s = hero(at=10)
    enemy(s, space=11)
    assert offered(s, 0, "attack") == []
    with pytest.raises(RuleError):
        play(s, 0, "attack", [6, 1], creature="e1")
    s, _ = play(s, 0, "move", to=11)
    s, events = play(s, 0, "attack", [6, 1], creature="e1")
    assert not of(events, "AttackRolled")[0]["ranged"]
    assert s.heroes[0].ap == 2


def test_a_ranged_weapon_reaches_only_in_a_straight_line_within_range() -> None:
    """DO L365: "you must be within the range listed by counting vertically or horizontally
    … (diagonal distance is not counted)"; the Worn Bow has range 2."""
    s = hero(at=50)
    wear(s, 0, primary="g1_w5")
    enemy(s, space=52)
    enemy(s, space=53, cid="e2")
    enemy(s, space=88, cid="e3")  # 50 → 51 → 88: a turn, not a straight line
    assert offered(s, 0, "attack") == [{"creature": "e1"}]


def test_after_a_team_ranged_attack_the_enemy_rushes_the_weakest_archer() -> None:
    """DO L365: "If more than one player attacks with range, the creature rushes to the
    space of the ranged attacker with the least HP and MP"."""
    s = arranged(table(seats=2, character=["nyrkki", "ragna"]), at=50)
    wear(s, 0, primary="g1_w5")
    wear(s, 1, primary="g1_w6")
    s.heroes[1].at, s.heroes[1].hp = 54, 9
    enemy(s, space=52, hp=30)
    s, _ = play(s, 0, "propose_team", creature="e1")
    s, _ = play(s, 1, "join_team", leader=0)
    s, _ = play(s, 0, "launch_team", [6, 6, 1])
    s, _ = play(s, 0, "finalize")
    s, events = play(s, 1, "finalize", [2, 2])
    assert of(events, "CreatureMoved") == [{"creature": "e1", "to": 54, "why": "rushes the ranged attacker"}]
    assert creature(s)["space"] == 54  # type: ignore[index]


def test_hardcore_woodlands_shorten_a_ranged_weapon_by_1() -> None:
    """DO L75: "Woodlands - Hardcore: Ranged weapons -1 range"."""
    s = arranged(table(hardcore_regions=True, character=["nyrkki"]), at=50)
    wear(s, 0, primary="g1_w5")
    enemy(s, space=52)
    enemy(s, space=51, cid="e2")
    assert offered(s, 0, "attack") == [{"creature": "e2"}]


def test_each_side_rolls_its_level_in_dice() -> None:
    """DO L402: one attack die in chapter 1, two in every other; the enemy rolls "dice
    equal to the level of the enemy"."""
    s = hero(at=10)
    enemy(s)
    s, events = play(s, 0, "attack", [2, 3], creature="e1")
    assert of(events, "AttackRolled")[0]["dice"] == {"0": [2]} and of(events, "AttackRolled")[0]["enemy"] == [
        3
    ]
    s = hero(chapter=2, at=10)
    enemy(s, level=1)
    s, events = play(s, 0, "attack", [2, 4, 3], creature="e1")
    assert of(events, "AttackRolled")[0]["dice"] == {"0": [2, 4]} and of(events, "AttackRolled")[0][
        "enemy"
    ] == [3]
    s = hero(chapter=2, at=10)
    enemy(s, level=2)
    s, events = play(s, 0, "attack", [2, 4, 3, 1], creature="e1")
    assert sorted(of(events, "AttackRolled")[0]["enemy"]) == [1, 3]


# -- damage (DO L410-419) -------------------------------------------------------------------------


def test_the_weapons_die_and_modifier_less_the_enemys_armour() -> None:
    """DO L416-417: the damage roll plus the gear's bonus; "If the enemy has armor,
    subtract it from your damage roll" (Bone Sword d4+2: a 4 is 6, less 2 armour)."""
    s = hero(at=10)
    wear(s, 0, primary="g1_w2")
    enemy(s, armor=2, hp=10)
    s, events = fight(s, [6, 5], [4])
    assert strikes(events) == [("hero", 4)]
    assert creature(s)["hp"] == 6  # type: ignore[index]


def test_armour_above_the_roll_leaves_the_enemy_unhurt() -> None:
    """DO L417, facts §15: a hero's damage may come to 0 (only the enemy's has a minimum)."""
    s = hero(at=10)
    enemy(s, armor=5, hp=10)
    s, events = fight(s, [6, 5], [2])
    assert strikes(events) == [("hero", 0)] and creature(s)["hp"] == 10  # type: ignore[index]


def test_an_enemy_damage_die_with_its_modifier_against_worn_armour() -> None:
    """DO L412: "roll a D4 and add (+) 2"; DO L413: "For each point of armor that you are
    equipping, reduce the enemy damage by that much" (a helmet and a mail, 1 each)."""
    s = hero(at=10)
    wear(s, 0, body="g1_a1", helmet="g1_a0")
    enemy(s, dr="d4+2")
    s, events = fight(s, [2, 5], [3])
    assert strikes(events) == [("enemy", 3)] and s.heroes[0].hp == 12


def test_hardcore_mountains_wear_armour_down_by_1() -> None:
    """DO L76: "Mountains - Hardcore: Armor suffers -1"."""
    for hardcore, hp in ((False, 13), (True, 12)):
        s = arranged(table(hardcore_regions=hardcore, character=["nyrkki"]), at=21)
        wear(s, 0, body="g1_a1")
        enemy(s, space=21, dr="3")
        s, _ = fight(s, [2, 5], [])
        assert s.heroes[0].hp == hp


def test_a_defeated_enemy_leaves_the_map_the_finisher_takes_blood_and_2_mp() -> None:
    """DO L421-422: "When an enemy health drops to 0, the enemy is defeated. Remove … their
    figure from the map. The player that dealt that final amount of damage gains a Blood of
    the Beast token, and all players involved in the battle receive 2 MP"."""
    s = hero(at=10, mp=10)
    enemy(s, hp=2)
    s, events = fight(s, [6, 5], [4])  # unarmed: D4-1 (DO L388)
    assert of(events, "CreatureSlain") == [{"creature": "e1", "by": 0, "space": 10, "kind": "creature"}]
    assert creature(s) is None and offered(s, 0, "attack") == []
    assert (s.heroes[0].blood, s.heroes[0].mp) == (1, 12)


def test_a_wounded_enemy_keeps_its_wounds_for_the_next_attack() -> None:
    """DO L419: "reduce the enemy health on the enemy board by the final total"; facts §15:
    damage persists while the enemy is on the map."""
    s = hero(at=10)
    enemy(s, hp=5)
    s, _ = fight(s, [6, 5], [4])
    assert creature(s)["hp"] == 2  # type: ignore[index]
    s, events = fight(s, [6, 5], [3])
    assert "CreatureSlain" in types(events)


def test_valor_adds_1_to_the_heroes_damage() -> None:
    """DO L40, L418: "Players add 1 damage to their DR when in a state of valor" (two
    failed omens have darkened the meter from 4 to 2, facts §17)."""
    s = hero(at=10)
    s, _ = rounds_ended(s, 8)
    assert seen(s)["meter_state"] == "valor"
    s = arranged(s, at=10)
    enemy(s, hp=20)
    s, events = fight(s, [6, 5], [3])
    assert strikes(events) == [("hero", 3)]  # D4-1 rolled 3: 2, and 1 for valor


def test_resistance_gives_only_1_mp_for_a_kill() -> None:
    """DO L41: "State of Resistance (light end of the meter): Players receive only +1 Morale
    when defeating an enemy"."""
    s = hero(at=10, mp=10)
    s.meter = 6
    assert seen(s)["meter_state"] == "resistance"
    enemy(s, hp=1)
    s, events = fight(s, [6, 5], [4])
    assert "CreatureSlain" in types(events) and s.heroes[0].mp == 11


# -- gear (DO L385-388) ---------------------------------------------------------------------------


def test_gear_changes_freely_away_from_enemies() -> None:
    """DO L386: "you can freely exchange between which gear you are using without spending
    AP"."""
    s = hero(at=10)
    s.heroes[0].gear = ["g1_w0", "g1_w1"]
    s, _ = play(s, 0, "equip", gear="g1_w0", slot="primary")
    s, _ = play(s, 0, "equip", gear="g1_w1", slot="primary")
    assert (s.heroes[0].equipped, s.heroes[0].ap) == ({"primary": "g1_w1"}, 0)


def test_changing_gear_on_an_enemys_space_costs_1_ap_once_a_round() -> None:
    """DO L386: "If you share a space with an enemy … you must spend an AP in order to
    switch the gear"; DO L234: "Equip/Change items (once per round)"."""
    s = hero(at=10)
    s.heroes[0].gear = ["g1_w0", "g1_w1"]
    enemy(s)
    s, events = play(s, 0, "equip", gear="g1_w0", slot="primary")
    assert of(events, "ApSpent")[0]["n"] == 1 and s.heroes[0].ap == 1
    assert offered(s, 0, "equip") == []
    s, _ = rounds_ended(s, 1)
    assert offered(s, 0, "equip") == [{"gear": "g1_w1", "slot": "primary"}]


def test_right_after_an_attack_gear_costs_an_ap_even_with_the_enemy_gone() -> None:
    """DO L386: "… and/or your last AP was spent to attack an enemy, you must spend an AP in
    order to switch the gear" — the enemy fell, yet the hero is still engaged."""
    s = hero(at=10)
    s.heroes[0].gear = ["g1_w0"]
    enemy(s, hp=1)
    s, events = fight(s, [6, 1], [4])
    assert "CreatureSlain" in types(events) and creature(s) is None
    s, events = play(s, 0, "equip", gear="g1_w0", slot="primary")
    assert of(events, "ApSpent")[0]["why"] == "changing gear while engaged" and s.heroes[0].ap == 2


def test_once_the_last_ap_was_not_an_attack_gear_is_free_again_away_from_enemies() -> None:
    """DO L386: an AP to change gear only "if you share a space with an enemy, and/or your
    last AP was spent to attack an enemy": after the attack, a step away (the enemy not
    on the new space) makes the change free again; on the enemy's space it still costs."""
    s = hero(at=10)
    s.heroes[0].gear = ["g1_w0"]
    enemy(s, hp=30)
    s, _ = fight(s, [6, 1], [1])
    assert offered(s, 0, "equip") == [{"gear": "g1_w0", "slot": "primary"}]
    assert s.heroes[0].engaged
    away = next(a["to"] for a in offered(s, 0, "move"))
    s, _ = play(s, 0, "move", to=away)
    assert not s.heroes[0].engaged
    ap = s.heroes[0].ap
    s, events = play(s, 0, "equip", gear="g1_w0", slot="primary")
    assert of(events, "ApSpent") == [] and s.heroes[0].ap == ap


def test_two_accessories_at_most() -> None:
    """DO L387: "1 primary gear, 1 secondary gear, 1 armor of each type (helmet, body,
    shield), 2 accessories, 1 artifact": a third accessory takes one of the two slots."""
    s = hero(at=10)
    s.heroes[0].gear = ["g1_c0", "g1_c1", "g1_c2"]
    s, _ = play(s, 0, "equip", gear="g1_c0", slot="accessory1")
    s, _ = play(s, 0, "equip", gear="g1_c1", slot="accessory2")
    assert {a["slot"] for a in offered(s, 0, "equip")} == {"accessory1", "accessory2"}
    s, _ = play(s, 0, "equip", gear="g1_c2", slot="accessory1")
    assert s.heroes[0].equipped == {"accessory1": "g1_c2", "accessory2": "g1_c1"}


def test_gear_above_the_chapter_level_cannot_be_used() -> None:
    """DO L90: "You can only use gear of your own or a lower level"."""
    s = hero(at=10)
    s.heroes[0].gear = ["g2_w0", "g1_w0"]
    assert offered(s, 0, "equip") == [{"gear": "g1_w0", "slot": "primary"}]
    with pytest.raises(RuleError):
        play(s, 0, "equip", gear="g2_w0", slot="primary")


# -- team attacks: who is asked (DO L424-425) ---------------------------------------------------------


def test_an_ally_elsewhere_may_walk_in_then_join() -> None:
    """DO L425: "you can 'wait' for your teammate to spend their AP to move to your space,
    then do a team attack"; until then the ally may only decline (DO L424: "not required")."""
    s = arranged(table(seats=2), at=10)
    s.heroes[1].at = 11
    enemy(s)
    s, events = play(s, 0, "propose_team", creature="e1")
    assert of(events, "TeamProposed")[0]["invited"] == [1]
    assert offered(s, 1, "join_team") == [] and offered(s, 1, "decline_team") == [{"leader": 0}]
    s, _ = play(s, 1, "move", to=10)
    assert offered(s, 1, "join_team") == [{"leader": 0}]
    s, _ = play(s, 1, "join_team", leader=0)
    assert [h.ap for h in s.heroes] == [0, 1]  # nobody pays for the attack before its launch
    s, _ = play(s, 0, "launch_team", [4, 3, 5])
    assert [h.ap for h in s.heroes] == [1, 2]


def test_a_declined_or_withdrawn_team_attack_costs_nothing() -> None:
    """DO L424: allies "can - but are not required to - attack that enemy together"."""
    s = arranged(table(seats=3), at=10)
    enemy(s)
    s, _ = play(s, 0, "propose_team", creature="e1")
    assert offered(s, 0, "launch_team") == []  # nobody has joined
    s, _ = play(s, 1, "decline_team", leader=0)
    s, events = play(s, 0, "withdraw_team")
    assert "TeamWithdrawn" in types(events)
    assert [h.ap for h in s.heroes] == [0, 0, 0] and offered(s, 0, "attack") == [{"creature": "e1"}]
    assert offered(s, 2, "decline_team") == []  # the invitation is gone
    s = arranged(table(seats=2), at=10)
    enemy(s)
    s, _ = play(s, 0, "propose_team", creature="e1")
    s, events = play(s, 1, "decline_team", leader=0)
    assert "TeamWithdrawn" in types(events) and s.heroes[0].pending is None  # nobody left to ask


def test_a_joined_member_is_committed_until_the_launch_or_leaves_by_saying_so() -> None:
    """Facts §21: members spend no AP elsewhere until the team attack resolves (DO L212:
    team actions wait for the allies, then are spent together). After joining, Bo is
    offered no move, meditation or end of round, only to leave before the launch."""
    s = arranged(table(seats=2), at=10)
    enemy(s)
    s, _ = play(s, 0, "propose_team", creature="e1")
    s, _ = play(s, 1, "join_team", leader=0)
    offered_types = {t for t, _ in choices(s, 1)}
    assert offered_types.isdisjoint({"move", "meditate", "end_round", "attack", "propose_team"})
    assert offered(s, 1, "leave_team") == [{"leader": 0}]
    with pytest.raises(RuleError):
        play(s, 1, "end_round")
    left, events = play(s, 1, "leave_team", leader=0)
    lines = describe_all(left, events)
    assert lines[0] == "P2\u2019s Nyrkki leaves the team attack led by P1\u2019s Visko."
    assert lines[1].endswith("team attack is withdrawn: nobody joined.")
    assert left.heroes[0].pending is None and [h.ap for h in left.heroes] == [0, 0]
    s, events = play(s, 0, "launch_team", [4, 3, 5])
    assert describe_all(s, events)[0].endswith("launches the team attack.")
    assert [h.ap for h in s.heroes] == [1, 1]


def test_a_seat_done_with_the_round_is_not_pulled_into_a_team_attack() -> None:
    """DO L211: a seat that ended its round waits for the next one and spends no more AP.
    Ending the round declines an open invitation; a member found done at the launch (a log
    from before members were committed) is left out and the log says why."""
    s = arranged(table(seats=2), at=10)
    enemy(s)
    s, _ = play(s, 0, "propose_team", creature="e1")
    ended, events = play(s, 1, "end_round")
    assert types(events)[:2] == ["TeamAnswered", "TeamWithdrawn"] and ended.heroes[0].pending is None
    assert [h.ap for h in ended.heroes] == [0, 0]
    s, _ = play(s, 1, "join_team", leader=0)
    s.heroes[1].done = True  # joined, then gave up the round (possible before this rule)
    s, events = play(s, 0, "launch_team")
    assert [line.split("\u2019s team attack ")[1] for line in describe_all(s, events)] == [
        "is withdrawn: no member can still join."
    ]
    assert [h.ap for h in s.heroes] == [0, 0] and "AttackRolled" not in types(events)


def describe_all(s: State, events: list) -> list[str]:  # type: ignore[type-arg]
    lines = [DARK_OMEN.describe(e, DARK_OMEN.log_context(s)) for e in events]
    return [line for line in lines if line]


def test_in_a_team_only_the_contributed_die_may_be_boosted() -> None:
    """DO L427: "each player will only contribute one die"; DO L432: "you may increase your
    highest die value by spending 2 MP per increase"."""
    s = arranged(table(seats=2, chapter=2), at=10)
    enemy(s, level=2, hp=30)
    s, _ = play(s, 0, "propose_team", creature="e1")
    s, _ = play(s, 1, "join_team", leader=0)
    s, _ = play(s, 0, "launch_team", [2, 5, 4, 1, 6, 6])
    assert offered(s, 0, "boost") == [{"index": 1}]
    assert offered(s, 1, "boost") == [{"index": 0}]
    with pytest.raises(RuleError):
        play(s, 0, "boost", index=0)
