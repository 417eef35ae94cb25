"""``State.clone`` is a hand-written structural copy (no pickle round trip): it must equal
the state it copies and share no mutable object with it, at many points of real games, so
that ``evolve`` stays a pure fold."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.state import Power, State, copy_data
from app.kernel import table as kernel
from app.kernel.conformance import random_playout
from app.kernel.types import Choice


def mutable_ids(value: Any, seen: dict[int, str], path: str) -> None:
    """Every list, dict and non-frozen dataclass reachable from ``value``, by id."""
    if isinstance(value, list | dict) or (is_dataclass(value) and not value.__dataclass_params__.frozen):
        seen[id(value)] = path
    if isinstance(value, dict):
        for k, v in value.items():
            mutable_ids(v, seen, f"{path}[{k!r}]")
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            mutable_ids(v, seen, f"{path}[{i}]")
    elif is_dataclass(value):
        for f in fields(value):
            mutable_ids(getattr(value, f.name), seen, f"{path}.{f.name}")


def assert_independent(state: State) -> None:
    copy = state.clone()
    assert copy == state
    assert repr(copy) == repr(state)  # same values of the same types (1 == True, but not in a repr)
    ours: dict[int, str] = {}
    theirs: dict[int, str] = {}
    mutable_ids(state, ours, "state")
    mutable_ids(copy, theirs, "copy")
    shared = ours.keys() & theirs.keys()
    assert not shared, f"the clone shares {sorted(ours[i] for i in shared)[:5]}"


@pytest.mark.parametrize("seed", [1, 2])
def test_the_clone_equals_and_shares_nothing_mutable_along_a_game(seed: int) -> None:
    playout = random_playout(DARKEST_NIGHT, seed, options={"necromancer_player": seed == 2}, check_every=0)
    state = DARKEST_NIGHT.initial_state()
    assert_independent(state)
    commands = 0
    for event in playout.events:
        state = kernel.fold(DARKEST_NIGHT, state, event)
        if event.type == "FlowSet":
            commands += 1
            if commands % 7 == 1:
                assert_independent(state)
    assert state == playout.state


def test_the_clone_copies_nested_data_and_shares_frozen_values() -> None:
    state = State(decision={"kind": "travel", "seat": 0, "offers": [{"to": "Village"}]})
    state.agenda = [{"op": "x", "steps": [{"op": "y"}]}]
    state.heroes = {}
    state.darkness_active = {"card": {"left": [1, 2]}}
    copy = state.clone()
    copy.decision["offers"][0]["to"] = "Swamp"  # type: ignore[index]
    copy.agenda[0]["steps"][0]["op"] = "z"
    copy.darkness_active["card"]["left"].append(3)
    assert state.decision == {"kind": "travel", "seat": 0, "offers": [{"to": "Village"}]}
    assert state.agenda == [{"op": "x", "steps": [{"op": "y"}]}]
    assert state.darkness_active == {"card": {"left": [1, 2]}}
    frozen = (1, "a", None)
    assert copy_data(frozen) is frozen
    choice = Choice("travel", {"to": "Village"}, "Travel")
    assert copy_data(choice) is choice  # a frozen value (a typed decision) is shared
    power = Power("p", data={"n": [1]})
    assert copy_data(power) == power and copy_data(power) is not power
