"""A table's log as history: which events an undo took back, and whether a whole log (an
import) is one this platform could have written.

Every walk here is linear in the log (or ``n log n``): a log is untrusted input when it is
imported, so nothing may cost more than its size (an undo of ``[1, 10**12]`` is clamped
to the events before it, never expanded).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.kernel.game import Game
from app.kernel.text import EVENT_BOUNDS, check_json, check_text
from app.kernel.types import Command, Event, RuleError

PLATFORM_PREFIX = "table."
CHAT_EVENT = PLATFORM_PREFIX + "chat"
UNDO_EVENT = PLATFORM_PREFIX + "undo"
BOT_PACE_EVENT = PLATFORM_PREFIX + "bot_pace"
MAX_BOT_PACE = 10.0
"""The slowest a table's bots may be set to move, in seconds per move."""
BOT_STRENGTH_EVENT = PLATFORM_PREFIX + "bot_strength"
BOT_STRENGTHS = {
    "strong": "strong (thinks a moment ahead)",
    "quick": "quick (plays by rule of thumb)",
}
"""How a table's bots play (issue 27): the search of ``app.kernel.search``, or the game's
heuristic alone; in words for the game master's menu and the log."""
MAX_CHAT_LENGTH = 500
UNDO_REACH = 32
"""How many later commands of other seats an undo may reach past (when the game tells
what each touched, ``Game.undo_footprint``): a bound, so that checking an undo costs the
same however long the log, on a live table and on import alike."""
COMMAND_ID_PATTERN = r"^[A-Za-z0-9._:-]{1,64}$"
COMMAND_ID = re.compile(COMMAND_ID_PATTERN)
"""What a client's ``command_id`` may be (use ``fullmatch``: ``$`` admits a final newline)."""
ACTOR = re.compile(r"^(system|gm|seat:(0|[1-9][0-9]?))$")


class LogEntry(Protocol):
    """A stored event as the store hands it out (``app.store.StoredEvent``)."""

    @property
    def seq(self) -> int: ...
    @property
    def event(self) -> Event: ...
    @property
    def actor(self) -> str: ...
    @property
    def command_id(self) -> str | None: ...


def undo_span(seq: int, event: Event) -> tuple[int, int] | None:
    """The seqs ``first..last`` that the undo stored at ``seq`` took back, clamped to the
    events before it; None if it names none."""
    raw = event.data.get("undone")
    if not isinstance(raw, list) or len(raw) != 2:
        return None
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in raw):
        return None
    first, last = max(1, raw[0]), min(raw[1], seq - 1)
    return (first, last) if first <= last else None


def undone_intervals(log: Iterable[tuple[int, Event]]) -> list[tuple[int, int]]:
    """The seqs later undos took back, as sorted, disjoint ``(first, last)`` intervals."""
    spans = sorted(span for seq, event in log if event.type == UNDO_EVENT and (span := undo_span(seq, event)))
    merged: list[tuple[int, int]] = []
    for first, last in spans:
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def live_events(log: Sequence[tuple[int, Event]]) -> Iterator[Event]:
    """The events of a log (in seq order) that no undo took back."""
    intervals = undone_intervals(log)
    i = 0
    for seq, event in log:
        while i < len(intervals) and intervals[i][1] < seq:
            i += 1
        if i < len(intervals) and intervals[i][0] <= seq:
            continue
        yield event


def is_platform(event_type: str) -> bool:
    return event_type.startswith(PLATFORM_PREFIX)


def chat_event(command: Command) -> Event:
    """The chat command's one event: trimmed, storable text of 1–500 characters."""
    text = command.args.get("text")
    if set(command.args) != {"text"} or not isinstance(text, str):
        raise RuleError("bad_chat", 'a chat message is {"text": "..."}')
    text = check_text(text, "the chat message").strip()
    if not text:
        raise RuleError("bad_chat", "a chat message cannot be empty")
    if len(text) > MAX_CHAT_LENGTH:
        raise RuleError("bad_chat", f"a chat message is at most {MAX_CHAT_LENGTH} characters")
    return Event(CHAT_EVENT, {"seat": command.seat, "text": text})


def bot_pace_event(command: Command) -> Event:
    """The game master sets the table's bot pace (issue 11): ``{"seconds": 0–10}`` per bot
    move, kept in the log so it outlives a restart (``app.live.bots`` reads the newest)."""
    seconds = command.args.get("seconds")
    if (
        set(command.args) != {"seconds"}
        or isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not 0 <= seconds <= MAX_BOT_PACE
    ):
        raise RuleError("bad_bot_pace", f'the bots\' pace is {{"seconds": 0–{MAX_BOT_PACE:g}}} per move')
    return Event(BOT_PACE_EVENT, {"seconds": round(float(seconds), 2)})


