"""Towns and trading places (DO L292-296, L305-306, L328-340; facts §13): buying within
your level, light and heavy haggling, selling gear, the smith, resting at the tavern, the
healer, and the once-a-day trading post and village, played through offered commands."""

from __future__ import annotations

import pytest

from app.kernel.types import RuleError
from tests.games.dark_omen.harness import arranged, of, play, table
from tests.games.dark_omen.positions import holding, offered, rounds_ended, seen, unlocked

MARKET = "Hoglichten:market"


def stock(s: object) -> dict[str, dict[str, object]]:
    return {g["id"]: g for g in seen(s)["market"]["stock"]}  # type: ignore[arg-type]


# -- buying (DO L332-333) ---------------------------------------------------------------------------


def test_trading_costs_no_ap_and_sells_gear_of_your_level_or_lower() -> None:
    """DO L332: "you do not need to spend AP to interact"; DO L333: "You can purchase gear
    equal to or lower than your level, but not higher than it"."""
    s = arranged(table(chapter=2), at=MARKET, gold=30)
    levels = {g["level"] for g in stock(s).values()}
    assert levels == {1, 2}
    bought = offered(s, 0, "buy")
    assert {a["gear"] for a in bought} == set(stock(s))
    gear = bought[0]["gear"]
    s, events = play(s, 0, "buy", gear=gear)
    assert s.heroes[0].gold == 30 - stock(s)[gear]["price"] and gear in s.heroes[0].gear  # type: ignore[operator]
    assert s.heroes[0].ap == 0


def test_gear_is_offered_only_within_the_purse() -> None:
    """DO L333: the market value is the price on the card."""
    s = arranged(table(), at=MARKET, gold=2)
    prices = {a["gear"]: stock(s)[a["gear"]]["price"] for a in offered(s, 0, "buy")}
    assert prices and max(prices.values()) == 2  # type: ignore[type-var]
    dear = next(g for g, card in stock(s).items() if card["price"] == 3)
    with pytest.raises(RuleError):
        play(s, 0, "buy", gear=dear)


def test_a_card_owned_by_a_hero_is_not_in_the_market() -> None:
    """Facts §13 (decision): the market sells any gear of an allowed level nobody owns."""
    s = arranged(table(seats=2), at=MARKET, gold=10)
    s.heroes[1].gear = ["g1_w0"]
    assert {"gear": "g1_w0"} not in offered(s, 0, "buy")


# -- haggling (DO L335-336) ------------------------------------------------------------------------


def test_light_haggling_two_roll_offs_for_1_mp_and_1_gold_off_per_level() -> None:
    """DO L335: 1 MP; your die against a monster die; higher takes 1 gold per player level
    off one purchase; "You may do this roll-off twice"."""
    s = arranged(table(chapter=2), at=MARKET, gold=10)
    s, events = play(s, 0, "haggle", [3, 5, 4, 2], style="light")
    assert of(events, "DiscountSet")[0] == {"seat": 0, "n": 2, "rolls": [[3, 5], [4, 2]]}
    assert (s.heroes[0].mp, s.heroes[0].discount, s.heroes[0].ap) == (14, 2, 0)
    assert offered(s, 0, "haggle") == []  # discounts do not stack (facts §13)
    gear = next(g for g, card in stock(s).items() if card["price"] == 5)
    s, _ = play(s, 0, "buy", gear=gear)
    assert (s.heroes[0].gold, s.heroes[0].discount) == (10 - 3, 0)


def test_light_haggling_lost_twice_costs_another_mp_to_try_again() -> None:
    """DO L335: "if you still fail after the second roll you would need to spend another 1
    MP to haggle again"; a tie is not higher."""
    s = arranged(table(), at=MARKET)
    s, events = play(s, 0, "haggle", [2, 5, 4, 4], style="light")
    assert of(events, "DiscountSet")[0]["n"] == 0 and s.heroes[0].hp == 15
    assert {"style": "light"} in offered(s, 0, "haggle")
    s, _ = play(s, 0, "haggle", [6, 1], style="light")
    assert (s.heroes[0].mp, s.heroes[0].discount) == (13, 1)


def test_heavy_haggling_a_5_or_6_takes_2_gold_per_level_off() -> None:
    """DO L336: 2 MP; "If your result is a 5 or a 6, you may purchase one item at a reduced
    price of 2 gold per player level"."""
    s = arranged(table(chapter=2), at=MARKET)
    s, events = play(s, 0, "haggle", [5], style="heavy")
    assert of(events, "DiscountSet")[0]["rolls"] == [[5]]
    assert (s.heroes[0].mp, s.heroes[0].discount) == (13, 4)


def test_heavy_haggling_failed_twice_earns_a_beating() -> None:
    """DO L336: "if you fail the second time you get a beating by the guard and lose 1 HP"."""
    s = arranged(table(), at=MARKET)
    s, events = play(s, 0, "haggle", [4, 3], style="heavy")
    assert of(events, "DiscountSet")[0] == {"seat": 0, "n": 0, "rolls": [[4], [3]]}
    assert (s.heroes[0].mp, s.heroes[0].hp) == (13, 14)


def test_no_haggling_without_the_morale() -> None:
    s = arranged(table(), at=MARKET, mp=1)
    assert offered(s, 0, "haggle") == [{"style": "light"}]
    s = arranged(table(), at=MARKET, mp=0)
    assert offered(s, 0, "haggle") == []


