"""Defence and saving against damage, action types and their timing, multi-type cards,
optional effects (AtD L76-78, L142, L147-155, L173, L187, L205). A monster's attack on a
character opens a defence window for that character's player (AtD L151)."""

from __future__ import annotations

from app.games.attack_the_darkness.describe import describe_event
from tests.games.attack_the_darkness.harness import Table, types
from tests.games.attack_the_darkness.positions import (
    FAR,
    ROW,
    afflict,
    craft,
    damage_to,
    declare,
    defend,
    equip,
    hero,
    hp,
    kinds,
    of_type,
    offered,
    playable,
    view,
    waiting,
    where,
)


def attacked(*cards: str, monster: str = "aura_knight") -> tuple[Table, str, list[str]]:
    """A Champion holding only ``cards``, a monster beside it about to take its turn."""
    t = Table(1, classes=["champion"])
    mid, _ = craft(t, ROW, {0: (0, 1)}, (monster, (1, 1)), ("ogre", FAR))
    return t, mid, t.hand(0, *cards)


def test_a_defense_card_is_played_in_the_monsters_turn_and_saves_its_number() -> None:
    """AtD L151: "Defense cards are played during an enemy's turn"; AtD L77: "2 Save" (here
    Block's 3) reduces the damage taken by that much: the Knight's 4 becomes 1."""
    t, knight, (block, pious) = attacked("block", "pious")
    assert "block" not in playable(t)  # not on the player's own turn
    t.run({"op": "monster_turn", "monster": knight})
    w = view(t)["waiting"]
    assert w["kind"] == "defend" and w["attacker"]["id"] == knight and w["target"]["id"] == "c0"
    assert offered(t, "defend") == [{"card": block}] and "pass" in kinds(t)
    events = defend(t, 0, block, pious)
    assert [(d["amount"], d["saved"]) for d in of_type(events, "Damaged")] == [(1, 3)]


def test_passing_the_window_takes_the_whole_attack() -> None:
    t, knight, _ = attacked("block", "pious")
    t.run({"op": "monster_turn", "monster": knight})
    events = t.send(0, "pass")
    assert damage_to(events, "c0") == [4] and hp(t, "c0") == hero(t)["max_hp"] - 4


def test_a_save_larger_than_the_damage_prevents_it_all_and_heals_nothing() -> None:
    """AtD L77: saving reduces the damage taken (facts file §3: never below 0): Block (3)
    against a zombie's 1."""
    t, zombie, (block, pious) = attacked("block", "pious", monster="zombies")
    t.run({"op": "monster_turn", "monster": zombie})
    events = defend(t, 0, block, pious)
    assert [(d["amount"], d["saved"]) for d in of_type(events, "Damaged")] == [(0, 1)]
    assert "Healed" not in types(events) and hp(t, "c0") == hero(t)["max_hp"]


def test_a_resource_card_adds_to_a_defense_save() -> None:
    """AtD L123: an RC's effect modifies the AC it powers: Gladiatorial gives Stamina and
    +1 Save, so a Gladiatorial Block saves all 4 of the Knight's damage."""
    t, knight, (block, gladiatorial) = attacked("block", "gladiatorial")
    t.run({"op": "monster_turn", "monster": knight})
    events = defend(t, 0, block, gladiatorial)
    assert [(d["amount"], d["saved"]) for d in of_type(events, "Damaged")] == [(0, 4)]


def test_no_window_opens_in_adventure_when_nothing_could_defend() -> None:
    """Facts file §20: Adventure skips the window of a player with nothing playable: the
    Block in hand has no resource card to pay it."""
    t, knight, _ = attacked("block")
    events = t.run({"op": "monster_turn", "monster": knight})
    assert waiting(t) != "defend" and damage_to(events, "c0") == [4]


def test_equipment_used_alone_defends_as_an_action_of_its_type() -> None:
    """AtD L205: equipment used without an action card "counts as taking an action of the
    appropriate type": the Buckler (Defense: 2 Save) answers the window by itself."""
    t, knight, _ = attacked()
    buckler = equip(t, 0, "buckler")
    t.run({"op": "monster_turn", "monster": knight})
    assert offered(t, "equip") == [{"item": buckler}]
    events = t.send(0, "equip", item=buckler)
    assert [(d["amount"], d["saved"]) for d in of_type(events, "Damaged")] == [(2, 2)]


