"""The state of a Darkest Night table. Plain data, changed only by ``apply`` (events.py).

Hidden parts (deck orders, the Necromancer player's hand) live here and are filtered out by
``view``. ``evolve`` and ``decide`` change a ``fork`` of the state, so every state a caller holds
stays as it was (a pure fold). Two copies:

- ``clone`` is a hand-written structural copy (a pickle round trip cost a third of every
  command): each mutable container and record is new, every immutable value (text,
  numbers, tuples, frozen dataclasses such as a typed decision) is shared.
- ``fork`` is the engine's successor: a ``clone`` that also shares what no one changes in
  place, above all the fallen heroes (half the heroes late in a game), copied on write,
  the decks, each copied when first read (``DecksOnRead``; ``settle`` ends that), and the
  power and item records in the living heroes' (new) lists, which only the appliers ever
  change, each through ``Hero.power_w`` / ``item_w`` (a private copy put in its place).

Why not share more (every hero, deck, quest) until it is written? The rules hold a part
across the events they emit (``deck = s.decks[name]``, reshuffle, then ``deck.cards[0]``)
and expect to read the event's effect through it: a part copied when written would leave
them reading the old one. A living hero, a deck or a quest is therefore copied when the
state is forked; a fallen hero is only ever written by the appliers (its items passed on),
never held by a rule across such an event. A power or an item record is copied when an
applier writes it: the rules that change one (``set_power``, ``note_use``, using an item)
read it again by id after the event, never through a record held across it (the random
games of ``test_state_clone.py`` play exactly as with private copies).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, is_dataclass
from typing import Any

from app.kernel.flow import Decision

_ATOMS = frozenset({str, int, float, bool, type(None)})
_new = object.__new__


def copy_data(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, tuples of atoms): new containers, shared
    atoms. A frozen dataclass is shared as it is; any other object is deep-copied."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return {k: v if type(v) in _ATOMS else copy_data(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else copy_data(v) for v in value]
    if kind is tuple:
        return value if all(type(v) in _ATOMS for v in value) else tuple(copy_data(v) for v in value)
    if is_dataclass(value) and value.__dataclass_params__.frozen:  # type: ignore[union-attr]
        return value
    return copy.deepcopy(value)


def copy_dict(value: dict[str, Any]) -> dict[str, Any]:
    """``copy_data`` for a dict, with the common cases (empty, all atoms) at C speed."""
    if not value:
        return {}
    for v in value.values():
        if type(v) not in _ATOMS:
            return {k: v if type(v) in _ATOMS else copy_data(v) for k, v in value.items()}
    return value.copy()


@dataclass(slots=True)
class Power:
    """A power card (or artifact) in front of a hero (DN 14.1, 14.2)."""

    id: str
    exhausted: bool = False
    active: bool = False
    target: str | None = None
    """The hero, location or blight an active power targets."""
    data: dict[str, Any] = field(default_factory=dict)

    def clone(self) -> Power:
        # Slots set one by one on a bare object: half the cost of the dataclass __init__,
        # and heroes' powers are copied with every hero a command forks.
        power = _new(Power)
        power.id = self.id
        power.exhausted = self.exhausted
        power.active = self.active
        power.target = self.target
        power.data = copy_dict(self.data) if self.data else {}
        return power

    @property
    def suppressed(self) -> bool:
        """Exhausted while active (DN 14.2): counts as exhausted, returns active on refresh."""
        return self.exhausted and self.active


@dataclass(slots=True)
class Item:
    """A basic item token, Holy Relic or artifact card carried or stored (DN 15.0)."""

    id: str
    kind: str
    locked: bool = False
    data: dict[str, Any] = field(default_factory=dict)

    def clone(self) -> Item:
        item = _new(Item)  # as ``Power.clone``
        item.id = self.id
        item.kind = self.kind
        item.locked = self.locked
        item.data = copy_dict(self.data) if self.data else {}
        return item


def kind_of(hero_id: str) -> str:
    """The hero card of a hero in play: ``prince`` for ``prince`` and ``prince~2`` (a hero
    chosen again after falling, when no fresh hero remains, DN 13.1)."""
    return hero_id.split("~", 1)[0]


@dataclass(slots=True)
class Hero:
    id: str
    seat: int
    grace: int
    secrecy: int
    default_grace: int
    default_secrecy: int
    location: str = "Monastery"
    sparks: int = 0
    powers: list[Power] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    """The power deck, top first (hidden)."""
    items: list[Item] = field(default_factory=list)
    turns_left: int = 1
    """Turns still to take this round (2 for a dual-class hero, DN 20.2.3)."""
    turns_per_round: int = 1
    lost_turn: bool = False
    dead: bool = False
    joins_next_round: bool = False
    """A replacement hero does nothing in the round it appears (DN 13.1)."""
    left_monastery: bool = False
    """Whether the hero left the Monastery during the current turn (DN 19.2)."""
    free_actions: list[str] = field(default_factory=list)
    last_tactic: str | None = None
    last_action_power: str | None = None
    flags: dict[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return kind_of(self.id)

    def clone(self, *, share_records: bool = False) -> Hero:
        """A copy sharing nothing mutable; with ``share_records`` (``State.fork``), the new
        lists of powers and items hold the very ``Power`` and ``Item`` records, which the
        appliers copy before changing one (``power_w``, ``item_w``)."""
        hero = _new(Hero)  # as ``Power.clone``
        hero.id = self.id
        hero.seat = self.seat
        hero.grace = self.grace
        hero.secrecy = self.secrecy
        hero.default_grace = self.default_grace
        hero.default_secrecy = self.default_secrecy
        hero.location = self.location
        hero.sparks = self.sparks
        if share_records:
            hero.powers = self.powers.copy()
            hero.items = self.items.copy()
        else:
            hero.powers = list(map(_clone_power, self.powers))
            hero.items = list(map(_clone_item, self.items))
        hero.deck = self.deck.copy()
        hero.turns_left = self.turns_left
        hero.turns_per_round = self.turns_per_round
        hero.lost_turn = self.lost_turn
        hero.dead = self.dead
        hero.joins_next_round = self.joins_next_round
        hero.left_monastery = self.left_monastery
        hero.free_actions = self.free_actions.copy()
        hero.last_tactic = self.last_tactic
        hero.last_action_power = self.last_action_power
        hero.flags = copy_dict(self.flags) if self.flags else {}
        return hero

    def power(self, power_id: str) -> Power | None:
        return next((p for p in self.powers if p.id == power_id), None)

    def item(self, item_id: str) -> Item | None:
        return next((i for i in self.items if i.id == item_id), None)

    def power_w(self, power_id: str) -> Power | None:
        """Power ``power_id`` for an applier to change: a private copy put in its place
        (a forked hero shares its records with the state it came from)."""
        for index, power in enumerate(self.powers):
            if power.id == power_id:
                power = self.powers[index] = power.clone()
                return power
        return None

    def item_w(self, item_id: str) -> Item | None:
        """Item ``item_id`` for an applier to change (as ``power_w``)."""
        for index, item in enumerate(self.items):
            if item.id == item_id:
                item = self.items[index] = item.clone()
                return item
        return None

    def relics(self) -> int:
        return sum(1 for i in self.items if i.kind == "holy_relic")


@dataclass(frozen=True, slots=True)
class Blight:
    """A blight on the map (DN 11.0): never changed once placed, so clones share it."""

    id: str
    type: str


@dataclass(slots=True)
class Placed:
    """A quest or mystery card on the map (DN 16.0, 17.0)."""

    id: str
    card: str
    location: str
    progress: int = 0
    time: int = 0
    keys: list[int] = field(default_factory=list)

    def clone(self) -> Placed:
        placed = _new(Placed)  # as ``Power.clone``
        placed.id = self.id
        placed.card = self.card
        placed.location = self.location
        placed.progress = self.progress
        placed.time = self.time
        placed.keys = self.keys.copy()
        return placed


NO_HEROES: frozenset[str] = frozenset()

_clone_power = Power.clone
_clone_item = Item.clone
_clone_placed = Placed.clone
"""The records' ``clone``s, mapped over a list in C (forks copy many)."""


