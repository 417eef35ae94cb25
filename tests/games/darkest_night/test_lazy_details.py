"""A prompt's choices about a published state explain themselves lazily (``LazyChoice``:
an attack's or a combat's odds and dice sources worked out when first read): what they
say is what the rules say when asked afresh, with nothing lazy, even when read only after
the game has moved on (the state they read never changes)."""

from __future__ import annotations

import random

import pytest

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.engine import RULES
from app.games.darkest_night.state import State
from app.kernel import table as kernel
from app.kernel.game import validate_options
from app.kernel.rng import rng_for
from app.kernel.types import GAME_MASTER, GM_SEAT, Choice, Command, LazyChoice, Prompt, SeatInfo, Viewer


def said(choices: tuple[Choice, ...] | list[Choice]) -> list[tuple[object, ...]]:
    return [(c.type, c.args, c.label, c.detail) for c in choices]


def eager_choices(state: State, prompt: Prompt) -> list[Choice]:
    """The choices of ``prompt``'s seat in ``state``'s decision, listed outside ``reading``
    (no published memo): every detail worked out at once."""
    d = state.decision
    assert d is not None
    choices = RULES.decisions[d.kind].choices(state, d)
    if d.seats and len(d.seats) > 1:
        choices = [
            c for c in choices if "hero" not in c.args or state.heroes[c.args["hero"]].seat == prompt.seat
        ]
    assert not any(isinstance(c, LazyChoice) for c in choices)
    return choices


@pytest.mark.parametrize("seed", [2, 7, 13])
def test_lazy_details_read_after_the_next_command_say_what_the_rules_say(seed: int) -> None:
    game = DARKEST_NIGHT
    picker = random.Random(seed)
    table = f"lazy-{seed}"
    opening = game.setup(
        validate_options(game, {}), [SeatInfo(0, "P1"), SeatInfo(1, "P2")], rng_for(table, 1)
    )
    state, count = kernel.replay(game, opening), len(opening)
    lazy = 0
    for _ in range(400):
        if game.outcome(state) is not None:
            break
        prompts = [p for p in game.prompts(state) if p.choices]
        required = [p for p in prompts if p.required]
        prompt = picker.choice(required)
        choice = picker.choice(prompt.choices)
        actor = GAME_MASTER if prompt.seat == GM_SEAT else Viewer("seat", frozenset({prompt.seat}))
        command = Command(prompt.seat, choice.type, choice.args)
        before = state
        events = kernel.decide(game, state, command, actor, rng_for(table, count + 1))
        state, count = kernel.fold_all(game, state, events), count + len(events)
        # Read only now, after the command (and with another state's prompts being listed).
        game.prompts(state)
        lazy += sum(1 for c in prompt.choices if isinstance(c, LazyChoice))
        assert said(prompt.choices) == said(eager_choices(before, prompt))
    assert lazy > 20  # attacks, prayers, searches and combats were offered lazily


def test_a_command_checks_against_lazy_choices_it_never_explains() -> None:
    """Deciding a command listed on a published state needs no detail: none is worked out."""
    game = DARKEST_NIGHT
    for seed in range(30):
        picker = random.Random(seed)
        table = f"unread-{seed}"
        opening = game.setup(validate_options(game, {}), [SeatInfo(0, "P1")], rng_for(table, 1))
        state, count = kernel.replay(game, opening), len(opening)
        for _ in range(300):
            if game.outcome(state) is not None:
                break
            prompt = next(p for p in game.prompts(state) if p.required)
            choice = picker.choice(prompt.choices)
            command = Command(prompt.seat, choice.type, choice.args)
            events = kernel.decide(
                game, state, command, Viewer("seat", frozenset({0})), rng_for(table, count)
            )
            unread = [c for c in prompt.choices if isinstance(c, LazyChoice)]
            if unread and all(not isinstance(LazyChoice.__mro__[1].detail.__get__(c), str) for c in unread):
                return  # decided, and every lazy detail still unworked
            state, count = kernel.fold_all(game, state, events), count + len(events)
    raise AssertionError("no command was decided with its lazy details unread")
