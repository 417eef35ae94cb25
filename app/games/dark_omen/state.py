"""The state of a Dark Omen campaign table: mutable, as the flow engine needs (``decide``
works on a ``clone``, ``evolve`` too). Every record is a dataclass of plain data (ints,
strings, lists, dicts of them), so a clone copies what may change and two states compare
equal field by field."""

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


@dataclass(slots=True)
class Creature:
    """An enemy on the map (DO L359-398, L474-493): a creature, a guard, a boss or a zombie.
    A face-down token (``token``, not ``flipped``) shows no level to players (DO L476); a
    creature placed without a card draws one at its first attack (``card`` None, ``hp``
    None until then, DO L367-369). Built from ``CreaturePlaced`` (its fields are that
    event's data)."""

    id: str
    space: int | str
    level: int
    kind: str
    """"creature", "guard", "boss" or "zombie"."""
    omen: bool = False
    """Set up by the day's omen: it leaves with the day (DO L141)."""
    dice: int = 1
    """Attack dice: its level's (DO L402), or a boss card's."""
    hp: int | None = None
    card: str | None = None
    name: str | None = None
    armor: int | None = None
    dr: str | None = None
    """Its damage roll ("d6+1", or a fixed "3")."""
    token: str | None = None
    """A face-down creature token's instance name (hidden but from the game master)."""
    flipped: bool = False
    stage: dict[str, int] | None = None
    """A boss's stage: below ``below_hp`` its armour rises by ``armor`` (DO L487-488)."""
    staged: bool = False
    barrow: bool = False
    """A barrow's guardian: beating it gives an artifact and closes the barrow (DO L322)."""
    no_flee: bool = False
    hoard: bool = False
    """Risen from the Gear Hoard, which stays shut until it falls (DO L532)."""
    attack: int = 0
    """Added to each attack die (a zombie's weapon, DO L201)."""
    involved: list[int] = field(default_factory=list)
    """The seats that attacked it: each gains morale at the kill (battle markers, DO L100)."""

    def clone(self) -> Creature:
        return Creature(
            self.id,
            self.space,
            self.level,
            self.kind,
            self.omen,
            self.dice,
            self.hp,
            self.card,
            self.name,
            self.armor,
            self.dr,
            self.token,
            self.flipped,
            self.stage,  # a boss card's, never changed
            self.staged,
            self.barrow,
            self.no_flee,
            self.hoard,
            self.attack,
            list(self.involved),
        )

    def public(self) -> dict[str, Any]:
        """What every viewer sees of it (the face-down level aside: ``view.creature_view``)."""
        out: dict[str, Any] = {
            "id": self.id,
            "space": self.space,
            "level": self.level,
            "kind": self.kind,
            "hp": self.hp,
            "dice": self.dice,
            "omen": self.omen,
        }
        for key in ("name", "armor", "dr", "stage"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.staged:
            out["staged"] = True
        return out


@dataclass(slots=True)
class Prop:
    """A generic token standing for something of the omen's (DO L141-143): a fire, a grave,
    omen loot, a person calling for aid; carried by a hero once tended, if it goes along."""

    id: str
    kind: str
    name: str
    space: int | str
    carried_by: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "space": self.space,
            "carried_by": self.carried_by,
        }


@dataclass(slots=True)
class Omen:
    """The day's omen (DO L133-143): its card, how it stands, the blood of the beast handed
    in for it."""

    id: str
    status: str = "active"
    """"active", "success" or "failure"."""
    blood: int = 0


@dataclass(slots=True)
class Location:
    """A location token on the map (DO L301-313): face down until unlocked; a permanent camp
    is ``lit`` once made (DO L523)."""

    kind: str
    open: bool = False
    lit: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "open": self.open} | ({"lit": True} if self.lit else {})


@dataclass(slots=True)
class Belongings:
    """What a fallen hero leaves in their grave (DO L201-202); replaced or removed whole."""

    inventory: list[str]
    potions: list[str]
    gear: list[str]
    charges: dict[str, int]
    gold: int


