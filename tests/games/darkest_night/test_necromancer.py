"""The Necromancer's turn (DN 6.0, 9.0, 10.0) and blight creation (DN 11.1, 18.3)."""

from __future__ import annotations

from app.games.darkest_night.content import load
from app.games.darkest_night.rules.necromancer import distances, first_steps
from app.games.darkest_night.state import Blight, State
from tests.games.darkest_night.harness import DARKEST_NIGHT, Table, run_steps


def place(s: State, heroes: dict[str, tuple[str, int]], necromancer: str) -> None:
    for hero, (location, secrecy) in heroes.items():
        s.heroes[hero].location = location
        s.heroes[hero].secrecy = secrecy
    s.necromancer = necromancer


def test_routes_never_cross_the_monastery() -> None:
    """DN 10.0: Mountains to Forest goes by the Village."""
    assert distances("Mountains")["Forest"] == 2
    assert first_steps("Mountains", "Forest", gate=False) == ["Village"]
    assert "Monastery" not in distances("Mountains")


def test_heroes_win_ties_and_the_monastery_hides() -> None:
    """DN 10.0: detected only if the roll exceeds secrecy; never in the Monastery."""
    t = Table.start()
    t.edit(
        lambda s: place(
            s,
            {
                "prince": ("Village", 4),
                "valkyrie": ("Castle", 3),
                "seer": ("Monastery", 0),
                "crusader": ("Swamp", 5),
            },
            "Ruins",
        )
    )
    lines = run_steps(t, [{"op": "necromancer_detect", "roll": 4}])
    assert "The Necromancer detects Valkyrie." in lines


def test_the_necromancer_chases_the_closest_detected_hero() -> None:
    t = Table.start()
    t.edit(
        lambda s: place(
            s,
            {
                "prince": ("Village", 0),
                "valkyrie": ("Mountains", 0),
                "seer": ("Monastery", 0),
                "crusader": ("Monastery", 0),
            },
            "Ruins",
        )
    )
    run_steps(t, [{"op": "necromancer_detect", "roll": 3}])
    assert t.state.necromancer == "Village"


def test_without_detection_he_follows_the_arrow() -> None:
    """DN 10.0: the same roll picks the arrow: from the Ruins, 1 → Forest."""
    t = Table.start()
    t.edit(
        lambda s: place(s, {h: ("Monastery", 0) for h in ("prince", "valkyrie", "seer", "crusader")}, "Ruins")
    )
    run_steps(t, [{"op": "necromancer_detect", "roll": 1}])
    assert t.state.necromancer == "Forest"


def test_a_detected_hero_at_his_location_keeps_him_there() -> None:
    """Extended Example: the Crusader is detected in the Castle with him: he does not move."""
    t = Table.start()
    t.edit(
        lambda s: place(
            s,
            {
                "prince": ("Village", 4),
                "valkyrie": ("Swamp", 3),
                "seer": ("Monastery", 6),
                "crusader": ("Castle", 0),
            },
            "Castle",
        )
    )
    run_steps(t, [{"op": "necromancer_detect", "roll": 4}])
    assert t.state.necromancer == "Castle"


def test_a_fifth_blight_goes_to_the_monastery() -> None:
    """DN 11.1: a location with 4 blights sends the new one to the Monastery."""
    t = Table.start()
    t.edit(lambda s: s.blights.__setitem__("Castle", [Blight(f"b9{i}", "Taint") for i in range(4)]))
    t.edit(lambda s: setattr(s, "necromancer", "Castle"))
    before = len(t.state.blights["Monastery"])
    run_steps(t, [{"op": "necromancer_blight"}])
    assert len(t.state.blights["Castle"]) == 4
    assert len(t.state.blights["Monastery"]) == before + 1


def test_a_void_counts_as_two() -> None:
    t = Table.start()
    t.edit(
        lambda s: s.blights.__setitem__(
            "Castle", [Blight("b90", "Void"), Blight("b91", "Taint"), Blight("b92", "Taint")]
        )
    )
    t.edit(lambda s: setattr(s, "necromancer", "Castle"))
    run_steps(t, [{"op": "necromancer_blight"}])
    assert len(t.state.blights["Castle"]) == 3


def test_a_full_monastery_loses_the_game() -> None:
    """DN 18.3: a blight into a Monastery with 4 already: the heroes lose."""
    t = Table.start()
    t.edit(lambda s: s.blights.__setitem__("Monastery", [Blight(f"b9{i}", "Taint") for i in range(4)]))
    t.edit(lambda s: s.blights.__setitem__("Castle", [Blight(f"b8{i}", "Taint") for i in range(4)]))
    t.edit(lambda s: setattr(s, "necromancer", "Castle"))
    run_steps(t, [{"op": "necromancer_blight"}])
    assert t.state.result == {
        "result": "loss",
        "reason": "The Monastery is overrun: a fifth blight fell on it (DN 18.3).",
    }
    assert DARKEST_NIGHT.outcome(t.state).result == "loss"


def test_darkness_beyond_thirty_blights_the_monastery() -> None:
    """DN 9.0: darkness does not pass 30; a blight falls on the Monastery instead."""
    t = Table.start()
    t.edit(lambda s: setattr(s, "darkness", 30))
    before = len(t.state.blights["Monastery"])
    run_steps(t, [{"op": "necromancer_darkness"}])
    assert t.state.darkness == 30
    assert len(t.state.blights["Monastery"]) == before + 1


def test_out_of_stock_blights_redraw() -> None:
    """DN 11.1: a map card naming a blight with no token left is discarded and another drawn."""
    t = Table.start()
    first = t.state.decks["map"].cards[0]
    blight = load().map_cards[first].blights["Castle"]
    tokens = load().blights[blight].tokens

    def exhaust(s: State) -> None:
        s.necromancer = "Castle"
        for i in range(tokens):
            s.blights["Ruins" if i % 2 else "Swamp"].append(Blight(f"b7{i}", blight))

    t.edit(exhaust)
    lines = run_steps(t, [{"op": "necromancer_blight"}])
    assert any("another map card" in line for line in lines)
    assert t.state.blights["Castle"][-1].type != blight or len(t.state.blights["Castle"]) == 0


def test_a_round_ends_with_the_necromancer() -> None:
    """DN 6.0: after every hero's turn the Necromancer raises darkness, moves, blights."""
    t = Table.start()
    darkness = t.state.darkness
    for hero in ("prince", "valkyrie", "seer", "crusader"):
        t.begin_turn(hero)
        t.act("end_action", dice=[6] if hero == "crusader" else [])
    assert t.state.round == 2 and t.state.darkness == darkness + 1
    assert t.decision.kind == "next_hero"
