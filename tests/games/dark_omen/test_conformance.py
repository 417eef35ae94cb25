"""Dark Omen holds the kernel contract over seeded random games with several seats acting
at once (random interleavings of their commands): every offered command is accepted, the
game always ends or offers a legal move, the log replays to the same state, and no view or
feed leaks a face-down loot token (every view after every command: a token revealed, then
dealt face down again, is new hidden information). A few games by default (sized for CI);
``UMBRA_CONFORMANCE_GAMES=N`` plays N per option set."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.content import base_token
from app.games.dark_omen.state import INVENTORY, POTIONS, TRACK_MAX, State
from app.kernel.conformance import games_per_case, random_playout

GAMES = games_per_case(2)

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"mode": "quick_omen", "difficulty": "first_game"},
    {"mode": "quick_chapter", "chapter": 2, "difficulty": "light", "unblocked_target": "most_hp"},
    {"mode": "quick_chapter", "chapter": 3, "difficulty": "pain", "hardcore_regions": True},
    {"mode": "quick_chapter", "chapter": 4, "hardcore_regions": True, "unblocked_target": "weakest"},
]


def invariants(s: State) -> None:
    """Each physical loot token is in one place at most (the pile, the map, a hand, the
    ground); tracks stay on 0–30 within max HP; slots are never overfull; the meter on 0–8."""
    seen: list[str] = [*s.pile, *(base_token(t) for t in s.loot.values())]
    for h in s.heroes:
        assert 0 <= h.hp <= h.max_hp <= TRACK_MAX, f"{h.character}: hp {h.hp}/{h.max_hp}"
        assert 0 <= h.mp <= TRACK_MAX and h.gold >= 0 and h.blood >= 0
        assert len(h.inventory) <= INVENTORY and len(h.potions) <= POTIONS
        seen += [base_token(t) for t in h.inventory + h.potions]
    seen += [base_token(t) for tokens in s.dropped.values() for t in tokens]
    assert len(seen) == len(set(seen)), "a loot token is in two places"
    assert len(seen) <= 64
    assert 0 <= s.meter <= 8


@pytest.mark.parametrize("index", range(len(OPTION_SETS)))
def test_random_games_keep_the_contract(index: int) -> None:
    for n in range(GAMES):
        seed = index * 1000 + n
        played = random_playout(
            DARK_OMEN,
            seed,
            options=dict(OPTION_SETS[index]),
            invariant=invariants,
            check_every=1,
            max_commands=20_000,
        )
        assert played.outcome is not None and played.outcome.result in ("win", "loss")
        chapters = DARK_OMEN.chapters(played.state)
        assert chapters and not any(c.current for c in chapters)
