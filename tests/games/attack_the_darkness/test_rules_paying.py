"""Paying for action cards: cost colours, resource cards, conditions, X costs and
multipliers (AtD L115-127, L132-143, L174-184, L308). A card is offered to play only when
the resource cards in hand pay its cost by colour and its condition can be met."""

from __future__ import annotations

import pytest

from app.kernel.types import RuleError
from tests.games.attack_the_darkness.harness import Table, types
from tests.games.attack_the_darkness.positions import (
    FAR,
    ROW,
    craft,
    damage_to,
    declare,
    discards,
    hero,
    kinds,
    of_type,
    offered,
    playable,
    wound,
)


def table(*monsters: tuple[object, ...]) -> tuple[Table, list[str]]:
    """A Champion at the left end of ``ROW``; an ogre far off keeps the encounter going."""
    t = Table(1, classes=["champion"])
    ids = craft(t, ROW, {0: (0, 1)}, ("ogre", FAR), *monsters)
    return t, ids[1:]


def rc_names(t: Table) -> dict[str, str]:
    return {c["id"]: c["card"] for c in hero(t)["hand"]}


# -- cost colours (AtD L132-139) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "rcs", "payable"),
    [
        ("militia", ["pious"], True),  # red: Stamina
        ("militia", ["quick"], False),
        ("militia", ["magical"], False),
        ("militia", ["calculating"], True),  # Stamina or Focus, chosen (AtD L124)
        ("shank", ["pious"], True),  # orange: Stamina or Focus
        ("shank", ["quick"], True),
        ("shank", ["magical"], False),
        ("force_push", ["magical"], True),  # blue: Mana
        ("force_push", ["pious"], False),
        ("force_push", ["convicting"], True),
        ("bash", ["pious"], True),  # purple: Stamina or Mana
        ("bash", ["holy"], True),
        ("bash", ["quick"], False),
        ("rope_dart", ["quick"], True),  # green: Focus or Mana
        ("rope_dart", ["magical"], True),
        ("rope_dart", ["pious"], False),
        ("bleed", ["pious"], True),  # white: any resource
        ("bleed", ["quick"], True),
        ("bleed", ["magical"], True),
        ("precise_shot", ["magical", "quick"], True),  # Mana and Focus (AtD L144)
        ("precise_shot", ["magical", "magical"], False),
        ("precise_shot", ["quick", "quick"], False),
        ("precise_shot", ["convicting"], False),  # one resource, two to pay
        ("precise_shot", ["convicting", "convicting"], True),
        ("beam", ["magical"], False),  # the number is the amount (AtD L132)
        ("beam", ["magical", "magical"], True),
        ("militia", ["elemental", "elemental", "elemental"], True),  # excess wasted (AtD L143)
    ],
)
def test_the_cost_colour_says_which_resources_pay(card: str, rcs: list[str], payable: bool) -> None:
    """AtD L132-139: red Stamina, yellow Focus, blue Mana, orange Stamina or Focus, purple
    Stamina or Mana, green Focus or Mana, white any; AtD L143: "The sum total of the
    resources provided by the RCs must meet or exceed the cost of the AC"."""
    t, _ = table()
    t.hand(0, card, *rcs)
    assert (card in playable(t)) is payable
    if not payable:
        assert "AtD L140, L143" in hero(t)["unplayable"][card]


def test_resources_are_added_until_they_pay_and_only_then_declared() -> None:
    """AtD L143: "a player must first identify what resource cards they will use ... The sum
    total ... must meet or exceed the cost of the AC ... Then, the player should declare the
    action": Beam (2 blue) is declared only once two Mana are chosen; Stamina adds none."""
    t, _ = table()
    beam, m1, pious, m2 = t.hand(0, "beam", "magical", "pious", "magical")
    t.send(0, "play", card=beam)
    assert "done" not in kinds(t)
    t.send(0, "add", rc=m1)
    t.send(0, "add", rc=pious)
    assert "done" not in kinds(t)
    with pytest.raises(RuleError):
        t.send(0, "done")
    t.send(0, "add", rc=m2)
    assert "done" in kinds(t)


def test_a_zero_cost_card_needs_no_resource_card_but_may_take_one() -> None:
    """AtD L143: "zero-cost ACs can be played without the use of an RC"; an RC may still be
    added for its effect (facts file §5): Jab (0) deals 2, a Brutish Jab 3."""
    t, (zombie,) = table(("zombies", (1, 1), 20))
    jab1, jab2, brutish = t.hand(0, "jab", "jab", "brutish")
    t.send(0, "play", card=jab1)
    assert "done" in kinds(t) and {"rc": brutish} in offered(t, "add")
    t.send(0, "done")
    events = t.send(0, "target", who=zombie)
    assert damage_to(events, zombie) == [2]
    events = declare(t, 0, jab2, brutish)
    events += t.send(0, "target", who=zombie)
    assert damage_to(events, zombie) == [3]


def test_a_resource_card_is_never_played_alone() -> None:
    """AtD L125: "Resource cards cannot be played without an accompanying action card"."""
    t, _ = table()
    (pious,) = t.hand(0, "pious")
    assert "add" not in kinds(t)
    with pytest.raises(RuleError):
        t.send(0, "add", rc=pious)


def test_a_resource_card_powers_a_single_action_card() -> None:
    """AtD L126: "any given resource card can only apply to a single action card": Brutish
    adds 1 damage to the Jab it joins, then lies in the discards; the next Jab deals 2."""
    t, (zombie,) = table(("zombies", (1, 1), 20))
    jab1, jab2, brutish = t.hand(0, "jab", "jab", "brutish")
    events = declare(t, 0, jab1, brutish) + t.send(0, "target", who=zombie)
    assert damage_to(events, zombie) == [3]
    assert "Brutish" in discards(t)
    events = declare(t, 0, jab2) + t.send(0, "target", who=zombie)
    assert damage_to(events, zombie) == [2]


