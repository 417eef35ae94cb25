"""The strong bot (issue 27): determinized rollouts over the kernel's contract, one search
for every game and every seat a bot can hold.

For a question with several answers the search tries each answer many times and keeps the
one whose futures went best. One try:

1. **A world the seat cannot tell from the table** — ``game.determinize(state, seat, rng)``
   redraws every hidden thing (deck orders, other players' hands, face-down tokens) from what
   the seat cannot tell apart, so the search never reads what its seat may not see. The
   future's dice come from the search's own rng, never from the table's seed.
2. **One answer**, picked by UCB1 among the answers (each is tried once before any twice).
3. **A rollout**: every seat plays on with the game's heuristic bot (``bot_choice``; where
   several seats are asked at once, one whose bot acts goes first, ``next_move``; a random
   legal answer only when every bot waits) for at most ``Budget.depth`` commands.
4. **A value** in [0, 1] for the seat: ``game.value(state, seat)`` — 1 won, 0 lost, and
   between them the game's own reading of how the seat stands.

The answer kept is the one with the best mean value, unless it does not beat the
heuristic's own pick by ``Budget.margin``: a few noisy rollouts must not talk the bot out of
a sound move. A question with one answer is never searched.

Deterministic for a given rng when ``Budget.seconds`` is None (the tests' "no peeking"
check relies on it); live play caps each decision's time as well.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.kernel.game import Game
from app.kernel.rng import rng_for
from app.kernel.types import Budget, Choice, Command, Prompt, RuleError, Seat, Viewer


@dataclass
class Tally:
    """One answer's tries."""

    choice: Choice
    tries: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.tries if self.tries else 0.0


def rollout(game: Game, world: Any, seat: Seat, rng: random.Random, depth: int, seed: str) -> float:
    """Play ``world`` on with the heuristic bot in every seat for at most ``depth``
    commands; the seat's value where it stops."""
    for step in range(depth):
        if game.outcome(world) is not None:
            break
        required = [p for p in game.prompts(world) if p.required and p.choices]
        if not required:
            break
        prompt, choice = next_move(game, world, required, rng)
        viewer = Viewer("seat", frozenset({prompt.seat}))
        try:
            events = game.decide(
                world, Command(prompt.seat, choice.type, choice.args), viewer, rng_for(seed, step)
            )
        except RuleError:
            break  # a bot pick the rules refuse ends the look-ahead where it stands
        world = game.evolve_all(world, events)
    return game.value(world, seat)


def next_move(game: Game, world: Any, required: list[Prompt], rng: random.Random) -> tuple[Prompt, Choice]:
    """Who moves next in a rollout, and how: the heuristic's answer for one of the seats it
    is asked (in random order, as people who play at once would). A seat whose bot waits on
    purpose (a hero who joined another's attack waits for its launch) is passed over for one
    that acts; only when every bot waits does a random legal answer move the game on."""
    order = required if len(required) == 1 else rng.sample(required, len(required))
    for prompt in order:
        choice = game.bot_choice(world, prompt, rng)
        if choice is not None:
            return prompt, choice
    return order[0], rng.choice(order[0].choices)


def quick_choice(game: Game, state: Any, prompt: Prompt, rng: random.Random) -> Choice:
    """The heuristic bot's answer, on a world redrawn for the seat (so even the quick bot
    cannot read what its seat may not see)."""
    world = game.determinize(state, prompt.seat, rng)
    return game.bot_choice(world, prompt, rng) or prompt.choices[0]


