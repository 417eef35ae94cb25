"""Loot tokens (DO L79-82, L203-208, L242-261; facts §9): flipping, room in the inventory
and the potion slots, dropping and picking up, what each face does, and exchanges between
heroes, played through offered commands only."""

from __future__ import annotations

import pytest

from app.kernel.types import RuleError
from tests.games.dark_omen.harness import arranged, enemy, of, play, table
from tests.games.dark_omen.positions import (
    creature,
    face_down,
    holding,
    offered,
    rounds_ended,
    seen,
    types,
)


def test_loot_is_flipped_only_on_its_own_space() -> None:
    """DO L243: "If your character shares a space with a loot token, you may spend 1 AP to
    flip it"."""
    s = arranged(table(), at=10)
    face_down(s, 11, "coin")
    assert offered(s, 0, "loot") == []
    with pytest.raises(RuleError):
        play(s, 0, "loot")
    s, _ = play(s, 0, "move", to=11)
    assert offered(s, 0, "loot") == [{}]


def test_a_found_potion_is_stored_and_drunk_when_needed_for_no_ap() -> None:
    """DO L247-249: potion tokens "Can be stored in inventory and used when needed"; quail
    eggs heal 1 HP; using a potion costs 0 AP (DO L223)."""
    s = arranged(table(), at=10, hp=10)
    egg = face_down(s, 10, "quail_eggs")
    s, events = play(s, 0, "loot")
    assert of(events, "LootRevealed")[0]["to"] == "potions"
    assert s.heroes[0].potions == [egg] and s.heroes[0].hp == 10
    s, _ = play(s, 0, "drink", token=egg)
    assert (s.heroes[0].hp, s.heroes[0].potions, s.heroes[0].ap) == (11, [], 1)


@pytest.mark.parametrize(
    ("face", "hp", "mp"),
    [("potion_4hp", 14, 10), ("potion_4mp", 10, 14), ("potion_2hp2mp", 12, 12), ("ceremonial_skull", 10, 16)],
)
def test_each_stored_potion_restores_what_its_token_shows(face: str, hp: int, mp: int) -> None:
    """DO L80, L247-248: 4HP, 4MP, 2HP & 2MP; the ceremonial skull, a major MP heal (6MP)."""
    s = arranged(table(), hp=10, mp=10)
    (token,) = holding(s, 0, face)
    s, _ = play(s, 0, "drink", token=token)
    assert (s.heroes[0].hp, s.heroes[0].mp) == (hp, mp)


def test_a_full_inventory_leaves_the_find_face_up_on_the_ground() -> None:
    """DO L207: "Your inventory is limited to the six spaces … you'll need to discard some
    of your loot"; facts §9: a face-up token is then taken for 0 AP."""
    s = arranged(table(), at=10)
    held = holding(s, 0, "coin", "coin", "coin", "ring", "tick", "dung")
    herb = face_down(s, 10, "herb_blue")
    s, events = play(s, 0, "loot")
    assert of(events, "LootRevealed")[0]["to"] == "ground"
    assert seen(s)["loot_face_up"] == {"10": [{"token": herb, "face": "herb_blue"}]}
    assert offered(s, 0, "take") == []
    s, _ = play(s, 0, "drop", token=held[4])
    s, _ = play(s, 0, "take", token=herb)
    assert herb in s.heroes[0].inventory and len(s.heroes[0].inventory) == 6
    assert s.heroes[0].ap == 1  # only the flip cost an AP


def test_three_potions_at_a_time() -> None:
    """DO L208: "You can store three at a time"."""
    s = arranged(table(), at=10)
    holding(s, 0, "quail_eggs", "quail_eggs", "potion_4hp")
    face_down(s, 10, "potion_4mp")
    s, events = play(s, 0, "loot")
    assert of(events, "LootRevealed")[0]["to"] == "ground" and len(s.heroes[0].potions) == 3
    s = arranged(table(), at=10)
    holding(s, 0, "quail_eggs", "quail_eggs")
    face_down(s, 10, "potion_4mp")
    s, events = play(s, 0, "loot")
    assert of(events, "LootRevealed")[0]["to"] == "potions" and len(s.heroes[0].potions) == 3


def test_dropped_loot_lies_under_the_hero_for_anyone_to_take() -> None:
    """DO L245: "Dropping loot does not require AP. Place the loot token on the board under
    your character figure"; DO L261: players on one space swap loot freely."""
    s = arranged(table(seats=2), at=10)
    s.heroes[1].at = 11
    (coin,) = holding(s, 0, "coin")
    s, events = play(s, 0, "drop", token=coin)
    assert of(events, "LootDropped") == [{"seat": 0, "token": coin, "space": 10}]
    assert seen(s)["loot_face_up"] == {"10": [{"token": coin, "face": "coin"}]} and s.heroes[0].ap == 0
    assert offered(s, 1, "take") == []  # seat 1 is not on 10
    s, _ = play(s, 1, "move", to=10)
    s, _ = play(s, 1, "take", token=coin)
    assert s.heroes[1].inventory == [coin] and s.heroes[1].ap == 1 and seen(s)["loot_face_up"] == {}


