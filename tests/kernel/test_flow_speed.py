"""The stepwise engine's shortcuts change nothing it records or refuses: a step found valid
is not checked again (but a new step with an undeclared parameter is still refused), and
a command's memo is forgotten at every event that changes the state, except those the game
lists in ``Ctx.memo_survives`` and events that change nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.kernel.flow import Ctx, Rules
from app.kernel.flow.records import FlowSchemaError
from app.kernel.flow.rules import RECORDED_STEPS


class Box:
    def __init__(self) -> None:
        self.agenda: list[dict[str, Any]] = []
        self.decision = None
        self.result = None
        self.n = 0


def make_rules() -> Rules:
    rules = Rules("speed-test")

    @rules.step("bump", "n")
    def bump(ctx: Ctx[Any, Any], st: dict[str, Any]) -> None:
        ctx.emit("Bumped", n=st["n"])

    @rules.applies("Bumped", copy_on_write=True)
    def bumped(state: Box, d: dict[str, Any]) -> None:
        state.n += d["n"]

    @rules.applies("Noted", copy_on_write=True)
    def noted(state: Box, d: dict[str, Any]) -> None:
        state.result = None  # a field no memo'd answer reads

    return rules


def test_a_valid_step_is_recorded_as_itself_and_an_invalid_one_refused() -> None:
    rules = make_rules()
    st = {"op": "bump", "n": 1}
    assert rules.step_record(st) is st
    assert rules.step_record(st) is st  # remembered: the same step
    with pytest.raises(FlowSchemaError):
        rules.step_record({"op": "bump", "n": 1, "extra": 2})
    with pytest.raises(FlowSchemaError):
        rules.step_record({"op": "nope"})
    nested = {"op": "bump", "n": [{"op": "nope"}]}
    with pytest.raises(FlowSchemaError):
        rules.step_record(nested)
    with pytest.raises(FlowSchemaError):
        rules.step_record(nested)  # refused again: only valid steps are remembered


def test_the_remembered_steps_stay_few() -> None:
    rules = make_rules()
    for n in range(RECORDED_STEPS * 2 + 3):
        rules.step_record({"op": "bump", "n": n})
    assert len(rules._recorded) <= RECORDED_STEPS


def test_the_memo_is_forgotten_at_a_change_and_kept_otherwise() -> None:
    rules = make_rules()
    ctx: Ctx[Any, Any] = Ctx(rules, Box(), random.Random(0), None)
    ctx.memo = {"answer": 1}
    ctx.emit("Narrated", text="nothing changes")  # no applier: the state is as it was
    assert ctx.memo == {"answer": 1}
    ctx.emit("Bumped", n=2)
    assert ctx.memo == {} and ctx.s.n == 2
    ctx.memo["answer"] = 2
    ctx.memo_survives = frozenset({"Noted"})
    ctx.emit("Noted")
    assert ctx.memo == {"answer": 2}
    ctx.emit("Bumped", n=1)
    assert ctx.memo == {} and ctx.s.n == 3
    assert [e.type for e in ctx.events] == ["Narrated", "Bumped", "Noted", "Bumped"]
