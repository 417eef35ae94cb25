"""How much clicking a hero turn costs (issue 11, "play that respects people's time").

The heuristic bot plays seeded games of four heroes at default difficulty, as the bench's
win-rate games do, and every required prompt it answers is a click a player would make.
``measure`` reports the clicks per hero turn (the prompts answered for the heroes — who
goes next, events, actions, rolls, wounds… — over the hero turns taken) and the share of
those prompts that offered a single choice (a question with one answer is a click the
engine could have spared). The bench prints it with ``print_figures``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.bot import choose
from app.games.darkest_night.rules.autopass import AUTO_PASS
from app.games.darkest_night.state import State
from app.kernel import playout
from app.kernel.types import Choice, Event, Prompt

SETUP_KINDS = frozenset({"choose_hero", "choose_powers"})
"""Choosing heroes and powers happens once, before any turn: not a turn's clicks."""
NECROMANCER_KINDS = frozenset({"necromancer_move", "play_map_card", "skull_token"})
"""The Necromancer's turn (or his player's), not a hero's."""


@dataclass
class ClickFigures:
    """Clicks over some bot games."""

    games: int = 0
    hero_turns: int = 0
    clicks: int = 0
    """Required prompts answered for the heroes (setup and the Necromancer's turn aside)."""
    single_choice: int = 0
    """Of those, prompts that offered exactly one choice."""
    auto_skipped: int = 0
    """Questions the engine answered itself (``Automatic`` log lines)."""
    wins: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    by_size: dict[str, dict[int, int]] = field(default_factory=dict)
    """For each kind of prompt, how many were answered with how many choices offered: a
    kind often asked with two choices is where a no-op second answer hides."""

    @property
    def per_turn(self) -> float:
        return self.clicks / self.hero_turns if self.hero_turns else 0.0

    @property
    def single_share(self) -> float:
        return self.single_choice / self.clicks if self.clicks else 0.0


def play(
    seed: int,
    figures: ClickFigures,
    options: dict[str, Any] | None = None,
    max_commands: int = 20_000,
    auto_pass: bool = False,
) -> None:
    """One bot game (as ``bench.bot_game`` plays it), its clicks added to ``figures``;
    with ``auto_pass`` the players' seat turns "auto-pass" on once the heroes are chosen
    (one click, counted)."""
    rng = random.Random(seed)
    table = playout.set_up(DARKEST_NIGHT, options, ["Bot 0"], f"bot-{seed}")

    def player(state: State, prompts: list[Prompt]) -> tuple[Prompt, Choice]:
        prompt = sent = next(p for p in prompts if p.required)
        kind = state.decision.kind if state.decision is not None else ""
        choice = choose(state, prompt, rng)
        if auto_pass and kind not in SETUP_KINDS and not state.options.get(AUTO_PASS):
            # The switch is an "any time" offer of its own (one click, counted beside the prompt).
            sent, choice = next((p, c) for p in prompts for c in p.choices if c.type == "set_auto_pass")
            kind = "set_auto_pass"
        if kind not in SETUP_KINDS and kind not in NECROMANCER_KINDS:
            figures.clicks += 1
            figures.single_choice += len(prompt.choices) == 1
            figures.by_kind[kind] = figures.by_kind.get(kind, 0) + 1
            sizes = figures.by_size.setdefault(kind, {})
            sizes[len(prompt.choices)] = sizes.get(len(prompt.choices), 0) + 1
        return sent, choice

    def count(_table: playout.Played, _prompt: Prompt, _choice: Choice, events: list[Event]) -> None:
        figures.hero_turns += sum(1 for e in events if e.type in ("TurnStarted", "TurnSkipped"))
        figures.auto_skipped += sum(1 for e in events if e.type == "Automatic")

    playout.play(table, player, max_commands=max_commands, on_command=count)
    outcome = table.outcome
    figures.games += 1
    figures.wins += bool(outcome and outcome.result == "win")


def measure(
    games: int = 20, first_seed: int = 0, options: dict[str, Any] | None = None, auto_pass: bool = False
) -> ClickFigures:
    """Clicks per hero turn and the share of one-choice prompts over ``games`` bot games."""
    figures = ClickFigures()
    for seed in range(first_seed, first_seed + games):
        play(seed, figures, options, auto_pass=auto_pass)
    return figures


def print_figures(games: int = 20) -> ClickFigures:
    """The bench's lines: clicks per hero turn, one-choice prompts, the clicks by prompt kind
    (with how many choices each offered); then the clicks of players who turn "auto-pass when
    I have nothing to do" on."""
    figures = measure(games)
    print(
        f"clicks, heuristic bot, default difficulty: {figures.games} games, {figures.hero_turns} hero turns"
    )
    print(f"  clicks per hero turn  {figures.per_turn:10.2f}   (target 2.8 or fewer, issue 26)")
    share = f"{figures.single_share:10.1%}"
    print(f"  one-choice prompts    {share}   ({figures.single_choice} of {figures.clicks})")
    print(f"  answered by the rules {figures.auto_skipped:10d}")
    print(f"  bot win rate          {figures.wins / max(1, figures.games):10.1%}")
    print_breakdown(figures)
    passing = measure(games, auto_pass=True)
    print(f"  with auto-pass on     {passing.per_turn:10.2f}   clicks per hero turn")
    return figures


def breakdown(figures: ClickFigures) -> list[str]:
    """One line per kind of prompt, most clicked first: clicks per hero turn, the count, and
    how many choices those prompts offered (``2:40`` = 40 prompts with two choices)."""
    turns = max(1, figures.hero_turns)
    lines = []
    for kind, n in sorted(figures.by_kind.items(), key=lambda kv: (-kv[1], kv[0])):
        sizes = " ".join(f"{k}:{v}" for k, v in sorted(figures.by_size.get(kind, {}).items()))
        lines.append(f"    {kind:<20} {n / turns:5.2f} per turn  {n:6d} prompts   choices {sizes}")
    return lines


def print_breakdown(figures: ClickFigures) -> None:
    print("  clicks by prompt kind:")
    for line in breakdown(figures):
        print(line)


if __name__ == "__main__":
    import sys

    print_figures(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
