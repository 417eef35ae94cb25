"""The strong bot's parts for Dark Omen (issue 27, ``bot/strong.py``): the world a seat
imagines keeps all it sees and redraws the face-down loot and creature tokens (DO L82,
L476) from what it cannot tell apart; the search never peeks; the party's value reads the
board; the search thinks only where the outcome shows soon; the bench's scenarios."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.bench import BOT_SCENARIOS, bot_player
from app.games.dark_omen.bot import strong, tactics
from app.games.dark_omen.content import base_token, load
from app.games.dark_omen.decisions import NextChapter
from app.games.dark_omen.state import Battle, Result, State
from app.kernel import conformance, playout
from app.kernel.game import has_search
from app.kernel.types import GAME_MASTER, Budget, Viewer
from tests.games.dark_omen.harness import arranged, enemy, table

SMALL = Budget(iterations=12, depth=8, seconds=None)


def boss_battle(s: State) -> bool:
    return any(
        isinstance(h.pending, Battle) and getattr(s.creature(h.pending.creature), "kind", "") == "boss"
        for h in s.heroes
    )


def face_down_creatures(s: State) -> bool:
    return any(x.token and not x.flipped for x in s.creatures)


def sampled(options: dict[str, object], seed: str, wanted: list[tuple[str, int]]) -> list[State]:
    """States of a bot game (two seats) at the first command past each mark where the
    condition holds: ("tokens", n) face-down creature tokens, ("boss", n) a boss battle's
    boost window, ("between", n) between chapters, ("any", n) anything."""
    picker = random.Random(seed)
    played = playout.set_up(DARK_OMEN, options, ["A", "B"], seed)
    tests = {
        "tokens": face_down_creatures,
        "boss": boss_battle,
        "between": lambda s: isinstance(s.decision, NextChapter),
        "any": lambda s: True,
    }
    todo = sorted(wanted, key=lambda w: w[1])
    out: list[State] = []

    def after(t: playout.Played, *_: object) -> None:
        while todo and t.commands >= todo[0][1] and tests[todo[0][0]](t.state):
            out.append(t.state)
            todo.pop(0)

    playout.play(played, bot_player(picker), max_commands=3_000, on_command=after)
    assert not todo, f"no state for {todo}"
    return out


@pytest.fixture(scope="module")
def chapter_three() -> list[State]:
    """A Quick Start of chapter 3: its first omen deals face-down creature tokens, some
    flipped later; its boss day opens boost windows (the searched questions)."""
    return sampled(
        {"mode": "quick_chapter", "chapter": 3},
        "np-1",
        [("tokens", 3), ("tokens", 40), ("any", 150), ("boss", 260)],
    )


def test_between_chapters_the_strong_bot_never_peeks() -> None:
    """A campaign's first chapter ends: each seat says it is ready and picks its guild."""
    (state,) = sampled({"mode": "campaign"}, "np-c", [("between", 1)])
    for seat in (0, 1):
        conformance.check_no_peeking(DARK_OMEN, state, seat, 100 + seat, SMALL)


def test_dark_omen_has_the_strong_bot() -> None:
    assert has_search(DARK_OMEN)


def test_the_strong_bot_never_peeks_for_either_seat(chapter_three: list[State]) -> None:
    """Both seats (every seat a bot holds is a hero's), at points with face-down loot and
    face-down creature tokens and at a boss's boost window."""
    for i, state in enumerate(chapter_three):
        for seat in (0, 1):
            conformance.check_no_peeking(DARK_OMEN, state, seat, 10 * i + seat, SMALL)


def test_a_peeking_world_is_caught(chapter_three: list[State]) -> None:
    class Peeking(type(DARK_OMEN)):  # type: ignore[misc]
        def determinize(self, state: State, seat: object, rng: random.Random) -> State:
            return state.clone()  # keeps the true tokens: the bot would read them

    with pytest.raises(conformance.ConformanceError, match="never redrew"):
        conformance.check_no_peeking(Peeking(), chapter_three[0], 0, 0, SMALL)


def test_a_redrawn_world_keeps_the_view_and_redraws_the_tokens(chapter_three: list[State]) -> None:
    state = chapter_three[0]
    before = DARK_OMEN.view(state, GAME_MASTER)
    seat = Viewer("seat", frozenset({0}))
    worlds = [strong.determinize(state, 0, random.Random(i)) for i in range(6)]
    assert DARK_OMEN.view(state, GAME_MASTER) == before, "the table itself is never changed"
    pool = Counter(state.pile + [base_token(t) for t in state.loot.values()])
    hidden = [x for x in state.creatures if x.token and not x.flipped]
    assert hidden and state.loot
    for world in worlds:
        assert DARK_OMEN.view(world, seat) == DARK_OMEN.view(state, seat)
        assert Counter(world.pile + [base_token(t) for t in world.loot.values()]) == pool
        assert sorted(world.loot) == sorted(state.loot)
        assert all(t.split(".")[1] == state.loot[sp].split(".")[1] for sp, t in world.loot.items())
        for x in (y for y in world.creatures if y.token and not y.flipped):
            assert x.level == x.dice == load().creature_tokens[base_token(x.token)]
            assert x.level in tactics.token_levels(state, load())
    assert len({tuple(sorted(w.loot.items())) for w in worlds}) > 1
    assert len({tuple(x.token for x in w.creatures if x.token) for w in worlds}) > 1


