"""What every game's rule tests share (issue 24: one harness): dice rigged to roll what a
test states, and a command sent as a player sends it, through the kernel, so it is played
only if the table offers it (the same JSON check as the live table), then folded.

Each game's ``tests/games/<game>/harness.py`` adds its stated positions on top (a hero
here, a monster there) and its own way of naming who acts."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from app.kernel import table as kernel
from app.kernel.game import Game
from app.kernel.playout import seat_viewer
from app.kernel.types import Command, Event


class Rigged(random.Random):
    """A generator whose dice roll the faces it is given, in the order the rules roll them;
    anything else (shuffles, draws) comes from the seeded generator.

    ``sides`` (say 6) rigs only dice of that many sides and, once the faces run out, fails
    loudly (the test rolled more than it stated); without it every ``randint`` takes the
    next face, then the seeded generator."""

    def __init__(self, faces: Iterable[int], seed: int = 0, *, sides: int | None = None) -> None:
        super().__init__(seed)
        self.faces = list(faces)
        self.sides = sides

    def randint(self, a: int, b: int) -> int:
        if self.sides is not None:
            if (a, b) != (1, self.sides):
                return super().randint(a, b)
            if not self.faces:
                raise AssertionError("the test rolled more dice than it rigged")
        elif not self.faces:
            return super().randint(a, b)
        face = self.faces.pop(0)
        assert a <= face <= b, f"rigged {face} outside {a}..{b}"
        return face


def decide(
    game: Game, state: Any, seat: Any, type_: str, args: dict[str, Any], rng: random.Random
) -> list[Event]:
    """The events of ``seat``'s command on ``state``, decided by the kernel (refused unless
    it is one of the choices offered, as at a live table)."""
    return kernel.decide(game, state, Command(seat, type_, args), seat_viewer(seat), rng)


def play(
    game: Game, state: Any, seat: Any, type_: str, args: dict[str, Any], rng: random.Random
) -> tuple[Any, list[Event]]:
    """``decide``, then the state its events fold into."""
    events = decide(game, state, seat, type_, args, rng)
    return kernel.fold_all(game, state, events), events


def offered(game: Game, state: Any, seat: Any = None) -> list[tuple[str, dict[str, Any]]]:
    """The (type, args) of every choice offered to ``seat`` (to every seat when None)."""
    return [
        (c.type, c.args) for p in game.prompts(state) if seat is None or p.seat == seat for c in p.choices
    ]
