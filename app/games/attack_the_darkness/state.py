"""The state of an Attack the Darkness table: typed records (``Character``, ``Monster``,
``Tile``, ``Play``…) in plain containers, so a copy is cheap to make and compare; changed
only by the event appliers (``events.py``).

Card instances are named by seat and position in the character's starting decks
(``"0a12"``: seat 0's 13th action card, ``"2r3"``: seat 2's 4th resource card), dungeon
cards ``"d0"``…``"d79"``, advancement cards ``"v0"``…``"v35"``, monsters ``"m1"``…; which
card an instance is, is fixed by the public deck lists, so only *where* it is can be
secret (AtD L243: deck orders; hands; face-down tiles).

``State.clone`` copies every mutable record and container (a command's rules and its fold
each change a clone); the frozen records (``InPlay``, ``Penalty``, a typed decision) are
shared. Each record's ``copy`` sets its slots on a bare object: cheaper than its
``__init__``, and the state is cloned twice per command."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, TypeVar

from app.games.attack_the_darkness.grid import Square, tile_squares
from app.kernel.flow import Decision, Step

R = TypeVar("R")


def _bare(cls: type[R]) -> R:
    """An instance with no slot set yet (``copy`` methods fill every slot)."""
    return cls.__new__(cls)  # type: ignore[call-overload, no-any-return]


@dataclass(frozen=True, slots=True)
class InPlay:
    """An action card kept in play while its duration lasts (AtD L168-170)."""

    card: str
    until: int
    """The round at whose start it expires."""
    on: str | None
    """The combatant it lasts on (``"m5"``): discarded when that monster dies."""


@dataclass(frozen=True, slots=True)
class Penalty:
    """A penalty to saves, movement or damage (AtD L295): ``n`` less until round
    ``until`` ends, or (a character in the Arena) for the next ``left`` uses."""

    n: int
    until: int | None
    left: int | None

    def live(self, round_: int) -> bool:
        return self.left > 0 if self.left is not None else (self.until or 0) > round_


@dataclass(slots=True)
class Character:
    """A seat's character (AtD L49-56): its class, health, token, decks, hand, discards,
    cards in play, equipment and advancements, and what it used this turn or encounter."""

    cls: str
    hp: int
    max_hp: int
    speed: int
    pos: Square | None = None
    """Its token's square; None off the map (between encounters)."""
    actions: list[str] = field(default_factory=list)
    """The action deck, top first (hidden)."""
    resources: list[str] = field(default_factory=list)
    """The resource deck, top first (hidden)."""
    hand_a: list[str] = field(default_factory=list)
    """Action cards in hand."""
    hand_r: list[str] = field(default_factory=list)
    """Resource cards in hand."""
    disc_a: list[str] = field(default_factory=list)
    disc_r: list[str] = field(default_factory=list)
    in_play: list[InPlay] = field(default_factory=list)
    equipment: list[str] = field(default_factory=list)
    advancements: list[str] = field(default_factory=list)
    fatigued: bool = False
    """An empty deck when a draw was needed (AtD L70-71)."""
    speed_used: bool = False
    """The speed move is once per turn (AtD L82)."""
    statuses: dict[str, int] = field(default_factory=dict)
    """``stunned`` / ``immobilized`` → the round it ends."""
    used: dict[str, bool] = field(default_factory=dict)
    """Equipment and abilities used: ``round:<item>``, ``enc:<item>``, ``enc:ability``,
    ``dungeon``."""
    penalties: dict[str, Penalty] = field(default_factory=dict)
    """By stat (``save``, ``move``, ``damage``); each entry replaced, never changed."""

    def deck(self, which: str) -> list[str]:
        """The ``actions`` or ``resources`` deck."""
        return self.actions if which == "actions" else self.resources

    def discards(self, which: str) -> list[str]:
        """The discards of the ``actions`` or ``resources`` deck."""
        return self.disc_a if which == "actions" else self.disc_r

    def copy(self) -> Character:
        ch = _bare(Character)
        ch.cls = self.cls
        ch.hp = self.hp
        ch.max_hp = self.max_hp
        ch.speed = self.speed
        ch.pos = self.pos
        ch.actions = list(self.actions)
        ch.resources = list(self.resources)
        ch.hand_a = list(self.hand_a)
        ch.hand_r = list(self.hand_r)
        ch.disc_a = list(self.disc_a)
        ch.disc_r = list(self.disc_r)
        ch.in_play = list(self.in_play)
        ch.equipment = list(self.equipment)
        ch.advancements = list(self.advancements)
        ch.fatigued = self.fatigued
        ch.speed_used = self.speed_used
        ch.statuses = dict(self.statuses)
        ch.used = dict(self.used)
        ch.penalties = dict(self.penalties)
        return ch


MONSTER_STATUSES = ("stunned", "immobilized", "dominated", "pressure")
"""A monster's statuses, each the round it ends (AtD L73-75, L173)."""


