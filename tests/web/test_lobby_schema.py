"""The lobby draws any game's options from their schema (issue 9, item 4): a pick per seat,
a mode, and an option that applies only with another's value, shown here with the test
game Waymarks; the form and ``POST /api/tables`` refuse the same options for the same reason."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.kernel.registry import unregister
from tests.web.served_game import serving
from tests.web.waymarks import WAYMARKS

WAYMARKS_MODULE = "tests.web.waymarks"
unregister(WAYMARKS.name)  # registered only while a test here runs (fixture ``lobby``)


@pytest.fixture
def lobby(sqlite_url: str) -> Iterator[TestClient]:
    with serving(sqlite_url, WAYMARKS, WAYMARKS_MODULE) as client:
        yield client


def api_create(client: TestClient, options: dict, names: list[str]) -> tuple[int, dict]:
    response = client.post(
        "/api/tables",
        json={"game": "waymarks", "options": options, "seats": [{"name": n} for n in names], "seed": "w"},
    )
    return response.status_code, response.json()


def opening(client: TestClient, table_id: str) -> dict:
    events = client.get(f"/api/tables/{table_id}/events").json()["events"]
    return events[0]["data"]


def test_the_form_draws_a_pick_per_seat_and_a_dependent_option(lobby: TestClient) -> None:
    form = lobby.get("/lobby/form", params={"game": "waymarks"}).text
    assert form.count('<select name="opt_character"') == 4  # one beside each of the 4 seats
    assert form.count('<option value="">a random character</option>') == 4
    assert '<option value="pilgrim">Pilgrim</option>' in form
    assert 'data-per-seat="character"' in form
    route = re.search(r'<label class="option option-choice"[^>]*data-depends-on="mode"[^>]*>', form)
    assert route and 'data-depends-values="[&quot;tour&quot;]"' in route.group(0)
    assert re.search(r'<option value="tour"\s*>A tour</option>', form)
    schema = {g["name"]: g for g in lobby.get("/api/games").json()}["waymarks"]["options"]
    assert schema[1]["depends_on"] == {"option": "mode", "values": ["tour"]}
    assert schema[2]["type"] == "per_seat" and schema[2]["distinct"] is True


def test_the_lobby_makes_a_table_with_each_seats_pick(lobby: TestClient) -> None:
    # The second seat is left unnamed: it is not created, and the pick beside it goes too.
    form = {
        "game": "waymarks",
        "seat": ["Ann", "", "Cy", ""],
        "opt_mode": "tour",
        "opt_route": "hills",
        "opt_character": ["ferryman", "pilgrim", "lamplighter", ""],
    }
    page = lobby.post("/lobby", data=form)
    assert page.status_code == 200, page.text
    tid = re.search(r"/t/(\w+)/join/", page.text).group(1)  # type: ignore[union-attr]
    started = opening(lobby, tid)
    assert started["names"] == ["Ann", "Cy"]
    assert started["characters"] == ["ferryman", "lamplighter"]
    assert (started["mode"], started["route"]) == ("tour", "hills")


def test_an_option_that_does_not_apply_is_left_out_of_the_form(lobby: TestClient) -> None:
    """Without the page's script the hidden route is still sent: the server leaves it out."""
    form = {"game": "waymarks", "seat": ["Ann"], "opt_mode": "race", "opt_route": "hills"}
    page = lobby.post("/lobby", data=form)
    assert page.status_code == 200, page.text
    tid = re.search(r"/t/(\w+)/join/", page.text).group(1)  # type: ignore[union-attr]
    assert opening(lobby, tid)["route"] == ""


@pytest.mark.parametrize(
    ("options", "names", "code", "message"),
    [
        (
            {"character": ["pilgrim", "pilgrim"]},
            ["Ann", "Bo"],
            "bad_option",
            "option character: seats 1 and 2 both pick Pilgrim; each seat picks a different one",
        ),
        (
            {"character": ["pilgrim", "ferryman"]},
            ["Ann"],
            "bad_option",
            "option character gives 2 picks for 1 seat: one per seat at most",
        ),
        (
            {"mode": "race", "route": "hills"},
            ["Ann"],
            "option_not_applicable",
            "option route (Route) applies only when mode is A tour; leave it out",
        ),
    ],
)
def test_the_form_and_the_api_refuse_alike(
    lobby: TestClient, options: dict, names: list[str], code: str, message: str
) -> None:
    status, body = api_create(lobby, options, names)
    assert status == 422
    assert body["error"]["code"] == code and body["error"]["message"] == message
    if code == "option_not_applicable" or len(options["character"]) > len(names):
        # The form never sends these: a hidden option is left out (previous test), and
        # each pick goes with the seat's name field beside it.
        return
    form = {"game": "waymarks", "seat": names, "opt_character": options["character"]}
    summary = lobby.post("/lobby/summary", data=form)
    assert f'<p class="summary-error">{message}</p>' in summary.text
    page = lobby.post("/lobby", data=form)
    assert page.status_code == 422 and message in page.text


def test_darkest_nights_hero_controllers_still_go_through_the_generic_path(lobby: TestClient) -> None:
    form = lobby.get("/lobby/form", params={"game": "darkest_night"}).text
    assert form.count('<select name="opt_hero_seats">') == 5
    assert "data-per-seat" not in form and "data-depends-on" not in form
