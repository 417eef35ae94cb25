"""The typed state: a clone shares nothing the appliers change in place, and a state folded
command by command equals the replay of its log (what a stored game loads as)."""

from __future__ import annotations

import dataclasses
import pickle
import random
from typing import Any

from app.games.attack_the_darkness import ATTACK_THE_DARKNESS as GAME
from app.games.attack_the_darkness.state import State
from app.kernel import playout
from app.kernel import table as kernel
from tests.games.attack_the_darkness.harness import Table

SHARED = {"cards", "decision", "agenda"}
"""Parts a clone shares on purpose: the card index (never changed after setup), the frozen
decision; the agenda's steps are new dicts (their values are never changed in place)."""


def mutable_parts(value: Any, path: str) -> list[tuple[str, Any]]:
    """Every list, dict and unfrozen record reachable from ``value``, with its path."""
    out: list[tuple[str, Any]] = []
    if isinstance(value, list | dict):
        out.append((path, value))
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            out += mutable_parts(v, f"{path}[{k!r}]")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not value.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            out.append((path, value))
        for f in dataclasses.fields(value):
            out += mutable_parts(getattr(value, f.name), f"{path}.{f.name}")
    return out


def played(mode: dict[str, Any], seats: int, commands: int) -> State:
    table = playout.set_up(GAME, mode, [f"P{i + 1}" for i in range(seats)], "state-1")
    playout.play(table, playout.random_player(random.Random(1)), max_commands=commands)
    state: State = table.state
    return state


def test_a_clone_shares_nothing_the_appliers_change() -> None:
    for mode in ({"dungeon": "tavern_cellar"}, {"mode": "arena", "teams": 2}):
        state = played(mode, 3, 60)
        assert state.chars and (state.monsters or state.arena)
        clone = state.clone()
        assert clone == state and pickle.loads(pickle.dumps(state)) == state
        for f in dataclasses.fields(State):
            if f.name in SHARED:
                continue
            mine = dict(mutable_parts(getattr(state, f.name), f.name))
            theirs = dict(mutable_parts(getattr(clone, f.name), f.name))
            assert mine.keys() == theirs.keys()
            shared = [p for p in mine if mine[p] is theirs[p]]
            assert not shared, f"the clone shares {shared}"


def test_an_arena_defence_that_asks_a_discard_folds_as_it_replays() -> None:
    """A Defense card paid with Ponderous (discard 1) asks the discard while the attack is
    set aside (AtD L151): the set-aside play is kept once, the attack card is discarded
    when it resolves, and the state equals the replay of its events."""
    t = Table(2, classes=["champion", "champion"], mode="arena")
    t.craft([(0, 0, "v")], {0: (0, 0), 1: (1, 0)})
    t.state.order = [0, 1]
    hack = t.hand(0, "hack", "hearty", "hearty", "hearty")[0]
    block = t.hand(1, "block", "ponderous", "hearty", "hearty")[0]
    start, logged = t.state.clone(), len(t.events)
    t.send(0, "play", card=hack)
    t.send(0, "add", rc=t.choices(0)[0][1]["rc"])
    t.send(0, "done")
    t.send(0, "discard", card=t.choices(0)[0][1]["card"])
    t.send(0, "target", who="c1")
    t.send(1, "defend", card=block)
    ponderous = next(a["rc"] for k, a in t.choices(1) if k == "add" and t.state.cards[a["rc"]] == "ponderous")
    t.send(1, "add", rc=ponderous)
    t.send(1, "done")
    assert t.state.decision is not None and t.state.decision.kind == "discard"
    assert [p.card for p in t.state.suspended] == [hack]
    assert t.state.play is not None and t.state.play.card == block
    t.send(1, "discard", card=t.choices(1)[0][1]["card"])
    assert t.state.play is None and not t.state.suspended
    assert t.state.chars[0].disc_a.count(hack) == 1
    assert kernel.fold_all(GAME, start, t.events[logged:]) == t.state
