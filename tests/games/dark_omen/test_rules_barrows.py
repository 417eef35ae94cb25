"""Barrows (DO L315-325; facts §12): searching an empty space with k AP, exploring with a
torch, keeping and rerolling, pairs, straights, guardians, four of a kind and the pitch
black, played through offered commands with rigged dice."""

from __future__ import annotations

import pytest

from app.games.dark_omen.state import State
from app.kernel.types import RuleError
from tests.games.dark_omen.harness import arranged, choices, enemy, of, play, table
from tests.games.dark_omen.positions import creature, face_down, holding, offered, reroll, rounds_ended, seen


def at_a_barrow(charges: int = 2) -> State:
    """Chapter 2, a barrow found on 12 with 1 AP, a Rusty Torch with ``charges``."""
    s = arranged(table(chapter=2), at=12)
    s, _ = play(s, 0, "search_barrow", [1], ap=1)
    s.heroes[0].gear, s.heroes[0].charges = ["g1_t0"], {"g1_t0": charges}
    return s


def test_no_barrows_in_chapter_1() -> None:
    """DO L315: "From Chapter 2 onwards, Barrows can be used"."""
    assert offered(arranged(table(), at=12), 0, "search_barrow") == []
    assert offered(arranged(table(chapter=2), at=12), 0, "search_barrow") == [{"ap": k} for k in range(1, 7)]


def test_a_search_finds_a_barrow_on_a_roll_no_higher_than_the_ap_spent() -> None:
    """DO L316: "spend 1 AP to roll a D6. You discover a barrow if you roll a 1. You may
    spend extra AP to increase the success range by 1 each"; the marker stays."""
    s = arranged(table(chapter=2), at=12)
    s, events = play(s, 0, "search_barrow", [3], ap=3)
    assert of(events, "BarrowFound") == [{"seat": 0, "space": 12, "roll": 3}]
    assert seen(s)["barrows"] == [12] and s.heroes[0].ap == 3
    s, _ = rounds_ended(s, 1)
    assert seen(s)["barrows"] == [12]


def test_a_failed_search_cannot_be_tried_again_this_round() -> None:
    """DO L317: "If you fail your roll, you cannot try again until the next round"."""
    s = arranged(table(chapter=2), at=12)
    s, events = play(s, 0, "search_barrow", [4], ap=3)
    assert of(events, "BarrowMissed") == [{"seat": 0, "roll": 4}] and seen(s)["barrows"] == []
    assert offered(s, 0, "search_barrow") == []
    with pytest.raises(RuleError):
        play(s, 0, "search_barrow", [1], ap=1)
    s, _ = play(s, 0, "move", to=13)
    assert offered(s, 0, "search_barrow") == []  # elsewhere too
    s, _ = rounds_ended(s, 1)
    assert offered(s, 0, "search_barrow")


def test_a_barrow_is_searched_for_only_on_an_empty_space() -> None:
    """DO L316: "While on an empty space" (facts §12: no loot, location, enemy or town)."""
    s = arranged(table(chapter=2), at=12)
    face_down(s, 12, "coin")
    assert offered(s, 0, "search_barrow") == []
    s = arranged(table(chapter=2), at=47)  # the runehenge's token
    assert offered(s, 0, "search_barrow") == []
    s = arranged(table(chapter=2), at=12)
    enemy(s, space=12)
    assert offered(s, 0, "search_barrow") == []


def test_exploring_costs_1_ap_and_a_torch_charge() -> None:
    """DO L318: "Entering a barrow has two requirements: you spend 1 AP, and 1 torch
    charge"; a straw doll counts as a torch charge (DO L256)."""
    s = at_a_barrow(charges=0)
    assert offered(s, 0, "explore_barrow") == []
    holding(s, 0, "straw_doll")
    assert offered(s, 0, "explore_barrow") == [{}]
    s = at_a_barrow(charges=2)
    s, events = play(s, 0, "explore_barrow", [2, 2, 5])
    assert (
        of(events, "PendingRoll")[0]["dice"] == [2, 2, 5] and of(events, "PendingRoll")[0]["rolls_left"] == 2
    )
    assert (s.heroes[0].ap, s.heroes[0].charges) == (2, {"g1_t0": 1})


def test_a_pair_is_1_gold() -> None:
    """DO L320: "2 of a kind (2/2, 4/4, etc): 1 gold"."""
    s = at_a_barrow()
    s, _ = play(s, 0, "explore_barrow", [2, 2, 5])
    s, events = play(s, 0, "stand")
    assert of(events, "BarrowExplored")[0]["pattern"] == "pair" and s.heroes[0].gold == 1


def test_keep_and_reroll_twice_for_a_straight_of_3_gold() -> None:
    """DO L319: "Keep any dice you want, then reroll the rest. Repeat this keep and reroll
    one more time"; DO L321: "Straight (2/3/4, 4/5/6, etc): 3 gold"."""
    s = at_a_barrow()
    s, _ = play(s, 0, "explore_barrow", [1, 1, 5])
    s, events = reroll(s, 0, [6, 1], [1])
    assert of(events, "PendingRoll")[0]["rolls_left"] == 1
    s, events = reroll(s, 0, [4, 6], [1, 6])
    assert of(events, "PendingRoll")[0] == {"seat": 0, "kind": "barrow", "dice": [4, 6, 5], "rolls_left": 0}
    assert not any(t == "reroll" for t, _ in choices(s, 0))  # no third reroll
    s, events = play(s, 0, "stand")
    assert of(events, "BarrowExplored")[0] == {"seat": 0, "dice": [4, 6, 5], "pattern": "straight"}
    assert s.heroes[0].gold == 3 and s.heroes[0].pending is None