def test_dropped_loot_still_lying_is_removed_at_the_next_omen() -> None:
    """DO L245: "If it has not been picked up by the start of the next Omen, remove it as
    part of the usual Omen loot replacement"."""
    s = arranged(table(), at=10)
    (coin,) = holding(s, 0, "coin")
    s, _ = play(s, 0, "drop", token=coin)
    s, _ = rounds_ended(s, 3)
    assert seen(s)["loot_face_up"] == {"10": [{"token": coin, "face": "coin"}]}  # all day long
    s, events = rounds_ended(s, 1)
    assert "OmenDrawn" in types(events) and seen(s)["loot_face_up"] == {}


def test_the_chicken_comes_with_the_angry_chicken_card_and_leaves_with_it() -> None:
    """DO L257: "Immediate: Draw the 'Angry Chicken' item card. If the card would be
    discarded, remove this loot token as well - and visa versa"; it is a potion ingredient."""
    s = arranged(table(), at=10)
    holding(s, 0, "mushroom")
    face_down(s, 10, "chicken")
    s, events = play(s, 0, "loot")
    assert of(events, "GearGained")[0]["gear"] == "angry_chicken" and "angry_chicken" in s.heroes[0].gear
    s, events = play(s, 0, "craft", recipe="fast_mp")
    assert of(events, "GearLost")[0]["gear"] == "angry_chicken"
    assert "angry_chicken" not in s.heroes[0].gear and s.heroes[0].inventory == []


def test_only_tokens_with_a_coin_symbol_sell_for_their_value() -> None:
    """DO L250-251: ring 2 gold, coin 1 gold, "at any location" with trade; DO L334:
    "Unless a loot token shows a coin symbol, they cannot be sold for gold"."""
    s = arranged(table(), at="Hoglichten:market")
    coin, ring, herb, skull = holding(s, 0, "coin", "ring", "herb_blue", "ceremonial_skull")
    assert {a["token"] for a in offered(s, 0, "sell_token")} == {coin, ring}
    s, _ = play(s, 0, "sell_token", token=ring)
    s, _ = play(s, 0, "sell_token", token=coin)
    assert s.heroes[0].gold == 3 and s.heroes[0].inventory == [herb] and s.heroes[0].ap == 0
    with pytest.raises(RuleError):
        play(s, 0, "sell_token", token=herb)


def test_a_gear_scroll_buys_a_gear_of_the_chapter_level() -> None:
    """DO L253: "Gear: Can be traded at any location for a gear of the same level" (facts
    §9: the chapter's level, the player's choice), for no gold."""
    s = arranged(table(chapter=2), at="Hoglichten:market")
    (scroll,) = holding(s, 0, "gear_scroll")
    stock = {g["id"]: g["level"] for g in seen(s)["market"]["stock"]}
    picks = offered(s, 0, "redeem")
    assert picks and {stock[a["gear"]] for a in picks} == {2}
    assert any(level == 1 for level in stock.values())  # the market sells level 1 too
    s, events = play(s, 0, "redeem", **picks[0])
    assert picks[0]["gear"] in s.heroes[0].gear and s.heroes[0].inventory == [] and s.heroes[0].gold == 0


def test_dung_is_a_2_damage_throw_that_ignores_armour() -> None:
    """DO L254: "Crap: 2 direct damage attack"; DO L384: direct damage ignores armor;
    facts §9: thrown for 0 AP, then discarded."""
    s = arranged(table(), at=10)
    enemy(s, armor=3, hp=10)
    (dung,) = holding(s, 0, "dung")
    s, events = play(s, 0, "throw", token=dung, creature="e1")
    assert of(events, "CreatureHurt")[0]["damage"] == 2
    assert creature(s)["hp"] == 8 and s.heroes[0].inventory == [] and s.heroes[0].ap == 0  # type: ignore[index]


def test_nothing_to_throw_at_without_an_enemy_on_the_space() -> None:
    s = arranged(table(), at=10)
    enemy(s, space=11)
    holding(s, 0, "dung")
    assert offered(s, 0, "throw") == []


def test_heroes_on_one_space_swap_potions_and_only_there() -> None:
    """DO L261: "Players that share the same space can freely swap loot and items"."""
    s = arranged(table(seats=2), at=10)
    (egg,) = holding(s, 0, "quail_eggs")
    s.heroes[1].at = 11
    assert offered(s, 0, "give") == []
    s.heroes[1].at = 10
    s, events = play(s, 0, "give", token=egg, to=1)
    assert of(events, "LootGiven") == [{"seat": 0, "token": egg, "to": 1}]
    assert (s.heroes[0].potions, s.heroes[1].potions) == ([], [egg])
