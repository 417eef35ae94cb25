"""Potions, herbs and the places that restore (DO L255-258, L262-284, L303-304, L309;
facts §10, §14): fast and advanced crafting, the magic mushroom, what is and is not an
ingredient, the two Stones and the campfire, played through offered commands only."""

from __future__ import annotations

import pytest

from app.kernel.types import RuleError
from tests.games.dark_omen.harness import arranged, of, play, table
from tests.games.dark_omen.positions import holding, offered, rounds_ended, seen, unlocked


def recipes(s: object) -> list[dict[str, object]]:
    return offered(s, 0, "craft")  # type: ignore[arg-type]


# -- fast crafting (DO L262-267) ---------------------------------------------------------------------


def test_fast_crafting_two_ingredients_give_4_mp_at_no_ap() -> None:
    """DO L266: "2 potion ingredients = 4 MP"; DO L263: crafting costs 0 AP and discards
    the ingredients; a crafted potion is used at once, not stored."""
    s = arranged(table(), mp=10)
    holding(s, 0, "herb_blue", "herb_yellow")
    s, events = play(s, 0, "craft", recipe="fast_mp")
    assert len(of(events, "LootSpent")[0]["tokens"]) == 2
    assert (s.heroes[0].mp, s.heroes[0].inventory, s.heroes[0].potions, s.heroes[0].ap) == (14, [], [], 0)


def test_fast_crafting_three_ingredients_give_4_hp_and_the_chicken_is_one() -> None:
    """DO L267: "3 potion ingredients = 4 HP"; DO L257: the chicken is a potion
    ingredient; a coin is not one and stays in the inventory."""
    s = arranged(table(), hp=10)
    coin = holding(s, 0, "herb_blue", "chicken", "mushroom", "coin")[-1]
    assert {"recipe": "fast_hp"} in recipes(s)
    s, _ = play(s, 0, "craft", recipe="fast_hp")
    assert (s.heroes[0].hp, s.heroes[0].inventory) == (14, [coin])


def test_loot_that_is_no_ingredient_brews_nothing() -> None:
    """DO L255-258: herbs, chickens and mushrooms are potion ingredients; coins, rings and
    ticks are not."""
    s = arranged(table())
    holding(s, 0, "coin", "ring", "tick", "herb_blue")
    assert recipes(s) == []
    with pytest.raises(RuleError):
        play(s, 0, "craft", recipe="fast_mp")


# -- advanced crafting (DO L268-284) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("recipe", "herbs", "hp", "mp"),
    [
        ("wellness", ("herb_blue", "herb_purple"), 12, 12),
        ("health", ("herb_purple", "herb_purple"), 15, 10),
        ("boldness", ("herb_blue", "mushroom"), 8, 14),
        ("lethargy", ("herb_purple", "mushroom"), 14, 8),
    ],
)
def test_each_advanced_potion_does_what_its_row_says(
    recipe: str, herbs: tuple[str, str], hp: int, mp: int
) -> None:
    """DO L272-282: Wellness +2 HP & 2 MP; Health +5 HP; the almost poisons: Boldness +4 MP
    −2 HP, Lethargy +4 HP −2 MP."""
    s = arranged(table(), hp=10, mp=10)
    holding(s, 0, *herbs)
    s, _ = play(s, 0, "craft", recipe=recipe)
    assert (s.heroes[0].hp, s.heroes[0].mp, s.heroes[0].inventory) == (hp, mp, [])


@pytest.mark.parametrize(
    ("recipe", "herbs", "hp", "mp"),
    [
        ("wellness", ("herb_blue", "herb_purple"), 14, 14),
        ("health", ("herb_purple", "herb_purple"), 17, 10),
        ("boldness", ("herb_blue", "mushroom"), 6, 16),
        ("lethargy", ("herb_purple", "mushroom"), 16, 6),
    ],
)
def test_the_magic_mushroom_adds_2_to_every_number_even_the_losses(
    recipe: str, herbs: tuple[str, str], hp: int, mp: int
) -> None:
    """DO L269: "spend a magic mushroom as a third ingredient to increase all numerical
    values of an advanced potion by 2 (including negative effects)"."""
    s = arranged(table(), hp=10, mp=10)
    holding(s, 0, *herbs, "red_mushroom")
    s, events = play(s, 0, "craft", recipe=recipe, magic=True)
    assert len(of(events, "LootSpent")[0]["tokens"]) == 3
    assert (s.heroes[0].hp, s.heroes[0].mp, s.heroes[0].inventory) == (hp, mp, [])


def test_a_magic_mushroom_is_offered_only_to_an_advanced_recipe_and_only_when_held() -> None:
    """DO L269: the magic mushroom is a third ingredient of an advanced potion."""
    s = arranged(table())
    holding(s, 0, "herb_purple", "herb_purple")
    assert {"recipe": "health", "magic": True} not in recipes(s)
    with pytest.raises(RuleError):
        play(s, 0, "craft", recipe="health", magic=True)
    holding(s, 0, "herb_purple", "herb_purple", "red_mushroom")
    assert {"recipe": "health", "magic": True} in recipes(s)
    assert {"recipe": "fast_mp", "magic": True} not in recipes(s)


