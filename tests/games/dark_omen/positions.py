"""Small positions and readings for the rule tests (``test_rules_*.py``), built on
``harness.py``: loot in a hero's hands or face down on a space, a location unlocked by the
rule's own command, rounds ended by the seats, and what a creature, the market or the omen
look like read from the game master's view (stable JSON), never from the state's records."""

from __future__ import annotations

from typing import Any

from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.content import load
from app.games.dark_omen.state import State
from app.kernel.types import GAME_MASTER, Event
from tests.games.dark_omen.harness import choices, play

C = load()

STORED = {"quail_eggs", "potion_4mp", "potion_4hp", "potion_2hp2mp", "ceremonial_skull"}
"""Loot faces kept in the three potion slots (DO L247-249, L208)."""


def token_of(face: str, skip: tuple[str, ...] = ()) -> str:
    """A loot token (its physical id) showing ``face``."""
    return next(t for t, f in sorted(C.loot.items()) if f == face and t not in skip)


def holding(s: State, seat: int, *faces: str) -> list[str]:
    """The hero holds these loot faces (potions in the potion slots), taken from the pile."""
    tokens: list[str] = []
    for f in faces:
        tokens.append(token_of(f, tuple(tokens)))
    hero = s.heroes[seat]
    hero.inventory = [t for t in tokens if C.loot[t] not in STORED]
    hero.potions = [t for t in tokens if C.loot[t] in STORED]
    s.pile = [t for t in s.pile if t not in tokens]
    return tokens


def face_down(s: State, space: int, face: str) -> str:
    """A face-down loot token showing ``face`` lies on ``space`` (DO L82)."""
    token = next(t for t, f in sorted(C.loot.items()) if f == face and t in s.pile)
    s.pile = [t for t in s.pile if t != token]
    s.loot[space] = token
    return token


def seen(s: State) -> dict[str, Any]:
    """The game master's view: everything, face-down tokens named."""
    return DARK_OMEN.view(s, GAME_MASTER)


def creature(s: State, cid: str = "e1") -> dict[str, Any] | None:
    """A creature as the view shows it (None once it has left the map)."""
    return next((c for c in seen(s)["creatures"] if c["id"] == cid), None)


def offered(s: State, seat: int, type_: str) -> list[dict[str, Any]]:
    """The arguments of every ``type_`` choice offered to ``seat``."""
    return [a for t, a in choices(s, seat) if t == type_]


def steps(s: State, seat: int = 0) -> set[int | str]:
    """Where ``seat`` may move now."""
    return {a["to"] for a in offered(s, seat, "move")}


def unlocked(s: State, seat: int, space: int) -> State:
    """The location token on ``space`` turned face up by its own rule (DO L302: 1 AP and 2
    blood of the beast), the hero standing there with that AP given back."""
    hero = s.heroes[seat]
    hero.at, blood, ap = space, hero.blood, hero.ap
    hero.blood = 2
    s, _ = play(s, seat, "unlock")
    s.heroes[seat].blood, s.heroes[seat].ap = blood, ap
    return s


def rounds_ended(s: State, n: int) -> tuple[State, list[Event]]:
    """Every living seat ends its round, ``n`` times; all the events, in order."""
    events: list[Event] = []
    for _ in range(n):
        for h in s.heroes:
            if h.alive and not h.done:
                s, ended = play(s, h.seat, "end_round")
                events += ended
    return s, events


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def reroll(s: State, seat: int, rolls: list[int], faces: list[int]) -> tuple[State, list[Event]]:
    """Pick every die showing one of ``faces`` (one ``pick_die`` step each, DO L345), then
    reroll them with ``rolls``."""
    pending = s.heroes[seat].pending
    assert pending is not None and pending.dice is not None  # type: ignore[union-attr]
    for i, die in enumerate(pending.dice):  # type: ignore[union-attr]
        if die in faces:
            s, _ = play(s, seat, "pick_die", index=i, pick=True)
    return play(s, seat, "reroll", rolls)