# -- selling and the smith (DO L337-340) ------------------------------------------------------------


def test_gear_sells_for_1_gold_per_level() -> None:
    """DO L337: "return them to the gear deck and receive 1 gold per level of the item"."""
    s = arranged(table(chapter=2), at=MARKET)
    level_2 = next(g for g, card in stock(s).items() if card["level"] == 2)
    s.heroes[0].gear = ["g1_w0", level_2]
    s, _ = play(s, 0, "sell", gear=level_2)
    s, _ = play(s, 0, "sell", gear="g1_w0")
    assert (s.heroes[0].gold, s.heroes[0].gear, s.heroes[0].ap) == (3, [], 0)
    assert level_2 in stock(s)  # back in the deck


def test_the_smith_restores_charges_for_1_ap_and_1_gold_per_level() -> None:
    """DO L339-340: torches have counters that are spent and "need to be restored … by
    paying 1 gold per level of the gear as well as a time investment of 1 AP"."""
    s = arranged(table(), at=MARKET, gold=1)
    s.heroes[0].gear, s.heroes[0].charges = ["g1_t0"], {"g1_t0": 0}
    s, events = play(s, 0, "repair", gear="g1_t0")
    assert of(events, "ChargesSet")[0]["n"] > 0
    assert (s.heroes[0].gold, s.heroes[0].ap) == (0, 1)
    assert offered(s, 0, "repair") == []  # nothing left to restore
    s = arranged(table(), at=MARKET, gold=0)
    s.heroes[0].gear, s.heroes[0].charges = ["g1_t0"], {"g1_t0": 0}
    assert offered(s, 0, "repair") == []


# -- the tavern and the healer (DO L294-296, L329-330) ---------------------------------------------


def test_resting_at_the_tavern_costs_a_gold_then_gives_2_hp_and_1_mp_per_ap() -> None:
    """DO L329: "You must pay 1 gold to enter the space if you are resting at a town";
    DO L330: "For every 1 AP spent, you recover 2 health and 1 morale"."""
    s = arranged(table(), at="Hoglichten:tavern", gold=1, hp=10, mp=10)
    s, _ = play(s, 0, "rest")
    s, _ = play(s, 0, "rest")
    assert (s.heroes[0].hp, s.heroes[0].mp, s.heroes[0].gold, s.heroes[0].ap) == (14, 12, 0, 2)
    s = arranged(table(), at="Hoglichten:tavern", gold=0, hp=10)
    assert offered(s, 0, "rest") == []


def test_the_healer_lifts_a_moon_rune_for_3_gold_or_5_loot() -> None:
    """DO L296: "Heal yourself from a Moon Rune by paying 3 Gold or 5 loot tokens. Then
    discard this Rune card" (a city action, 1 AP, DO L225); other houses stay."""
    s = arranged(table(), at="Hoglichten:healer", gold=3)
    s.heroes[0].runes = ["moon_thurisaz", "sun_thurisaz"]
    assert offered(s, 0, "cleanse") == [{"rune": "moon_thurisaz", "pay": "gold"}]
    paid, events = play(s, 0, "cleanse", rune="moon_thurisaz", pay="gold")
    assert of(events, "RuneDiscarded")[0]["rune"] == "moon_thurisaz"
    assert (paid.heroes[0].runes, paid.heroes[0].gold, paid.heroes[0].ap) == (["sun_thurisaz"], 0, 1)
    s.heroes[0].gold = 2
    holding(s, 0, "coin", "coin", "herb_blue", "tick", "ring")
    assert offered(s, 0, "cleanse") == [{"rune": "moon_thurisaz", "pay": "loot"}]
    paid, events = play(s, 0, "cleanse", rune="moon_thurisaz", pay="loot")
    assert len(of(events, "LootSpent")[0]["tokens"]) == 5 and paid.heroes[0].inventory == []


# -- trading posts and villages (DO L305-306) ------------------------------------------------------


def test_a_trading_post_trades_once_a_day() -> None:
    """DO L305: "Once per day you can do a trade action while on this space"."""
    s = arranged(table(), gold=10)
    s = unlocked(s, 0, 16)
    assert seen(s)["locations"]["16"]["kind"] == "trading_post"
    s, _ = play(s, 0, "buy", gear="g1_w0")
    assert offered(s, 0, "buy") == [] and offered(s, 0, "haggle") == []
    s, _ = rounds_ended(s, 1)
    assert offered(s, 0, "buy") == []  # still today
    s, _ = rounds_ended(s, 3)
    assert s.day == 2 and offered(s, 0, "buy")


def test_a_village_repair_is_once_a_day_and_leaves_its_other_actions() -> None:
    """DO L306: "Village: Trade, repair, or gamble. Each action can be done here only once
    per day"."""
    s = arranged(table(), gold=10)
    s = unlocked(s, 0, 34)
    s.heroes[0].gear, s.heroes[0].charges = ["g1_t0"], {"g1_t0": 0}
    assert offered(s, 0, "repair") and offered(s, 0, "gamble") and offered(s, 0, "buy")
    s, _ = play(s, 0, "repair", gear="g1_t0")
    s.heroes[0].charges = {"g1_t0": 0}
    assert offered(s, 0, "repair") == [] and offered(s, 0, "gamble") and offered(s, 0, "buy")
