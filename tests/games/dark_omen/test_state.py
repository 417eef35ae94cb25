"""``state.py``: every record is a dataclass; a clone shares nothing that changes in place,
and a state survives pickling (the live layer keeps tables in other processes)."""

from __future__ import annotations

import pickle
import random
from dataclasses import fields, is_dataclass
from typing import Any

from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.bench import bot_player
from app.games.dark_omen.state import State
from app.kernel import playout

REPLACED_WHOLE = ("s.agenda", "s.decision", "s.save_point", "s.graves", "s.result")
"""Parts never changed in place (replaced whole), so a clone may share them."""


def mutable_parts(value: Any, path: str, out: dict[int, str]) -> dict[int, str]:
    if isinstance(value, (list, dict)) or (
        is_dataclass(value) and not type(value).__dataclass_params__.frozen
    ):  # type: ignore[union-attr]
        out[id(value)] = path
    if isinstance(value, dict):
        for k, v in value.items():
            mutable_parts(v, f"{path}[{k!r}]", out)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            mutable_parts(v, f"{path}[{i}]", out)
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            mutable_parts(getattr(value, f.name), f"{path}.{f.name}", out)
    return out


def states_of_a_bot_game(seats: int, every: int) -> list[State]:
    table = playout.set_up(
        DARK_OMEN, {"mode": "quick_chapter", "chapter": 2}, [f"B{i}" for i in range(seats)], "s"
    )
    picker = random.Random(3)
    kept: list[State] = []

    def keep(table: playout.Played, *_: Any) -> None:
        if table.commands % every == 0:
            kept.append(table.state)

    playout.play(table, bot_player(picker), max_commands=600, on_command=keep)
    return kept


def test_a_clone_is_equal_and_shares_nothing_that_changes_in_place() -> None:
    states = states_of_a_bot_game(3, 20)
    assert any(s.creatures for s in states) and any(h.pending for s in states for h in s.heroes)
    for s in states:
        copy = s.clone()
        assert copy == s
        mine, theirs = mutable_parts(s, "s", {}), mutable_parts(copy, "s", {})
        shared = [mine[i] for i in set(mine) & set(theirs) if not mine[i].startswith(REPLACED_WHOLE)]
        shared = [path for path in shared if ".stage" not in path]  # a boss card's stage, read only
        assert shared == []


def test_a_state_survives_pickling() -> None:
    for s in states_of_a_bot_game(2, 50):
        assert pickle.loads(pickle.dumps(s)) == s
