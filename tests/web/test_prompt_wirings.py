"""A prompt button's hx-vals and element id are kept per table while its command is offered
(``fragments.prompt_buttons``, ``TableRenders.wirings``), not made again at each seq: these
tests hold every kept wiring, over a played game and across tables, to the one made fresh
from the button's command, and switches (a command of one boolean ``on``) to their flag."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel.types import Choice, Viewer
from app.main import create_app
from app.store.migrate import upgrade
from app.web import fragments
from app.web.templating import json_attr, json_text
from tests.conftest import make_settings
from tests.web.render_profile import new_table, play_one

SEATS = [Viewer("seat", frozenset({s})) for s in range(4)]


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url, snapshot_every=0))) as client:
        yield client


def fresh_wiring(button: dict[str, Any]) -> tuple[str, str]:
    """The button's hx-vals and element id, made from its command as if never seen."""
    command = button["command"]
    choice = Choice(command["type"], command["args"], button["label"], button["detail"])
    return json_attr({"command": json_text(command)}), fragments.choice_dom_id(command["seat"], choice)


def test_kept_wirings_are_the_fresh_ones_seq_after_seq(client: TestClient) -> None:
    app: Any = client.app
    hub = app.state.hub
    tables = [new_table(client, "wirings-a"), new_table(client, "wirings-b")]
    rng = random.Random("wirings")
    kept = 0
    for step in range(40):
        session = tables[step % 2]
        if play_one(client, session, rng) is None:
            break
        before = dict(fragments.renders_of(session).wirings)
        for viewer in SEATS:
            for wire in fragments.viewer_prompts(hub, session, viewer):
                for button in wire["choices"]:
                    vals, dom_id = fresh_wiring(button)
                    assert button["vals"] == vals
                    assert button["id"] == dom_id or button["id"].startswith(dom_id + "-2")
                    args = button["command"]["args"]
                    assert button["switch"] is (len(args) == 1 and isinstance(args.get("on"), bool))
                    command = button["command"]
                    seat = command["seat"]
                    kept += (type(seat), seat, command["type"], json_text(command["args"])) in before
    assert kept > 0, "a button offered at an earlier seq is wired from what the table kept"
