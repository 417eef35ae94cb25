"""Darkest Night on the kernel's stepwise engine (``app.kernel.flow``): its rule registry
and its ``Ctx``. Rules modules register with ``step``, ``applies`` and ``decision`` here;
the agenda, decisions and the record of where the game waits are the kernel's."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.games.darkest_night.content import Content, load
from app.games.darkest_night.state import State
from app.kernel.flow import Ctx as FlowCtx
from app.kernel.flow import Rules, Step, refuse
from app.kernel.types import Choice, Event, LazyChoice

__all__ = [
    "RULES",
    "Ctx",
    "Step",
    "applies",
    "apply",
    "decision",
    "explained",
    "hand_on",
    "known_answers",
    "listed",
    "published_answers",
    "published_memo",
    "reading",
    "refuse",
    "step",
]

RULES = Rules("darkest_night")
step = RULES.step
applies = RULES.applies
decision = RULES.decision


def apply(state: State, event: Event) -> None:
    """Change ``state`` in place by one event (only ever on a private copy)."""
    RULES.apply(state, event)


_read_only: State | None = None
"""The published state whose prompts are being listed now (see ``reading``)."""
_memo: tuple[State, dict[Any, Any], dict[Any, Any]] | None = None
"""What is already worked out for the last published state read: the answers about its
whole state (a published state's choices, ``published_memo``) and those that read only
its heroes and blights (the readers' memo, ``published_answers``), kept apart so a command
can start from the latter (``known_answers``)."""


class reading:  # noqa: N801  (used as a function: ``with reading(state):``)
    """Mark ``state`` as a published state being read (prompts, a command's check): a
    published state never changes, so the readers made for it share a memo of answers that
    are asked again and again (a hero's lasting modifiers, whether artifacts work). A
    command's private state changes step by step: its readers get no memo.

    A class rather than a ``contextmanager`` generator: it is entered twice per command."""

    __slots__ = ("state", "outer")

    def __init__(self, state: State) -> None:
        self.state = state
        self.outer: State | None = None

    def __enter__(self) -> None:
        global _read_only, _memo
        self.outer = _read_only
        _read_only = self.state
        if _memo is None or _memo[0] is not self.state:
            _memo = (self.state, {}, {})

    def __exit__(self, *_: object) -> None:
        global _read_only
        _read_only = self.outer


def published_memo(state: State) -> dict[Any, Any] | None:
    """The memo of answers about ``state`` if it is a published state being read now
    (``reading``), else None: a command's private state changes, so nothing is kept."""
    memo = _memo  # one read: the memo is only ever used for the state it was made for
    if state is _read_only and memo is not None and memo[0] is state:
        return memo[1]
    return None


def published_answers(state: State) -> dict[Any, Any] | None:
    """The readers' memo of ``state`` (answers that read only its heroes and blights: see
    ``Ctx.memo``) if it is a published state being read now, else None."""
    memo = _memo
    if state is _read_only and memo is not None and memo[0] is state:
        return memo[2]
    return None


def listed(state: State, key: Any) -> Any:
    """What the published ``state``'s memo already holds under ``key`` (e.g. a seat's
    choices, listed by its prompts), else None: the memo is only ever made for a published
    state, which never changes, so an answer in it holds whether or not it is being read."""
    memo = _memo
    if memo is not None and memo[0] is state:
        return memo[1].get(key)
    return None


def known_answers(state: State) -> dict[Any, Any] | None:
    """The answers about the heroes and blights of the published ``state`` worked out so
    far (while its prompts were listed, or by the command that made it), if any."""
    memo = _memo
    if memo is not None and memo[0] is state:
        return memo[2]
    return None


def hand_on(state: State, answers: dict[Any, Any]) -> None:
    """``state`` is published as a command left it, and ``answers`` (its memo) were worked
    out on it since its last event that could change a hero or a blight: they hold for it,
    and its readers start from them."""
    global _memo
    _memo = (state, {}, answers)


def explained(state: State, kind: str, args: dict[str, Any], label: str, detail: Callable[[], str]) -> Choice:
    """A choice about ``state`` whose ``detail`` (odds, dice and their sources) is worked
    out by ``detail()`` when first read if ``state`` is a published state being read (it
    never changes: ``LazyChoice``), at once if it is a command's private state (which the
    next event changes)."""
    if state is _read_only:
        return LazyChoice(kind, args, label, detail)
    return Choice(kind, args, label, detail())


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
    by the readers of one published state (``reading``); for a command's private state,
    its own (``working``), forgotten at every event that changes the state, except those
    of ``memo_survives``; None elsewhere. The answers kept here read only the heroes and
    the blights (``powers.bonus_mods``, ``powers.artifacts_work``, ``powers.dice_bonus``,
    ``stakes.blight_dice_sources``), and the items stored at the Monastery
    (``round.monastery_relics``), which only ``ItemGiven`` changes."""

    memo_survives = MEMO_SURVIVES | MEMO_KEPT_BY

    any_time_offer: tuple[int, list[Choice]] | None = None
    """(seat, what it may do at any time) in the published state this command's state was
    forked from, if the command is an "any time" one (``DarkestNight.decide``): what
    ``any_time.resolve_anytime`` would list again on the fork, which equals that state but for
    the pending decision and agenda set aside, neither of which the list reads."""

    def __init__(self, state: State, rng: random.Random, content: Content) -> None:
        super().__init__(RULES, state, rng, content)

    def working(self) -> Ctx:
        """Give this command a memo of answers about its private state, valid until the
        next event: only events change a state (the appliers; ``test_state_clone.py``
        proves no rule changes one otherwise), so an answer worked out since the last
        event still holds (``emit`` forgets them). The rules ask the same questions many
        times per step."""
        self.memo = {}
        return self

    def knowing(self, known: dict[Any, Any] | None) -> Ctx:
        """Start a working memo (``working``) from ``known``, answers about the state this
        one was forked from: it equals that state until its first event, which forgets
        them here (a copy: they stay true there)."""
        if self.memo is not None and known:
            self.memo.update(known)
        return self

    @classmethod
    def reader(cls, state: State) -> Ctx:
        """A read-only context for questions asked outside a command (prompts, views)."""
        global _reader
        memo = published_answers(state)
        known = _reader
        if memo is not None and known is not None and known.s is state and known.memo is memo:
            known.rng = _ReaderRandom()  # type: ignore[assignment]  (as fresh as a new reader's)
            return known  # one reader per published state: it reads, never writes
        ctx = cls(state, _ReaderRandom(), load())  # type: ignore[arg-type]
        ctx.memo = memo
        if memo is not None:
            _reader = ctx
        return ctx


_reader: Ctx | None = None
"""The reader of the published state read last (kept apart from its memo: the memo holding
its reader would make a reference cycle, and every state read would wait for the garbage
collector)."""


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
