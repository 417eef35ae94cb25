"""The strong bot (issue 27) on Attack the Darkness: the worlds it imagines keep what its
seat sees and redraw the rest (facts file §20), it never peeks at seeded games' hidden
cards in any seat a bot can hold (a party player in Adventure and Tabletop, an Arena
player), its value reads the board, and it searches only the questions that shape a fight.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.games.attack_the_darkness import ATTACK_THE_DARKNESS as GAME
from app.games.attack_the_darkness.bench import BOT_SCENARIOS
from app.games.attack_the_darkness.bot import bot_pick
from app.games.attack_the_darkness.decisions import Act, PlaceToken
from app.games.attack_the_darkness.state import State
from app.kernel import conformance, playout
from app.kernel.game import has_search
from app.kernel.search import Budget
from app.kernel.types import GAME_MASTER, Prompt, Viewer
from tests.games.attack_the_darkness.harness import Table

SMALL = Budget(iterations=12, depth=8, seconds=None)
ROW = [(0, 0, "h"), (4, 0, "h"), (8, 0, "h")]


def played(options: dict[str, Any], seats: int, seed: int, commands: int, *, asking: bool = False) -> State:
    """A seeded table after ``commands`` commands, every seat (and a game master) played by
    the heuristic bot; with ``asking``, then on until a player is asked a question with two
    answers or more."""
    table = playout.set_up(GAME, options, [f"P{i}" for i in range(seats)], f"strong-{seed}")
    picker = random.Random(seed)

    def pick(state: State, prompts: list[Prompt]) -> tuple[Prompt, Any]:
        prompt = picker.choice([p for p in prompts if p.required])
        return prompt, bot_pick(state, prompt, picker)

    playout.play(table, pick, max_commands=commands)
    for _ in range(60 if asking else 0):
        if table.outcome is not None or player_questions(table.state):
            break
        playout.play(table, pick, max_commands=1)
    return table.state


def player_questions(state: State) -> list[Prompt]:
    return [p for p in GAME.prompts(state) if p.required and isinstance(p.seat, int) and len(p.choices) > 1]


def encoded(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def test_attack_the_darkness_has_the_strong_bot_and_its_scenarios() -> None:
    assert has_search(GAME)
    names = [s.name for s in BOT_SCENARIOS]
    for dungeon in ("tavern_cellar", "sewer", "prison", "tower", "cave"):
        assert {f"{dungeon}-1p", f"{dungeon}-2p", f"{dungeon}-4p"} <= set(names)
    arena = next(s for s in BOT_SCENARIOS if s.name == "arena")
    assert arena.options["mode"] == "arena" and arena.seats == 2


def test_a_redrawn_world_keeps_the_seat_view_and_redraws_the_rest() -> None:
    state = played({"dungeon": "sewer"}, 2, 3, 30)
    before = encoded(GAME.view(state, GAME_MASTER)), [list(ch.hand_a) for ch in state.chars]
    seat = Viewer("seat", frozenset({0}))
    worlds = [GAME.determinize(state, 0, random.Random(k)) for k in range(6)]
    for world in worlds:
        assert GAME.view(world, seat) == GAME.view(state, seat)
        assert world.chars[0].hand_a == state.chars[0].hand_a
        assert world.chars[0].hand_r == state.chars[0].hand_r
        other, mine = world.chars[1], state.chars[1]
        assert sorted(other.hand_a + other.actions) == sorted(mine.hand_a + mine.actions)
        assert len(other.hand_a) == len(mine.hand_a)
        assert sorted(unseen_dungeon(world)) == sorted(unseen_dungeon(state))
    assert any(w.chars[1].hand_a != state.chars[1].hand_a for w in worlds)
    assert any(w.chars[0].actions != state.chars[0].actions for w in worlds)
    assert any(w.dungeon_deck != state.dungeon_deck for w in worlds)
    # the table itself is untouched
    assert (encoded(GAME.view(state, GAME_MASTER)), [list(ch.hand_a) for ch in state.chars]) == before


def unseen_dungeon(s: State) -> list[str]:
    """The face-down tiles and the dungeon deck (AtD L245)."""
    return [t.card for t in s.tiles if t.card and not t.flipped] + s.dungeon_deck


def test_the_same_rng_redraws_the_same_world_from_any_twin() -> None:
    state = played({"dungeon": "prison"}, 2, 5, 40)
    twin = GAME.determinize(state, 1, random.Random("twin"))
    a = GAME.determinize(state, 1, random.Random(7))
    b = GAME.determinize(twin, 1, random.Random(7))
    assert conformance.hidden_from(GAME, a, 1) == conformance.hidden_from(GAME, b, 1)


def test_cards_a_samurai_arranged_stay_where_that_player_put_them() -> None:
    """A Lifetime of Preparation (AtD L313): the arranged cards are known to their player
    only; the others' worlds deal them anew."""
    state = played({"dungeon": "sewer", "class": ["samurai", "templar"]}, 2, 1, 20)
    ch = state.chars[0]
    top = list(ch.actions[:3])
    state.peeked["0:actions"] = top
    for k in range(4):
        assert GAME.determinize(state, 0, random.Random(k)).chars[0].actions[:3] == top
    redrawn = [GAME.determinize(state, 1, random.Random(k)) for k in range(6)]
    assert any(w.chars[0].actions[:3] != top for w in redrawn)
    assert all(w.peeked["0:actions"] == w.chars[0].actions[:3] for w in redrawn)


