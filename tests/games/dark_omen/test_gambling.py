"""The tavern's games, scored as written (DO L342-358; facts §23, 12)."""

from __future__ import annotations

from app.games.dark_omen.rules.gambling import (
    draugr_score,
    draugr_winners,
    hard_life_house,
    hard_life_result,
    shoots_the_moon,
)


def test_draugr_scores_count_3s_as_zero_and_the_house_can_win() -> None:
    assert draugr_score([3, 3, 1, 2, 6]) == 9
    assert draugr_score([1, 1, 4, 4, 2]) == 12
    assert draugr_score([3, 3, 3, 1]) == 1
    assert draugr_winners({0: [3, 3, 1, 2, 6], 1: [1, 1, 4, 4, 2]}, [3, 3, 3, 1]) is None


def test_draugr_ties_go_to_the_most_1s() -> None:
    a, b = [1, 1, 4, 6, 3], [2, 2, 4, 4, 3]
    assert draugr_score(a) == draugr_score(b) == 12
    assert draugr_winners({0: a, 1: b}, [6, 6, 6, 4]) == [0]
    assert draugr_winners({0: a, 1: list(a)}, [6, 6, 6, 4]) == [0, 1]  # identical dice split


def test_five_sixes_shoot_the_moon() -> None:
    assert shoots_the_moon([6] * 5)
    assert draugr_winners({0: [6] * 5, 1: [1, 1, 1, 1, 1]}, [3, 3, 3, 3]) == [0]


def test_hard_life_the_house_draws_to_17_and_a_wins() -> None:
    """House 6,5; A 6,6,6 stands; B 5,5,4 then 6 busts; the house draws a 6 for 17."""
    draws = iter([6])
    house = hard_life_house([6, 5], 18, lambda: next(draws))
    assert house == [6, 5, 6]
    assert hard_life_result({0: 18, 1: 20}, sum(house)) == [0]


def test_hard_life_the_house_stops_on_15_tied_with_the_best_player_a_push() -> None:
    assert hard_life_house([6, 4, 5], 15, lambda: 6) == [6, 4, 5]
    assert hard_life_result({0: 15}, 15) == []


def test_hard_life_the_house_wins_by_beating_every_player() -> None:
    assert hard_life_house([6, 6], 11, lambda: 1) == [6, 6]
    assert hard_life_result({0: 11}, 12) is None
    assert hard_life_result({0: 19}, 12) is None
