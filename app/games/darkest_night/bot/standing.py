"""How the heroes stand (issue 27): ``DarkestNight.value``, the strong bot's reading of a
board between its first turn and the game's end, in [0, 1] (1 won, 0 lost).

It is a logistic model of the chance the heroes win from here, over features read from the
board: the road to a loss (blights in the Monastery and on full locations, DN 11.1, 18.3;
the darkness, DN 9.0; fallen heroes and wounds waiting to kill, DN 13.1) and the road to a
win (clues toward a Holy Relic, DN 8.0; a relic in hand, the bearer's odds against the
Necromancer and the blights guarding him, DN 18.1; relics at the Monastery, DN 18.2). The
weights were fitted on boards the heuristic bot met in its own games (each labelled with
the game's result), so a board the bot usually wins from reads high, one it usually
loses from reads low; ``fit`` redoes it.

The Necromancer player's seat (DN 20.3) wins when the heroes lose: its value is the rest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from app.games.darkest_night.bot.planner import bearer, clue_cost, have_clues, kill_chance
from app.games.darkest_night.content import LOCATIONS, MONASTERY
from app.games.darkest_night.rules.necromancer import distances
from app.games.darkest_night.rules.round import count_monastery_relics
from app.games.darkest_night.state import Hero, State
from app.kernel.types import Budget, Prompt

FEATURES = (
    "monastery",
    "monastery_sq",
    "full",
    "three",
    "blights",
    "darkness",
    "darkness_25",
    "clues",
    "relics_home",
    "bearer",
    "kill",
    "guards",
    "reach",
    "clear_shot",
    "kill_at",
    "grace",
    "no_grace",
    "fallen",
    "sparks",
    "exposed",
)
"""What the model reads, each scaled to about [0, 1] (see ``features``)."""

WEIGHTS: dict[str, float] = {
    "bias": -0.938,
    "monastery": -0.546,
    "monastery_sq": -1.015,
    "full": -1.151,
    "three": -0.554,
    "blights": -2.735,
    "darkness": -1.588,
    "darkness_25": -0.790,
    "clues": 2.374,
    "relics_home": -2.232,
    "bearer": 0.800,
    "kill": 1.136,
    "guards": -0.832,
    "reach": 0.300,
    "clear_shot": 1.223,
    "kill_at": -1.004,
    "grace": 1.825,
    "no_grace": -0.797,
    "fallen": -0.385,
    "sparks": 0.305,
    "exposed": -0.034,
}
"""The fitted weights (``fit``), the heroes' log-odds of winning per unit of each feature."""


def features(s: State) -> dict[str, float]:
    """The board as the model reads it (each about in [0, 1])."""
    living = s.living()
    monastery = s.blight_count(MONASTERY)
    counts = [s.blight_count(loc) for loc in LOCATIONS if loc != MONASTERY]
    need = clue_cost(s)
    carriers = [h for h in living if h.relics()]
    guards = s.blight_count(s.necromancer)
    bearer = max(carriers, key=lambda h: (h.sparks, h.grace), default=None)
    kill = kill_chance(s, bearer) if bearer is not None else 0.0
    reach = 0.0
    at_necro = bearer is not None and bearer.location == s.necromancer
    if bearer is not None and bearer.location != MONASTERY:
        reach = 1.0 / (1 + distances(bearer.location).get(s.necromancer, 4))
    return {
        "monastery": monastery / 4,
        "monastery_sq": (monastery / 4) ** 2,
        "full": sum(c >= 4 for c in counts) / 6,
        "three": sum(c == 3 for c in counts) / 6,
        "blights": sum(counts) / 24,
        "darkness": min(s.darkness, 30) / 30,
        "darkness_25": max(0, s.darkness - 25) / 5,
        # a relic in hand counts as the clues it cost (DN 8.0)
        "clues": min(have_clues(s) + (need if carriers else 0), need) / need,
        "relics_home": min(count_monastery_relics(s), 3) / 3,
        "bearer": 1.0 if carriers else 0.0,
        "kill": kill,
        "guards": min(guards, 4) / 4 if carriers else 0.0,
        "reach": reach,
        "clear_shot": 1.0 if at_necro and guards == 0 else 0.0,
        "kill_at": kill if at_necro else 0.0,
        "grace": sum(min(h.grace, 6) for h in living) / (6 * max(1, len(living))),
        "no_grace": sum(h.grace == 0 for h in living) / 4,
        "fallen": min(len(s.fallen), 4) / 4,
        "sparks": sum(h.sparks for h in living) / 12,
        "exposed": sum(h.secrecy <= 1 for h in living) / 4,
    }


def heroes_chance(s: State) -> float:
    """The model's chance that the heroes win from ``s``."""
    if s.result is not None:
        return 1.0 if s.result["result"] == "win" else 0.0
    found = features(s)
    logit = WEIGHTS["bias"] + sum(WEIGHTS[name] * found[name] for name in FEATURES)
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))


