"""The kernel contract every game satisfies (DESIGN.md, "decide / evolve").

A game is one object. ``decide`` checks a command and returns the events it causes, with
every random outcome resolved inside them; ``evolve`` folds an event into the state and is
never random and never fails. ``prompts`` lists who may act and every legal command;
``view`` is what one viewer may see; ``outcome`` says whether and how the game ended.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Hashable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, Protocol, runtime_checkable

from app.kernel.options import validate_options as validate_options  # re-exported: callers import it here
from app.kernel.reference import RulesReference
from app.kernel.reference import load as load_reference
from app.kernel.types import (
    Budget,
    Chapter,
    Choice,
    Command,
    Event,
    OptionSpec,
    Outcome,
    Prompt,
    RuleError,
    SeatInfo,
    Secret,
    Viewer,
)

DEFAULT_BUDGET = Budget()


class GameRules(Protocol):
    """The rules contract: what the kernel (replay, the command check, conformance) and the
    live layer (sessions, bots, undo, fan-out) need of a game. ``GameBase`` gives every part
    below the rule-bearing core (``initial_state`` … ``outcome``) a default; a game on the
    kernel's flow engine gets ``decide``, ``prompts`` and ``refusal`` from ``FlowGame``."""

    name: str
    title: str
    engine_version: str
    min_seats: int
    max_seats: int
    options: tuple[OptionSpec, ...]
    opening_event: str | None

    # -- every game writes these ------------------------------------------------------------

    def initial_state(self) -> Any: ...

    def setup(
        self, options: dict[str, Any], seats: Sequence[SeatInfo], rng: random.Random
    ) -> list[Event]: ...

    def evolve(self, state: Any, event: Event) -> Any: ...

    def decide(self, state: Any, command: Command, actor: Viewer, rng: random.Random) -> list[Event]: ...

    def prompts(self, state: Any) -> list[Prompt]: ...

    def view(self, state: Any, viewer: Viewer) -> dict[str, Any]: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    # -- optional: GameBase's defaults fit a game that does not need them ----------------

    def evolve_all(self, state: Any, events: Sequence[Event]) -> Any: ...

    def event_view(self, event: Event, viewer: Viewer) -> Event | None: ...

    def secrets(self, state: Any) -> list[Secret]: ...

    def upcast(self, event: Event) -> Event: ...

    def event_types(self) -> Mapping[str, int]: ...

    def undoable(self, events: Sequence[Event]) -> bool: ...

    def undo_footprint(self, events: Sequence[Event]) -> frozenset[str] | None: ...

    def view_key(self, state: Any, viewer: Viewer) -> Hashable: ...

    def bot_choice(self, state: Any, prompt: Prompt, rng: random.Random) -> Choice | None: ...

    def determinize(self, state: Any, seat: Any, rng: random.Random) -> Any: ...

    def value(self, state: Any, seat: Any) -> float: ...

    def search_budget(self, state: Any, prompt: Prompt) -> Budget | None: ...

    def search_candidates(self, state: Any, prompt: Prompt, rng: random.Random) -> list[Choice]: ...

    def refusal(self, state: Any, seat: Any, command_type: str) -> RuleError | None: ...

    def chapters(self, state: Any) -> list[Chapter]: ...


class GamePresentation(Protocol):
    """The presentation contract: how a game reads to people — its log lines and their
    marks, the lobby's words and option editors, what a board's clickable parts send and
    what a page shows beyond the view. Read by the web layer and, for the log lines its
    frames carry, the live layer; never by the kernel's rules (``test_protocol.py``)."""

    summary: str
    template_root: str | None

    def describe(self, event: Event, context: Any = None) -> str: ...

    def log_context(self, state: Any) -> Any: ...

    def log_mark(self, event: Event) -> str: ...

    def describe_options(self, options: dict[str, Any], seat_names: list[str]) -> list[str]: ...

    def choice_target(self, state: Any, choice: Choice) -> str | None: ...

    def page_extras(self, state: Any, viewer: Viewer) -> dict[str, Any]: ...

    def option_editor(
        self, name: str, options: dict[str, Any], seat: int, seat_names: list[str]
    ) -> dict[str, Any] | None: ...

    def check_option(
        self, name: str, value: str, options: dict[str, Any], seat: int, seat_count: int
    ) -> dict[str, Any]: ...

    def rules_reference(self) -> RulesReference | None: ...

    def guide_step(self, state: Any, prompt: Prompt) -> str | None: ...


@runtime_checkable
class Game(GameRules, GamePresentation, Protocol):
    """Everything the platform (live, web, api, bench, kernel replay) reads or calls on a
    game, in two contracts: its rules (``GameRules``) and its presentation
    (``GamePresentation``); ``tests/kernel/test_protocol.py`` checks that nothing else is
    read, and which layer may read which."""