def search_choice(
    game: Game,
    state: Any,
    prompt: Prompt,
    rng: random.Random,
    budget: Budget | None = None,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> Choice:
    """The search's answer to ``prompt`` (a question of a bot seat) on the table ``state``,
    within ``budget`` (default: the game's ``search_budget`` for this question; None there
    means the heuristic's answer is good enough)."""
    choices = prompt.choices
    if len(choices) == 1:
        return choices[0]
    seat = prompt.seat
    heuristic = quick_choice(game, state, prompt, rng)
    if budget is None:
        budget = game.search_budget(state, prompt)
        if budget is None:
            return heuristic
    candidates = game.search_candidates(state, prompt, rng)
    if heuristic not in candidates:
        candidates.append(heuristic)
    deadline = None if budget.seconds is None else clock() + budget.seconds
    if budget.paired:
        return _paired(game, state, seat, candidates, heuristic, rng, budget, deadline, clock)
    tallies = [Tally(c) for c in candidates]
    for i in range(budget.iterations):
        if deadline is not None and i >= len(tallies) and clock() > deadline:
            break
        tally = _pick(tallies, i, budget.exploration)
        world = game.determinize(state, seat, rng)
        seed = f"search:{rng.getrandbits(64)}"
        viewer = Viewer("seat", frozenset({seat}))
        command = Command(seat, tally.choice.type, tally.choice.args)
        try:
            events = game.decide(world, command, viewer, rng_for(seed, 0))
        except RuleError:
            tally.tries += 1  # not legal in this world: the seat cannot count on it
            continue
        world = game.evolve_all(world, events)
        tally.tries += 1
        tally.total += rollout(game, world, seat, rng, budget.depth, seed)
    return _keep(tallies, heuristic, budget.margin)


def _paired(
    game: Game,
    state: Any,
    seat: Seat,
    candidates: list[Choice],
    heuristic: Choice,
    rng: random.Random,
    budget: Budget,
    deadline: float | None,
    clock: Callable[[], float],
) -> Choice:
    """``Budget.paired``: rounds of one world each, every candidate played in it with the
    same future dice and the same rollout rng; the answer kept is the one that did best
    against the heuristic's pick, round by round, if by more than ``Budget.margin``."""
    rounds = max(2, budget.iterations // len(candidates))
    gains = [0.0] * len(candidates)
    own = candidates.index(heuristic)
    played = 0
    for _ in range(rounds):
        if deadline is not None and played and clock() > deadline:
            break
        world = game.determinize(state, seat, rng)
        seed = f"search:{rng.getrandbits(64)}"
        values = [_try(game, world, seat, c, budget.depth, seed) for c in candidates]
        for i, v in enumerate(values):
            gains[i] += v - values[own]
        played += 1
    best = max(range(len(candidates)), key=lambda i: gains[i])
    return candidates[best] if gains[best] > budget.margin * played else heuristic


def _try(game: Game, world: Any, seat: Seat, choice: Choice, depth: int, seed: str) -> float:
    """One answer played in ``world`` and rolled out; 0 when the world's rules refuse it
    (the seat cannot count on an answer it might not have)."""
    viewer = Viewer("seat", frozenset({seat}))
    try:
        events = game.decide(world, Command(seat, choice.type, choice.args), viewer, rng_for(seed, 0))
    except RuleError:
        return 0.0
    return rollout(game, game.evolve_all(world, events), seat, random.Random(seed), depth, seed)


def _pick(tallies: list[Tally], i: int, exploration: float) -> Tally:
    if i < len(tallies):
        return tallies[i]
    log_n = math.log(i)
    return max(tallies, key=lambda t: t.mean + exploration * math.sqrt(log_n / t.tries))


def _keep(tallies: list[Tally], heuristic: Choice, margin: float) -> Choice:
    tried = [t for t in tallies if t.tries]
    if not tried:
        return heuristic
    best = max(tried, key=lambda t: (t.mean, t.tries))
    own = next((t for t in tallies if t.choice == heuristic), None)
    if own is None or not own.tries or best.mean > own.mean + margin:
        return best.choice
    return heuristic


@dataclass(frozen=True)
class BotScenario:
    """A table ``umbra bench bots`` plays with bots in every seat (a game's ``bench``
    module lists them as ``BOT_SCENARIOS``)."""

    name: str
    options: dict[str, Any]
    seats: int
    max_commands: int = 20_000
    """A game longer than this counts as not won (a bot stuck in a loop)."""
