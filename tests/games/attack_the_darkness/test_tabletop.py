"""Tabletop: the game master lays out the map, picks monster cards within the danger
budget and puts every monster on its square (AtD L272-275; facts file §9)."""

from __future__ import annotations

import pytest

from app.games.attack_the_darkness.grid import tile_squares
from app.kernel.types import RuleError
from tests.games.attack_the_darkness.harness import C, Table


def _to_the_picks() -> Table:
    """A Tabletop table whose game master placed the tiles and whose players placed their
    tokens: the game master now picks monsters."""
    t = Table(2, classes=["champion", "templar"], mode="tabletop", dungeon="random", encounters=1)
    while t.state.decision.kind == "place_tile":
        t.send("gm", "place_tile", **t.choices("gm")[0][1])
    while t.state.decision.kind == "place_token":
        seat = t.state.decision.seat
        t.send(seat, "token", **t.choices(seat)[0][1])
    assert t.state.decision.kind == "gm_pick"
    return t


def test_the_game_master_places_each_monster_on_a_square() -> None:
    """AtD L274: the game master places the monsters; never on the stairs (AtD L258), on
    open unoccupied squares; a set stays on one tile while it has room."""
    t = _to_the_picks()
    s = t.state
    zombies = next(i for i in s.dungeon_deck if s.cards[i] == "zombies")
    t.send("gm", "pick", card=zombies)
    d = t.state.decision
    assert d.kind == "gm_place" and d.left == C.monsters["zombies"].number == 6
    assert t.state.line == [d.entry] and not t.state.monsters
    stairs = set(t.state.stairs_squares())
    offered = {tuple(args["to"]) for _, args in t.choices("gm")}
    open_squares = t.state.open_squares()
    assert offered == open_squares - stairs - {ch.pos for ch in t.state.chars}
    before = t.state
    with pytest.raises(RuleError) as err:
        t.send("gm", "place", to=list(next(iter(stairs))))  # never the stairs (AtD L258)
    assert err.value.code == "not_offered" and t.state is before
    with pytest.raises(RuleError) as err:
        t.send(0, "place", to=list(next(iter(offered))))  # the game master's decision
    assert err.value.code == "not_your_decision"
    first = sorted(offered)[0]
    t.send("gm", "place", to=list(first))
    home = next(
        set(tile_squares(x.x, x.y, x.o)) for x in t.state.tiles if first in tile_squares(x.x, x.y, x.o)
    )
    offered = {tuple(args["to"]) for _, args in t.choices("gm")}
    assert offered == home - {first}  # the rest of the set on the same tile
    outside = next(sq for sq in open_squares - stairs - home)
    with pytest.raises(RuleError):
        t.send("gm", "place", to=list(outside))
    for _ in range(5):
        t.send("gm", "place", **t.choices("gm")[0][1])
    placed = [m.pos for m in t.state.monsters.values()]
    assert len(placed) == 6 and set(placed) <= home and len(set(placed)) == 6
    assert t.state.decision.kind == "gm_pick" and t.state.decision.total == C.monsters["zombies"].danger


def test_the_danger_budget_is_checked() -> None:
    """AtD L274: monsters totalling at least the danger level and at most danger + 5: a card
    over the budget is not offered, the encounter begins only once the level is met."""
    t = _to_the_picks()
    level = t.state.danger
    while True:
        choices = t.choices("gm")
        total = t.state.decision.total
        for kind, args in choices:
            if kind == "pick":
                danger = C.monsters[t.state.cards[args["card"]]].danger
                assert total + danger <= level + 5
        picks = [args for kind, args in choices if kind == "pick"]
        if ("done", {}) in choices:
            assert total >= level or not picks
            break
        with pytest.raises(RuleError):
            t.send("gm", "done")  # the level is not met yet
        t.send("gm", "pick", **picks[0])
        while t.state.decision.kind == "gm_place":
            t.send("gm", "place", **t.choices("gm")[0][1])
    t.send("gm", "done")
    assert t.state.round == 1 and t.state.monsters
