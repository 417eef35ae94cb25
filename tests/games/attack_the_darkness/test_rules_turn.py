"""Playing an encounter: rounds, the three steps of a player turn, drawing, fatigue and
unconsciousness (AtD L69-71, L125, L192, L242, L264-270). Every test acts only through
offered commands and reads the events and the view."""

from __future__ import annotations

import pytest

from app.kernel.types import RuleError
from tests.games.attack_the_darkness.harness import Table, types
from tests.games.attack_the_darkness.positions import (
    FAR,
    ROW,
    advance,
    craft,
    declare,
    discards,
    empty_deck,
    equip,
    hero,
    kinds,
    knock_out,
    of_type,
    offered,
    playable,
    view,
    wound,
)


def solo(cls: str = "champion") -> Table:
    """One character at the left end of ``ROW``, a monster far off keeping the fight on."""
    t = Table(1, classes=[cls])
    craft(t, ROW, {0: (0, 1)}, ("ogre", FAR))
    return t


# -- the start step (AtD L267) -------------------------------------------------------------------


def test_start_step_draws_up_to_three_action_and_three_resource_cards() -> None:
    """AtD L267: "if the player has fewer than 3 ACs or fewer than 3 RCs, they draw from the
    appropriate deck until they have at least 3 ACs and 3 RCs"."""
    t = solo()
    t.hand(0, "hack")
    events = t.run({"op": "player_turn", "seat": 0})
    drawn = of_type(events, "CardsDrawn")
    assert [(d["n_actions"], d["n_resources"]) for d in drawn] == [(2, 3)]
    me = hero(t)
    assert (me["hand_actions"], me["hand_resources"]) == (3, 3)
    assert (me["action_deck"], me["resource_deck"]) == (25, 24)


def test_start_step_leaves_a_bigger_hand_alone() -> None:
    """AtD L267: the draw is "up to" 3 and 3; a hand already holding more is not cut down
    (facts file §2: no hand limit)."""
    t = solo()
    t.hand(0, "hack", "hack", "block", "feint", "hearty", "hearty", "hearty")
    events = t.run({"op": "player_turn", "seat": 0})
    assert "CardsDrawn" not in types(events)
    me = hero(t)
    assert (me["hand_actions"], me["hand_resources"]) == (4, 3)


def test_an_advancement_raises_the_hand_the_start_step_draws_to() -> None:
    """AtD L267: "some advancements may increase the number of ACs and RCs to draw up to";
    Deep Reserves: +1 RC hand size (AtD L167)."""
    t = solo()
    advance(t, 0, "deep_reserves")
    t.hand(0)
    events = t.run({"op": "player_turn", "seat": 0})
    assert [(d["n_actions"], d["n_resources"]) for d in of_type(events, "CardsDrawn")] == [(3, 4)]


# -- the end step (AtD L269) ---------------------------------------------------------------------


def test_the_end_step_discard_is_the_whole_hand_or_nothing() -> None:
    """AtD L269: "the player may optionally discard their hand of cards. If they choose to
    do so, they must discard their entire hand": the only end-step choices."""
    t = solo()
    t.hand(0, "hack", "block", "hearty")
    assert offered(t, "end_turn") == [{"discard": False}, {"discard": True}]
    with pytest.raises(RuleError):
        t.send(0, "end_turn", discard="some")


def test_ending_the_turn_without_discarding_keeps_the_hand_and_draws_up() -> None:
    """AtD L269: "regardless of whether the player discarded or not, they draw cards again
    just like in the start step"."""
    t = solo()
    t.hand(0, "hack", "hearty")
    kept = {c["id"] for c in hero(t)["hand"]}
    events = t.send(0, "end_turn", discard=False)
    assert "HandDiscarded" not in types(events)
    assert [(d["n_actions"], d["n_resources"]) for d in of_type(events, "CardsDrawn")] == [(2, 2)]
    assert kept <= {c["id"] for c in hero(t)["hand"]}


def test_discarding_at_the_end_step_empties_the_hand_then_draws_three_and_three() -> None:
    """AtD L269: the whole hand goes to the discards, then the draw as at the start."""
    t = solo()
    old = t.hand(0, "hack", "block", "block", "feint", "hearty")
    events = t.send(0, "end_turn", discard=True)
    gone = of_type(events, "HandDiscarded")
    assert [sorted(d["cards"]) for d in gone] == [sorted(old)]
    assert types(events).index("HandDiscarded") < types(events).index("CardsDrawn")
    assert sorted(discards(t)) == ["Block", "Block", "Feint", "Hack!", "Hearty"]
    me = hero(t)
    assert (me["hand_actions"], me["hand_resources"]) == (3, 3)
    assert not set(old) & {c["id"] for c in me["hand"]}