class GameBase:
    """Defaults for the optional parts of the contract. Subclass and override."""

    name: ClassVar[str]
    title: ClassVar[str]
    engine_version: ClassVar[str] = "1"
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 1
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    summary: ClassVar[str] = ""
    template_root: ClassVar[str | None] = None
    """An absolute folder read as ``templates/games/<name>/`` (its ``board.html``…) instead:
    for a test-only game, whose board may not live in the product's templates."""
    opening_event: ClassVar[str | None] = None
    """The event type a table's log starts with, once (an import must start with it)."""

    def event_types(self) -> Mapping[str, int]:
        """Every event type this game writes, with its current schema version: an
        imported log may hold only these (older versions are upcast on read)."""
        return {}

    def event_view(self, event: Event, viewer: Viewer) -> Event | None:
        """The event as ``viewer`` may see it (hidden parts removed), or None to omit it.

        Decided from the event alone, so any stored event can be served to any viewer.
        The default shows every event whole: right only for games whose events hide nothing.
        """
        return event

    def describe(self, event: Event, context: Any = None) -> str:
        """One line of the game log, in plain language, for an (already redacted) event;
        ``context`` is what ``log_context`` gave, passed only when it is not None."""
        return event.type

    def log_context(self, state: Any) -> Any:
        """What ``describe`` needs besides the event, taken from the table's state when the
        line is written: the public names of what events refer to by number (Dark Omen's
        seats, "Bo’s Visko"). Only what every viewer may see: a line is served to all
        who see its event. None by default (the event says it all)."""
        return None

    def log_mark(self, event: Event) -> str:
        """How the log sets this event's line apart: "chapter", "round" or "turn" for a
        line that starts one (drawn as a divider, the chapter's strongest), "" for an
        ordinary line."""
        return ""

    def secrets(self, state: Any) -> list[Secret]:
        return []

    def upcast(self, event: Event) -> Event:
        """Bring an event stored by an older engine up to the current schema."""
        return event

    def undoable(self, events: Sequence[Event]) -> bool:
        """May a player take back the command that produced ``events``? Only when nothing
        random happened and nothing hidden was revealed; by default, never."""
        return False

    def undo_footprint(self, events: Sequence[Event]) -> frozenset[str] | None:
        """What the command that produced ``events`` touched, in words a player reads
        ("space 12", "Bo's hero"), for a game where everyone acts at once: a seat may take
        back its own newest undoable command past later commands of other seats when each
        of those is undoable too and touched none of these things (``history.undo_refusal``).
        None (the default) when the command's effects cannot be told apart from what
        follows: then it is taken back only while it is the table's newest command."""
        return None

    def view_key(self, state: Any, viewer: Viewer) -> Hashable:
        """What sets ``viewer``'s ``view`` and ``page_extras`` apart from other viewers': two
        viewers with equal keys must get equal views (and extras) of ``state``, so the platform
        makes them and renders the board once per key (issue 10). By default the viewer
        itself: every viewer's view is its own, which is always safe."""
        return viewer

    def evolve_all(self, state: Any, events: Sequence[Event]) -> Any:
        """Fold several events; a game may override it to copy its state only once."""
        for event in events:
            state = self.evolve(state, event)  # type: ignore[attr-defined]
        return state

    def describe_options(self, options: dict[str, Any], seat_names: list[str]) -> list[str]:
        """Lines the lobby shows about validated options for these players (a difficulty
        rating, who plays what); raise RuleError when they cannot make a table."""
        return []

    def choice_target(self, state: Any, choice: Choice) -> str | None:
        """The board element a choice acts on, as the board template marks it with
        ``data-target`` (``"location:Village"``), so clicking it sends the choice; None
        for a choice that no element stands for (the default: the board is not clickable)."""
        return None

    def bot_choice(self, state: Any, prompt: Prompt, rng: random.Random) -> Choice | None:
        """The bot's pick among ``prompt``'s choices, for a seat handed to the bot; None
        when this game has no bot (the default) or will not play that prompt."""
        return None

    def determinize(self, state: Any, seat: Any, rng: random.Random) -> Any:
        """A state ``seat`` cannot tell from ``state``: everything it may not see (deck
        orders, other players' hands, face-down tokens) redrawn at random with ``rng`` from
        what it cannot tell apart, and nothing else changed — the world the strong bot
        (``app.kernel.search``) imagines. Two states that look the same to the seat must give
        the same result for the same rng (``tests/kernel/test_search.py`` checks it through
        the game's conformance). ``state`` is never changed. A game whose state hides
        nothing from its seats may keep this default (the state itself); a game without it
        has no strong bot (``has_search``)."""
        return state

    def value(self, state: Any, seat: Any) -> float:
        """How ``seat`` stands in ``state``, in [0, 1]: 1 won, 0 lost, ½ a draw (the
        default, from ``outcome``, and ½ while the game goes on). A game reads its own board
        in between (grace left, the darkness, monsters down…) so the strong bot's look-ahead
        can tell a good future from a bad one before the game ends."""
        outcome = self.outcome(state)  # type: ignore[attr-defined]
        if outcome is None or outcome.result == "draw":
            return 0.5
        if outcome.winners:
            return 1.0 if seat in outcome.winners else 0.0
        return 1.0 if outcome.result == "win" else 0.0

    def search_budget(self, state: Any, prompt: Prompt) -> Budget | None:
        """How hard the strong bot thinks about ``prompt`` in ``state``: a ``Budget`` (the
        default one by default), or None where the heuristic's answer is good enough (a
        game spends its search where choices matter)."""
        return DEFAULT_BUDGET

    def search_candidates(self, state: Any, prompt: Prompt, rng: random.Random) -> list[Choice]:
        """The answers to ``prompt`` the strong bot tries (the default: all of them). A game
        whose questions have many answers, most of them plainly poor, keeps its heuristic's
        few best, so the search's tries go where the choice is close."""
        return list(prompt.choices)

    def refusal(self, state: Any, seat: Any, command_type: str) -> RuleError | None:
        """Why ``seat`` (held by the sender) may not send a command of ``command_type`` now,
        with the rule, for a command the kernel found among none of the seat's choices
        (``app.kernel.offers``): "you have finished this round (DO L211)". Never handed the
        command's arguments: only commands equal to an offered choice reach the game. None
        (the default) lets the kernel say what the seat may do instead."""
        return None

    def chapters(self, state: Any) -> list[Chapter]:
        """The chapters of a campaign played at this table, in order, with each one's
        outcome and the one being played; [] for a game of one sitting (the default)."""
        return []

    def page_extras(self, state: Any, viewer: Viewer) -> dict[str, Any]:
        """What a page's board shows beyond ``view`` (keys added to the view its templates
        read), kept out of ``view`` so the API's views and recorded games keep their shape;
        only what ``viewer`` may see. None by default."""
        return {}

    def option_editor(
        self, name: str, options: dict[str, Any], seat: int, seat_names: list[str]
    ) -> dict[str, Any] | None:
        """The context of the game's editor of the option ``name`` (``OptionSpec.editor``)
        for ``seat`` of a table being made with these validated ``options``: the lobby
        renders ``templates/games/<game>/option_<name>.html`` with it as ``editor``. None
        when the game has no editor for it (the default)."""
        return None

    def check_option(
        self, name: str, value: str, options: dict[str, Any], seat: int, seat_count: int
    ) -> dict[str, Any]:
        """What the game makes of ``value`` as ``seat``'s text of the option ``name`` (of
        ``seat_count`` seats, with the other validated ``options``): JSON with at least
        ``problems``, every rule it breaks as ``{"code", "message"}`` (the same words the
        lobby's summary uses); an editor shows them as the text changes. Raise RuleError
        when the game checks no such option (the default)."""
        raise RuleError("no_check", f"option {name} has no check")

    def rules_reference(self) -> RulesReference | None:
        """The game's rules reference (issue 28): ``content/rules_reference.toml`` beside the
        module that defines the game (``app.kernel.reference`` says what it holds), read
        once; None when the game has none."""
        return _reference_of(type(self))

    def guide_step(self, state: Any, prompt: Prompt) -> str | None:
        """Which step of a turn ``prompt`` belongs to, named as the reference's ``[[guide]]``
        entries name them (``"event"``, ``"action"``…), so a player's first game can say
        what the step is for; None (the default) shows no guide."""
        return None


