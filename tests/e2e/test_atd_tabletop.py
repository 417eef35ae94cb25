"""Attack the Darkness in Debian's chromium (issue 13): a Tabletop table played to its end,
the game master's page doing the game master's part by clicking — each map tile placed by
clicking the square for its corner (a small menu when both orientations fit there), the
monsters picked from the dungeon deck shown by card with the danger counted against the
budget, each monster put on a lit square, and every monster's turn decided by clicking its
move's square and its target's token. The player's page sees a monster only once it is
placed, never the dungeon deck, and is asked to defend on every attack. The player's own
turns are played by the quick player (``atd_play.py``) through the API.

The seed was picked with ``python -m tests.e2e.atd_play``: one player, a random dungeon of
one encounter; the game master picks three monster cards (four monsters), and the
encounter is won in 3 rounds with 10 monster decisions."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.atd_clicks import board_element, click, lit
from tests.e2e.atd_play import Driver, waiting_kind
from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import create_game_table, expect_live, expect_seq, screenshot

pytestmark = pytest.mark.browser

SEED = "atd-0"
OPTIONS = {"mode": "tabletop", "dungeon": "random", "encounters": 1}


def test_the_game_master_builds_the_map_places_the_monsters_and_plays_them(
    server: Served, open_page: PageFactory
) -> None:
    table = create_game_table(server.url, "attack_the_darkness", ["Cy"], OPTIONS, SEED)
    gm_page = open_page(table.gm_url)
    cy = open_page(table.seat_url(0))
    for page in (gm_page, cy):
        expect_live(page)
    window = gm_page.locator("#atd-window")
    gm_monster_turns = 0

    with httpx.Client(base_url=server.url, timeout=10) as http:
        table_api = Driver.of(http, table.created)

        def gm_clicks(kind: str) -> tuple[dict, str | None]:
            """The game master's next decision (of ``kind``), clicked on the game master's page."""
            seat, command, payload = table_api.next_move()
            assert (seat, payload["view"]["waiting"]["kind"]) == ("gm", kind)
            return command, click(gm_page, command, payload["seq"])

        # The map: every tile placed by clicking the square of its top-left corner.
        while waiting_kind("place_tile")(gm := table_api.payload()):
            left = gm["view"]["waiting"]["left"]
            expect_seq(gm_page, gm["seq"])
            expect(window).to_contain_text(f"{left} tile{'s' if left != 1 else ''} left to place")
            placed = gm_page.locator("#atd-tiles .atd-tile").count()
            command, target = gm_clicks("place_tile")
            assert target == "square:{x},{y}".format(**command["args"])
            expect(gm_page.locator("#atd-tiles .atd-tile")).to_have_count(placed + 1)
        screenshot(gm_page, "atd-tabletop-map")
        expect_seq(cy, gm["seq"])
        expect(cy.locator("#atd-tiles .atd-tile")).to_have_count(len(gm["view"]["map"]["tiles"]))
        assert cy.locator("#atd-gm").is_hidden(), "the dungeon deck is the game master's"

        # Cy's token on the stairs, then the game master picks within the budget.
        table_api.play_until(waiting_kind("gm_pick"))
        gm = table_api.payload()
        danger = gm["view"]["danger"]
        expect_seq(gm_page, gm["seq"])
        expect(window).to_contain_text(f"Danger picked 0 — at least {danger}, at most {danger + 5}")
        expect(lit(gm_page, "#atd-gm .atd-chip").first).to_be_visible()
        assert cy.locator("#atd-gm .atd-chip").count() == 0
        screenshot(gm_page, "atd-tabletop-picking")
        placed = 0
        while True:
            seat, command, payload = table_api.next_move()
            assert (seat, payload["view"]["waiting"]["kind"]) == ("gm", "gm_pick")
            if command["type"] == "done":
                assert click(gm_page, command, payload["seq"]) is None  # "Begin the encounter"
                break
            label = next(
                c["label"] for p in payload["prompts"] for c in p["choices"] if c["command"] == command
            )
            name, danger_of = re.fullmatch(r"Add (.+) \(danger (\d+)\)", label).groups()
            card = next(e["card"] for e in payload["view"]["gm_deck"] if e["name"] == name)
            expect_seq(gm_page, payload["seq"])
            chip = gm_page.locator(f'#atd-gm [data-target="dungeon:{card}"]')
            expect(chip).to_contain_text(f"danger {danger_of}")
            assert click(gm_page, command) == f"dungeon:{card}"
            # Picked: in the game master's line; the players see it once placed (AtD L274).
            gm = table_api.payload()
            entry = gm["view"]["line"][0]["entry"]
            expect_seq(cy, gm["seq"])
            expect(gm_page.locator(f"#atd-line-{entry}")).to_contain_text(name)
            expect(cy.locator(f"#atd-line-{entry}")).to_have_count(0)
            expect(cy.locator("#atd-tokens .atd-mon")).to_have_count(placed)
            expect(window).to_contain_text(f"puts {gm['view']['waiting']['place']['left']} × {name}")
            while waiting_kind("gm_place")(gm := table_api.payload()):
                command, target = gm_clicks("gm_place")
                assert target == "square:{},{}".format(*command["args"]["to"])
                placed += 1
                expect_seq(cy, table_api.payload()["seq"])
                expect(cy.locator("#atd-tokens .atd-mon")).to_have_count(placed)
                expect(cy.locator(f"#atd-line-{entry}")).to_contain_text(name)
            picked = gm["view"]["waiting"].get("total")
            expect(window).to_contain_text(f"Danger picked {picked} — at least {danger}")
        assert placed == len(table_api.payload()["view"]["monsters"]) == 4
        screenshot(cy, "atd-tabletop-player")

        # The encounter: Cy's turns go by; every monster's turn is clicked by the game master.
        while (
            gm := table_api.play_until(lambda g: g["outcome"] is not None or waiting_kind("gm_monster")(g))
        )["outcome"] is None:
            acting = gm["view"]["waiting"]["monster"]
            expect_seq(gm_page, gm["seq"])
            expect(window).to_contain_text(f"The game master plays {acting['name']}")
            token = gm_page.locator(f'#atd-tokens [data-target="combatant:{acting["id"]}"]')
            expect(token).to_have_class(re.compile(r"\batd-current\b"))
            command, target = gm_clicks("gm_monster")
            gm_monster_turns += 1
            if command["type"] == "move":
                assert target == "square:{},{}".format(*command["args"]["to"])
                if gm_monster_turns == 1:
                    screenshot(gm_page, "atd-tabletop-monster-moved")
            elif command["type"] == "attack":
                assert target == f"combatant:{command['args']['who']}"
                # Attacked in Tabletop, the player always gets the window (AtD L151).
                gm = table_api.payload()
                expect_seq(cy, gm["seq"])
                expect(cy.locator("#atd-window")).to_contain_text("You are attacked!")
                expect(window).to_contain_text("Waiting for Cy to defend or take it.")
            else:
                assert target is None  # "End the monster's turn": a button

    assert gm_monster_turns == 10
    expect_seq(gm_page, table.summary()["seq"])
    outcome = gm["outcome"]
    assert outcome["result"] == "win"
    for page in (gm_page, cy):
        expect(page.locator("#atd-status .atd-result")).to_contain_text(outcome["reason"])
        expect(page.locator("#atd-map")).to_contain_text("The map is cleared away: the game is over.")
    screenshot(gm_page, "atd-tabletop-end")


GHOSTS = """el => ['::before', '::after']
  .map((p) => getComputedStyle(el, p))
  .filter((g) => g.content !== 'none' && parseFloat(g.width) > el.getBoundingClientRect().width)"""
"""The ghost outlines a tile's corner square draws (one per orientation that fits there)."""


