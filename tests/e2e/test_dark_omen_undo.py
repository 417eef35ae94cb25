"""Dark Omen undo in a real browser (issue 15, "Log, undo, watching"): Ann steps on the
map, Bo steps elsewhere at once, and Ann still takes her step back from her page; the log
strikes only her lines through. Once Bo steps where Ann stands, her "Undo" is gone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import create_game_table, expect_live, expect_seq
from tests.e2e.test_dark_omen import post, view_of

pytestmark = pytest.mark.browser


def test_undo_past_another_players_move_elsewhere(server: Served, open_page: PageFactory) -> None:
    table = create_game_table(server.url, "dark_omen", ["Ann", "Bo"], {"mode": "quick_chapter"}, seed="undo")
    heroes = view_of(table, 0)["view"]["heroes"]
    assert (heroes[0]["at"], heroes[1]["at"]) == (64, 28)  # this seed's start spaces
    ann = open_page(table.seat_url(0), viewport={"width": 1100, "height": 900})
    expect_live(ann)
    undo = ann.locator("#prompts .prompt-optional button.choice", has_text="Undo your last action")
    with ann.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as answer:
        ann.locator('#prompts button.choice[data-target="space:63"]').first.click()
    assert answer.value.status == 200
    expect(ann.locator("#do-sheet-0")).to_contain_text("on 63")
    seq = post(table, 1, {"seat": 1, "type": "move", "args": {"to": 29}}, "bo-1")
    expect_seq(ann, seq)
    expect(undo).to_be_visible()  # Bo's step touched nothing of Ann's
    with ann.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as answer:
        undo.click()
    assert answer.value.status == 200
    expect(ann.locator("#do-sheet-0")).to_contain_text("on 64")
    expect(ann.locator("#do-acting-0 .do-ap-left")).to_have_count(6)
    expect(ann.locator("#do-hero-1 title")).to_contain_text("on 29:")
    expect(ann.locator("#log-entries .log-undone")).not_to_have_count(0)
    expect(ann.locator("#log-entries .log-undone", has_text="Bo")).to_have_count(0)
    # Ann steps to 27; Bo to 28 (still nothing of hers), then onto 27: her step is final.
    seq = post(table, 0, {"seat": 0, "type": "move", "args": {"to": 27}}, "ann-2")
    expect_seq(ann, seq)
    seq = post(table, 1, {"seat": 1, "type": "move", "args": {"to": 28}}, "bo-2")
    expect_seq(ann, seq)
    expect(undo).to_be_visible()
    seq = post(table, 1, {"seat": 1, "type": "move", "args": {"to": 27}}, "bo-3")
    expect_seq(ann, seq)
    expect(undo).to_have_count(0)
