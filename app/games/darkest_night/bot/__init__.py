"""A heuristic player: it fills an empty seat and measures the engine.

It plays only from the prompts (the same legal choices a person sees). As a hero (see
``bot.planner``): gather clues where searching pays best and pursue mysteries (DN 17.3),
retrieve a Holy Relic once 10 clues are in hand (DN 8.0), carry it to the Necromancer while
the others clear his blights, and slay him (DN 18.1); on the way, destroy the blights that
would overflow into the Monastery (DN 11.1, 18.3), pray when grace runs low, and pick the
best odds in every fight (DN 12.0). As the Necromancer player (DN 20.3,
``bot.necromancer``): chase the most exposed heroes and play the map cards whose blights
hurt most. It ignores "any time" offers.
"""

from __future__ import annotations

import random

from app.games.darkest_night.bot.hero import choose_hero_decision
from app.games.darkest_night.bot.necromancer import choose_necromancer
from app.games.darkest_night.state import State
from app.kernel.types import Choice, Prompt


def choose(state: State, prompt: Prompt, rng: random.Random) -> Choice:
    """The bot's choice for one prompt."""
    if state.necromancer_seat is not None and prompt.seat == state.necromancer_seat:
        return choose_necromancer(state, prompt, rng)
    return choose_hero_decision(state, prompt, rng)