SEATS = [
    # (what the bot plays, options, seats, commands to each sampled point)
    ("adventure", {"dungeon": "sewer"}, 2, (15, 60, 140)),
    ("tabletop", {"mode": "tabletop", "dungeon": "random", "encounters": 1}, 2, (50, 30, 55)),
    ("arena", {"mode": "arena", "teams": 2}, 2, (10, 20, 30)),
]


@pytest.mark.parametrize(("kind", "options", "seats", "points"), SEATS, ids=[s[0] for s in SEATS])
def test_the_strong_bot_never_peeks(
    kind: str, options: dict[str, Any], seats: int, points: tuple[int, ...]
) -> None:
    """At sampled points of seeded games, for a player seat asked a question: twins it
    cannot tell apart give the same redrawn world and the same decision (same seed)."""
    for seed, commands in enumerate(points):
        state = played(options, seats, seed, commands, asking=True)
        asked = player_questions(state)
        assert asked, f"seed {seed}: no player is asked anything after {commands} commands"
        conformance.check_no_peeking(GAME, state, asked[0].seat, seed, SMALL)


def test_the_value_reads_the_board() -> None:
    t = Table(2, classes=["champion", "templar"])
    t.craft(ROW, {0: (0, 1), 1: (0, 2)})
    troll = t.monster("troll", (9, 1))
    s = t.state
    base = GAME.value(s, 0)
    assert 0 < base < 1
    assert GAME.value(s, 0) == GAME.value(s, 1)  # one party, one side
    s.chars[1].hp -= 6
    hurt = GAME.value(s, 0)
    assert hurt < base
    s.monsters[troll].hp = 2
    assert GAME.value(s, 0) > hurt
    s.chars[0].hp = s.chars[1].hp = 0
    assert GAME.value(s, 0) == 0.0
    s.result = {"result": "win", "reason": "cleared", "winners": [0, 1]}
    assert GAME.value(s, 0) == 1.0


def test_a_monster_within_reach_of_a_character_whose_turn_is_over_costs_value() -> None:
    t = Table(2, classes=["champion", "templar"])
    t.craft(ROW, {0: (0, 1), 1: (0, 2)})
    t.monster("troll", (9, 1))
    s = t.state
    far = GAME.value(s, 0)
    s.monsters[next(iter(s.monsters))].pos = (2, 1)  # a troll's blow away from both
    assert GAME.value(s, 0) < far


def test_the_arena_value_is_each_team_s_own() -> None:
    state = played({"mode": "arena", "teams": 2}, 2, 3, 25)
    assert GAME.value(state, 0) + GAME.value(state, 1) == pytest.approx(1.0)
    before = GAME.value(state, 0)
    state.chars[1].hp = max(1, state.chars[1].hp - 4)
    assert GAME.value(state, 0) > before


def test_the_search_spends_itself_on_the_fight_only() -> None:
    t = Table(2, classes=["champion", "templar"])
    t.craft(ROW, {0: (0, 1), 1: (0, 2)})
    t.monster("troll", (2, 1))
    t.hand(0, "crush", "hearty", "hearty")
    t.state.decision = Act(seat=0)
    act = next(p for p in GAME.prompts(t.state) if p.seat == 0)
    assert len(act.choices) > 10 and GAME.search_budget(t.state, act) is None  # every square
    t.state.chars[0].speed_used = True  # the speed move made: the cards and the end
    act = next(p for p in GAME.prompts(t.state) if p.seat == 0)
    budget = GAME.search_budget(t.state, act)
    assert budget is not None and budget.seconds is not None and budget.seconds <= 0.8
    t.state.decision = PlaceToken(seat=0)
    place = next(p for p in GAME.prompts(t.state) if p.seat == 0)
    assert GAME.search_budget(t.state, place) is None
