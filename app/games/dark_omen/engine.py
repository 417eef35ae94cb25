"""Dark Omen on the kernel's stepwise engine: the rules registry, its ``Ctx`` and the
decisions. The fold (every event applier) is ``events.py``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.dark_omen.content import Content, load
from app.games.dark_omen.state import State
from app.kernel.flow import Ctx, Decision, Rules

RULES = Rules("dark_omen")

DoCtx = Ctx[State, Content]


def new_ctx(state: State, rng: Any) -> DoCtx:
    return Ctx(RULES, state, rng, load())


# -- decisions ------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Act(Decision):
    """The round: every seat with AP left acts at once; the commit order is the resolution
    order (DO L210-212, facts §21). Each answer is one action of one seat; the same
    question is asked again of the seats not yet done."""

    kind = "act"


@dataclass(frozen=True, kw_only=True)
class NextChapter(Decision):
    """Between chapters every seat says it is ready (choosing a guild before chapter 2,
    DO L189); the last one begins the next chapter."""

    kind = "next_chapter"
    chapter: int