# -- rounds: the player phase in marching order, then the monster phase (AtD L265-270) ------------


def test_a_round_is_every_player_turn_in_marching_order_then_the_monsters() -> None:
    """AtD L242, L266: players act in the marching order, each a full turn; AtD L265, L270:
    the monster phase follows the player phase."""
    t = Table(2, classes=["champion", "templar"])
    (knight,) = craft(t, ROW, {0: (0, 1), 1: (0, 2)}, ("aura_knight", (11, 1)))
    events = t.run({"op": "round"})
    assert [d["seat"] for d in of_type(events, "TurnBegan")] == [0]
    with pytest.raises(RuleError):
        t.send(1, "end_turn", discard=False)  # not seat 1's turn yet
    events = t.send(0, "end_turn", discard=False)
    assert [d["seat"] for d in of_type(events, "TurnBegan")] == [1]
    assert not [d for d in of_type(events, "Moved") if d["who"] == knight]
    events = t.send(1, "end_turn", discard=False)
    seen = types(events)
    moved = next(k for k, e in enumerate(events) if e.type == "Moved" and e.data["who"] == knight)
    assert seen.index("TurnEnded") < moved < seen.index("RoundBegan")  # the monster phase
    assert [d["seat"] for d in of_type(events, "TurnBegan")] == [0]  # the next round, same order


def test_an_unconscious_character_takes_no_turn_and_acts_again_the_next_turn() -> None:
    """AtD L69: an unconscious character takes no actions; "if the character gains HP in any
    way, they immediately regain consciousness, and act as normal at the start of the next
    turn": healed after its turn was skipped, it acts in the next round."""
    t = Table(2, classes=["champion", "templar"])
    craft(t, ROW, {0: (0, 1), 1: (1, 1)}, ("ogre", FAR))
    knock_out(t, 0)
    events = t.run({"op": "round"})
    assert [d["seat"] for d in of_type(events, "TurnBegan")] == [1]
    assert view(t)["waiting"]["seats"] == [1]
    cure, holy = t.hand(1, "cure", "holy")
    t.send(1, "play", card=cure)
    t.send(1, "add", rc=holy)
    t.send(1, "done")
    assert "c0" in {a["who"] for a in offered(t, "target", 1)}
    events = t.send(1, "target", who="c0")
    assert [(d["hp"], d["woke"]) for d in of_type(events, "Healed")] == [(3, True)]
    assert not hero(t, 0)["unconscious"]
    events = t.send(1, "end_turn", discard=False)
    assert [d["seat"] for d in of_type(events, "TurnBegan")] == [0]  # round 3, not round 2
    assert view(t)["round"] == 3


# -- resources do not carry over (AtD L125, L192) ---------------------------------------------


def test_hearty_leftover_pays_one_more_card_that_turn_only() -> None:
    """AtD L192: Hearty's Stamina "may be split among 2 actions"; AtD L125: "Unused resources
    are not carried over between turns". Howling gives no resource (AtD L124)."""
    t = solo()
    hack, feint, hearty, *_ = t.hand(0, "hack", "feint", "hearty", "howling", "howling", "howling")
    t.monster("zombies", (1, 1), hp=9)
    declare(t, 0, feint, hearty)  # costs 1 of Hearty's 2 Stamina
    t.send(0, "stay")
    assert "hack" in playable(t)  # the other Stamina pays it
    events = t.send(0, "end_turn", discard=False)
    assert [d["seat"] for d in of_type(events, "TurnBegan")] == [0]  # the next turn
    assert hack in {c["id"] for c in hero(t)["hand"]}
    assert "hack" not in playable(t)
    assert "AtD L140, L143" in hero(t)["unplayable"]["hack"]


def test_hearty_leftover_is_spent_by_the_one_card_it_pays() -> None:
    """AtD L192: the leftover powers one more action (facts file §5), not two."""
    t = solo()
    swing1, _, feint, hearty = t.hand(0, "deft_swing", "deft_swing", "feint", "hearty")
    zombie = t.monster("zombies", (1, 1), hp=20)
    declare(t, 0, feint, hearty)
    t.send(0, "stay")
    assert "deft_swing" in playable(t)
    declare(t, 0, swing1)  # Deft Swing (1 red) on the leftover Stamina
    t.send(0, "target", who=zombie)
    assert "deft_swing" not in playable(t)


