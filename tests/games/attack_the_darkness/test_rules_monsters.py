"""Monsters: the monster phase and its line order, behaviours, attacks, defences, death,
summoning (AtD L69, L72-74, L209-220, L228, L257, L270). The monster phase is run as the
round runs it (the ``monster_phase`` step); the characters hold no Defense card unless a
test gives one, so no defence window opens (facts file §20)."""

from __future__ import annotations

from tests.games.attack_the_darkness.harness import C, Table, types
from tests.games.attack_the_darkness.positions import (
    FAR,
    ROW,
    afflict,
    craft,
    damage_to,
    declare,
    foe,
    knock_out,
    of_type,
    offered,
    pack,
    pass_defences,
    view,
    waiting,
    where,
    wound,
)


def fight(seats: int = 1, *monsters: tuple[object, ...]) -> tuple[Table, list[str]]:
    """Characters at (0, 1), (0, 2), (0, 0)… with empty hands, and ``monsters``."""
    t = Table(seats, classes=["champion", "templar", "samurai"][:seats])
    spots = [(0, 1), (0, 2), (0, 0)]
    ids = craft(t, ROW, {s: spots[s] for s in range(seats)}, *monsters)
    for seat in range(seats):
        t.hand(seat)
    return t, ids


def chebyshev(a: list[int], b: list[int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


# -- the monster phase (AtD L257, L270) ------------------------------------------------------------


def test_the_line_resolves_left_to_right_so_the_last_card_drawn_acts_first() -> None:
    """AtD L257: each card drawn goes "to the left of the one drawn prior to it"; AtD L270:
    the line is "resolved one at a time from left to right"."""
    t, (knight, minotaur) = fight(1, ("aura_knight", (1, 1)), ("minotaur", (1, 0)))
    assert [e["monsters"] for e in view(t)["line"]] == [[minotaur], [knight]]
    events = t.run({"op": "monster_phase"})
    assert [(d["source"], d["amount"]) for d in of_type(events, "Damaged")] == [(minotaur, 5), (knight, 4)]


def test_every_monster_of_a_card_takes_its_turn() -> None:
    """AtD L213: each of a card's monsters "is treated as a separate combatant"; AtD L270:
    "all monsters within the encounter that were created by the card take a monster turn"
    (facts file §11: in placement order)."""
    t, _ = fight(1, ("ogre", FAR))
    rats = pack(t, "giant_rats", (1, 0), (1, 1), (1, 2))
    assert [e["monsters"] for e in view(t)["line"]][0] == rats
    events = t.run({"op": "monster_phase"})
    assert [d["source"] for d in of_type(events, "Damaged")] == rats
    assert damage_to(events, "c0") == [1, 1, 1]


# -- behaviours (AtD L211, L220) ---------------------------------------------------------------------


def test_a_closing_monster_moves_into_melee_then_attacks() -> None:
    """AtD L211: the behaviour's actions "are in order of priority"; the Aura Knight is
    "intent on getting into melee with a character" (AtD L220): it walks up to 4 squares
    to the Champion and strikes for 4 in the same turn."""
    t, (knight,) = fight(1, ("aura_knight", (4, 1)))
    events = t.run({"op": "monster_phase"})
    assert types(events).index("Moved") < types(events).index("Damaged")
    assert chebyshev(where(t, knight), [0, 1]) == 1
    assert damage_to(events, "c0") == [4]


def test_kobold_crossbows_step_out_of_melee_and_shoot() -> None:
    """AtD L220: Kobold Crossbows "attack at range while trying their best to stay out of
    melee combat": adjacent to the Champion, it moves off and shoots for 2."""
    t, (kobold,) = fight(1, ("kobold_crossbows", (1, 1)))
    events = t.run({"op": "monster_phase"})
    assert chebyshev(where(t, kobold), [0, 1]) >= 2
    assert damage_to(events, "c0") == [2]


def test_a_ranged_monster_cannot_shoot_an_adjacent_target() -> None:
    """AtD L92: ranged never affects adjacent targets; immobilized (AtD L73), the Kobold
    cannot step away, so it does not attack at all."""
    t, (kobold,) = fight(1, ("kobold_crossbows", (1, 1)))
    afflict(t, kobold, "immobilized")
    events = t.run({"op": "monster_phase"})
    assert not of_type(events, "Moved") and not of_type(events, "Damaged")


def test_the_attacks_listing_is_per_monster_per_turn() -> None:
    """AtD L214: "how many attacks each individual monster can make per turn": the Grimalkin
    strikes twice for 3 (our stats, tuned in issue 27)."""
    t, _ = fight(1, ("grimalkin", (1, 1)))
    events = t.run({"op": "monster_phase"})
    assert damage_to(events, "c0") == [3, 3]


def test_a_monster_attacks_the_weakest_character_in_reach() -> None:
    """AtD L211 leaves the choice to the behaviour; facts file §8: lowest HP first."""
    t, _ = fight(2, ("aura_knight", (1, 1)))
    wound(t, 1, 10)
    events = t.run({"op": "monster_phase"})
    assert [d["who"] for d in of_type(events, "Damaged")] == ["c1"]


def test_an_unconscious_character_is_not_attacked() -> None:
    """AtD L69: "An unconscious character cannot be attacked": the Knight beside the fallen
    Champion walks over to the Templar instead."""
    t, (knight,) = fight(2, ("aura_knight", (1, 0)))
    knock_out(t, 0)
    events = t.run({"op": "monster_phase"})
    assert damage_to(events, "c0") == [] and damage_to(events, "c1") == [4]
    assert chebyshev(where(t, knight), [0, 2]) == 1


def test_a_stunned_monster_takes_no_action_until_the_stun_ends() -> None:
    """AtD L74: "A stunned monster can take no actions until it ceases to be stunned"."""
    t, (knight,) = fight(1, ("aura_knight", (3, 1)))
    afflict(t, knight, "stunned", rounds=1)
    events = t.run({"op": "monster_phase"})
    assert not of_type(events, "Moved") and not of_type(events, "Damaged")
    t.run({"op": "round"})  # round 2: the stun is over
    assert view(t)["monsters"][0]["statuses"] == {}
    events = pass_defences(t, t.send(0, "end_turn", discard=False))
    assert damage_to(events, "c0") == [4]


def test_an_immobilized_monster_attacks_but_does_not_move() -> None:
    """AtD L73: "An immobilized monster can take actions normally, but it cannot voluntarily
    move": the Chesherak (reach) still strikes from 2 squares; the Knight 3 away waits."""
    t, (chesherak, knight) = fight(1, ("chesherak", (2, 1)), ("aura_knight", (3, 2)))
    afflict(t, chesherak, "immobilized", rounds=2)
    afflict(t, knight, "immobilized", rounds=2)
    events = t.run({"op": "monster_phase"})
    assert not of_type(events, "Moved")
    assert [d["source"] for d in of_type(events, "Damaged")] == [chesherak]
    assert where(t, knight) == [3, 2]


def test_in_tabletop_the_game_master_decides_every_monster_turn() -> None:
    """AtD L275: "the GM should have full control over tactical decisions for each monster,
    unrestricted by the behavior described on the monster cards": the Knight may strike the
    unhurt Templar rather than the weakest; the attacked player is always asked to defend
    (facts file §20), then the Knight may still move."""
    t = Table(2, classes=["champion", "templar"], mode="tabletop", dungeon="random")
    (knight,) = craft(t, ROW, {0: (0, 1), 1: (0, 2)}, ("aura_knight", (1, 1)))
    t.hand(0)
    t.hand(1)
    wound(t, 0, 10)
    t.run({"op": "monster_turn", "monster": knight})
    assert waiting(t) == "gm_monster" and t.choices(0) == []
    assert {"who": "c0"} in offered(t, "attack", "gm") and {"who": "c1"} in offered(t, "attack", "gm")
    t.send("gm", "attack", who="c1")
    assert waiting(t) == "defend" and t.choices(1) == [("pass", {})]
    events = t.send(1, "pass")
    assert damage_to(events, "c1") == [4]
    assert offered(t, "attack", "gm") == [] and offered(t, "move", "gm")  # one attack a turn
    events = t.send("gm", "move", to=[3, 1])
    assert [(d["to"], d["why"]) for d in of_type(events, "Moved")] == [([3, 1], "game master")]
    t.send("gm", "done")


def test_hack_deals_more_to_a_minion_and_disembowel_more_to_a_boss() -> None:
    """AtD L187: Hack! deals "4 damage, or 6 damage vs minion"; a "vs Boss" value applies to
    Boss-type monsters (AtD L210, L222): Disembowel deals 8 to the Salt Dragon."""
    t, (goblin, dragon) = fight(1, ("goblin_pack", (1, 1), 20), ("salt_dragon_1", (1, 2), 40))
    hack, spare, pious, disembowel, p1, p2 = t.hand(
        0, "hack", "block", "pious", "disembowel", "pious", "pious"
    )
    events = declare(t, 0, hack, pious, discard=(spare,)) + t.send(0, "target", who=goblin)
    assert damage_to(events, goblin) == [6]
    events = declare(t, 0, disembowel, p1, p2) + t.send(0, "target", who=dragon)
    save = C.monsters["salt_dragon_1"].defenses["save"]  # INF defences, so every attack
    assert [(d["amount"], d["saved"]) for d in of_type(events, "Damaged")] == [(8 - save, save)]


# -- defences (AtD L216-217) -------------------------------------------------------------------------


def test_a_monster_defends_as_many_attacks_a_round_as_its_card_says() -> None:
    """AtD L216: the defenses listing is "how many attacks each individual monster can defend
    against per round ... and how much damage will be saved each time": a Kobold saves 2
    from the first Jab of the round only, and again in the next round."""
    t, (kobold, _) = fight(1, ("kobold_crossbows", (1, 1), 20), ("ogre", FAR))
    jabs = t.hand(0, "jab", "jab", "jab")
    hits = []
    for jab in jabs[:2]:
        hits += damage_to(declare(t, 0, jab) + t.send(0, "target", who=kobold), kobold)
    assert hits == [0, 2]
    assert foe(t, kobold)["defended"] == 1
    events = t.send(0, "end_turn", discard=False)
    assert of_type(events, "RoundBegan") == [{"round": 2}]
    events = declare(t, 0, jabs[2]) + t.send(0, "target", who=kobold)
    assert of_type(events, "Damaged")[0]["saved"] == 2  # a new round, a new defence


def test_a_defence_covers_only_its_distances_and_melee_covers_reach() -> None:
    """AtD L216: "the distance of the attacks it can defend against ... defenses that work
    against melee attacks also work against reach attacks": the Chesherak (melee, save 1)
    saves against Lean (reach), not against Spark (ranged)."""
    t, (chesherak,) = fight(1, ("chesherak", (2, 1), 20))
    lean, spark, elemental = t.hand(0, "lean", "spark", "elemental")
    events = declare(t, 0, spark) + t.send(0, "target", who=chesherak)
    assert of_type(events, "Damaged")[0]["saved"] == 0
    events = declare(t, 0, lean, elemental) + t.send(0, "target", who=chesherak)
    assert of_type(events, "Damaged")[0]["saved"] == 1


def test_infinite_defences_save_against_every_attack_of_the_round() -> None:
    """AtD L217: "If a monster is listed with INF defenses, they save their full amount
    against all attacks each round": the Aura Knight (INF, save 1) saves 1 from each Jab."""
    t, (knight,) = fight(1, ("aura_knight", (1, 1), 20))
    hits = []
    for jab in t.hand(0, "jab", "jab", "jab"):
        hits += damage_to(declare(t, 0, jab) + t.send(0, "target", who=knight), knight)
    assert hits == [1, 1, 1]


# -- death (AtD L72) --------------------------------------------------------------------------------


def test_a_monster_at_0_hp_dies_and_leaves_the_map_and_the_line() -> None:
    """AtD L72: "if a monster's HP reaches 0, it is dead, and removed from play"; a card
    whose monsters are all dead leaves the line (AtD L270)."""
    t, (zombie, ogre) = fight(1, ("zombies", (1, 1)), ("ogre", FAR))
    (jab,) = t.hand(0, "jab")
    events = declare(t, 0, jab) + t.send(0, "target", who=zombie)
    assert of_type(events, "MonsterDied") == [{"id": zombie}]
    assert foe(t, zombie) is None
    assert [e["monsters"] for e in view(t)["line"]] == [[ogre]]


# -- summoning (AtD L228) ---------------------------------------------------------------------------


def test_the_high_order_master_summons_once_and_the_summons_wait_their_turn() -> None:
    """AtD L228: the High Order Master is "capable of summoning additional monsters to aid
    him in his fight": its Skeleton Guards appear next to it, joining the line just left of
    it (facts file §8), acting from the next monster phase; it summons once."""
    t, (master,) = fight(1, ("high_order_master_1", (5, 1)))
    entry = view(t)["line"][0]["entry"]
    events = t.run({"op": "monster_phase"})
    (summoned,) = of_type(events, "MonstersEntered")
    guards = [m["id"] for m in summoned["monsters"]]
    assert summoned["card"] == "skeleton_guard" and len(guards) == 2 and summoned["at_left_of"] == entry
    assert [e["monsters"] for e in view(t)["line"]] == [guards, [master]]
    assert all(chebyshev(where(t, g), [5, 1]) == 1 for g in guards)
    assert not [d for d in of_type(events, "Moved") if d["who"] in guards]
    events = pass_defences(t, t.send(0, "end_turn", discard=False))  # round 2's monster phase
    assert "MonstersEntered" not in types(events)
    assert {d["who"] for d in of_type(events, "Moved")} >= set(guards)
