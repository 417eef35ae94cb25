"""The board's invariants (facts §4): the grid, the stated neighbourhoods, each edge one
kind, each slit one layer, tabs round-trip, towns only by their gates, and every space
reaching Hoglichten's entrance at every layer position with at most two crossings."""

from __future__ import annotations

import pytest

from app.games.dark_omen.board import (
    LAYERS,
    SECTORS,
    SPACES,
    crossings_to,
    line_of_sight,
    load_board,
    neighbours,
    obstacle_throw,
    pos_to_tab,
    ring_sector,
    space_id,
    tab_to_pos,
    town_links,
    town_node,
)

BOARD = load_board()
SIDES = [BOARD.overworld, BOARD.underworld]


def test_ids_and_ring_sectors_are_a_bijection() -> None:
    seen = {space_id(r, s) for r in range(3) for s in range(SECTORS)}
    assert seen == set(range(1, SPACES + 1))
    for space in range(1, SPACES + 1):
        assert space_id(*ring_sector(space)) == space


def test_adjacency_is_symmetric_with_four_neighbours_on_the_middle_ring() -> None:
    for space in range(1, SPACES + 1):
        near = neighbours(space)
        assert len(near) == (4 if ring_sector(space)[0] == 1 else 3)
        for other in near:
            assert space in neighbours(other)


def test_the_runehenges_neighbourhoods_are_the_quick_starts() -> None:
    """DO L554: around a runehenge lie 10, 46, 48, 84 or 28, 64, 66, 102."""
    assert set(neighbours(47)) == {10, 46, 48, 84}
    assert set(neighbours(65)) == {28, 64, 66, 102}
    assert BOARD.overworld.location_spaces("runehenge") == [47, 65]
    assert BOARD.overworld.towns["Hoglichten"] == 39  # DO L87
    assert {14, 39, 42} <= set(range(1, SPACES + 1))


@pytest.mark.parametrize("side", SIDES, ids=lambda s: s.name)
def test_every_edge_has_one_kind_and_every_slit_one_layer(side: object) -> None:
    edges = side.edges  # type: ignore[attr-defined]
    assert len(edges) == 3 * SECTORS + 2 * SECTORS  # 111 ring edges, 74 radial
    for (a, b), edge in edges.items():
        assert b in neighbours(a)
        assert edge.kind in ("open", "wall", "slit")
        if edge.kind == "slit":
            radial = ring_sector(a)[0] != ring_sector(b)[0]
            assert edge.layer == ("white" if radial else "clear")  # never on both layers
        else:
            assert edge.layer is None
    kinds = {e.kind for e in edges.values()}
    assert kinds == {"open", "wall", "slit"}


def test_tabs_and_positions_round_trip_and_the_obstacle_throw_turns_by_parity() -> None:
    """DO L167-171: even rolls clockwise, odd counter-clockwise, by the roll."""
    for tab in range(1, SECTORS + 1):
        assert pos_to_tab(tab_to_pos(tab)) == tab
    white, clear = tab_to_pos(14), tab_to_pos(20)
    assert pos_to_tab(obstacle_throw(white, 4)) == 18
    assert pos_to_tab(obstacle_throw(clear, 3)) == 17
    assert pos_to_tab(obstacle_throw(tab_to_pos(2), 5)) == 34
    assert pos_to_tab(obstacle_throw(white, 4, clockwise=False)) == 10
    assert LAYERS == ("white", "clear")


def test_a_turning_layer_opens_and_closes_its_slits() -> None:
    side = BOARD.overworld
    slit = next(e for e in side.edges.values() if e.kind == "slit" and e.layer == "clear")
    states = {side.blocked(slit, {"white": 0, "clear": pos}) for pos in range(SECTORS)}
    assert states == {True, False}
    wall = next(e for e in side.edges.values() if e.kind == "wall")
    assert all(side.blocked(wall, {"white": w, "clear": 0}) for w in range(SECTORS))


def test_towns_are_entered_only_by_their_gates() -> None:
    for town in BOARD.overworld.towns:
        gate = town_node(town, "gate")
        assert town_links(town, gate) == [town_node(town, "market")]
        for place in ("tavern", "healer"):
            assert town_links(town, town_node(town, place)) == [town_node(town, "market")]


@pytest.mark.parametrize("side", SIDES, ids=lambda s: s.name)
def test_every_space_reaches_hoglichten_at_every_layer_position(side: object) -> None:
    """All 37 × 37 positions: every space reaches 39 by open edges and at most 2 crossings."""
    for white in range(SECTORS):
        for clear in range(0, SECTORS):
            best = crossings_to(side, 39, {"white": white, "clear": clear})  # type: ignore[arg-type]
            assert len(best) == SPACES
            assert max(best.values()) <= 2, (white, clear)


def test_locations_and_loot_spaces_are_on_the_board_and_apart() -> None:
    for side in SIDES:
        spaces = [sp for _, sp in side.locations]
        assert all(1 <= sp <= SPACES for sp in spaces + list(side.loot))
        assert not set(side.loot) & set(spaces) - {39}
        assert len(set(side.loot)) == len(side.loot)
        for name, first, last in side.regions:
            assert 9 <= last - first + 1 <= 10, name
    assert len(BOARD.overworld.location_spaces("river_travel")) == 2
    assert len(BOARD.underworld.location_spaces("eternal_maze")) == 4
    assert BOARD.underworld.location_spaces("mole_dwarf_ruin") == [39]


def test_line_of_sight_runs_straight_and_stops_at_black_lines() -> None:
    side = BOARD.overworld
    layers = {"white": 0, "clear": 0}
    assert line_of_sight(side, 47, 47, layers) == 0
    assert line_of_sight(side, 10, 47, layers) in (1, None)
    assert line_of_sight(side, 10, 48, layers) is None  # not in a straight line
