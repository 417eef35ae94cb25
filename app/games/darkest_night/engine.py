"""The rules interpreter: steps, decisions and the events that record them.

``decide`` works on a private copy of the state inside a ``Ctx``. Rules ``emit`` events,
each applied at once (so later rules see its effect) and recorded. What the rules still
have to do is an *agenda* of steps (small dicts: ``{"op": "lose_secrecy", "hero": "seer",
"n": 1}``, the same vocabulary card effects are written in); when a rule needs a player's
choice it sets a *decision* and the run stops. The last event of every command,
``FlowSet``, records the remaining agenda and the decision, so replaying the log rebuilds
exactly where the game waits.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from app.games.darkest_night.content import Content
from app.games.darkest_night.state import State
from app.kernel.types import Choice, Event, RuleError, Unavailable

Step = dict[str, Any]
StepRule = Callable[["Ctx", Step], None]
Applier = Callable[[State, dict[str, Any]], None]

STEPS: dict[str, StepRule] = {}
APPLIERS: dict[str, Applier] = {}
DECISIONS: dict[str, DecisionRule] = {}
MAX_STEPS_PER_COMMAND = 20_000


def step(name: str) -> Callable[[StepRule], StepRule]:
    """Register a step rule (also usable as a card effect ``op``)."""

    def register(fn: StepRule) -> StepRule:
        if name in STEPS:
            raise ValueError(f"step {name} registered twice")
        STEPS[name] = fn
        return fn

    return register


def applies(*types: str) -> Callable[[Applier], Applier]:
    """Register how an event type changes the state."""

    def register(fn: Applier) -> Applier:
        for t in types:
            APPLIERS[t] = fn
        return fn

    return register


@dataclass(frozen=True)
class DecisionRule:
    """How a kind of decision lists its choices and resolves the one taken."""

    choices: Callable[[State, dict[str, Any]], list[Choice]]
    resolve: Callable[[Ctx, dict[str, Any], str, dict[str, Any]], None]
    unavailable: Callable[[State, dict[str, Any]], list[Unavailable]] | None = None


def decision(
    name: str,
    choices: Callable[..., list[Choice]],
    *,
    unavailable: Callable[..., list[Unavailable]] | None = None,
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register a decision kind: ``choices(state, d)`` and the decorated resolver
    ``resolve(ctx, d, command_type, args)``."""

    def register(resolve: Callable[..., None]) -> Callable[..., None]:
        DECISIONS[name] = DecisionRule(choices, resolve, unavailable)
        return resolve

    return register


def apply(state: State, event: Event) -> None:
    """Change ``state`` in place by one event (only ever on a private copy)."""
    applier = APPLIERS.get(event.type)
    if applier is not None:
        applier(state, event.data)


@applies("FlowSet")
def _flow_set(s: State, d: dict[str, Any]) -> None:
    s.agenda = [dict(x) for x in d["agenda"]]
    s.decision = dict(d["decision"]) if d["decision"] is not None else None


class Ctx:
    """One command's work: the private state, the rng for this command, the events."""

    def __init__(self, state: State, rng: random.Random, content: Content) -> None:
        self.s = state
        self.rng = rng
        self.c = content
        self.events: list[Event] = []

    @classmethod
    def reader(cls, state: State) -> Ctx:
        """A read-only context for questions asked outside a command (prompts, views)."""
        from app.games.darkest_night.content import load

        return cls(state, random.Random(0), load())

    def emit(self, type_: str, **data: Any) -> None:
        event = Event(type_, data)
        apply(self.s, event)
        self.events.append(event)

    # -- the agenda -------------------------------------------------------------------

    def then(self, steps: Iterable[Step], **defaults: Any) -> None:
        """Do ``steps`` next, before anything already on the agenda (depth first)."""
        prepared = [defaults | dict(x) for x in steps]
        self.s.agenda[0:0] = prepared

    def later(self, steps: Iterable[Step], **defaults: Any) -> None:
        """Do ``steps`` after everything already on the agenda."""
        self.s.agenda.extend(defaults | dict(x) for x in steps)

    def ask(self, kind: str, seat: int | str, **data: Any) -> None:
        """Wait for ``seat`` to decide (the run stops here)."""
        self.s.decision = {"kind": kind, "seat": seat, **data}

    def run(self, schedule: Callable[[Ctx], None], after_step: Callable[[Ctx], None] | None = None) -> None:
        """Run steps until a decision is needed or the game is over."""
        s = self.s
        for _ in range(MAX_STEPS_PER_COMMAND):
            if after_step is not None:
                after_step(self)
            if s.decision is not None or s.result is not None:
                return
            if not s.agenda:
                schedule(self)
                continue
            current = s.agenda.pop(0)
            rule = STEPS.get(current["op"])
            if rule is None:
                raise KeyError(f"no rule for step {current['op']!r}")
            rule(self, current)
        raise RuntimeError("the rules ran too long without a decision")

    def finish(self) -> list[Event]:
        """Record where the game now waits, and return the command's events."""
        self.emit("FlowSet", agenda=[dict(x) for x in self.s.agenda], decision=self.s.decision)
        return self.events


def refuse(code: str, message: str, *, status: int = 422) -> RuleError:
    return RuleError(code, message, status=status)
