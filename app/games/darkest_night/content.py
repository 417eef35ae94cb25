"""Darkest Night's content, read from ``content/*.toml`` (DESIGN.md, "Content").

Every card and token is data naming the small rule functions (``op``s) that give it effect;
``tests/games/darkest_night/test_content.py`` checks that each named op exists, that each
entry's ``source`` is valid (with the kernel's ``app.kernel.flow.content``) and that each
deck has its rulebook size.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from app.kernel.flow.content import read_toml

CONTENT = Path(__file__).with_name("content")
LOCATIONS = ("Monastery", "Mountains", "Castle", "Village", "Swamp", "Forest", "Ruins")
MONASTERY = "Monastery"
SUBDECKS = ("simplicity", "hunted", "overrun", "entropy", "spiritual_warfare", "classic", "everything")

Effect = dict[str, Any]
"""One step of a card's effect: ``{"op": "lose_secrecy", "n": 1}`` (see ``ops``)."""


@dataclass(frozen=True, slots=True)
class Foe:
    """A combat opponent (DN 12.0). ``None`` is a dash: that option is impossible."""

    name: str
    strength: int | None
    awareness: int | None


@dataclass(frozen=True, slots=True)
class LocationDef:
    name: str
    adjacent: tuple[str, ...]
    necromancer: tuple[str, ...]
    search: int
    relic: bool


@dataclass(frozen=True, slots=True)
class BlightDef:
    name: str
    might: int
    color: str
    tokens: int
    effect: str
    params: dict[str, Any]
    text: str
    defense: tuple[Effect, ...]
    monster: Foe | None
    monster_fail: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class MapCard:
    id: str
    blights: dict[str, str]
    search: dict[str, str]
    quest: str
    subdecks: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ItemDef:
    kind: str
    name: str
    tokens: int
    back: str
    when: str
    use: str
    params: dict[str, Any]
    text: str


@dataclass(frozen=True, slots=True)
class PowerDef:
    """A power card (DN 14.0) or an artifact (DN 14.4): its effects by kind.

    ``tactic``: combat options it offers; ``bonus``: lasting modifiers; ``action``: an action
    it offers; ``active``: modifiers while it is active; ``inactive``: while it is not.
    """

    id: str
    name: str
    owner: str
    starting: bool
    text: str
    tactic: tuple[dict[str, Any], ...] = ()
    bonus: tuple[dict[str, Any], ...] = ()
    action: dict[str, Any] | None = None
    active: tuple[dict[str, Any], ...] = ()
    inactive: tuple[dict[str, Any], ...] = ()
    any_time: dict[str, Any] | None = None
    requires_quests: bool = False
    artifact: bool = False


@dataclass(frozen=True, slots=True)
class HeroDef:
    id: str
    name: str
    grace: int
    secrecy: int
    powers: tuple[PowerDef, ...]

    def power(self, power_id: str) -> PowerDef:
        return next(p for p in self.powers if p.id == power_id)


@dataclass(frozen=True, slots=True)
class CardDef:
    """An event, quest, mystery or darkness card: its numbers and its effects as data."""

    id: str
    name: str
    text: str
    copies: int = 1
    fate: int = 0
    effects: tuple[Effect, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)


PROTECTING = ("protects_here", "protects_elsewhere")
"""The blight effects that protect other blights from attack (Shroud, Nexus: DN 11.2)."""


@dataclass(frozen=True)
class Content:
    locations: dict[str, LocationDef]
    blights: dict[str, BlightDef]
    map_cards: dict[str, MapCard]
    foes: dict[str, Foe]
    items: dict[str, ItemDef]
    heroes: dict[str, HeroDef]
    events: dict[str, CardDef]
    quests: dict[str, CardDef]
    mysteries: dict[str, CardDef]
    darkness: dict[str, CardDef]
    artifacts: dict[str, PowerDef]
    all_powers: dict[str, PowerDef] = field(default_factory=dict)
    blights_by_effect: dict[str, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)
    """effect -> (its red blight types, which apply everywhere; its other types, which apply
    where they lie): the rules ask "is this effect active here" many times per command (an
    index of the content above, not content)."""
    any_time_powers: frozenset[str] = frozenset()
    """The powers and artifacts with an "any time" use (DN 14.3.2), offered to every seat
    in every prompt (an index)."""
    protecting_blights: dict[str, str] = field(default_factory=dict)
    """blight type -> its effect, for the blights that protect others (``PROTECTING``): asked
    for every blight a prompt offers to attack (an index)."""

    def powers(self) -> dict[str, PowerDef]:
        """Every power and artifact by id."""
        return self.all_powers


def _read(name: str) -> dict[str, Any]:
    return read_toml(CONTENT, name)