def test_feint_may_be_played_on_the_players_own_turn_and_its_save_waits() -> None:
    """AtD L154: a card may override its type's timing when it says so; Feint "may play on
    turn" (AtD L187): played in the action step it moves 2 and its 2 Save still cuts the
    Knight's blow in the monster phase."""
    t, knight, (feint, hearty) = attacked("feint", "hearty")
    assert "feint" in playable(t)
    events = declare(t, 0, feint, hearty)
    assert of_type(events, "Guarded") == [{"who": "c0", "save": 2}]
    t.send(0, "move", to=[0, 2])
    assert hero(t)["guard"] == 2
    events = t.run({"op": "monster_turn", "monster": knight})
    assert [(d["amount"], d["saved"]) for d in of_type(events, "Damaged")] == [(2, 2)]


# -- multi-type cards (AtD L152-155) and optional effects (AtD L142) ---------------------------------


def test_a_multi_type_card_resolves_the_types_valid_when_it_is_played() -> None:
    """AtD L152-153: a multi-type card "can be played at any time that is appropriate for any
    of its types", and "any of the action types that are valid at the time" resolve;
    Deadly Turnabout is an attack and a defense (AtD L155): on the player's turn it strikes
    and guards nothing; in the window it guards and strikes nothing."""
    t, knight, (turnabout, c1, c2) = attacked("deadly_turnabout", "calculating", "calculating")
    events = declare(t, 0, turnabout, c1, c2) + t.send(0, "target", who=knight)
    assert damage_to(events, knight) == [3 - 1] and "Guarded" not in types(events)
    turnabout2, c3, c4 = t.hand(0, "deadly_turnabout", "calculating", "calculating")
    t.run({"op": "monster_turn", "monster": knight})
    assert offered(t, "defend") == [{"card": turnabout2}]
    events = defend(t, 0, turnabout2, c3, c4)
    assert of_type(events, "Guarded") == [{"who": "c0", "save": 2}]
    assert damage_to(events, knight) == [] and damage_to(events, "c0") == [2]


def test_an_attack_and_maneuver_card_moves_and_attacks_in_one_action() -> None:
    """AtD L153: "an AC that is both an attack and a maneuver can be played in the player's
    turn to both move and attack in a single action" (Kata, AtD L155)."""
    t = Table(1, classes=["samurai"])
    (ogre,) = craft(t, ROW, {0: (0, 1)}, ("ogre", (3, 1)))
    kata, d1, d2 = t.hand(0, "kata", "disciplined", "disciplined")
    declare(t, 0, kata, d1, d2)
    t.send(0, "move", to=[2, 1])
    events = t.send(0, "target", who=ogre)
    assert where(t, "c0") == [2, 1] and damage_to(events, ogre) == [3 - 2]


def test_the_effects_of_a_card_are_optional() -> None:
    """AtD L142: "the character is not obliged to use all of the effects when playing the
    card": Charge (move 3, then 4 damage) may neither move nor strike; it is still spent."""
    t = Table(1, classes=["champion"])
    (ogre,) = craft(t, ROW, {0: (0, 1)}, ("ogre", (1, 1)))
    charge, p1, p2 = t.hand(0, "charge", "pious", "pious")
    events = declare(t, 0, charge, p1, p2)
    events += t.send(0, "stay")
    assert {"who": ogre} in offered(t, "target")
    events += t.send(0, "done")
    assert not of_type(events, "Moved") and not of_type(events, "Damaged")
    assert waiting(t) == "act" and "Charge" in [n for _, n in hero(t)["action_discard"]]


# -- saves of monsters: Pressure Point and stuns (AtD L173; facts file §3) -------------------------


def test_pressure_point_turns_infinite_defences_into_one() -> None:
    """AtD L173: Pressure Point: "target monster loses INF defense, either defense INF
    becomes 1, or save INF becomes 1. Duration 3 rounds": the Aura Knight (INF defences,
    save 1) now saves only against the first attack of the round."""
    t = Table(1, classes=["assassin"])
    knight, _ = craft(t, ROW, {0: (0, 1)}, ("aura_knight", (1, 1), 20), ("ogre", FAR))
    point, calculating, *jabs = t.hand(0, "pressure_point", "calculating", "jab", "jab")
    events = declare(t, 0, point, calculating) + t.send(0, "target", who=knight)
    assert [(d["status"], d["until"]) for d in of_type(events, "StatusSet")] == [("pressure", 1 + 3)]
    assert [c["card"] for c in hero(t)["in_play"]] == ["pressure_point"]
    hits = []
    for jab in jabs:
        hits += damage_to(declare(t, 0, jab) + t.send(0, "target", who=knight), knight)
    assert hits == [2 - 1, 2]


