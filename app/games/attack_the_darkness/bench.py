"""``umbra bench engine attack_the_darkness``: random legal playouts (commands per second,
games per second, median commands per game) in each mode, and the heuristic bot's win
rate on each sample dungeon for 1, 2 and 4 players.

A command counts once its prompts were listed, the choice decided by the kernel (seat
check, the rules, a fresh rng) and its events folded into a new state: what a live table
does per command, minus storage. Conformance checks are the tests' job and not timed here.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from app.games.attack_the_darkness import ATTACK_THE_DARKNESS
from app.games.attack_the_darkness.bot import bot_pick
from app.kernel import playout
from app.kernel.search import BotScenario
from app.kernel.types import Choice, Prompt

GAME = ATTACK_THE_DARKNESS
DUNGEONS = next(o.choices for o in GAME.options if o.name == "dungeon")
MODES = (
    ("adventure", {"dungeon": "tavern_cellar"}),
    ("tabletop", {"mode": "tabletop", "dungeon": "random", "encounters": 1}),
    ("arena", {"mode": "arena", "teams": 2}),
)

SAMPLE_DUNGEONS = tuple(d for d in DUNGEONS if d != "random")
BOT_SCENARIOS = [
    *(
        BotScenario(f"{dungeon}-{seats}p", {"dungeon": dungeon}, seats)
        for dungeon in SAMPLE_DUNGEONS
        for seats in (1, 2, 4)
    ),
    BotScenario("arena", {"mode": "arena", "teams": 2}, 2),
]
"""What ``umbra bench bots attack_the_darkness`` plays (issue 27): each sample dungeon at 1, 2
and 4 players, and an Arena of two players."""


def play(
    options: dict[str, Any], seats: int, seed: int, *, bot: bool, max_commands: int = 5_000
) -> tuple[str, int]:
    """One seeded game, every required prompt answered by the bot or at random: (result,
    commands)."""
    picker = random.Random(seed)
    table = playout.set_up(GAME, options, [f"P{i + 1}" for i in range(seats)], f"bench-{seed}")

    def player(state: Any, prompts: list[Prompt]) -> tuple[Prompt, Choice]:
        prompt = picker.choice([p for p in prompts if p.required])
        return prompt, bot_pick(state, prompt, picker) if bot else picker.choice(prompt.choices)

    playout.play(table, player, max_commands=max_commands)
    outcome = table.outcome
    return (outcome.result, table.commands) if outcome is not None else ("unfinished", max_commands)


TURN_KINDS = frozenset({"act", "confirm_play", "pay", "discard", "target", "area", "move_to"})
"""The questions of a player's own turn (a defence window or the monster phase is not)."""


def clicks_per_turn(seeds: range, *, one_click: bool, seats: int = 2) -> tuple[float, int]:
    """Commands a player sends per player turn of seeded Adventures in the Tavern Cellar,
    every seat played by the heuristic bot (issue 26), over the games that end within 3,000
    commands; and how many did not. With ``one_click`` the player pays a card with the
    card's click ("play_cheapest") wherever the bot would have opened the payment step;
    without, every resource card is a click and "Declare" another, as before."""
    clicks = turns = unfinished = 0
    for seed in seeds:
        counted = _game_clicks(seed, one_click, seats)
        if counted is None:
            unfinished += 1
            continue
        clicks += counted[0]
        turns += counted[1]
    return clicks / max(turns, 1), unfinished


def _game_clicks(seed: int, one_click: bool, seats: int) -> tuple[int, int] | None:
    """(own-turn commands, player turns) of one seeded game; None if it did not end."""
    picker = random.Random(seed)
    names = [f"P{i + 1}" for i in range(seats)]
    table = playout.set_up(GAME, {"dungeon": "tavern_cellar"}, names, f"clicks-{seed}")
    counted = {"clicks": 0, "turns": 0}

    def pick(state: Any, prompts: list[Prompt]) -> tuple[Prompt, Choice]:
        prompt = picker.choice([p for p in prompts if p.required])
        choice = bot_pick(state, prompt, picker)
        if one_click and choice.type == "play":
            quick = [c for c in prompt.choices if c.type == "play_cheapest" and c.args == choice.args]
            choice = quick[0] if quick else choice
        own_turn = state.decision is not None and state.decision.kind in TURN_KINDS
        if own_turn and isinstance(prompt.seat, int) and state.turn == prompt.seat:
            counted["clicks"] += 1
        return prompt, choice

    def count(_table: Any, _prompt: Prompt, _choice: Choice, events: list[Any]) -> None:
        counted["turns"] += sum(1 for e in events if e.type == "TurnBegan")

    playout.play(table, pick, max_commands=3_000, on_command=count)
    return None if table.outcome is None else (counted["clicks"], counted["turns"])


def run(args: Any) -> int:
    quick = bool(getattr(args, "quick", False))
    playouts = 4 if quick else 30
    bot_games = 3 if quick else 20
    for mode, options in MODES:
        wall, cpu = time.perf_counter(), time.process_time()
        lengths = [
            play(options, 1 + seed % 4 if mode != "arena" else 2 + seed % 3, seed, bot=False)[1]
            for seed in range(playouts)
        ]
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        total = sum(lengths)
        print(
            f"attack_the_darkness {mode} random playouts: {playouts} games, {total} commands "
            f"in {wall:.1f} s ({cpu:.1f} s CPU)"
        )
        print(f"  commands/s            {total / wall:10.0f}   ({total / max(cpu, 1e-9):.0f} per CPU second)")
        print(f"  games/s               {playouts / wall:10.2f}")
        print(f"  median commands/game  {statistics.median(lengths):10.0f}", flush=True)
    print(f"heuristic bot win rate, {bot_games} games per sample dungeon and party size:")
    for dungeon in DUNGEONS[1:]:
        line = []
        for seats in (1, 2, 4):
            results = [play({"dungeon": dungeon}, seats, seed, bot=True)[0] for seed in range(bot_games)]
            line.append(f"{seats}p {results.count('win') / bot_games:6.1%}")
        print(f"  {dungeon:14s} " + "   ".join(line), flush=True)
    return 0