def test_the_same_rng_redraws_the_same_world(chapter_three: list[State]) -> None:
    state = chapter_three[1]
    a = strong.determinize(state, 1, random.Random(5))
    b = strong.determinize(state, 1, random.Random(5))
    assert DARK_OMEN.view(a, GAME_MASTER) == DARK_OMEN.view(b, GAME_MASTER)


def boss_table() -> State:
    """Chapter 3, two heroes with a bow and a sling beside the boss, in the last round of
    its day, with half their AP spent: the battle is in the balance."""
    s = arranged(table(seats=2, chapter=3), hp=20, mp=16)
    s.day, s.round = 6, 4
    for h in s.heroes:
        h.gear, h.equipped, h.ap = ["g3_w5"], {"primary": "g3_w5"}, 3
    h0, h1 = s.heroes
    h1.gear, h1.equipped = ["g3_w6"], {"primary": "g3_w6"}
    boss = enemy(s, space=11, level=3, hp=20, armor=1, dr="d6+1", cid="b1", name="Solveig the witch")
    boss.kind, boss.card, boss.dice = "boss", "solveig", 3
    return s


def test_the_value_is_won_lost_and_monotone_in_between() -> None:
    s = boss_table()
    base = strong.value(s, 0)
    assert 0 < base < 1
    won, lost = s.clone(), s.clone()
    won.result, lost.result = Result("win", "beaten"), Result("loss", "lost")
    assert strong.value(won, 0) == 1.0 and strong.value(lost, 1) == 0.0
    hurt = s.clone()
    hurt.creatures[0].hp = 8
    assert strong.value(hurt, 0) > base, "a boss nearer its end"
    late = s.clone()
    late.heroes[0].ap = 5
    assert strong.value(late, 0) < base, "fewer action points left to beat it"
    weak = s.clone()
    weak.heroes[0].hp, weak.heroes[0].mp = 4, 0
    assert strong.value(weak, 0) < base, "a hero low on health and morale"
    fallen = weak.clone()
    fallen.heroes[0].alive, fallen.heroes[0].hp = False, 0
    assert strong.value(fallen, 0) < strong.value(weak, 0), "and fallen, worse still"
    assert strong.value(s, 0) == strong.value(s, 1), "one party, one value"


def test_a_boost_window_is_valued_by_how_its_dice_would_fall() -> None:
    """A look-ahead stopping in a boost window reads the dice as they lie: a roll that beats
    the boss's dice is worth more than none, and one that loses to them in melee (its blows
    land; from range none would, DO L363) is worth less."""
    s = boss_table()
    winning, losing = s.clone(), s.clone()
    winning.heroes[0].pending = Battle(0, "b1", [3, 2, 2], {"0": [6, 6]}, [0], [0], [])
    losing.heroes[0].pending = Battle(0, "b1", [6, 5, 5], {"0": [1, 1]}, [0], [], [])
    assert strong.value(winning, 0) > strong.value(s, 0) > strong.value(losing, 0)


def test_the_campaign_value_weighs_the_darkness_meter() -> None:
    s = arranged(table(seats=2, mode="campaign"))
    s.chapter, s.day = 2, 3
    bright, dark = s.clone(), s.clone()
    bright.meter, dark.meter = 7, 1
    assert strong.value(bright, 0) > strong.value(dark, 0)
    later = s.clone()
    later.chapter = 3
    assert strong.value(later, 0) > strong.value(s, 0), "a chapter further"


def test_only_battles_are_searched() -> None:
    s = boss_table()
    act = next(p for p in DARK_OMEN.prompts(s) if p.seat == 0)
    assert strong.search_budget(s, act) is None, "moves and shopping: the heuristic answers"
    s.heroes[0].pending = Battle(0, "b1", [5, 4, 2], {"0": [4, 3]}, [0], [0], [])
    window = next(p for p in DARK_OMEN.prompts(s) if p.seat == 0)
    assert {c.type for c in window.choices} >= {"boost", "finalize"}
    assert strong.search_budget(s, window) == strong.BATTLE


def test_the_bench_plays_each_quick_start_chapter_and_the_campaign() -> None:
    names = {s.name: s for s in BOT_SCENARIOS}
    assert list(names) == ["quick-1", "quick-2", "quick-3", "quick-4", "campaign"]
    assert all(s.seats == 2 for s in BOT_SCENARIOS)
    assert names["quick-3"].options == {"mode": "quick_chapter", "chapter": 3}
    assert names["campaign"].options == {"mode": "campaign"}
    assert names["campaign"].max_commands > names["quick-1"].max_commands
