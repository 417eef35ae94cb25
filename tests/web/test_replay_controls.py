"""The replay's step buttons are drawn as inline SVG, never as font glyphs (issue 11: ⏮ ⏭
showed as empty boxes on phones whose fonts lack them); each keeps its accessible name."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.web.test_darkest_night_board import new_dn_table, play_to_first_action

GLYPHS = "⏮⏭◀▶⏪⏩◁▷"


def test_replay_step_buttons_are_svg_with_names(client: TestClient) -> None:
    table = new_dn_table(client, seed="dn-replay-controls")
    play_to_first_action(client, table)
    page = client.get(f"/t/{table['table_id']}/replay").text
    assert not [g for g in GLYPHS if g in page]
    buttons = re.findall(r'<button type="button" class="step"([^>]*)>(.*?)</button>', page, re.S)
    assert len(buttons) == 4
    names = [re.search(r'aria-label="([^"]+)"', attrs).group(1) for attrs, _ in buttons]  # type: ignore[union-attr]
    assert names == ["Previous move", "Previous event", "Next event", "Next move"]
    for _, inside in buttons:
        assert re.fullmatch(r'<svg class="icon" [^>]*aria-hidden="true"[^>]*>.*</svg>', inside.strip(), re.S)
