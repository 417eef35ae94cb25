"""Waymarks: a test-only game whose options use every kind the lobby draws generically.

Walkers take turns stepping one or two spaces along a path of seven waymarks; the first to
reach the last one wins. Its options: a mode, a route that applies only on a tour (an
option that depends on another), and a character per seat, no two alike (a per-seat
option). Each step's choice names the waymark it goes to (``choice_target``), so a board
that marks its waymarks would be clickable. Loaded with ``extra_games`` (never in the
product).
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
    register,
)

LAST_SPACE = 6
CHARACTERS = ("lamplighter", "cartographer", "pilgrim", "ferryman")
CHARACTER_NAMES = ("Lamplighter", "Cartographer", "Pilgrim", "Ferryman")


@dataclass(frozen=True)
class WaymarksState:
    names: tuple[str, ...] = ()
    characters: tuple[str, ...] = ()
    positions: tuple[int, ...] = ()
    turn: int = 0
    mode: str = ""
    route: str = ""
    started: bool = False


class Waymarks(GameBase):
    name = "waymarks"
    title = "Waymarks (test game)"
    summary = "A test game whose lobby has a pick per seat and an option that depends on another."
    min_seats = 1
    max_seats = 4
    opening_event = "WalkStarted"
    options = (
        OptionSpec(
            "mode", "choice", "race", "Mode", choices=("race", "tour"), choice_labels=("A race", "A tour")
        ),
        OptionSpec(
            "route",
            "choice",
            "coast",
            "Route",
            "only a tour follows a route",
            choices=("coast", "hills"),
            choice_labels=("Along the coast", "Over the hills"),
            depends_on=("mode", ("tour",)),
        ),
        OptionSpec(
            "character",
            "per_seat",
            [],
            "Character",
            "each walker is someone different",
            choices=CHARACTERS,
            choice_labels=CHARACTER_NAMES,
            distinct=True,
            blank_label="a random character",
        ),
    )

    def event_types(self) -> dict[str, int]:
        return {"WalkStarted": 1, "Stepped": 1}

    def initial_state(self) -> WaymarksState:
        return WaymarksState()

    def setup(self, options: dict[str, Any], seats: Sequence[SeatInfo], rng: random.Random) -> list[Event]:
        picks = list(options["character"]) + [None] * (len(seats) - len(options["character"]))
        free = [c for c in CHARACTERS if c not in picks]
        rng.shuffle(free)
        characters = [pick if pick is not None else free.pop() for pick in picks]
        return [
            Event(
                "WalkStarted",
                {
                    "names": [s.name for s in seats],
                    "characters": characters,
                    "mode": options["mode"],
                    "route": options["route"] if options["mode"] == "tour" else "",
                },
            )
        ]

    def evolve(self, state: WaymarksState, event: Event) -> WaymarksState:
        d = event.data
        if event.type == "WalkStarted":
            return WaymarksState(
                names=tuple(d["names"]),
                characters=tuple(d["characters"]),
                positions=(0,) * len(d["names"]),
                mode=d["mode"],
                route=d["route"],
                started=True,
            )
        if event.type == "Stepped":
            positions = list(state.positions)
            positions[d["seat"]] = d["to"]
            return replace(state, positions=tuple(positions), turn=(d["seat"] + 1) % len(state.names))
        return state

    def decide(
        self, state: WaymarksState, command: Command, actor: Viewer, rng: random.Random
    ) -> list[Event]:
        if command.seat != state.turn:
            raise RuleError(
                "not_your_turn", f"it is {state.names[state.turn]}'s turn (Waymarks: in seat order)"
            )
        legal = {c.args["to"] for c in self._steps(state)}
        if command.type != "step" or set(command.args) != {"to"} or command.args["to"] not in legal:
            raise RuleError("not_a_step", f"step one or two waymarks on: to {sorted(legal)}")
        return [Event("Stepped", {"seat": command.seat, "to": command.args["to"]})]

    def _steps(self, state: WaymarksState) -> list[Choice]:
        here = state.positions[state.turn]
        return [
            Choice("step", {"to": to}, f"Step to waymark {to}")
            for to in (here + 1, here + 2)
            if to <= LAST_SPACE
        ]

    def prompts(self, state: WaymarksState) -> list[Prompt]:
        if not state.started or self.outcome(state) is not None:
            return []
        return [Prompt(state.turn, "Step on", tuple(self._steps(state)))]

    def choice_target(self, state: WaymarksState, choice: Choice) -> str | None:
        return f"waymark:{choice.args['to']}" if choice.type == "step" else None

    def view(self, state: WaymarksState, viewer: Viewer) -> dict[str, Any]:
        return {
            "walkers": [
                {"name": n, "character": c, "at": p}
                for n, c, p in zip(state.names, state.characters, state.positions, strict=True)
            ],
            "mode": state.mode,
            "route": state.route,
        }

    def outcome(self, state: WaymarksState) -> Outcome | None:
        winners = tuple(i for i, p in enumerate(state.positions) if p >= LAST_SPACE)
        if not winners:
            return None
        return Outcome("win", f"{state.names[winners[0]]} reached the last waymark", winners)

    def describe(self, event: Event) -> str:
        d = event.data
        if event.type == "WalkStarted":
            walkers = ", ".join(f"{n} as the {c}" for n, c in zip(d["names"], d["characters"], strict=True))
            return f"The walk starts: {walkers}."
        return f"Seat {d['seat'] + 1} steps to waymark {d['to']}."


WAYMARKS = register(Waymarks())