@dataclass(slots=True)
class Monster:
    """A monster on the map (AtD L209-221): its card, its line entry (``"L3"``), HP and
    square, the defences it used this round, its statuses and penalties."""

    card: str
    entry: str
    hp: int
    pos: Square
    defended: int = 0
    """Attacks it defended this round (AtD L216)."""
    stunned: int = 0
    immobilized: int = 0
    dominated: int = 0
    dominator: int | None = None
    """The seat that dominated it (AtD L75)."""
    pressure: int = 0
    """Pressure Point: its INF defences count 1 until this round (AtD L173)."""
    summoned: bool = False
    penalties: dict[str, Penalty] = field(default_factory=dict)
    """By stat; each entry replaced, never changed."""

    def copy(self) -> Monster:
        m = _bare(Monster)
        m.card = self.card
        m.entry = self.entry
        m.hp = self.hp
        m.pos = self.pos
        m.defended = self.defended
        m.stunned = self.stunned
        m.immobilized = self.immobilized
        m.dominated = self.dominated
        m.dominator = self.dominator
        m.pressure = self.pressure
        m.summoned = self.summoned
        m.penalties = dict(self.penalties)
        return m


@dataclass(slots=True)
class Tile:
    """A placed map tile (AtD L244-251): its corner, orientation (``"v"`` 3 wide, ``"h"`` 4
    wide), whether it is the stairs, and the face-down dungeon card it is (None for the
    stairs, or once a mystery on it is resolved)."""

    x: int
    y: int
    o: str
    stairs: bool
    card: str | None
    flipped: bool = False

    def copy(self) -> Tile:
        t = _bare(Tile)
        t.x = self.x
        t.y = self.y
        t.o = self.o
        t.stairs = self.stairs
        t.card = self.card
        t.flipped = self.flipped
        return t


@dataclass(slots=True)
class Play:
    """The card (or equipment used alone) being resolved (AtD L140-143, L181-184)."""

    seat: int
    card: str | None
    """The action card instance; None for equipment used alone."""
    rcs: list[str]
    """The resource cards paying for it (they modify it, AtD L121-124)."""
    x: int
    """The value of X (AtD L174-176)."""
    context: str
    """``turn`` (the player's own action step) or ``defend`` (a defence window, AtD L151)."""
    equipment: str | None = None
    """The equipment used alone (AtD L205)."""
    durations: list[tuple[int, str]] = field(default_factory=list)
    """(until, on) for each status or penalty it set: it stays in play while one lasts."""
    protect: str | None = None
    """The combatant a Defense card protects (the attack's target)."""
    mods: list[str] = field(default_factory=list)
    """Equipment added to the card as a modifier (Battle Axe, AtD L208)."""
    damage_penalty: int | None = None
    """An Arena damage penalty spent on this card, for each of its targets (AtD L295)."""

    def copy(self) -> Play:
        p = _bare(Play)
        p.seat = self.seat
        p.card = self.card
        p.rcs = list(self.rcs)
        p.x = self.x
        p.context = self.context
        p.equipment = self.equipment
        p.durations = list(self.durations)
        p.protect = self.protect
        p.mods = list(self.mods)
        p.damage_penalty = self.damage_penalty
        return p


