"""Attack the Darkness keeps the platform's contract over seeded random games in each mode
(app/kernel/conformance.py): every offered command is accepted, no view or feed leaks a
hand, a deck order, the dungeon deck, a face-down tile or an advancement draw, every event
is listed in event_types(), and the log replays to the same state. A few long games by
default (CI); ``UMBRA_CONFORMANCE_GAMES=N`` plays N per option set. The flow manifest is
pinned with every game's (tests/kernel/test_manifests.py)."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.attack_the_darkness import ATTACK_THE_DARKNESS, AttackTheDarkness
from app.games.attack_the_darkness.state import State
from app.games.attack_the_darkness.view import secrets_of
from app.kernel.conformance import games_per_case, random_playout
from app.kernel.types import Secret

GAMES = games_per_case(1)

OPTION_SETS: list[tuple[str, dict[str, Any], int, int]] = [
    # (id, options, seats, check the views every N commands)
    ("tavern-cellar", {"dungeon": "tavern_cellar"}, 3, 2),
    ("random-campaign", {"dungeon": "random", "encounters": 2, "campaign": 2, "bosses": True}, 2, 2),
    ("cave", {"dungeon": "cave"}, 1, 2),
    # a Samurai: A Lifetime of Preparation's "any time" prompt and its peeked cards
    ("samurai-sewer", {"dungeon": "sewer", "class": ["samurai", "templar"]}, 2, 2),
    ("arena", {"mode": "arena", "teams": 2}, 4, 25),
    ("tabletop", {"mode": "tabletop", "dungeon": "random", "encounters": 1}, 2, 15),
]


class EveryCardSecret(AttackTheDarkness):
    """The game with every card in every deck a secret of its own (the registered game
    lists each deck's order as one secret, which is cheaper to check): no event or view may
    name a card while it is in a deck, whatever was shown of it before it was shuffled in."""

    def secrets(self, state: State) -> list[Secret]:
        return secrets_of(state, per_card=True)


STRICT = EveryCardSecret()


def invariants(state: State) -> None:
    for seat, ch in enumerate(state.chars):
        assert 0 <= ch.hp <= ch.max_hp, f"seat {seat} has {ch.hp} of {ch.max_hp} HP"
        cards = ch.actions + ch.hand_a + ch.disc_a + [e.card for e in ch.in_play]
        cards += ch.resources + ch.hand_r + ch.disc_r
        for play in [*state.suspended, state.play]:
            if play is not None and play.seat == seat:
                cards += [c for c in [play.card, *play.rcs] if c]
        assert len(cards) == 54 and len(set(cards)) == 54, f"seat {seat} holds {len(cards)} cards"
    squares = [ch.pos for ch in state.chars if ch.pos is not None]
    squares += [m.pos for m in state.monsters.values()]
    assert len(squares) == len(set(squares)), "two tokens share a square"
    for m in state.monsters.values():
        assert m.hp > 0


@pytest.mark.parametrize(
    ("options", "seats", "every"), [(o, n, e) for _, o, n, e in OPTION_SETS], ids=[i for i, *_ in OPTION_SETS]
)
def test_random_games_keep_the_contract(options: dict[str, Any], seats: int, every: int) -> None:
    for n in range(GAMES):
        played = random_playout(
            STRICT if every <= 2 else ATTACK_THE_DARKNESS,
            1000 * n + seats,
            seats=seats,
            options=dict(options),
            invariant=invariants,
            check_every=every,
            # a random game master may wander for hundreds of rounds before closing in
            max_commands=50_000 if options.get("mode") == "tabletop" else 10_000,
        )
        assert played.outcome is not None and played.outcome.result in ("win", "loss", "draw")
