"""A game's rule registry: its steps, its event appliers, its decision kinds and its
"any time" windows (see README.md in this package).

Registries are per game: two games may both have a step called ``move`` or a decision
called ``choose_target``, so nothing here is global. A game makes one ``Rules`` object and
registers with its decorators::

    rules = Rules("darkest_night")

    @rules.step("lose_secrecy", "hero", "n", "why")
    def lose_secrecy(ctx, st): ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.kernel.flow.decisions import Decision
from app.kernel.flow.records import (
    ASKED_FIELDS,
    WAITING_EVENT,
    WAITING_VERSION,
    DecisionSchema,
    DecisionUpcaster,
    FlowSchemaError,
    Record,
    StepUpcaster,
)
from app.kernel.types import Choice, Event, Unavailable

if TYPE_CHECKING:
    from app.kernel.flow.ctx import Ctx

Step = dict[str, Any]
"""One step on the agenda: ``{"op": "lose_secrecy", "hero": "seer", "n": 1}``. The op names
and parameter names are the game's published step vocabulary (the same words its content
TOML is written in), so a pending step can be stored in the log and read back later."""

StepRule = Callable[["Ctx[Any, Any]", Step], None]
Applier = Callable[[Any, dict[str, Any]], None]


@dataclass(frozen=True)
class StepSpec:
    """A registered step: its rule and the parameter names it reads (besides ``op``)."""

    op: str
    rule: StepRule
    params: tuple[str, ...]


@dataclass(frozen=True)
class DecisionRule:
    """How a kind of decision lists its choices and resolves the one taken.

    ``choices(state, decision)``; ``resolve(ctx, decision, command_type, args)``;
    ``unavailable(state, decision)`` lists standard commands that are not allowed now (with
    the rule that forbids them), so a refusal can name the rule; ``seat_choices(state,
    decision, seat)``, for a question asking several seats at once, lists one seat's
    choices as that seat sends them (cheaper than everyone's, filtered)."""

    kind: str
    schema: DecisionSchema
    choices: Callable[[Any, Any], list[Choice]]
    resolve: Callable[[Any, Any, str, dict[str, Any]], None]
    unavailable: Callable[[Any, Any], list[Unavailable]] | None = None
    seat_choices: Callable[[Any, Any, Any], list[Choice]] | None = None


@dataclass(frozen=True)
class Window:
    """An "any time" window: commands a seat may send while the table waits on another
    decision (an item given during someone's combat, a defence card in another's turn).

    ``choices(state, seat)`` lists what ``seat`` may do in the window now (empty when the
    window is shut); ``resolve(ctx, seat, command_type, args)`` does it. The engine sets
    the interrupted decision aside, runs the interruption, and asks it again afterwards
    (``Ctx.interrupt``) — unless ``sets_aside`` is False: then the command is done beside
    the pending decision, which stays as it is (Dark Omen's free actions of a seat done
    with the round), or the resolver replaces it (a game master's restart).

    ``closed`` is (code, rule) for a refused command of the window, when its rule says
    more than the kernel's list of what the seat may do ("a Samurai's, once per dungeon
    (AtD L313)"); None lets the kernel say it."""

    name: str
    commands: frozenset[str]
    choices: Callable[[Any, Any], list[Choice]]
    resolve: Callable[[Any, Any, str, dict[str, Any]], None]
    title: str = "At any time"
    sets_aside: bool = True
    closed: tuple[str, str] | None = None


NESTING = (dict, list, tuple)
SEQUENCES = (list, tuple)
"""The containers a step's parameters may nest steps in (tuples: ``isinstance`` with a
``X | Y`` union builds the union at every call, and steps are checked every command)."""

RECORDED_STEPS = 4096
"""How many valid steps ``Rules.step_record`` remembers (then it starts again)."""

RESUME_OP = "resume_decision"
"""The step the kernel schedules after an interruption to ask the set-aside decision again."""


def _resume_decision(ctx: Ctx[Any, Any], st: Step) -> None:
    """Back to the decision an "any time" command interrupted (its record is a step
    parameter, so an interruption that itself waits keeps it in the log)."""
    if st["decision"] is not None:
        ctx.s.decision = ctx.rules.decision_from_record(st["decision"])


class Rules:
    """Everything one game registers with the stepwise engine."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.steps: dict[str, StepSpec] = {}
        self.appliers: dict[str, Applier] = {}
        self.copy_on_write: set[str] = set()
        """Event types whose applier asks for each part before changing it (see ``applies``)."""
        self.decisions: dict[str, DecisionRule] = {}
        self.windows: dict[str, Window] = {}
        self.decision_types: dict[str, type[Decision]] = {}
        self._decoded: tuple[Record, Decision] | None = None
        self._checked_shapes: set[tuple[Any, ...]] = set()
        """Step shapes (parameter names in order, ``op`` among them) found valid."""
        self._checked_records: set[tuple[Any, ...]] = set()
        """Record shapes of kinds writing their own records (the kind, then the record's
        fields in order) found to hold only declared fields."""
        self._recorded: dict[int, Step] = {}
        """Steps found valid, by identity (each kept, so its id is not reused while it is
        here): a pending step is recorded again with every command until it runs, and a
        step is never changed in place (``step_record``)."""
        self.versions: dict[str, int] = {}
        """The schema version each event type is written at (``Ctx.emit`` stamps it)."""
        self.steps_version = 1
        """The version of the published step vocabulary (raised with each step upcaster)."""
        self.step_upcasters: dict[str, tuple[int, StepUpcaster]] = {}
        self.decision_upcasters: dict[tuple[str, int], DecisionUpcaster] = {}
        self.step(RESUME_OP, "decision")(_resume_decision)
        self.applies(WAITING_EVENT, version=WAITING_VERSION, copy_on_write=True)(self._apply_waiting)

    # -- registering -----------------------------------------------------------------------

    def step(self, op: str, *params: str) -> Callable[[StepRule], StepRule]:
        """Register a step rule under ``op`` (also usable as a content effect), reading
        ``params`` from its step dict. The op and params are published in the game's flow
        manifest: renaming one needs an upcaster for stored games."""

        def register(fn: StepRule) -> StepRule:
            if op in self.steps:
                raise ValueError(f"{self.game}: step {op} registered twice")
            self.steps[op] = StepSpec(op, fn, tuple(params))
            return fn

        return register

    def applies(
        self, *types: str, version: int = 1, copy_on_write: bool = False
    ) -> Callable[[Applier], Applier]:
        """Register how events of ``types`` change the state (the fold); ``version`` is
        the schema version of their data that the rules write today.

        A game whose state is copied on write (its successor shares parts with the state it
        came from until they are written) registers with ``copy_on_write=True`` the appliers
        that ask the state for each part before changing it. Before any other applier runs,
        the state's ``own_all()`` (if it has one) makes every part private, so an applier
        that changes parts in place without asking stays correct, only slower."""

        def register(fn: Applier) -> Applier:
            for t in types:
                if t in self.appliers:
                    raise ValueError(f"{self.game}: event {t} has two appliers")
                self.appliers[t] = fn
                self.versions[t] = version
                if copy_on_write:
                    self.copy_on_write.add(t)
            return fn

        return register

    def decision(
        self,
        decision_type: type[Decision],
        choices: Callable[..., list[Choice]],
        *,
        unavailable: Callable[..., list[Unavailable]] | None = None,
        seat_choices: Callable[..., list[Choice]] | None = None,
    ) -> Callable[[Callable[..., None]], Callable[..., None]]:
        """Register a kind of decision (a ``Decision`` dataclass): ``choices(state, d)``
        and the decorated resolver ``resolve(ctx, d, command_type, args)`` (``unavailable``
        and ``seat_choices``: see ``DecisionRule``). The class's kind, fields and version
        are its published record shape."""

        def register(resolve: Callable[..., None]) -> Callable[..., None]:
            kind = decision_type.kind
            if not kind or kind in self.decisions:
                raise ValueError(f"{self.game}: decision {kind!r} unnamed or registered twice")
            schema = DecisionSchema(kind, decision_type.field_names(), decision_type.version)
            self.decisions[kind] = DecisionRule(kind, schema, choices, resolve, unavailable, seat_choices)
            self.decision_types[kind] = decision_type
            return resolve

        return register

    def window(
        self,
        name: str,
        commands: Iterable[str],
        choices: Callable[[Any, Any], list[Choice]],
        resolve: Callable[[Any, Any, str, dict[str, Any]], None],
        *,
        title: str = "At any time",
        sets_aside: bool = True,
        closed: tuple[str, str] | None = None,
    ) -> Window:
        """Declare an "any time" window (see ``Window``)."""
        if name in self.windows:
            raise ValueError(f"{self.game}: window {name} declared twice")
        window = Window(name, frozenset(commands), choices, resolve, title, sets_aside, closed)
        self.windows[name] = window
        return window

    # -- using -------------------------------------------------------------------------------

    def apply(self, state: Any, event: Event) -> None:
        """Change ``state`` in place by one event (only ever on a private copy, or a
        copy-on-write successor: see ``applies``)."""
        applier = self.appliers.get(event.type)
        if applier is not None:
            if event.type not in self.copy_on_write:
                own_all = getattr(state, "own_all", None)
                if own_all is not None:
                    own_all()
            applier(state, event.data)

    def rule_for(self, op: str) -> StepRule:
        spec = self.steps.get(op)
        if spec is None:
            raise KeyError(f"{self.game}: no rule for step {op!r}")
        return spec.rule

    # -- the record of where the game waits (records.py) ------------------------------------

    def decision_record(self, decision: Decision | None) -> Record | None:
        """The pending decision as the log stores it: ``{kind, v, seat(s), fields…}``.
        Refuses a kind not registered or a field it does not declare (``FlowSchemaError``)."""
        if decision is None:
            return None
        last = self._decoded
        if last is not None and last[1] is decision:  # recorded (or read) just now: the same record
            return last[0]
        rule = self.decisions.get(decision.kind)
        if rule is None or self.decision_types[decision.kind] is not type(decision):
            raise FlowSchemaError(f"{self.game}: no decision kind {decision.kind!r}")
        record = decision.to_record()
        kind = type(decision)
        if kind.to_record is not Decision.to_record or kind.fields_record is not Decision.fields_record:
            # A kind writing its own record (a step decision: its step's parameters) may hold
            # more than it declares; the plain record is exactly the declared fields. A shape
            # (the kind and the record's fields, in order) found valid once passes again.
            shape = (decision.kind, *record)
            if shape not in self._checked_records:
                extra = sorted(set(record) - {"kind", "v", *ASKED_FIELDS, *rule.schema.fields})
                if extra:
                    raise FlowSchemaError(
                        f"{self.game}: decision {decision.kind} has undeclared fields {extra}"
                    )
                self._checked_records.add(shape)
        self._decoded = (record, decision)
        return record

    def decision_from_record(self, record: Record) -> Decision:
        """The decision a (current-version) record stands for. The record just written
        (or read) is remembered by identity, so folding the ``Waiting`` event a command
        has just emitted does not rebuild the dataclass it came from."""
        last = self._decoded
        if last is not None and last[0] is record:
            return last[1]
        decision = self.decision_types[record["kind"]].from_record(record)
        self._decoded = (record, decision)
        return decision

    def step_record(self, st: Step) -> Step:
        """A pending step as the log stores it: checked against the published vocabulary
        (nested steps too, and a set-aside decision as its record). The step itself, not
        a copy: a step is never changed in place once made (``Ctx.then`` and ``later``
        make new ones), so the agenda, the record and the states folded from it share it."""
        if self._recorded.get(id(st)) is st:  # this very step was found valid before
            return st
        op = st.get("op")
        # The op and the parameter names, in order: a shape found valid once passes again.
        shape = (op, *st) if isinstance(op, str) else None
        if shape is None or shape not in self._checked_shapes:
            spec = self.steps.get(op) if isinstance(op, str) else None
            if spec is None:
                raise FlowSchemaError(f"{self.game}: no step {op!r}")
            extra = sorted(set(st) - {"op", *spec.params})
            if extra:
                raise FlowSchemaError(f"{self.game}: step {op} has undeclared parameters {extra}")
            self._checked_shapes.add(shape)  # type: ignore[arg-type]  (None raised above)
        for value in st.values():
            if isinstance(value, NESTING):
                self._check_nested(value)
        if len(self._recorded) >= RECORDED_STEPS:
            self._recorded.clear()
        self._recorded[id(st)] = st
        return st

    def _check_nested(self, value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("op"), str):
                self.step_record(value)
            else:
                for inner in value.values():
                    self._check_nested(inner)
        elif isinstance(value, SEQUENCES):
            for inner in value:
                self._check_nested(inner)

    def waiting_event(self, state: Any) -> tuple[str, dict[str, Any]]:
        """The fact that records where the game waits: the pending decision's record and
        the pending steps, in the published vocabulary of ``steps_version``."""
        recorded = self._recorded  # ``step_record``'s first test, inlined: most steps pass it
        return WAITING_EVENT, {
            "decision": self.decision_record(state.decision),
            "pending": [x if recorded.get(id(x)) is x else self.step_record(x) for x in state.agenda],
            "steps_v": self.steps_version,
        }

    def _apply_waiting(self, state: Any, d: dict[str, Any]) -> None:
        state.agenda = list(d["pending"])  # a new list of the (never changed) steps
        state.decision = self.decision_from_record(d["decision"]) if d["decision"] is not None else None

    # -- upcasting stored records -------------------------------------------------------------

    def upcast_step(self, old_op: str, version: int) -> Callable[[StepUpcaster], StepUpcaster]:
        """Register how a step stored under ``old_op`` (in a vocabulary older than
        ``version``) reads today: a renamed op or parameter. Raises ``steps_version``."""

        def register(fn: StepUpcaster) -> StepUpcaster:
            self.step_upcasters[old_op] = (version, fn)
            self.steps_version = max(self.steps_version, version)
            return fn

        return register

    def upcast_decision(self, kind: str, from_version: int) -> Callable[[DecisionUpcaster], DecisionUpcaster]:
        """Register how a record of ``kind`` at ``from_version`` becomes the next version's
        (it may also rename the kind)."""

        def register(fn: DecisionUpcaster) -> DecisionUpcaster:
            self.decision_upcasters[(kind, from_version)] = fn
            return fn

        return register

    def upcast_waiting(self, data: dict[str, Any]) -> dict[str, Any]:
        """A stored ``Waiting`` record brought up to today's vocabulary and schemas."""
        stored_v = int(data.get("steps_v", 1))
        record = data.get("decision")
        if stored_v == self.steps_version and not self._decision_stale(record):
            return data
        return {
            "decision": self._upcast_record(record, stored_v),
            "pending": [self._upcast_step(x, stored_v) for x in data.get("pending", ())],
            "steps_v": self.steps_version,
        }

    def _decision_stale(self, record: Record | None) -> bool:
        if record is None:
            return False
        rule = self.decisions.get(record.get("kind", ""))
        return rule is None or record.get("v") != rule.schema.version

    def _upcast_record(self, record: Record | None, stored_v: int) -> Record | None:
        if record is None:
            return None
        record = dict(record)
        for _ in range(100):
            fn = self.decision_upcasters.get((record.get("kind", ""), int(record.get("v", 1))))
            if fn is None:
                break
            record = fn(record)
        return {k: self._upcast_value(v, stored_v) for k, v in record.items()}

    def _upcast_step(self, st: Step, stored_v: int) -> Step:
        for _ in range(100):
            found = self.step_upcasters.get(st.get("op", ""))
            if found is None or stored_v >= found[0]:
                break
            st = found[1](dict(st))
        if st.get("op") == RESUME_OP and st.get("decision") is not None:
            return st | {"decision": self._upcast_record(st["decision"], stored_v)}
        return {k: self._upcast_value(v, stored_v) for k, v in st.items()}

    def _upcast_value(self, value: Any, stored_v: int) -> Any:
        if isinstance(value, dict):
            if isinstance(value.get("op"), str):
                return self._upcast_step(value, stored_v)
            return {k: self._upcast_value(v, stored_v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._upcast_value(v, stored_v) for v in value]
        return value

    def upcast(self, event: Event) -> Event:
        """The kernel's part of a game's ``upcast``: the ``Waiting`` record."""
        if event.type == WAITING_EVENT:
            data = self.upcast_waiting(event.data)
            if data is not event.data:
                return Event(event.type, data, WAITING_VERSION)
        return event

    def window_for(self, command_type: str) -> Window | None:
        """The window whose commands include ``command_type``, if any."""
        for window in self.windows.values():
            if command_type in window.commands:
                return window
        return None
