"""Battle Axe (AtD L208): "Discard 1 Maneuver AC: make a 2 damage, 1 push melee attack
(without resources), OR add +2 damage, +1 push to a melee attack card" — the second way,
equipment used with an action card modifies it (AtD L205)."""

from __future__ import annotations

import pytest

from app.kernel.types import RuleError
from tests.games.attack_the_darkness.harness import Table, types

ROW = [(0, 0, "h"), (4, 0, "h"), (8, 0, "h")]


def _armed() -> tuple[Table, str, str]:
    t = Table(1, classes=["champion"])
    t.craft(ROW, {0: (0, 1)})
    zombie = t.monster("zombies", (1, 1), hp=20)
    s = t.state
    axe = next(i for i in s.dungeon_deck if s.cards[i] == "battle_axe")
    s.dungeon_deck.remove(axe)
    s.chars[0].equipment = [axe]
    return t, axe, zombie


def test_the_axe_adds_two_damage_and_a_push_to_a_melee_attack_card() -> None:
    t, axe, zombie = _armed()
    hack, hearty, feint, crush = t.hand(0, "hack", "hearty", "feint", "crush")
    t.send(0, "play", card=hack)
    assert ("modify", {"item": axe}) in t.choices()
    t.send(0, "modify", item=axe)
    assert ("modify", {"item": axe}) not in t.choices()  # once
    t.send(0, "add", rc=hearty)
    t.send(0, "done")
    # the axe's discard first: only a Maneuver action card pays it (AtD L208, L182)
    d = t.state.decision
    assert d.kind == "discard" and d.item == axe
    assert t.choices() == [("discard", {"card": feint})]
    t.send(0, "discard", card=feint)
    # then Hack!'s own condition (discard 1 card)
    assert t.state.decision.kind == "discard" and t.state.decision.item is None
    t.send(0, "discard", card=crush)
    events = t.send(0, "target", who=zombie)
    damaged = next(e for e in events if e.type == "Damaged")
    assert damaged.data["amount"] == 4 + 2  # Hack!'s 4, +2 from the axe
    d = t.state.decision
    assert d.kind == "move_to" and d.why == "push" and d.n == 1 and d.who == zombie  # +1 push
    t.send(0, "move", to=[2, 1])
    assert t.state.monsters[zombie].pos == (2, 1)
    # once per round: neither alone nor with a card again this round (AtD L208)
    assert not [c for c in t.choices() if c[0] == "equip"]


def test_the_axe_modifies_only_a_melee_attack_and_needs_a_maneuver_card() -> None:
    t, axe, _ = _armed()
    feint = t.hand(0, "feint", "hearty", "hearty", "hack")[0]
    t.send(0, "play", card=feint)  # a Defense/Maneuver card: nothing for the axe to modify
    assert not [c for c in t.choices() if c[0] == "modify"]
    t.send(0, "cancel")
    t.hand(0, "hack", "hack", "hearty")  # no Maneuver card in hand to discard
    hack2 = t.state.chars[0].hand_a[0]
    t.send(0, "play", card=hack2)
    assert not [c for c in t.choices() if c[0] == "modify"]
    before = t.state
    with pytest.raises(RuleError) as err:
        t.send(0, "modify", item=axe)
    assert err.value.code == "not_offered" and t.state is before


def test_the_axe_used_alone_is_still_offered() -> None:
    """The first way: discard a Maneuver card for a 2-damage, 1-push melee attack."""
    t, axe, zombie = _armed()
    (feint,) = t.hand(0, "feint")
    t.send(0, "equip", item=axe)
    t.send(0, "discard", card=feint)
    events = t.send(0, "target", who=zombie)
    assert next(e for e in events if e.type == "Damaged").data["amount"] == 2
    assert "EquipmentUsed" in types(t.events)
