"""Dark Omen's log lines as the server tells them (issue 15): heroes named by player and
character from the game's log context, a fallen hero by the character who fell, and the
town's dice (haggling, Draugr Dice, Hard Life) with what they won."""

from __future__ import annotations

import json
import re
from pathlib import Path

from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.describe import describe
from app.games.dark_omen.engine import RULES
from app.kernel import table as kernel
from app.kernel.types import SPECTATOR, Event
from tests.games.dark_omen.harness import table

ROOT = Path(__file__).resolve().parents[2]
NAMES = {0: ("Ann", "Visko"), 1: ("Bo", "Ragna")}


def line(kind: str, **data: object) -> str:
    return describe(Event(kind, data), NAMES)


def test_the_log_context_is_each_seats_player_and_character() -> None:
    state = table(2)
    context = DARK_OMEN.log_context(state)
    characters = DARK_OMEN.view(state, SPECTATOR)["heroes"]
    assert context == {0: ("P1", characters[0]["character"]), 1: ("P2", characters[1]["character"])}
    moved = Event("HeroMoved", {"seat": 1, "to": 48, "mp": 0})
    assert (
        kernel.describe(DARK_OMEN, moved, context) == f"P2\u2019s {characters[1]['character']} moves to 48."
    )
    assert kernel.describe(DARK_OMEN, moved) == "Player 2 moves to 48."  # no context: the seat


def test_heroes_are_named_and_a_fallen_one_by_the_character_who_fell() -> None:
    assert (
        line("HeroMoved", seat=0, to="Hoglichten:market", mp=0)
        == "Ann\u2019s Visko moves to Hoglichten's market."
    )
    assert line("HeroMoved", seat=1, to=12, mp=4) == "Bo\u2019s Ragna moves to 12, 4 MP to cross."
    assert line("HeroDied", seat=0, character="nyrkki", space=12) == (
        "Ann\u2019s Nyrkki falls on 12 and rises as a zombie."
    )
    assert line("HeroJoined", seat=0, character="visko", at="Ravensden:gate") == (
        "Ann takes up Visko at Ravensden's gate."
    )
    assert (
        line("TeamAnswered", seat=1, leader=0, join=True)
        == "Bo\u2019s Ragna joins Ann\u2019s Visko\u2019s team attack."
    )
    assert line("TeamWithdrawn", seat=0, why="launched") == "Ann\u2019s Visko launches the team attack."


def test_a_haggle_shows_its_dice_and_what_it_won() -> None:
    light = line("DiscountSet", seat=0, n=1, rolls=[[2, 4], [5, 3]])
    assert light == (
        "Ann\u2019s Visko haggles lightly: 2 against the merchant\u2019s 4, then 5 against the "
        "merchant\u2019s 3 \u2014 1 gold off the next purchase."
    )
    heavy = line("DiscountSet", seat=1, n=0, rolls=[[3], [4]])
    assert heavy == "Bo\u2019s Ragna haggles hard: rolls 3, then 4 (5 or more wins) \u2014 no discount."
    assert line("DiscountSet", seat=0, n=0) == ""  # a discount spent on a purchase


def test_a_game_of_chance_tells_the_house_dice_and_who_takes_the_ante() -> None:
    assert (
        line("GambleOpened", seat=0, game="hard_life", invited=[])
        == "Ann\u2019s Visko opens a game of Hard Life."
    )
    assert line("GambleStarted", host=0, players=[0], ante=3, house=[4, 5]) == (
        "The game starts: an ante of 3 gold; the house sets aside 4 and 5."
    )
    house_wins = line(
        "GambleEnded",
        host=0,
        game="draugr",
        scores={"0": [1, 3, 4, 5, 6]},
        house=[3, 1, 1, 2],
        winners=[],
        push=[],
    )
    assert house_wins == "Draugr Dice: the house rolls 3, 1, 1 and 2 (score 4); the house wins the ante."
    shared = line(
        "GambleEnded", host=0, game="draugr", scores={}, house=[6, 6, 6, 5], winners=[0, 1], push=[]
    )
    assert shared.endswith("(score 23); Ann\u2019s Visko and Bo\u2019s Ragna share the ante.")
    push = line("GambleEnded", host=1, game="hard_life", scores={}, house=[6, 6, 5], winners=[], push=[1])
    assert (
        push
        == "Hard Life: the house rolls 6, 6 and 5 (total 17); a push: Bo\u2019s Ragna take the stake back."
    )


def test_every_event_type_has_its_own_words() -> None:
    """No line of the log is an event's raw type: each type the engine writes has a case
    in ``describe`` (the golden campaign's events are all told in words, too)."""
    source = Path(describe.__code__.co_filename).read_text()
    told = set(re.findall(r'"([A-Z][A-Za-z]+)"', source[source.index("def describe(") :]))
    assert set(RULES.versions) <= told, sorted(set(RULES.versions) - told)
    doc = json.loads((ROOT / "tests" / "golden" / "games" / "do-campaign-2seats.json").read_text())
    state = DARK_OMEN.initial_state()
    for raw in doc["events"]:
        event = Event(raw["type"], raw["data"], raw.get("v", 1))
        state = DARK_OMEN.evolve(state, event)
        text = kernel.describe(DARK_OMEN, event, DARK_OMEN.log_context(state))
        assert text != event.type, text
