"""The lobby's form for a game with a "seats" option (Darkest Night's hero controllers) and
its live summary: the combined difficulty (DN 20.1) and who controls which hero (DN 3.2)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.support.tables import auth

DN_FORM = {"game": "darkest_night", "seat": ["Ann", "Bo", ""], "opt_heroes": "4"}


def test_the_form_offers_a_controller_per_hero(client: TestClient) -> None:
    form = client.get("/lobby/form", params={"game": "darkest_night"}).text
    assert 'data-count-option="heroes"' in form
    assert form.count('<select name="opt_hero_seats">') == 5  # up to 5 heroes (DN 20.2)
    assert form.count('<option value="">shared in turn</option>') == 5
    assert 'id="option-summary"' in form and 'hx-post="/lobby/summary"' in form


def test_the_summary_rates_the_difficulty_and_names_the_controllers(client: TestClient) -> None:
    standard = client.post("/lobby/summary", data=DN_FORM)
    assert standard.status_code == 200
    assert "Combined difficulty modifier +0 (DN 20.1): the standard challenge." in standard.text
    assert (
        "Ann chooses and plays the first and third heroes." in standard.text
        and "Bo chooses and plays the second and fourth heroes." in standard.text
    )

    harder = client.post(
        "/lobby/summary",
        data=DN_FORM
        | {
            "opt_starting_blights": "2",
            "opt_pall_of_suffering": "on",
            "opt_hero_seats": ["1", "1", "1", "0", ""],
        },
    )
    assert "Combined difficulty modifier +4 (DN 20.1): harder than the standard game." in harder.text
    assert (
        "Ann chooses and plays the fourth hero." in harder.text
        and "Bo chooses and plays the first, second and third heroes." in harder.text
    )

    wrong = client.post("/lobby/summary", data=DN_FORM | {"opt_hero_seats": ["0", "0", "0", "0"]})
    assert wrong.status_code == 200 and 'class="summary-error"' in wrong.text
    assert "seat 2 controls no hero" in wrong.text

    gap = client.post("/lobby/summary", data=DN_FORM | {"opt_hero_seats": ["0", "", "1", "1"]})
    assert "choose a seat for number 2" in gap.text
    # Player names are text, never markup.
    named = client.post("/lobby/summary", data=DN_FORM | {"seat": ["<b>Ann</b>", "Bo"]})
    assert "&lt;b&gt;Ann&lt;/b&gt; chooses and plays" in named.text and "<b>Ann</b>" not in named.text


def test_a_table_made_in_the_lobby_gives_each_hero_its_controller(client: TestClient) -> None:
    page = client.post("/lobby", data=DN_FORM | {"opt_hero_seats": ["1", "0", "0", "0", ""]})
    assert page.status_code == 200, page.text
    tid = re.search(r"/t/(\w+)/join/", page.text).group(1)  # type: ignore[union-attr]
    tokens = list(dict.fromkeys(re.findall(rf"/t/{tid}/join/([\w-]+)", page.text)))  # each link shows twice
    assert client.get(f"/api/tables/{tid}").json()["waiting_for"] == [1]  # hero 1 is Bo's to choose
    view = client.get(f"/api/tables/{tid}/view", headers=auth(tokens[1])).json()
    assert view["prompts"] and view["prompts"][0]["seat"] == 1


def test_a_refused_table_keeps_what_was_typed(client: TestClient) -> None:
    sent = DN_FORM | {"opt_hero_seats": ["0", "0", "0", "0"], "opt_starting_blights": "2", "name": "Friday"}
    page = client.post("/lobby", data=sent)
    assert page.status_code == 422
    assert "seat 2 controls no hero" in page.text
    assert 'value="Ann"' in page.text and 'value="Bo"' in page.text
    assert re.search(r'name="opt_starting_blights" value="2"', page.text)
    assert page.text.count('value="0" data-seat="0" selected') == 4
