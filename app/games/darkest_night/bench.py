"""``umbra bench engine darkest_night``: random legal playouts for 20 s (3 s with
``--quick``: commands per second, complete games per second, median commands per game, and
where a command's time goes) and the heuristic bot's win rate at default difficulty.

A command counts once its prompts were listed, the random player's choice decided by the
kernel (seat check, the game's rules, a fresh rng) and its events folded into a new state:
what the live table does per command, minus storage. The conformance checks (views, JSON,
replay) are the tests' job and are not timed here. Figures are given in wall time and in
this process's CPU time, which a busy shared machine disturbs less.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.bot import choose
from app.games.darkest_night.clicks import print_figures
from app.games.darkest_night.hero_rates import print_hero_rates
from app.games.darkest_night.state import State
from app.kernel import table as kernel
from app.kernel.game import validate_options
from app.kernel.rng import rng_for
from app.kernel.types import GAME_MASTER, GM_SEAT, Choice, Command, Prompt, SeatInfo, Viewer

Pick = Callable[[State, Prompt, int], Choice]
"""A bot: its choice for a required prompt, given the state and how many events came before."""


def play_with_bots(
    options: dict[str, Any], seats: int, table_seed: str, pick: Pick, max_commands: int
) -> tuple[State, int]:
    """Set a table up and answer every required prompt with ``pick`` until the game ends
    or ``max_commands`` were played: (the last state, commands played)."""
    game = DARKEST_NIGHT
    events = game.setup(
        validate_options(game, options),
        [SeatInfo(i, f"Bot {i}") for i in range(seats)],
        rng_for(table_seed, 1),
    )
    state = kernel.replay(game, events)
    count = len(events)
    for commands in range(max_commands):
        if game.outcome(state) is not None:
            return state, commands
        prompts = game.prompts(state)
        prompt = next(p for p in prompts if p.required)
        choice = pick(state, prompt, count)
        new = kernel.decide(
            game,
            state,
            Command(prompt.seat, choice.type, choice.args),
            Viewer("seat", frozenset({prompt.seat})),
            rng_for(table_seed, count + 1),
            prompts,
        )
        state = kernel.fold_all(game, state, new)
        count += len(new)
    return state, max_commands


def bot_game(seed: int, max_commands: int = 20_000) -> tuple[str, int]:
    """One game of four bot heroes at default difficulty: (result, commands)."""
    rng = random.Random(seed)
    state, commands = play_with_bots(
        {}, 1, f"bot-{seed}", lambda s, prompt, _count: choose(s, prompt, rng), max_commands
    )
    outcome = DARKEST_NIGHT.outcome(state)
    return (outcome.result if outcome else "unfinished"), commands


@dataclass
class Playout:
    commands: int
    result: str


PHASES = ("prompts", "pick", "rng", "decide", "fold")
"""Where a command's time goes (``random_game(..., phases=...)``): listing the prompts, the
random player's pick, the command's rng, deciding (the rules, on the state's fork) and
folding the events into the next state (the state ``decide`` reached)."""


def random_game(
    seed: int,
    *,
    seats: int = 1,
    max_commands: int = 10_000,
    optional_share: float = 0.1,
    phases: dict[str, float] | None = None,
) -> Playout:
    """One seeded game of random legal commands (as the conformance run picks them: a
    required prompt, sometimes an optional one), every command decided and folded.
    ``phases`` (if given) adds up the seconds spent in each of ``PHASES``."""
    if phases is not None:
        return _timed_game(seed, seats, max_commands, optional_share, phases)
    game = DARKEST_NIGHT
    picker = random.Random(seed)
    table_seed = f"bench-{seed}"
    state, count = _set_up(table_seed, seats)
    for commands in range(max_commands):
        outcome = game.outcome(state)
        if outcome is not None:
            return Playout(commands, outcome.result)
        prompts = [p for p in game.prompts(state) if p.choices]
        command, actor = _pick(prompts, picker, optional_share)
        new = kernel.decide(game, state, command, actor, rng_for(table_seed, count + 1), prompts)
        state = kernel.fold_all(game, state, new)
        count += len(new)
    raise RuntimeError(f"seed {seed}: no end after {max_commands} commands")


def _set_up(table_seed: str, seats: int) -> tuple[State, int]:
    """A new table with default options: its state and the number of events so far."""
    game = DARKEST_NIGHT
    events = game.setup(
        validate_options(game, {}),
        [SeatInfo(i, f"Player {i + 1}") for i in range(seats)],
        rng_for(table_seed, 1),
    )
    return kernel.replay(game, events), len(events)


def _pick(prompts: list[Prompt], picker: random.Random, optional_share: float) -> tuple[Command, Viewer]:
    """The random player's command (a required prompt, sometimes an optional one) and who sends it."""
    optional = [p for p in prompts if not p.required]
    pool = optional if optional and picker.random() < optional_share else [p for p in prompts if p.required]
    prompt = picker.choice(pool)
    choice = picker.choice(prompt.choices)
    actor = GAME_MASTER if prompt.seat == GM_SEAT else seat_viewer(prompt.seat)
    return Command(prompt.seat, choice.type, choice.args), actor


@cache
def seat_viewer(seat: int) -> Viewer:
    """The player of ``seat`` (a frozen value: one per seat serves every command)."""
    return Viewer("seat", frozenset({seat}))


def _timed_game(
    seed: int, seats: int, max_commands: int, optional_share: float, phases: dict[str, float]
) -> Playout:
    """``random_game`` with a clock around each phase (the same picks, the same game)."""
    game = DARKEST_NIGHT
    clock = time.perf_counter
    picker = random.Random(seed)
    table_seed = f"bench-{seed}"
    state, count = _set_up(table_seed, seats)
    for commands in range(max_commands):
        outcome = game.outcome(state)
        if outcome is not None:
            return Playout(commands, outcome.result)
        t0 = clock()
        prompts = [p for p in game.prompts(state) if p.choices]
        t1 = clock()
        command, actor = _pick(prompts, picker, optional_share)
        t2 = clock()
        rng = rng_for(table_seed, count + 1)
        t3 = clock()
        new = kernel.decide(game, state, command, actor, rng, prompts)
        t4 = clock()
        state = kernel.fold_all(game, state, new)
        t5 = clock()
        count += len(new)
        for name, seconds in zip(PHASES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True):
            phases[name] = phases.get(name, 0.0) + seconds
    raise RuntimeError(f"seed {seed}: no end after {max_commands} commands")


QUICK_SECONDS = 3.0
FULL_SECONDS = 20.0


def breakdown(games: int) -> str:
    """The share of each phase of a command over ``games`` games (timed apart: the clocks
    cost a little themselves)."""
    phases: dict[str, float] = {}
    for seed in range(games):
        random_game(seed, phases=phases)
    total = sum(phases.values()) or 1.0
    return ", ".join(f"{name} {phases.get(name, 0.0) / total:.0%}" for name in PHASES)


def run(args: Any) -> int:
    quick = bool(getattr(args, "quick", False))
    budget = QUICK_SECONDS if quick else FULL_SECONDS
    bots = 50 if quick else 1000
    random_game(0)  # content loaded, code warm
    gc.freeze()  # the content and the code: the collector need not walk them on every pass
    wall, cpu = time.perf_counter(), time.process_time()
    commands: list[int] = []
    while not commands or time.perf_counter() - wall < budget:  # whole games, seeds in turn
        commands.append(random_game(len(commands)).commands)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    playouts, total = len(commands), sum(commands)
    print(
        f"darkest_night random playouts: {playouts} games, {total} commands in {wall:.1f} s ({cpu:.1f} s CPU)"
    )
    print(f"  commands/s            {total / wall:10.0f}   ({total / cpu:.0f} per CPU second)")
    print(f"  games/s               {playouts / wall:10.2f}")
    print(f"  median commands/game  {statistics.median(commands):10.0f}")
    print(f"  µs per command        {1e6 * wall / total:10.0f}   ({breakdown(min(playouts, 5))})")
    wall, cpu = time.perf_counter(), time.process_time()
    results: dict[str, int] = {}
    for seed in range(bots):
        result, _ = bot_game(seed)
        results[result] = results.get(result, 0) + 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    wins = results.get("win", 0)
    print(f"heuristic bot, default difficulty: {bots} games in {wall:.1f} s ({cpu:.1f} s CPU)")
    print(f"  win rate              {wins / bots:10.1%}   ({results})")
    print_figures(10 if quick else 100)  # clicks per hero turn (issue 11)
    if getattr(args, "per_hero", False):
        print_hero_rates(games=5 if quick else 40, random_games=20 if quick else 300)
    return 0
