"""What on the map each Dark Omen choice acts on (``targets.py``: the clickable board) and
a move's price written before the click (DO L240: 1 AP a step, 4 MP more across a black
line)."""

from __future__ import annotations

import re

from app.games.dark_omen import DARK_OMEN, targets
from app.kernel.types import SPECTATOR, Choice
from tests.games.dark_omen.harness import arranged, choices, enemy, table


def mark(kind: str, **args: object) -> str | None:
    return targets.choice_target(arranged(table()), Choice(kind, dict(args), ""))


def test_each_choice_names_the_mark_it_stands_for() -> None:
    assert mark("move", to=48) == "space:48"
    assert mark("move", to="Hoglichten:market") == "space:Hoglichten:market"  # a town's place
    assert mark("attack", creature="c3") == mark("propose_team", creature="c3") == "creature:c3"
    assert mark("loot") == "loot:here"  # the face-down token under the viewer's own hero
    assert mark("take", token="l05.17") == "token:l05.17"
    assert mark("unlock") == mark("make_camp") == "location:here"  # DO L301-320
    assert mark("take_belongings") == "grave:here"  # DO L201-202
    assert mark("tend", prop="p1") == "prop:p1"  # DO L141-143
    assert mark("boost", index=1) == "mydie:1"  # DO L404-406
    assert mark("join_team", leader=2) == mark("decline_team", leader=2) == "team:2"
    assert mark("end_round") is None and mark("meditate") is None


def test_the_offered_attack_and_moves_name_their_creature_and_spaces() -> None:
    s = arranged(table(seats=2), at=10)
    foe = enemy(s, space=10)
    offered = [Choice(t, a, "") for t, a in choices(s, 0)]
    assert f"creature:{foe.id}" in {targets.choice_target(s, c) for c in offered}
    moves = [c for c in offered if c.type == "move"]
    assert moves and all(targets.choice_target(s, c) == f"space:{c.args['to']}" for c in moves)


def test_a_move_says_its_price_before_the_click() -> None:
    """DO L240: a step is 1 AP; across a black line 4 MP more (none with Levity). A free
    step (Speed, Adrenaline) costs 0 AP."""
    s = arranged(table(), at=10)
    prompt = next(p for p in DARK_OMEN.prompts(s) if p.seat == 0)
    details = {c.args["to"]: c.detail for c in prompt.choices if c.type == "move"}
    assert details and all(re.fullmatch(r"[12] AP( · \d+ MP)?", d) for d in details.values()), details
    s.heroes[0].effects["free_steps"] = 1
    prompt = next(p for p in DARK_OMEN.prompts(s) if p.seat == 0)
    assert all(c.detail.startswith("0 AP") for c in prompt.choices if c.type == "move")


def test_only_a_move_is_priced() -> None:
    s = arranged(table(), at=10)
    plain = Choice("meditate", {}, "Meditate")
    assert targets.priced(s, 0, plain) is plain
    already = Choice("move", {"to": 11}, "Move", "set by the rules")
    assert targets.priced(s, 0, already) is already


def test_a_buy_names_its_card_in_the_market_list_while_the_board_shows_it() -> None:
    """DO L332-333: while someone stands in a town's market every page lists its stock, and
    a buy stands for its card's price there (the same stock at a Trading Post or a Village,
    DO L305-306); with no market listed it stands for nothing on the board."""
    s = arranged(table(seats=2), at=10, gold=9)
    buy = Choice("buy", {"gear": "g1_w5"}, "Buy Worn Bow for 5 gold")
    assert targets.choice_target(s, buy) is None
    s.heroes[1].at = "Hoglichten:market"
    assert targets.choice_target(s, buy) == "gear:g1_w5"
    offered = [Choice(t, a, "") for t, a in choices(s, 1) if t == "buy"]
    assert offered
    assert [targets.choice_target(s, c) for c in offered] == [f"gear:{c.args['gear']}" for c in offered]
    stock = {g["id"] for g in DARK_OMEN.view(s, SPECTATOR)["market"]["stock"]}
    assert {c.args["gear"] for c in offered} <= stock
