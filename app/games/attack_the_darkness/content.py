"""Attack the Darkness content, read from ``content/*.toml`` with the kernel's reader
(DESIGN.md, "Content"): player cards (AtD L115-167), the sample decks (AtD L328-436),
classes (AtD L109-114), the 80 dungeon cards (AtD L196-228), the 36 advancements
(AtD L163-167), the stairs tile, The Arena and the five sample dungeons (AtD L437-466).

Every entry says ``source = "rulebook"`` (with ``ref``) or ``"authored"``; effects name ops
(``EFFECT_OPS``) that the rules give effect to (``rules/``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from app.kernel.flow.content import read_toml

CONTENT = Path(__file__).with_name("content")

RESOURCE_NAMES = {"S": "Stamina", "F": "Focus", "M": "Mana"}
COLOURS: dict[str, str] = {"R": "S", "Y": "F", "B": "M", "O": "SF", "P": "SM", "G": "FM", "W": "SFM"}
"""Cost colour → the resources that pay it (AtD L132-139: red Stamina, yellow Focus, blue
Mana, orange Stamina or Focus, purple Stamina or Mana, green Focus or Mana, white any)."""
COLOUR_NAMES = {
    "R": "red",
    "Y": "yellow",
    "B": "blue",
    "O": "orange",
    "P": "purple",
    "G": "green",
    "W": "white",
}
IMPACTS = {
    "I": "inquisitor",
    "M": "magician",
    "P": "psion",
    "A": "assassin",
    "C": "champion",
    "T": "templar",
    "S": "samurai",
}
"""The letters of IMPACTS name the classes a card is legal for (AtD L306-308)."""
CLASS_IDS = ("champion", "assassin", "magician", "samurai", "templar", "inquisitor", "psion")
TIMING_TYPES = ("attack", "maneuver", "recovery", "command")
"""Action types played on your own turn; ``defense`` in an enemy's turn (AtD L147-151)."""

EFFECT_OPS = frozenset(
    {
        # action-card, equipment and ability effects
        "damage",
        "damage_x",
        "heal",
        "heal_x",
        "move",
        "push",
        "save",
        "draw",
        "stun",
        "immobilize",
        "dominate",
        "pressure",
        "penalty",
        "arrange_top",
        "speed_move",
        # resource-card modifiers (AtD L121-124)
        "bonus_damage",
        "multiplier",
        "reach",
        "bonus_save",
        "bonus_move",
        "bonus_heal",
        "bonus_push",
        "split",
        "double_discards",
        "stun_target",
        "immobilize_target",
        "vs_boss",
        # mysteries
        "lose_hp",
        "heal_party",
        "find_equipment",
        "advancement",
        "ambush",
        # advancements
        "hand_rc",
        "hand_ac",
        "max_hp",
        "speed",
        "heal_on_clear",
    }
)
"""Every op a content entry may name; the content test checks each entry against it."""


@dataclass(frozen=True, slots=True)
class Part:
    """One action type of a card with its distance, targets and effects (AtD L152-162)."""

    type: str
    distance: str
    targets: Any  # "self", "area", {"enemy": n} or {"ally": n}
    effects: tuple[dict[str, Any], ...]

    @property
    def side(self) -> str:
        if self.targets == "self":
            return "self"
        if self.targets == "area":
            return "area"
        return "enemy" if "enemy" in self.targets else "ally"

    @property
    def count(self) -> int:
        return (
            int(self.targets.get("enemy", self.targets.get("ally", 1)))
            if isinstance(self.targets, dict)
            else 1
        )

    def effect(self, op: str) -> dict[str, Any] | None:
        return next((e for e in self.effects if e["op"] == op), None)


@dataclass(frozen=True, slots=True)
class Cost:
    """An action card's cost: parts of (count, colour); count None is X (AtD L174-176)."""

    parts: tuple[tuple[int | None, str], ...]

    @property
    def is_x(self) -> bool:
        return any(n is None for n, _ in self.parts)

    @property
    def total(self) -> int:
        """The printed total with X = 1 (AtD L177: an X read off an unplayed card is 1)."""
        return sum(1 if n is None else n for n, _ in self.parts)

    def label(self) -> str:
        if not self.parts:
            return "0"
        return " + ".join(f"{'X' if n is None else n} {COLOUR_NAMES[c]}" for n, c in self.parts)


