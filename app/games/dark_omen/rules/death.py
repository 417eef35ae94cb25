"""A fallen hero's player (DO L198-202): a new character from those left, at a town entrance,
casting their own runes; the belongings buried with the zombie, taken back for 2 MP once
it is beaten; none left: the campaign is lost. The fall itself is ``heroes.hero_dies``.
"""

from __future__ import annotations

from typing import Any

from app.games.dark_omen.content import Content, load
from app.games.dark_omen.engine import DoCtx, action
from app.games.dark_omen.rules.heroes import ch, creatures_here
from app.games.dark_omen.rules.runes import cast_runes
from app.games.dark_omen.rules.stats import side_of
from app.games.dark_omen.state import Hero, State
from app.kernel.types import Choice


def out_of_characters(s: State) -> bool:
    """More players need a character than remain (DO L202)."""
    taken = {h.character for h in s.heroes if h.alive} | set(s.fallen)
    left = [cid for cid in load().characters if cid not in taken]
    return len(left) < sum(1 for h in s.heroes if not h.alive)


def belongings_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """A fallen hero's belongings, once no enemy stands on them, for 2 MP (DO L201)."""
    here = h.at
    if isinstance(here, int) and str(here) in s.graves and not creatures_here(s, here) and h.mp >= 2:
        return [ch("take_belongings", h.seat, "Take the fallen hero's belongings (−2 MP)")]
    return []


def new_character_choices(s: State, c: Content, seat: int) -> list[Choice]:
    """DO L199: choose a new character from those remaining, at a town entrance."""
    taken = {h.character for h in s.heroes if h.alive} | set(s.fallen)
    side = side_of(s, c)
    return [
        ch("new_character", seat, f"Play {card['name']} from {town}", character=cid, town=town)
        for cid, card in c.characters.items()
        if cid not in taken
        for town in sorted(side.towns)
    ]


@action("new_character")
def do_new_character(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    side = side_of(ctx.s, ctx.c)
    ctx.emit("HeroJoined", seat=seat, character=args["character"], at=side.towns[args["town"]])
    cast_runes(ctx, seat, individual_only=True)


@action("take_belongings")
def do_take_belongings(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """−2 MP for all a fallen hero's possessions (DO L201)."""
    ctx.emit("BelongingsTaken", seat=seat, space=ctx.s.heroes[seat].at)
