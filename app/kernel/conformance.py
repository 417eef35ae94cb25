"""The conformance check every registered game must pass (STYLE.md: one random-simulation
test over every game). Pure and deterministic; the tests run it over many seeds.

A seeded random player picks among the legal commands the game offers. It fails if a
legal command raises, if a running game offers no legal command or waits on nobody, if
an event is not JSON, if replaying the log does not rebuild an equal state, if a game
does not end within ``max_commands``, or if a viewer's view or event feed contains a
secret that viewer may not see.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.kernel import event_schema, playout, search
from app.kernel import table as kernel
from app.kernel.game import Game, validate_options
from app.kernel.rng import rng_for
from app.kernel.types import (
    GAME_MASTER,
    SPECTATOR,
    Choice,
    Event,
    Prompt,
    RuleError,
    SeatInfo,
    Viewer,
)


class ConformanceError(AssertionError):
    pass


GAMES_VARIABLE = "UMBRA_CONFORMANCE_GAMES"


def games_per_case(default: int) -> int:
    """How many seeded games one conformance test case plays: ``default`` (sized for CI),
    or ``$UMBRA_CONFORMANCE_GAMES`` for a longer hunt (e.g. 200 before a release)."""
    value = os.environ.get(GAMES_VARIABLE, "").strip()
    return max(1, int(value)) if value else default


@dataclass
class Playout:
    seed: int
    events: list[Event] = field(default_factory=list)
    commands: int = 0
    outcome: Any = None
    state: Any = None


def viewers_for(seats: int) -> list[Viewer]:
    return [SPECTATOR, GAME_MASTER, *(Viewer("seat", frozenset({i})) for i in range(seats))]


_encode = json.JSONEncoder(sort_keys=True).encode
"""One encoder for every check (``json.dumps`` builds a new one per call)."""


def check_views(game: Game, state: Any, new_events: list[Event], viewers: list[Viewer], where: str) -> None:
    """No viewer's view, or feed of the new events, contains a secret it may not see.

    Each secret is encoded once, and each event once per distinct form viewers see it in
    (most events look the same to everyone); every such form is described once."""
    needles = [(_encode(secret.value), secret.seats) for secret in game.secrets(state)]
    context = game.log_context(state)
    seen: dict[int, tuple[Event, str]] = {}
    """id(visible event) -> (the event, kept alive so its id is not reused; its text)."""
    encoded: list[tuple[Any, str]] = []
    """Each distinct view met so far and its JSON text: the spectator's and most seats'
    views are alike, and comparing two views costs a fraction of encoding one."""
    for viewer in viewers:
        raw = game.view(state, viewer)
        # Equal views encode alike but for ``1 == True == 1.0``, which no secret (a deck's
        # order, a hand: text) can hide behind.
        view = next((text for other, text in encoded if other == raw), None)
        if view is None:
            view = _encode(raw)
            encoded.append((raw, view))
        feed = []
        for event in new_events:
            visible = kernel.event_for_viewer(game, event, viewer)
            if visible is None:
                continue
            known = seen.get(id(visible))
            if known is None:
                known = seen[id(visible)] = (visible, _encode(visible.to_json()))
                kernel.describe(game, visible, context)
            feed.append(known[1])
        if viewer.is_gm:
            continue
        hidden = [needle for needle, seats in needles if not any(viewer.sees_seat(s) for s in seats)]
        if not hidden:
            continue
        everything = "\n".join(feed)  # JSON text holds no raw newline: no needle spans two events
        for needle in hidden:
            if needle in view:
                raise ConformanceError(f"{where}: {viewer.key()} view leaks {needle}")
            if needle in everything:
                text = next(t for t in feed if needle in t)
                raise ConformanceError(f"{where}: {viewer.key()} event feed leaks {needle}: {text}")


def random_playout(
    game: Game,
    seed: int,
    *,
    seats: int | None = None,
    options: dict[str, Any] | None = None,
    max_commands: int = 10_000,
    check_every: int = 1,
    optional_share: float = 0.1,
    invariant: Callable[[Any], None] | None = None,
) -> Playout:
    """Play one seeded game of random legal commands, checking every invariant.

    ``check_every`` > 0 checks every viewer's view every that many commands, every event
    since the last check in each viewer's feed, and every event against the game's event
    schema; 0 checks no view and no schema (a benchmark)."""
    picker = random.Random(seed)
    n = seats if seats is not None else picker.randint(game.min_seats, game.max_seats)
    opts = validate_options(game, options or {})
    table_seed = f"conformance-{seed}"
    # Options may allow fewer seats than picked (or need more): take the nearest that works.
    candidates = [*range(n, game.min_seats - 1, -1), *range(n + 1, game.max_seats + 1)]
    for n in candidates:
        infos = [SeatInfo(i, f"Player {i + 1}") for i in range(n)]
        try:
            opening = game.setup(opts, infos, rng_for(table_seed, 1))
            break
        except RuleError:
            if n == candidates[-1]:
                raise
    viewers = viewers_for(n)
    out = Playout(seed)
    state = kernel.replay(game, opening)
    out.events.extend(opening)
    if check_every:
        try:
            event_schema.check(game, opening, strict=True)
        except event_schema.EventSchemaError as err:
            raise ConformanceError(f"seed {seed} setup: {err} (`make event-schemas` if it is new)") from err
    check_views(game, state, opening, viewers, f"seed {seed} setup")
    known = game.event_types()
    unchecked: list[Event] = []
    """Events since the last view check: every event reaches a feed check, even when the
    views are only looked at every ``check_every`` commands."""
    stored_json = [json.dumps([e.to_json() for e in opening])]
    """The log as a store keeps it: JSON text, one batch per command, read back to replay."""
    player = playout.random_player(picker, optional_share)
    table = playout.Played(game, table_seed, n, state, opening, len(opening), log=out.events)

    def pick(state: Any, prompts: list[Prompt]) -> tuple[Prompt, Choice]:
        if not any(p.required for p in prompts):
            raise ConformanceError(f"seed {seed} step {table.commands}: the game runs but waits on nobody")
        return player(state, prompts)

    def after(table: playout.Played, prompt: Prompt, choice: Choice, events: list[Event]) -> None:
        nonlocal unchecked
        step = table.commands - 1
        if not events:
            raise ConformanceError(f"seed {seed} step {step}: {choice.type} produced no events")
        stored_json.append(json.dumps([e.to_json() for e in events]))
        if check_every:
            try:
                event_schema.check(game, events, strict=True)
            except event_schema.EventSchemaError as err:
                raise ConformanceError(
                    f"seed {seed} step {step}: {choice.type} wrote an event its schema does not have: "
                    f"{err} (a mistyped value, or a new field or type: then `make event-schemas` and "
                    "review the diff)"
                ) from err
        for event in events:
            if event.type not in known or not 1 <= event.v <= known[event.type]:
                raise ConformanceError(
                    f"seed {seed} step {step}: event {event.type} v{event.v} is not in event_types() "
                    "(an export holding it could not be imported)"
                )
        if invariant is not None:
            try:
                invariant(table.state)
            except AssertionError as err:
                raise ConformanceError(f"seed {seed} step {step}: invariant broken: {err}") from err
        if check_every:
            unchecked.extend(events)
            if step % check_every == 0:
                check_views(game, table.state, unchecked, viewers, f"seed {seed} step {step}")
                unchecked = []

    try:
        playout.play(table, pick, max_commands=max_commands, on_command=after)
    except RuleError as err:
        raise ConformanceError(
            f"seed {seed} step {table.commands}: an offered command for a seat was refused: {err.message}"
        ) from err
    state = table.state
    out.commands = table.commands
    if game.outcome(state) is None:
        raise ConformanceError(f"seed {seed}: no end after {max_commands} commands")
    if unchecked:
        check_views(game, state, unchecked, viewers, f"seed {seed} end")
    stored = [Event(**e) for batch in stored_json for e in json.loads(batch)]
    rebuilt = kernel.replay(game, stored)
    if rebuilt != state:
        raise ConformanceError(f"seed {seed}: replaying the log does not rebuild the same state")
    out.outcome = game.outcome(state)
    out.state = state
    return out


# -- the strong bot never peeks (issue 27) ------------------------------------------------


def hidden_from(game: Game, state: Any, seat: Any) -> list[str]:
    """The secrets ``seat`` may not see, as JSON."""
    return [_encode(s.value) for s in game.secrets(state) if seat not in s.seats]


def check_no_peeking(
    game: Game, state: Any, seat: Any, seed: int, budget: search.Budget, *, twins: int = 8
) -> None:
    """The strong bot decides ``seat``'s questions from what the seat may see.

    - ``determinize`` keeps the seat's view and redraws what is hidden from it: among
      ``twins`` redrawn worlds ("twins": states the seat cannot tell from ``state``) one at
      least differs in a secret hidden from the seat, when there is such a secret with two
      or more things in it;
    - a world redrawn from a twin equals the one redrawn from ``state`` with the same rng
      (every secret and the game master's view), so nothing hidden leaks into the sample;
    - the search gives the same answer on ``state`` and on a twin, same seed (``budget``
      must have no time cap)."""
    viewer = Viewer("seat", frozenset({seat}))
    seen = _encode(game.view(state, viewer))
    hidden = hidden_from(game, state, seat)
    twin_states = [game.determinize(state, seat, random.Random(f"twin-{seed}-{i}")) for i in range(twins)]
    for twin in twin_states:
        if _encode(game.view(twin, viewer)) != seen:
            raise ConformanceError(f"seed {seed}: determinize changed what seat {seat} sees")
    redrawable = any(
        isinstance(s.value, list) and len({_encode(v) for v in s.value}) > 1
        for s in game.secrets(state)
        if seat not in s.seats
    )
    if redrawable and all(hidden_from(game, t, seat) == hidden for t in twin_states):
        raise ConformanceError(f"seed {seed}: determinize never redrew what seat {seat} may not see")
    twin = next((t for t in twin_states if hidden_from(game, t, seat) != hidden), twin_states[0])
    a = game.determinize(state, seat, random.Random(seed))
    b = game.determinize(twin, seat, random.Random(seed))
    if hidden_from(game, a, seat) != hidden_from(game, b, seat) or _encode(
        game.view(a, GAME_MASTER)
    ) != _encode(game.view(b, GAME_MASTER)):
        raise ConformanceError(f"seed {seed}: seat {seat}'s redrawn world depends on what it may not see")
    for prompt in game.prompts(state):
        if prompt.seat != seat or not prompt.required or len(prompt.choices) < 2:
            continue
        twin_prompt = next(p for p in game.prompts(twin) if p.seat == seat and p.title == prompt.title)
        mine = search.search_choice(game, state, prompt, random.Random(seed), budget)
        theirs = search.search_choice(game, twin, twin_prompt, random.Random(seed), budget)
        if mine != theirs:
            raise ConformanceError(
                f"seed {seed}: the strong bot of seat {seat} chose {mine.type} {mine.args} on the table "
                f"and {theirs.type} {theirs.args} on a twin it cannot tell apart"
            )
