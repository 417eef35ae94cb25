"""``umbra bench engine <game>``: the game's own engine benchmark when it has one, else
seeded random legal playouts of the pure engine, for any registered game.

By convention a game's package (the package of the module that defines its class, e.g.
``app.games.darkest_night``) may hold a ``bench`` module with ``run(args) -> int``; that
runs with the parsed command-line arguments (``args.quick`` asks for a smaller run) and
its result is the exit code. Otherwise the bench plays whole games with
``app.kernel.conformance.random_playout`` (every seat count in turn, default options, view
checks off so that it measures the engine: decide, evolve, prompts, and the final replay)
for 20 s (3 s with ``--quick``) and prints commands per second, games per second and the
median commands per game.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from typing import Any

from app.bench.server import import_extra_games
from app.bench.stats import fmt
from app.kernel.game import Game

FULL_SECONDS = 20.0
QUICK_SECONDS = 3.0
MAX_COMMANDS = 10_000
"""A random game longer than this is a failure (as in the conformance check)."""


def run_engine(name: str | None, args: argparse.Namespace | Any) -> int:
    if not name:
        print("umbra bench engine needs a game: umbra bench engine <game>")
        return 2
    game = _registered(name)
    package = _package_of(game) if game is not None else _product_package(name)
    if package is not None:
        runner = _bench_runner(package)
        if runner is not None:
            return int(runner(args) or 0)
    if game is None:
        print(f"no engine benchmark for {name}: no such game")
        return 2
    return random_playouts(game, QUICK_SECONDS if getattr(args, "quick", False) else FULL_SECONDS)


def _registered(name: str) -> Game | None:
    from app.kernel.registry import get_game

    import_extra_games()
    return get_game(name.replace("-", "_"))


def _package_of(game: Game) -> str:
    """The package of the module that defines the game's class (the module itself if it
    is a package)."""
    module_name = type(game).__module__
    module = sys.modules.get(module_name)
    if module is not None and hasattr(module, "__path__"):
        return module_name
    return module_name.rpartition(".")[0] or module_name


def _product_package(name: str) -> str | None:
    """``app.games.<name>`` for a name that could be one (no registered game needed)."""
    package = name.replace("-", "_")
    return f"app.games.{package}" if package.isidentifier() else None


def _bench_runner(package: str) -> Any:
    """``<package>.bench.run`` if that module exists and defines it."""
    name = f"{package}.bench"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        # Only "there is no such module" means no benchmark; an import error inside an
        # existing bench module is a real failure and propagates.
        if exc.name is None or not name.startswith(exc.name):
            raise
        return None
    runner = getattr(module, "run", None)
    return runner if callable(runner) else None


def random_playouts(game: Game, budget_s: float) -> int:
    """Whole random games for ``budget_s`` seconds (at least one), seat counts in turn."""
    from app.kernel.conformance import ConformanceError, random_playout

    print(
        f"umbra bench engine {game.name} (random legal playouts with default options, "
        f"{game.min_seats}-{game.max_seats} seats in turn, for {budget_s:g} s; {game.name} has no "
        "bench module of its own)",
        flush=True,
    )
    seat_counts = range(game.min_seats, game.max_seats + 1)
    lengths: list[int] = []
    started = time.perf_counter()
    seed = 0
    while not lengths or time.perf_counter() - started < budget_s:
        seats = seat_counts[seed % len(seat_counts)]
        try:
            playout = random_playout(game, seed, seats=seats, max_commands=MAX_COMMANDS, check_every=0)
        except ConformanceError as exc:
            print(f"  FAILED: seed {seed}, {seats} seats: {exc}")
            return 1
        lengths.append(playout.commands)
        seed += 1
    seconds = time.perf_counter() - started
    commands = sum(lengths)
    print(
        f"  {len(lengths)} games, {commands:,} commands in {seconds:.1f} s: "
        f"{fmt(commands / seconds, 0)} commands/s, {fmt(len(lengths) / seconds, 2)} games/s, "
        f"median {fmt(statistics.median(lengths), 0)} commands/game",
        flush=True,
    )
    return 0
