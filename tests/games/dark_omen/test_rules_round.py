"""Action points, the round barrier and the order of a day (DO L109-122, L172-181,
L209-215, L252, L286-289), played through offered commands only."""

from __future__ import annotations

import pytest

from app.kernel.types import RuleError
from tests.games.dark_omen.harness import arranged, choices, of, play, table
from tests.games.dark_omen.positions import face_down, holding, offered, rounds_ended, seen, types


def ap_left(s: object, seat: int) -> int:
    return seen(s)["heroes"][seat]["ap_left"]  # type: ignore[arg-type]


# -- six action points a round (DO L113, L210-211) --------------------------------------------------


def test_no_more_than_6_ap_a_round_then_the_seat_waits_for_the_others() -> None:
    """DO L211: "You cannot spend more than 6 action points per round … you must wait on
    the 6th square until all player cubes are on that square"."""
    s = arranged(table(seats=2))
    for _ in range(6):
        s, _ = play(s, 0, "meditate")
    assert s.heroes[0].done and ap_left(s, 0) == 0 and s.round == 1
    assert {t for t, _ in choices(s, 0)} & {"move", "meditate", "loot", "attack"} == set()
    with pytest.raises(RuleError):
        play(s, 0, "meditate")
    s, events = play(s, 1, "meditate")
    assert "RoundBegan" not in types(events)  # the round still waits on seat 1
    s, events = play(s, 1, "end_round")
    assert of(events, "RoundBegan")[0]["round"] == 2
    assert [ap_left(s, i) for i in (0, 1)] == [6, 6] and not s.heroes[0].done


def test_forfeiting_ends_the_round_and_the_unspent_ap_lapse() -> None:
    """DO L211: a round ends "by spending 6 AP or by choosing to forfeit the remainder";
    nothing saved carries into the next round (6 again, not 10)."""
    s = arranged(table())
    s, _ = play(s, 0, "meditate")
    s, _ = play(s, 0, "meditate")
    s, events = play(s, 0, "end_round")
    assert of(events, "RoundPassed") == [{"seat": 0}]
    assert of(events, "RoundBegan")[0]["ap_limits"] == [6]
    assert ap_left(s, 0) == 6


def test_four_rounds_make_a_day_its_last_two_by_night() -> None:
    """DO L111-112, L116: 1 day = 4 rounds; DO L122: the inner circle is split into day and
    night (facts §3: rounds 1–2 day, 3–4 night)."""
    s = arranged(table())
    nights = [seen(s)["night"]]
    for _ in range(3):
        s, _ = rounds_ended(s, 1)
        nights.append(seen(s)["night"])
    assert nights == [False, False, True, True] and s.day == 1
    s, events = rounds_ended(s, 1)
    assert of(events, "DayBegan") == [{"chapter": 1, "day": 2}]
    assert (s.round, seen(s)["night"]) == (1, False)


def test_traveler_s_bread_is_the_only_way_past_6_ap() -> None:
    """DO L252: "Travelers bread: 1 extra action (+1 AP). Can be stored … and used when
    needed"; eating it costs nothing (DO L223) and the extra AP lasts the round."""
    s = arranged(table())
    (bread,) = holding(s, 0, "bread")
    s, _ = play(s, 0, "eat", token=bread)
    assert s.heroes[0].inventory == [] and ap_left(s, 0) == 7 and s.heroes[0].ap == 0
    for _ in range(7):
        s, _ = play(s, 0, "meditate")
    assert s.heroes[0].mp == 22
    s, events = rounds_ended(s, 1)
    assert of(events, "RoundBegan")[0]["ap_limits"] == [6]


def test_a_trap_costs_an_ap_now_or_next_round_if_none_are_left() -> None:
    """DO L80: the trap loot token (−1 AP); facts §7: with no AP left this round, the debt
    falls on the next one."""
    s = arranged(table(), at=10)
    face_down(s, 10, "trap")
    s, events = play(s, 0, "loot")
    assert of(events, "LootRevealed")[0]["face"] == "trap"
    assert ap_left(s, 0) == 4  # 1 AP to flip it, 1 lost to the trap
    s = arranged(table(), at=10)
    for _ in range(5):
        s, _ = play(s, 0, "meditate")
    face_down(s, 10, "trap")
    s, events = play(s, 0, "loot")  # the 6th AP: the round ends at once, the debt carried
    assert of(events, "RoundBegan")[0]["ap_limits"] == [5] and ap_left(s, 0) == 5