def _foe(name: str, strength: int, awareness: int) -> Foe:
    return Foe(name, strength or None, awareness or None)


def _power(raw: dict[str, Any], owner: str, artifact: bool = False) -> PowerDef:
    return PowerDef(
        id=raw["id"],
        name=raw["name"],
        owner=owner,
        starting=bool(raw.get("starting", False)),
        text=raw["text"],
        tactic=tuple(raw.get("tactic", ())),
        bonus=tuple(raw.get("bonus", ())),
        action=raw.get("action"),
        active=tuple(raw.get("active", ())),
        inactive=tuple(raw.get("inactive", ())),
        any_time=raw.get("any_time"),
        requires_quests=bool(raw.get("requires_quests", False)),
        artifact=artifact,
    )


def _card(raw: dict[str, Any]) -> CardDef:
    known = {"id", "name", "text", "copies", "fate", "effects", "source"}
    return CardDef(
        id=raw["id"],
        name=raw["name"],
        text=raw.get("text", ""),
        copies=int(raw.get("copies", 1)),
        fate=int(raw.get("fate", 0)),
        effects=tuple(raw.get("effects", ())),
        data={k: v for k, v in raw.items() if k not in known},
    )


@cache
def load() -> Content:
    board = _read("board.toml")["location"]
    blights = {}
    for raw in _read("blights.toml")["blight"]:
        monster = raw.get("monster")
        blights[raw["name"]] = BlightDef(
            name=raw["name"],
            might=raw["might"],
            color=raw["color"],
            tokens=raw["tokens"],
            effect=raw["effect"],
            params=raw.get("params", {}),
            text=raw["text"],
            defense=tuple(raw["defense"]),
            monster=_foe(raw["name"], monster["strength"], monster["awareness"]) if monster else None,
            monster_fail=tuple(monster["fail"]) if monster else (),
        )
    heroes: dict[str, HeroDef] = {}
    hero_dir = CONTENT / "heroes"
    paths = sorted(hero_dir.glob("*.toml")) if hero_dir.exists() else []
    # Heroes are offered by ``order`` (0 unless given), then by file name: the sixteen added
    # last (order 1) follow the first thirteen, so a table offers its first choices as before.
    for raw in sorted(
        (tomllib.loads(p.read_text(encoding="utf-8")) for p in paths), key=lambda r: r.get("order", 0)
    ):
        hero_id = raw["id"]
        heroes[hero_id] = HeroDef(
            id=hero_id,
            name=raw["name"],
            grace=raw["grace"],
            secrecy=raw["secrecy"],
            powers=tuple(_power(p, hero_id) for p in raw.get("power", ())),
        )
    artifacts = {
        r["id"]: _power(r, "artifact", artifact=True) for r in _read("artifacts.toml").get("artifact", ())
    }
    all_powers = {p.id: p for h in heroes.values() for p in h.powers} | artifacts
    blights_by_effect = {
        effect: (
            frozenset(b.name for b in blights.values() if b.effect == effect and b.color == "red"),
            frozenset(b.name for b in blights.values() if b.effect == effect and b.color != "red"),
        )
        for effect in {b.effect for b in blights.values()}
    }
    return Content(
        locations={
            r["name"]: LocationDef(
                r["name"], tuple(r["adjacent"]), tuple(r["necromancer"]), r["search"], r["relic"]
            )
            for r in board
        },
        blights=blights,
        map_cards={
            r["id"]: MapCard(r["id"], r["blights"], r["search"], r["quest"], tuple(r["subdecks"]))
            for r in _read("map.toml")["card"]
        },
        foes={
            r["name"]: _foe(r["name"], r["strength"], r["awareness"]) for r in _read("enemies.toml")["enemy"]
        },
        items={
            r["kind"]: ItemDef(
                r["kind"],
                r["name"],
                r["tokens"],
                r["back"],
                r["when"],
                r["use"],
                r.get("params", {}),
                r["text"],
            )
            for r in _read("items.toml")["item"]
        },
        heroes=heroes,
        events={r["id"]: _card(r) for r in _read("events.toml").get("event", ())},
        quests={r["id"]: _card(r) for r in _read("quests.toml").get("quest", ())},
        mysteries={r["id"]: _card(r) for r in _read("mysteries.toml").get("mystery", ())},
        darkness={r["id"]: _card(r) for r in _read("darkness.toml").get("darkness", ())},
        artifacts=artifacts,
        all_powers=all_powers,
        blights_by_effect=blights_by_effect,
        any_time_powers=frozenset(p.id for p in all_powers.values() if p.any_time),
        protecting_blights={b.name: b.effect for b in blights.values() if b.effect in PROTECTING},
    )
