"""The actions the strong bot weighs (issue 27): an action step offers a dozen actions or
more (DN 8.0: travel to each neighbour, search, pray, hide, attack each blight, powers…),
most of them plainly poor; the search tries the planner's few best, so its rounds go where
the choice is close."""

from __future__ import annotations

import random

from app.games.darkest_night.bot.planner import Planner
from app.games.darkest_night.bot.worlds import determinize
from app.games.darkest_night.decisions import Action
from app.games.darkest_night.state import State
from app.kernel.types import Choice, Prompt

CANDIDATES = 4
"""How many of the planner's best actions are searched."""


def search_candidates(state: State, prompt: Prompt, rng: random.Random) -> list[Choice]:
    """The planner's ``CANDIDATES`` best actions, scored on a world redrawn for the seat (so
    the ranking reads nothing the seat may not see); every answer for other questions."""
    decision = state.decision
    if not isinstance(decision, Action) or len(prompt.choices) <= CANDIDATES:
        return list(prompt.choices)
    world = determinize(state, prompt.seat, rng)
    planner = Planner(world, world.heroes[decision.hero])
    ranked = sorted(range(len(prompt.choices)), key=lambda i: -planner.score(prompt.choices[i]))
    return [prompt.choices[i] for i in ranked[:CANDIDATES]]