def parse_cost(text: str) -> Cost:
    """``"1R"``, ``"1B1Y"``, ``"X:B"``, ``"0"``."""
    if text == "0":
        return Cost(())
    if text.startswith("X:"):
        return Cost(((None, text[2:]),))
    return Cost(tuple((int(n), c) for n, c in re.findall(r"(\d+)([RYBOPGW])", text)))


@dataclass(frozen=True, slots=True)
class ActionCard:
    id: str
    name: str
    classes: str
    cost: Cost
    parts: tuple[Part, ...]
    condition: dict[str, Any]
    on_own_turn: bool
    arena_banned: bool
    source: str

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(p.type for p in self.parts)


@dataclass(frozen=True, slots=True)
class ResourceCard:
    id: str
    name: str
    classes: str
    resources: tuple[tuple[int, str], ...]  # (amount, kinds): kinds "S" or a choice "FM"
    effects: tuple[dict[str, Any], ...]
    condition: dict[str, Any]
    attack_only: bool
    core: bool
    arena_banned: bool
    source: str

    def modifier(self, op: str) -> int:
        return sum(int(e["n"]) for e in self.effects if e["op"] == op)


@dataclass(frozen=True, slots=True)
class ClassCard:
    id: str
    name: str
    letter: str
    resources: str
    cores: tuple[str, ...]
    speed: int
    hp: int
    ability: dict[str, Any]


@dataclass(frozen=True, slots=True)
class MonsterCard:
    id: str
    name: str
    type: str
    number: int
    attacks: dict[str, Any]
    maneuver: dict[str, Any]
    defenses: dict[str, Any]
    hp: int
    danger: int
    behaviour: tuple[str, ...]
    boss_set: str | None
    boss_part: int
    boss_parts: int
    summon: str | None

    @property
    def flying(self) -> bool:
        return self.maneuver.get("mode") == "fly"


@dataclass(frozen=True, slots=True)
class Equipment:
    id: str
    name: str
    slots: int
    uses: str
    condition: dict[str, Any]
    parts: tuple[Part, ...]
    modifies: dict[str, Any] = field(default_factory=dict)
    """Used with an action card instead of alone (AtD L205, L208): the ``type`` and
    ``distance`` of the card part it modifies and the modifier ``effects`` it adds."""

    def fits(self, part: Part) -> bool:
        m = self.modifies
        return bool(m) and part.type == m.get("type") and part.distance == m.get("distance")

    def modifier(self, op: str) -> int:
        return sum(int(e["n"]) for e in self.modifies.get("effects", ()) if e["op"] == op)


@dataclass(frozen=True, slots=True)
class Mystery:
    id: str
    name: str
    effects: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Advancement:
    id: str
    name: str
    danger: int
    stacks: bool
    effects: tuple[dict[str, Any], ...]

    def bonus(self, op: str) -> int:
        return sum(int(e["n"]) for e in self.effects if e["op"] == op)


@dataclass(frozen=True, slots=True)
class Deck:
    cls: str
    resources: dict[str, int]
    actions: dict[str, int]
    arena_resources: dict[str, int]
    arena_actions: dict[str, int]


@dataclass(frozen=True, slots=True)
class Dungeon:
    id: str
    name: str
    removed: tuple[str, ...]
    set_aside: tuple[str, ...]
    set_aside_encounter: int
    encounters: tuple[tuple[str, tuple[tuple[int, int, str], ...]], ...]


@dataclass(frozen=True)
class Content:
    actions: dict[str, ActionCard]
    resources: dict[str, ResourceCard]
    classes: dict[str, ClassCard]
    decks: dict[str, Deck]
    monsters: dict[str, MonsterCard]
    equipment: dict[str, Equipment]
    mysteries: dict[str, Mystery]
    advancements: dict[str, Advancement]
    dungeon_copies: dict[str, int]
    advancement_copies: dict[str, int]
    dungeons: dict[str, Dungeon]
    arena: dict[str, Any]
    stairs: dict[str, Any]
    raw: dict[str, dict[str, Any]]

    def dungeon_kind(self, card: str) -> str:
        if card in self.monsters:
            return "monster"
        if card in self.equipment:
            return "equipment"
        return "mystery"

    def dungeon_name(self, card: str) -> str:
        for table in (self.monsters, self.equipment, self.mysteries):
            if card in table:
                entry = table[card]
                name = str(entry.name)
                if isinstance(entry, MonsterCard) and entry.boss_set:
                    name += f" ({entry.boss_part} of {entry.boss_parts})"
                return name
        return card

    def card_name(self, card: str) -> str:
        if card in self.actions:
            return self.actions[card].name
        if card in self.resources:
            return self.resources[card].name
        return card