# -- meditation (DO L286-289) ----------------------------------------------------------------------


def test_meditation_gives_1_mp_per_ap_anywhere_and_again() -> None:
    """DO L288: "Gain 1 MP for each 1 AP you spend … you may do it multiple times in a day,
    and your location does not limit your ability to meditate"."""
    for at in (10, "Hoglichten:market"):
        s = arranged(table(), at=at, mp=10)
        for _ in range(3):
            s, _ = play(s, 0, "meditate")
        assert (s.heroes[0].mp, ap_left(s, 0)) == (13, 3)


def test_no_meditation_on_a_day_without_an_omen() -> None:
    """DO L289: "for as long as there is no active omen, you cannot meditate" (a Light
    chapter has no omen on day 3, DO L127)."""
    s = arranged(table(difficulty="light"))
    s, _ = rounds_ended(s, 8)
    assert s.day == 3 and seen(s)["omen"] is None
    assert offered(s, 0, "meditate") == []
    with pytest.raises(RuleError):
        play(s, 0, "meditate")


# -- the order of a day (DO L150, L167-181) --------------------------------------------------------


def test_day_2_draws_its_omen_which_sets_the_tabs_and_casts_no_runes() -> None:
    """DO L150: runes are cast on days 1, 3 and 6 only; DO L167: an omen may set the tabs
    (Demonic Weather: white on 1, clear on 7), then there is no Obstacle Throw (DO L180);
    loot is refilled only after a rune throw (DO L176)."""
    s = arranged(table())
    s, events = rounds_ended(s, 4)
    assert "RunesCast" not in types(events) and "LootDealt" not in types(events)
    day = types(events)[types(events).index("DayBegan") :]
    assert day[:3] == ["DayBegan", "OmenDrawn", "LayersTurned"]
    assert of(events, "LayersTurned")[0]["rolls"] == []
    assert seen(s)["tabs"] == {"white": 1, "clear": 7}


def test_day_3_casts_runes_refills_the_loot_then_throws_the_obstacles() -> None:
    """DO L174-180, in order: the tracker moves, the rune throw on day 3 (4 runes for each
    player, DO L149), the missing loot replaced, then, with no omen setting the tabs, the
    Obstacle Throw; empty loot spaces are filled (DO L82)."""
    s = arranged(table(seats=2, difficulty="light"))
    s, _ = rounds_ended(s, 4)
    assert seen(s)["loot_face_down"] == []  # day 2 refilled nothing
    s, events = rounds_ended(s, 4)
    order = [t for t in types(events) if t in ("DayBegan", "RunesCast", "LootDealt", "LayersTurned")]
    assert order == ["DayBegan", "RunesCast", "RunesCast", "LootDealt", "LayersTurned"]
    assert [len(cast["runes"]) for cast in of(events, "RunesCast")] == [4, 4]
    assert [cast["seat"] for cast in of(events, "RunesCast")] == [0, 1]
    assert len(seen(s)["loot_face_down"]) == len(of(events, "LootDealt")[0]["spaces"]) > 20


def test_the_obstacle_throw_turns_even_rolls_clockwise_and_odd_ones_back() -> None:
    """DO L169-171: a d6 per layer; 2, 4 or 6 clockwise that many spaces, 1, 3 or 5
    counterclockwise (on a ring of 37 sectors, facts §4)."""
    s = arranged(table(difficulty="light"))
    s, _ = rounds_ended(s, 7)
    before = seen(s)["layers"]
    s, events = rounds_ended(s, 1)
    (thrown,) = of(events, "LayersTurned")
    assert thrown["why"] == "the Obstacle Throw" and len(thrown["rolls"]) == 2
    for layer, roll in zip(("white", "clear"), thrown["rolls"], strict=True):
        turn = roll if roll % 2 == 0 else -roll
        assert seen(s)["layers"][layer] == (before[layer] + turn) % 37 == thrown[layer]


def test_immediate_runes_act_and_return_to_the_deck() -> None:
    """DO L155: "Immediate cards perform their effect after being drawn and are then
    returned"; the others stay in front of the player."""
    s = arranged(table(difficulty="light"))
    s, events = rounds_ended(s, 8)
    cast = of(events, "RunesCast")[0]["runes"]
    returned = [d["rune"] for d in of(events, "RuneDiscarded")]
    assert set(returned) <= set(cast)
    kept = [r["id"] for r in seen(s)["heroes"][0]["runes"]]
    assert sorted(kept + returned) == sorted(cast)
