"""Issue 8, item 9: the replay page folds exactly what the live table folds, so a move
taken back is not on the board of any later frame, also across a snapshot."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.live.test_undo import choice, dn_table, post


def board_of(client: TestClient, tid: str, seq: int) -> str:
    html = client.get(f"/t/{tid}/replay", params={"seq": seq}).text
    match = re.search(r'<main class="board"[^>]*>(.*?)</main>', html, re.S)
    assert match, html[:500]
    board = match.group(1)
    board = re.sub(r'<p class="mid-move">.*?</p>', "", board, flags=re.S)
    return re.sub(r'<section class="status">.*?</section>', "", board, flags=re.S)  # names the event


@pytest.mark.parametrize("snapshot_every", [1000, 3])
def test_replay_after_an_undo_shows_the_move_taken_back(db_url: str, snapshot_every: int) -> None:
    upgrade(db_url)
    with TestClient(create_app(make_settings(db_url, snapshot_every=snapshot_every))) as client:
        table = dn_table(client, seats=1)
        tid, token = table["table_id"], table["seats"][0]["token"]
        post(client, tid, token, choice(client, tid, token, "take_turn"))
        before = client.get(f"/api/tables/{tid}").json()["seq"]
        post(client, tid, token, choice(client, tid, token, "travel"))
        moved = client.get(f"/api/tables/{tid}").json()["seq"]
        post(client, tid, token, choice(client, tid, token, "undo"))
        last = client.get(f"/api/tables/{tid}").json()["seq"]
        assert board_of(client, tid, moved) != board_of(client, tid, before)  # the hero moved…
        assert board_of(client, tid, last) == board_of(client, tid, before)  # …and came back
        watch = client.get(f"/t/{tid}/watch").text
        assert board_of(client, tid, last).count("dn-loc-") == watch.count("dn-loc-")