@dataclass
class State:
    mode: str = ""
    names: list[str] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    teams: list[int] = field(default_factory=list)
    dungeon: str = "random"
    dungeon_names: list[str] = field(default_factory=list)
    """The name of each dungeon of the campaign, in order (one outside a campaign)."""
    encounters: int = 4
    bosses: bool = False
    cards: dict[str, str] = field(default_factory=dict)
    """Instance → card id, for every player, dungeon and advancement card."""
    chars: list[Character] = field(default_factory=list)
    """Each seat's character."""
    order: list[int] = field(default_factory=list)
    """Marching order (Adventure, Tabletop) or initiative order (Arena), AtD L242, L290."""
    tiles: list[Tile] = field(default_factory=list)
    """The placed tiles, the stairs first."""
    pool: list[str] = field(default_factory=list)
    """Dungeon cards drawn as tiles but not placed yet."""
    arena_walls: list[Square] = field(default_factory=list)
    monsters: dict[str, Monster] = field(default_factory=dict)
    """The monsters on the map by id (``"m5"``)."""
    line: list[str] = field(default_factory=list)
    """The line of monster cards, left to right (AtD L257, L270): entries ``"L3"`` → card ids."""
    line_cards: dict[str, list[str]] = field(default_factory=dict)
    monster_seq: int = 0
    monster_cards: dict[str, str] = field(default_factory=dict)
    """Every monster placed this game, id → its card: the log names one after it died."""
    dungeon_deck: list[str] = field(default_factory=list)
    dungeon_discard: list[str] = field(default_factory=list)
    known_bottom: list[str] = field(default_factory=list)
    """Revealed cards put back at the bottom of the dungeon deck (AtD L225): public, not secret."""
    set_aside: list[str] = field(default_factory=list)
    """Boss cards drawn before their set is complete (AtD L224)."""
    reserved: list[str] = field(default_factory=list)
    """A sample dungeon's set-aside cards for a later encounter (AtD L444, L456, L462)."""
    seed: list[str] = field(default_factory=list)
    """Cards that seed the next encounter: dug monsters (half danger) and ambushes."""
    seed_danger: int = 0
    revealed: int = 0
    """The danger revealed so far while populating the encounter (AtD L257)."""
    adv_deck: list[str] = field(default_factory=list)
    adv_draw: dict[str, list[str]] = field(default_factory=dict)
    dungeon_index: int = 0
    encounter: int = 0
    tiles_next: int = 7
    successes: int = 0
    danger: int = 0
    round: int = 0
    turn: int | None = None
    in_encounter: bool = False
    play: Play | None = None
    """The card being resolved."""
    suspended: list[Play] = field(default_factory=list)
    """Plays set aside while a defence card answers them (an Arena attack, AtD L151)."""
    guard: dict[str, int] = field(default_factory=dict)
    """Saves raised by Defense cards against the attack being resolved (seat → save)."""
    leftover: dict[str, int] = field(default_factory=dict)
    """Hearty's unspent Stamina, for one more action this turn (AtD L192)."""
    between: bool = False
    chapter_results: list[str] = field(default_factory=list)
    cuts: dict[str, list[int]] = field(default_factory=dict)
    """Each seat's Arena cuts so far; a tie is cut again and compared on the next cut."""
    last_cuts: dict[str, list[int]] = field(default_factory=dict)
    """The cuts that set the initiative (AtD L290), shown once the order is set."""
    peeked: dict[str, list[str]] = field(default_factory=dict)
    """Cards a player arranged on top of a deck (``"<seat>:<deck>"``): that player knows them."""
    agenda: list[Step] = field(default_factory=list)
    decision: Decision | None = None
    result: dict[str, Any] | None = None

    def clone(self) -> State:
        """A copy sharing nothing the appliers change in place (each mutable record and
        container is new; frozen records and decisions are shared)."""
        new = copy.copy(self)
        new.chars = [ch.copy() for ch in self.chars]
        new.tiles = [t.copy() for t in self.tiles]
        new.monsters = {k: m.copy() for k, m in self.monsters.items()}
        new.line_cards = {k: list(v) for k, v in self.line_cards.items()}
        new.monster_cards = dict(self.monster_cards)
        new.play = None if self.play is None else self.play.copy()
        new.suspended = [p.copy() for p in self.suspended]
        new.cuts = {k: list(v) for k, v in self.cuts.items()}
        new.last_cuts = {k: list(v) for k, v in self.last_cuts.items()}
        new.adv_draw = {k: list(v) for k, v in self.adv_draw.items()}
        new.peeked = {k: list(v) for k, v in self.peeked.items()}
        new.guard = dict(self.guard)
        new.leftover = dict(self.leftover)
        for name in (
            "names",
            "classes",
            "teams",
            "order",
            "pool",
            "line",
            "dungeon_deck",
            "dungeon_discard",
            "known_bottom",
            "set_aside",
            "reserved",
            "seed",
            "adv_deck",
            "chapter_results",
            "arena_walls",
            "dungeon_names",
        ):
            setattr(new, name, list(getattr(self, name)))
        new.agenda = [dict(st) for st in self.agenda]
        return new

    @property
    def started(self) -> bool:
        return bool(self.names)

    @property
    def arena(self) -> bool:
        return self.mode == "arena"

    @property
    def tabletop(self) -> bool:
        return self.mode == "tabletop"

    def open_squares(self) -> frozenset[Square]:
        return _open_squares(
            tuple((t.x, t.y, t.o) for t in self.tiles),
            tuple(self.arena_walls),
            self.arena,
        )

    def stairs_squares(self) -> list[Square]:
        return [sq for t in self.tiles if t.stairs for sq in tile_squares(t.x, t.y, t.o)]


_OPEN_CACHE: dict[tuple[Any, ...], frozenset[Square]] = {}


def _open_squares(
    tiles: tuple[tuple[int, int, str], ...], walls: tuple[Square, ...], arena: bool
) -> frozenset[Square]:
    key = (tiles, walls, arena)
    found = _OPEN_CACHE.get(key)
    if found is None:
        if arena:
            found = frozenset((x, y) for x in range(12) for y in range(12)) - set(walls)
        else:
            found = frozenset(sq for t in tiles for sq in tile_squares(*t))
        if len(_OPEN_CACHE) > 5000:
            _OPEN_CACHE.clear()
        _OPEN_CACHE[key] = found  # type: ignore[assignment]
    return found  # type: ignore[return-value]
