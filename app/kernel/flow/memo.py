"""Answers about a published state, worked out once (issue 24: the speed machinery that
stays lives in the kernel and serves every game).

A published state (one a command left, which the table now shows) never changes, so what
its readers work out about it holds as long as it is read: its prompts list each seat's
choices, then a command is routed against that very list; a rule asked the same question
(a hero's lasting modifiers) by several choices of one prompt answers once. A command's
own private state changes at every event, so its answers hold only until the next event
that changes what they read (``Ctx.memo``, ``Ctx.memo_survives``), and those still true
when the command ends are handed on to the state it publishes (``hand_on``).

One published state is remembered at a time (the last one read), with two dicts: the
*published* memo (answers about its whole state: a seat's choices, its "any time" offers)
and the *readers'* memo (answers a game's rules keep in ``Ctx.memo``, which read only parts
that events it lists in ``memo_survives`` leave alone). What a game keeps in the readers'
memo, and which events keep it, is the game's to say and to test.

Darkest Night's benchmark (random playouts, per CPU second, alternate runs): 8,464 with
the memo, 7,655 without (about 10 %).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.kernel.types import Choice, LazyChoice

_read_only: object = None
"""The published state whose prompts are being listed now (see ``reading``)."""
_memo: tuple[object, dict[Any, Any], dict[Any, Any]] | None = None
"""The last published state read: (state, its published memo, its readers' memo)."""


class reading:  # noqa: N801  (used as a function: ``with reading(state):``)
    """Mark ``state`` as a published state being read (prompts, a command's routing): a
    published state never changes, so its readers share a memo of answers. A class rather
    than a ``contextmanager`` generator: it is entered at least once per command."""

    __slots__ = ("state", "outer")

    def __init__(self, state: object) -> None:
        self.state = state
        self.outer: object = None

    def __enter__(self) -> None:
        global _read_only, _memo
        self.outer = _read_only
        _read_only = self.state
        if _memo is None or _memo[0] is not self.state:
            _memo = (self.state, {}, {})

    def __exit__(self, *_: object) -> None:
        global _read_only
        _read_only = self.outer


def published_memo(state: object) -> dict[Any, Any] | None:
    """The published memo of ``state`` if it is being read now (``reading``), else None: a
    command's private state changes, so nothing is kept for it."""
    memo = _memo  # one read: the memo is only ever used for the state it was made for
    if state is _read_only and memo is not None and memo[0] is state:
        return memo[1]
    return None


def published_answers(state: object) -> dict[Any, Any] | None:
    """The readers' memo of ``state`` if it is being read now, else None."""
    memo = _memo
    if state is _read_only and memo is not None and memo[0] is state:
        return memo[2]
    return None


def listed(state: object, key: Any) -> Any:
    """What the published memo of ``state`` already holds under ``key`` (a seat's choices,
    listed by its prompts), read or not: a published state never changes."""
    memo = _memo
    if memo is not None and memo[0] is state:
        return memo[1].get(key)
    return None


def remembered(state: object, key: Any, work_out: Callable[[], Any]) -> Any:
    """``work_out()`` once per published ``state`` under ``key``; every call while it is not
    being read (a command's private state) works it out afresh."""
    known = listed(state, key)
    if known is not None:
        return known
    memo = published_memo(state)
    found = work_out()
    if memo is not None:
        memo[key] = found
    return found


def known_answers(state: object) -> dict[Any, Any] | None:
    """The readers' memo of the published ``state`` so far, if any (a command on it starts
    from these: ``Ctx.knowing``)."""
    memo = _memo
    if memo is not None and memo[0] is state:
        return memo[2]
    return None


def hand_on(state: object, answers: dict[Any, Any]) -> None:
    """``state`` is published as a command left it, and ``answers`` (its memo) hold for it:
    its readers start from them."""
    global _memo
    _memo = (state, {}, answers)


def explained(
    state: object, kind: str, args: dict[str, Any], label: str, detail: Callable[[], str]
) -> Choice:
    """A choice about ``state`` whose ``detail`` (odds, dice and their sources) is worked
    out when first read if ``state`` is a published state being read (``LazyChoice``), at
    once if it is a command's private state (which the next event changes)."""
    if state is _read_only:
        return LazyChoice(kind, args, label, detail)
    return Choice(kind, args, label, detail())


class LazyRandom:
    """A ``random.Random(0)`` made only if a reader ever draws from it: a reader (a context
    for questions asked outside a command) rarely does, and seeding one per reader cost
    more than the questions."""

    __slots__ = ("_rng",)

    def __getattr__(self, name: str) -> object:
        try:
            rng = object.__getattribute__(self, "_rng")
        except AttributeError:
            rng = random.Random(0)
            object.__setattr__(self, "_rng", rng)
        return getattr(rng, name)
