"""Darkest Night (2nd edition) behind the kernel contract (DESIGN.md, "decide / evolve")."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import app.games.darkest_night.rules  # noqa: F401  (registers every rule)
from app.games.darkest_night.bot import choose
from app.games.darkest_night.content import LOCATIONS, MONASTERY, load
from app.games.darkest_night.decisions import Combat, decision_hero, decision_title
from app.games.darkest_night.describe import TEXTS as EVENT_TEXTS
from app.games.darkest_night.describe import describe_event, page_extras
from app.games.darkest_night.engine import (
    RULES,
    Ctx,
    apply,
    hand_on,
    known_answers,
    listed,
    published_memo,
    reading,
)
from app.games.darkest_night.events import HERO_CHANGED_VERSION, HERO_STATS
from app.games.darkest_night.options import OPTIONS, check_seats, describe_options, hero_slots
from app.games.darkest_night.rules.any_time import ANY_TIME
from app.games.darkest_night.rules.common import hero_name
from app.games.darkest_night.rules.round import check_victory, schedule, victory_check_is_idle
from app.games.darkest_night.rules.setup import build_decks, initial_steps
from app.games.darkest_night.state import State
from app.games.darkest_night.targets import choice_target
from app.games.darkest_night.view import TITLES, event_view, secrets, view
from app.kernel import table as kernel
from app.kernel.flow import RESUME_OP, Decision
from app.kernel.flow.records import WAITING_EVENT, WAITING_VERSION
from app.kernel.game import GameBase
from app.kernel.types import (
    Choice,
    Command,
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


class DarkestNight(GameBase):
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

    # -- deciding ---------------------------------------------------------------------------

    def decide(self, state: State, command: Command, actor: Viewer, rng: random.Random) -> list[Event]:
        if not state.started:
            raise RuleError("not_started", "the game has not been set up")
        ctx = Ctx(state.fork(), rng, load()).working().knowing(known_answers(state))
        if command.type in ANY_TIME.commands:
            if not isinstance(command.seat, int):
                raise RuleError("not_a_hero", "only a hero's player may do that (DN 15.1)")
            offer = listed(state, ("any_time", command.seat))  # as its prompts listed it
            if offer is None:
                with reading(state):
                    offer = self._any_time_for(state, command.seat)
            ctx.any_time_offer = (command.seat, offer)
            ctx.interrupt(ANY_TIME, command.seat, command.type, command.args)
        else:
            d = state.decision
            if d is None:
                raise RuleError("nothing_to_decide", "the table is not waiting for a decision")
            self._check_choice(state, d, command)
            ctx.resolve(command.type, command.args)
        ctx.run(schedule, victory_check())
        events = ctx.finish()
        after = ctx.s.settle()
        kernel.remember_fold(state, events, after)  # ctx.s is the fold of events: no second copy
        if ctx.memo is not None:
            hand_on(after, ctx.memo)  # what the rules worked out since the last change holds for it
        return events

    def refusal(self, state: State, seat: Any, command_type: str) -> RuleError | None:
        """Whose decision the table waits on, for a command the kernel found among none of
        ``seat``'s choices (an "any time" command is not waited for: the kernel says what
        the seat may do instead)."""
        d = state.decision
        if not state.started or state.result is not None or d is None or command_type in ANY_TIME.commands:
            return None
        if seat not in d.asked:
            return self._not_yours(state, d)
        return None

    def _not_yours(self, state: State, d: Decision) -> RuleError:
        who = " or ".join(state.seat_names[s] if isinstance(s, int) else "the game master" for s in d.asked)
        return RuleError(
            "not_your_decision", f"the table is waiting for {who} to {TITLES.get(d.kind, d.kind).lower()}"
        )

    def _check_choice(self, state: State, d: Decision, command: Command) -> None:
        if command.seat not in d.asked:
            raise self._not_yours(state, d)
        choices = listed(state, ("choices", command.seat))  # as its prompts listed them
        if choices is None:
            with reading(state):
                choices = self._choices_for(state, d, command.seat)
        command_type, args = command.type, command.args
        for c in choices:  # ``any`` over a generator, unrolled: it runs once per command
            if c.type == command_type and c.args == args:
                return
        rule = RULES.decisions[d.kind]
        for missing in rule.unavailable(state, d) if rule.unavailable else []:
            if missing.type == command.type:
                raise RuleError("not_allowed", f"{missing.label.lower()} — {missing.reason}, {missing.rule}")
        offered = sorted({c.type for c in choices})
        raise RuleError(
            "not_a_choice",
            f"{command.type} {command.args or ''} is not a legal choice now "
            f"({TITLES.get(d.kind, d.kind)}: {', '.join(offered)})".replace(" {}", ""),
        )

    def _choices_for(self, state: State, d: Decision, seat: Any) -> list[Choice]:
        """The choices of ``seat`` in ``state.decision``, listed once per published state
        (prompts lists them, then decide checks the command against them; both read the
        state under ``reading``, whose memo keeps them)."""
        memo = published_memo(state)
        if memo is None:
            return self._list_choices(state, d, seat)
        key = ("choices", seat)
        known = memo.get(key)
        if known is None:
            known = memo[key] = self._list_choices(state, d, seat)
        return known

    def _any_time_for(self, state: State, seat: int) -> list[Choice]:
        """What ``seat`` may do at any time in ``state``, listed once per published state
        (prompts lists it, then an "any time" command is checked against it)."""
        memo = published_memo(state)
        if memo is None:
            return ANY_TIME.choices(state, seat)
        key = ("any_time", seat)
        known = memo.get(key)
        if known is None:
            known = memo[key] = ANY_TIME.choices(state, seat)
        return known

    def _list_choices(self, state: State, d: Decision, seat: Any) -> list[Choice]:
        choices = RULES.decisions[d.kind].choices(state, d)
        if d.seats and len(d.seats) > 1:
            choices = [
                c for c in choices if "hero" not in c.args or state.heroes[c.args["hero"]].seat == seat
            ]
        return choices

    # -- reading ------------------------------------------------------------------------------

    def prompts(self, state: State) -> list[Prompt]:
        if not state.started or state.result is not None:
            return []
        with reading(state):
            return self._prompts(state)

    def _prompts(self, state: State) -> list[Prompt]:
        out: list[Prompt] = []
        d = state.decision
        if d is not None:
            rule = RULES.decisions[d.kind]
            unavailable = tuple(rule.unavailable(state, d)) if rule.unavailable else ()
            for seat in d.asked:
                choices = self._choices_for(state, d, seat)
                if choices:
                    out.append(Prompt(seat, prompt_title(state, d), tuple(choices), unavailable))
        for seat in sorted({h.seat for h in state.heroes.values() if not h.dead}):  # the living
            extra = self._any_time_for(state, seat)
            if extra:
                out.append(Prompt(seat, ANY_TIME.title, tuple(extra), required=False))
        return out

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

    def bot_choice(self, state: State, prompt: Prompt, rng: random.Random) -> Choice | None:
        """The heuristic bot (``bot/``) for a seat handed to it: a hero player's seat, or
        the Necromancer player's seat (DN 20.3: his moves and the map cards he plays). It
        never takes "any time" offers."""
        if not prompt.required or not prompt.choices:
            return None
        return choose(state, prompt, rng)


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
