"""Dark Omen in the browser: the Underworld's vortices glide round the middle ring to their
new spaces when a round starts (DO L534-535), as the obstacle layers turn (issue 15)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import create_game_table, expect_live, expect_seq, screenshot, table_events
from tests.e2e.test_dark_omen import post, view_of

pytestmark = pytest.mark.browser


def test_the_vortices_glide_to_where_the_roll_moved_them(server: Served, open_page: PageFactory) -> None:
    table = create_game_table(
        server.url, "dark_omen", ["Ann"], {"mode": "quick_chapter", "chapter": 4}, seed="e2e-vortex"
    )
    page = open_page(table.seat_url(0), viewport={"width": 1100, "height": 900})
    expect_live(page)
    before = view_of(table, 0)["view"]["vortices"]
    assert len(before) == 2
    expect(page.locator(".do-vortex[data-vortex]")).to_have_count(2)
    expect(page.locator(".do-vortex[data-moved]")).to_have_count(0)
    seq = post(table, 0, {"seat": 0, "type": "end_round", "args": {}}, "end-1")
    expect_seq(page, seq)
    moved = [e["data"] for e in table_events(table) if e["type"] == "VortexMoved"]
    after = view_of(table, 0)["view"]["vortices"]
    assert moved and after != before, "a new round moves the vortices (DO L534)"
    for vortex in {m["vortex"] for m in moved if before[m["vortex"]] != after[m["vortex"]]}:
        g = page.locator(f'.do-vortex[data-vortex="{vortex}"]')
        expect(g).to_have_attribute("data-moved", "1")
        expect(g.locator("title")).to_have_text(f"A darkness vortex on {after[vortex]}")
    screenshot(page, "dark-omen-vortices")
