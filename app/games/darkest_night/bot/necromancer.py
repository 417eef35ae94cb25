"""The bot in the Necromancer player's seat (DN 20.3): an adversary picking only from the prompt."""

from __future__ import annotations

import random

from app.games.darkest_night.content import MONASTERY, load
from app.games.darkest_night.decisions import NecromancerMove, PlayMapCard
from app.games.darkest_night.rules.necromancer import distances
from app.games.darkest_night.state import State
from app.kernel.types import Choice, Prompt


def choose_necromancer(state: State, prompt: Prompt, rng: random.Random) -> Choice:
    """The Necromancer player's seat (DN 20.3), an adversary picking only from the prompt.

    Movement (DN 20.3.2, "necromancer_move"): among the allowed destinations, go where his
    blight does most harm (a full location overflows it into the Monastery, DN 11.1 and
    18.3; next to the Monastery, heroes come and go) and closest to the most exposed hero
    (low secrecy: at 0 he attacks, DN 12.2), preferring a detected one. Blights (DN 20.3.3,
    "play_map_card"): the map card whose blight is mightiest, global (red) or, with heroes
    at that location, a monster (yellow) or a hindrance (blue). Ties go to ``rng``.
    """
    choices = list(prompt.choices)
    decision = state.decision
    if isinstance(decision, NecromancerMove):
        scores = [move_score(state, c.args["to"], decision.roll) for c in choices]
    elif isinstance(decision, PlayMapCard):
        scores = [blight_score(state, decision.location, c.args["card"]) for c in choices]
    else:
        return choices[0]
    best = max(scores)
    return rng.choice([c for c, score in zip(choices, scores, strict=True) if score == best])


def move_score(state: State, to: str, roll: int) -> int:
    """How good ``to`` is for the Necromancer: blight harm minus the hunt (twice the
    distance plus the secrecy of the best prey)."""
    prey = [h for h in state.living() if h.location != MONASTERY]
    detected = [h for h in prey if roll > h.secrecy] or prey
    dist = distances(to)
    hunt = min((2 * dist.get(h.location, 9) + h.secrecy for h in detected), default=0)
    if state.blight_count(to) >= 4:
        return 4 - hunt  # his blight overflows into the Monastery (DN 11.1)
    return (1 if to in load().locations[MONASTERY].adjacent else 0) - hunt


def blight_score(state: State, location: str, card: str) -> int:
    """How much the blight this map card makes at ``location`` hurts the heroes."""
    content = load()
    spec = content.blights[content.map_cards[card].blights[location]]
    local = {"yellow": 2, "blue": 1}.get(spec.color, 0) if state.heroes_at(location) else 0
    return spec.might + (3 if spec.color == "red" else 0) + local
