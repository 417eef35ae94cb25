"""Darkest Night (2nd edition) behind the kernel contract (DESIGN.md, "decide / evolve")."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import app.games.darkest_night.rules  # noqa: F401  (registers every rule)
from app.games.darkest_night.bot import choose
from app.games.darkest_night.bot.candidates import search_candidates
from app.games.darkest_night.bot.standing import search_budget
from app.games.darkest_night.bot.standing import value as standing_value
from app.games.darkest_night.bot.worlds import determinize
from app.games.darkest_night.content import LOCATIONS, MONASTERY, load
from app.games.darkest_night.decisions import Combat, decision_hero, decision_title
from app.games.darkest_night.describe import TEXTS as EVENT_TEXTS
from app.games.darkest_night.describe import describe_event, page_extras
from app.games.darkest_night.engine import RULES, Ctx, apply
from app.games.darkest_night.events import HERO_CHANGED_VERSION, HERO_STATS
from app.games.darkest_night.guide import guide_step
from app.games.darkest_night.options import OPTIONS, check_seats, describe_options, hero_slots
from app.games.darkest_night.rules.any_time import ANY_TIME
from app.games.darkest_night.rules.common import hero_name
from app.games.darkest_night.rules.round import check_victory, schedule, victory_check_is_idle
from app.games.darkest_night.rules.setup import build_decks, initial_steps
from app.games.darkest_night.state import State
from app.games.darkest_night.targets import choice_target
from app.games.darkest_night.view import TITLES, event_view, secrets, view
from app.kernel.flow import RESUME_OP, Decision, FlowGame
from app.kernel.flow.records import WAITING_EVENT, WAITING_VERSION
from app.kernel.types import (
    Budget,
    Choice,
    Event,
    Outcome,
    Prompt,
    RuleError,
    SeatInfo,
    Secret,
    Viewer,
)

ENGINE_VERSION = "1"

IRREVOCABLE = frozenset(
    {
        "DiceRolled",
        "CardDrawn",
        "DeckShuffled",
        "PowerDeckShuffled",
        "PowerDrawn",
        "RenewalDrawn",
        "EventRevealed",
        "HandDrawn",
        "HandDiscarded",
        "DarknessCardDrawn",
        "QuestPlaced",
        "MysteryPlaced",
        "RelicPlaced",
        "HeroesDetected",
        "GameEnded",
        "NecromancerTurnStarted",
        "RoundStarted",
    }
)
"""Events after which a command cannot be taken back: chance, cards, secrets, the turn moving on."""

LOG_MARKS = {"RoundStarted": "round", "TurnStarted": "turn", "NecromancerTurnStarted": "turn"}
"""Events whose log line starts a round or a turn."""


class DarkestNight(FlowGame):
    rules = RULES
    keeps_answers = True
    name = "darkest_night"
    title = "Darkest Night"
    summary = (
        "Four heroes fight a guerrilla war against the Necromancer: search, pray, hide and "
        "strike, find the Holy Relics, and slay him — before the Monastery falls."
    )
    engine_version = ENGINE_VERSION
    min_seats = 1
    max_seats = 6
    options = OPTIONS
    opening_event = "GameStarted"

    def event_types(self) -> dict[str, int]:
        """Every event the rules write, with its schema version: those the fold applies
        (``HeroChanged`` at 2, the rest at 1) and those that only narrate (each has a log
        line); and the retired ``FlowSet``, which old logs hold and ``upcast`` reads."""
        narrated = dict.fromkeys(EVENT_TEXTS, 1)
        return dict(sorted((narrated | RULES.versions | RETIRED_EVENTS).items()))

    def upcast(self, event: Event) -> Event:
        """Old logs read as today's (DESIGN.md, "Saves outlive releases"): ``FlowSet``
        (the engine's to-do list and decision dict) becomes the kernel's ``Waiting`` record,
        ``HeroChanged`` v1 (a Python attribute name) names a stat of ``HERO_STATS``, and
        the kernel brings ``Waiting`` records up to today's step vocabulary."""
        if event.type == "FlowSet":
            event = waiting_from_flow_set(event)
        elif event.type == "HeroChanged" and event.v == 1:
            event = hero_changed_v2(event)
        return RULES.upcast(event)

    def initial_state(self) -> State:
        return State()

    # -- the fold -----------------------------------------------------------------------

    def evolve(self, state: State, event: Event) -> State:
        new = state.fork()  # copy-on-write: the appliers copy what they change
        apply(new, event)
        return new.settle()

    def evolve_all(self, state: State, events: Sequence[Event]) -> State:
        new = state.fork()  # one successor for the whole batch: still a pure fold
        for event in events:
            apply(new, event)
        return new.settle()

    # -- setting up -------------------------------------------------------------------------

    def setup(self, options: dict[str, Any], seats: Sequence[SeatInfo], rng: random.Random) -> list[Event]:
        """DN 3.0: decks, relics, the Necromancer in the Ruins, starting blights, heroes."""
        check_seats(options, len(seats))
        content = load()
        ctx = Ctx(State(), rng, content)
        necro_seat = len(seats) - 1 if options.get("necromancer_player") else None
        roster = sorted(content.heroes)
        ctx.emit(
            "GameStarted",
            options=options,
            seats=[s.name for s in seats],
            necromancer_seat=necro_seat,
            roster=roster,
            locations=list(LOCATIONS),
            item_stock={k: v.tokens for k, v in content.items.items() if k not in ("holy_relic", "artifact")},
            darkness=int(options.get("starting_darkness", 0)),
            necromancer="Ruins",
        )
        build_decks(ctx, options)
        if not options.get("hidden_relics"):
            for location in LOCATIONS:
                if content.locations[location].relic:
                    ctx.emit("RelicPlaced", location=location)
        ctx.s.agenda = initial_steps(options, hero_slots(options, len(seats)))
        ctx.run(schedule, check_victory)
        return ctx.finish()

    def describe_options(self, options: dict[str, Any], seat_names: list[str]) -> list[str]:
        return describe_options(options, seat_names)

    # -- the decision loop's hooks (the loop is the kernel's ``FlowGame``) ---------------------

    def command_ctx(self, state: State, rng: random.Random) -> Ctx:
        """A copy-on-write successor of ``state`` (``State.fork``) with a working memo (the
        kernel starts it from what was worked out about ``state``'s heroes and blights)."""
        return Ctx(state.fork(), rng, load()).working()

    def schedule(self, ctx: Ctx) -> None:
        schedule(ctx)

    def step_check(self) -> Callable[[Ctx], None]:
        return victory_check()

    def reached(self, ctx: Ctx) -> State:
        """The command's state, settled (``State.settle``), published with its memo."""
        ctx.s = ctx.s.settle()
        return super().reached(ctx)

    def choice_seat(self, state: State, choice: Choice) -> Any:
        """A question asking several players (who goes next, DN 6.0) offers each the choices
        of the heroes they play."""
        hero = choice.args.get("hero")
        return None if hero is None else state.heroes[hero].seat

    def window_seats(self, state: State) -> list[int]:
        return sorted({h.seat for h in state.heroes.values() if not h.dead})  # the living

    def prompt_title(self, state: State, d: Decision, seat: Any) -> str:
        return prompt_title(state, d)

    def seat_name(self, state: State, seat: Any) -> str:
        return state.seat_names[seat] if isinstance(seat, int) else "the game master"

    def not_asked(self, state: State, d: Decision, seat: Any, command_type: str) -> RuleError | None:
        """Whose decision the table waits on (an "any time" command is not waited for: the
        kernel says what the seat may do instead)."""
        if command_type in ANY_TIME.commands:
            return None
        who = " or ".join(self.seat_name(state, s) for s in d.asked)
        return RuleError(
            "not_your_decision", f"the table is waiting for {who} to {TITLES.get(d.kind, d.kind).lower()}"
        )

    # -- reading ------------------------------------------------------------------------------

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view(state, viewer)

    def view_key(self, state: State, viewer: Viewer) -> str:
        """The three views ``view`` makes: the game master's (decks' order, heroes' decks,
        the decision record), the Necromancer player's (his hand of map cards, DN 20.3), and
        the one every other viewer shares (hero seats and spectators: heroes' powers and
        items are open, DN 3.2). ``page_extras`` is public."""
        if viewer.is_gm:
            return "gm"
        if state.necromancer_seat is not None and viewer.sees_seat(state.necromancer_seat):
            return "necromancer"
        return "public"

    def outcome(self, state: State) -> Outcome | None:
        if state.result is None:
            return None
        return Outcome(state.result["result"], state.result["reason"])

    def event_view(self, event: Event, viewer: Viewer) -> Event | None:
        return event_view(event, viewer)

    def describe(self, event: Event) -> str:
        return describe_event(self.upcast(event))

    def log_mark(self, event: Event) -> str:
        """Rounds and turns divide the log, so each line reads under its round and hero
        (DN 6.0: in each round every hero takes a turn, then the Necromancer)."""
        return LOG_MARKS.get(event.type, "")

    def undoable(self, events: Sequence[Event]) -> bool:
        """A player may take back a command in which no die was rolled, no card drawn and
        nothing hidden revealed (issue: undo until dice, cards or secrets)."""
        return not any(e.type in IRREVOCABLE for e in events)

    def secrets(self, state: State) -> list[Secret]:
        return secrets(state)

    def page_extras(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """What the pages show beyond the view: the event card in play (DN 7.0)."""
        return page_extras(state)

    def choice_target(self, state: State, choice: Choice) -> str | None:
        """The map's location, blight or hero a choice acts on (``targets.py``)."""
        return choice_target(choice)

    def guide_step(self, state: State, prompt: Prompt) -> str | None:
        """The step of a turn a required prompt belongs to, for a first game's guide
        (``guide.py``; issue 28): "any time" offers have none."""
        if not prompt.required:
            return None
        return guide_step(state.phase, state.step, state.decision)

    def bot_choice(self, state: State, prompt: Prompt, rng: random.Random) -> Choice | None:
        """The heuristic bot (``bot/``) for a seat handed to it: a hero player's seat, or
        the Necromancer player's seat (DN 20.3: his moves and the map cards he plays). It
        never takes "any time" offers."""
        if not prompt.required or not prompt.choices:
            return None
        return choose(state, prompt, rng)

    def determinize(self, state: State, seat: Any, rng: random.Random) -> State:
        """A world ``seat`` cannot tell from the table (``bot/worlds.py``): every deck's
        order and every hero's power deck redrawn, and the Necromancer player's hand for
        any other seat (DN 20.3.1)."""
        return determinize(state, seat, rng)

    def value(self, state: State, seat: Any) -> float:
        """The heroes' chance to win read from the board (``bot/standing.py``); the
        Necromancer player's seat wins when they lose (DN 20.3)."""
        return standing_value(state, seat)

    def search_budget(self, state: State, prompt: Prompt) -> Budget | None:
        """Where the strong bot thinks (``bot/standing.py``)."""
        return search_budget(state, prompt)

    def search_candidates(self, state: State, prompt: Prompt, rng: random.Random) -> list[Choice]:
        """The planner's few best actions (``bot/candidates.py``)."""
        return search_candidates(state, prompt, rng)


RETIRED_EVENTS = {"FlowSet": 1}
"""Event types no longer written but still read (and accepted in imports): ``upcast``
turns them into today's events."""

LEGACY_HERO_FIELDS = {name: name for name in HERO_STATS}
"""``HeroChanged`` v1 stored the Hero attribute's name; on the day v2 was made every
attribute it could name had a stat of the same name (a later rename of a stat maps here)."""


def waiting_from_flow_set(event: Event) -> Event:
    """``FlowSet`` {agenda, decision} (before the flow move) as the kernel's ``Waiting``:
    the decision dict becomes a v1 record, the agenda the pending steps of vocabulary v1
    (whose op and parameter names it already used); a decision set aside by an "any time"
    action inside a ``resume_decision`` step becomes a record too."""
    d = event.data.get("decision")
    pending = [resumed_as_record(dict(st)) for st in event.data.get("agenda", ())]
    return Event(
        WAITING_EVENT,
        {"decision": legacy_record(d), "pending": pending, "steps_v": 1},
        WAITING_VERSION,
    )


def legacy_record(d: dict[str, Any] | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"kind": d["kind"], "v": 1} | {k: v for k, v in d.items() if k != "kind"}


def resumed_as_record(st: dict[str, Any]) -> dict[str, Any]:
    if st.get("op") == RESUME_OP:
        return st | {"decision": legacy_record(st.get("decision"))}
    return st


def hero_changed_v2(event: Event) -> Event:
    """``HeroChanged`` v1 ``{hero, field, to, by, why}`` as v2 ``{hero, stat, to, by, why}``."""
    data = {
        ("stat" if k == "field" else k): (LEGACY_HERO_FIELDS[v] if k == "field" else v)
        for k, v in event.data.items()
    }
    return Event("HeroChanged", data, HERO_CHANGED_VERSION)


def victory_check() -> Callable[[Ctx], None]:
    """``check_victory`` before every step (DN 18.2, 20.4, and the pending question a
    rule may settle, DN 14.3.2), skipped while nothing happened since a check that found
    nothing to do: it reads the state, which only events with an applier change
    (``Ctx.changes``), and the pending question, which a step may replace without an
    event; with neither changed since, it would find nothing again. (A check that acted,
    by an event or a step, is always made again.) It ran about six times per command."""
    quiet_changes = -1
    """The state's changes after the last check that did nothing (-1: none did)."""
    quiet_decision: object = None
    """The pending question then."""

    def check(ctx: Ctx) -> None:
        nonlocal quiet_changes, quiet_decision
        changes = ctx.changes
        s = ctx.s
        decision = s.decision
        if changes == quiet_changes and decision is quiet_decision:
            return
        if victory_check_is_idle(ctx):
            quiet_changes, quiet_decision = changes, None
            return
        events = len(ctx.events)
        agenda = len(s.agenda)
        check_victory(ctx)
        did_nothing = len(ctx.events) == events and len(s.agenda) == agenda and s.decision is decision
        if did_nothing and s.result is None:
            quiet_changes, quiet_decision = changes, decision
        else:
            quiet_changes = -1

    return check


def prompt_title(state: State, d: Decision) -> str:
    hero = decision_hero(d)
    if isinstance(d, Combat):  # the one kind whose title reads more than its hero (its foe)
        return _title(state, d, hero)
    key = (d.kind, hero)
    title = _TITLES_BY_HERO.get(key)
    if title is None:
        title = _TITLES_BY_HERO[key] = _title(state, d, hero)
    return title


def _title(state: State, d: Decision, hero: str | None) -> str:
    title = decision_title(d) or TITLES.get(d.kind, d.kind)
    return f"{hero_name(state, hero)}: {title}" if hero else title


_TITLES_BY_HERO: dict[tuple[str, str | None], str] = {}
"""``prompt_title`` by decision kind and hero, for every kind but a combat: its title and
the hero's name come from the content alone (asked for in every prompt)."""


def monastery() -> str:
    return MONASTERY
