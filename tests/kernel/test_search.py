"""The strong bot (app/kernel/search.py, issue 27) on the test game Lanterns: it never
peeks, it is deterministic without a time cap, and it finds the better move the quick
heuristic (play the first card) misses."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import cast

import pytest

from app.kernel import conformance, playout
from app.kernel.game import Game, has_search
from app.kernel.search import Budget, next_move, search_choice
from app.kernel.types import Choice, Prompt, Viewer
from tests.support.lanterns import LANTERNS, LanternsState

EXACT = Budget(iterations=48, depth=12, seconds=None)


def table(seed: int = 1, seats: int = 2) -> LanternsState:
    played = playout.set_up(LANTERNS, {"target": 12}, [f"P{i}" for i in range(seats)], f"search-{seed}")
    return played.state


def test_lanterns_has_the_strong_bot() -> None:
    assert has_search(LANTERNS)


def test_a_redrawn_world_keeps_what_the_seat_sees_and_redraws_the_rest() -> None:
    state = table()
    world = LANTERNS.determinize(state, 0, random.Random(3))
    seat = Viewer("seat", frozenset({0}))
    assert LANTERNS.view(world, seat) == LANTERNS.view(state, seat)
    assert world.hands[0] == state.hands[0]
    assert sorted(world.hands[1] + world.deck) == sorted(state.hands[1] + state.deck)
    assert (world.hands[1], world.deck) != (state.hands[1], state.deck)


@pytest.mark.parametrize("seed", range(4))
def test_the_strong_bot_never_peeks(seed: int) -> None:
    conformance.check_no_peeking(LANTERNS, table(seed), 0, seed, EXACT)


def test_a_peeking_determinize_is_caught() -> None:
    class Peeking(type(LANTERNS)):  # type: ignore[misc]
        def determinize(self, state: LanternsState, seat: object, rng: random.Random) -> LanternsState:
            return state  # keeps the true deck and hands: the bot would read them

    with pytest.raises(conformance.ConformanceError, match="never redrew"):
        conformance.check_no_peeking(Peeking(), table(), 0, 0, EXACT)


def test_the_same_rng_gives_the_same_decision() -> None:
    state = table(2)
    prompt = next(p for p in LANTERNS.prompts(state) if p.seat == state.turn)
    picks = [search_choice(LANTERNS, state, prompt, random.Random(9), EXACT) for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]


def test_it_plays_the_winning_card_the_heuristic_would_not() -> None:
    """Ann has 6 of 12 points and Bo 10: Ann's 6 wins now, while her 1 (the heuristic's
    first card) leaves Bo to win with almost any card. Dice are off."""
    hands = (("lantern00-1", "lantern05-6"), ("lantern01-2",))
    state = replace(table(5), dice=False, scores=(6, 10), hands=hands)
    prompt = next(p for p in LANTERNS.prompts(state) if p.seat == 0)
    assert LANTERNS.bot_choice(state, prompt, random.Random(0)).args == {"card": "lantern00-1"}
    pick = search_choice(LANTERNS, state, prompt, random.Random(0), EXACT)
    assert pick.args == {"card": "lantern05-6"}


class _SeatZeroWaits:
    """A game's bot that waits on purpose in seat 0 (as a Dark Omen hero who joined another's
    attack waits for its launch) and acts in seat 1: only ``bot_choice`` is read."""

    def bot_choice(self, _state: object, prompt: Prompt, _rng: random.Random) -> Choice | None:
        return None if prompt.seat == 0 else prompt.choices[-1]


@pytest.mark.parametrize("seed", range(8))
def test_a_rollout_moves_the_seat_whose_bot_acts_not_a_random_answer(seed: int) -> None:
    answers = (Choice("wait", {}, "Wait"), Choice("go", {}, "Go"))
    asked = [Prompt(0, "Seat 0", answers), Prompt(1, "Seat 1", answers)]
    game = cast(Game, _SeatZeroWaits())
    assert next_move(game, None, asked, random.Random(seed)) == (asked[1], answers[1])
    # When every bot waits, a random legal answer moves the game on.
    prompt, choice = next_move(game, None, asked[:1], random.Random(seed))
    assert prompt is asked[0] and choice in answers


PAIRED = Budget(iterations=48, depth=12, seconds=None, paired=True)


def test_paired_rounds_find_the_winning_card_too() -> None:
    """The same position as above, judged in rounds of shared worlds (``Budget.paired``)."""
    hands = (("lantern00-1", "lantern05-6"), ("lantern01-2",))
    state = replace(table(5), dice=False, scores=(6, 10), hands=hands)
    prompt = next(p for p in LANTERNS.prompts(state) if p.seat == 0)
    pick = search_choice(LANTERNS, state, prompt, random.Random(0), PAIRED)
    assert pick.args == {"card": "lantern05-6"}


@pytest.mark.parametrize("seed", range(3))
def test_paired_rounds_never_peek_and_repeat(seed: int) -> None:
    conformance.check_no_peeking(LANTERNS, table(seed), 0, seed, PAIRED)
    state = table(seed)
    prompt = next(p for p in LANTERNS.prompts(state) if p.seat == state.turn)
    picks = [search_choice(LANTERNS, state, prompt, random.Random(seed), PAIRED) for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]


def test_paired_rounds_keep_the_heuristic_when_nothing_beats_it() -> None:
    """Equal answers (dice off, no score can be reached this turn): the margin keeps the
    heuristic's own pick rather than one that was luckier by nothing."""
    state = replace(table(6), dice=False, scores=(0, 0))
    prompt = next(p for p in LANTERNS.prompts(state) if p.seat == state.turn)
    heuristic = LANTERNS.bot_choice(state, prompt, random.Random(0))
    pick = search_choice(LANTERNS, state, prompt, random.Random(0), replace(PAIRED, depth=1))
    assert pick == heuristic