@dataclass(slots=True)
class GambleTable:
    """A game of chance being played at a tavern or village (DO L342-358): who plays and who
    is still asked, the dice each player stood on (by seat, as text), the ante, the house's
    first dice in Hard Life."""

    game: str
    """"draugr" or "hard_life"."""
    players: list[int]
    invited: list[int]
    scores: dict[str, list[int]] = field(default_factory=dict)
    ante: int = 0
    house: list[int] = field(default_factory=list)

    def clone(self) -> GambleTable:
        return GambleTable(
            self.game,
            list(self.players),
            list(self.invited),
            {k: list(v) for k, v in self.scores.items()},
            self.ante,
            list(self.house),
        )

    def to_json(self) -> dict[str, Any]:
        """What the table shows (the house's dice only through the log)."""
        return {
            "game": self.game,
            "players": list(self.players),
            "invited": list(self.invited),
            "scores": {k: list(v) for k, v in self.scores.items()},
            "ante": self.ante,
        }


@dataclass(frozen=True, slots=True)
class Result:
    """How the campaign ended (replaced whole, never changed)."""

    result: str
    """"win" or "loss"."""
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"result": self.result, "reason": self.reason}


# -- what a seat must answer before anything else (``Hero.pending``) ---------------------------------


@dataclass(slots=True)
class Battle:
    """An attack roll lying on the table for the boost window (DO L404-406), shared by every
    member of the battle: the enemy's dice, each member's dice (by seat, as text), who
    attacks from range, who went heroic, who is ready; the shields raised and the tied
    players' votes (DO L339, L428)."""

    leader: int
    creature: str
    enemy: list[int]
    dice: dict[str, list[int]]
    members: list[int]
    ranged: list[int]
    heroic: list[int]
    ready: list[int] = field(default_factory=list)
    shields: list[int] = field(default_factory=list)
    tie_votes: dict[str, int] = field(default_factory=dict)
    kind: str = "battle"

    def clone(self) -> Battle:
        return Battle(
            self.leader,
            self.creature,
            list(self.enemy),
            {k: list(v) for k, v in self.dice.items()},
            list(self.members),
            list(self.ranged),
            list(self.heroic),
            list(self.ready),
            list(self.shields),
            dict(self.tie_votes),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "leader": self.leader,
            "creature": self.creature,
            "enemy": list(self.enemy),
            "dice": {k: list(v) for k, v in self.dice.items()},
            "members": list(self.members),
            "ranged": list(self.ranged),
            "heroic": list(self.heroic),
            "ready": list(self.ready),
        }
        if self.shields:
            out["shields"] = list(self.shields)
        if self.tie_votes:
            out["tie_votes"] = dict(self.tie_votes)
        return out


@dataclass(slots=True)
class TeamAttack:
    """A team attack its leader proposed (DO L424-425): the allies still asked, those who
    joined, and those of them going heroic."""

    creature: str
    invited: list[int]
    joined: list[int] = field(default_factory=list)
    heroic: list[int] = field(default_factory=list)
    kind: str = "team"

    def clone(self) -> TeamAttack:
        return TeamAttack(self.creature, list(self.invited), list(self.joined), list(self.heroic))

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "creature": self.creature,
            "invited": list(self.invited),
            "joined": list(self.joined),
            "heroic": list(self.heroic),
        }


ROLL_FIELDS = ("rolls", "dice", "rolls_left", "host")


