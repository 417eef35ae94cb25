"""Dark Omen on the kernel's stepwise engine: the rules registry and its ``Ctx``, and the
registry of hero actions (each command of the round, resolved by ``rules/round.py``). The
questions the rules ask are ``decisions.py``, the fold (every event applier) ``events.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.games.dark_omen.content import Content, load
from app.games.dark_omen.state import State
from app.kernel.flow import Ctx, Rules

RULES = Rules("dark_omen")

DoCtx = Ctx[State, Content]

Action = Callable[[DoCtx, int, dict[str, Any]], None]
"""How one command of a hero is carried out: ``(ctx, seat, args)``, the command already
checked to be one of the seat's choices."""

ACTIONS: dict[str, Action] = {}
"""Every hero command by its published type (``move``, ``attack``…), registered by the
rule module it belongs to (``@action``)."""


def action(command: str) -> Callable[[Action], Action]:
    """Register how the hero command ``command`` is carried out."""

    def register(fn: Action) -> Action:
        if command in ACTIONS:
            raise ValueError(f"dark_omen: action {command} registered twice")
        ACTIONS[command] = fn
        return fn

    return register


def new_ctx(state: State, rng: Any) -> DoCtx:
    return Ctx(RULES, state, rng, load())
