"""The state of a Dark Omen campaign table: mutable, as the flow engine needs (``decide``
works on a ``clone``, ``evolve`` too). Everything here is plain data (ints, strings, lists,
dicts), so a clone is a deep copy and two states compare equal field by field."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from app.kernel.flow import Decision, Step

START_HP = 15
START_MP = 15
TRACK_MAX = 30
"""Health and morale tracks run 1–30 (DO L88, L194-197)."""
AP_PER_ROUND = 6
ROUNDS_PER_DAY = 4
DAYS_PER_CHAPTER = 6
CHAPTERS = 4
INVENTORY = 6
POTIONS = 3
METER_MAX = 8
METER_START = 4
"""Decision (facts §17): the darkness meter runs 0–8 and starts in the middle."""
OBSTACLE_MP = 4
"""Crossing a black line costs 4 MP (DO L240)."""


@dataclass
class Hero:
    seat: int
    character: str
    hp: int = START_HP
    max_hp: int = TRACK_MAX
    mp: int = START_MP
    gold: int = 0
    at: int | str = 39
    """A space (1–111) or a town node (``"Hoglichten:market"``)."""
    alive: bool = True
    ap: int = 0
    """Action points spent this round."""
    ap_limit: int = 6
    done: bool = False
    """Finished the round: 6 AP spent, or passed (DO L211)."""
    inventory: list[str] = field(default_factory=list)
    potions: list[str] = field(default_factory=list)
    gear: list[str] = field(default_factory=list)
    equipped: dict[str, str] = field(default_factory=dict)
    """Slot → gear id: primary, secondary, helmet, body, shield, accessory1/2, artifact (DO L386)."""
    charges: dict[str, int] = field(default_factory=dict)
    """Gear id → charges left (torches, DO L318, L339)."""
    runes: list[str] = field(default_factory=list)
    blood: int = 0
    guild: str | None = None
    pending: dict[str, Any] | None = None
    """A sub-question this seat must answer before anything else: a battle's boost window,
    a runehenge's directions, a gamble's keeps, a new character after a death."""
    must_attack: str | None = None
    """A surprise attack claims the next AP (DO L244)."""
    effects: dict[str, int] = field(default_factory=dict)
    """Short-lived effects: speed steps, levity, adrenaline debt, black tokens…"""
    used: list[str] = field(default_factory=list)
    """Once-per-day or once-per-round uses (``"rejuvenation"``, ``"barrow_search"``…)."""
    engaged: bool = False
    """Last AP attacked an enemy: changing gear costs 1 AP (DO L386)."""
    discount: int = 0
    """A haggled discount for the next purchase at this market (DO L335-336)."""

    def clone(self) -> Hero:
        """A copy whose lists and dicts may be changed freely (cheaper than a deep copy)."""
        new = copy.copy(self)
        new.inventory, new.potions, new.gear = list(self.inventory), list(self.potions), list(self.gear)
        new.runes, new.used = list(self.runes), list(self.used)
        new.equipped, new.charges, new.effects = dict(self.equipped), dict(self.charges), dict(self.effects)
        new.pending = copy.deepcopy(self.pending) if self.pending is not None else None
        return new


@dataclass
class State:
    names: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    chapter: int | None = None
    first_chapter: int = 1
    last_chapter: int = CHAPTERS
    day: int = 0
    round: int = 0
    results: list[str] = field(default_factory=list)
    meter: int = METER_START
    layers: dict[str, int] = field(default_factory=lambda: {"white": 0, "clear": 0})
    heroes: list[Hero] = field(default_factory=list)
    fallen: list[str] = field(default_factory=list)
    """Characters that died: they never return (DO L202)."""
    loot: dict[int, str] = field(default_factory=dict)
    """Face-down loot token per space (hidden, DO L82)."""
    dropped: dict[int, list[str]] = field(default_factory=dict)
    """Face-up loot lying on a space (dropped, or revealed with no room)."""
    deals: int = 0
    """Loot tokens dealt so far: each deal names its token instance anew (content.face)."""
    pile: list[str] = field(default_factory=list)
    """The loot tokens not on the map or in hands (drawn at random; kept sorted)."""
    locations: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Space → {"kind", "open"}: location tokens start face down (DO L301-302)."""
    creatures: list[dict[str, Any]] = field(default_factory=list)
    """Enemies on the map: {id, space, level, card, hp, armor, dr, kind, involved, …}."""
    next_creature: int = 1
    omen_days: list[int] = field(default_factory=list)
    omen: dict[str, Any] | None = None
    """The day's omen: {id, status ("active", "success", "failure"), progress}."""
    omens_seen: list[str] = field(default_factory=list)
    props: list[dict[str, Any]] = field(default_factory=list)
    """The omen's own setup on the map (DO L141-143): generic tokens standing for fires,
    graves, omen loot and people to escort, {id, kind, name, space, carried_by}."""
    barrows: list[int] = field(default_factory=list)
    barrows_gone: int = 0
    campfires: list[int] = field(default_factory=list)
    vortices: list[int] = field(default_factory=list)
    story_read: list[str] = field(default_factory=list)
    graves: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Space (as text) → the belongings a fallen zombie guarded (DO L201-202)."""
    gambles: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Games of chance being played, by their host's seat (as text, DO L342)."""
    save_point: dict[str, Any] | None = None
    """The chapter's start (DO L114: the rulebook's save point), to restart it after a wipe;
    replaced whole, never changed in place."""
    agenda: list[Step] = field(default_factory=list)
    decision: Decision | None = None
    result: dict[str, Any] | None = None

    def clone(self) -> State:
        new = copy.copy(self)
        for name in (
            "names",
            "results",
            "fallen",
            "pile",
            "omen_days",
            "omens_seen",
            "barrows",
            "campfires",
            "vortices",
            "story_read",
        ):
            setattr(new, name, list(getattr(self, name)))
        new.options = dict(self.options)
        new.layers = dict(self.layers)
        new.heroes = [h.clone() for h in self.heroes]
        new.loot = dict(self.loot)
        new.dropped = {k: list(v) for k, v in self.dropped.items()}
        new.locations = {k: dict(v) for k, v in self.locations.items()}
        new.creatures = [{**c, "involved": list(c["involved"])} for c in self.creatures]
        new.gambles = copy.deepcopy(self.gambles)
        new.graves = dict(self.graves)  # each grave is replaced or removed whole, never changed
        new.omen = copy.deepcopy(self.omen)
        new.props = [dict(p) for p in self.props]
        new.agenda = [dict(st) for st in self.agenda]
        return new

    @property
    def started(self) -> bool:
        return bool(self.names)

    @property
    def night(self) -> bool:
        """Rounds 1–2 are day, 3–4 night (decision, facts §3); the Underworld is always
        night (DO L504)."""
        return self.chapter == 4 or self.round >= 3

    def living(self) -> list[Hero]:
        return [h for h in self.heroes if h.alive]

    def creature(self, cid: str) -> dict[str, Any] | None:
        return next((c for c in self.creatures if c["id"] == cid), None)
