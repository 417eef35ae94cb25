"""Darkest Night's conformance run: many seeded games of random legal commands across the
options, checking the platform's invariants (app/kernel/conformance.py) and the game's own:
no location holds more than 4 blights, tokens on the board never exceed the pool, at most
3 sparks per hero, grace and secrecy never below 0, at most one Holy Relic per hero (two in
the dual-class variant), and every game ends in a win or a loss.

Each option set plays a few seeded games by default (sized for CI), every view checked
every other command and every event in every viewer's feed; ``UMBRA_CONFORMANCE_GAMES=N``
plays N games per option set instead (app/kernel/conformance.py, ``games_per_case``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.content import load
from app.games.darkest_night.state import State
from app.kernel.conformance import games_per_case, random_playout

GAMES_PER_OPTION_SET = games_per_case(4)

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"subdeck": "everything"},
    {"subdeck": "hunted", "heroes": 5},
    {"subdeck": "overrun", "heroes": 3, "starting_blights": 2},
    {"subdeck": "entropy", "heroes": 2},
    {"subdeck": "spiritual_warfare", "necromancer_player": True},
    {"subdeck": "classic", "pall_of_suffering": True, "increased_quests": True},
    {"hidden_relics": True, "no_mysteries": True},
    {"no_quests": True, "no_darkness_deck": True},
    {"darkness_cards": 8, "starting_darkness": 20, "random_heroes": True, "random_powers": True},
    {"starting_blights": 0, "extra_grace": True, "starting_sparks": True, "starting_powers": 5},
    {"darkness_cards": 1, "starting_darkness": -5, "starting_powers": 4},
]


def invariants(state: State) -> None:
    content = load()
    tokens: Counter[str] = Counter()
    for location, blights in state.blights.items():
        assert len(blights) <= 4, f"{location} holds {len(blights)} blights"
        tokens.update(b.type for b in blights)
    for blight_type, count in tokens.items():
        assert count <= content.blights[blight_type].tokens, f"{count} {blight_type} tokens in play"
    for hero in state.heroes.values():
        assert 0 <= hero.sparks <= 3, f"{hero.id} has {hero.sparks} sparks"
        assert hero.grace >= 0 and hero.secrecy >= 0, f"{hero.id}: grace {hero.grace}, secrecy {hero.secrecy}"
        limit = 2 if hero.turns_per_round == 2 else 1
        assert hero.relics() <= limit, f"{hero.id} carries {hero.relics()} relics"
    for kind, left in state.item_stock.items():
        assert left >= 0, f"the stock has {left} {kind}"


@pytest.mark.parametrize("index", range(len(OPTION_SETS)))
def test_random_games_across_the_options(index: int) -> None:
    options = OPTION_SETS[index]
    results: Counter[str] = Counter()
    games = GAMES_PER_OPTION_SET
    for n in range(games):
        seed = index * 100_000 + n
        playout = random_playout(DARKEST_NIGHT, seed, options=options, invariant=invariants, check_every=2)
        assert playout.outcome is not None and playout.outcome.result in ("win", "loss")
        results[playout.outcome.result] += 1
    assert sum(results.values()) == games
