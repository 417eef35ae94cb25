"""The kernel keeps the state a game reached while deciding, for the fold of those very
events that follows (``remember_fold``): the fold returns a state equal to a real fold,
leaves the caller's state as it was, and is taken once."""

from __future__ import annotations

import random

from app.games.darkest_night import DARKEST_NIGHT as GAME
from app.kernel import table as kernel
from app.kernel.game import validate_options
from app.kernel.rng import rng_for
from app.kernel.types import Command, SeatInfo, Viewer


def started() -> object:
    events = GAME.setup(validate_options(GAME, {}), [SeatInfo(0, "Ann")], rng_for("fold", 1))
    return kernel.replay(GAME, events)


def remembered() -> object:
    """The state the last ``decide`` left for its fold (the memo is otherwise invisible:
    a remembered state equals a real fold, so only identity tells them apart)."""
    memo = kernel._decided
    assert memo is not None
    return memo.after


def test_the_fold_after_decide_equals_a_real_fold_and_the_callers_state_stays() -> None:
    state = started()
    picker = random.Random(4)
    for step in range(40):
        prompt = next(p for p in GAME.prompts(state) if p.required)
        choice = picker.choice(prompt.choices)
        before = repr(state)
        command = Command(prompt.seat, choice.type, choice.args)
        seat = Viewer("seat", frozenset({0}))
        events = kernel.decide(GAME, state, command, seat, rng_for("fold", step + 2))
        kept = remembered()
        real = GAME.evolve_all(state, events)  # the game's own fold, past the kernel's memo
        folded = kernel.fold_all(GAME, state, events)
        assert folded is kept  # the state the game reached, not a second fold
        assert folded == real and repr(folded) == repr(real)
        assert folded is not state and repr(state) == before
        again = kernel.fold_all(GAME, state, events)  # taken once: a second fold is a real one
        assert again == folded and again is not folded
        state = folded


def test_other_events_or_another_state_fold_for_real() -> None:
    state = started()
    prompt = next(p for p in GAME.prompts(state) if p.required)
    choice = prompt.choices[0]
    command = Command(prompt.seat, choice.type, choice.args)
    events = kernel.decide(GAME, state, command, Viewer("seat", frozenset({0})), rng_for("fold", 2))
    kept = remembered()
    other = state.clone()
    from_other = kernel.fold_all(GAME, other, events)
    assert from_other is not kept and from_other == GAME.evolve_all(state, events)
    copies = [type(e)(e.type, dict(e.data), e.v) for e in events]
    from_copies = kernel.fold_all(GAME, state, copies)
    assert from_copies is not kept and from_copies == GAME.evolve_all(state, events)
    assert kernel.fold_all(GAME, state, events) is kept  # a miss leaves the memo for its own fold
