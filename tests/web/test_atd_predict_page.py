"""The predicted outcome on the page (issue 13 "Playing a card"): while a player chooses a
target, their page's window says what the card will do to each one (predict.py, through
``Game.page_extras``); the other seats, the spectators and the API's view do not get it."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.support.tables import auth
from tests.web.test_attack_the_darkness_board import client, drive, new_table, seat_page, waiting, watch_page
from tests.web.test_darkest_night_board import section

__all__ = ["client"]  # the fixture, shared with the board's tests


def test_the_chooser_sees_each_targets_outcome_and_nobody_else_does(client: TestClient) -> None:
    table = new_table(client, seed="atd-target")
    gm = drive(client, table, waiting("target"), limit=1500)
    seat = gm["view"]["waiting"]["seats"][0]
    window = section(seat_page(client, table, seat), "atd-window")
    assert 'class="atd-predict"' in window and "what each choice does" in window
    assert window.count("data-predict-for=") >= 1 and "damage" in window
    for other in range(len(table["seats"])):
        if other != seat:
            assert 'class="atd-predict"' not in seat_page(client, table, other)
    assert 'class="atd-predict"' not in watch_page(client, table)
    view = client.get(
        f"/api/tables/{table['table_id']}/view", headers=auth(table["seats"][seat]["token"])
    ).json()
    assert "predict" not in view["view"]
