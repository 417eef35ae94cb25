"""Value objects shared by every game: events, commands, viewers, prompts and outcomes.

The kernel contract is in ``app.kernel.game``; these are the values that cross it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from app.kernel.frozen import quick_init

GM_SEAT = "gm"
"""The seat name a game master's commands are sent as (``seat: "gm"``)."""

Seat = int | str
"""A player seat is its 0-based index; the game master acts as ``GM_SEAT``."""


class RuleError(Exception):
    """A command the rules (or the actor's rights) forbid. Nothing changes.

    ``code`` is a short machine-readable reason; ``message`` says, for a person,
    which rule was broken (``"search — the Monastery cannot be searched, DN 19.2"``).
    ``status`` lets a game say the command is stale rather than forbidden (409).
    """

    def __init__(self, code: str, message: str, *, status: int = 422) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"


@quick_init
@dataclass(frozen=True, slots=True)
class Event:
    """A fact that happened, in the past tense (``DiceRolled``). JSON-serialisable.

    ``v`` is the schema version of ``data`` for this ``type``; games upcast old versions.
    """

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    v: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data, "v": self.v}


@quick_init
@dataclass(frozen=True, slots=True)
class Command:
    """An imperative request from a seat (``Travel``, ``Attack``) with its arguments."""

    seat: Seat
    type: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: some seats, the game master, or a spectator.

    One browser may hold several seats (a person playing all four heroes), so a seat
    viewer carries a set of seats. The game master sees everything.
    """

    role: Literal["seat", "gm", "spectator"]
    seats: frozenset[Seat] = frozenset()

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    def sees_seat(self, seat: Seat) -> bool:
        """May this viewer see what only ``seat`` may see?"""
        return self.is_gm or seat in self.seats

    def holds(self, seat: Seat) -> bool:
        """May this viewer send commands as ``seat``?"""
        if seat == GM_SEAT:
            return self.is_gm
        return seat in self.seats

    def key(self) -> str:
        if self.role == "seat":
            return "seat:" + ",".join(str(s) for s in sorted(self.seats, key=str))
        return self.role


SPECTATOR = Viewer("spectator")
GAME_MASTER = Viewer("gm", frozenset({GM_SEAT}))


@quick_init
@dataclass(frozen=True, slots=True)
class Choice:
    """One legal command, ready to send, with a one-line explanation for people."""

    type: str
    args: dict[str, Any]
    label: str
    detail: str = ""


_choice_detail = Choice.detail  # the slot (``LazyChoice.detail`` is a property over it)


class LazyChoice(Choice):
    """A ``Choice`` whose ``detail`` is given as a function and worked out the first time
    it is read: the odds and dice sources of an attack or a roll cost more than the rest of
    the choice, and most readers of a prompt (a random player, a command's check) only
    send a choice. Equal to the ``Choice`` with the same fields, and pickled as one.

    Only for choices about a state that will never change (a published state): the
    function reads it whenever the detail is first asked for."""

    __slots__ = ()

    if TYPE_CHECKING:  # ``Choice``'s own ``__init__`` sets the slots (a function in ``detail``)

        def __init__(self, type: str, args: dict[str, Any], label: str, detail: Callable[[], str]) -> None:  # noqa: A002
            ...

    @property
    def detail(self) -> str:  # type: ignore[override]
        text = _choice_detail.__get__(self)
        if type(text) is not str:
            text = text()
            _choice_detail.__set__(self, text)  # once: the state it reads never changes
        return text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Choice):
            return NotImplemented
        mine = (self.type, self.args, self.label, self.detail)
        return mine == (other.type, other.args, other.label, other.detail)

    __hash__ = Choice.__hash__

    def __repr__(self) -> str:
        return repr(Choice(self.type, self.args, self.label, self.detail))

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return (Choice, (self.type, self.args, self.label, self.detail))


@quick_init
@dataclass(frozen=True, slots=True)
class Unavailable:
    """A standard action that is not allowed right now, with the reason and the rule."""

    type: str
    label: str
    reason: str
    rule: str = ""


@quick_init
@dataclass(frozen=True, slots=True)
class Prompt:
    """What ``seat`` must or may do now: the complete list of legal choices."""

    seat: Seat
    title: str
    choices: tuple[Choice, ...]
    unavailable: tuple[Unavailable, ...] = ()
    required: bool = True
    """False for optional "any time" offers; the table waits only on required prompts."""
    any_one: bool = False
    """True when one question is put to several seats at once and the first answer settles
    it for all (who takes the next turn, DN 6.0): the table waits for any one of them, not
    for each (a page says "any one of Ann, Bo or Cy may answer")."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``result`` is ``"win"``, ``"loss"`` or ``"draw"``."""

    result: str
    reason: str
    winners: tuple[Seat, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"result": self.result, "reason": self.reason, "winners": list(self.winners)}


@dataclass(frozen=True, slots=True)
class Secret:
    """A value only some seats (and the game master) may see, e.g. a deck's order.

    The conformance test checks that no other viewer's view or event feed contains it.
    """

    value: Any
    seats: frozenset[Seat] = frozenset()


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as the game sees it at setup: its index and the player's chosen name."""

    index: int
    name: str


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option a game accepts when a table is created; the lobby draws its form
    field from this alone (app/kernel/options.py checks a value against it).

    ``kind`` is one of:

    - ``"bool"``; ``"int"``, bounded by ``minimum``/``maximum``; ``"choice"``, one of
      ``choices`` (a mode, a scenario, a map deck);
    - ``"seats"``: a list giving a seat index to each of up to ``maximum`` things (heroes,
      say), as many as the int option ``count_option`` says; empty leaves it to the game;
    - ``"per_seat"``: one of ``choices`` for each seat, in seat order (a class per seat, a
      deck per seat, a character per seat); ``None`` (or a list shorter than the seats)
      leaves that seat's pick to the game; ``distinct`` forbids two seats the same value.
    - ``"per_seat_text"``: a short free-form text for each seat, in seat order (a custom
      deck written as text), at most ``max_length`` characters each; ``None`` (or an empty
      text, or a list shorter than the seats) leaves that seat to the game. What the text
      means is the game's to check (``describe_options`` and ``setup``).

    ``depends_on = ("mode", ("campaign",))`` makes the option apply only while the option
    ``mode`` (declared before it) has one of those values: otherwise the lobby hides it
    and only its default is accepted.

    ``editor`` (a ``"per_seat_text"`` option) names a button beside each seat's text that
    opens the game's editor for it (a deck builder): the lobby asks ``Game.option_editor``
    for its template's context, and ``Game.check_option`` answers
    ``POST /api/games/{game}/options/{name}/check`` with what the game refuses in a text.
    """

    name: str
    kind: Literal["bool", "int", "choice", "seats", "per_seat", "per_seat_text"]
    default: Any
    label: str
    help: str = ""
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    count_option: str | None = None
    item_label: str = ""
    """What a ``"seats"`` option assigns, for its form ("Hero" gives "Hero 1", "Hero 2"…)."""
    choice_labels: tuple[str, ...] = ()
    """How the lobby names each of ``choices`` (same order); the value itself when empty."""
    distinct: bool = False
    """A ``"per_seat"`` option whose seats may not share a value (one character each)."""
    blank_label: str = "the game chooses"
    """What a ``"per_seat"`` seat (or a ``"seats"`` thing) left without a pick gets, as
    the lobby's form says."""
    depends_on: tuple[str, tuple[Any, ...]] | None = None
    max_length: int = 0
    """A ``"per_seat_text"`` seat's text holds at most this many characters (the size bound
    of a free-form value: it is stored with the table and sent to every page)."""
    editor: str = ""
    """The lobby's label for the button opening the game's editor of this option ("" for none)."""

    def label_of(self, value: Any) -> str:
        """The lobby's name for one of ``choices``."""
        if value in self.choices and len(self.choice_labels) == len(self.choices):
            return self.choice_labels[self.choices.index(value)]
        return str(value).replace("_", " ")

    def active(self, values: dict[str, Any]) -> bool:
        """Does this option apply, given the other options' values (``depends_on``)?"""
        if self.depends_on is None:
            return True
        name, wanted = self.depends_on
        return name in values and values[name] in wanted

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "label": self.label,
            "help": self.help,
        }
        if self.choices:
            out["choices"] = list(self.choices)
        if self.choice_labels:
            out["choice_labels"] = list(self.choice_labels)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.count_option is not None:
            out["count_option"] = self.count_option
        if self.item_label:
            out["item_label"] = self.item_label
        if self.kind == "per_seat":
            out["distinct"] = self.distinct
        if self.kind in ("per_seat", "seats", "per_seat_text"):
            out["blank_label"] = self.blank_label
        if self.kind == "per_seat_text":
            out["max_length"] = self.max_length
        if self.editor:
            out["editor"] = self.editor
        if self.depends_on is not None:
            out["depends_on"] = {"option": self.depends_on[0], "values": list(self.depends_on[1])}
        return out


