"""Chapter 4, the Underworld (DO L494-542): the back of the board, always night, vortices,
hardcore banners and places."""

from __future__ import annotations

from app.games.dark_omen.board import load_board, neighbours, ring_sector
from tests.games.dark_omen.harness import arranged, choices, of, play, table

UNDER = load_board().underworld


def test_chapter_4_is_played_on_the_underworld_always_at_night() -> None:
    s = table(chapter=4)
    assert s.night and s.round == 1
    assert s.locations[39].kind == "mole_dwarf_ruin" and s.locations[39].open  # a place
    assert not s.locations[12].open  # Gloomy Waters: a face-down token
    a, b = s.vortices
    assert ring_sector(a)[0] == ring_sector(b)[0] == 1  # both on the middle ring (DO L534-535)


def test_stepping_into_a_vortex_carries_a_hero_to_the_other_at_a_cost() -> None:
    """DO L537-542: the round's AP lost, 1 HP, a black token; carried to the other vortex."""
    s = arranged(table(seats=2, chapter=4), at=47)
    s.vortices = [48, 84 + 18]
    s, events = play(s, 0, "move", to=48)
    hero = s.heroes[0]
    assert hero.at == 84 + 18 and hero.hp == 14 and hero.effects["black"] == 1 and hero.done


def test_mole_dwarf_city_costs_an_extra_ap_without_a_torch() -> None:
    """DO L499 (hardcore): pitch black, −1 AP for movement unless a torch has charges."""
    city = next(sp for sp in range(38, 75) if UNDER.region(sp) == "Mole Dwarf City")
    start = next(
        n for n in neighbours(city) if not UNDER.blocked(UNDER.edge(city, n), {"white": 0, "clear": 0})
    )
    s = arranged(table(chapter=4, hardcore_regions=True), at=start)
    s.vortices = [1, 2]
    s, _ = play(s, 0, "move", to=city)
    assert s.heroes[0].ap == 2


def test_the_gear_hoard_costs_5_mp_and_a_6_wakes_the_dead() -> None:
    s = arranged(table(chapter=4), at=109)
    s.vortices = [1, 2]
    assert ("hoard", {}) in choices(s, 0)
    s, events = play(s, 0, "hoard", [6])
    assert s.heroes[0].mp == 10 and s.heroes[0].must_attack is not None
    assert of(events, "CreaturePlaced")[0]["level"] == 4


def test_crossing_the_mole_dwarf_ruins_bridges_costs_1_mp() -> None:
    """DO L519-520: "crossing abbys costs 1MP"."""
    s = arranged(table(seats=2, chapter=4), at=39)
    s.vortices = [1, 2]
    out = next(n for n in neighbours(39) if not UNDER.blocked(UNDER.edge(39, n), {"white": 0, "clear": 0}))
    s, _ = play(s, 0, "move", to=out)
    assert (s.heroes[0].mp, s.heroes[0].ap) == (14, 1)
    s.heroes[1].mp = 0
    s.heroes[1].at = 39
    assert not any(a.get("to") == out for t, a in choices(s, 1) if t == "move")
