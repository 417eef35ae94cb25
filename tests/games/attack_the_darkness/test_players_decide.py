"""Choices the rulebook leaves to the players are theirs, asked through prompts: tokens on
the stairs (AtD L251), the tile a set of monsters takes when several are farthest
(AtD L255), the order of the cards A Lifetime of Preparation looks at (AtD L313)."""

from __future__ import annotations

import pytest

from app.games.attack_the_darkness import ATTACK_THE_DARKNESS as GAME
from app.games.attack_the_darkness.grid import tile_order
from app.kernel.types import RuleError, Viewer
from tests.games.attack_the_darkness.harness import C, Table, types


def test_each_player_places_their_token_on_the_stairs_in_marching_order() -> None:
    """AtD L251: the tokens go on any open squares of the stairs tile; facts file §10: one
    player at a time, in marching order; a taken square is not offered again."""
    t = Table(3, classes=["champion", "templar", "samurai"], dungeon="tavern_cellar")
    stairs = next(x for x in t.state.tiles if x.stairs)
    squares = tile_order(stairs.x, stairs.y, stairs.o)
    d = t.state.decision
    assert d.kind == "place_token" and d.seat == 0 and not t.state.monsters
    offered = [tuple(args["to"]) for kind, args in t.choices(0) if kind == "token"]
    assert offered == squares  # every stairs square, logo first (AtD L260)
    with pytest.raises(RuleError) as err:
        t.send(1, "token", to=list(squares[0]))  # not seat 1's turn to place
    assert err.value.code == "not_your_decision"
    outside = next(sq for sq in t.state.open_squares() if sq not in squares)
    before = t.state
    with pytest.raises(RuleError) as err:
        t.send(0, "token", to=list(outside))  # not a stairs square
    assert err.value.code == "not_offered" and t.state is before
    t.send(0, "token", to=list(squares[5]))
    assert t.state.chars[0].pos == squares[5]
    assert t.state.decision.seat == 1
    assert list(squares[5]) not in [args["to"] for _, args in t.choices(1)]
    t.send(1, "token", to=list(squares[0]))
    events = t.send(2, "token", to=list(squares[11]))
    # the last token placed, the danger level is set and the monsters come (AtD L253-257)
    assert "DangerSet" in types(events) and t.state.monsters
    assert [t.state.chars[i].pos for i in range(3)] == [squares[k] for k in (5, 0, 11)]


def _two_far_tiles() -> Table:
    """The stairs in the middle, one tile left and one right at the same walking distance."""
    t = Table(2, classes=["champion", "templar"], dungeon="random")
    t.craft([(3, 0, "v"), (0, 0, "v"), (6, 0, "v")], {})
    t.state.in_encounter, t.state.round = True, 0
    s = t.state
    top = next(i for i in s.dungeon_deck if s.cards[i] == "demon")
    s.dungeon_deck = [top] + [i for i in s.dungeon_deck if i != top]
    return t


def test_a_tie_for_the_farthest_tile_is_the_players_choice() -> None:
    """AtD L255: "If there is a tie when determining which is the farthest away, the players
    may choose which of the eligible tiles to use": the party's first seat in marching order
    is asked, and the set goes where it says, first token on the logo (AtD L260)."""
    t = _two_far_tiles()
    t.run({"op": "populate"})
    t.send(0, "token", to=[4, 1])  # tokens in the middle column: both tiles 2 steps away
    t.send(1, "token", to=[4, 2])
    d = t.state.decision
    assert d.kind == "choose_tile" and d.seat == t.state.order[0] and d.tiles == [1, 2]
    assert not t.state.monsters and C.monsters[d.card].id == "demon"
    with pytest.raises(RuleError):
        t.send(0, "tile", tile=0)  # never the stairs (AtD L258)
    t.send(0, "tile", tile=2)
    demon = next(m for m in t.state.monsters.values() if m.card == "demon")
    assert demon.pos == (6, 0)  # the chosen tile's logo square


def test_no_tie_no_question() -> None:
    """A single farthest tile takes the set without asking (AtD L255)."""
    t = _two_far_tiles()
    t.run({"op": "populate"})
    t.send(0, "token", to=[3, 1])
    t.send(1, "token", to=[3, 2])
    assert t.state.decision is None or t.state.decision.kind != "choose_tile"
    demon = next(m for m in t.state.monsters.values() if m.card == "demon")
    assert demon.pos == (6, 0)  # the right-hand tile is farther from column 3


