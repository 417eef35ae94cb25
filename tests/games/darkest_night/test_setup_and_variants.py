"""Setting up (DN 3.0) and the optional rules (DN 20.0)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.content import load
from app.games.darkest_night.options import difficulty
from app.kernel import table as kernel
from app.kernel.game import validate_options
from app.kernel.types import RuleError, SeatInfo, Viewer
from tests.games.darkest_night.harness import Table, run_steps

HEROES = ["prince", "valkyrie", "seer", "crusader"]


def test_standard_setup() -> None:
    """DN 3.1–3.4: relics in the Mountains, Forest, Ruins and Swamp; the Necromancer in the
    Ruins; one blight at each location but the Monastery; heroes in the Monastery at their
    defaults with 3 powers and a power deck of the other 10."""
    t = Table.start()
    s = t.state
    assert sorted(s.relics) == ["Forest", "Mountains", "Ruins", "Swamp"]
    assert s.necromancer == "Ruins" and s.darkness == 0 and s.clues == 0
    assert [
        len(s.blights[loc]) for loc in ("Mountains", "Castle", "Village", "Swamp", "Forest", "Ruins")
    ] == [1] * 6
    assert s.blights["Monastery"] == [] and len(s.decks["map"].discard) == 1
    assert len(s.decks["map"].cards) + 1 == 16  # the Simplicity subdeck (DN 3.3)
    for hero_id in HEROES:
        hero, spec = s.heroes[hero_id], load().heroes[hero_id]
        assert (hero.grace, hero.secrecy, hero.location) == (spec.grace, spec.secrecy, "Monastery")
        assert len(hero.powers) == 3 and len(hero.deck) == 10
    assert t.decision.kind == "next_hero" and s.round == 1


def test_starting_options() -> None:
    """DN 20.1.2–20.1.4: no or two starting blights, darkness at −5, extra grace, sparks,
    more starting powers."""
    t = Table.start(
        options={
            "starting_blights": 2,
            "starting_darkness": -5,
            "extra_grace": True,
            "starting_sparks": True,
            "starting_powers": 5,
        }
    )
    s = t.state
    assert sum(len(b) for b in s.blights.values()) >= 11  # 12 unless a token ran out
    assert s.darkness == -5
    prince = s.heroes["prince"]
    assert prince.grace == load().heroes["prince"].grace + 2 and prince.sparks == 3
    assert len(prince.powers) == 5 and len(prince.deck) == 8
    empty = Table.start(options={"starting_blights": 0})
    assert sum(len(b) for b in empty.state.blights.values()) == 0


def test_difficulty_is_the_sum_of_modifiers() -> None:
    """DN 20.1: e.g. 3 darkness cards (+1), Pall (+1), 4 powers (−1), 3 heroes (+4) = +5."""
    options = validate_options(
        DARKEST_NIGHT, {"darkness_cards": 3, "pall_of_suffering": True, "starting_powers": 4, "heroes": 3}
    )
    assert difficulty(options) == 5
    assert difficulty(validate_options(DARKEST_NIGHT, {})) == 0
    assert difficulty(validate_options(DARKEST_NIGHT, {"starting_blights": 0, "starting_darkness": -5})) == -4


def test_seats_must_fit_the_heroes() -> None:
    options = validate_options(DARKEST_NIGHT, {"heroes": 2})
    with pytest.raises(RuleError, match="each player controls at least one hero"):
        DARKEST_NIGHT.setup(options, [SeatInfo(i, f"P{i}") for i in range(3)], random.Random(0))
    with pytest.raises(RuleError, match="at least 2 players"):
        DARKEST_NIGHT.setup(
            validate_options(DARKEST_NIGHT, {"necromancer_player": True}),
            [SeatInfo(0, "A")],
            random.Random(0),
        )


def test_players_share_the_heroes_round_robin() -> None:
    """DN 3.2: with 2 players for 4 heroes each controls 2."""
    t = Table.start(seats=2)
    seats = [t.state.heroes[h].seat for h in HEROES]
    assert seats == [0, 1, 0, 1]


def test_the_table_says_who_controls_each_hero() -> None:
    """DN 3.2: "divide control of 4 heroes among yourselves as you choose"."""
    t = Table.start(seats=2, options={"hero_seats": [1, 1, 1, 0]})
    assert [t.state.heroes[h].seat for h in HEROES] == [1, 1, 1, 0]
    alone = Table.start(seats=1, options={"hero_seats": [0, 0, 0, 0]})
    assert {alone.state.heroes[h].seat for h in HEROES} == {0}
    # With a Necromancer player the last seat plays him and no hero (DN 20.3).
    necro = Table.start(seats=3, options={"necromancer_player": True, "hero_seats": [0, 1, 1, 0]})
    assert [necro.state.heroes[h].seat for h in HEROES] == [0, 1, 1, 0]
    assert necro.state.necromancer_seat == 2


@pytest.mark.parametrize(
    ("hero_seats", "seats", "extra", "message"),
    [
        ([0, 1, 1], 2, {}, "3 controllers for 4 heroes"),
        ([0, 1, 1, 1, 0], 2, {}, "5 controllers for 4 heroes"),
        ([0, 0, 0, 0], 2, {}, "seat 2 controls no hero"),
        ([0, 1, 2, 0], 2, {}, "seat 3, but only seats 1–2 play heroes"),
        ([0, 1, 2, 0], 3, {"necromancer_player": True}, "the last seat plays the Necromancer"),
    ],
)
def test_a_division_of_heroes_must_fit_the_players(
    hero_seats: list[int], seats: int, extra: dict[str, Any], message: str
) -> None:
    options = validate_options(DARKEST_NIGHT, {"hero_seats": hero_seats} | extra)
    with pytest.raises(RuleError, match=message):
        DARKEST_NIGHT.setup(options, [SeatInfo(i, f"P{i}") for i in range(seats)], random.Random(0))


@pytest.mark.parametrize("bad", [[0, -1, 0, 0], "0,0,1,1", [0, True, 0, 0], [0, 0, 0, 0, 0, 0]])
def test_hero_seats_is_a_short_list_of_seat_numbers(bad: Any) -> None:
    with pytest.raises(RuleError, match="hero_seats"):
        validate_options(DARKEST_NIGHT, {"hero_seats": bad})


def test_the_lobby_rates_the_options_and_names_the_controllers() -> None:
    """DN 20.1: the combined modifier is the sum; 0 is the game as the rulebook presents it."""
    standard = validate_options(DARKEST_NIGHT, {})
    lines = DARKEST_NIGHT.describe_options(standard, ["Ann", "Bo"])
    assert lines == [
        "Combined difficulty modifier +0 (DN 20.1): the standard challenge.",
        "Ann chooses and plays the first and third heroes.",
        "Bo chooses and plays the second and fourth heroes.",
    ]
    harder = validate_options(
        DARKEST_NIGHT,
        {"starting_blights": 2, "necromancer_player": True, "hero_seats": [0, 0, 0, 0], "heroes": 4},
    )
    assert DARKEST_NIGHT.describe_options(harder, ["Ann", "Nec"]) == [
        "Combined difficulty modifier +3 (DN 20.1): harder than the standard game.",
        "Ann chooses and plays all 4 heroes.",
        "Nec plays the Necromancer (DN 20.3).",
    ]
    easier = validate_options(DARKEST_NIGHT, {"starting_powers": 5})
    assert DARKEST_NIGHT.describe_options(easier, ["Solo"])[0].endswith(
        "-2 (DN 20.1): easier than the standard game."
    )
    with pytest.raises(RuleError, match="3 hero players for 2 heroes"):
        DARKEST_NIGHT.describe_options(validate_options(DARKEST_NIGHT, {"heroes": 2}), ["A", "B", "C"])


def test_random_heroes_and_powers() -> None:
    t = Table.start(heroes=[], options={"random_heroes": True, "random_powers": True})
    assert len(t.state.heroes) == 4 and all(len(h.powers) == 3 for h in t.state.heroes.values())
    assert t.decision.kind == "next_hero"


def test_dual_class_heroes() -> None:
    """DN 20.2.3: two heroes, each with a primary and a secondary class: 3 powers of each,
    a combined deck of 20, two turns per round."""
    options = validate_options(DARKEST_NIGHT, {"heroes": 2})
    events = DARKEST_NIGHT.setup(options, [SeatInfo(0, "A"), SeatInfo(1, "B")], random.Random(1))
    t = Table(kernel.replay(DARKEST_NIGHT, events), list(events))
    for hero in ("prince", "valkyrie", "seer", "crusader"):
        d = t.decision
        if d.kind == "choose_hero":
            t.act("choose_hero", hero=hero)
        d = t.decision
        t.act("choose_powers", powers=d.starting[:3])
    prince = t.state.heroes["prince"]
    assert prince.flags["secondary"] == "valkyrie"
    assert len(prince.powers) == 6 and len(prince.deck) == 20 and prince.turns_left == 2
    assert prince.power("valkyrie.skewer") is not None or any(
        p.id.startswith("valkyrie.") for p in prince.powers
    )
    t.begin_turn("prince")
    t.act("end_action")
    assert t.state.heroes["prince"].turns_left == 1
    assert "prince" in {c.args["hero"] for c in t.choices() if c.type == "take_turn"}


def test_five_heroes_draw_a_darkness_card_at_setup() -> None:
    """DN 20.2.1: one darkness card at setup, never Eclipse; and the first relic costs 17."""
    for seed in range(8):
        t = Table.start(heroes=[*HEROES, "druid"], options={"heroes": 5}, seed=seed)
        assert len(t.state.heroes) == 5
        assert len(t.state.darkness_cards) == 1 and t.state.darkness_cards[0] != "eclipse"
        assert len(t.state.decks["darkness"].cards) == len(load().darkness) - 1
    four = Table.start(heroes=HEROES)
    assert four.state.darkness_cards == []


def test_the_necromancer_player_holds_a_hidden_hand() -> None:
    """DN 20.3: the last seat plays the Necromancer: 4 map cards no hero sees; he plays one
    to create each blight."""
    options = validate_options(DARKEST_NIGHT, {"necromancer_player": True})
    events = DARKEST_NIGHT.setup(options, [SeatInfo(0, "Heroes"), SeatInfo(1, "Necro")], random.Random(2))
    t = Table(kernel.replay(DARKEST_NIGHT, events), list(events))
    for hero in HEROES:
        t.act("choose_hero", hero=hero)
        t.act("choose_powers", powers=t.decision.starting[:3])
    s = t.state
    assert s.necromancer_seat == 1 and len(s.hand) == 4
    hand = list(s.hand)
    hero_view = DARKEST_NIGHT.view(s, Viewer("seat", frozenset({0})))
    necro_view = DARKEST_NIGHT.view(s, Viewer("seat", frozenset({1})))
    assert hero_view["necromancer_hand"] == 4
    assert [card["id"] for card in necro_view["necromancer_hand"]] == hand
    for event in t.events:
        seen = DARKEST_NIGHT.event_view(event, Viewer("seat", frozenset({0})))
        assert seen is None or not (set(hand) & set(str(seen.data).replace("'", " ").split()))
    t.edit(lambda s: (setattr(s, "necromancer", "Castle"), s.blights.__setitem__("Castle", [])))
    run_steps(t, [{"op": "necromancer_blight"}], phase="necromancer")
    assert t.decision.kind == "play_map_card" and t.decision.seat == 1
    card = next(c for c in t.choices(1) if c.type == "play_map_card")
    t.act("play_map_card", seat=1, **card.args)
    assert len(t.state.hand) == 3 and len(t.state.blights["Castle"]) == 1


def test_hidden_relics_appear_as_clues_allow() -> None:
    """DN 20.4: no relics at setup."""
    t = Table.start(options={"hidden_relics": True})
    assert t.state.relics == {}


def test_without_quests_and_mysteries() -> None:
    t = Table.start(options={"no_quests": True, "no_mysteries": True})
    assert t.state.decks["quest"].cards == [] and t.state.decks["mystery"].cards == []
    run_steps(t, [{"op": "clues", "hero": "prince", "n": 4}], dice=[6, 5, 1, 2])
    # A key per 5–6, carried as items by the hero who earned them (DN 20.5).
    assert [i.kind for i in t.hero("prince").items] == ["key", "key"] and t.state.clues == 0