@cache
def _reference_of(cls: type) -> RulesReference | None:
    module = sys.modules.get(cls.__module__)
    folder = Path(module.__file__).parent if module is not None and module.__file__ else None
    path = folder / "content" / "rules_reference.toml" if folder is not None else None
    return load_reference(path) if path is not None and path.exists() else None


def campaign(game: Game, state: Any) -> dict[str, Any] | None:
    """Where a campaign stands, for the platform's pages (the table header, "your
    tables"): its chapters, how many are played, the current one, whether it is *between
    chapters* (none current and the campaign not over), and that as one line (with the
    ``detail`` of the current chapter, or between chapters of the last one played). None
    for a game of one sitting."""
    chapters = game.chapters(state)
    if not chapters:
        return None
    total = len(chapters)
    played = sum(1 for c in chapters if c.outcome is not None)
    current = next((c for c in chapters if c.current), None)
    over = game.outcome(state) is not None
    if current is not None:
        line = f"{current.title} ({current.index + 1} of {total})"
        if current.detail:
            line += f", {current.detail}"
    elif over:
        line = f"Campaign over: {played} of {total} chapters played"
    else:
        line = f"Between chapters: {played} of {total} played"
        last = next((c for c in reversed(chapters) if c.outcome is not None), None)
        if last is not None and last.detail:
            line += f", {last.detail}"
    return {
        "chapters": [c.to_json() for c in chapters],
        "total": total,
        "played": played,
        "current": current.to_json() if current else None,
        "between": current is None and not over,
        "line": line,
    }


def has_search(game: Game) -> bool:
    """Does ``game`` have the strong bot: a heuristic bot for its rollouts and its own
    ``determinize`` (redrawing what a seat may not see; ``GameBase``'s default hides
    nothing, which only a game without hidden information may keep, and says so by
    overriding it)?"""
    method = getattr(type(game), "determinize", None)
    return has_bot(game) and method is not None and method is not GameBase.determinize


def has_bot(game: Game) -> bool:
    """Does ``game`` override ``bot_choice``, i.e. can an empty seat be handed to a bot?"""
    method = getattr(type(game), "bot_choice", None)
    return method is not None and method is not GameBase.bot_choice