def test_a_lifetime_of_preparation_lets_the_player_order_the_top_cards() -> None:
    """AtD L313: once per dungeon, arrange the top 5 cards of each deck in any order: the
    player picks the cards one at a time; only that player sees them (facts file §20)."""
    t = Table(2, classes=["samurai", "champion"], dungeon="random")
    t.craft([(0, 0, "v")], {0: (0, 0), 1: (1, 0)})
    t.monster("zombies", (2, 3))  # the encounter goes on
    ch = t.state.chars[0]
    below_a, below_r = ch.actions[5:], ch.resources[5:]
    top_a, top_r = ch.actions[:5], ch.resources[:5]
    assert ("ability", {}) in t.choices(0)
    events = t.send(0, "ability")
    d = t.state.decision
    assert d.kind == "arrange" and d.deck == "actions" and d.top == top_a
    # only the Samurai's player sees the cards looked at
    peek = next(e for e in events if e.type == "DeckShuffled")
    assert GAME.event_view(peek, Viewer("seat", frozenset({0}))).data["top"] == top_a
    assert "top" not in GAME.event_view(peek, Viewer("seat", frozenset({1}))).data
    assert [p.seat for p in GAME.prompts(t.state)] == [0]  # the question is the Samurai's only
    wanted = [top_a[4], top_a[2], top_a[0], top_a[3]]
    for k, card in enumerate(wanted):
        assert t.state.decision.kind == "arrange" and t.state.decision.placed == wanted[:k]
        t.send(0, "top", card=card)
    assert t.state.chars[0].actions == [*wanted, top_a[1], *below_a]
    # then the resource deck: two picks, then the rest kept as it lies
    assert t.state.decision.deck == "resources"
    t.send(0, "top", card=top_r[3])
    t.send(0, "top", card=top_r[1])
    t.send(0, "keep")
    assert t.state.chars[0].resources == [top_r[3], top_r[1], top_r[0], top_r[2], top_r[4], *below_r]
    assert t.state.decision.kind == "act"
    assert ("ability", {}) not in t.choices(0)  # once per dungeon
    view = GAME.view(t.state, Viewer("seat", frozenset({1})))
    assert not any(c in str(view) for c in wanted)


def test_arranging_refuses_a_card_not_looked_at() -> None:
    t = Table(1, classes=["samurai"], dungeon="random")
    t.craft([(0, 0, "v")], {0: (0, 0)})
    t.monster("zombies", (2, 3))
    t.send(0, "ability")
    sixth = t.state.chars[0].actions[5]
    before = t.state
    with pytest.raises(RuleError) as err:
        t.send(0, "top", card=sixth)
    assert err.value.code == "not_offered" and t.state is before


def test_a_lifetime_of_preparation_at_any_time() -> None:
    """AtD L313: "play at any time": while the table waits on another player's turn the
    Samurai's player is offered it (an optional prompt, facts file §20); it interrupts,
    the cards are arranged, and the interrupted question is asked again."""
    from app.games.attack_the_darkness.decisions import Act

    t = Table(2, classes=["samurai", "champion"], dungeon="random")
    t.craft([(0, 0, "v")], {0: (0, 0), 1: (1, 0)})
    t.monster("zombies", (2, 3))
    t.state.decision, t.state.turn = Act(seat=1), 1
    t.state.agenda = [{"op": "end_step", "seat": 1, "discard": False}]
    optional = [p for p in GAME.prompts(t.state) if not p.required]
    assert [(p.seat, [c.type for c in p.choices]) for p in optional] == [(0, ["prepare"])]
    with pytest.raises(RuleError) as err:
        t.send(1, "prepare")  # the Champion has no such ability
    assert err.value.code == "not_a_choice"
    top = t.state.chars[0].actions[:5]
    t.send(0, "prepare")
    assert t.state.decision.kind == "arrange" and t.state.decision.seat == 0
    t.send(0, "top", card=top[4])
    t.send(0, "keep")
    t.send(0, "keep")
    assert t.state.chars[0].actions[:5] == [top[4], *top[:4]]
    assert t.state.decision == Act(seat=1)  # back to the Champion's turn
    assert not [p for p in GAME.prompts(t.state) if not p.required]  # once per dungeon
    with pytest.raises(RuleError):
        t.send(0, "prepare")


def test_no_preparation_in_the_arena() -> None:
    """No class abilities in the Arena (AtD L289)."""
    t = Table(2, classes=["samurai", "champion"], mode="arena")
    assert not [p for p in GAME.prompts(t.state) if not p.required]


def test_the_dominating_player_decides_the_dominated_monsters_turn() -> None:
    """AtD L75: "the dominator moves it, attacks and uses abilities with it": its turn is a
    prompt to the player who dominated it, its foes the other monsters; an unconscious
    dominator leaves it to its behaviour."""
    t = Table(2, classes=["psion", "champion"])
    t.craft([(0, 0, "h"), (4, 0, "h"), (8, 0, "h")], {0: (0, 1), 1: (0, 2)})
    troll = t.monster("troll", (6, 1))
    ghoul = t.monster("ghoul", (7, 1))
    t.state.monsters[troll].dominated, t.state.monsters[troll].dominator = t.state.round + 1, 0
    t.run({"op": "monster_turn", "monster": troll})
    d = t.state.decision
    assert d.kind == "gm_monster" and d.seat == 0 and d.monster == troll
    assert ("attack", {"who": ghoul}) in t.choices(0)
    assert not [a for k, a in t.choices(0) if k == "attack" and a["who"].startswith("c")]
    with pytest.raises(RuleError):
        t.send(1, "attack", who=ghoul)  # the Champion did not dominate it
    events = t.send(0, "attack", who=ghoul)
    hit = next(e for e in events if e.type == "Damaged")
    assert hit.data["who"] == ghoul and hit.data["source"] == troll
    # its second attack is gone (1 per turn); the turn ends when the player says so
    assert t.state.decision.kind == "gm_monster" and t.state.decision.seat == 0
    t.send(0, "done")
    t.state.chars[0].hp = 0
    t.run({"op": "monster_turn", "monster": troll})
    assert t.state.decision is None or t.state.decision.kind != "gm_monster"
