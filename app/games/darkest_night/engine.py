"""Darkest Night on the kernel's stepwise engine (``app.kernel.flow``): its rule registry
and its ``Ctx``. Rules modules register with ``step``, ``applies`` and ``decision`` here;
the agenda, decisions and the record of where the game waits are the kernel's."""

from __future__ import annotations

import random

from app.games.darkest_night.content import Content
from app.games.darkest_night.state import State
from app.kernel.flow import Ctx as FlowCtx
from app.kernel.flow import Rules, Step, refuse
from app.kernel.types import Event

__all__ = ["RULES", "Ctx", "Step", "applies", "apply", "decision", "refuse", "step"]

RULES = Rules("darkest_night")
step = RULES.step
applies = RULES.applies
decision = RULES.decision


def apply(state: State, event: Event) -> None:
    """Change ``state`` in place by one event (only ever on a private copy)."""
    RULES.apply(state, event)


class Ctx(FlowCtx[State, Content]):
    """One Darkest Night command's work (see ``app.kernel.flow.Ctx``)."""

    def __init__(self, state: State, rng: random.Random, content: Content) -> None:
        super().__init__(RULES, state, rng, content)

    @classmethod
    def reader(cls, state: State) -> Ctx:
        """A read-only context for questions asked outside a command (prompts, views)."""
        from app.games.darkest_night.content import load

        return cls(state, _ReaderRandom(), load())  # type: ignore[arg-type]


class _ReaderRandom:
    """A reader's ``random.Random(0)``, made only if a question ever draws from it: seeding
    one for each of the many questions asked per command cost more than the questions."""

    __slots__ = ("_rng",)

    def __getattr__(self, name: str) -> object:
        try:
            rng = object.__getattribute__(self, "_rng")
        except AttributeError:
            rng = random.Random(0)
            object.__setattr__(self, "_rng", rng)
        return getattr(rng, name)
