"""``umbra bench engine darkest_night``: random legal playouts (commands per second,
complete games per second, median commands per game) and the heuristic bot's win rate at
default difficulty."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.bot import choose
from app.games.darkest_night.state import State
from app.kernel import table as kernel
from app.kernel.conformance import random_playout
from app.kernel.game import validate_options
from app.kernel.rng import rng_for
from app.kernel.types import Choice, Command, Prompt, SeatInfo, Viewer

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
        prompt = next(p for p in game.prompts(state) if p.required)
        choice = pick(state, prompt, count)
        new = kernel.decide(
            game,
            state,
            Command(prompt.seat, choice.type, choice.args),
            Viewer("seat", frozenset({prompt.seat})),
            rng_for(table_seed, count + 1),
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


def run(args: Any) -> int:
    quick = bool(getattr(args, "quick", False))
    playouts = 20 if quick else 200
    bots = 50 if quick else 1000
    started = time.perf_counter()
    commands = []
    for seed in range(playouts):
        commands.append(random_playout(DARKEST_NIGHT, seed, seats=1, check_every=0).commands)
    elapsed = time.perf_counter() - started
    print(f"darkest_night random playouts: {playouts} games, {sum(commands)} commands in {elapsed:.1f} s")
    print(f"  commands/s            {sum(commands) / elapsed:10.0f}")
    print(f"  games/s               {playouts / elapsed:10.2f}")
    print(f"  median commands/game  {statistics.median(commands):10.0f}")
    started = time.perf_counter()
    results: dict[str, int] = {}
    for seed in range(bots):
        result, _ = bot_game(seed)
        results[result] = results.get(result, 0) + 1
    elapsed = time.perf_counter() - started
    wins = results.get("win", 0)
    print(f"heuristic bot, default difficulty: {bots} games in {elapsed:.1f} s")
    print(f"  win rate              {wins / bots:10.1%}   ({results})")
    return 0
