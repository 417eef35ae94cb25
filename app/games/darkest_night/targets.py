"""Which board element each of Darkest Night's choices acts on, so the map is clickable.

The board template (templates/games/darkest_night/board.html) marks every location with
``data-target="location:<name>"``, every blight token with ``data-target="blight:<id>"`` and
every hero (panel and map figure) with ``data-target="hero:<id>"``; a choice whose target
is one of those is sent by clicking (or pressing Enter on) that element. Only a choice's
``type`` and ``args`` are read: what a player may send is already decided by the prompts.
"""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.content import LOCATIONS
from app.kernel.types import Choice

LOCATION_ARG = {
    "travel": "to",  # the travel action (DN 8.0)
    "move_to": "to",  # a power that moves the hero on (e.g. Sprint's follow-up)
    "move_necromancer": "to",  # the Necromancer player's move (DN 20.3.2)
    "use_skull_token": "to",  # a Skull Token sends him anywhere (DN 15.0)
    "place_quest": "location",  # the placer picks among the dice's results (DN 16.1)
}
"""Choices whose location is always the value of one argument."""

BLIGHT_CHOICES = frozenset({"attack", "attack_target", "attack_blight", "destroy"})
"""Choices that act on the blight named by their ``blight`` argument (DN 12.1, 16.0)."""

HERO_ARG = {
    "take_turn": "hero",  # the heroes choose who goes next (DN 6.0)
    "pick_hero": "target",  # a power used on another hero
}


def location(name: Any) -> str | None:
    return f"location:{name}" if name in LOCATIONS else None


def choice_target(choice: Choice) -> str | None:
    """The ``data-target`` of the element that stands for ``choice``, or None."""
    args = choice.args
    if choice.type in LOCATION_ARG:
        return location(args.get(LOCATION_ARG[choice.type]))
    if choice.type in BLIGHT_CHOICES and isinstance(args.get("blight"), str):
        return f"blight:{args['blight']}"
    if choice.type in HERO_ARG and isinstance(args.get(HERO_ARG[choice.type]), str):
        return f"hero:{args[HERO_ARG[choice.type]]}"
    if choice.type in ("power_action", "use_item"):
        # A power or item that moves someone ("to": a location; "to" may also be a hero
        # an item is given to) or acts on a marked thing ("target": "loc:…", "hero:…").
        if "to" in args:
            return location(args["to"])
        target = args.get("target")
        if isinstance(target, str):
            kind, _, key = target.partition(":")
            if kind == "loc":
                return location(key)
            if kind in ("hero", "blight") and key:
                return f"{kind}:{key}"
    return None
