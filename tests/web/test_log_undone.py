"""Undone moves are struck through in the log, and no player-facing line shows an event
number (issue 11). The undo's line names the lines it took back (data-undone, which
static/umbra.js strikes through); no line carries its seq as a visible list number."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.live.test_undo import choice, dn_table, post

SCRIPT = (Path(__file__).resolve().parents[2] / "static" / "umbra.js").read_text()
STYLE = (Path(__file__).resolve().parents[2] / "static" / "umbra.css").read_text()


def test_an_undo_names_the_lines_it_took_back_without_numbers(db_url: str) -> None:
    upgrade(db_url)
    with TestClient(create_app(make_settings(db_url))) as client:
        table = dn_table(client, seats=1)
        tid, token = table["table_id"], table["seats"][0]["token"]
        post(client, tid, token, choice(client, tid, token, "take_turn"))
        before = client.get(f"/api/tables/{tid}").json()["seq"]
        post(client, tid, token, choice(client, tid, token, "travel"))
        moved = client.get(f"/api/tables/{tid}").json()["seq"]
        post(client, tid, token, choice(client, tid, token, "undo"))
        undo_seq = client.get(f"/api/tables/{tid}").json()["seq"]
        log = client.get(f"/t/{tid}/watch").text.split('id="log-entries"', 1)[1].split("</ol>", 1)[0]

    undo = re.search(
        r'<li class="log-entry log-undo" data-seq="(\d+)" data-undone="(\d+)-(\d+)">(.*?)</li>', log
    )
    assert undo, log[:2000]
    assert int(undo.group(1)) == undo_seq and (int(undo.group(2)), int(undo.group(3))) == (before + 1, moved)
    assert "takes back their last action" in undo.group(4) and not re.search(
        r"\d", undo.group(4).split("</b>")[-1]
    )
    taken_back = [int(s) for s in re.findall(r'data-seq="(\d+)"', log) if before < int(s) <= moved]
    assert taken_back  # the travel's lines are still shown, to be struck through
    assert "value=" not in log and "reversed" not in log  # no seq as a list number
    texts = re.findall(r'<span class="text">(.*?)</span>', log)
    assert not [t for t in texts if re.search(r"\bevents? \d", t)]


def test_the_page_strikes_undone_lines_through() -> None:
    strike = SCRIPT.split("function strikeUndone()", 1)[1].split("\n  }\n", 1)[0]
    assert "[data-undone]" in strike and 'classList.toggle("log-undone"' in strike
    for event in ("htmx:wsAfterMessage", "htmx:afterSettle", "DOMContentLoaded"):
        assert f'addEventListener("{event}", strikeUndone)' in SCRIPT
    assert re.search(r"\.log-undone[^{]*\{[^}]*line-through", STYLE)
    assert re.search(r"\.log ol \{[^}]*list-style: none", STYLE)
