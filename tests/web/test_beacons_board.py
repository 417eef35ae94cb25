"""The platform's contract shown without Darkest Night (issue 9): the test game Beacons
(tests/support/beacons) has its board template outside the product (``template_root``),
a grid whose squares are marked in the one shared render and wired per viewer by the
prompts, and a per-seat lobby option the form and the API check alike."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel.registry import unregister
from app.kernel.types import SPECTATOR, Viewer
from app.web import fragments
from tests.support.beacons import BEACONS
from tests.support.tables import auth
from tests.web.served_game import serving
from tests.web.test_board_targets import buttons
from tests.web.test_darkest_night_board import section

BEACONS_MODULE = "tests.support.beacons"
unregister(BEACONS.name)  # registered only while a test here runs (fixture ``served``)


@pytest.fixture
def served(sqlite_url: str) -> Iterator[TestClient]:
    with serving(sqlite_url, BEACONS, BEACONS_MODULE) as client:
        yield client


def create(client: TestClient, options: dict[str, Any], names: list[str]) -> tuple[int, dict[str, Any]]:
    body = {"game": "beacons", "options": options, "seats": [{"name": n} for n in names], "seed": "bc"}
    response = client.post("/api/tables", json=body)
    return response.status_code, response.json()


def send(
    client: TestClient, table: dict[str, Any], seat: int, type_: str, args: dict[str, Any], cid: str
) -> None:
    token = next(s["token"] for s in table["seats"] if s["seat"] == seat)
    response = client.post(
        f"/api/tables/{table['table_id']}/commands",
        json={"seat": seat, "type": type_, "args": args, "command_id": cid},
        headers=auth(token),
    )
    assert response.status_code == 200, response.text


@pytest.fixture
def on_watch(served: TestClient) -> dict[str, Any]:
    """A two-keeper table where Ann (seat 0) keeps the first watch."""
    status, table = create(served, {"colour": ["jade", "amber"]}, ["Ann", "Bo"])
    assert status == 201, table
    send(served, table, 0, "take_watch", {"keeper": 0}, "w1")
    return table


def page_of(client: TestClient, table: dict[str, Any], seat: int) -> str:
    """The page of a browser holding only ``seat`` (a fresh cookie jar)."""
    client.cookies.clear()
    url = next(s["url"] for s in table["seats"] if s["seat"] == seat)
    return client.get(url).text


def test_the_board_is_one_render_for_every_viewer(served: TestClient, on_watch: dict[str, Any]) -> None:
    """The grid is the same HTML for both players and a spectator, every square marked;
    nothing on it is wired by the server (the page wires what its prompts allow)."""
    ann, bo = page_of(served, on_watch, 0), page_of(served, on_watch, 1)
    served.cookies.clear()
    watch = served.get(f"/t/{on_watch['table_id']}/watch").text
    board = section(ann, "bc-board")
    assert board == section(bo, "bc-board") == section(watch, "bc-board")
    for r in range(5):
        for c in range(5):
            assert f'data-target="square:{r}-{c}"' in board
    assert "tabindex" not in board and 'role="button"' not in board
    # Hands differ (each keeper sees its own), so the status fragment is per view.
    hand = served.portal.call(served.app.state.hub.session, on_watch["table_id"]).state.hands[0]  # type: ignore[attr-defined]
    assert hand[0] in section(ann, "bc-status") and hand[0] not in section(bo, "bc-status")
    assert hand[0] not in section(watch, "bc-status")


def test_views_that_match_share_one_render(served: TestClient, on_watch: dict[str, Any]) -> None:
    hub = served.app.state.hub  # type: ignore[attr-defined]
    env = served.app.state.templates  # type: ignore[attr-defined]
    session = served.portal.call(hub.session, on_watch["table_id"])
    watch = fragments.shared_board(env, session, fragments.context(hub, session, SPECTATOR))
    again = fragments.shared_board(env, session, fragments.context(hub, session, SPECTATOR))
    ann = fragments.shared_board(
        env, session, fragments.context(hub, session, Viewer("seat", frozenset({0})))
    )
    assert watch is again
    assert fragments.unmarked(ann["bc-board"]) == fragments.unmarked(watch["bc-board"])


def test_a_seats_prompts_carry_square_targets_and_a_spectators_none(
    served: TestClient, on_watch: dict[str, Any]
) -> None:
    ann = buttons(page_of(served, on_watch, 0))
    moves = [b for b in ann if b["command"]["type"] == "move"]
    assert {b["command"]["args"]["to"] for b in moves} == {"1-0", "0-1"}
    assert all(b["target"] == f"square:{b['command']['args']['to']}" for b in moves)
    assert all(b["target"] is None for b in ann if b["command"]["type"] in ("wait", "rest", "raise"))
    bo = buttons(page_of(served, on_watch, 1))
    assert bo and all(b["target"] is None for b in bo)  # Bo may only pass a spark now
    served.cookies.clear()
    assert buttons(served.get(f"/t/{on_watch['table_id']}/watch").text) == []


def test_the_second_step_of_lighting_targets_squares(served: TestClient, on_watch: dict[str, Any]) -> None:
    """Raise a lantern, then the squares within its reach are the targets (BC 3)."""
    raise_ = next(b for b in buttons(page_of(served, on_watch, 0)) if b["command"]["type"] == "raise")
    send(served, on_watch, 0, "raise", raise_["command"]["args"], "r1")
    lights = [b for b in buttons(page_of(served, on_watch, 0)) if b["command"]["type"] == "light"]
    assert lights and all(b["target"] == f"square:{b['command']['args']['square']}" for b in lights)
    send(served, on_watch, 0, "light", lights[0]["command"]["args"], "l1")
    board = section(served.get(f"/t/{on_watch['table_id']}/watch").text, "bc-board")
    square = lights[0]["command"]["args"]["square"]
    assert re.search(rf'id="bc-sq-{square}" class="bc-square bc-lit"', board)


def test_the_lobby_draws_the_per_seat_colour_and_the_dependent_nights(served: TestClient) -> None:
    form = served.get("/lobby/form", params={"game": "beacons"}).text
    assert form.count('<select name="opt_colour"') == 4
    assert '<option value="jade">Jade</option>' in form and 'data-per-seat="colour"' in form
    assert re.search(r'data-depends-on="campaign"', form)


def test_the_api_accepts_and_refuses_the_per_seat_option(served: TestClient) -> None:
    status, table = create(
        served, {"colour": ["jade", None], "campaign": "campaign", "nights": 3}, ["Ann", "Bo"]
    )
    assert status == 201, table
    events = served.get(f"/api/tables/{table['table_id']}/events").json()["events"]
    assert events[0]["data"] == {"names": ["Ann", "Bo"], "colours": ["jade", "amber"], "nights": 3}
    status, body = create(served, {"colour": ["jade", "jade"]}, ["Ann", "Bo"])
    assert status == 422
    assert body["error"] == {
        "code": "bad_option",
        "message": "option colour: seats 1 and 2 both pick Jade; each seat picks a different one",
    }
    status, body = create(served, {"colour": ["pink"]}, ["Ann"])
    assert status == 422 and body["error"]["code"] == "bad_option"
    status, body = create(served, {"campaign": "single", "nights": 3}, ["Ann"])
    assert status == 422 and body["error"]["code"] == "option_not_applicable"


def test_a_games_template_root_is_read_as_its_template_folder(served: TestClient) -> None:
    """``template_root`` (app/web/templating.py): a test game's board lives outside the
    product's templates; a product game's board is still read from templates/games/."""
    env = served.app.state.templates  # type: ignore[attr-defined]
    board = env.get_template("games/beacons/board.html")
    assert Path(board.filename) == Path(BEACONS.template_root) / "board.html"  # type: ignore[arg-type]
    assert "tests/support/beacons/templates" in board.filename.replace("\\", "/")
    product = env.get_template("games/darkest_night/board.html")
    assert product.filename.replace("\\", "/").endswith("templates/games/darkest_night/board.html")


def offered(client: TestClient, table: dict[str, Any], seat: int, type_: str) -> dict[str, Any] | None:
    token = next(s["token"] for s in table["seats"] if s["seat"] == seat)
    view = client.get(f"/api/tables/{table['table_id']}/view", headers=auth(token)).json()
    commands = [c["command"] for p in view["prompts"] for c in p["choices"]]
    return next((c for c in commands if c["type"] == type_), None)


def test_a_move_may_be_taken_back_but_not_a_drawn_card(served: TestClient, on_watch: dict[str, Any]) -> None:
    """``undoable``: a move has no chance in it; a drawn card is a secret learnt."""
    send(served, on_watch, 0, "move", {"to": "0-1"}, "m1")
    undo = offered(served, on_watch, 0, "undo")
    assert undo is not None
    token = on_watch["seats"][0]["token"]
    response = served.post(f"/api/tables/{on_watch['table_id']}/commands", json=undo, headers=auth(token))
    assert response.status_code == 200, response.text
    session = served.portal.call(served.app.state.hub.session, on_watch["table_id"])  # type: ignore[attr-defined]
    assert session.state.positions[0] == "0-0" and session.state.decision.kind == "act"
    send(served, on_watch, 0, "draw", {}, "d1")
    assert offered(served, on_watch, 0, "undo") is None
