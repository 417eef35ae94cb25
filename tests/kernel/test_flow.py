"""The kernel's stepwise engine (``app.kernel.flow``) on a toy game, without Darkest Night:
per-game registries, asking and resuming, "any time" windows, the ``Waiting`` record and
its upcasting, the flow manifest, and the content checks."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from app.kernel.flow import Ctx, Decision, Rules, Step, StepDecision
from app.kernel.flow.content import bad_sources, missing_ops, walk_ops
from app.kernel.flow.manifest import build, problems
from app.kernel.flow.records import WAITING_EVENT, FlowSchemaError
from app.kernel.types import Choice, Event


@dataclass
class Toy:
    """A toy game's state: a counter, a log of what happened, the engine's fields."""

    count: int = 0
    said: list[str] = field(default_factory=list)
    agenda: list[Step] = field(default_factory=list)
    decision: Any = None
    result: Any = None


@dataclass(frozen=True, kw_only=True)
class Target(Decision):
    """Choose where to go."""

    kind = "target"
    options: list[str]


@dataclass(frozen=True, kw_only=True)
class Places(Decision):
    """``Target`` v2: the same question with its field renamed."""

    kind = "target"
    version = 2
    places: list[str]


def toy_rules(name: str = "toy") -> Rules:
    rules = Rules(name)

    @rules.applies("Counted")
    def _counted(s: Toy, d: dict[str, Any]) -> None:
        s.count = d["to"]

    @rules.applies("Said")
    def _said(s: Toy, d: dict[str, Any]) -> None:
        s.said.append(d["text"])

    @rules.step("add", "n")
    def add(ctx: Ctx[Toy, None], st: Step) -> None:
        ctx.emit("Counted", to=ctx.s.count + int(st.get("n", 1)))

    @rules.step("pick_target")
    def pick_target(ctx: Ctx[Toy, None], st: Step) -> None:
        ctx.ask(Target(seat=0, options=["north", "south"]))

    @rules.step("say", "text")
    def say(ctx: Ctx[Toy, None], st: Step) -> None:
        ctx.emit("Said", text=st["text"])

    def target_choices(s: Toy, d: Target) -> list[Choice]:
        return [Choice("target", {"to": o}, o) for o in d.options]

    @rules.decision(Target, target_choices)
    def resolve_target(ctx: Ctx[Toy, None], d: Target, _t: str, args: dict[str, Any]) -> None:
        ctx.then([{"op": "say", "text": f"went {args['to']}"}, {"op": "add", "n": 10}])

    def shout_choices(s: Toy, seat: Any) -> list[Choice]:
        return [Choice("shout", {}, "Shout")] if s.decision is not None else []

    def shout(ctx: Ctx[Toy, None], seat: Any, _t: str, _a: dict[str, Any]) -> None:
        ctx.emit("Said", text=f"seat {seat} shouts")

    rules.window("any_time", ["shout"], shout_choices, shout)
    return rules


def idle(ctx: Ctx[Toy, None]) -> None:
    ctx.s.result = "done"


def replay(rules: Rules, events: list[Event]) -> Toy:
    state = Toy()
    for event in events:
        rules.apply(state, event)
    return state


def start(rules: Rules) -> tuple[Toy, list[Event]]:
    ctx: Ctx[Toy, None] = Ctx(rules, Toy(), random.Random(0), None)
    ctx.then([{"op": "add", "n": 2}, {"op": "pick_target"}, {"op": "add"}])
    ctx.run(idle)
    events = ctx.finish()
    return ctx.s, events


def test_registries_are_per_game() -> None:
    """Two games may register the same step, event and decision names."""
    a, b = toy_rules("a"), toy_rules("b")
    assert set(a.steps) == set(b.steps) and a.steps["add"].rule is not b.steps["add"].rule
    with pytest.raises(ValueError, match="registered twice"):
        a.step("add")(lambda ctx, st: None)


def test_a_run_stops_at_a_decision_and_the_log_rebuilds_it() -> None:
    rules = toy_rules()
    state, events = start(rules)
    assert state.count == 2 and state.decision == Target(seat=0, options=["north", "south"])
    waiting = events[-1]
    assert waiting.type == WAITING_EVENT
    assert waiting.data == {
        "decision": {"kind": "target", "v": 1, "seat": 0, "options": ["north", "south"]},
        "pending": [{"op": "add"}],
        "steps_v": 1,
    }
    rebuilt = replay(rules, events)
    assert rebuilt == state


def test_resolving_continues_with_the_pending_steps() -> None:
    rules = toy_rules()
    state, events = start(rules)
    ctx: Ctx[Toy, None] = Ctx(rules, replay(rules, events), random.Random(0), None)
    ctx.resolve("target", {"to": "south"})
    ctx.run(idle)
    events += ctx.finish()
    assert ctx.s.said == ["went south"] and ctx.s.count == 13 and ctx.s.result == "done"
    assert replay(rules, events).count == 13


def test_an_any_time_window_interrupts_and_asks_again() -> None:
    rules = toy_rules()
    _, events = start(rules)
    window = rules.window_for("shout")
    assert window is not None and window.choices(replay(rules, events), 1)
    ctx: Ctx[Toy, None] = Ctx(rules, replay(rules, events), random.Random(0), None)
    ctx.interrupt(window, 1, "shout", {})
    ctx.run(idle)
    events += ctx.finish()
    state = replay(rules, events)
    assert state.said == ["seat 1 shouts"] and state.decision == Target(seat=0, options=["north", "south"])
    assert state.agenda == [{"op": "add"}]


def test_undeclared_parameters_and_fields_never_reach_the_log() -> None:
    rules = toy_rules()
    ctx: Ctx[Toy, None] = Ctx(rules, Toy(), random.Random(0), None)
    ctx.s.agenda = [{"op": "add", "amount": 3}]
    with pytest.raises(FlowSchemaError, match="undeclared parameters"):
        ctx.finish()
    ctx.s.agenda = []
    ctx.s.decision = Places(seat=0, places=[])
    with pytest.raises(FlowSchemaError, match="no decision kind"):
        ctx.finish()


def test_a_shape_found_valid_lets_no_other_shape_of_its_op_through() -> None:
    """``step_record`` remembers the shapes it found valid (op and parameter names, in
    order): a valid ``add`` never vouches for an ``add`` with more, or other, parameters."""
    rules = toy_rules()
    assert rules.step_record({"op": "add", "n": 2}) == {"op": "add", "n": 2}
    with pytest.raises(FlowSchemaError, match=r"add has undeclared parameters \['amount'\]"):
        rules.step_record({"op": "add", "n": 2, "amount": 3})
    with pytest.raises(FlowSchemaError, match="add has undeclared parameters"):
        rules.step_record({"op": "add", "amount": 3})
    assert rules.step_record({"op": "add", "n": 5}) == {"op": "add", "n": 5}


def test_the_manifest_catches_a_rename_without_an_upcaster() -> None:
    old = toy_rules()
    manifest = build(old)
    assert problems(old, manifest) == []
    renamed = Rules("toy")
    renamed.step("increase", "n")(lambda ctx, st: None)
    renamed.step("pick_target")(lambda ctx, st: None)
    renamed.step("say", "text")(lambda ctx, st: None)
    renamed.decision(Target, lambda s, d: [])(lambda *a: None)
    assert any("'add' is gone" in p for p in problems(renamed, manifest))

    @renamed.upcast_step("add", version=2)
    def _add_is_increase(st: Step) -> Step:
        return st | {"op": "increase"}

    assert not any("'add'" in p and "gone" in p for p in problems(renamed, manifest))
    stored = {"decision": None, "pending": [{"op": "add", "n": 1}, {"op": "say", "text": "hi"}], "steps_v": 1}
    assert renamed.upcast_waiting(stored)["pending"] == [
        {"op": "increase", "n": 1},
        {"op": "say", "text": "hi"},
    ]
    assert renamed.upcast_waiting(stored)["steps_v"] == 2


def test_a_decision_shape_change_needs_a_version_and_an_upcaster() -> None:
    old = toy_rules()
    manifest = build(old)
    new = Rules("toy")
    for op, spec in old.steps.items():
        if op != "resume_decision":
            new.step(op, *spec.params)(spec.rule)
    new.decision(Places, lambda s, d: [])(lambda *a: None)
    assert any("'target' v1 changed" in p for p in problems(new, manifest))

    @new.upcast_decision("target", 1)
    def _options_are_places(record: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in record.items() if k != "options"} | {"v": 2, "places": record["options"]}

    assert all("v1 changed" not in p for p in problems(new, manifest))
    record = {"kind": "target", "v": 1, "seat": 0, "options": ["north"]}
    resumed = {"op": "resume_decision", "decision": record}
    up = new.upcast_waiting({"decision": record, "pending": [resumed], "steps_v": 1})
    assert up["decision"] == {"kind": "target", "v": 2, "seat": 0, "places": ["north"]}
    assert up["pending"][0]["decision"]["places"] == ["north"]
    assert new.decision_from_record(up["decision"]) == Places(seat=0, places=["north"])


def test_content_checks(tmp_path: Path) -> None:
    (tmp_path / "cards.toml").write_text(
        '[[card]]\nid = "a"\nsource = "rulebook"\neffects = [{ op = "add", n = 1 }]\n'
        '[[card]]\nid = "b"\nsource = "made up"\neffects = [{ op = "teleport" }]\n',
        encoding="utf-8",
    )
    assert bad_sources(tmp_path) == ["cards.toml:card:b"]
    import tomllib

    data = tomllib.loads((tmp_path / "cards.toml").read_text(encoding="utf-8"))
    assert list(walk_ops(data)) == ["add", "teleport"]
    assert missing_ops(toy_rules(), [data]) == {"teleport"}


@dataclass(frozen=True, kw_only=True)
class Aim(StepDecision):
    """A question about a pending step: its fields are the step's parameters."""

    kind = "aim"
    params = ("hero", "dice")


def test_decisions_are_typed_records_both_ways() -> None:
    """A decision is stored as ``{kind, v, seat(s), fields…}`` and read back equal; a
    question to several seats lists them (the first to answer decides)."""
    several = Target(seat="any", seats=[0, 2], options=["north"])
    assert several.asked == [0, 2] and Target(seat=1, options=[]).asked == [1]
    record = several.to_record()
    assert record == {"kind": "target", "v": 1, "seat": "any", "seats": [0, 2], "options": ["north"]}
    assert Target.from_record(record) == several
    aim = Aim(seat=0, step={"hero": "seer", "dice": 2})
    assert aim.to_record() == {"kind": "aim", "v": 1, "seat": 0, "hero": "seer", "dice": 2}
    assert Aim.from_record(aim.to_record()) == aim and Aim.field_names() == ("hero", "dice")
    rules = toy_rules()
    rules.decision(Aim, lambda s, d: [])(lambda *a: None)
    assert rules.decision_record(aim) == aim.to_record()
    with pytest.raises(FlowSchemaError, match="undeclared fields"):
        rules.decision_record(Aim(seat=0, step={"hero": "seer", "python_attribute": 1}))
