"""Where a game waits, as a fact the log can keep across releases (DESIGN.md, "Saves
outlive releases").

Each command ends with one ``Waiting`` event: the pending decision as a *decision record*
(its kind, the version of that kind's schema and its declared fields) and the rule steps
still to run, written in the game's *published step vocabulary* (the op names and
parameter names its content TOML uses), stamped with that vocabulary's version. Nothing in
it is a Python name: a step op or decision field that is renamed in code keeps old logs
loading through an upcaster registered on the game's ``Rules`` (``upcast_step``,
``upcast_decision``), and the game's flow manifest (``manifest.py``) makes a rename
without one fail the tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

WAITING_EVENT = "Waiting"
WAITING_VERSION = 1
"""Schema version of the ``Waiting`` event's data: ``{decision, pending, steps_v}``."""

ASKED_FIELDS = ("seat", "seats")
"""Fields every decision record may carry: who is asked (one seat, or ``seats`` when
several seats are asked at once and ``seat`` is ``"any"``)."""

Record = dict[str, Any]
StepUpcaster = Callable[[dict[str, Any]], dict[str, Any]]
DecisionUpcaster = Callable[[Record], Record]


@dataclass(frozen=True)
class DecisionSchema:
    """A decision kind's published shape: its fields (besides the asked seats) and the
    version of that shape. Changing the fields means a new version and an upcaster."""

    kind: str
    fields: tuple[str, ...]
    version: int = 1


class FlowSchemaError(ValueError):
    """The rules tried to record something outside their published vocabulary (a bug in
    the rules: the step or decision must be declared, or the manifest updated)."""
