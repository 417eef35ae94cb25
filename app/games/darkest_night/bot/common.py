"""Helpers every part of the bot uses: the odds a choice's detail states, a choice by type,
the steps between locations."""

from __future__ import annotations

import re
from functools import cache

from app.games.darkest_night.content import load
from app.kernel.types import Choice

ODDS = re.compile(r"(\d+)%")


def odds(choice: Choice) -> int:
    found = ODDS.findall(choice.detail)
    return int(found[-1]) if found else 0


def first(choices: list[Choice], type_: str) -> Choice | None:
    return next((c for c in choices if c.type == type_), None)


@cache
def hero_distances(origin: str) -> dict[str, int]:
    """Steps between locations for a hero (who may pass through the Monastery, DN 8.0)."""
    locations = load().locations
    dist = {origin: 0}
    frontier = [origin]
    while frontier:
        nxt = []
        for here in frontier:
            for there in locations[here].adjacent:
                if there not in dist:
                    dist[there] = dist[here] + 1
                    nxt.append(there)
        frontier = nxt
    return dist
