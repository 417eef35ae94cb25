"""Attack the Darkness in Debian's chromium (issue 13): an Arena match of two teams of two
played to its end. Ann's every move is clicked on her page — her initiative cuts, her
corner square, her speed moves, cards and targets, her defences — while the three others
play through the API (the quick player, ``atd_play.py``). A spectator's page shows each
initiative cut as it is revealed, the teams in their colours on tokens and panels, whose
turn it is, and the outcome.

The seed was picked with ``python -m tests.e2e.atd_play``: the first cuts tie, so the tied
players cut again; the match ends in round 3 with Bob and Di's team the last standing."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.atd_clicks import click, lit
from tests.e2e.atd_play import Driver, Payload
from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import create_game_table, expect_live, expect_seq, screenshot

SEED = "atd-1"
NAMES = ["Ann", "Bob", "Cy", "Di"]
OPTIONS = {"mode": "arena", "teams": 2}
TEAM = re.compile(r"\batd-team-(\d)\b")


def team_of(page: Page, seat: int) -> int:
    """The team colour class the page draws ``seat``'s token with."""
    token = page.locator(f'#atd-tokens [data-target="combatant:c{seat}"]')
    match = TEAM.search(token.get_attribute("class") or "")
    assert match, f"seat {seat}'s token has no team colour"
    return int(match.group(1))


def test_an_arena_match_of_two_teams_to_its_end(server: Served, open_page: PageFactory) -> None:
    table = create_game_table(server.url, "attack_the_darkness", NAMES, OPTIONS, SEED)
    ann = open_page(table.seat_url(0))
    watch = open_page(table.watch_url)
    for page in (ann, watch):
        expect_live(page)
    status = watch.locator("#atd-status")
    clicked: list[str] = []
    cuts_seen = placed = False

    with httpx.Client(base_url=server.url, timeout=10) as http:
        table_api = Driver.of(http, table.created)
        for _ in range(200):
            gm = table_api.payload()
            if gm["outcome"] is not None:
                break
            view = gm["view"]
            kind = view["waiting"]["kind"]
            if view["cuts"] and not cuts_seen:
                # A cut is shown to everyone as soon as it is made (AtD L290).
                expect_seq(watch, gm["seq"])
                expect(status).to_contain_text("Initiative cuts")
                for seat, costs in view["cuts"].items():
                    expect(status).to_contain_text(f"{NAMES[int(seat)]}: {', '.join(map(str, costs))}")
                expect(status.locator(".atd-order")).to_have_count(0)  # no order before the cuts decide it
                screenshot(watch, "atd-arena-cuts")
                cuts_seen = True
            if kind == "act" and not placed:
                check_teams_and_turn(watch, gm)
                check_teams_and_turn(ann, gm)
                screenshot(ann, "atd-arena-seat")
                placed = True
            seat, command, payload = table_api.next_move()
            if seat != 0:
                table_api.send(seat, command)
                continue
            if kind == "place_token":
                expect_seq(ann, payload["seq"])
                corner = lit(ann, "#atd-cells .atd-sq")
                assert corner.count() == len(payload["prompts"][0]["choices"])
            if kind == "defend":
                expect_seq(ann, payload["seq"])
                expect(ann.locator("#atd-window")).to_contain_text("You are attacked!")
            target = click(ann, command, payload["seq"])
            table_api.note(0, command)
            clicked.append(f"{command['type']}:{target}")

    outcome = gm["outcome"]
    assert outcome["result"] == "win" and outcome["winners"] == [1, 3], outcome
    assert cuts_seen and placed
    kinds = [c.split(":", 1)[0] for c in clicked]
    assert kinds.count("cut") >= 2, "Ann's cut tied and she cut again"
    assert {"token", "speed", "play", "add", "done", "target", "defend", "end_turn"} <= set(kinds), kinds
    assert "target:combatant:c1" in clicked, "Ann aimed at Bob by clicking his token"
    for page in (ann, watch):
        expect_seq(page, gm["seq"])
        expect(page.locator("#status")).to_contain_text("Game over")
        expect(page.locator("#atd-status .atd-result")).to_contain_text("Team 2: Bob and Di win")
        assert page.locator("#prompts button.choice").count() == 0
    expect(ann.locator("#atd-status .atd-result")).to_contain_text("Your team is beaten")
    screenshot(watch, "atd-arena-end")
    screenshot(ann, "atd-arena-end-seat")


def check_teams_and_turn(page: Page, gm: Payload) -> None:
    """Teams in colour (tokens and panels), the initiative order, whose turn it is."""
    view = gm["view"]
    expect_seq(page, gm["seq"])
    teams = [ch["team"] for ch in view["characters"]]
    assert [team_of(page, seat) for seat in range(len(NAMES))] == teams == [0, 1, 0, 1]
    for seat, team in enumerate(teams):
        expect(page.locator(f"#atd-char-{seat} .atd-team-tag")).to_have_text(f"team {team + 1}")
    for seat in view["order"]:  # the initiative order in team colours too
        expect(page.locator(f"#atd-status .atd-order .atd-seat-{seat}")).to_have_class(
            re.compile(rf"\batd-team-{teams[seat]}\b")
        )
    order = " → ".join(NAMES[s] for s in view["order"])
    expect(page.locator("#atd-status .atd-order")).to_contain_text(f"Initiative: {order}")
    name = NAMES[view["turn"]]
    expect(page.locator("#atd-status .atd-turn")).to_have_text(f"{name}’s turn")
    expect(page.locator(f'#atd-tokens [data-target="combatant:c{view["turn"]}"]')).to_have_class(
        re.compile(r"\batd-current\b")
    )
