"""Running a table on top of a game: platform events, command handling and replay.

Platform events (``table.*``, e.g. chat) live in the same log as the game's events but
never reach the game's ``evolve``; the game knows nothing of them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from operator import is_
from typing import Any

from app.kernel import event_schema, history, offers
from app.kernel.game import Game
from app.kernel.text import COMMAND_BOUNDS, check_json
from app.kernel.types import GM_SEAT, Command, Event, Prompt, RuleError, Viewer

PLATFORM_PREFIX = history.PLATFORM_PREFIX
CHAT = "chat"
UNDO = "undo"
BOT_PACE = "bot_pace"
BOT_PACE_EVENT = history.BOT_PACE_EVENT
BOT_STRENGTH = "bot_strength"
BOT_STRENGTH_EVENT = history.BOT_STRENGTH_EVENT
UNDO_EVENT = history.UNDO_EVENT
MAX_CHAT_LENGTH = history.MAX_CHAT_LENGTH


def is_platform_event(event: Event) -> bool:
    return history.is_platform(event.type)


def read(game: Game, event: Event) -> Event:
    """A stored game event as today's rules read it: upcast by the game, then with any whole
    number an older release stored as a boolean or a decimal read back as one
    (``event_schema.normalise``)."""
    return event_schema.normalise(event_schema.schema_of(game), game.upcast(event))


def fold(game: Game, state: Any, event: Event) -> Any:
    """Evolve ``state`` by one stored event (read as today's rules read it; platform events
    pass by)."""
    if is_platform_event(event):
        return state
    return game.evolve(state, read(game, event))


class _DecidedFold:
    """The state a game reached while deciding a command (it applies each event as it
    emits it), kept for the fold of those very events that follows.

    One slot, taken once: a fold of other events, or of the same events on another
    state, misses and folds for real. Sound because ``evolve`` is a pure, deterministic
    function of (state, events): the state the game built is the one the fold would
    build (the conformance check replays every log to prove it)."""

    __slots__ = ("before", "events", "after")

    def __init__(self, before: Any, events: Sequence[Event], after: Any) -> None:
        self.before, self.events, self.after = before, tuple(events), after


_decided: _DecidedFold | None = None


def remember_fold(before: Any, events: Sequence[Event], after: Any) -> None:
    """Called by a game's ``decide``: folding ``events`` into ``before`` gives ``after``
    (a private state no one else holds or will change)."""
    global _decided
    _decided = _DecidedFold(before, events, after)


def _recall_fold(before: Any, batch: Sequence[Event]) -> Any:
    global _decided
    memo = _decided
    if memo is None or memo.before is not before or len(memo.events) != len(batch):
        return None
    if not all(map(is_, memo.events, batch)):  # the very events, one by one (in C)
        return None
    _decided = None
    return memo.after


def fold_all(game: Game, state: Any, events: Iterable[Event]) -> Any:
    """Evolve ``state`` by several stored events (upcast; platform events pass by)."""
    if type(events) is list:
        # The very events the game just decided on this state (they hold no platform
        # event and are today's versions, which upcast leaves as they are): its state.
        known = _recall_fold(state, events)
        if known is not None:
            return known
    schema, upcast, normalise = event_schema.schema_of(game), game.upcast, event_schema.normalise
    batch = [normalise(schema, upcast(e)) for e in events if not is_platform_event(e)]
    if not batch:
        return state
    evolve_all = getattr(game, "evolve_all", None)
    if evolve_all is not None:
        return evolve_all(state, batch)
    for event in batch:
        state = game.evolve(state, event)
    return state


def replay(game: Game, events: Iterable[Event], state: Any = None) -> Any:
    """Rebuild the state from the log (optionally continuing from a snapshot)."""
    if state is None:
        state = game.initial_state()
    return fold_all(game, state, events)


def replay_log(game: Game, log: Sequence[tuple[int, Event]], state: Any = None) -> Any:
    """Replay a stored log, leaving out what was taken back (undo is recorded, never erased).

    ``log`` runs in seq order; undone spans are clamped and merged, never expanded, so a
    forged ``undone: [1, 10**12]`` costs no more than the log itself."""
    return replay(game, history.live_events(log), state)


def undo_event(seat: Any, taken_back: Sequence[tuple[int, Event]]) -> Event:
    first, last = taken_back[0][0], taken_back[-1][0]
    return Event(UNDO_EVENT, {"seat": seat, "undone": [first, last], "count": len(taken_back)})


def decide(
    game: Game,
    state: Any,
    command: Command,
    actor: Viewer,
    rng: random.Random,
    prompts: Sequence[Prompt] | None = None,
) -> list[Event]:
    """Check the actor's right to the seat, handle platform commands, else check that the
    command is one of the choices offered (``offers``: equal as JSON, issue 23) and ask the
    game for its events. ``prompts`` are ``game.prompts(state)`` when the caller has them."""
    if not actor.holds(command.seat):
        who = "the game master" if command.seat == GM_SEAT else f"seat {command.seat}"
        raise RuleError("seat_not_held", f"you do not hold {who}", status=403)
    check_json(command.args, "args", COMMAND_BOUNDS)
    if command.type == CHAT:
        return [history.chat_event(command)]
    if command.type == BOT_PACE:
        if command.seat != GM_SEAT:
            raise RuleError("gm_only", "only the game master sets the bots' pace", status=403)
        return [history.bot_pace_event(command)]
    if command.type == BOT_STRENGTH:
        if command.seat != GM_SEAT:
            raise RuleError("gm_only", "only the game master sets how the bots play", status=403)
        return [history.bot_strength_event(command)]
    outcome = game.outcome(state)
    if outcome is not None:
        raise RuleError("game_over", f"the game is over: {outcome.reason}", status=409)
    if prompts is None:
        prompts = game.prompts(state)
    if offers.offered(prompts, command) is None:
        raise offers.refusal(prompts, command, lambda: game.refusal(state, command.seat, command.type))
    events = game.decide(state, command, actor, rng)
    for event in events:  # ``is_platform_event``, inlined: several events per command
        if event.type.startswith(PLATFORM_PREFIX):
            raise ValueError(f"{game.name} may not emit platform event {event.type}")
    return events


def event_for_viewer(game: Game, event: Event, viewer: Viewer) -> Event | None:
    """The event as ``viewer`` may see it; platform events are public."""
    if is_platform_event(event):
        return event
    return game.event_view(read(game, event), viewer)


def describe(game: Game, event: Event, context: Any = None) -> str:
    """The log line of a visible event; ``context`` is ``game.log_context(state)`` of the
    state the line is written in (a game without one is not passed it)."""
    if event.type == PLATFORM_PREFIX + CHAT:
        return str(event.data.get("text", ""))
    if event.type == BOT_PACE_EVENT:
        seconds = event.data.get("seconds", 0)
        return f"sets the bots' pace to {seconds:g} s a move" if seconds else "lets the bots move at once"
    if event.type == BOT_STRENGTH_EVENT:
        words = history.BOT_STRENGTHS.get(event.data.get("strength", ""), "")
        return f"sets the bots to play {words}"
    if event.type == UNDO_EVENT:
        # No event numbers for players: the lines taken back are struck through instead.
        return "takes back their last action"
    return game.describe(event) if context is None else game.describe(event, context)
