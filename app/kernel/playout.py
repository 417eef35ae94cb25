"""The one loop that plays a table in memory, for every game (issue 24, item 5): set a
table up, then until the game ends ask a player for a command among the prompts, decide it
with the kernel (seat check, the choice check, the rules, a fresh rng) and fold its events.

Conformance runs, the engine benches, Darkest Night's clicks and hero-rate figures all play
through it; they differ only in who picks (``Picker``: a random player, a bot, a scripted
party) and what they check or count after each command (``on_command``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from app.kernel import table as kernel
from app.kernel.game import Game, validate_options
from app.kernel.rng import rng_for
from app.kernel.types import GAME_MASTER, GM_SEAT, Choice, Command, Event, Prompt, SeatInfo, Viewer

Picker = Callable[[Any, list[Prompt]], tuple[Prompt, Choice]]
"""A player: given the state and its prompts (each with at least one choice), the prompt it
answers and its choice there."""

OnCommand = Callable[["Played", Prompt, Choice, list[Event]], None]
"""Called after each command's events were folded into ``Played.state``: checks, counts."""

PHASES = ("prompts", "pick", "rng", "decide", "fold")
"""Where a command's time goes (``play(..., phases=...)``): listing the prompts, the pick,
the command's rng, deciding (the rules) and folding the events into the next state."""


@dataclass
class Played:
    """A table played in memory: where it stands."""

    game: Game
    table_seed: str
    seats: int
    state: Any
    opening: list[Event]
    events: int
    """Events in the log so far (the next command's rng is drawn for the seq after them)."""
    commands: int = 0
    log: list[Event] | None = field(default=None, repr=False)
    """Every event, when the caller asked to keep them."""

    @property
    def outcome(self) -> Any:
        return self.game.outcome(self.state)


@cache
def seat_viewer(seat: Any) -> Viewer:
    """Who sends a seat's commands (one frozen value per seat serves every command)."""
    return GAME_MASTER if seat == GM_SEAT else Viewer("seat", frozenset({seat}))


def set_up(
    game: Game,
    options: dict[str, Any] | None,
    seat_names: Sequence[str],
    table_seed: str,
    *,
    keep_log: bool = False,
) -> Played:
    """A new table of ``game`` with these options and players, its opening folded."""
    opening = game.setup(
        validate_options(game, options or {}),
        [SeatInfo(i, name) for i, name in enumerate(seat_names)],
        rng_for(table_seed, 1),
    )
    state = kernel.replay(game, opening)
    return Played(
        game,
        table_seed,
        len(seat_names),
        state,
        opening,
        len(opening),
        log=list(opening) if keep_log else None,
    )


def play(
    table: Played,
    pick: Picker,
    *,
    max_commands: int,
    on_command: OnCommand | None = None,
    phases: dict[str, float] | None = None,
) -> Played:
    """Play ``table`` on until its game ends or ``max_commands`` more were played.

    ``phases`` (if given) adds up the seconds spent in each of ``PHASES``; without it the
    clock is ``float`` (0.0, a C call: the untimed loop pays next to nothing for it)."""
    game, table_seed = table.game, table.table_seed
    decide, fold_all, outcome = kernel.decide, kernel.fold_all, game.outcome
    clock: Callable[[], float] = time.perf_counter if phases is not None else float
    for _ in range(max_commands):
        if outcome(table.state) is not None:
            break
        state = table.state
        t0 = clock()
        prompts = [p for p in game.prompts(state) if p.choices]
        t1 = clock()
        prompt, choice = pick(state, prompts)
        t2 = clock()
        rng = rng_for(table_seed, table.events + 1)
        t3 = clock()
        events = decide(
            game,
            state,
            Command(prompt.seat, choice.type, choice.args),
            seat_viewer(prompt.seat),
            rng,
            prompts,
        )
        t4 = clock()
        table.state = fold_all(game, state, events)
        t5 = clock()
        table.events += len(events)
        table.commands += 1
        if table.log is not None:
            table.log.extend(events)
        if on_command is not None:
            on_command(table, prompt, choice, events)
        if phases is not None:
            for name, seconds in zip(PHASES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True):
                phases[name] = phases.get(name, 0.0) + seconds
    return table


# -- pickers ------------------------------------------------------------------------------------


def random_player(picker: random.Random, optional_share: float = 0.1) -> Picker:
    """A random legal player, as the conformance run plays: a random required prompt,
    sometimes (``optional_share``) an optional "any time" one, and a random choice in it."""

    def pick(_state: Any, prompts: list[Prompt]) -> tuple[Prompt, Choice]:
        optional = [p for p in prompts if not p.required]
        if optional and picker.random() < optional_share:
            pool = optional
        else:
            pool = [p for p in prompts if p.required]
        prompt = picker.choice(pool)
        return prompt, picker.choice(prompt.choices)

    return pick


BotChoice = Callable[[Any, Prompt], Choice | None]
"""A bot's choice in one prompt (``Game.bot_choice`` with its rng bound, say)."""


def bot_player(choose: BotChoice, picker: random.Random | None = None) -> Picker:
    """A bot in every seat: it answers a required prompt (the first, or one at random with
    ``picker`` when several seats act at once)."""

    def pick(state: Any, prompts: list[Prompt]) -> tuple[Prompt, Choice]:
        required = [p for p in prompts if p.required]
        prompt = picker.choice(required) if picker is not None else required[0]
        choice = choose(state, prompt)
        if choice is None:
            raise RuntimeError(f"the bot has no choice for {prompt.title!r}")
        return prompt, choice

    return pick
