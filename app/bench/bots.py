"""``umbra bench bots <game>``: whole games with bots in every seat (issue 27).

Each scenario of the game (its ``bench`` module's ``BOT_SCENARIOS``: options and seats) is
played ``--games`` times from seeded tables, every required question answered by the bot of
the chosen ``--strength``: ``strong`` (``app.kernel.search``, the game's search budget per
question, each decision capped in time as in live play) or ``quick`` (the heuristic, on a
world redrawn for its seat as the live quick bot plays). Games run in ``--jobs`` processes
(default: one per core). Per scenario it prints the games, the wins, the win rate with its
95 % (Wilson) interval, and the time each decision took (p50/p95, only questions with two or
more answers); ``--json`` prints ``{"scenarios": [{"name", "games", "wins",
"decision_ms_p50", "decision_ms_p95", ...}]}`` instead.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from app.bench.bots_live import report, run_live
from app.bench.server import import_extra_games
from app.bench.stats import percentile, table
from app.kernel import playout
from app.kernel.game import Game, has_search
from app.kernel.registry import get_game
from app.kernel.search import BotScenario, quick_choice, search_choice
from app.kernel.types import Choice, Prompt

STRENGTHS = ("strong", "quick")


@dataclass
class Finished:
    won: bool
    result: str
    commands: int
    decisions_ms: list[float] = field(default_factory=list)


@dataclass
class ScenarioFigures:
    name: str
    games: int = 0
    wins: int = 0
    unfinished: int = 0
    commands: int = 0
    decisions_ms: list[float] = field(default_factory=list)

    def add(self, ended: Finished) -> None:
        self.games += 1
        self.wins += ended.won
        self.unfinished += ended.result == "unfinished"
        self.commands += ended.commands
        self.decisions_ms.extend(ended.decisions_ms)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson score interval of the win rate."""
        n, z = self.games, 1.96
        if not n:
            return 0.0, 1.0
        p = self.rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval()
        ms = self.decisions_ms
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.rate, 4),
            "win_rate_95": [round(low, 4), round(high, 4)],
            "unfinished": self.unfinished,
            "decisions": len(ms),
            "decision_ms_p50": round(percentile(ms, 50), 1) if ms else 0.0,
            "decision_ms_p95": round(percentile(ms, 95), 1) if ms else 0.0,
        }


def scenarios_of(game: Game) -> list[BotScenario]:
    """The game's ``BOT_SCENARIOS``: from the module defining it, else its package's
    ``bench`` module; none if neither lists any."""
    module = importlib.import_module(type(game).__module__)
    if not hasattr(module, "BOT_SCENARIOS"):
        try:
            module = importlib.import_module(f"{type(game).__module__.rsplit('.', 1)[0]}.bench")
        except ModuleNotFoundError:
            return []
    return list(getattr(module, "BOT_SCENARIOS", ()))


def play_one(game_name: str, scenario: BotScenario, seed: int, strength: str) -> Finished:
    """One seeded game of ``scenario``, every seat played by the bot."""
    game = get_game(game_name)
    assert game is not None
    rng = random.Random(f"bots-{scenario.name}-{seed}")
    names = [f"Bot {i + 1}" for i in range(scenario.seats)]
    played = playout.set_up(game, scenario.options, names, f"bots-{scenario.name}-{seed}")
    decisions: list[float] = []

    def pick(state: Any, prompts: list[Prompt]) -> tuple[Prompt, Choice]:
        required = [p for p in prompts if p.required]
        rng.shuffle(required)
        for prompt in required:
            start = time.perf_counter()
            choice = _decide(game, state, prompt, rng, strength)
            if len(prompt.choices) > 1:
                decisions.append((time.perf_counter() - start) * 1000)
            if choice is not None:
                return prompt, choice
        raise RuntimeError(f"no bot answers any of {[p.title for p in required]}")

    playout.play(played, pick, max_commands=scenario.max_commands)
    outcome = played.outcome
    result = outcome.result if outcome is not None else "unfinished"
    return Finished(result == "win", result, played.commands, decisions)


def _decide(game: Game, state: Any, prompt: Prompt, rng: random.Random, strength: str) -> Choice | None:
    """The bot's answer, or None where it waits on purpose (a player who joined another's
    attack waits for its launch)."""
    if game.bot_choice(state, prompt, rng) is None:
        return None
    if strength == "quick":
        return quick_choice(game, state, prompt, rng)
    return search_choice(game, state, prompt, rng)


def _task(args: tuple[str, BotScenario, int, str]) -> tuple[str, Finished]:
    game_name, scenario, seed, strength = args
    return scenario.name, play_one(game_name, scenario, seed, strength)


def run_bots(name: str | None, args: argparse.Namespace | Any) -> int:
    import_extra_games()
    game = get_game((name or "").replace("-", "_"))
    if game is None:
        print(f"umbra bench bots needs a game: {name!r} is not one")
        return 2
    if not has_search(game):
        print(f"{game.name} has no strong bot (no determinize)")
        return 2
    strength = getattr(args, "strength", None) or "strong"
    scenarios = scenarios_of(game)
    wanted = getattr(args, "scenario", None)
    if wanted:
        scenarios = [s for s in scenarios if s.name in wanted.split(",")]
    if not scenarios:
        print(f"{game.name} lists no bot scenarios matching {wanted!r}")
        return 2
    if getattr(args, "live", False):
        figures_live, passed = run_live(game.name, scenarios[0], args)
        if getattr(args, "json", False):
            print(json.dumps({"game": game.name, "scenario": scenarios[0].name, "live": figures_live}))
        else:
            print(report(game.name, scenarios[0].name, figures_live, passed))
        return 0 if passed else 1
    games = getattr(args, "games", None) or (2 if getattr(args, "quick", False) else 20)
    jobs = getattr(args, "jobs", None) or os.cpu_count() or 1
    tasks = [(game.name, s, seed, strength) for s in scenarios for seed in range(games)]
    figures = {s.name: ScenarioFigures(s.name) for s in scenarios}
    wall = time.perf_counter()
    if jobs == 1:
        results = map(_task, tasks)
    else:
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("fork"))
        results = pool.map(_task, tasks)
    for scenario_name, ended in results:
        figures[scenario_name].add(ended)
    wall = time.perf_counter() - wall
    if getattr(args, "json", False):
        document = {
            "game": game.name,
            "strength": strength,
            "scenarios": [f.to_json() for f in figures.values()],
        }
        print(json.dumps(document))
        return 0
    rows = []
    for f in figures.values():
        j = f.to_json()
        low, high = j["win_rate_95"]
        rows.append(
            [
                f.name,
                str(f.games),
                str(f.wins),
                f"{100 * f.rate:.0f} %",
                f"{100 * low:.0f}–{100 * high:.0f} %",
                f"{j['decision_ms_p50']:.0f}",
                f"{j['decision_ms_p95']:.0f}",
                str(f.unfinished),
            ]
        )
    print(
        f"{game.name}: bots in every seat, {strength} bot, {games} games per scenario, "
        f"{wall:.0f} s on {jobs} processes"
    )
    headers = ["scenario", "games", "wins", "win rate", "95 % interval", "ms p50", "ms p95", "unfinished"]
    print(table(headers, rows, left=1))
    return 0
