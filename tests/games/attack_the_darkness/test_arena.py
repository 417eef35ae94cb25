"""Arena mode (AtD L287-297): initiative by cutting, the Arena forms of stun and
immobilize, domination does nothing, opponents count as bosses, bans at deck building."""

from __future__ import annotations

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.rules.effects import is_boss
from app.games.attack_the_darkness.rules.payment import cost_parts
from app.games.attack_the_darkness.rules.query import is_enemy
from tests.games.attack_the_darkness.harness import Table, types

C = load()


def arena(seats: int = 2) -> Table:
    return Table(seats, classes=["champion", "samurai", "assassin", "psion"][:seats], mode="arena")


def test_initiative_by_cutting_lowest_cost_first() -> None:
    """Every player cuts at once; the lowest cost goes first; X counts 1 (AtD L177, L290)."""
    t = arena()
    assert t.state.decision.kind == "cut" and t.state.decision.asked == [0, 1]
    assert C.actions["siphoning"].cost.total == 1
    s = t.state
    # put known cards at depth 1: a 2-cost for seat 0, a 0-cost for seat 1
    two = next(c for c in s.chars[0].actions if C.actions[s.cards[c]].cost.total == 2)
    zero = next(c for c in s.chars[1].actions if C.actions[s.cards[c]].cost.total == 0)
    s.chars[0].actions.remove(two)
    s.chars[0].actions.insert(0, two)
    s.chars[1].actions.remove(zero)
    s.chars[1].actions.insert(0, zero)
    t.send(0, "cut", seat=0, depth=1)
    events = t.send(1, "cut", seat=1, depth=1)
    assert "InitiativeSet" in types(events) and t.state.order == [1, 0]
    # players place themselves in initiative order (AtD L290): corner 1 to the first team
    d = t.state.decision
    assert d.kind == "place_token" and d.seat == 1
    assert [a["to"] for _, a in t.choices(1)] == [[0, 0], [1, 0], [0, 1]]
    t.send(1, "token", to=[1, 0])
    assert t.state.chars[1].pos == (1, 0)
    assert [a["to"] for _, a in t.choices(0)] == [[11, 11], [10, 11], [11, 10]]  # corner 2
    t.send(0, "token", to=[11, 10])
    assert t.state.decision.kind == "act" and t.state.decision.seat == 1


def test_tied_cuts_are_cut_again() -> None:
    t = arena()
    s = t.state
    for seat in (0, 1):
        one = next(c for c in s.chars[seat].actions if C.actions[s.cards[c]].cost.total == 1)
        s.chars[seat].actions.remove(one)
        s.chars[seat].actions.insert(0, one)
    t.send(0, "cut", seat=0, depth=1)
    events = t.send(1, "cut", seat=1, depth=1)
    assert "InitiativeTied" in types(events) and t.state.decision.asked == [0, 1]


def settled(t: Table) -> None:
    while t.state.decision.kind == "cut":
        seat = t.state.decision.asked[0]
        t.send(seat, "cut", seat=seat, depth=1)
    while t.state.decision.kind == "place_token":
        seat = t.state.decision.seat
        t.send(seat, "token", **t.choices(seat)[0][1])


def test_stun_discards_and_immobilize_doubles_maneuvers() -> None:
    """Stunned: discard 1 AC and 1 RC at the end of the start step (AtD L292). Immobilized:
    no speed move; maneuver cards cost double, 0 stays 0 (AtD L293)."""
    t = arena()
    settled(t)
    first = t.state.order[0]
    s = t.state
    ch = s.chars[first]
    ch.statuses["immobilized"] = s.round + 2
    feint = t.card(first, "feint")
    footwork = t.card(first, "footwork")
    assert cost_parts(s, first, C.actions["feint"]) == [(2, "R")]
    assert cost_parts(s, first, C.actions["footwork"]) == []
    assert not [c for c in t.choices(first) if c[0] == "speed"]
    del feint, footwork
    other = t.state.order[1]
    t.state.chars[other].statuses["stunned"] = t.state.round + 1
    t.send(first, "end_turn", discard=False)
    discarded = [e for e in t.events if e.type == "CardsDiscarded" and e.data.get("why") == "stunned"]
    assert discarded and discarded[-1].data["seat"] == other


def test_opponents_are_bosses_and_cannot_be_dominated() -> None:
    """Opponents count as Boss for card effects (AtD L289); dominate has no effect on
    characters (AtD L294)."""
    t = arena()
    settled(t)
    assert is_boss(t.state, "c1", "c0") and is_boss(t.state, "c0", "c1")
    assert not is_enemy(t.state, "c0", "c0")
