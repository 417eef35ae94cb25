"""Boards you click (issue 9, item 3): the board is one render per view, its elements
marked with ``data-target``; each viewer's prompts say which marks are live for them (a
button's ``data-target``) and give every choice a stable id made from its command."""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi.testclient import TestClient

from app.games.darkest_night.content import LOCATIONS
from app.kernel.types import SPECTATOR, Choice, Viewer
from app.web import fragments
from tests.web.test_darkest_night_board import new_dn_table, play, play_to_first_action, section

BUTTON = re.compile(r'<button type="button" class="choice"(?P<attrs>[^>]*)>')


def buttons(page: str) -> list[dict[str, Any]]:
    """Each prompt button's id, data-target and the command it sends."""
    out = []
    for found in BUTTON.finditer(section(page, "prompts")):
        attrs = found.group("attrs")
        vals = re.search(r'hx-vals="([^"]*)"', attrs).group(1)  # type: ignore[union-attr]
        unquoted = vals.replace("&quot;", '"').replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">")
        command = json.loads(json.loads(unquoted.replace("&amp;", "&"))["command"])
        target = re.search(r'data-target="([^"]*)"', attrs)
        out.append(
            {
                "id": re.search(r'id="([^"]*)"', attrs).group(1),  # type: ignore[union-attr]
                "target": target.group(1) if target else None,
                "command": command,
            }
        )
    return out


def at_action(client: TestClient) -> tuple[dict[str, Any], int, str]:
    table = new_dn_table(client, seed="dn-targets")
    seat, _ = play_to_first_action(client, table)
    page = client.get(table["seats"][seat]["url"]).text
    return table, seat, page


def test_a_seats_choices_name_the_locations_they_travel_to(client: TestClient) -> None:
    table, seat, page = at_action(client)
    offered = buttons(page)
    travels = [b for b in offered if b["command"]["type"] == "travel"]
    assert travels, "the action step offers travel (DN 8.0)"
    for b in travels:
        assert b["target"] == f"location:{b['command']['args']['to']}"
    assert all(b["target"] is None for b in offered if b["command"]["type"] in ("hide", "end_action"))
    # Every id is made from the command it sends, never from its position.
    for b in offered:
        choice = Choice(b["command"]["type"], b["command"]["args"], "")
        assert b["id"] == fragments.choice_dom_id(b["command"]["seat"], choice)
    assert len({b["id"] for b in offered}) == len(offered)
    # The map marks every location, for everyone: the page wires the live ones.
    board = section(page, "dn-map")
    for location in LOCATIONS:
        assert f'data-target="location:{location}"' in board
    assert "tabindex" not in board and 'role="button"' not in board  # wired by the page, per viewer


def test_a_spectator_has_nothing_wired(client: TestClient) -> None:
    table, _, _ = at_action(client)
    watch = client.get(f"/t/{table['table_id']}/watch").text
    assert buttons(watch) == []
    assert "data-target" not in section(watch, "prompts")
    assert 'data-target="location:Monastery"' in section(watch, "dn-map")  # the marks alone


def test_the_board_is_one_render_for_every_viewer_of_a_view(client: TestClient) -> None:
    table, seat, page = at_action(client)
    tid = table["table_id"]
    watch = client.get(f"/t/{tid}/watch").text
    app = client.app
    hub = app.state.hub
    session = client.portal.call(hub.session, tid)
    player = Viewer("seat", frozenset({seat}))
    views = {key: session.game.view(session.state, v) for key, v in (("seat", player), ("watch", SPECTATOR))}
    assert views["seat"] == views["watch"]  # this table hides nothing from a hero player
    for fragment in ("dn-map", "dn-heroes", "dn-status"):
        assert section(page, fragment) == section(watch, fragment), fragment
    # ...rendered once: both viewers' contexts get the very same render object.
    env = app.state.templates
    seat_board = fragments.shared_board(env, session, fragments.context(hub, session, player))
    watch_board = fragments.shared_board(env, session, fragments.context(hub, session, SPECTATOR))
    assert seat_board is watch_board


def test_a_choice_keeps_its_id_when_the_table_moves_on(client: TestClient) -> None:
    """A chat line moves the seq but changes no choice: each button keeps its id, so the page
    can give the focus back to the same choice, and its command, which carries no seq and no
    command id (the page sends its seq with the click), so the buttons are the same HTML."""
    table, seat, page = at_action(client)
    before = {b["id"]: b["command"] for b in buttons(page)}
    assert before and all(c.keys() == {"seat", "type", "args"} for c in before.values())
    chat = {"seat": seat, "type": "chat", "args": {"text": "on my way"}}
    play(client, table, seat, chat, "chat-1")
    moved = client.get(f"/t/{table['table_id']}").text
    after = {b["id"]: b["command"] for b in buttons(moved)}
    assert after == before
    assert section(moved, "prompts") == section(page, "prompts")
