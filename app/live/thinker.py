"""Where the bots think (issue 27: "each decision in a thread or process that never blocks
the event loop").

The quick bot answers in a few milliseconds; it thinks in a thread of the server's process.
The strong bot searches for up to most of a second of pure Python: in a thread it would
hold the interpreter's lock against the event loop every few milliseconds, and a table of
strong bots measured loop lag p99 30 ms, max 70 ms (Dark Omen, 3 tables at a 0.5 s pace;
quick: p99 4 ms, max 7 ms). So it thinks in one child process per server process, started
the first time a strong bot moves: the state and the question travel pickled (3–11 kB,
under half a millisecond each way), the answer comes back, and the child holds no table.

A child that dies is replaced on the next decision; the decision it was making is thought
again in the thread, so a bot never stops for it.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from app.kernel.game import Game, has_search
from app.kernel.registry import all_games, get_game
from app.kernel.search import quick_choice, search_choice
from app.kernel.types import Choice, Prompt

log = logging.getLogger(__name__)


def think(game: Game, state: Any, prompt: Prompt, rng: random.Random, strength: str) -> Choice:
    """The bot's answer (``state`` is never changed)."""
    if not has_search(game):
        choice = game.bot_choice(state, prompt, rng)
        return choice if choice is not None else prompt.choices[0]
    if strength == "quick":
        return quick_choice(game, state, prompt, rng)
    return search_choice(game, state, prompt, rng)


def _load_games(modules: tuple[str, ...]) -> None:
    """The child's start: import the modules that register the parent's games."""
    for module in modules:
        importlib.import_module(module)


def _think_by_name(game_name: str, state: Any, prompt: Prompt, rng: random.Random, strength: str) -> Choice:
    game = get_game(game_name)
    if game is None:
        raise LookupError(f"the thinking process has no game {game_name!r}")
    return think(game, state, prompt, rng, strength)


class Thinker:
    """One thread and, once a strong bot moves, one child process, shared by every table of
    this server process: one decision at a time in each."""

    def __init__(self) -> None:
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot-thinks")
        self.process: ProcessPoolExecutor | None = None
        self.closed = False

    def _child(self) -> ProcessPoolExecutor:
        if self.process is None:
            # Spawned, not forked: the server's threads and sockets stay out of the child.
            modules = tuple(sorted({type(g).__module__ for g in all_games().values()}))
            self.process = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_load_games,
                initargs=(modules,),
            )
        return self.process

    async def think(
        self, game: Game, state: Any, prompt: Prompt, rng: random.Random, strength: str
    ) -> Choice:
        loop = asyncio.get_running_loop()
        if strength == "strong" and has_search(game) and not self.closed:
            try:
                return await loop.run_in_executor(
                    self._child(), _think_by_name, game.name, state, prompt, rng, strength
                )
            except BrokenProcessPool:
                log.warning("the bots' thinking process died; thinking in a thread meanwhile")
                self.process = None
        return await loop.run_in_executor(self.thread, think, game, state, prompt, rng, strength)

    def close(self) -> None:
        self.closed = True
        self.thread.shutdown(wait=False, cancel_futures=True)
        if self.process is not None:
            self.process.shutdown(wait=False, cancel_futures=True)
            self.process = None