@dataclass(frozen=True, slots=True)
class Chapter:
    """One chapter of a campaign played at one table (a Dark Omen chapter, an Attack the
    Darkness dungeon): its place and title, how it ended (None while unplayed or being
    played), and whether it is the one being played now.

    A campaign's own ending is the game's ``outcome``; when no chapter is current and the
    campaign has no outcome, the table is *between chapters*: the players may leave and
    come back to start the next one.
    """

    index: int
    title: str
    outcome: Outcome | None = None
    current: bool = False
    detail: str = ""
    """Where the chapter being played stands, in a few words for "your tables" and the
    table header ("day 3 · darkness meter 4 of 8"); between chapters, the last one played
    may say where it left the campaign; "" when there is nothing to add."""

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "title": self.title,
            "outcome": self.outcome.to_json() if self.outcome else None,
            "current": self.current,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class Budget:
    """How hard the search thinks about one decision."""

    iterations: int = 64
    """Rollouts per decision, spread over its answers."""
    depth: int = 40
    """Commands each rollout plays before the game's ``value`` judges where it stands."""
    seconds: float | None = 0.8
    """A wall-clock cap per decision (live play: a bot keeps a human pace); None: none, so
    the same rng gives the same decision."""
    exploration: float = 0.4
    """UCB1's constant: values lie in [0, 1], so well under √2 keeps the tries on the
    answers that look best."""
    margin: float = 0.02
    """How much better than the heuristic's pick (mean value) an answer must do to be kept."""
    paired: bool = False
    """Compare the answers in rounds: each round redraws one world and one future's dice and
    plays every answer in it, so an answer is judged by how much better it did than the
    heuristic's in the same worlds (common random numbers: the luck of the draw cancels out,
    which UCB1's separate tries cannot do in a game as swingy as Darkest Night)."""