def test_an_attack_only_resource_card_powers_attacks_only() -> None:
    """AtD L127: "The Envenomed RC can provide either Mana or Focus, but can only be used with
    attack actions": it pays Rope Dart (attack), never Hand Spring (maneuver)."""
    t, _ = table()
    rope, spring, venom = t.hand(0, "rope_dart", "hand_spring", "envenomed")
    assert playable(t) == {"rope_dart"}
    t.send(0, "play", card=rope)
    t.send(0, "play")  # no enemy in range: played anyway (AtD L157)
    assert {"rc": venom} in offered(t, "add")
    t.send(0, "cancel")
    t.card(0, "quick")
    t.send(0, "play", card=spring)
    assert [rc_names(t)[a["rc"]] for a in offered(t, "add")] == ["quick"]


# -- conditions and the order of resolution (AtD L140, L181-183, L308) -------------------------


def test_a_card_whose_condition_cannot_be_met_is_not_offered() -> None:
    """AtD L182: "If it cannot be resolved, the rest of the card is ignored": Hack! must
    discard a card, and the Hearty that pays it cannot be the one discarded."""
    t, _ = table()
    hack, hearty = t.hand(0, "hack", "hearty")
    assert "hack" not in playable(t)
    assert "AtD L140, L143" in hero(t)["unplayable"]["hack"]
    block = t.card(0, "block")
    assert "hack" in playable(t)
    t.send(0, "play", card=hack)
    t.send(0, "play")  # no enemy in range: played anyway (AtD L157)
    t.send(0, "add", rc=hearty)
    t.send(0, "done")
    assert offered(t, "discard") == [{"card": block}]


def test_hp_lost_for_a_condition_comes_before_the_effect() -> None:
    """AtD L181-182: the condition (Blood Lusted: lose 2 HP) resolves completely before the
    rest; then its doubling applies to the attack (AtD L180)."""
    t, (zombie,) = table(("zombies", (1, 1), 20))
    jab, lusted = t.hand(0, "jab", "blood_lusted")
    events = declare(t, 0, jab, lusted) + t.send(0, "target", who=zombie)
    hits = [(d["who"], d["amount"], d["source"]) for d in of_type(events, "Damaged")]
    assert hits == [("c0", 2, "condition"), (zombie, 4, "c0")]
    assert hero(t)["hp"] == hero(t)["max_hp"] - 2


def test_prepared_makes_each_discard_count_double() -> None:
    """AtD L308: Prepared "doubles effective number of cards discarded for action (IE 2
    discarded ACs count as 4 etc)": Hack! and Howling ask 2 discards, one card pays both
    (facts file §18: "discard N" is met by ⌈N/2⌉ cards)."""
    t, (zombie,) = table(("zombies", (1, 1), 20))
    hack, block, feint, howling, prepared, pious = t.hand(
        0, "hack", "block", "feint", "howling", "prepared", "pious"
    )
    events = declare(t, 0, hack, howling, prepared, pious, discard=(block,))
    assert {"who": zombie} in offered(t, "target")  # no second discard asked
    events += t.send(0, "target", who=zombie)
    assert [d["cards"] for d in of_type(events, "CardsDiscarded")] == [[block]]
    assert damage_to(events, zombie) == [8]  # Hack! 4, doubled by Howling
    assert feint in {c["id"] for c in hero(t)["hand"]}


# -- values of X and multipliers (AtD L174-180) --------------------------------------------------


@pytest.mark.parametrize(
    ("rcs", "x"),
    [(["magical"], 1), (["magical", "pious"], 1), (["magical", "magical", "magical"], 3), (["adjusted"], 1)],
)
def test_siphoning_scales_with_the_mana_spent(rcs: list[str], x: int) -> None:
    """AtD L174-178: "The Siphoning AC varies in effect based on how much Mana is spent": X
    counts only the Mana (Stamina pays nothing of a blue X); 1 + X damage, X healed."""
    t, (zombie,) = table(("zombies", (4, 1), 20))
    wound(t, 0, 6)
    siphoning, *chosen = t.hand(0, "siphoning", *rcs)
    events = declare(t, 0, siphoning, *chosen)
    assert of_type(events, "CardPlayed")[0]["x"] == x
    events = t.send(0, "target", who=zombie)
    assert damage_to(events, zombie) == [1 + x]
    assert [d["amount"] for d in of_type(events, "Healed")] == [x]


@pytest.mark.parametrize(
    ("rcs", "fodder", "damage"),
    [
        (["howling", "brutish"], 1, (2 + 1) * 2),  # flat bonuses first, then the multiplier
        (["howling", "annihilating", "unleashed"], 3, 2 * (2 + 2 + 3)),  # ×2, ×2, ×3 → ×7
    ],
)
def test_multipliers_are_added_then_applied_to_the_whole(rcs: list[str], fodder: int, damage: int) -> None:
    """AtD L180: "add the multipliers together, and then apply them"; facts file §6: damage
    = (base + flat bonuses) × (sum of multipliers). Jab deals 2."""
    t, (zombie,) = table(("zombies", (1, 1), 40))
    jab, *rest = t.hand(0, "jab", *(["block"] * fodder), *rcs)
    spare, chosen = rest[:fodder], rest[fodder:]
    events = declare(t, 0, jab, *chosen, discard=tuple(spare))
    events += t.send(0, "target", who=zombie)
    assert damage_to(events, zombie) == [damage]
    assert "MonsterDied" not in types(events)
