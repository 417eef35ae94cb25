"""Dungeons: the encounter map, populating it, sample dungeons' notes, and clearing the
room: exploring, digging greedily, resting (AtD L206, L244-263, L276-282, L437-444).
These run on real, seeded tables: the dungeon deck is shuffled, so each test states the
rule over whatever the seed deals, and checks that the seed dealt a case worth stating."""

from __future__ import annotations

import math

from app.kernel.types import Viewer
from tests.games.attack_the_darkness.harness import GAME, C, Table, types
from tests.games.attack_the_darkness.positions import (
    advance,
    equip,
    fold,
    hero,
    of_type,
    offered,
    view,
    waiting,
)

Square = tuple[int, int]


def tile_squares(tile: dict[str, object]) -> set[Square]:
    x, y, w, h = (int(tile[k]) for k in ("x", "y", "w", "h"))  # type: ignore[call-overload]
    return {(x + i, y + j) for i in range(w) for j in range(h)}


def spot_squares(x: int, y: int, o: str) -> set[Square]:
    w, h = (3, 4) if o == "v" else (4, 3)
    return {(x + i, y + j) for i in range(w) for j in range(h)}


def tokens(t: Table) -> list:  # type: ignore[type-arg]
    """Every player puts a token on the first stairs square offered (AtD L251)."""
    events = []
    while waiting(t) == "place_token":
        seat = view(t)["waiting"]["seats"][0]
        events += t.send(seat, "token", **offered(t, "token", seat)[0])
    return events


def in_a_row(t: Table) -> None:
    """The players place the random map's tiles upright in a row right of the stairs:
    tile k covers x 3k to 3k + 2, y 0 to 3; its logo square is (3k, 0)."""
    k = 1
    while waiting(t) == "place_tile":
        seat = view(t)["waiting"]["seats"][0]
        t.send(seat, "place_tile", x=3 * k, y=0, o="v")
        k += 1


def cleared(seed: int = 1, seats: int = 1) -> Table:
    """The Tavern Cellar's first encounter, won: the table asks how to clear the room."""
    t = Table(seats, classes=["champion", "templar"][:seats], seed=seed)
    tokens(t)
    t.run({"op": "encounter_over", "result": "win", "team": None})
    assert waiting(t) == "clear_room"
    return t


# -- the encounter map (AtD L244-251, L262) ---------------------------------------------------------


def test_a_random_map_is_seven_tiles_placed_in_turn_each_touching_the_map() -> None:
    """AtD L246: the stairs first; AtD L248: "Tiles can be placed horizontally or vertically.
    The only requirement is that at least one square within the tile is adjacent to ... a
    square within an already-placed tile"; AtD L249: 7 tiles in the first encounter;
    AtD L262: "They take turns placing tiles" (in marching order, facts file §10)."""
    t = Table(2, classes=["champion", "templar"], dungeon="random")
    (stairs,) = view(t)["map"]["tiles"]
    assert stairs["stairs"] and view(t)["waiting"]["left"] == 6
    placers = []
    while waiting(t) == "place_tile":
        placed = set().union(*(tile_squares(x) for x in view(t)["map"]["tiles"]))
        near = {(x + i, y + j) for x, y in placed for i in (-1, 0, 1) for j in (-1, 0, 1)}
        spots = offered(t, "place_tile", view(t)["waiting"]["seats"][0])
        assert {s["o"] for s in spots} == {"h", "v"}
        for s in spots:
            squares = spot_squares(s["x"], s["y"], s["o"])
            assert not squares & placed and squares & near
        seat = view(t)["waiting"]["seats"][0]
        placers.append(seat)
        t.send(seat, "place_tile", **spots[len(placers) % len(spots)])
    assert placers == [0, 1, 0, 1, 0, 1]
    assert len(view(t)["map"]["tiles"]) == 7 and waiting(t) == "place_token"


# -- populating (AtD L252-260) ------------------------------------------------------------------------