def bot_strength_event(command: Command) -> Event:
    """The game master sets how the table's bots play (issue 27): ``{"strength": "strong"}``
    or ``"quick"``, kept in the log so it outlives a restart (``app.live.bots`` reads the
    newest)."""
    strength = command.args.get("strength")
    if set(command.args) != {"strength"} or not isinstance(strength, str) or strength not in BOT_STRENGTHS:
        raise RuleError("bad_bot_strength", 'the bots\' strength is {"strength": "strong" or "quick"}')
    return Event(BOT_STRENGTH_EVENT, {"strength": strength})


# -- which command an undo may take back ---------------------------------------------------


@dataclass(frozen=True)
class UndoFacts:
    """What the undo rule needs to know of one standing command (``undo_facts``)."""

    actor: str
    undoable: bool
    footprint: frozenset[str] | None


def undo_facts(game: Game, actor: str, events: Sequence[Event]) -> UndoFacts:
    return UndoFacts(actor, game.undoable(events), game.undo_footprint(events))


def undo_refusal(mine: UndoFacts, later: Sequence[UndoFacts]) -> str | None:
    """Why a seat may not take back its newest command ``mine``, given the commands of
    other seats still standing after it (``later``, in any order); None when it may.

    Issue 15: "undo of your own last moves until dice, a reveal or another player's action
    touching the same things". With no later command this is the rule every game had: the
    game's ``undoable``. Past later commands it also needs the game's footprints (a game
    without them, ``undo_footprint`` None, keeps "before anyone else acts"), each later
    command undoable itself (nothing random or revealed that could hang on ``mine``) and
    touching none of what ``mine`` touched."""
    if not mine.undoable:
        return "that action cannot be taken back: dice were rolled, a card drawn or something hidden revealed"
    if not later:
        return None
    if len(later) > UNDO_REACH:
        return f"more than {UNDO_REACH} actions of other players came after it"
    if mine.footprint is None:
        return "another player has acted since"
    for other in later:
        if not other.undoable:
            return "another player has since rolled dice, drawn a card or revealed something"
        if other.footprint is None:
            return "another player has since acted in a way that cannot be told apart from yours"
        if not mine.footprint.isdisjoint(other.footprint):
            common = ", ".join(sorted(mine.footprint & other.footprint)[:3])
            return f"another player's later action touched the same things ({common})"
    return None


# -- checking a whole log ------------------------------------------------------------------


@dataclass
class _Command:
    entries: list[LogEntry] = field(default_factory=list)
    _facts: UndoFacts | None = None

    @property
    def key(self) -> tuple[str | None, str]:
        return self.entries[0].command_id, self.entries[0].actor

    def facts(self, game: Game) -> UndoFacts:
        """Asked of the game once per command, however many undos reach past it."""
        if self._facts is None:
            self._facts = undo_facts(game, self.entries[0].actor, [e.event for e in self.entries])
        return self._facts


def bad(message: str) -> RuleError:
    return RuleError("bad_export", message)