@dataclass(slots=True)
class Deck:
    cards: list[str] = field(default_factory=list)
    """Top first."""
    discard: list[str] = field(default_factory=list)

    def clone(self) -> Deck:
        deck = _new(Deck)  # as ``Power.clone``
        deck.cards = self.cards.copy()
        deck.discard = self.discard.copy()
        return deck


class DecksOnRead(dict[str, Deck]):
    """A forked state's decks while it changes (see ``State.fork``): shared with the state
    it was forked from, each deck copied the first time anyone reads it, so every deck a
    rule or an applier ever holds is the new state's own (a rule that keeps a deck across
    a reshuffle it emits reads the new order, as with a full copy). ``State.settle`` makes
    it a plain dict again once the state is published. Most commands draw no card."""

    __slots__ = ("copied",)

    copied: set[str]
    """The names of the decks copied so far (the new state's own)."""

    @classmethod
    def sharing(cls, decks: dict[str, Deck]) -> DecksOnRead:
        """The decks of a new fork: those of ``decks``, none copied yet (dict's own
        constructor and one slot, not a Python ``__init__``: one per command)."""
        new = cls(decks)
        new.copied = set()
        return new

    def __getitem__(self, name: str) -> Deck:
        deck = dict.__getitem__(self, name)
        if name not in self.copied:
            deck = deck.clone()
            dict.__setitem__(self, name, deck)
            self.copied.add(name)
        return deck

    def __setitem__(self, name: str, deck: Deck) -> None:
        dict.__setitem__(self, name, deck)
        self.copied.add(name)

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        if name in self:
            return self[name]
        return default

    def setdefault(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        if name not in self:
            self[name] = default
        return self[name]

    def pop(self, name: str, *default: Any) -> Any:  # type: ignore[override]
        if name in self:
            deck = self[name]  # the caller's own, like any deck read
            dict.pop(self, name)
            self.copied.discard(name)
            return deck
        return dict.pop(self, name, *default)

    def values(self) -> list[Deck]:  # type: ignore[override]
        return [self[name] for name in list(self)]

    def items(self) -> list[tuple[str, Deck]]:  # type: ignore[override]
        return [(name, self[name]) for name in list(self)]

    def copy(self) -> dict[str, Deck]:
        return dict(self.items())

    def __reduce__(self) -> Any:
        return (dict, (dict(self.items()),))


@dataclass(slots=True)
class State:
    started: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    seat_names: list[str] = field(default_factory=list)
    heroes: dict[str, Hero] = field(default_factory=dict)
    """In play, in the order they joined."""
    fallen: list[str] = field(default_factory=list)
    """Heroes that died this game (they cannot be chosen again while others remain)."""
    roster: list[str] = field(default_factory=list)
    """Heroes offered at hero selection."""
    necromancer: str = "Ruins"
    necromancer_seat: int | None = None
    hand: list[str] = field(default_factory=list)
    """The Necromancer player's hidden map cards (DN 20.3)."""
    blights: dict[str, list[Blight]] = field(default_factory=dict)
    next_blight: int = 1
    relics: dict[str, str] = field(default_factory=dict)
    """Relic tokens on the map: location -> "undiscovered"."""
    stored: list[Item] = field(default_factory=list)
    """Items stored at the Monastery (DN 15.1)."""
    orphaned: dict[str, list[Item]] = field(default_factory=dict)
    """Items of a hero who died alone, waiting for the next hero to arrive (DN 15.1)."""
    quests: list[Placed] = field(default_factory=list)
    mysteries: list[Placed] = field(default_factory=list)
    pall: list[str] = field(default_factory=list)
    decks: dict[str, Deck] = field(default_factory=dict)
    darkness_cards: list[str] = field(default_factory=list)
    darkness_active: dict[str, Any] = field(default_factory=dict)
    darkness: int = 0
    darkness_thresholds_reached: int = 0
    clues: int = 0
    keys: int = 0
    relics_retrieved: int = 0
    item_stock: dict[str, int] = field(default_factory=dict)
    next_item: int = 1
    round: int = 0
    phase: str = "setup"
    """setup, heroes (choosing who goes next), turn, necromancer, over."""
    current: str | None = None
    """The hero whose turn it is."""
    step: str | None = None
    """The step of the current hero turn: start, event, action, end."""
    agenda: list[dict[str, Any]] = field(default_factory=list)
    """What the rules still have to resolve, in order (each a step the engine runs)."""
    decision: Decision | None = None
    """The decision the table waits on, if any (a frozen dataclass of ``decisions.py``)."""
    result: dict[str, Any] | None = None
    last_roll: dict[str, Any] | None = None
    quest_symbol_checked: bool = False
    """Increased Quests: the first map card of this Necromancer turn was looked at (DN 20.1.6)."""
    shared_heroes: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    """Copy-on-write bookkeeping, not game state: the heroes this state shares with the
    state it was forked from (``hero_w`` copies one before it is changed)."""

    def clone(self) -> State:
        """A copy sharing nothing mutable with ``self`` (equal to it, field by field)."""
        decision = self.decision
        return State(
            self.started,
            copy_dict(self.options),
            self.seat_names.copy(),
            {k: h.clone() for k, h in self.heroes.items()},
            self.fallen.copy(),
            self.roster.copy(),
            self.necromancer,
            self.necromancer_seat,
            self.hand.copy(),
            {loc: bs.copy() for loc, bs in self.blights.items()},
            self.next_blight,
            self.relics.copy(),
            [i.clone() for i in self.stored],
            {k: [i.clone() for i in items] for k, items in self.orphaned.items()},
            [q.clone() for q in self.quests],
            [m.clone() for m in self.mysteries],
            self.pall.copy(),
            {k: d.clone() for k, d in self.decks.items()},
            self.darkness_cards.copy(),
            copy_dict(self.darkness_active),
            self.darkness,
            self.darkness_thresholds_reached,
            self.clues,
            self.keys,
            self.relics_retrieved,
            self.item_stock.copy(),
            self.next_item,
            self.round,
            self.phase,
            self.current,
            self.step,
            [copy_dict(x) for x in self.agenda],
            copy_dict(decision) if type(decision) is dict else copy_data(decision),
            None if self.result is None else copy_dict(self.result),
            None if self.last_roll is None else copy_dict(self.last_roll),
            self.quest_symbol_checked,
        )

    def fork(self) -> State:
        """The engine's successor: equal to ``self``; shares its fallen heroes until an
        applier writes one (``hero_w``), the living heroes' power and item records until an
        applier writes one (``Hero.power_w``, ``item_w``), each deck until it is read
        (``DecksOnRead``), the options, result and last roll (only ever replaced whole),
        and the agenda's steps (never changed in place). ``settle`` it when done."""
        heroes = {}
        shared = []
        for k, h in self.heroes.items():
            if h.dead:
                heroes[k] = h
                shared.append(k)
            else:
                heroes[k] = h.clone(share_records=True)
        new = _new(State)  # slots set one by one, as ``Power.clone``
        new.started = self.started
        new.options = self.options
        new.seat_names = self.seat_names.copy()
        new.heroes = heroes
        new.fallen = self.fallen.copy()
        new.roster = self.roster.copy()
        new.necromancer = self.necromancer
        new.necromancer_seat = self.necromancer_seat
        new.hand = self.hand.copy()
        new.blights = dict(zip(self.blights, map(list.copy, self.blights.values()), strict=True))
        new.next_blight = self.next_blight
        new.relics = self.relics.copy()
        new.stored = list(map(_clone_item, self.stored))
        orphaned = self.orphaned
        new.orphaned = {k: [i.clone() for i in items] for k, items in orphaned.items()} if orphaned else {}
        new.quests = list(map(_clone_placed, self.quests))
        new.mysteries = list(map(_clone_placed, self.mysteries))
        new.pall = self.pall.copy()
        new.decks = DecksOnRead.sharing(self.decks)
        new.darkness_cards = self.darkness_cards.copy()
        new.darkness_active = self.darkness_active.copy()
        new.darkness = self.darkness
        new.darkness_thresholds_reached = self.darkness_thresholds_reached
        new.clues = self.clues
        new.keys = self.keys
        new.relics_retrieved = self.relics_retrieved
        new.item_stock = self.item_stock.copy()
        new.next_item = self.next_item
        new.round = self.round
        new.phase = self.phase
        new.current = self.current
        new.step = self.step
        new.agenda = self.agenda.copy()
        new.decision = self.decision
        new.result = self.result
        new.last_roll = self.last_roll
        new.quest_symbol_checked = self.quest_symbol_checked
        new.shared_heroes = frozenset(shared) if shared else NO_HEROES
        return new

    def settle(self) -> State:
        """The state as published once the engine is done changing it: its decks a plain
        dict again (the decks no one read stay shared, and are never changed now)."""
        if type(self.decks) is DecksOnRead:
            self.decks = dict(self.decks)  # the raw entries: no deck is copied by this
        return self

    def hero_w(self, hero_id: str) -> Hero:
        """Hero ``hero_id`` for an applier to change: a fallen hero shared with the state
        this one was forked from is copied first."""
        hero = self.heroes[hero_id]
        if hero_id in self.shared_heroes:
            hero = self.heroes[hero_id] = hero.clone()
            self.shared_heroes = self.shared_heroes - {hero_id}
        return hero

    def own_all(self) -> None:
        """Make every part private (before an applier not registered copy-on-write runs:
        it may change a fallen hero in place)."""
        for hero_id in self.shared_heroes:
            self.heroes[hero_id] = self.heroes[hero_id].clone()
        self.shared_heroes = frozenset()

    def living(self) -> list[Hero]:
        return [h for h in self.heroes.values() if not h.dead]

    def heroes_at(self, location: str) -> list[Hero]:
        return [h for h in self.heroes.values() if not h.dead and h.location == location]

    def blight_count(self, location: str, void_counts_double: bool = True) -> int:
        """Blights here, a Void counting as 2 (its effect)."""
        return sum(
            2 if b.type == "Void" and void_counts_double else 1 for b in self.blights.get(location, [])
        )

    def find_blight(self, blight_id: str) -> tuple[str, Blight] | None:
        for location, blights in self.blights.items():
            for blight in blights:
                if blight.id == blight_id:
                    return location, blight
        return None
