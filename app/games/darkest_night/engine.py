"""Darkest Night on the kernel's stepwise engine (``app.kernel.flow``): its rule registry
and its ``Ctx``. Rules modules register with ``step``, ``applies`` and ``decision`` here;
the agenda, decisions and the record of where the game waits are the kernel's."""

from __future__ import annotations

import random
from typing import Any

from app.games.darkest_night.content import Content, load
from app.games.darkest_night.state import State
from app.kernel.flow import Ctx as FlowCtx
from app.kernel.flow import Rules, Step, refuse
from app.kernel.flow.memo import LazyRandom, published_answers
from app.kernel.types import Event

__all__ = ["RULES", "Ctx", "Step", "applies", "apply", "decision", "refuse", "step"]

RULES = Rules("darkest_night")
step = RULES.step
applies = RULES.applies
decision = RULES.decision


def apply(state: State, event: Event) -> None:
    """Change ``state`` in place by one event (only ever on a private copy)."""
    RULES.apply(state, event)


MEMO_SURVIVES = frozenset(
    {"Waiting", "TurnStepReached", "DiceRolled", "CardDrawn", "CardDiscarded", "DarknessChanged"}
)
"""Events that change neither a hero nor a blight (the agenda and decision, the turn's step,
the last roll, a deck, the darkness): the memo's answers hold across them (``Ctx.memo``).
They are most of a command's events."""


MEMO_KEPT_BY = frozenset({"HeroChanged", "TurnStarted", "TurnEnded", "TurnSkipped", "AutoPassSet"})
"""Events that change a hero, but only a stat of ``events.HERO_STATS`` (grace, secrecy,
sparks, their defaults, the turn's bookkeeping) or the turn and the options, none of
which the memo's answers read (a hero's location, flags, powers and items, who lives, the
blights): the memo holds across them too. They are about a third of the events that
forgot it."""


class Ctx(FlowCtx[State, Content]):
    """One Darkest Night command's work (see ``app.kernel.flow.Ctx``)."""

    memo: dict[Any, Any] | None = None
    """Answers about the state (a hero's lasting modifiers, whether artifacts work): shared
    by the readers of one published state (``app.kernel.flow.memo``); for a command's
    private state, its own (``Ctx.working``), forgotten at every event that changes the state, except those
    of ``memo_survives``; None elsewhere. The answers kept here read only the heroes and
    the blights (``powers.bonus_mods``, ``powers.artifacts_work``, ``powers.dice_bonus``,
    ``stakes.blight_dice_sources``), and the items stored at the Monastery
    (``round.monastery_relics``), which only ``ItemGiven`` changes."""

    memo_survives = MEMO_SURVIVES | MEMO_KEPT_BY

    def __init__(self, state: State, rng: random.Random, content: Content) -> None:
        super().__init__(RULES, state, rng, content)

    @classmethod
    def reader(cls, state: State) -> Ctx:
        """A read-only context for questions asked outside a command (prompts, views)."""
        global _reader
        memo = published_answers(state)
        known = _reader
        if memo is not None and known is not None and known.s is state and known.memo is memo:
            known.rng = LazyRandom()  # type: ignore[assignment]  (as fresh as a new reader's)
            return known  # one reader per published state: it reads, never writes
        ctx = cls(state, LazyRandom(), load())  # type: ignore[arg-type]
        ctx.memo = memo
        if memo is not None:
            _reader = ctx
        return ctx


_reader: Ctx | None = None
"""The reader of the published state read last (kept apart from its memo: the memo holding
its reader would make a reference cycle, and every state read would wait for the garbage
collector)."""
