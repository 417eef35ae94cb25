"""The bot between fights: clearing the room (revive, rest unless whole, explore; AtD
L276-281) and trades (accept a gift, decline a swap; AtD L207, L279)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.bot.common import by_type
from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.state import State
from app.kernel.types import Choice

C = load()


def trade(s: State, d: Any, ch: tuple[Choice, ...]) -> Choice:
    """Accept a gift, decline a swap; propose nothing (the bot is done at once)."""
    if d.offer is not None:
        return by_type(ch, "accept" if d.offer["take"] is None else "decline")[0]
    return by_type(ch, "done")[0]


def clear_room(s: State, ch: tuple[Choice, ...]) -> Choice:
    revives = by_type(ch, "revive")
    if revives:
        return revives[0]
    rest = [c for c in by_type(ch, "rest") if not c.args["discard"]]
    explore = [c for c in by_type(ch, "explore") if not c.args["discard"]]
    seat = int(ch[0].args["seat"])
    char = s.chars[seat]
    # HP lost stays lost until healed: rest unless (nearly) whole (AtD L279)
    if explore and char.hp >= char.max_hp - 1:
        return explore[0]
    small = len(char.actions) < 8 or len(char.resources) < 8
    pick = [c for c in rest if c.args["reshuffle"] == small]
    return (pick or rest or list(ch))[0]
