"""Trades while clearing the room: "Players that are resting can choose to trade or make
gifts of equipment between themselves" (AtD L279, L207): a proposal, then the other
resting player's answer; never with a player who did not rest; 2 slots each (AtD L206)."""

from __future__ import annotations

import pytest

from app.kernel.types import RuleError
from tests.games.attack_the_darkness.harness import Table, types


def _equip(t: Table, seat: int, card: str) -> str:
    s = t.state
    inst = next(i for i in s.dungeon_deck if s.cards[i] == card)
    s.dungeon_deck.remove(inst)
    s.chars[seat].equipment.append(inst)
    return inst


def _cleared() -> Table:
    """Three players won the encounter: clearing the room begins."""
    t = Table(3, classes=["champion", "templar", "samurai"], dungeon="random")
    t.craft([(0, 0, "v"), (3, 0, "v")], {0: (0, 0), 1: (1, 0), 2: (2, 0)})
    tile = t.state.tiles[1]
    tile.flipped, tile.card = False, t.state.dungeon_deck.pop()  # one tile to explore
    t.run({"op": "encounter_over", "result": "win", "team": None})
    assert t.state.decision.kind == "clear_room"
    return t


def _choose(t: Table, rest: tuple[int, ...]) -> list:
    events = []
    for seat in range(3):
        if seat in rest:
            events += t.send(seat, "rest", seat=seat, discard=False, reshuffle=False)
        else:
            events += t.send(seat, "explore", seat=seat, discard=False)
    return events


def test_resting_players_trade_and_gift_equipment() -> None:
    t = _cleared()
    axe = _equip(t, 0, "battle_axe")
    bow = _equip(t, 1, "short_bow")
    hammer = _equip(t, 2, "war_hammer")
    _choose(t, (0, 1))
    d = t.state.decision
    assert d.kind == "trade" and d.asked == [0, 1] and d.traders == [0, 1]
    # the explorer is not resting: it neither trades nor is offered anything (AtD L279)
    with pytest.raises(RuleError) as err:
        t.send(2, "propose", seat=2, to=0, give=hammer, take=None)
    assert err.value.code == "not_your_decision"
    assert not [c for c in t.choices(0) if c[1].get("to") == 2]
    # a gift: proposed, then accepted
    before = t.state
    with pytest.raises(RuleError) as err:
        t.send(0, "propose", seat=0, to=1, give=bow, take=None)  # not seat 0's item
    assert err.value.code == "not_offered" and t.state is before
    t.send(0, "propose", seat=0, to=1, give=axe, take=None)
    d = t.state.decision
    assert d.asked == [1] and d.offer == {"seat": 0, "to": 1, "give": axe, "take": None}
    with pytest.raises(RuleError):
        t.send(0, "accept")  # only the player offered answers
    events = t.send(1, "accept")
    assert "EquipmentTraded" in types(events)
    assert t.state.chars[0].equipment == [] and sorted(t.state.chars[1].equipment) == sorted([bow, axe])
    # a swap, declined: nothing changes hands
    t.send(0, "propose", seat=0, to=1, give=None, take=bow)
    t.send(1, "decline")
    assert t.state.chars[0].equipment == []
    # one player done: the trading is over (fewer than two left) and the explorer goes on
    events = t.send(1, "done", seat=1)
    assert "TradingDone" in types(events) and t.state.decision.kind == "explore"
    assert t.state.decision.seat == 2


def test_a_trade_must_keep_both_within_two_slots() -> None:
    """AtD L206: two slots per character; a trade that would overfill one is not offered."""
    t = _cleared()
    hammer = _equip(t, 0, "war_hammer")  # 2 slots
    axe = _equip(t, 1, "battle_axe")
    bow = _equip(t, 1, "short_bow")
    _choose(t, (0, 1))
    offered = [a for kind, a in t.choices(0) if kind == "propose"]
    assert {"seat": 0, "to": 1, "give": hammer, "take": None} not in offered  # seat 1 would hold 4
    assert {"seat": 0, "to": 1, "give": None, "take": axe} not in offered  # seat 0 would hold 3
    assert {"seat": 0, "to": 1, "give": hammer, "take": axe} not in offered  # seat 1: 3 slots
    assert [a for a in offered] == []
    offered = [a for kind, a in t.choices(1) if kind == "propose"]
    assert offered == []  # 2 + 2 slots full on both sides: nothing fits
    t.send(0, "done", seat=0)
    assert t.state.decision is None or t.state.decision.kind != "trade"
    assert bow in t.state.chars[1].equipment


def test_no_trading_with_a_single_rester() -> None:
    t = _cleared()
    _equip(t, 0, "battle_axe")
    _choose(t, (0,))
    assert t.state.decision.kind == "explore"
