"""Attack the Darkness on the kernel's stepwise engine (``app.kernel.flow``): its rule
registry and its ``Ctx``."""

from __future__ import annotations

import random

from app.games.attack_the_darkness.content import Content, load
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Ctx as FlowCtx
from app.kernel.flow import Rules

RULES = Rules("attack_the_darkness")


class Ctx(FlowCtx[State, Content]):
    """One Attack the Darkness command's work (see ``app.kernel.flow.Ctx``)."""

    def __init__(self, state: State, rng: random.Random) -> None:
        super().__init__(RULES, state, rng, load())
