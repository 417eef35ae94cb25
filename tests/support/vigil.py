"""Vigil: a small test-only campaign (never in the product) for the platform's campaign
support: chapters inside one table, an outcome per chapter and one for the campaign, and a
"between chapters" state.

A campaign is ``nights`` chapters. In a night the players take turns, in seat order: each
lights a flame or falters. Two flames win the night; a falter loses it. Between nights
nobody has to be at the table; the first player begins the next night when the group is
back. The campaign is won when more nights were won than lost.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.kernel import (
    Choice,
    Command,
    Event,
    GameBase,
    OptionSpec,
    Outcome,
    Prompt,
    RuleError,
    SeatInfo,
    Viewer,
)
from app.kernel.types import Chapter

FLAMES_TO_WIN = 2


@dataclass(frozen=True)
class VigilState:
    names: tuple[str, ...] = ()
    nights: int = 0
    results: tuple[str, ...] = ()
    """"win" or "loss" for each night played, in order."""
    night: int | None = None
    """The night being played (0-based), None before the first and between nights."""
    flames: int = 0
    turn: int = 0


def night_title(index: int) -> str:
    return f"Night {index + 1}"


def night_chapters(nights: int, results: Sequence[str], current: int | None) -> list[Chapter]:
    """A campaign of ``nights`` as chapters, each with its outcome once played ("win" or
    "loss" in ``results``); shared by Vigil and Beacons, whose campaigns are both nights."""
    out = []
    for i in range(nights):
        result = results[i] if i < len(results) else None
        said = f"{night_title(i)} was {'won' if result == 'win' else 'lost'}"
        ended = Outcome(result, said) if result else None
        out.append(Chapter(i, night_title(i), ended, current=current == i))
    return out


class Vigil(GameBase):
    name = "vigil"
    title = "Vigil (test campaign)"
    summary = "A tiny campaign of nights used by the platform's tests."
    min_seats = 1
    max_seats = 4
    options = (OptionSpec("nights", "int", 3, "Nights in the campaign", minimum=1, maximum=5),)
    opening_event = "VigilBegan"

    def event_types(self) -> dict[str, int]:
        return dict.fromkeys(
            ("VigilBegan", "NightBegan", "FlameLit", "Faltered", "TurnPassed", "NightEnded"), 1
        )

    def initial_state(self) -> VigilState:
        return VigilState()

    def setup(self, options: dict[str, Any], seats: Sequence[SeatInfo], rng: random.Random) -> list[Event]:
        return [
            Event("VigilBegan", {"names": [s.name for s in seats], "nights": options["nights"]}),
            Event("NightBegan", {"night": 0}),
        ]

    def evolve(self, state: VigilState, event: Event) -> VigilState:
        d = event.data
        match event.type:
            case "VigilBegan":
                return replace(state, names=tuple(d["names"]), nights=d["nights"])
            case "NightBegan":
                return replace(state, night=d["night"], flames=0, turn=0)
            case "FlameLit":
                return replace(state, flames=state.flames + 1)
            case "TurnPassed":
                return replace(state, turn=d["to"])
            case "NightEnded":
                return replace(state, night=None, results=state.results + (d["result"],))
        return state

    def decide(self, state: VigilState, command: Command, actor: Viewer, rng: random.Random) -> list[Event]:
        if command.args:
            raise RuleError("bad_args", f"{command.type} takes no arguments")
        if self.outcome(state) is not None:
            raise RuleError("game_over", "the vigil is over")
        if state.night is None:
            if command.type != "begin" or command.seat != 0:
                raise RuleError("between_nights", "between nights only the first player may begin the next")
            return [Event("NightBegan", {"night": len(state.results)})]
        if command.seat != state.turn:
            raise RuleError("not_your_turn", f"it is {state.names[state.turn]}'s turn (Vigil: seat order)")
        if command.type == "light":
            events = [Event("FlameLit", {"seat": command.seat})]
            if state.flames + 1 >= FLAMES_TO_WIN:
                return [*events, Event("NightEnded", {"night": state.night, "result": "win"})]
            return [*events, Event("TurnPassed", {"to": (state.turn + 1) % len(state.names)})]
        if command.type == "falter":
            return [
                Event("Faltered", {"seat": command.seat}),
                Event("NightEnded", {"night": state.night, "result": "loss"}),
            ]
        raise RuleError("unknown_command", f"Vigil has no command {command.type!r}")

    def prompts(self, state: VigilState) -> list[Prompt]:
        if not state.names or self.outcome(state) is not None:
            return []
        if state.night is None:
            title = f"Begin {night_title(len(state.results))}"
            return [Prompt(0, "Between nights", (Choice("begin", {}, title),))]
        choices = (Choice("light", {}, "Light a flame"), Choice("falter", {}, "Falter"))
        return [Prompt(state.turn, f"{night_title(state.night)}: your turn", choices)]

    def view(self, state: VigilState, viewer: Viewer) -> dict[str, Any]:
        return {
            "night": None if state.night is None else night_title(state.night),
            "flames": state.flames,
            "results": list(state.results),
        }

    def outcome(self, state: VigilState) -> Outcome | None:
        if not state.nights or len(state.results) < state.nights:
            return None
        won = state.results.count("win")
        lost = len(state.results) - won
        if won > lost:
            return Outcome(
                "win", f"the vigil held: {won} of {state.nights} nights won", tuple(range(len(state.names)))
            )
        return Outcome("loss", f"the dark won: {lost} of {state.nights} nights lost")

    def chapters(self, state: VigilState) -> list[Chapter]:
        """Vigil's nights are its chapters: each one's outcome once played."""
        return night_chapters(state.nights, state.results, state.night)

    def log_mark(self, event: Event) -> str:
        return "chapter" if event.type == "NightBegan" else ""

    def describe(self, event: Event) -> str:
        d = event.data
        match event.type:
            case "VigilBegan":
                return f"A vigil of {d['nights']} nights begins."
            case "NightBegan":
                return f"{night_title(d['night'])} falls."
            case "FlameLit":
                return f"Seat {d['seat']} lights a flame."
            case "Faltered":
                return f"Seat {d['seat']} falters."
            case "TurnPassed":
                return f"Seat {d['to']} keeps watch."
            case "NightEnded":
                return f"{night_title(d['night'])} is {'won' if d['result'] == 'win' else 'lost'}."
        return event.type


VIGIL = Vigil()
"""Registered only by the tests that use it (``registered_vigil``), never on import, so it
joins no other test's lobby or registry."""
