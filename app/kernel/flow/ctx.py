"""One command's work in the stepwise engine: the private state, the rng, the events.

``decide`` runs on a private copy of the state inside a ``Ctx``. Rules ``emit`` events,
each applied at once (so later rules see its effect) and recorded. What the rules still
have to do is the *agenda* (a list of steps in the game's published vocabulary); when a
rule needs a player's choice it ``ask``s a decision and the run stops. ``finish`` records
where the game now waits as the command's last event, so replaying the log rebuilds it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, Generic, Protocol, TypeVar

from app.kernel.flow.decisions import Decision
from app.kernel.flow.rules import RESUME_OP, Rules, Step, Window
from app.kernel.types import Event, RuleError

MAX_STEPS_PER_COMMAND = 20_000


class FlowState(Protocol):
    """What the engine needs of a game's state: its agenda, its pending decision and
    whether the game is over."""

    agenda: list[Step]
    decision: Decision | None
    result: Any


S = TypeVar("S", bound=FlowState)
C = TypeVar("C")


class Ctx(Generic[S, C]):
    """One command's work: the game's ``rules``, its private ``state`` (``s``), the ``rng``
    for this command, its ``content`` (``c``) and the events emitted so far."""

    memo: dict[Any, Any] | None = None
    """Answers the rules worked out about the state, if the game keeps any (None: it keeps
    none). Only events change the state, so ``emit`` forgets them all (unless the event
    changes nothing, or is one of ``memo_survives``)."""

    memo_survives: frozenset[str] = frozenset()
    """Event types whose appliers change nothing the game's memo'd answers read (the game
    says which): emitting one keeps the memo."""

    def __init__(self, rules: Rules, state: S, rng: random.Random, content: C) -> None:
        self.rules = rules
        self.s = state
        self.rng = rng
        self.c = content
        self.events: list[Event] = []
        self.changes = 0
        """How many of the events changed the state (had an applier): an answer read from
        the state holds while this stays the same."""

    def working(self) -> Ctx[S, C]:
        """Give this command a memo of answers about its private state, valid until the
        next event that changes what they read: only events change a state, so an answer
        worked out since then still holds (``emit`` forgets them, but for the events of
        ``memo_survives``). For a game whose rules ask the same questions many times per
        step (``app.kernel.flow.memo``)."""
        self.memo = {}
        return self

    def knowing(self, known: dict[Any, Any] | None) -> Ctx[S, C]:
        """Start a working memo from ``known``, answers about the published state this
        command's state was made from: it equals that state until its first event, which
        forgets them here (a copy: they stay true there)."""
        if self.memo is not None and known:
            self.memo.update(known)
        return self

    def emit(self, type_: str, **data: Any) -> None:
        """Record a fact and apply it to the private state at once."""
        rules = self.rules
        event = Event(type_, data, rules.versions.get(type_, 1))
        applier = rules.appliers.get(type_)  # ``rules.apply``, inlined: several per command
        if applier is not None:
            if type_ not in rules.copy_on_write:
                own_all = getattr(self.s, "own_all", None)
                if own_all is not None:
                    own_all()
            applier(self.s, data)
            self.changes += 1
            if self.memo and type_ not in self.memo_survives:
                self.memo.clear()  # the state changed: an answer about it may not hold any more
        self.events.append(event)

    # -- the agenda ------------------------------------------------------------------------

    def then(self, steps: Iterable[Step], **defaults: Any) -> None:
        """Do ``steps`` next, before anything already on the agenda (depth first)."""
        prepared = [defaults | dict(x) for x in steps] if defaults else list(map(dict, steps))
        self.s.agenda[0:0] = prepared

    def later(self, steps: Iterable[Step], **defaults: Any) -> None:
        """Do ``steps`` after everything already on the agenda."""
        self.s.agenda.extend(defaults | dict(x) for x in steps)

    def ask(self, decision: Decision) -> None:
        """Wait for the seat(s) the decision names (the run stops here)."""
        self.s.decision = decision

    def run(self, schedule: Callable[[Any], None], after_step: Callable[[Any], None] | None = None) -> None:
        """Run steps until a decision is needed or the game is over; ``schedule`` refills
        an empty agenda (the game's round structure), ``after_step`` runs before every
        step (e.g. a victory check)."""
        s = self.s
        steps = self.rules.steps
        for _ in range(MAX_STEPS_PER_COMMAND):
            if after_step is not None:
                after_step(self)
            if s.decision is not None or s.result is not None:
                return
            if not s.agenda:
                schedule(self)
                continue
            current = s.agenda.pop(0)
            spec = steps.get(current["op"])
            rule = spec.rule if spec is not None else self.rules.rule_for(current["op"])  # raises
            rule(self, current)
        raise RuntimeError("the rules ran too long without a decision")

    # -- interruptions ("any time" windows) --------------------------------------------------

    def interrupt(self, window: Window, seat: Any, command_type: str, args: dict[str, Any]) -> None:
        """Take a command sent in an "any time" window: set the pending decision and the
        agenda aside, resolve the command (which may schedule steps and even ask its own
        decisions), then ask the set-aside decision again and carry on with the agenda. A
        window that does not set the decision aside (``Window.sets_aside``) just resolves."""
        if not window.sets_aside:
            window.resolve(self, seat, command_type, args)
            return
        saved, agenda = self.s.decision, self.s.agenda
        self.s.decision, self.s.agenda = None, []
        window.resolve(self, seat, command_type, args)
        resume: Step = {"op": RESUME_OP, "decision": self.rules.decision_record(saved)}
        self.s.agenda = [*self.s.agenda, resume, *agenda]

    def resolve(self, command_type: str, args: dict[str, Any]) -> None:
        """Resolve the pending decision with a command already checked to be one of its
        choices."""
        d = self.s.decision
        if d is None:
            raise RuleError("nothing_to_decide", "the table is not waiting for a decision")
        self.s.decision = None
        self.rules.decisions[d.kind].resolve(self, d, command_type, dict(args))

    def finish(self) -> list[Event]:
        """Record where the game now waits, and return the command's events."""
        type_, data = self.rules.waiting_event(self.s)
        self.emit(type_, **data)
        return self.events
