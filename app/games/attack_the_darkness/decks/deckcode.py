"""A character's decks as a short text, to write in the lobby and share (issue 13): the
resource deck, a ``;``, then the action deck, each a comma-separated list of a count and a
card (its id or its printed name)::

    12 Hearty, 3 Momentous, 3 Ponderous, 3 Shattering, 3 Gladiatorial, 3 Blood Lusted;
    3 Hack!, 3 Cleave, 3 Charge, …

``parse`` reads it (with a precise error for text it cannot read); the rules of deck
building are ``decks.deck_problems``'s (AtD L298-327), which the table's options check with
every broken rule listed before the table is made."""

from __future__ import annotations

import re

from app.games.attack_the_darkness.content import Content
from app.kernel.types import RuleError

MAX_LENGTH = 800
"""Characters in one seat's deck text: both decks by name take about 270."""
ITEM = re.compile(r"^\s*(\d+)\s*[x×*]?\s+(.+?)\s*$|^\s*(.+?)\s*[x×*]\s*(\d+)\s*$", re.I)


def card_key(text: str) -> str:
    """A card's id from its id or printed name: "Roll w/the Punches" → roll_w_the_punches."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _pile(text: str, which: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for raw in text.split(","):
        if not raw.strip():
            continue
        found = ITEM.match(raw)
        if not found:
            raise RuleError(
                "bad_deck_text", f'the {which} deck: {raw.strip()!r} is not a count and a card ("3 Hack!")'
            )
        count, name = (found.group(1), found.group(2)) if found.group(1) else (found.group(4), found.group(3))
        key = card_key(name)
        out[key] = out.get(key, 0) + int(count)
    return out


def parse(text: str) -> tuple[dict[str, int], dict[str, int]]:
    """(resource deck, action deck) as card id → count."""
    if text.count(";") != 1:
        raise RuleError("bad_deck_text", "a deck text is the resource cards, a ';', then the action cards")
    resources, actions = text.split(";")
    return _pile(resources, "resource"), _pile(actions, "action")


def write(content: Content, resources: dict[str, int], actions: dict[str, int]) -> str:
    """The text of a deck, by printed names (``parse`` reads it back)."""

    def pile(cards: dict[str, int]) -> str:
        return ", ".join(f"{n} {content.card_name(c)}" for c, n in cards.items())

    return f"{pile(resources)}; {pile(actions)}"