def test_a_recipe_needs_its_own_herbs() -> None:
    """DO L270-277: Health is Purple + Purple: a blue and a purple make Wellness instead."""
    s = arranged(table())
    holding(s, 0, "herb_blue", "herb_purple")
    names = {a["recipe"] for a in recipes(s)}
    assert "wellness" in names and "health" not in names and "morale" not in names
    with pytest.raises(RuleError):
        play(s, 0, "craft", recipe="health")


def test_courage_is_brewed_only_in_a_battle() -> None:
    """DO L273: Courage "Set one AR as a 7" — it acts on an attack roll, so out of battle it
    is not offered (facts §10: used in a boost window)."""
    s = arranged(table())
    holding(s, 0, "herb_blue", "herb_yellow")
    assert {"recipe": "courage"} not in recipes(s)
    with pytest.raises(RuleError):
        play(s, 0, "craft", recipe="courage")


def test_potions_stop_at_the_top_of_the_track() -> None:
    """DO L88, L197: the morale track runs to 30 (facts §5: excess gains are lost)."""
    s = arranged(table(), mp=28)
    holding(s, 0, "herb_blue", "herb_blue")
    s, _ = play(s, 0, "craft", recipe="morale")
    assert s.heroes[0].mp == 30


# -- the Stones and the campfire (DO L303-304, L309) --------------------------------------------------


def test_the_stone_of_courage_takes_an_item_for_2_hp() -> None:
    """DO L303: "Regain 2 HP by sacrificing an item from your inventory" (1 AP, facts §7)."""
    s = arranged(table(), hp=10)
    s = unlocked(s, 0, 25)
    coin, tick = holding(s, 0, "coin", "tick")
    assert {a["token"] for a in offered(s, 0, "courage_stone")} == {coin, tick}
    s, _ = play(s, 0, "courage_stone", token=coin)
    assert (s.heroes[0].hp, s.heroes[0].inventory, s.heroes[0].ap) == (12, [tick], 1)


def test_the_stone_of_courage_has_nothing_to_give_a_hero_at_full_health() -> None:
    s = arranged(table(), hp=30)
    s = unlocked(s, 0, 25)
    holding(s, 0, "coin")
    assert offered(s, 0, "courage_stone") == []


def test_the_stone_of_rejuvenation_gives_2_mp_once_a_day() -> None:
    """DO L304: "Regain 2 MP at no cost. Can be done once a day"."""
    s = arranged(table(), mp=10)
    s = unlocked(s, 0, 81)
    s, _ = play(s, 0, "rejuvenate")
    assert (s.heroes[0].mp, s.heroes[0].ap) == (12, 1)
    assert offered(s, 0, "rejuvenate") == []
    s, _ = rounds_ended(s, 3)
    assert offered(s, 0, "rejuvenate") == []  # rounds 2-4 of the same day
    s, _ = rounds_ended(s, 1)
    assert s.day == 2 and offered(s, 0, "rejuvenate") == [{}]


def test_a_straw_doll_lights_a_campfire_that_lasts_the_round() -> None:
    """DO L256: the straw doll "Counts as 1 torch charge"; DO L309: a campfire "Can be made
    with Torch. When on this space regain 2 MP. Holds up for one round"."""
    s = arranged(table(), at=10, mp=10)
    holding(s, 0, "straw_doll")
    s, events = play(s, 0, "campfire")
    assert of(events, "CampfireLit") == [{"seat": 0, "space": 10}]
    assert (s.heroes[0].mp, s.heroes[0].inventory, s.heroes[0].ap) == (12, [], 0)
    assert seen(s)["campfires"] == [10]
    s, _ = rounds_ended(s, 1)
    assert seen(s)["campfires"] == []


def test_a_campfire_warms_every_hero_on_its_space_once() -> None:
    """DO L309: "When on this space regain 2 MP": not only the hero who lit it. A hero
    already there regains 2 MP as it is lit; one stepping onto it later in the round
    regains 2 MP on arrival, once (stepping off and back gives nothing more)."""
    s = arranged(table(seats=3), at=10, mp=10)
    s.heroes[2].at = 11
    holding(s, 0, "straw_doll")
    s, _ = play(s, 0, "campfire")
    assert [h.mp for h in s.heroes] == [12, 12, 10]
    s, _ = play(s, 2, "move", to=10)
    assert s.heroes[2].mp == 12
    s, _ = play(s, 2, "move", to=11)
    s, _ = play(s, 2, "move", to=10)
    assert s.heroes[2].mp == 12  # once per campfire
    s, _ = play(s, 0, "move", to=11)
    s, _ = play(s, 0, "move", to=10)
    assert s.heroes[0].mp == 12  # the one who lit it, too


def test_a_torch_charge_lights_a_campfire() -> None:
    """DO L309 with DO L318: lighting spends one of the torch's charges."""
    s = arranged(table(), at=10, mp=10)
    s.heroes[0].gear, s.heroes[0].charges = ["g1_t0"], {"g1_t0": 2}
    s, _ = play(s, 0, "campfire")
    assert (s.heroes[0].charges, s.heroes[0].mp) == ({"g1_t0": 1}, 12)
    assert offered(s, 0, "campfire") == []  # one fire on a space
    s.heroes[0].charges = {"g1_t0": 0}
    s, _ = play(s, 0, "move", to=11)
    assert offered(s, 0, "campfire") == []  # no charge left
