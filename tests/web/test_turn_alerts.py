"""A seat's page notices "your turn" in a background tab (issue 11): the title, an optional
sound (off by default, remembered per browser) and the Notifications API once the player
allows it. The behaviour lives in static/umbra.js (the CSP allows no inline script); these
tests check the controls a page draws and the guarantees the script keeps."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from tests.web.test_darkest_night_board import new_dn_table

SCRIPT = (Path(__file__).resolve().parents[2] / "static" / "umbra.js").read_text()


def test_only_a_seat_page_offers_the_turn_alerts(client: TestClient) -> None:
    table = new_dn_table(client, seed="dn-turn-alerts")
    tid = table["table_id"]
    seat_page = client.get(table["seats"][0]["url"]).text
    assert "data-turn-alerts" in seat_page
    assert re.search(r'<input type="checkbox" id="turn-sound">', seat_page)  # off by default
    assert re.search(r'<button type="button" id="turn-notify" hidden>', seat_page)
    for other in (client.get(f"/t/{tid}/watch").text, client.get(f"/t/{tid}/gm").text):
        assert "data-turn-alerts" not in other and "turn-notify" not in other


def test_the_script_asks_for_notifications_only_when_the_button_is_pressed() -> None:
    assert SCRIPT.count("requestPermission") == 1
    handler = SCRIPT.split('closest("#turn-notify")', 1)
    assert len(handler) == 2 and "requestPermission" in handler[1].split("});", 1)[0]


def test_the_title_changes_only_while_hidden_and_comes_back_when_seen() -> None:
    check = SCRIPT.split("function checkTurn()", 1)[1].split("\n  }\n", 1)[0]
    assert "document.hidden" in check and "document.title = TURN_MARK + plainTitle" in check
    assert "if (soundOn()) beep();" in check  # the sound only when switched on
    assert 'localStorage.getItem(SOUND_KEY) === "on"' in SCRIPT  # off by default
    assert 'addEventListener("visibilitychange"' in SCRIPT and "document.title = plainTitle" in SCRIPT
    assert "createOscillator" in SCRIPT and ".mp3" not in SCRIPT and ".wav" not in SCRIPT  # no asset