def _parts(raw: list[dict[str, Any]]) -> tuple[Part, ...]:
    return tuple(Part(p["type"], p["distance"], p["targets"], tuple(p["effects"])) for p in raw)


def _resources(raw: list[str]) -> tuple[tuple[int, str], ...]:
    return tuple((int(r.split(":")[0]), r.split(":")[1]) for r in raw)


@cache
def load() -> Content:
    cards = read_toml(CONTENT, "player_cards.toml")
    actions = {
        a["id"]: ActionCard(
            a["id"],
            a["name"],
            a["classes"],
            parse_cost(a["cost"]),
            _parts(a["parts"]),
            dict(a.get("condition", {})),
            bool(a.get("on_own_turn")),
            bool(a.get("arena_banned")),
            a["source"],
        )
        for a in cards["action"]
    }
    resources = {
        r["id"]: ResourceCard(
            r["id"],
            r["name"],
            r["classes"],
            _resources(r["resources"]),
            tuple(r["effects"]),
            dict(r.get("condition", {})),
            bool(r.get("attack_only")),
            bool(r.get("core")),
            bool(r.get("arena_banned")),
            r["source"],
        )
        for r in cards["resource"]
    }
    classes = {
        c["id"]: ClassCard(
            c["id"],
            c["name"],
            c["letter"],
            c["resources"],
            tuple(c["cores"]),
            c["speed"],
            c["hp"],
            c["ability"],
        )
        for c in read_toml(CONTENT, "classes.toml")["class"]
    }
    decks = {
        d["class"]: Deck(
            d["class"],
            d["resources"],
            d["actions"],
            d.get("arena_resources", d["resources"]),
            d.get("arena_actions", d["actions"]),
        )
        for d in read_toml(CONTENT, "decks.toml")["deck"]
    }
    dungeon = read_toml(CONTENT, "dungeon_cards.toml")
    monsters = {
        m["id"]: MonsterCard(
            m["id"],
            m["name"],
            m["type"],
            m["number"],
            m["attacks"],
            m["maneuver"],
            m["defenses"],
            m["hp"],
            m["danger"],
            tuple(m["behaviour"]),
            m.get("boss_set"),
            m.get("boss_part", 0),
            m.get("boss_parts", 0),
            m.get("summon"),
        )
        for m in dungeon["monster"]
    }
    equipment = {
        e["id"]: Equipment(
            e["id"],
            e["name"],
            e["slots"],
            e["uses"],
            dict(e.get("condition", {})),
            _parts(e["parts"]),
            dict(e.get("modifies", {})),
        )
        for e in dungeon["equipment"]
    }
    mysteries = {m["id"]: Mystery(m["id"], m["name"], tuple(m["effects"])) for m in dungeon["mystery"]}
    copies = {e["id"]: int(e["copies"]) for table in dungeon.values() for e in table}
    adv_raw = read_toml(CONTENT, "advancements.toml")["advancement"]
    advancements = {
        a["id"]: Advancement(a["id"], a["name"], a["danger"], a["stacks"], tuple(a["effects"]))
        for a in adv_raw
    }
    maps = read_toml(CONTENT, "maps.toml")
    dungeons = {
        d["id"]: Dungeon(
            d["id"],
            d["name"],
            tuple(d["removed"]),
            tuple(d["set_aside"]),
            d["set_aside_encounter"],
            tuple(
                (e["name"], tuple((int(x), int(y), str(o)) for x, y, o in e["tiles"]))
                for e in d["encounters"]
            ),
        )
        for d in maps["dungeon"]
    }
    return Content(
        actions,
        resources,
        classes,
        decks,
        monsters,
        equipment,
        mysteries,
        advancements,
        copies,
        {a["id"]: int(a["copies"]) for a in adv_raw},
        dungeons,
        maps["arena"],
        maps["stairs"],
        {"cards": cards, "dungeon": dungeon, "maps": maps},
    )
