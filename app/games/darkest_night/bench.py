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
from typing import Any

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.bot import choose
from app.games.darkest_night.clicks import print_figures
from app.games.darkest_night.hero_rates import print_hero_rates
from app.games.darkest_night.state import State
from app.kernel import playout
from app.kernel.search import BotScenario
from app.kernel.types import Choice, Prompt

BOT_SCENARIOS = [
    BotScenario("default", {}, 1),
    BotScenario("necromancer", {"necromancer_player": True}, 2),
]
"""What ``umbra bench bots darkest_night`` plays: four heroes at default difficulty in one
bot seat (as ``bot_game``), and the same with the Necromancer player's seat (DN 20.3), a
bot too, against the heroes' seat."""

Pick = Callable[[State, Prompt, int], Choice]
"""A bot: its choice for a required prompt, given the state and how many events came before."""


def play_with_bots(
    options: dict[str, Any], seats: int, table_seed: str, pick: Pick, max_commands: int
) -> tuple[State, int]:
    """Set a table up and answer every required prompt with ``pick`` until the game ends
    or ``max_commands`` were played: (the last state, commands played)."""
    table = playout.set_up(DARKEST_NIGHT, options, [f"Bot {i}" for i in range(seats)], table_seed)

    def player(state: State, prompts: list[Prompt]) -> tuple[Prompt, Choice]:
        prompt = next(p for p in prompts if p.required)
        return prompt, pick(state, prompt, table.events)

    playout.play(table, player, max_commands=max_commands)
    return table.state, table.commands


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


PHASES = playout.PHASES


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
    table = playout.set_up(DARKEST_NIGHT, {}, [f"Player {i + 1}" for i in range(seats)], f"bench-{seed}")
    player = playout.random_player(random.Random(seed), optional_share)
    playout.play(table, player, max_commands=max_commands, phases=phases)
    outcome = table.outcome
    if outcome is None:
        raise RuntimeError(f"seed {seed}: no end after {max_commands} commands")
    return Playout(table.commands, outcome.result)


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