def value(s: State, seat: object) -> float:
    """The seat's value: the heroes' chance, or the rest of it for the Necromancer player."""
    chance = heroes_chance(s)
    if s.necromancer_seat is not None and seat == s.necromancer_seat:
        return 1.0 - chance
    return chance


FIXED = {"bearer": 0.8, "reach": 0.3}
"""Weights ``fit`` keeps, where the bot's own games mislead it: it always takes a relic it
can (DN 8.0), so they never show what holding one is worth beside the clues it cost (the
fit read it as worth less than nothing, and the search left relics where they lay); and a
bearer near the Necromancer is often one in trouble, yet only there can he be slain (DN
18.1), so the search must not learn to keep him away."""


def fit(
    samples: Sequence[tuple[dict[str, float], bool]],
    *,
    rounds: int = 12,
    l2: float = 1.0,
    fixed: dict[str, float] | None = None,
) -> dict[str, float]:
    """Logistic regression by Newton's method (a little L2 against rare features): the
    weights that best predict each sample's result (won or not) from its features, those in
    ``fixed`` (default ``FIXED``) held as given."""
    fixed = FIXED if fixed is None else fixed
    free = tuple(k for k in FEATURES if k not in fixed)
    names = ("bias", *free)
    offsets = [sum(w * found[k] for k, w in fixed.items()) for found, _ in samples]
    rows = [[1.0, *(found[k] for k in free)] for found, _ in samples]
    wins = [1.0 if won else 0.0 for _, won in samples]
    size = len(names)
    weights = [0.0] * size
    for _ in range(rounds):
        grad = [l2 * w if i else 0.0 for i, w in enumerate(weights)]
        hessian = [[l2 if i == j and i else 0.0 for j in range(size)] for i in range(size)]
        for row, won, offset in zip(rows, wins, offsets, strict=True):
            logit = offset + sum(w * x for w, x in zip(weights, row, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))
            error, slope = p - won, p * (1 - p)
            for i, xi in enumerate(row):
                if xi:
                    grad[i] += error * xi
                    line = hessian[i]
                    for j, xj in enumerate(row):
                        line[j] += slope * xi * xj
        step = solve(hessian, grad)
        weights = [w - d for w, d in zip(weights, step, strict=True)]
    return dict(zip(names, weights, strict=True)) | dict(fixed)


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix · x = vector`` (Gaussian elimination with partial pivoting)."""
    size = len(vector)
    a = [[*row, v] for row, v in zip(matrix, vector, strict=True)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-12:
            continue
        for r in range(col + 1, size):
            factor = a[r][col] / a[col][col]
            if factor:
                for c in range(col, size + 1):
                    a[r][c] -= factor * a[col][c]
    x = [0.0] * size
    for r in range(size - 1, -1, -1):
        if abs(a[r][r]) >= 1e-12:
            x[r] = (a[r][size] - sum(a[r][c] * x[c] for c in range(r + 1, size))) / a[r][r]
    return x


SEARCHED = {"action": Budget(iterations=32, depth=40, seconds=0.7, margin=0.02, paired=True)}
"""The questions the strong bot searches, and how hard: an ordinary action step, the
planner's 4 best actions (``bot/candidates.py``) in 8 paired rounds of 40 commands, to
about the next hero's turn."""

HUNT = Budget(iterations=48, depth=40, seconds=0.8, margin=0.02, paired=True)
"""The endgame's action steps (DN 18.1): the bearer's, and any hero's where the Necromancer
stands once a relic is in hand, where one choice often decides the game."""

RESTING = Budget(iterations=16, depth=40, seconds=0.4, margin=0.02, paired=True)
"""A hero in the Monastery before any relic is found: fewer ways to go wrong (DN 19.2)."""


def search_budget(state: State, prompt: Prompt) -> Budget | None:
    """How hard the strong bot thinks about ``prompt`` (None: the heuristic's answer)."""
    d = state.decision
    if d is None or d.kind not in SEARCHED:
        return None
    hero = state.heroes.get(getattr(d, "hero", ""))
    if hero is None:
        return SEARCHED[d.kind]
    if any(c.type in SURE for c in prompt.choices) and sure_thing(state, hero, prompt):
        return None
    if hero.relics() or (bearer(state) is not None and hero.location == state.necromancer):
        return HUNT
    if hero.location == MONASTERY and not state.relics_retrieved:
        return RESTING
    return SEARCHED[d.kind]


SURE = ("retrieve_relic", "attack_necromancer")
"""Answers the heuristic takes whenever it can, and a few noisy rollouts must not talk it
out of: the relic the clues paid for (DN 8.0) and a clear shot at the Necromancer (DN 18.1)."""


def sure_thing(state: State, hero: Hero, prompt: Prompt) -> bool:
    """The relic is there to take, or the bearer stands with the Necromancer and no blight."""
    types = {c.type for c in prompt.choices}
    if "retrieve_relic" in types:
        return True
    return (
        "attack_necromancer" in types
        and bool(hero.relics())
        and hero.location == state.necromancer
        and state.blight_count(hero.location) == 0
    )