def box_of(locator: Locator) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None
    return box


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        outer["x"] - 1 <= inner["x"]
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
        and outer["y"] - 1 <= inner["y"]
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1
    )


def visible_placements(page: Page) -> int:
    return page.locator("#prompts button.choice", has_text="Place a tile").filter(visible=True).count()


def test_the_game_master_builds_a_long_chain_by_clicking_the_grid(
    server: Served, open_page: PageFactory
) -> None:
    """Issue 26: the game master places each tile by clicking a lit corner square on the grid
    (pointing at it draws the tile's ghost; where both orientations fit, the small menu says
    "upright" or "sideways"), the prompt lists none of the dozens of placements unless its
    list is opened, and the map's frame fits the built map: a chain of tiles westward to
    x = -24 stays in view, the newest tile inside the frame every time."""
    table = create_game_table(server.url, "attack_the_darkness", ["Cy"], OPTIONS, SEED)
    gm_page = open_page(table.gm_url)
    expect_live(gm_page)
    frame = gm_page.locator("#atd-map .atd-grid-scroll")
    toggle = gm_page.locator("#atd-square-choices")
    with httpx.Client(base_url=server.url, timeout=10) as http:
        table_api = Driver.of(http, table.created)
        while waiting_kind("place_tile")(gm := table_api.payload()):
            offered = [c["command"] for p in gm["prompts"] for c in p["choices"]]
            assert len(offered) > 50
            expect_seq(gm_page, gm["seq"])
            assert visible_placements(gm_page) == 0
            expect(toggle).to_be_visible()
            west = min(offered, key=lambda c: (c["args"]["x"], abs(c["args"]["y"]), c["args"]["o"]))
            corner = board_element(gm_page, "square:{x},{y}".format(**west["args"]))
            corner.hover()
            ghost = corner.evaluate(GHOSTS)
            fits = {c["args"]["o"] for c in offered if c["args"] | {"o": ""} == west["args"] | {"o": ""}}
            assert len(ghost) == len(fits), "pointing at a corner draws each tile that may lie there"
            placed = gm_page.locator("#atd-tiles .atd-tile").count()
            assert click(gm_page, west) == "square:{x},{y}".format(**west["args"])
            newest = gm_page.locator("#atd-tiles .atd-tile").nth(placed)
            expect(newest).to_be_attached()
            assert inside(box_of(newest), box_of(frame)), "the newest tile lies in the map's frame"
        xs = [t["x"] for t in gm["view"]["map"]["tiles"]]
        assert min(xs) == -24
        assert frame.evaluate("f => f.scrollWidth <= f.clientWidth + 1"), "the whole map fits its frame"
        screenshot(gm_page, "atd-tabletop-chain")
        # The list is one toggle away (for whoever prefers buttons): Cy's token now.
        table_api.play_until(waiting_kind("place_token"))
        expect_seq(gm_page, table_api.payload()["seq"])
        cy = open_page(table.seat_url(0))
        expect_live(cy)
        starts = cy.locator("#prompts button.choice", has_text="Start on the stairs")
        expect(starts.first).to_be_hidden()
        cy.locator("#atd-square-choices > summary").click()
        expect(starts.first).to_be_visible()
