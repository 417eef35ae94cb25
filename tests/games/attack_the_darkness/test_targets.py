"""Which board element each choice stands for (``targets.py``), so the grid, the hands and
the monsters are clickable: a square by its "x,y", a card by its card (every copy lights
up: the engine offers one choice per card), a combatant by its id."""

from __future__ import annotations

import random
from collections import Counter

from app.games.attack_the_darkness import ATTACK_THE_DARKNESS as GAME
from app.games.attack_the_darkness import targets
from app.games.attack_the_darkness.content import load
from app.kernel.types import Choice
from tests.games.attack_the_darkness.harness import Table

C = load()


def target(t: Table, kind: str, **args: object) -> str | None:
    return targets.choice_target(t.state, Choice(kind, dict(args), ""))


def test_squares_are_named_as_the_labels_write_them() -> None:
    t = Table(2)
    assert target(t, "speed", to=[3, 11]) == "square:3,11"  # a speed move (AtD L82)
    assert target(t, "area", x=4, y=7) == "square:4,7"  # an area's corner (AtD L159)
    assert target(t, "place", to=[0, 2]) == "square:0,2"
    assert target(t, "area") is None  # no square named: nothing to click


def test_every_copy_of_a_card_stands_for_the_same_choice() -> None:
    t = Table(2)
    by_card: dict[str, list[str]] = {}
    for inst, card in t.state.cards.items():
        by_card.setdefault(card, []).append(inst)
    action = next(card for card, n in Counter(t.state.cards.values()).items() if n > 1 and card in C.actions)
    resource = next(
        card for card, n in Counter(t.state.cards.values()).items() if n > 1 and card in C.resources
    )
    first, second = by_card[action][:2]
    # the card's click pays the cheapest way (issue 26); "choose" is the prompt's button
    assert target(t, "play_cheapest", card=first) == target(t, "play_cheapest", card=second) == f"ac:{action}"
    assert target(t, "play", card=first) is None
    assert target(t, "defend", card=first) == f"ac:{action}"
    assert target(t, "add", rc=by_card[resource][0]) == f"rc:{resource}"
    assert target(t, "play", card="no-such-card") is None
    assert target(t, "play", card={"forged": 1}) is None  # only ever a card instance


def test_combatants_tiles_and_equipment() -> None:
    t = Table(2)
    assert target(t, "target", who="m5") == "combatant:m5"
    assert target(t, "revive", target=1) == "combatant:c1"  # a fallen ally (AtD L233)
    assert target(t, "flip", tile=2) == "tile:2" and target(t, "tile", tile=0) == "tile:0"
    assert target(t, "equip", item="i3") == "item:i3"
    assert target(t, "end_turn", discard=False) is None


def test_every_offered_choice_of_a_played_game_names_a_mark_the_board_can_draw() -> None:
    """Along a seeded game, a choice of a clickable kind always names a well-formed mark."""
    t = Table(2, seed=3)
    rng = random.Random(3)
    named = 0
    for _ in range(60):
        prompts = [p for p in GAME.prompts(t.state) if p.required and p.choices]
        if not prompts:
            break
        for prompt in prompts:
            for choice in prompt.choices:
                mark = targets.choice_target(t.state, choice)
                if choice.type in targets.SQUARE_CHOICES and ("to" in choice.args or "x" in choice.args):
                    assert mark is not None and mark.startswith("square:"), (choice, mark)
                if mark is not None:
                    named += 1
                    kind, _, name = mark.partition(":")
                    assert kind in {
                        "square",
                        "combatant",
                        "ac",
                        "rc",
                        "item",
                        "adv",
                        "tile",
                        "top",
                        "dungeon",
                    }
                    assert name, mark
        prompt = rng.choice(prompts)
        choice = rng.choice(prompt.choices)
        t.send(prompt.seat, choice.type, **choice.args)
    assert named > 20, named