def check_history(game: Game, entries: Sequence[LogEntry], seat_count: int) -> None:
    """Refuse (``bad_export``) a log this platform could not have written for ``game``:
    seqs 1, 2, 3…; the game's opening event first and only once; every event of a known
    type and version, within bounds; actors and command ids well formed; chat lines as the
    chat command makes them; each undo taking back exactly the undoing seat's newest
    command still standing, one the game lets players take back (no dice, no card drawn,
    nothing hidden revealed) past whatever other seats did since (``undo_refusal``, the
    rule the live table applies). Linear in the log."""
    if not entries:
        raise bad("the log is empty: a table starts with its game's opening events")
    known = game.event_types()
    opening = getattr(game, "opening_event", None)
    standing: list[_Command] = []
    current: _Command | None = None
    for expected, entry in enumerate(entries, start=1):
        event = entry.event
        where = f"event {expected} ({event.type[:40]})"
        if entry.seq != expected:
            raise bad(f"events must run 1, 2, 3… without gaps; found {entry.seq} at {expected}")
        if not ACTOR.fullmatch(entry.actor) or (
            entry.actor.startswith("seat:") and int(entry.actor[5:]) >= seat_count
        ):
            raise bad(f"{where}: unknown actor {entry.actor[:40]!r}")
        if entry.command_id is not None and not COMMAND_ID.fullmatch(entry.command_id):
            raise bad(f"{where}: a malformed command id")
        if (entry.actor == "system") != (entry.command_id is None):
            raise bad(f"{where}: only the table's setup acts without a command")
        check_json(event.data, where, EVENT_BOUNDS)
        if opening is not None and (expected == 1) != (event.type == opening):
            raise bad(f"{where}: the log must start with one {opening}, and have only one")
        if is_platform(event.type):
            current = None
            if event.v != 1:
                raise bad(f"{where}: version {event.v} is unknown")
            if event.type == CHAT_EVENT:
                _check_chat(entry, where)
            elif event.type == UNDO_EVENT:
                _check_undo(game, entry, standing, where)
            elif event.type == BOT_PACE_EVENT:
                _check_bot_pace(entry, where)
            elif event.type == BOT_STRENGTH_EVENT:
                _check_bot_strength(entry, where)
            else:
                raise bad(f"{where}: no such event type")
            continue
        latest = known.get(event.type)
        if latest is None:
            raise bad(f"{where}: {game.title} has no such event type")
        if not 1 <= event.v <= latest:
            raise bad(f"{where}: version {event.v} is unknown (the newest is {latest})")
        if current is None or current.key != (entry.command_id, entry.actor):
            current = _Command()
            standing.append(current)
        current.entries.append(entry)


def _check_chat(entry: LogEntry, where: str) -> None:
    """A chat line exactly as ``chat_event`` makes it, sent by its own seat (or the GM)."""
    data: dict[str, Any] = entry.event.data
    if set(data) != {"seat", "text"}:
        raise bad(f"{where}: a chat line is {{seat, text}}")
    try:
        remade = chat_event(Command(data["seat"], "chat", {"text": data["text"]}))
    except RuleError as err:
        raise bad(f"{where}: {err.message}") from err
    if remade.data != data:
        raise bad(f"{where}: a chat line is stored trimmed")
    if entry.actor not in (f"seat:{data['seat']}", "gm"):
        raise bad(f"{where}: a chat line is sent by its own seat")


def _check_bot_strength(entry: LogEntry, where: str) -> None:
    """A bot strength exactly as ``bot_strength_event`` makes it, set by the game master."""
    try:
        remade = bot_strength_event(Command("gm", "bot_strength", dict(entry.event.data)))
    except RuleError as err:
        raise bad(f"{where}: {err.message}") from err
    if remade.data != entry.event.data or entry.actor != "gm":
        raise bad(f"{where}: the bots' strength is set by the game master")


def _check_bot_pace(entry: LogEntry, where: str) -> None:
    """A bot pace exactly as ``bot_pace_event`` makes it, set by the game master."""
    try:
        remade = bot_pace_event(Command("gm", "bot_pace", dict(entry.event.data)))
    except RuleError as err:
        raise bad(f"{where}: {err.message}") from err
    if remade.data != entry.event.data or entry.actor != "gm":
        raise bad(f"{where}: the bots' pace is set by the game master, in seconds")


def _check_undo(game: Game, entry: LogEntry, standing: list[_Command], where: str) -> None:
    data: dict[str, Any] = entry.event.data
    if set(data) != {"seat", "undone", "count"}:
        raise bad(f"{where}: an undo is {{seat, undone, count}}")
    own = f"seat:{data['seat']}"
    if entry.actor != own:
        raise bad(f"{where}: a seat takes back only its own command")
    later: list[_Command] = []
    for index in range(len(standing) - 1, -1, -1):  # at most UNDO_REACH + 1 steps
        command = standing[index]
        if command.entries[0].actor == own and command.entries[0].command_id is not None:
            break
        later.append(command)
        if len(later) > UNDO_REACH:
            raise bad(f"{where}: an undo reaches past at most {UNDO_REACH} other commands")
    else:
        raise bad(f"{where}: there is nothing left to take back")
    first, last = command.entries[0].seq, command.entries[-1].seq
    if data["undone"] != [first, last] or data["count"] != len(command.entries):
        raise bad(f"{where}: an undo takes back exactly its seat's newest command (events {first}–{last})")
    refusal = undo_refusal(command.facts(game), [c.facts(game) for c in later])
    if refusal is not None:
        raise bad(f"{where}: no undo: {refusal}")
    del standing[index]
