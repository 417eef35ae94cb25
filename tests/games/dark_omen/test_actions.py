"""What one seat may do now (DO L210-358), tested on the choice functions of the rule
modules themselves (``rules/round.py``, ``market.py``, ``potions.py``, ``battle.py``):
where a hero may trade, fast crafting, equipping, and which dice a team member
contributes."""

from __future__ import annotations

from app.games.dark_omen.content import load
from app.games.dark_omen.rules.battle import contributed_indices
from app.games.dark_omen.rules.heroes import ap_left, slots_for
from app.games.dark_omen.rules.market import equip_choices, trade_place
from app.games.dark_omen.rules.potions import craft_choices
from app.games.dark_omen.rules.round import seat_choices
from app.games.dark_omen.state import Location
from tests.games.dark_omen.harness import arranged, enemy, table
from tests.games.dark_omen.test_rules import holding

C = load()


def kinds(choices: list) -> list[str]:  # type: ignore[type-arg]
    return [c.type for c in choices]


def test_a_seat_with_ap_may_act_and_always_end_its_round() -> None:
    """DO L211: no more than 6 AP a round; a seat is done at 6 AP spent or when it
    forfeits the rest."""
    s = arranged(table())
    h = s.heroes[0]
    offered = kinds(seat_choices(s, C, 0))
    assert "move" in offered and "meditate" in offered and offered[-1] == "end_round"
    h.ap = h.ap_limit  # every AP spent
    offered = kinds(seat_choices(s, C, 0))
    assert "move" not in offered and "meditate" not in offered and "end_round" in offered
    assert ap_left(h) == 0


def test_a_fallen_hero_without_a_new_character_question_is_offered_nothing() -> None:
    s = arranged(table())
    s.heroes[0].hp, s.heroes[0].pending = 0, None
    s.heroes[0].alive = False  # type: ignore[misc]
    assert seat_choices(s, C, 0) == []


def test_trading_happens_at_a_market_or_an_open_trading_post_once_a_day() -> None:
    """DO L305-306: a market, or an unlocked Trading Post or Village, once a day each."""
    s = arranged(table(), at=10)
    h = s.heroes[0]
    assert trade_place(s, h) is None  # an empty space
    h.at = "Hoglichten:market"
    assert trade_place(s, h) == "market"
    h.at = "Hoglichten:tavern"
    assert trade_place(s, h) is None
    h.at = 10
    s.locations[10] = Location("trading_post")
    assert trade_place(s, h) is None  # still face down
    s.locations[10].open = True
    assert trade_place(s, h) == "trading_post"
    h.used.append("day:trade:10")
    assert trade_place(s, h) is None  # traded there today


def test_fast_crafting_needs_two_ingredients_for_mp_and_three_for_hp() -> None:
    """DO L264-267: fast crafting, 2 potion ingredients make 4 MP, 3 make 4 HP; blood of
    the beast may be used to craft potions (DO L422)."""
    s = arranged(table())
    h = s.heroes[0]
    assert craft_choices(s, C, h) == []
    holding(s, 0, "chicken", "mushroom")
    assert [c.args["recipe"] for c in craft_choices(s, C, h)] == ["fast_mp"]
    h.blood = 1
    recipes = [c.args["recipe"] for c in craft_choices(s, C, h)]
    assert recipes[:2] == ["fast_mp", "fast_hp"]


def test_equipping_is_free_unless_engaged_then_it_costs_1_ap_once_a_round() -> None:
    """DO L234, L386 (facts: "Equip while engaged: 1 AP, once per round"): gear is
    exchanged freely, but engaged with an enemy it costs 1 AP, once per round."""
    s = arranged(table(), at=10)
    h = s.heroes[0]
    h.gear = ["g1_w0"]
    free = equip_choices(s, C, h)
    assert [c.args for c in free] == [{"hero": 0, "gear": "g1_w0", "slot": "primary"}]
    assert "(1 AP)" not in free[0].label
    enemy(s, space=10)
    engaged = equip_choices(s, C, h)
    assert len(engaged) == 1 and engaged[0].label.endswith("(1 AP)")
    h.used.append("round:equip")
    assert equip_choices(s, C, h) == []
    h.gear.append("g1_t0")
    assert slots_for(C.gear["g1_t0"]) == ["accessory1", "accessory2"]


def test_a_team_member_contributes_its_highest_die_or_two_when_heroic() -> None:
    """DO L427: in a team attack each member contributes one die, its highest; heroic, its
    two highest (DO L434); a solo attack keeps every die, highest first."""
    dice = [2, 6, 4]
    assert contributed_indices(dice, heroic=False, team=True) == [1]
    assert contributed_indices(dice, heroic=True, team=True) == [1, 2]
    assert contributed_indices(dice, heroic=False, team=False) == [1, 2, 0]