def test_populating_reveals_dungeon_cards_until_the_danger_level_is_met() -> None:
    """AtD L253: danger level = players × tiles (2 × 7); AtD L254: equipment or a mystery
    revealed is discarded; AtD L257: monster cards are revealed until their danger "meets
    or exceeds the danger level", each "to the left of the one drawn prior to it"."""
    t = Table(2, classes=["champion", "templar"], dungeon="random")
    in_a_row(t)
    events = tokens(t)
    assert [d["danger"] for d in of_type(events, "DangerSet")] == [14] and view(t)["danger"] == 14
    revealed = of_type(events, "DungeonCardRevealed")
    for d in revealed:
        assert d["to"] == ("line" if d["id"] in C.monsters else "discard")
    dangers = [d["danger"] for d in revealed if d["to"] == "line"]
    assert sum(dangers) >= 14 and sum(dangers[:-1]) < 14
    entered = [d["entry"] for d in of_type(events, "MonstersEntered")]
    assert [e["entry"] for e in view(t)["line"]] == entered[::-1]


def test_sets_take_the_farthest_empty_tile_then_the_least_full_never_the_stairs() -> None:
    """AtD L255: a set goes "in the empty tile that is farthest from the players"; AtD L256:
    its first token on the logo square; AtD L258: "Sets of monsters are never placed on the
    stairs tile ... add any additional sets to the least full, farthest away tile". Seven
    players, six tiles in a row: danger 49 needs more sets than there are tiles."""
    t = Table(7, dungeon="random")
    in_a_row(t)
    events = tokens(t)
    sets = of_type(events, "MonstersEntered")
    assert len(sets) > 6
    full = dict.fromkeys(range(1, 7), 0)  # tile k (x 3k to 3k + 2): monsters on it
    for d in sets:
        first = tuple(d["monsters"][0]["square"])
        empty = [k for k, n in full.items() if n == 0]
        want = max(empty) if empty else max(full, key=lambda k: (-full[k], k))
        assert first[0] // 3 == want
        if empty:
            assert first == (3 * want, 0)  # the logo square
        for m in d["monsters"]:
            x, _ = m["square"]
            assert x >= 3  # never on the stairs (x 0-2)
            full[x // 3] += 1


def test_the_danger_level_adds_the_advancements_held() -> None:
    """AtD L253: "add in the danger value of any advancement cards that players have";
    AtD L286: "any advancements gained during play will add to the danger level": one
    player, 7 tiles and Iron Skin (danger 3) make 10."""
    t = Table(1, classes=["champion"])
    advance(t, 0, "iron_skin")
    events = tokens(t)
    assert [d["danger"] for d in of_type(events, "DangerSet")] == [7 + C.advancements["iron_skin"].danger]


def test_the_sewers_vampires_are_set_aside_for_the_fourth_encounter() -> None:
    """AtD L444: "Set aside 2 Vampire cards from the dungeon deck. Use them as the first 2
    monster cards of the fourth encounter"; the notes' removals leave the deck (AtD L440)."""
    removed = {"Grimalkin", "High Order Master", "Salt Dragon", "Trap Door", "Wendigo"}
    gm = Table(1, classes=["champion"], dungeon="sewer", mode="tabletop")
    deck = set(GAME.view(gm.state, Viewer("gm"))["dungeon_deck_cards"])  # the game master's
    assert deck and not [n for n in deck for r in (*removed, "Vampire") if n.startswith(r)]
    t = Table(1, classes=["champion"], dungeon="sewer")
    named = {C.dungeon_name(c).split(" (")[0] for c in t.events[0].data["removed"]}  # boss parts
    assert named == removed
    assert [r["name"] for r in view(t)["reserved"]] == ["Vampire", "Vampire"]
    events = tokens(t)  # the first encounter does not use them
    assert not [d for d in of_type(events, "DungeonCardRevealed") if d["source"] == "reserved"]
    t.run({"op": "begin_encounter", "index": 3})
    events = tokens(t)
    revealed = of_type(events, "DungeonCardRevealed")
    assert [(d["id"], d["source"], d["to"]) for d in revealed[:2]] == [("vampire", "reserved", "line")] * 2
    assert view(t)["reserved"] == []


# -- clearing the room (AtD L276-282) -----------------------------------------------------------------


def test_exploring_flips_tiles_one_at_a_time_until_equipment_turns_up() -> None:
    """AtD L280: the explorer flips a map tile; "If it is neither, the player can choose to
    continue to flip over map tiles one at a time until either a piece of equipment or a
    mystery is found"; equipment "they can keep". Digging is only for one who found
    nothing (AtD L281)."""
    t = cleared(seed=2)
    t.send(0, "explore", seat=0, discard=False)
    flipped: list[str] = []
    while waiting(t) == "explore":
        flips = offered(t, "flip")
        assert "dig" not in {k for k, _ in t.choices(0)}
        events = t.send(0, "flip", **flips[0])
        (tile,) = of_type(events, "TileFlipped")
        assert {"tile": tile["tile"]} not in offered(t, "flip")
        flipped.append(tile["id"])
    assert flipped[:-1] and all(c in C.monsters for c in flipped[:-1])  # the seed: monsters first
    assert flipped[-1] in C.equipment and waiting(t) == "keep_equipment"
    assert [k for k, _ in t.choices(0)] == ["keep", "leave"]
    t.send(0, "keep", drop=[])
    assert [e["name"] for e in hero(t)["equipment"]] == [C.dungeon_name(flipped[-1])]


def test_a_character_keeps_equipment_only_in_its_two_slots() -> None:
    """AtD L206: "Characters have only 2 equipment slots ... When gaining new equipment
    cards, characters may choose to discard ones they already have to make room"."""
    t = cleared(seed=1)
    axe, bow = equip(t, 0, "battle_axe"), equip(t, 0, "short_bow")
    t.send(0, "explore", seat=0, discard=False)
    t.send(0, "flip", **offered(t, "flip")[0])
    assert waiting(t) == "keep_equipment"  # the seed's first tile is equipment
    assert sorted(t.choices(0), key=str) == sorted(
        [("keep", {"drop": [axe]}), ("keep", {"drop": [bow]}), ("leave", {})], key=str
    )
    t.send(0, "keep", drop=[axe])
    held = [e["id"] for e in hero(t)["equipment"]]
    assert len(held) == 2 and bow in held and axe not in held


def test_digging_greedily_seeds_the_next_encounter_at_half_the_danger() -> None:
    """AtD L281: an explorer who found nothing may "flip over the top card from the dungeon
    deck until either an equipment card or a mystery is found ... all of the monster cards
    that are flipped over while digging greedily are kept aside and used to seed the next
    encounter, treating their combined danger value as only half of what it really is"
    (facts file §12: rounded up). AtD L282: the deck is not reshuffled meanwhile."""
    t = cleared(seed=4)
    for tile in view(t)["map"]["tiles"]:
        if not tile["stairs"]:
            fold(t, "TileFlipped", seat=0, tile=tile["index"], card="", id="")  # all turned up
    assert not offered(t, "explore")
    t.run({"op": "explore", "seat": 0, "missed": True}, {"op": "after_clearing"})
    assert offered(t, "dig") == [{}]
    events = t.send(0, "dig")
    dug = of_type(events, "DungeonCardRevealed")
    assert [d["to"] for d in dug] == ["seed"] * (len(dug) - 1) + ["dug"]
    seeded = [d["id"] for d in dug[:-1]]
    assert seeded and dug[-1]["id"] not in C.monsters  # the seed: monsters, then a find
    total = sum(C.monsters[c].danger for c in seeded)
    assert of_type(events, "SeedAdded") == [{"danger": total}]
    assert [s["name"] for s in view(t)["seed"]] == [C.monsters[c].name for c in seeded]
    while waiting(t) == "keep_equipment":
        events += t.send(0, "keep", drop=[])
    events += tokens(t)  # the next encounter
    populated = events[types(events).index("DangerSet") :]
    first = of_type(populated, "DungeonCardRevealed")[: len(seeded)]
    assert [(d["id"], d["source"]) for d in first] == [(c, "seed") for c in seeded]
    assert of_type(populated, "SeedSpent") == [{"danger": math.ceil(total / 2)}]
    assert not [d for d in of_type(events, "DeckShuffled") if d["deck"] == "dungeon"]


def test_a_resting_player_may_shuffle_the_discards_back_into_the_decks() -> None:
    """AtD L279: "They also draw an extra RC and AC into their hand ... A resting player may
    reshuffle their discard piles back into their resource and action decks"."""
    t = cleared(seed=1)
    t.hand(0, "hack")
    before = hero(t)
    assert before["action_discard"] and before["resource_discard"]
    events = t.send(0, "rest", seat=0, discard=False, reshuffle=True)
    rest = events[types(events).index("DeckShuffled") :]
    assert [d["deck"] for d in of_type(rest, "DeckShuffled")] == ["actions", "resources"]
    assert [(d["n_actions"], d["n_resources"]) for d in of_type(rest, "CardsDrawn")] == [(1, 1)]
    after = hero(t)
    assert after["action_discard"] == [] and after["resource_discard"] == []
    assert (after["hand_actions"], after["hand_resources"]) == (4, 4)
