"""Dark Omen on the kernel's stepwise engine: the rules registry and its ``Ctx``. The
questions the rules ask are ``decisions.py``, the fold (every event applier) ``events.py``."""

from __future__ import annotations

from typing import Any

from app.games.dark_omen.content import Content, load
from app.games.dark_omen.state import State
from app.kernel.flow import Ctx, Rules

RULES = Rules("dark_omen")

DoCtx = Ctx[State, Content]


def new_ctx(state: State, rng: Any) -> DoCtx:
    return Ctx(RULES, state, rng, load())
