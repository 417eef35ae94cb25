"""Every question Dark Omen's rules ask, one frozen dataclass per kind (the kernel's
``Decision``, ``app/kernel/flow/decisions.py``). Field names are published: stored games
hold them in their waiting records (``flow_schema.json``)."""

from __future__ import annotations

from dataclasses import dataclass

from app.kernel.flow import Decision


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