# -- fatigue (AtD L70-71) --------------------------------------------------------------------------


def test_an_empty_deck_at_the_end_step_draw_fatigues_and_the_next_start_step_ends_it() -> None:
    """AtD L70: a draw from an empty deck fatigues: the hand is discarded. AtD L71: "At the
    next point when the player would normally draw cards on their turn, the player first
    shuffles their discarded cards back ... then draws cards as normal, ending the
    fatigue": here the start step of the next round, which follows at once."""
    t = solo()
    empty_deck(t, 0, "actions")
    t.hand(0, "hearty")
    events = t.send(0, "end_turn", discard=False)
    seen = types(events)
    assert of_type(events, "Fatigued")[0]["seat"] == 0
    began = seen.index("TurnBegan")
    assert seen.index("Fatigued") < began
    assert [d["deck"] for d in of_type(events[began:], "DeckShuffled")] == ["actions", "resources"]
    after = seen[began:]
    assert after.index("DeckShuffled") < after.index("FatigueEnded") < after.index("CardsDrawn")
    me = hero(t)
    assert not me["fatigued"] and (me["hand_actions"], me["hand_resources"]) == (3, 3)
    assert me["action_discard"] == [] and me["resource_discard"] == []
    assert me["action_deck"] == 27 - 3


def test_fatigue_discards_the_cards_in_play_too() -> None:
    """AtD L70: "discard all cards in their hand and all cards in play just as if they were
    unconscious": a Knock Out kept in play on a stunned monster goes too."""
    t = Table(1, classes=["assassin"])
    _, ogre = craft(t, ROW, {0: (0, 1)}, ("ogre", FAR), ("ogre", (1, 1)))
    knock, c1, c2 = t.hand(0, "knock_out", "calculating", "calculating")
    declare(t, 0, knock, c1, c2)
    t.send(0, "target", who=ogre)
    assert [c["card"] for c in hero(t)["in_play"]] == ["knock_out"]
    empty_deck(t, 0, "resources")
    events = t.send(0, "end_turn", discard=False)
    assert knock in of_type(events, "Fatigued")[0]["discarded"]
    assert hero(t)["in_play"] == []


def test_a_fatigued_character_only_moves_at_speed_and_uses_equipment() -> None:
    """AtD L71: "The only actions a fatigued character can take are movement (based on their
    class card's speed) and the use of equipment": no card, no class ability. Fatigued in
    its start step, it recovers at that turn's end-step draw (facts file §2)."""
    t = solo()
    equip(t, 0, "healing_draught")
    wound(t, 0, 5)
    empty_deck(t, 0, "actions")
    t.hand(0, "hearty")
    events = t.run({"op": "player_turn", "seat": 0})
    assert "Fatigued" in types(events)
    me = hero(t)
    assert me["fatigued"] and me["hand"] == []
    assert kinds(t) == {"speed", "equip", "end_turn"}
    with pytest.raises(RuleError):
        t.send(0, "ability")  # the Champion's Second Wind
    (item,) = offered(t, "equip")
    events = t.send(0, "equip", **item)
    assert [d["amount"] for d in of_type(events, "Healed")] == [4]
    t.send(0, "speed", to=[2, 1])
    events = t.send(0, "end_turn", discard=False)
    assert "FatigueEnded" in types(events) and not hero(t)["fatigued"]


# -- equipment in the action step (AtD L204-205) ------------------------------------------------


def test_equipment_is_used_as_often_as_its_card_says() -> None:
    """AtD L204: an equipment card "details how often it can be used": the Short Bow once a
    round, the Healing Draught once an encounter; used alone it acts as its type (AtD L205:
    the bow's ranged attack)."""
    t = Table(1, classes=["champion"])
    _, ogre = craft(t, ROW, {0: (0, 1)}, ("ogre", FAR), ("ogre", (4, 1)))
    t.hand(0)
    wound(t, 0, 8)
    bow, draught = equip(t, 0, "short_bow"), equip(t, 0, "healing_draught")
    assert offered(t, "equip") == [{"item": bow}, {"item": draught}]
    t.send(0, "equip", item=bow)
    events = t.send(0, "target", who=ogre)
    assert [(d["who"], d["amount"]) for d in of_type(events, "Damaged")] == [(ogre, 2)]
    t.send(0, "equip", item=draught)
    assert offered(t, "equip") == []
    t.send(0, "end_turn", discard=False)  # round 2
    assert offered(t, "equip") == [{"item": bow}]
