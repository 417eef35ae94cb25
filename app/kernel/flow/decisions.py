"""Typed decisions: one frozen dataclass per kind of question a game's rules ask.

A decision names the seat(s) asked and carries what the choices and the resolver need.
It is stored in the log as a *record* (``to_record``): its kind, its schema version, the
seats asked and its fields by their published names, so a stored game waiting on it
loads again after any later release (``Rules.upcast_decision`` for a changed shape).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, TypeVar

from app.kernel.flow.records import Record
from app.kernel.types import Seat

ASKED = ("seat", "seats")


@cache
def published_fields(kind: type) -> tuple[str, ...]:
    """A decision class's fields besides the seats asked (a class never changes: once each,
    as the record of where the game waits is written after every command)."""
    return tuple(f.name for f in dataclasses.fields(kind) if f.name not in ASKED)


D = TypeVar("D", bound="Decision")


@dataclass(frozen=True, kw_only=True)
class Decision:
    """A pending question. ``seat`` is the seat asked; when several seats are asked at
    once ``seats`` lists them and ``seat`` is ``"any"`` (``first_answer_decides`` says
    whether one answer settles it for all)."""

    kind: ClassVar[str] = ""
    """The published name of this kind of decision (the record's ``kind``)."""
    version: ClassVar[int] = 1
    """The version of this kind's record shape (raise it, and add an upcaster, on a change)."""
    first_answer_decides: ClassVar[bool] = False
    """Asked of several seats at once, is the first answer the question's answer for them
    all (who takes the next turn, DN 6.0)? If not, each asked seat answers for itself, the
    rules asking again the seats left (simultaneous action points, an initiative cut): the
    table waits for each. Its prompts say so (``Prompt.any_one``)."""
    refusals: ClassVar[dict[str, str]] = {}
    """The rule a command of a type this question did not offer breaks, by command type
    ("a move ends on an open square within speed (AtD L80)"): a refusal's words, known
    from the type alone (``FlowGame.rule_refusal``)."""

    seat: Seat
    seats: list[Seat] | None = None

    @property
    def asked(self) -> list[Seat]:
        """Every seat that may answer."""
        return list(self.seats) if self.seats else [self.seat]

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The published fields besides the seats asked."""
        return published_fields(cls)

    def fields_record(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.field_names()}

    def to_record(self) -> Record:
        """``{kind, v, seat, [seats], fields…}``: what the log stores."""
        record: Record = {"kind": self.kind, "v": self.version, "seat": self.seat}
        if self.seats is not None:
            record["seats"] = list(self.seats)
        record.update(self.fields_record())  # one dict, filled in order (written every command)
        return record

    def as_dict(self) -> dict[str, Any]:
        """The question in full, as the game master's view shows it (the record without
        its version)."""
        return {k: v for k, v in self.to_record().items() if k != "v"}

    @classmethod
    def from_record(cls: type[D], record: Record) -> D:
        """The decision a record of the current version stands for."""
        values = {k: v for k, v in record.items() if k not in ("kind", "v")}
        return cls(**values)

    def replace(self: D, **changes: Any) -> D:
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True, kw_only=True)
class StepDecision(Decision):
    """A decision about a pending rule step, whose fields are that step's parameters in the
    published step vocabulary (e.g. a roll about to be rolled: who rolls, for what, how many
    dice). ``params`` lists them; the record holds them flat, like the step."""

    params: ClassVar[tuple[str, ...]] = ()
    step: dict[str, Any]

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return cls.params

    def fields_record(self) -> dict[str, Any]:
        return dict(self.step)

    @classmethod
    def from_record(cls: type[D], record: Record) -> D:
        asked = {k: record[k] for k in ASKED if k in record}
        step = {k: v for k, v in record.items() if k not in ("kind", "v", *ASKED)}
        return cls(**asked, step=step)