def test_a_stunned_monster_does_not_defend() -> None:
    """AtD L74: a stunned monster "can take no actions" (facts file §3: no defending): the
    Kobold's save of 2 is not used."""
    t = Table(1, classes=["assassin"])
    kobold, _ = craft(t, ROW, {0: (0, 1)}, ("kobold_crossbows", (1, 1)), ("ogre", FAR))
    afflict(t, kobold, "stunned")
    (jab,) = t.hand(0, "jab")
    events = declare(t, 0, jab) + t.send(0, "target", who=kobold)
    assert [(d["amount"], d["saved"]) for d in of_type(events, "Damaged")] == [(2, 0)]


# -- an ally's Defense: Armor of Light (AtD L151, L158; facts file §20) ------------------------------


def guarded(
    own: tuple[str, ...], ally: tuple[str, ...], ally_at: tuple[int, int] = (0, 2), **options: str
) -> tuple[Table, str, list[str], list[str]]:
    """A Champion holding ``own`` at 0,0 beside an Aura Knight about to take its turn, and a
    Templar holding ``ally`` at ``ally_at`` (by default 2 squares away: in reach, out of
    the Knight's); returns the table, the Knight, and the two hands."""
    t = Table(2, classes=["champion", "templar"], **options)
    knight, _ = craft(t, ROW, {0: (0, 0), 1: ally_at}, ("aura_knight", (1, 0)), ("ogre", FAR))
    return t, knight, t.hand(0, *own), t.hand(1, *ally)


def test_an_ally_in_reach_may_armor_the_attacked_character() -> None:
    """AtD L158: Ally is "a friendly target, including the player's character": the Templar
    2 squares away plays Armor of Light (Defense, reach, 1 ally, 3 Save) on the attacked
    Champion, whose Block has nothing to pay with (so, in Adventure, its player is not
    asked): the Knight's 4 comes to 1, and the window closes."""
    t, knight, _, (armor, pious) = guarded(("block",), ("armor_of_light", "pious"))
    t.run({"op": "monster_turn", "monster": knight})
    w = view(t)["waiting"]
    assert w["kind"] == "defend" and w["seats"] == [1] and w["target"]["id"] == "c0"
    assert t.choices(0) == [] and offered(t, "defend", 1) == [{"card": armor}]
    events = defend(t, 1, armor, pious)
    assert of_type(events, "Guarded") == [{"who": "c0", "save": 3}]
    assert [(d["who"], d["amount"], d["saved"]) for d in of_type(events, "Damaged")] == [("c0", 1, 3)]
    assert waiting(t) != "defend" and hp(t, "c1") == hero(t, 1)["max_hp"]
    (played,) = [e for e in events if e.type == "CardPlayed"]
    assert describe_event(played) == "Player 2 plays Armor of Light on Player 1 with 1 resource card."


def test_the_attacked_player_answers_first_then_the_ally_and_the_saves_add_up() -> None:
    """Facts file §20: the window asks the attacked player, then the holders of Ally Defense
    cards; each seat once. Block (3) and Armor of Light (3) together save all 4."""
    t, knight, (block, red), (armor, pious) = guarded(("block", "pious"), ("armor_of_light", "pious"))
    t.run({"op": "monster_turn", "monster": knight})
    assert view(t)["waiting"]["seats"] == [0] and t.choices(1) == []
    events = defend(t, 0, block, red)
    assert view(t)["waiting"]["seats"] == [1] and not of_type(events, "Damaged")
    events = defend(t, 1, armor, pious)
    assert [(d["amount"], d["saved"]) for d in of_type(events, "Damaged")] == [(0, 4)]
    assert waiting(t) != "defend"


