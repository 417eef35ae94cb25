"""Statuses and card durations: stun, immobilize, dominate, kept in play while they last
(AtD L73-75, L168-172). A status set in round r for N rounds holds while the round is
below r + N (facts file §6: it expires at its owner's start step in round r + N)."""

from __future__ import annotations

from tests.games.attack_the_darkness.harness import Table, types
from tests.games.attack_the_darkness.positions import (
    FAR,
    ROW,
    craft,
    damage_to,
    declare,
    discards,
    foe,
    hero,
    of_type,
    pass_defences,
    targets,
    view,
    waiting,
)


def table(cls: str, *monsters: tuple[object, ...]) -> tuple[Table, list[str]]:
    t = Table(1, classes=[cls])
    return t, craft(t, ROW, {0: (0, 1)}, *monsters)


def test_a_stun_lasts_its_rounds_and_its_card_stays_in_play_meanwhile() -> None:
    """AtD L74: the stunned monster takes no actions; AtD L168-170: a card with a duration
    is "kept face-up in front of the player. Once the specified duration of time passes,
    the card should be discarded": Knock Out (stun 1 round)."""
    t, (ogre,) = table("assassin", ("ogre", (1, 1), 12))
    knock, c1, c2 = t.hand(0, "knock_out", "calculating", "calculating")
    events = declare(t, 0, knock, c1, c2) + t.send(0, "target", who=ogre)
    assert [(d["who"], d["status"], d["until"]) for d in of_type(events, "StatusSet")] == [
        (ogre, "stunned", 2)
    ]
    assert foe(t, ogre)["statuses"] == {"stunned": 2}
    assert [(c["card"], c["until"], c["on"]) for c in hero(t)["in_play"]] == [("knock_out", 2, ogre)]
    assert "Knock Out" not in discards(t) and "Calculating" in discards(t)  # its RCs go at once
    t.hand(0)
    events = t.run({"op": "monster_phase"})  # round 1: the ogre is stunned
    assert damage_to(events, "c0") == []
    expired = of_type(events, "InPlayExpired")  # round 2's start step
    assert [d["cards"] for d in expired] == [[knock]]
    assert hero(t)["in_play"] == [] and "Knock Out" in discards(t)
    assert foe(t, ogre)["statuses"] == {}
    events = pass_defences(t, t.send(0, "end_turn", discard=False))
    assert damage_to(events, "c0") == [4]  # round 2: it strikes again


def test_an_immobilized_monster_stays_put_for_the_rounds_of_the_card() -> None:
    """AtD L73: an immobilized monster "cannot voluntarily move"; Garrote immobilizes for 2
    rounds: the Knight stays through the monster phases of rounds 1 and 2, then closes."""
    t, (knight,) = table("assassin", ("aura_knight", (1, 1), 20))
    garrote, calculating = t.hand(0, "garrote", "calculating")
    declare(t, 0, garrote, calculating)
    t.send(0, "target", who=knight)
    assert foe(t, knight)["statuses"] == {"immobilized": 3}
    t.send(0, "speed", to=[4, 1])  # out of its reach
    phases = [t.run({"op": "monster_phase"})]  # round 1's monster phase
    for _ in range(2):  # rounds 2 and 3: the turn, then the monster phase
        phases.append(pass_defences(t, t.send(0, "end_turn", discard=False)))
    moved = [[d["to"] for d in of_type(events, "Moved") if d["who"] == knight] for events in phases]
    assert moved[0] == [] and moved[1] == [] and moved[2] != []
    assert view(t)["round"] == 4


def test_a_resource_card_may_immobilize_the_attacks_target() -> None:
    """AtD L123: an RC's effect section adds to the AC it powers: Slowed (Mana) immobilizes
    the monster a Spark hits, for a round."""
    t, (ogre,) = table("magician", ("ogre", (4, 1)))
    spark, slowed = t.hand(0, "spark", "slowed")
    events = declare(t, 0, spark, slowed) + t.send(0, "target", who=ogre)
    assert [(d["status"], d["until"]) for d in of_type(events, "StatusSet")] == [("immobilized", 2)]


def test_a_card_kept_in_play_goes_when_its_target_dies() -> None:
    """AtD L172: a card stays in play "until their target dies": the Knock Out on the ogre
    is discarded the moment a Back Stab kills it."""
    t, (ogre, _) = table("assassin", ("ogre", (1, 1), 6), ("ogre", FAR))
    knock, c1, c2, stab, c3, c4 = t.hand(
        0, "knock_out", "calculating", "calculating", "back_stab", "calculating", "calculating"
    )
    declare(t, 0, knock, c1, c2)
    t.send(0, "target", who=ogre)
    assert [c["card"] for c in hero(t)["in_play"]] == ["knock_out"]
    events = declare(t, 0, stab, c3, c4) + t.send(0, "target", who=ogre)
    assert "MonsterDied" in types(events)
    assert hero(t)["in_play"] == [] and {"Knock Out", "Back Stab"} <= set(discards(t))


def test_a_dominated_monster_counts_as_an_ally_and_can_be_hurt_by_monsters() -> None:
    """AtD L75: "For the duration of the domination, the monster counts as an ally to the
    player, and can be made to hurt other monsters": after Spirit Guide the ogre is no
    longer an enemy target, and the troll beside it attacks it, not the far Psion."""
    t, (ogre, troll) = table("psion", ("ogre", (6, 1)), ("troll", (7, 1)))
    guide, e1, e2, e3, spark = t.hand(0, "spirit_guide", "elemental", "elemental", "elemental", "spark")
    events = declare(t, 0, guide, e1, e2, e3) + t.send(0, "target", who=ogre)
    assert [(d["status"], d["by"]) for d in of_type(events, "StatusSet")] == [("dominated", 0)]
    declare(t, 0, spark)
    assert targets(t) == {troll}
    t.send(0, "done")
    events = t.run({"op": "monster_turn", "monster": troll})
    assert [(d["who"], d["source"]) for d in of_type(events, "Damaged")] == [(ogre, troll)]


def test_dominating_every_monster_left_wins_and_clears_the_cards_in_play() -> None:
    """Facts file §3: all remaining monsters dominated = the encounter is won; AtD L172:
    cards in play stay until "the current encounter is completed"."""
    t, (ogre,) = table("psion", ("ogre", (4, 1)))
    guide, e1, e2, e3 = t.hand(0, "spirit_guide", "elemental", "elemental", "elemental")
    events = declare(t, 0, guide, e1, e2, e3) + t.send(0, "target", who=ogre)
    assert [d["result"] for d in of_type(events, "EncounterEnded")] == ["win"]
    assert hero(t)["in_play"] == [] and "Spirit Guide" in discards(t)
    assert waiting(t) == "clear_room"


def test_domination_ends_with_its_rounds() -> None:
    """AtD L75: "For the duration of the domination": Spirit Guide lasts one round; in the
    next the ogre is an enemy again."""
    t, (ogre, _) = table("psion", ("ogre", (4, 1)), ("ogre", FAR))
    guide, e1, e2, e3 = t.hand(0, "spirit_guide", "elemental", "elemental", "elemental")
    declare(t, 0, guide, e1, e2, e3)
    t.send(0, "target", who=ogre)
    assert foe(t, ogre)["statuses"] == {"dominated": 2}
    t.send(0, "end_turn", discard=False)
    assert view(t)["round"] == 2 and foe(t, ogre)["statuses"] == {}
    t.hand(0, "spark")
    declare(t, 0, hero(t)["hand"][0]["id"])
    assert ogre in targets(t)
