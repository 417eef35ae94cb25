"""A test table for Darkest Night: set up a stated position, rig the dice, send commands.

    table = Table.start(heroes=["valkyrie", "prince", "seer", "crusader"])
    table.edit(lambda s: setattr(s.heroes["valkyrie"], "grace", 4))   # a stated position
    table.begin_turn("valkyrie")                                       # to her event step...
    table.act("travel", to="Village")
    table.act("resolve_combat", approach="fight", tactic="valkyrie.skewer", option=0, dice=[2, 3])

``dice`` are the faces the next d6 rolls give (in order); everything else random (shuffles)
comes from a seeded generator. ``act`` fails loudly if the command is not one of the
choices offered, so a test also checks that the engine offers it.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.decisions import ChooseHero, ChoosePowers
from app.games.darkest_night.state import State
from app.kernel import table as kernel
from app.kernel.game import validate_options
from app.kernel.types import Choice, Event, SeatInfo
from tests.support import harness as shared


class RiggedRandom(shared.Rigged):
    """A d6 that rolls the faces it is given, then fails loudly when it runs out."""

    def __init__(self, faces: Iterable[int], seed: int = 0) -> None:
        super().__init__(faces, seed, sides=6)


@dataclass
class Table:
    state: State
    events: list[Event] = field(default_factory=list)
    seed: int = 0
    last_command: list[Event] = field(default_factory=list)
    """The events of the last command sent."""

    @classmethod
    def start(
        cls,
        heroes: Sequence[str] = ("prince", "valkyrie", "seer", "crusader"),
        powers: dict[str, Sequence[str]] | None = None,
        options: dict[str, Any] | None = None,
        seats: int = 1,
        seed: int = 0,
    ) -> Table:
        """A table after setup with these heroes chosen (in this order) and their starting
        powers (the first 3 starting powers unless ``powers`` names them)."""
        opts = validate_options(DARKEST_NIGHT, options or {})
        infos = [SeatInfo(i, f"Player {i + 1}") for i in range(seats)]
        opening = DARKEST_NIGHT.setup(opts, infos, random.Random(seed))
        table = cls(kernel.replay(DARKEST_NIGHT, opening), list(opening), seed)
        chosen = iter(heroes)
        while table.state.decision and table.state.decision.kind in ("choose_hero", "choose_powers"):
            d = table.state.decision
            if isinstance(d, ChooseHero):
                table.act("choose_hero", hero=next(chosen))
            else:
                assert isinstance(d, ChoosePowers)
                wanted = (powers or {}).get(d.hero)
                if wanted is None:
                    wanted = d.starting[: d.count]
                table.act("choose_powers", powers=list(wanted))
        return table

    # -- commands ----------------------------------------------------------------------

    def choices(self, seat: Any = None) -> list[Choice]:
        out = []
        for prompt in DARKEST_NIGHT.prompts(self.state):
            if seat is None or prompt.seat == seat:
                out.extend(prompt.choices)
        return out

    def act(self, type_: str, *, dice: Sequence[int] = (), seat: Any = None, **args: Any) -> list[Event]:
        """Send a command that must be among the choices offered; ``dice`` rig the d6."""
        if self._done_by_the_rules(type_, args):
            if dice:
                raise AssertionError(f"{type_} was done by the rules already: its dice were not rolled")
            return []
        if seat is None:
            seat = self._seat_for(type_, args)
        offered = self.choices(seat)
        if not any(c.type == type_ and c.args == args for c in offered):
            raise AssertionError(
                f"{type_} {args} is not offered to seat {seat}: {[(c.type, c.args) for c in offered]}"
            )
        return self.send(type_, dice=dice, seat=seat, **args)

    def _done_by_the_rules(self, type_: str, args: dict[str, Any]) -> bool:
        """Questions with one answer are not asked (issue 11): the action step ended when no
        free action was left, the last hero of a round took the turn, a wound took the grace
        that death was the only other answer to. A test written as a
        player would click may still send them; they are then already done."""
        if type_ == "end_action" and not args:
            return any(
                e.type == "Automatic" and "action step ends" in e.data["what"] for e in self.last_command
            )
        if type_ == "spend_grace" and not args:
            said = (e.data["what"] for e in self.last_command if e.type == "Automatic")
            return any("spends 1 grace to survive" in what for what in said)
        if type_ == "take_turn":
            return self.state.current == args.get("hero") and self.state.phase == "turn"
        return False

    def send(self, type_: str, *, dice: Sequence[int] = (), seat: Any = None, **args: Any) -> list[Event]:
        """Send a command without asserting the offer first (for testing refusals: the kernel
        still refuses what is not offered, naming the rule or what was expected)."""
        if seat is None:
            seat = self._seat_for(type_, args)
        rng = RiggedRandom(dice, seed=self.seed + len(self.events))
        events = shared.decide(DARKEST_NIGHT, self.state, seat, type_, args, rng)
        if rng.faces:
            raise AssertionError(f"rigged dice left unrolled: {rng.faces}")
        for event in events:
            self.state = kernel.fold(DARKEST_NIGHT, self.state, event)
        self.events.extend(events)
        self.last_command = list(events)
        return events

    def _seat_for(self, type_: str, args: dict[str, Any]) -> Any:
        if "hero" in args and args["hero"] in self.state.heroes:
            return self.state.heroes[args["hero"]].seat
        d = self.state.decision
        if d is None:
            raise AssertionError("nothing to decide")
        return d.asked[0]

    # -- positions ----------------------------------------------------------------------

    def edit(self, change: Callable[[State], Any]) -> Table:
        """Set up a stated position by changing the state directly (tests only)."""
        state = self.state.clone()
        change(state)
        self.state = state
        return self

    def begin_turn(self, hero: str, *, dice: Sequence[int] = ()) -> list[Event]:
        """Start ``hero``'s turn (the round must be waiting for the next hero)."""
        return self.act("take_turn", hero=hero, dice=dice)

    @property
    def decision(self) -> Any:
        """The typed decision the table waits on (``app/games/darkest_night/decisions.py``)."""
        return self.state.decision

    def hero(self, hero: str) -> Any:
        return self.state.heroes[hero]

    def types(self, events: Iterable[Event]) -> list[str]:
        return [e.type for e in events]

    def log(self, events: Iterable[Event]) -> list[str]:
        return [t for e in events if (t := DARKEST_NIGHT.describe(e))]


class _AgendaDone(Exception):
    pass


def _stop(_: Any) -> None:
    raise _AgendaDone


def run_steps(
    table: Table, steps: list[dict[str, Any]], dice: Sequence[int] = (), phase: str | None = None
) -> list[str]:
    """Run rule steps on the table as if the rules had scheduled them (a stated moment of
    the game, e.g. the Necromancer's blight step), until they are done or need a decision.
    Returns the log lines."""
    from app.games.darkest_night.content import load
    from app.games.darkest_night.engine import Ctx

    ctx = Ctx(table.state.clone(), RiggedRandom(dice), load())
    ctx.s.decision = None
    remaining = list(ctx.s.agenda)
    ctx.s.agenda = []
    if phase:
        ctx.s.phase = phase
    ctx.then(steps)
    with contextlib.suppress(_AgendaDone):
        ctx.run(_stop)
    ctx.s.agenda.extend(remaining)
    events = ctx.finish()
    for event in events:
        table.state = kernel.fold(DARKEST_NIGHT, table.state, event)
    table.events.extend(events)
    return table.log(events)
