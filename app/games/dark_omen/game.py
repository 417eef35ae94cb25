"""Dark Omen: the game object the platform calls (the kernel contract, app/kernel/game.py).

A campaign is one table: four chapters of six days (or a Quick Start: one chapter, or one
omen), every seat spending action points at once. Rules: ``rules/`` (one module per
chapter of the rulebook: the campaign, the day, the round, and each thing a hero does, its
choices and their resolution together), ``board.py`` (the rotating labyrinth); the fold is
``events.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import app.games.dark_omen.bot as bot
import app.games.dark_omen.bot.strong as strong
import app.games.dark_omen.describe as describe
import app.games.dark_omen.events  # noqa: F401  (registers every applier of the fold)
import app.games.dark_omen.guide as guide
import app.games.dark_omen.rules  # noqa: F401  (registers every step, decision and action)
import app.games.dark_omen.targets as targets
import app.games.dark_omen.undo as undo
import app.games.dark_omen.view as view
from app.games.dark_omen import texts
from app.games.dark_omen.decisions import Act
from app.games.dark_omen.engine import RULES, DoCtx, new_ctx
from app.games.dark_omen.rules.campaign import DIFFICULTIES, chapter_detail
from app.games.dark_omen.rules.days import check
from app.games.dark_omen.rules.heroes import ap_left
from app.games.dark_omen.rules.round import FREE_ACTIONS, free_seat, schedule, strip
from app.games.dark_omen.state import CHAPTERS, State
from app.kernel.flow import Decision, FlowGame
from app.kernel.types import (
    GM_SEAT,
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

CHARACTER_IDS = ("visko", "nyrkki", "ragna", "solmund", "eyvor", "hakon", "ylva", "grimur")
CHARACTER_NAMES = ("Visko", "Nyrkki", "Ragna", "Solmund", "Eyvor", "Hakon", "Ylva", "Grimur")
REDACTED = {"LootDealt": "tokens", "LootReturned": "tokens"}
"""Events naming face-down loot tokens: only the game master sees which (DO L82)."""


class DarkOmen(FlowGame):
    name = "dark_omen"
    rules = RULES
    title = "Dark Omen"
    summary = (
        "A cooperative campaign of four chapters on a rotating labyrinth: every player spends "
        "action points at once, loots, brews, trades and fights dice battles against the darkness."
    )
    engine_version = "1"
    min_seats = 1
    max_seats = 4
    opening_event = "CampaignBegan"
    options = (
        OptionSpec(
            "mode",
            "choice",
            "campaign",
            "Mode",
            "the whole campaign of four chapters, or a Quick Start (DO L543-554)",
            choices=("campaign", "quick_chapter", "quick_omen"),
            choice_labels=("Campaign (4 chapters)", "Quick Start: one chapter", "Quick Start: one omen"),
        ),
        OptionSpec(
            "chapter",
            "int",
            1,
            "Chapter",
            "the chapter a Quick Start plays",
            minimum=1,
            maximum=CHAPTERS,
            depends_on=("mode", ("quick_chapter", "quick_omen")),
        ),
        OptionSpec(
            "difficulty",
            "choice",
            "rough",
            "Difficulty",
            "which days hold an omen (DO L125-131)",
            choices=("first_game", "light", "rough", "stressful", "pain"),
            choice_labels=(
                "First game (days 1-3, the suggested omens)",
                "Light (days 1, 2, 4)",
                "Rough (days 1, 2, 3)",
                "Stressful (days 1, 2, 3, 5)",
                "Pain (every day)",
            ),
        ),
        OptionSpec(
            "unblocked_target",
            "choice",
            "lowest",
            "Unblocked enemy dice hit",
            "whom an enemy die no hero die faces hits (DO L430, L467)",
            choices=("lowest", "strongest", "weakest", "most_hp", "least_hp"),
            choice_labels=(
                "the lowest roller",
                "the strongest attacker",
                "the weakest attacker",
                "the most health",
                "the least health",
            ),
        ),
        OptionSpec(
            "hardcore_regions",
            "bool",
            False,
            "Hardcore region banners",
            "play the region banners' hardcore sides (DO L73-77)",
        ),
        OptionSpec(
            "character",
            "per_seat",
            [],
            "Character",
            "each player plays a different character (DO L86)",
            choices=CHARACTER_IDS,
            choice_labels=CHARACTER_NAMES,
            distinct=True,
            blank_label="a free character",
        ),
    )

    # -- setup and the fold ----------------------------------------------------------------------

    def event_types(self) -> dict[str, int]:
        return dict(RULES.versions)

    def initial_state(self) -> State:
        return State()

    def setup(self, options: dict[str, Any], seats: Sequence[SeatInfo], rng: random.Random) -> list[Event]:
        picks = list(options.get("character") or []) + [None] * len(seats)
        chosen = [p for p in picks[: len(seats)] if p]
        free = [cid for cid in CHARACTER_IDS if cid not in chosen]
        characters = [p if p else free.pop(0) for p in picks[: len(seats)]]
        mode = options.get("mode", "campaign")
        first = 1 if mode == "campaign" else int(options.get("chapter", 1))
        last = CHAPTERS if mode == "campaign" else first
        stored = {k: v for k, v in options.items() if k != "character"}
        began = Event(
            "CampaignBegan",
            {
                "names": [s.name for s in seats],
                "options": stored,
                "characters": characters,
                "first_chapter": first,
                "last_chapter": last,
            },
        )
        state = self.evolve(self.initial_state(), began)
        ctx = new_ctx(state, rng)
        ctx.then([{"op": "begin_chapter", "chapter": first}])
        ctx.run(schedule, check)
        return [began, *ctx.finish()]

    # -- the decision loop's hooks (the loop is the kernel's ``FlowGame``) ---------------------

    def command_ctx(self, state: State, rng: random.Random) -> DoCtx:
        return new_ctx(state.clone(), rng)

    def schedule(self, ctx: DoCtx) -> None:
        schedule(ctx)

    def step_check(self) -> Any:
        return check

    def list_choices(self, state: State, d: Decision, seat: Any) -> list[Choice]:
        """A hero's choices as its seat sends them (the hero is the seat), with prices."""
        return [targets.priced(state, int(seat), strip(c)) for c in super().list_choices(state, d, seat)]

    def choice_seat(self, state: State, choice: Choice) -> Any:
        return choice.args.get("hero")

    def command_args(self, state: State, command: Command) -> dict[str, Any]:
        """The rules read the acting hero as ``hero``: its seat."""
        if isinstance(command.seat, int):
            return {"hero": command.seat, **command.args}
        return command.args

    def window_seats(self, state: State) -> list[Any]:
        return [*range(len(state.heroes)), GM_SEAT]

    def prompt_title(self, state: State, d: Decision, seat: Any) -> str:
        return view.prompt_title(state, d, int(seat))

    def seat_name(self, state: State, seat: Any) -> str:
        return "the game master" if seat == GM_SEAT else state.names[int(seat)]

    def not_asked(self, state: State, d: Decision, seat: Any, command_type: str) -> RuleError | None:
        """A seat done with the round: its free actions are open (the kernel lists them), the
        rest waits for the next round (DO L211)."""
        if isinstance(seat, int) and 0 <= seat < len(state.heroes):
            if free_seat(state, seat) and command_type in FREE_ACTIONS:
                return None
            if isinstance(d, Act) and state.heroes[seat].done:
                return RuleError(
                    "round_done",
                    "you have finished this round (6 AP spent or passed); the round ends when "
                    "every player has (DO L211)",
                )
        return super().not_asked(state, d, seat, command_type)

    def rule_refusal(self, state: State, d: Decision, seat: Any, command_type: str) -> RuleError | None:
        """A hero with no action points left may do only what costs none (DO L211)."""
        h = state.heroes[int(seat)] if isinstance(seat, int) and 0 <= seat < len(state.heroes) else None
        if h is not None and h.alive and ap_left(h) < 1:
            return RuleError("no_ap", f"{command_type}: no action points left this round (DO L211)")
        return super().rule_refusal(state, d, seat, command_type)

    def choice_target(self, state: State, choice: Choice) -> str | None:
        return targets.choice_target(state, choice)

    def bot_choice(self, state: State, prompt: Prompt, rng: random.Random) -> Choice | None:
        return bot.choose(state, prompt, rng)

    def determinize(self, state: State, seat: Any, rng: random.Random) -> State:
        """The face-down loot and creature tokens redrawn from what the seat cannot tell
        apart (``bot/strong.py``); everything it sees kept."""
        return strong.determinize(state, seat, rng)

    def value(self, state: State, seat: Any) -> float:
        """How the party stands, read from the board (``bot/strong.py``)."""
        return strong.value(state, seat)

    def search_budget(self, state: State, prompt: Prompt) -> Budget | None:
        """A battle's boost window and a team attack's answers are searched; the heuristic
        answers the rest (``bot/strong.py``)."""
        return strong.search_budget(state, prompt)

    # -- what each viewer sees -------------------------------------------------------------------

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view.view(state, viewer)

    def secrets(self, state: State) -> list[Secret]:
        """Which token lies face down where (DO L82), each and all of them by space, and
        each face-down creature token (its level, DO L476): only the game master. (The pile
        is a set drawn at random when needed: it holds no order to hide, and what is in it
        is everything not in sight less the face-down tokens.)"""
        out = [Secret(token) for token in state.loot.values()]
        if state.loot:
            out.append(Secret([[space, state.loot[space]] for space in sorted(state.loot)]))
        return out + [Secret(x.token) for x in state.creatures if x.token and not x.flipped]

    def event_view(self, event: Event, viewer: Viewer) -> Event | None:
        if event.type == "CreaturePlaced" and event.data.get("token") and not viewer.is_gm:
            data = {k: v for k, v in event.data.items() if k not in ("token", "level", "dice")}
            return Event(event.type, data, event.v)
        hidden = REDACTED.get(event.type)
        if hidden is not None and not viewer.is_gm:
            data = {k: v for k, v in event.data.items() if k != hidden}
            data["count"] = len(event.data[hidden])
            return Event(event.type, data, event.v)
        return event

    def outcome(self, state: State) -> Outcome | None:
        if state.result is None:
            return None
        winners = tuple(range(len(state.names))) if state.result.result == "win" else ()
        return Outcome(state.result.result, state.result.reason, winners)

    def chapters(self, state: State) -> list[Chapter]:
        """Each chapter of the campaign, with its outcome once played (DO L110-116)."""
        if not state.started:
            return []
        out = []
        for i, number in enumerate(range(state.first_chapter, state.last_chapter + 1)):
            result = state.results[i] if i < len(state.results) else None
            ended = (
                Outcome(result, f"Chapter {number} was {'won' if result == 'win' else 'lost'}")
                if result
                else None
            )
            current = state.chapter == number
            latest = i == len(state.results) - 1 and state.chapter is None and state.result is None
            detail = chapter_detail(state) if (current and result is None) or latest else ""
            out.append(Chapter(i, f"Chapter {number}", ended, current=current, detail=detail))
        return out

    def undoable(self, events: Sequence[Event]) -> bool:
        """No die, no reveal, no turned layer, no battle, no new round or day (``undo.py``)."""
        return undo.undoable(events)

    def undo_footprint(self, events: Sequence[Event]) -> frozenset[str] | None:
        """The heroes, spaces and loot an action touched, while its hero still acts in
        the round (``undo.py``): another seat's later action elsewhere does not block it."""
        return undo.footprint(events)

    def log_mark(self, event: Event) -> str:
        return {"ChapterBegan": "chapter", "DayBegan": "round", "RoundBegan": "turn"}.get(event.type, "")

    def describe(self, event: Event, context: Any = None) -> str:
        return describe.describe(event, context)

    @staticmethod
    def loot_name(face: str) -> str:
        """A loot face in words for the board's template ("purple herb", issue 26)."""
        return texts.loot_name(face)

    def guide_step(self, state: State, prompt: Prompt) -> str | None:
        """The step of a round a required prompt belongs to, as the rules reference's first-game
        guides name it (``guide.py``): a battle's boost window, a team attack, the market, a
        night round…; None for an optional prompt."""
        return guide.step(state, prompt)

    def log_context(self, state: State) -> dict[int, tuple[str, str]]:
        """Lines name heroes as "Ann’s Visko" (issue 15): events carry only the seat."""
        return describe.log_names(state)

    def describe_options(self, options: dict[str, Any], seat_names: list[str]) -> list[str]:
        mode = options.get("mode", "campaign")
        days = DIFFICULTIES[options.get("difficulty", "rough")]
        what = (
            "a campaign of 4 chapters"
            if mode == "campaign"
            else f"a Quick Start of chapter {options.get('chapter', 1)}"
        )
        return [f"{what}; omens on days {', '.join(map(str, days))} and the boss on day 6"]
