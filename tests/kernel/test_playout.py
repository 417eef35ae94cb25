"""``app/kernel/playout.py``: the one loop that plays a table in memory for conformance,
benches and figures (issue 24): it ends with the game, plays only through the kernel,
counts what it plays, and a seed replays the same game."""

from __future__ import annotations

import random

import pytest

from app.kernel import playout
from app.kernel import table as kernel
from app.kernel.types import Choice, Prompt, RuleError
from tests.support.lanterns import LANTERNS


def played(seed: int, **kw: object) -> playout.Played:
    table = playout.set_up(LANTERNS, {"target": 6}, ["Ann", "Bob"], f"t-{seed}", keep_log=True)
    return playout.play(table, playout.random_player(random.Random(seed)), max_commands=500, **kw)  # type: ignore[arg-type]


def test_a_game_is_played_to_its_end_and_its_log_replays_to_the_same_state() -> None:
    table = played(1)
    assert table.outcome is not None and table.commands > 0
    assert table.log is not None and len(table.log) == table.events
    assert kernel.replay(LANTERNS, table.log) == table.state


def test_the_same_seed_plays_the_same_game_and_phases_do_not_change_it() -> None:
    phases: dict[str, float] = {}
    a, b = played(7), played(7, phases=phases)
    assert a.log == b.log and a.commands == b.commands
    assert set(phases) == set(playout.PHASES) and all(v >= 0 for v in phases.values())


def test_on_command_sees_each_command_after_its_fold() -> None:
    seen: list[tuple[int, str, int]] = []

    def after(table: playout.Played, prompt: Prompt, choice: Choice, events: list) -> None:  # type: ignore[type-arg]
        seen.append((table.commands, choice.type, len(events)))

    table = played(3, on_command=after)
    assert [n for n, _, _ in seen] == list(range(1, table.commands + 1))
    assert all(count > 0 for _, _, count in seen)


def test_max_commands_stops_the_loop_and_a_forged_pick_is_refused_by_the_kernel() -> None:
    table = playout.set_up(LANTERNS, {"target": 60}, ["Ann", "Bob"], "t-cap")
    playout.play(table, playout.random_player(random.Random(0)), max_commands=3)
    assert table.commands == 3 and table.outcome is None

    def cheat(_state: object, prompts: list[Prompt]) -> tuple[Prompt, Choice]:
        return prompts[0], Choice("play", {"card": "not-in-hand"}, "")

    with pytest.raises(RuleError, match="not one of the choices offered"):
        playout.play(table, cheat, max_commands=1)
    assert table.commands == 3
