"""Dark Omen's decks and tokens, read from ``content/*.toml`` (DESIGN.md, "Content").

Every entry says ``source = "rulebook"`` (with ``ref``, a rulebook line) or ``"authored"``;
the counts are the rulebook's (DO L56-60) and ``tests/games/dark_omen/test_content.py``
checks them and every stated fact.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from app.games.dark_omen.board import Board, load_board
from app.kernel.flow.content import read_toml

CONTENT = Path(__file__).with_name("content")

Card = dict[str, Any]


@dataclass(frozen=True)
class Content:
    board: Board
    characters: dict[str, Card]
    creatures: dict[str, Card]
    guards: dict[str, Card]
    zombie: Card
    gear: dict[str, Card]
    holographic: dict[str, Card]
    guilds: dict[str, Card]
    runes: dict[str, Card]
    omens: dict[str, Card]
    bosses: dict[str, Card]
    story: dict[str, Card]
    loot: dict[str, str]
    """Loot token id → its face."""
    tokens: dict[str, Any]
    creature_tokens: dict[str, int]
    """The 40 creature tokens (``ct01``…) and the level on each one's face (DO L476)."""

    def face(self, token: str) -> str:
        """A loot token's face; a token dealt onto the map is an instance ``l05.17`` of the
        physical token ``l05`` (each deal a new name, so a face-down token's name never
        appeared in anything a player saw before)."""
        return self.loot[base_token(token)]

    def creatures_of(self, level: int) -> list[str]:
        return [cid for cid, c in self.creatures.items() if c["level"] == level]

    def omens_of(self, level: int) -> list[str]:
        return [oid for oid, o in self.omens.items() if o["level"] == level and o["mission"] != "boss"]

    def boss_omen(self, level: int) -> str:
        return next(oid for oid, o in self.omens.items() if o["level"] == level and o["mission"] == "boss")

    def shop(self, level: int) -> list[str]:
        """Gear a market sells: any non-artifact gear of a level ≤ yours (DO L332-333)."""
        return [
            gid
            for gid, g in self.gear.items()
            if g["level"] <= level and g["type"] != "artifact" and g["id"] != "angry_chicken"
        ]

    def artifacts(self, level: int) -> list[str]:
        return [gid for gid, g in self.gear.items() if g["type"] == "artifact" and g["level"] <= level]


def base_token(token: str) -> str:
    return token.split(".", 1)[0]


def _by_id(name: str, table: str) -> dict[str, Card]:
    return {entry["id"]: entry for entry in read_toml(CONTENT, name)[table]}


@cache
def load() -> Content:
    return Content(
        board=load_board(),
        characters=_by_id("characters.toml", "character"),
        creatures=_by_id("creatures.toml", "creature"),
        guards=_by_id("guards.toml", "guard"),
        zombie=read_toml(CONTENT, "zombie.toml"),
        gear=_by_id("gear.toml", "gear"),
        holographic=_by_id("holographic.toml", "holographic"),
        guilds=_by_id("guilds.toml", "guild"),
        runes=_by_id("runes.toml", "rune"),
        omens=_by_id("omens.toml", "omen"),
        bosses=_by_id("bosses.toml", "boss"),
        story=_by_id("story.toml", "story"),
        loot={entry["id"]: entry["face"] for entry in read_toml(CONTENT, "loot.toml")["loot"]},
        tokens=read_toml(CONTENT, "tokens.toml"),
        creature_tokens=_creature_tokens(read_toml(CONTENT, "tokens.toml")["creature_tokens"]),
    )


def _creature_tokens(counts: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for level in range(1, 5):
        for _ in range(counts[f"L{level}"]):
            out[f"ct{len(out) + 1:02d}"] = level
    return out
