"""``umbra bench engine dark_omen``: random legal playouts (commands/s, games/s, median
commands per game, as the generic engine bench), then the heuristic bot's win rate over
whole Quick Start chapters and whole campaigns for 1–4 players.

A command counts once its prompts were listed, the player's choice decided by the kernel
(seat check, the rules, a fresh rng) and its events folded into a new state. Several seats
act at once: each command is a random one of the seats the table waits on.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.state import State
from app.kernel import playout
from app.kernel.conformance import check_views, random_playout, viewers_for
from app.kernel.search import BotScenario
from app.kernel.types import Choice, Event, Prompt


def bot_player(picker: random.Random) -> playout.Picker:
    """The bot in every seat, answering a random one of the required prompts it has a
    choice for: a hero who joined a team attack waits for its launch (facts §21), so its
    prompt is passed over while another seat can act."""

    def pick(state: Any, prompts: list[Prompt]) -> tuple[Prompt, Choice]:
        required = [p for p in prompts if p.required]
        picker.shuffle(required)
        for prompt in required:
            choice = DARK_OMEN.bot_choice(state, prompt, picker)
            if choice is not None:
                return prompt, choice
        raise RuntimeError("the bot has no choice in any prompt")

    return pick


def play_with_bots(
    options: dict[str, Any],
    seats: int,
    seed: int,
    max_commands: int = 60_000,
    log: list[Event] | None = None,
    check: bool = False,
) -> tuple[State, int]:
    """Every seat played by the bot, the acting seat picked at random among those the table
    waits on (simultaneous play): (the last state, commands played); ``log`` collects the
    events; ``check`` checks every viewer's view and feed for leaks after each command."""
    picker = random.Random(seed)
    table = playout.set_up(DARK_OMEN, options, [f"Bot {i + 1}" for i in range(seats)], f"bot-{seed}")
    if log is not None:
        log.extend(table.opening)
    viewers = viewers_for(seats)

    def after(table: playout.Played, _prompt: Prompt, _choice: Choice, events: list[Event]) -> None:
        if log is not None:
            log.extend(events)
        if check:
            where = f"bot seed {seed} command {table.commands - 1}"
            check_views(DARK_OMEN, table.state, events, viewers, where)

    playout.play(table, bot_player(picker), max_commands=max_commands, on_command=after)
    return table.state, table.commands


def run(args: Any) -> int:
    quick = bool(getattr(args, "quick", False))
    smoke = bool(getattr(args, "smoke", False))  # a test's run: one game of each kind
    budget = 0.0 if smoke else 3.0 if quick else 20.0
    print(
        f"umbra bench engine dark_omen (random legal playouts, 1-4 seats in turn, {budget:g} s)", flush=True
    )
    lengths: list[int] = []
    started = time.perf_counter()
    seed = 0
    while not lengths or time.perf_counter() - started < budget:
        options = [{}, {"mode": "quick_chapter", "chapter": 1 + seed % 4}][seed % 2]
        playout = random_playout(
            DARK_OMEN, seed, seats=1 + seed % 4, options=options, check_every=0, max_commands=50_000
        )
        lengths.append(playout.commands)
        seed += 1
    seconds = time.perf_counter() - started
    print(
        f"  {len(lengths)} games, {sum(lengths):,} commands in {seconds:.1f} s: "
        f"{sum(lengths) / seconds:,.0f} commands/s, {len(lengths) / seconds:.2f} games/s, "
        f"median {statistics.median(lengths):.0f} commands/game",
        flush=True,
    )
    games = 1 if smoke else 2 if quick else 6
    for label, options in (
        ("Quick Start chapter 1", {"mode": "quick_chapter", "chapter": 1}),
        ("whole campaign", {"difficulty": "light"}),
    ):
        for seats in (2,) if smoke else range(1, 5):
            t0 = time.perf_counter()
            wins = 0
            chapters = 0
            commands = 0
            for n in range(games if label.startswith("Quick") else max(1, games // 3)):
                state, played = play_with_bots(options, seats, 1000 * seats + n)
                outcome = DARK_OMEN.outcome(state)
                wins += bool(outcome and outcome.result == "win")
                chapters += len(state.results)
                commands += played
            n_games = games if label.startswith("Quick") else max(1, games // 3)
            print(
                f"  bot, {label}, {seats} player(s): {wins}/{n_games} won, {chapters / n_games:.1f} chapters "
                f"played, {commands / n_games:,.0f} commands/game, {time.perf_counter() - t0:.1f} s",
                flush=True,
            )
    return 0


QUICK_COMMANDS = 3_000
"""A Quick Start chapter takes 250–400 commands with two bots: ten times that is a loop."""

CAMPAIGN_COMMANDS = 8_000
"""A campaign takes 900–1,500 commands with two bots (four chapters)."""

BOT_SCENARIOS = [
    *(
        BotScenario(f"quick-{chapter}", {"mode": "quick_chapter", "chapter": chapter}, 2, QUICK_COMMANDS)
        for chapter in range(1, 5)
    ),
    BotScenario("campaign", {"mode": "campaign"}, 2, CAMPAIGN_COMMANDS),
]
"""``umbra bench bots dark_omen`` (issue 27): a Quick Start of each chapter and a whole
campaign, two players, default options (rough difficulty)."""