def test_passing_allies_close_the_window_and_the_attack_lands() -> None:
    """Both asked seats pass: the window closes once, the Knight's 4 lands in full."""
    t, knight, (block, red), _ = guarded(("block", "pious"), ("armor_of_light", "pious"))
    t.run({"op": "monster_turn", "monster": knight})
    t.send(0, "pass")
    assert view(t)["waiting"]["seats"] == [1] and kinds(t, 1) == {"defend", "pass"}
    events = t.send(1, "pass")
    assert damage_to(events, "c0") == [4] and waiting(t) != "defend"


def test_in_adventure_an_ally_is_asked_only_with_an_ally_defense_in_reach() -> None:
    """Facts file §20: Adventure skips seats with nothing playable. A Templar 3 squares away
    (Armor of Light reaches 2, AtD L88-98), or holding only Reflect (a Defense of itself),
    or with nothing to pay, is not asked: the attack lands at once."""
    for ally, at in (
        (("armor_of_light", "pious"), (0, 3)),
        (("reflect", "pious", "pious"), (0, 2)),
        (("armor_of_light",), (0, 2)),
    ):
        t, knight, _, _ = guarded((), ally, ally_at=at)
        events = t.run({"op": "monster_turn", "monster": knight})
        assert waiting(t) != "defend" and damage_to(events, "c0") == [4], (ally, at)


def test_a_cancelled_ally_payment_asks_the_ally_again() -> None:
    """Back in the payment returns to the same window for the same seat (nothing spent)."""
    t, knight, _, (armor, _) = guarded((), ("armor_of_light", "pious"))
    t.run({"op": "monster_turn", "monster": knight})
    t.send(1, "defend", card=armor)
    t.send(1, "cancel")
    w = view(t)["waiting"]
    assert w["kind"] == "defend" and w["seats"] == [1] and w["target"]["id"] == "c0"
    assert offered(t, "defend", 1) == [{"card": armor}]


def test_facing_the_game_master_an_ally_who_might_guard_is_always_asked() -> None:
    """Facts file §20: facing a human opponent a pause must tell nothing of a hand, so the
    Templar (a class that may hold Armor of Light) in reach is asked with an empty hand,
    offered only to let the attack land; out of reach it is not asked."""
    t, knight, _, _ = guarded((), (), mode="tabletop", dungeon="random")
    t.run({"op": "monster_turn", "monster": knight})
    t.send("gm", "attack", who="c0")
    assert view(t)["waiting"]["seats"] == [0]
    t.send(0, "pass")
    assert view(t)["waiting"]["seats"] == [1] and t.choices(1) == [("pass", {})]
    events = t.send(1, "pass")
    assert damage_to(events, "c0") == [4]
    t, knight, _, _ = guarded((), (), ally_at=(0, 3), mode="tabletop", dungeon="random")
    t.run({"op": "monster_turn", "monster": knight})
    t.send("gm", "attack", who="c0")
    events = t.send(0, "pass")
    assert damage_to(events, "c0") == [4]


def test_in_the_arena_a_team_mate_armors_the_player_an_opponent_attacks() -> None:
    """AtD L288: seat k plays for team k mod 2; L158: a team mate is an Ally. Seat 0 jabs
    seat 1; seat 1 passes, then its team mate seat 3, 2 squares away, plays Armor of Light
    on it (3 Save against the Jab's 2). Seat 2, the attacker's team mate, is never asked,
    though it holds the card too."""
    t = Table(4, classes=["champion", "samurai", "templar", "templar"], mode="arena")
    t.craft(ROW, {0: (4, 1), 1: (5, 1), 2: (6, 2), 3: (7, 1)})
    t.run({"op": "act", "seat": 0})
    (jab,) = t.hand(0, "jab")
    t.hand(1)
    t.hand(2, "armor_of_light", "pious")
    armor, pious = t.hand(3, "armor_of_light", "pious")
    declare(t, 0, jab)
    t.send(0, "target", who="c1")
    assert view(t)["waiting"]["seats"] == [1]
    t.send(1, "pass")
    assert view(t)["waiting"]["seats"] == [3] and offered(t, "defend", 3) == [{"card": armor}]
    events = defend(t, 3, armor, pious)
    assert of_type(events, "Guarded") == [{"who": "c1", "save": 3}]
    assert [(d["who"], d["amount"]) for d in of_type(events, "Damaged")] == [("c1", 0)]
    assert waiting(t) != "defend"
