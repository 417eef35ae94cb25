"""A strong bot beside a person, in the browser (issue 27, "Done when": a browser test plays
a table with a strong bot in a seat and a person in another).

Attack the Darkness, the Tavern Cellar at two players: the game master hands Bo's seat to
the bot and sets the table's bots to **strong** (the search, ``app.kernel.search``) from
the game-master page; Ann plays her turns by pressing her page as a person would
(``clicks_in_browser.press``: what she wants is the heuristic's pick on the true table).
The bot answers Bo's questions by itself, its moves reach Ann's page live, and the table
goes on through several turns of each."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.clicks_in_browser import SPECS, ClickFigures, TrueTable, press
from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import create_game_table, expect_live, expect_seq, page_seq, screenshot, wait_until

pytestmark = pytest.mark.browser

BOT_TURNS = 2
"""Turns of Bo's the bot must play (each a handful of searched questions)."""


def test_a_person_plays_beside_a_strong_bot(server: Served, open_page: PageFactory) -> None:
    spec = SPECS["attack_the_darkness"]
    table = create_game_table(server.url, spec.game, spec.names, spec.options, seed="strong-bot")
    gm = open_page(table.gm_url)
    expect_live(gm)
    with gm.expect_response(re.compile(r"/bot-strength$")) as answer:
        gm.locator("#bot-strength select[name=strength]").select_option("strong")
    assert answer.value.status == 200, answer.value.text()
    expect(gm.locator("#bot-strength select[name=strength]")).to_have_value("strong")
    expect(gm.locator("#log-entries")).to_contain_text("sets the bots to play strong")
    bo = gm.locator("#seats li").filter(has=gm.locator(".name", has_text=re.compile(r"^Bo$")))
    bo.get_by_role("button", name="Let the bot play Bo").click()
    expect(bo.locator(".tag-bot")).to_have_text("bot")

    ann = open_page(table.seat_url(0))
    expect_live(ann)
    expect(ann.locator("#seats .tag-bot")).to_have_count(1)
    true = TrueTable(server.database_url.removeprefix("sqlite:///"), table.id, spec.game)
    rng = random.Random(0)
    figures = ClickFigures(spec.game, spec.turn_word)
    bot_seqs: list[int] = []
    turns = {0: 0, 1: 0}
    try:
        true.catch_up()
        for _ in range(600):
            game, state = true.game, true.state
            if game.outcome(state) is not None or min(turns.values()) >= BOT_TURNS:
                break
            required = [p for p in game.prompts(state) if p.required and p.choices]
            assert required, "the table waits on nobody yet has not ended"
            mine = [p for p in required if p.seat == 0]
            choice = next((c for p in mine if (c := game.bot_choice(state, p, rng)) is not None), None)
            before = true.seq
            if choice is not None:
                expect_seq(ann, true.seq)
                prompt = next(p for p in mine if choice in p.choices)
                choice = spec.prefer(prompt, choice)
                press(ann, {"type": choice.type, "args": choice.args}, figures, counted=True)
            for _wait in range(400):  # the bot thinks up to ~0.4 s a question (its budget)
                events = true.catch_up()
                if true.seq > before:
                    break
                ann.wait_for_timeout(25)
            else:
                raise AssertionError(f"nothing moved at seq {before}: {[p.title for p in required]}")
            if choice is None:
                bot_seqs.append(true.seq)
            for event in events:
                if event.type == "TurnBegan":
                    turns[int(event.data["seat"])] += 1
        assert turns[1] >= BOT_TURNS or true.game.outcome(true.state) is not None, turns
        assert figures.commands >= 3 and len(bot_seqs) >= 3, (figures.commands, bot_seqs)
        # Bo's moves reached Ann's page by themselves, named in her log (the bot may have
        # moved on meanwhile: its turn goes on without Ann).
        wait_until(lambda: page_seq(ann) >= bot_seqs[-1], message="Ann's page shows the bot's moves")
        expect(ann.locator("#log-entries")).to_contain_text("Bo")
        expect(gm.locator("#bot-strength select[name=strength]")).to_have_value("strong")
        screenshot(ann, "strong-bot-beside-a-person")
    finally:
        true.close()
