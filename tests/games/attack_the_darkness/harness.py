"""A crafted Attack the Darkness table for rule tests: a real table set up through the
game, then its encounter replaced by a fixture (map, tokens, monsters, hands), and
commands sent through the kernel's command path."""

from __future__ import annotations

import random
from typing import Any

from app.games.attack_the_darkness import ATTACK_THE_DARKNESS as GAME
from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import Act
from app.games.attack_the_darkness.engine import Ctx
from app.games.attack_the_darkness.rules.campaign import check_end
from app.games.attack_the_darkness.rules.turn import schedule
from app.games.attack_the_darkness.state import Monster, State, Tile
from app.kernel import table as kernel
from app.kernel.options import validate_options
from app.kernel.types import Event, SeatInfo
from tests.support import harness as shared

C = load()


class Table:
    def __init__(
        self, seats: int = 1, seed: int = 1, classes: list[str] | None = None, **options: Any
    ) -> None:
        opts = validate_options(GAME, {"class": classes or [], **options})
        infos = [SeatInfo(i, f"P{i + 1}") for i in range(seats)]
        self.events: list[Event] = GAME.setup(opts, infos, random.Random(seed))
        self.state: State = kernel.replay(GAME, self.events)
        self.seed = seed
        self.fixtures = 0

    # -- crafting ---------------------------------------------------------------------------

    def craft(self, tiles: list[tuple[int, int, str]], positions: dict[int, tuple[int, int]]) -> None:
        """Replace the encounter: these tiles (the first is the stairs), characters where
        given (others off the map), no monsters, round 1, seat 0's action step, with the rest
        of the round still to come as a real round would hold it (the turns after seat 0's
        in marching order, then the monster phase: AtD L265-270)."""
        s = self.state
        s.tiles = [Tile(x, y, o, k == 0, None, flipped=True) for k, (x, y, o) in enumerate(tiles)]
        s.monsters, s.line, s.line_cards = {}, [], {}
        s.in_encounter, s.round, s.turn = True, 1, 0
        for seat, ch in enumerate(s.chars):
            ch.pos = square_of(positions[seat]) if seat in positions else None
            ch.speed_used = False
        later = s.order[s.order.index(0) + 1 :] if 0 in s.order else []
        s.agenda = [{"op": "player_turn", "seat": seat} for seat in later]
        if not s.arena:
            s.agenda.append({"op": "monster_phase"})
        s.decision = Act(seat=0)

    def card(self, seat: int, card: str, where: str = "hand") -> str:
        """A fixture instance of ``card`` given to ``seat`` (in hand, or on top of a deck)."""
        self.fixtures += 1
        inst = f"f{self.fixtures}"
        self.state.cards[inst] = card
        ch = self.state.chars[seat]
        action = card in C.actions
        if where == "hand":
            (ch.hand_a if action else ch.hand_r).append(inst)
        else:
            ch.deck("actions" if action else "resources").insert(0, inst)
        return inst

    def hand(self, seat: int, *cards: str) -> list[str]:
        ch = self.state.chars[seat]
        ch.disc_a += ch.hand_a
        ch.disc_r += ch.hand_r
        ch.hand_a, ch.hand_r = [], []
        return [self.card(seat, c) for c in cards]

    def monster(self, card: str, square: tuple[int, int], hp: int | None = None) -> str:
        s = self.state
        s.monster_seq += 1
        mid = f"m{s.monster_seq}"
        entry = f"L{s.monster_seq}"
        s.monsters[mid] = Monster(
            card, entry, hp if hp is not None else C.monsters[card].hp, square_of(square)
        )
        s.line.insert(0, entry)
        s.line_cards[entry] = []
        return mid

    # -- playing ------------------------------------------------------------------------------

    def send(self, seat: Any, type_: str, /, **args: Any) -> list[Event]:
        """``seat``'s command, played as at a live table: refused unless it is offered."""
        rng = random.Random(self.seed * 1000 + len(self.events))
        self.state, events = shared.play(GAME, self.state, seat, type_, args, rng)
        self.events += events
        return events

    def choices(self, seat: Any = 0) -> list[tuple[str, dict[str, Any]]]:
        return shared.offered(GAME, self.state, seat)

    def run(self, *steps: dict[str, Any]) -> list[Event]:
        """Run rule steps directly on the state (as a command would), e.g. ``populate``."""
        ctx = Ctx(self.state.clone(), random.Random(self.seed))
        ctx.s.decision = None
        ctx.s.agenda = [dict(x) for x in steps]
        ctx.run(schedule, check_end)
        events = ctx.finish()
        self.state = kernel.fold_all(GAME, self.state, events)
        return events


def square_of(square: Any) -> tuple[int, int]:
    """A square given as a tuple or an ``[x, y]`` list, as the state keeps it."""
    x, y = square
    return (x, y)


def populate(t: Table) -> list[Event]:
    """Run the ``populate`` step; every player puts their token on the first stairs square
    offered (the logo square, then clockwise: AtD L251, L260)."""
    events = t.run({"op": "populate"})
    while t.state.decision is not None and t.state.decision.kind == "place_token":
        seat = t.state.decision.seat
        events += t.send(seat, "token", **t.choices(seat)[0][1])
    return events


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]