@pytest.mark.parametrize(("roll", "guardian"), [(3, "Screeching Specter"), (4, "Draugr Champion")])
def test_three_of_a_kind_wakes_the_artifacts_guardian(roll: int, guardian: str) -> None:
    """DO L322-323: "3 of a kind … An artifact guardian! … Roll a D6 and set up and fight
    the following: 1-3 a Screeching Specter or 4-6 a Draugr Champion"."""
    s = at_a_barrow()
    s, _ = play(s, 0, "explore_barrow", [4, 4, 4])
    s, events = play(s, 0, "stand", [roll])
    (placed,) = of(events, "CreaturePlaced")
    assert (placed["name"], placed["level"], placed["space"]) == (guardian, 2, 12)
    assert choices(s, 0) == [("attack", {"creature": placed["id"]})]  # it must be fought


def test_the_guardian_beaten_gives_an_artifact_and_the_barrow_is_gone() -> None:
    """DO L324: "Once defeated, draw a random artifact of your level (chapter) and below …
    and remove the barrow marker from the map"."""
    s = at_a_barrow()
    s.heroes[0].gear.append("g2_w2")
    s.heroes[0].equipped = {"primary": "g2_w2"}
    s, _ = play(s, 0, "explore_barrow", [4, 4, 4])
    s, _ = play(s, 0, "stand", [5])
    gained: list[dict[str, object]] = []
    for _ in range(6):
        if creature(s, "c1") is None:
            break
        s.heroes[0].ap = 0
        s, _ = play(s, 0, "attack", [6, 6, 1, 1], creature="c1")
        s, events = play(s, 0, "finalize", [6, 6])
        gained += of(events, "GearGained")
    assert creature(s, "c1") is None and seen(s)["barrows"] == []
    assert [g["why"] for g in gained] == ["an artifact from a barrow"]
    assert str(gained[0]["gear"]).startswith(("g1_r", "g2_r"))


def test_a_torch_adds_a_fourth_die_and_four_of_a_kind_is_an_artifact_and_3_gold() -> None:
    """DO L325: "spend another torch token to add a 4th die … If you now roll 4 of a kind,
    you'll find an artifact and 3 gold" (facts §12: no guardian then)."""
    s = at_a_barrow(charges=3)
    s, _ = play(s, 0, "explore_barrow", [4, 4, 1])
    s, events = play(s, 0, "torch_die", [4])
    assert of(events, "PendingRoll")[0]["dice"] == [4, 4, 1, 4] and s.heroes[0].charges == {"g1_t0": 1}
    assert not any(t == "torch_die" for t, _ in choices(s, 0))  # never more than 4 dice
    s, _ = reroll(s, 0, [4], [1])
    s, events = play(s, 0, "stand")
    assert of(events, "BarrowExplored")[0]["pattern"] == "four"
    assert s.heroes[0].gold == 3 and any(
        g["why"] == "an artifact from a barrow" for g in of(events, "GearGained")
    )
    assert seen(s)["barrows"] == [] and of(events, "CreaturePlaced") == []


def test_the_last_torch_spent_for_nothing_plunges_the_hero_into_the_dark() -> None:
    """DO L325: "should you have used your last torch token without finding anything, you
    plunge into pitch black darkness: Lose 5MP" and a Screeching Specter appears (chapters
    1 & 2); with a charge left, nothing happens."""
    s = at_a_barrow(charges=2)
    s, _ = play(s, 0, "explore_barrow", [1, 3, 6])
    s, events = play(s, 0, "stand")
    assert of(events, "BarrowExplored")[0]["pattern"] == "nothing" and s.heroes[0].mp == 15
    assert of(events, "CreaturePlaced") == []
    s = at_a_barrow(charges=1)
    s, _ = play(s, 0, "explore_barrow", [1, 3, 6])
    s, events = play(s, 0, "stand")
    assert s.heroes[0].mp == 10
    (placed,) = of(events, "CreaturePlaced")
    assert placed["name"] == "Screeching Specter" and of(events, "SurpriseAttack")[0]["seat"] == 0


def test_the_pitch_black_guardian_cannot_be_fled() -> None:
    """DO L325: the Specter of the pitch black darkness "needs to be fought until the end -
    you cannot flee this fight": after the surprise attack's first blow the hero may fight
    on (or end the round) but is offered no step off its space while the Specter lives."""
    s = at_a_barrow(charges=1)
    s, _ = play(s, 0, "explore_barrow", [1, 3, 6])
    s, _ = play(s, 0, "stand")
    (specter,) = [x for x in s.creatures if x.no_flee]
    s, _ = play(s, 0, "attack", [6, 1], creature=specter.id)
    s, _ = play(s, 0, "finalize", [1])
    assert specter.id in [x.id for x in s.creatures]  # still standing
    offered_types = {t for t, _ in choices(s, 0)}
    assert "attack" in offered_types and "end_round" in offered_types
    assert offered(s, 0, "move") == [] and offered(s, 0, "maze") == []
    s.creatures = [x for x in s.creatures if not x.no_flee]  # the Specter defeated
    assert offered(s, 0, "move") != []
