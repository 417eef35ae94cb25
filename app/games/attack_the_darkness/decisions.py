"""The typed questions Attack the Darkness asks (``app.kernel.flow.Decision``): one per
step of a play (card → resource cards → discards → targets, squares, areas), the defence
window, tile placement, clearing the room, exploring, advancement, Arena initiative, the
campaign's "ready", and the game master's picks and monster actions (Tabletop)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from app.kernel.flow import Decision


@dataclass(frozen=True, kw_only=True)
class PlaceTile(Decision):
    """Tiles go horizontally or vertically, touching a placed tile (AtD L248, L262)."""

    kind = "place_tile"
    left: int


@dataclass(frozen=True, kw_only=True)
class Act(Decision):
    """The action step of a player turn (AtD L268): a card, the speed move, equipment, the
    class ability, or the end step."""

    kind = "act"
    refusals: ClassVar[dict[str, str]] = {
        "speed": "a move ends on an open, unoccupied square within speed, never through enemies (AtD L80)",
        "play": "the card must be in hand, of a type playable now (AtD L147-155) and payable (AtD L143)",
        "play_cheapest": "the card must be in hand, playable now (AtD L147-155) and payable (AtD L143)",
    }


@dataclass(frozen=True, kw_only=True)
class ConfirmPlay(Decision):
    """An attack card with no enemy in range does nothing, yet may be played (AtD L157):
    the player confirms before anything is paid (issue 26)."""

    kind = "confirm_play"
    card: str
    cheapest: bool = False
    """Confirmed, the card is paid the cheapest way in one click (else the payment step)."""


@dataclass(frozen=True, kw_only=True)
class Pay(Decision):
    """Resource cards are chosen before the action is declared (AtD L143)."""

    kind = "pay"
    refusals: ClassVar[dict[str, str]] = {
        "done": "the resources must meet the cost and the condition must be met (AtD L140, L143)"
    }
    card: str
    rcs: list[str] = field(default_factory=list)
    context: str = "turn"
    resume: dict[str, Any] | None = None
    """The step an interrupted attack resumes with (a defence card, AtD L151)."""
    equipment: list[str] = field(default_factory=list)
    """Equipment added to the card as a modifier (Battle Axe, AtD L205, L208)."""


@dataclass(frozen=True, kw_only=True)
class Discard(Decision):
    """A condition's discards come before anything else (AtD L140, L182)."""

    kind = "discard"
    left: int
    item: str | None = None
    """The equipment whose condition the discards pay (else the card's)."""


@dataclass(frozen=True, kw_only=True)
class MoveTo(Decision):
    """Where a move or push ends ("up to", AtD L85, L87)."""

    kind = "move_to"
    who: str
    n: int
    why: str


@dataclass(frozen=True, kw_only=True)
class Target(Decision):
    """One target at a time, up to the card's maximum, none required (AtD L157)."""

    kind = "target"
    refusals: ClassVar[dict[str, str]] = {
        "target": "targets must meet the card's distance, side and line of sight (AtD L88-98, L156-158)"
    }
    part: int
    left: int
    chosen: list[str] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Area(Decision):
    """A 3×2 box, horizontal or vertical (AtD L159-162)."""

    kind = "area"
    refusals: ClassVar[dict[str, str]] = {
        "area": "an area is a 3x2 box meeting the distance with one square in sight (AtD L159-162)"
    }
    part: int


@dataclass(frozen=True, kw_only=True)
class Defend(Decision):
    """The defence window on an enemy attack (AtD L151): a Defense card, or none."""

    kind = "defend"
    attacker: str
    target: str
    resume: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class ClearRoom(Decision):
    """Every conscious player at once: revive, rest or explore (AtD L276-279)."""

    kind = "clear_room"
    chosen: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Explore(Decision):
    """Flip map tiles one at a time, then perhaps dig greedily (AtD L280-281)."""

    kind = "explore"
    missed: bool = False


@dataclass(frozen=True, kw_only=True)
class KeepEquipment(Decision):
    """Equipment found may be kept, dropping old items to fit 2 slots (AtD L206)."""

    kind = "keep_equipment"
    card: str


@dataclass(frozen=True, kw_only=True)
class Advance(Decision):
    """Keep one of the advancement cards drawn (AtD L284-285)."""

    kind = "advance"


@dataclass(frozen=True, kw_only=True)
class Cut(Decision):
    """Arena initiative: every player cuts their action deck at once (AtD L290)."""

    kind = "cut"


@dataclass(frozen=True, kw_only=True)
class Ready(Decision):
    """Between the dungeons of a campaign, every player says ready (AtD L238)."""

    kind = "ready"
    next_dungeon: int


@dataclass(frozen=True, kw_only=True)
class GmPick(Decision):
    """Tabletop: the game master picks monster cards totalling up to danger + 5 (AtD L274)."""

    kind = "gm_pick"
    total: int


@dataclass(frozen=True, kw_only=True)
class GmMonster(Decision):
    """Tabletop: the game master decides a monster's turn (AtD L275)."""

    kind = "gm_monster"
    monster: str
    moved: bool
    attacks: int


@dataclass(frozen=True, kw_only=True)
class PlaceToken(Decision):
    """Each player puts their token on an open square of the stairs tile (AtD L251; facts
    file §10: one at a time in marching order)."""

    kind = "place_token"


@dataclass(frozen=True, kw_only=True)
class ChooseTile(Decision):
    """Two or more empty tiles are equally far from the players: the players choose which
    takes the set of monsters (AtD L255); asked of the party's first seat in marching order."""

    kind = "choose_tile"
    card: str
    cards: list[str]
    tiles: list[int]


@dataclass(frozen=True, kw_only=True)
class Arrange(Decision):
    """A Lifetime of Preparation: the player puts the top cards of a deck back in the order
    they want, one card at a time (AtD L313). ``top`` are the cards looked at, ``placed``
    the ones already put back, first to be drawn first."""

    kind = "arrange"
    deck: str
    top: list[str]
    placed: list[str] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Trade(Decision):
    """Resting players may trade or gift equipment between themselves (AtD L207, L279): a
    resting player proposes; the other resting player accepts or declines (``offer``)."""

    kind = "trade"
    traders: list[int]
    """The resting players still trading (a player who is done leaves)."""
    offer: dict[str, Any] | None = None
    """The proposal waiting for its answer: ``seat`` gives ``give`` to ``to`` for ``take``
    (either may be None: a gift, or a request)."""


@dataclass(frozen=True, kw_only=True)
class GmPlace(Decision):
    """Tabletop: the game master puts each monster of a picked set on an open square of a
    non-stairs tile (AtD L273-274; facts file §9)."""

    kind = "gm_place"
    entry: str
    card: str
    left: int
    total: int
