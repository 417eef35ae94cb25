"""The state of an Attack the Darkness table: plain data (lists, dicts, ints, strings) so a
copy is cheap to make and compare; changed only by the event appliers (``events.py``).

Card instances are named by seat and position in the character's starting decks
(``"0a12"``: seat 0's 13th action card, ``"2r3"``: seat 2's 4th resource card), dungeon
cards ``"d0"``…``"d79"``, advancement cards ``"v0"``…``"v35"``, monsters ``"m1"``…; which
card an instance is, is fixed by the public deck lists, so only *where* it is can be
secret (AtD L243: deck orders; hands; face-down tiles)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from app.games.attack_the_darkness.grid import Square, tile_squares
from app.kernel.flow import Decision, Step


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
    chars: list[dict[str, Any]] = field(default_factory=list)
    """Per seat: hp, pos, decks (``actions``, ``resources``), hands (``hand_a``,
    ``hand_r``), discards, ``in_play`` [{card, until, on}], equipment, advancements,
    fatigued, speed_used, statuses {stunned, immobilized: round it ends}, used {…}."""
    order: list[int] = field(default_factory=list)
    """Marching order (Adventure, Tabletop) or initiative order (Arena), AtD L242, L290."""
    tiles: list[dict[str, Any]] = field(default_factory=list)
    """Placed tiles: x, y, o, card (the face-down dungeon card; None for stairs), stairs, flipped."""
    pool: list[str] = field(default_factory=list)
    """Dungeon cards drawn as tiles but not placed yet."""
    arena_walls: list[Square] = field(default_factory=list)
    monsters: dict[str, dict[str, Any]] = field(default_factory=dict)
    """id → card, hp, pos, defended (this round), stunned/immobilized/dominated (round it
    ends), dominator, pressure."""
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
    play: dict[str, Any] | None = None
    """The card being resolved: seat, card, rcs, paid, x, part index, guard."""
    suspended: list[dict[str, Any]] = field(default_factory=list)
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
        """A copy whose containers may be changed freely by the appliers (each container
        an applier changes in place is copied; frozen decisions are shared)."""
        new = copy.copy(self)
        new.chars = [_copy_char(ch) for ch in self.chars]
        new.tiles = [dict(t) for t in self.tiles]
        new.monsters = {k: dict(v) for k, v in self.monsters.items()}
        new.line_cards = dict(self.line_cards)
        new.monster_cards = dict(self.monster_cards)
        new.play = (
            None
            if self.play is None
            else dict(self.play) | {"durations": list(self.play.get("durations", []))}
        )
        new.cuts = {k: list(v) for k, v in self.cuts.items()}
        new.last_cuts = {k: list(v) for k, v in self.last_cuts.items()}
        for name in ("adv_draw", "guard", "leftover", "peeked"):
            setattr(new, name, dict(getattr(self, name)))
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
            tuple((t["x"], t["y"], t["o"]) for t in self.tiles),
            tuple(tuple(w) for w in self.arena_walls),
            self.arena,
        )

    def stairs_squares(self) -> list[Square]:
        return [sq for t in self.tiles if t["stairs"] for sq in tile_squares(t["x"], t["y"], t["o"])]

    def conscious(self, seat: int) -> bool:
        return self.chars[seat]["hp"] > 0

    def char_at(self, sq: Square) -> int | None:
        for seat, ch in enumerate(self.chars):
            if ch["pos"] is not None and tuple(ch["pos"]) == sq:
                return seat
        return None

    def monster_at(self, sq: Square) -> str | None:
        for mid, m in self.monsters.items():
            if tuple(m["pos"]) == sq:
                return mid
        return None


def _copy_char(ch: dict[str, Any]) -> dict[str, Any]:
    return {
        k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v) for k, v in ch.items()
    }


_OPEN_CACHE: dict[tuple[Any, ...], frozenset[Square]] = {}


def _open_squares(
    tiles: tuple[tuple[int, int, str], ...], walls: tuple[Square, ...], arena: bool
) -> frozenset[Square]:
    key = (tiles, walls, arena)
    found = _OPEN_CACHE.get(key)
    if found is None:
        if arena:
            found = frozenset((x, y) for x in range(12) for y in range(12)) - {tuple(w) for w in walls}
        else:
            found = frozenset(sq for t in tiles for sq in tile_squares(*t))
        if len(_OPEN_CACHE) > 5000:
            _OPEN_CACHE.clear()
        _OPEN_CACHE[key] = found  # type: ignore[assignment]
    return found  # type: ignore[return-value]
