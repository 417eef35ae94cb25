"""A page opens with the latest log lines and fetches earlier ones a page at a time; the
replay steps event by event or a whole move (command) at a time, and says when a frame
falls partway through a move."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.web import fragments
from tests.web.test_darkest_night_board import new_dn_table, play_to_first_action

SEQS = re.compile(r'data-seq="(\d+)"')
MORE = re.compile(r'id="log-more"[^>]*hx-get="/t/\w+/log\?before=(\d+)&amp;view=(\w+)"')


def log_seqs(html: str) -> list[int]:
    return [int(s) for s in SEQS.findall(html.split('id="log-entries"', 1)[1])]


def test_earlier_log_lines_come_a_page_at_a_time(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    table = new_dn_table(client, seed="dn-log")
    tid = table["table_id"]
    play_to_first_action(client, table)
    seq = client.get(f"/api/tables/{tid}").json()["seq"]
    everything = log_seqs(client.get(f"/t/{tid}/watch").text)  # all of them fit in one page
    assert 'id="log-more" hidden' in client.get(f"/t/{tid}/watch").text

    monkeypatch.setattr(fragments, "LOG_PAGE", 10)
    page = client.get(f"/t/{tid}/watch").text
    shown = log_seqs(page)
    assert shown == sorted(shown, reverse=True) and all(s > seq - 10 for s in shown)
    more = MORE.search(page)
    assert more and more.groups() == (str(seq - 10), "watch")
    while more:
        response = client.get(f"/t/{tid}/log", params={"before": more.group(1), "view": "watch"})
        assert response.status_code == 200
        assert response.text.count('hx-swap-oob="beforeend:#log-entries"') == 1
        lines = [int(s) for s in SEQS.findall(response.text)]
        assert all(int(more.group(1)) - 10 < s <= int(more.group(1)) for s in lines)
        shown += lines
        more = MORE.search(response.text)
    assert shown == everything  # newest first, nothing twice, nothing missing
    missing = client.get("/t/nosuchtable/log", params={"before": 5})
    assert missing.status_code == 404 and "no table" in missing.text.lower()


def test_the_replay_steps_by_move_and_marks_a_half_done_board(client: TestClient) -> None:
    table = new_dn_table(client, seed="dn-moves")
    tid = table["table_id"]
    play_to_first_action(client, table)
    session = client.portal.call(client.app.state.hub.session, tid)
    events = [
        {"seq": e.seq, "command_id": e.command_id}
        for e in client.portal.call(session.events_between, 0, session.seq)
    ]
    page = client.get(f"/t/{tid}/replay").text
    found = re.search(r'data-moves="([\d,]+)"', page)
    assert found
    ends = [int(s) for s in found.group(1).split(",")]
    assert ends == sorted(set(ends)) and ends[-1] == events[-1]["seq"]
    setup = [e["seq"] for e in events if e["command_id"] is None]
    assert ends[0] == max(setup)  # the whole setup is one step
    # Every stop is the last event of its command; a command of several events is one move.
    by_command = {}
    for e in events:
        if e["command_id"] is not None:
            by_command[e["command_id"]] = e["seq"]
    assert set(ends[1:]) == set(by_command.values())
    long_move = next(end for before, end in zip(ends, ends[1:], strict=False) if end - before > 1)
    middle = client.get(f"/t/{tid}/replay/frame", params={"seq": long_move - 1}).text
    assert "Partway through a move" in middle
    assert (
        "partway through a move" not in client.get(f"/t/{tid}/replay/frame", params={"seq": long_move}).text
    )
    assert 'data-move="1"' in page and 'data-move="-1"' in page


def test_rounds_and_turns_divide_the_log(client: TestClient) -> None:
    """Issue 4: every event "with the round and hero": each round's and turn's first line
    is marked, so the lines under it read as that round's and that hero's."""
    table = new_dn_table(client, seed="dn-log-marks")
    tid = table["table_id"]
    play_to_first_action(client, table)
    page = client.get(f"/t/{tid}/watch").text
    rounds = re.findall(r'<li class="log-entry log-round"[^>]*>.*?</li>', page)
    turns = re.findall(r'<li class="log-entry log-turn"[^>]*>.*?</li>', page)
    assert len(rounds) == 1 and "Round 1 begins." in rounds[0]
    assert turns and all("takes a turn." in t for t in turns)
    plain = re.findall(r'<li class="log-entry"[^>]*>.*?</li>', page)
    assert plain and not any("Round 1 begins." in line for line in plain)