@dataclass(slots=True)
class Question:
    """A question of the seat's own: dice lying on the table for a choice of their roller
    (``PendingRoll``): a runehenge's two rolls (``kind`` "runehenge", DO L312-313), a
    gamble's dice ("draugr", "hard_life", with the ``host`` of the game, DO L344-356), a
    barrow's keeps ("barrow", DO L318); or a question with no dice ("gamble_host",
    "gamble_wait", "new_character"). A field a kind has no use for is None."""

    kind: str
    rolls: list[int] | None = None
    dice: list[int] | None = None
    rolls_left: int | None = None
    host: int | None = None
    picked: list[int] | None = None
    """The dice (indices) picked so far to be rerolled (``RerollPicked``; DO L345, L319):
    recorded one pick at a time, so a reload keeps them."""

    def clone(self) -> Question:
        return Question(
            self.kind,
            None if self.rolls is None else list(self.rolls),
            None if self.dice is None else list(self.dice),
            self.rolls_left,
            self.host,
            None if self.picked is None else list(self.picked),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for key in ROLL_FIELDS:
            value = getattr(self, key)
            if value is not None:
                out[key] = list(value) if isinstance(value, list) else value
        if self.picked:
            out["picked"] = list(self.picked)
        return out


Pending = Battle | TeamAttack | Question
"""A sub-question a seat must answer before anything else."""


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
    pending: Pending | None = None
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
        new.pending = self.pending.clone() if self.pending is not None else None
        return new


@dataclass(slots=True)
class SavePoint:
    """The chapter's start (DO L114: the rulebook's save point), to restart it after a wipe;
    replaced whole, never changed in place (its heroes are copies)."""

    heroes: list[Hero]
    meter: int
    fallen: list[str]
    pile: list[str]
    graves: dict[str, Belongings]


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
    locations: dict[int, Location] = field(default_factory=dict)
    """Location tokens by space: they start face down (DO L301-302)."""
    creatures: list[Creature] = field(default_factory=list)
    """Enemies on the map."""
    next_creature: int = 1
    slain_names: dict[str, str] = field(default_factory=dict)
    """Each slain enemy's name by id, for the log's lines about it (issue 26: "Ann’s Visko
    slays the Groll", never "the enemy"); its token is gone from ``creatures``."""
    omen_days: list[int] = field(default_factory=list)
    omen: Omen | None = None
    """The day's omen."""
    omens_seen: list[str] = field(default_factory=list)
    props: list[Prop] = field(default_factory=list)
    """The omen's own setup on the map (DO L141-143): generic tokens standing for fires,
    graves, omen loot and people to escort."""
    barrows: list[int] = field(default_factory=list)
    barrows_gone: int = 0
    campfires: list[int] = field(default_factory=list)
    vortices: list[int] = field(default_factory=list)
    story_read: list[str] = field(default_factory=list)
    graves: dict[str, Belongings] = field(default_factory=dict)
    """Space (as text) → the belongings a fallen zombie guarded (DO L201-202)."""
    gambles: dict[str, GambleTable] = field(default_factory=dict)
    """Games of chance being played, by their host's seat (as text, DO L342)."""
    save_point: SavePoint | None = None
    """The chapter's start, to restart it after a wipe (DO L114)."""
    agenda: list[Step] = field(default_factory=list)
    decision: Decision | None = None
    result: Result | None = None

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
        new.locations = {k: Location(v.kind, v.open, v.lit) for k, v in self.locations.items()}
        new.creatures = [x.clone() for x in self.creatures]
        new.gambles = {k: v.clone() for k, v in self.gambles.items()}
        new.slain_names = dict(self.slain_names)
        new.graves = dict(self.graves)  # each grave is replaced or removed whole, never changed
        new.omen = None if self.omen is None else Omen(self.omen.id, self.omen.status, self.omen.blood)
        new.props = [Prop(p.id, p.kind, p.name, p.space, p.carried_by) for p in self.props]
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

    def creature(self, cid: str) -> Creature | None:
        return next((c for c in self.creatures if c.id == cid), None)


def enemy_name(creature: Creature) -> str:
    """An enemy as players call it (issue 26): a boss by its own name ("Vahva the cave
    bear"), a revealed one by its card's ("the Groll"), a face-down token by what shows."""
    if creature.name:
        return creature.name if creature.kind == "boss" else f"the {creature.name}"
    if creature.token and not creature.flipped:
        return "the face-down creature"
    return f"the level {creature.level} {creature.kind}"
