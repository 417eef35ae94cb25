"""Pulse: the bench-only game behind ``umbra bench live`` (never in the product).

Every seat may ``tick`` at any time; each tick is one ``Ticked {seat, count}`` event. There
is no hidden information and no chance, so every command is legal and cheap to decide, and
the live bench measures the platform (store, sessions, fan-out, websockets), not a game.
The ``limit`` option ends the game after that many ticks in all (0: it never ends; the
live bench uses 0, the default keeps the conformance check's random playouts finite).

It registers itself on import, like every game, but only the live bench imports it (its
server runs with ``UMBRA_EXTRA_GAMES=app.bench.pulse``): the product's registry loads
only the packages under ``app.games``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.kernel import (
    GM_SEAT,
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


@dataclass(frozen=True)
class PulseState:
    names: tuple[str, ...] = ()
    counts: tuple[int, ...] = ()
    limit: int = 0
    started: bool = False

    @property
    def total(self) -> int:
        return sum(self.counts)


class Pulse(GameBase):
    name = "pulse"
    title = "Pulse (bench game)"
    summary = "Every seat ticks whenever it likes; used by the live benchmark."
    engine_version = "1"
    min_seats = 1
    max_seats = 8
    options = (
        OptionSpec(
            "limit",
            "int",
            100,
            "Ticks before the game ends",
            help="0: the game never ends",
            minimum=0,
            maximum=1_000_000_000,
        ),
    )

    opening_event = "PulseStarted"

    def event_types(self) -> dict[str, int]:
        return {"PulseStarted": 1, "Ticked": 1}

    def initial_state(self) -> PulseState:
        return PulseState()

    def setup(self, options: dict[str, Any], seats: Sequence[SeatInfo], rng: random.Random) -> list[Event]:
        return [Event("PulseStarted", {"names": [s.name for s in seats], "limit": options["limit"]})]

    def evolve(self, state: PulseState, event: Event) -> PulseState:
        d = event.data
        match event.type:
            case "PulseStarted":
                n = len(d["names"])
                return PulseState(tuple(d["names"]), (0,) * n, d["limit"], True)
            case "Ticked":
                counts = list(state.counts)
                counts[d["seat"]] = d["count"]
                return replace(state, counts=tuple(counts))
        return state

    def decide(self, state: PulseState, command: Command, actor: Viewer, rng: random.Random) -> list[Event]:
        if command.type != "tick":
            raise RuleError("unknown_command", f"Pulse has no command {command.type!r}")
        if command.seat == GM_SEAT:
            raise RuleError("not_a_gm_command", "the game master does not tick")
        if command.args:
            raise RuleError("bad_args", "tick takes no arguments")
        seat = command.seat
        if not isinstance(seat, int) or not 0 <= seat < len(state.names):
            raise RuleError("bad_seat", f"Pulse has no seat {seat!r}")
        return [Event("Ticked", {"seat": seat, "count": state.counts[seat] + 1})]

    def prompts(self, state: PulseState) -> list[Prompt]:
        if not state.started or self.outcome(state):
            return []
        tick = (Choice("tick", {}, "Tick", "one more pulse"),)
        return [Prompt(i, "Tick whenever you like", tick) for i in range(len(state.names))]

    def view(self, state: PulseState, viewer: Viewer) -> dict[str, Any]:
        return {
            "players": [{"name": n, "count": c} for n, c in zip(state.names, state.counts, strict=True)],
            "limit": state.limit,
            "total": state.total,
        }

    def outcome(self, state: PulseState) -> Outcome | None:
        if state.started and state.limit and state.total >= state.limit:
            return Outcome("draw", f"{state.limit} ticks were played")
        return None

    def describe(self, event: Event) -> str:
        d = event.data
        match event.type:
            case "PulseStarted":
                return f"Pulse begins for {len(d['names'])} seats."
            case "Ticked":
                return f"Seat {d['seat']} ticks ({d['count']})."
        return event.type


PULSE = register(Pulse())
