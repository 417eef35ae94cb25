"""Which step of a round a seat's prompt belongs to, for a first game's guide (issue 28): the
short text beside the prompts saying what the step is for and what the usual choice is
(``content/rules_reference.toml``'s ``[[guide]]`` entries, named as ``STEPS`` names them).

Presentation only: read from the state and the prompt, never by the rules. The most
particular situation names the step: a sub-question the seat must answer first (a battle's
boost window, a runehenge, a barrow's or a gamble's dice), then what the seat is asked by
others (a team attack, a game of chance), then what its hero stands on (an enemy in reach, a
town's place, a location token, loot, a campfire at night), and otherwise the part of the day
(its dawn, a boss day, a day with no omen active, night, or an ordinary round).
"""

from __future__ import annotations

from app.games.dark_omen.content import load
from app.games.dark_omen.decisions import Act, NextChapter
from app.games.dark_omen.rules.heroes import location_at, town_of
from app.games.dark_omen.state import Hero, State
from app.kernel.types import Prompt

PENDING_STEPS = {
    "battle": "battle",
    "team": "team_lead",
    "runehenge": "runehenge",
    "barrow": "barrow",
    "draugr": "draugr",
    "hard_life": "hard_life",
    "gamble_host": "gamble_host",
}
"""A seat's open sub-question (``Hero.pending``'s kind) → its step."""

TOWN_STEPS = {"gate": "town", "market": "market", "tavern": "tavern", "healer": "healer"}
"""A town's places → their step."""

AT_A_LOCATION = frozenset(
    {
        "unlock",
        "runehenge",
        "courage_stone",
        "rejuvenate",
        "river",
        "gamble",
        "buy",
        "redeem",
        "sell",
        "sell_token",
        "repair",
        "gloomy",
        "blood_bag",
        "maze",
        "well",
        "hoard",
        "smithy",
        "apothecary",
        "ritual",
        "make_camp",
        "explore_barrow",
    }
)
"""What a location token (or an Underworld place) under the hero offers."""

STEPS = (
    "next_chapter",
    "new_character",
    *PENDING_STEPS.values(),
    "team_wait",
    "surprise",
    "team_invite",
    "gamble_invite",
    "boss",
    "new_day",
    "free_day",
    "fight",
    *TOWN_STEPS.values(),
    "campfire",
    "location",
    "loot",
    "night",
    "act",
)
"""Every step ``step`` may name: each has a ``[[guide]]`` entry (a test keeps it so)."""


def step(s: State, prompt: Prompt) -> str | None:
    """The step of ``prompt``, a required prompt of one seat; None for an optional one."""
    if not prompt.required or type(prompt.seat) is not int or not 0 <= prompt.seat < len(s.heroes):
        return None
    if isinstance(s.decision, NextChapter):
        return "next_chapter"
    if not isinstance(s.decision, Act):
        return None
    h = s.heroes[prompt.seat]
    if not h.alive:
        return "new_character"
    if h.pending is not None:
        return PENDING_STEPS.get(h.pending.kind)
    offered = {c.type for c in prompt.choices}
    if "leave_team" in offered:
        return "team_wait"
    if h.must_attack is not None:
        return "surprise"
    if "join_team" in offered or "decline_team" in offered:
        return "team_invite"
    if "join_gamble" in offered or "decline_gamble" in offered:
        return "gamble_invite"
    if s.round == 1 and h.ap == 0:  # the day's dawn, before this hero has spent anything
        return day_step(s) or "new_day"
    return place_step(s, h, offered) or day_step(s) or ("night" if s.night else "act")


def place_step(s: State, h: Hero, offered: set[str]) -> str | None:
    """What the hero's space offers: an enemy in reach, a town's place, a campfire (at
    night, or a permanent camp's warmth), a location token, loot."""
    if "attack" in offered:
        return "fight"
    town = town_of(h.at)
    if town is not None:
        return TOWN_STEPS.get(town[1])
    if "warm" in offered or ("campfire" in offered and s.night):
        return "campfire"
    if location_at(s, h.at) is not None and offered & AT_A_LOCATION:
        return "location"
    if "loot" in offered:
        return "loot"
    return None


def day_step(s: State) -> str | None:
    """A boss day, or a day with no omen active (none today, or settled already)."""
    if s.omen is None or s.omen.status != "active":
        return "free_day"
    if load().omens[s.omen.id]["mission"] == "boss":
        return "boss"
    return None
