"""A free-form option per seat in the lobby (OptionSpec kind "per_seat_text", issue 13):
Attack the Darkness's custom deck, written as a short text beside each seat, checked by the
game's rules of deck building with every broken rule listed before the table is made, and
used by the table when legal. Nothing here names a game in the platform's code: the form
is drawn from the schema."""

from __future__ import annotations

import json
import re

from fastapi.testclient import TestClient

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decks import deckcode, sample_deck

C = load()
FORM = {
    "game": "attack_the_darkness",
    "seat": ["Ann", "Bo", ""],
    "opt_mode": "adventure",
    "opt_class": ["champion"],
}


def champion_deck(**changes: int) -> str:
    """The Champion's pre-constructed deck as text, with some action counts changed."""
    resources, actions = sample_deck(C, "champion")
    actions = {card: n for card, n in (actions | changes).items() if n}
    return deckcode.write(C, resources, actions)


def test_the_form_offers_a_deck_text_beside_each_seat(client: TestClient) -> None:
    form = client.get("/lobby/form", params={"game": "attack_the_darkness"}).text
    assert form.count('<textarea name="opt_deck"') == 7  # one per possible seat (1-7)
    assert f'maxlength="{deckcode.MAX_LENGTH}"' in form
    assert 'placeholder="the pre-constructed deck"' in form


def test_the_summary_lists_every_rule_a_deck_breaks(client: TestClient) -> None:
    broken = "11 Hearty, 3 Momentous, 5 Brutish; 3 Hack!, 4 Cleave, 2 Nerve Pinch"
    summary = client.post("/lobby/summary", data=FORM | {"opt_deck": [broken, ""]}).text
    assert 'class="summary-error"' in summary
    for rule in (
        "the resource deck holds 19 cards, not exactly 27 (AtD L316)",
        "the action deck holds 9 cards, not exactly 27 (AtD L324)",
        "exactly 12 Hearty (it has 11) (AtD L317)",
        "5 copies of Brutish: at most 3 (AtD L318)",
        "4 copies of Cleave: at most 3 (AtD L325)",
        "is not usable by the Champion (AtD L306-308)",
    ):
        assert rule in summary, rule
    assert summary.count("Ann&#39;s Champion deck") == 6
    unreadable = client.post("/lobby/summary", data=FORM | {"opt_deck": ["12 Hearty", ""]}).text
    assert "a deck text is the resource cards, a &#39;;&#39;, then the action cards" in unreadable
    fine = client.post("/lobby/summary", data=FORM | {"opt_deck": [champion_deck(fate=0, feint=3), ""]}).text
    assert 'class="summary-error"' not in fine


def test_arena_refuses_its_banned_cards(client: TestClient) -> None:
    deck = champion_deck(fate=0, disembowel=1)
    arena = FORM | {"opt_mode": "arena", "opt_teams": "2", "opt_deck": [deck, ""]}
    summary = client.post("/lobby/summary", data=arena).text
    assert "banned in Arena games: Disembowel (AtD L297)" in summary


def test_a_refused_deck_keeps_its_text_and_a_legal_one_is_played(client: TestClient) -> None:
    broken = "12 Hearty; 3 Hack!"
    page = client.post("/lobby", data=FORM | {"opt_deck": [broken, ""]})
    assert page.status_code == 422
    assert "the resource deck holds 12 cards" in page.text and f">{broken}</textarea>" in page.text

    page = client.post("/lobby", data=FORM | {"opt_deck": [champion_deck(fate=0, feint=3), ""]})
    assert page.status_code == 200, page.text
    tid = re.search(r"/t/(\w+)/join/", page.text).group(1)  # type: ignore[union-attr]
    began = client.get(f"/api/tables/{tid}/events").json()["events"][0]
    assert began["type"] == "AdventureBegan"
    decks = began["data"]["decks"]
    assert decks[0]["actions"]["feint"] == 3 and "fate" not in decks[0]["actions"]
    assert decks[1] == dict(
        zip(("resources", "actions"), sample_deck(C, began["data"]["classes"][1]), strict=True)
    )


def test_the_api_refuses_a_deck_text_past_its_bound(client: TestClient) -> None:
    body = {
        "game": "attack_the_darkness",
        "options": {"deck": ["x" * (deckcode.MAX_LENGTH + 1)]},
        "seats": [{"name": "Ann"}],
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code in (400, 422)
    assert f"at most {deckcode.MAX_LENGTH}" in response.json()["error"]["message"]


# -- the deck builder (issue 13 "Lobby"): OptionSpec.editor, POST /lobby/editor and the check --

CHECK = "/api/games/attack_the_darkness/options/deck/check"


def test_each_seat_has_a_build_deck_button_and_a_panel(client: TestClient) -> None:
    form = client.get("/lobby/form", params={"game": "attack_the_darkness"}).text
    assert form.count('class="option-editor-open"') == 7
    assert 'hx-post="/lobby/editor"' in form and 'id="option-editor-deck"' in form
    assert "<script>" not in form  # CSP: no inline script


def test_the_builder_opens_on_the_seats_class_with_its_cards(client: TestClient) -> None:
    data = FORM | {"editor_option": "deck", "editor_slot": "0"}
    page = client.post("/lobby/editor", data=data)
    assert page.status_code == 200, page.text
    html = page.text
    assert "Ann’s Champion deck" in html
    assert 'data-card="hearty"' in html and 'data-card="hack"' in html
    assert 'data-card="calculating"' not in html  # the Assassin's core card is not listed
    assert 'type="application/json" class="atd-builder-data"' in html
    assert "/static/games/attack_the_darkness/deck_builder.js" in html
    blob = re.search(r'class="atd-builder-data">(.*?)</script>', html).group(1)  # type: ignore[union-attr]
    data_json = json.loads(blob)
    assert data_json["start"] == dict(zip(("resources", "actions"), sample_deck(C, "champion"), strict=True))
    assert data_json["cores"] == {"hearty": 12}
    # the second seat gets the next free class, as the table will
    second = client.post("/lobby/editor", data=data | {"editor_slot": "1"}).text
    assert "Bo’s Magician deck" in second  # free classes go by seat: seat 1 the second free


def test_the_arena_builder_marks_the_banned_cards(client: TestClient) -> None:
    arena = FORM | {"opt_mode": "arena", "opt_teams": "2", "editor_option": "deck", "editor_slot": "0"}
    html = client.post("/lobby/editor", data=arena).text
    assert "Arena: banned cards refused" in html
    card = re.search(
        r'<li class="atd-b-card atd-b-refused" data-card="disembowel".*?atd-b-stepper', html, re.S
    )
    assert card and "Banned in Arena games (AtD L297)" in card.group(0)


def test_the_builder_refuses_what_has_no_editor(client: TestClient) -> None:
    bad = client.post("/lobby/editor", data=FORM | {"editor_option": "mode", "editor_slot": "0"})
    assert bad.status_code == 404 and bad.json()["error"]["code"] == "no_editor"
    bad = client.post("/lobby/editor", data=FORM | {"editor_option": "deck", "editor_slot": "9"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_seat"


def test_the_check_answers_the_summarys_words(client: TestClient) -> None:
    broken = "11 Hearty, 3 Momentous, 5 Brutish; 3 Hack!, 4 Cleave"
    answer = client.post(
        CHECK, json={"value": broken, "seat": 0, "seats": 2, "options": {"class": ["champion"]}}
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["option"] == "deck" and body["class"] == "champion"
    messages = [p["message"] for p in body["problems"]]
    summary = client.post("/lobby/summary", data=FORM | {"opt_deck": [broken, ""]}).text
    for message in messages:
        assert f"Ann&#39;s Champion deck: {message.replace(chr(39), '&#39;')}" in summary
    assert {p["code"] for p in body["problems"]} >= {"resource_deck_size", "core_cards", "too_many_copies"}
    assert body["deck"]["actions"] == {"hack": 3, "cleave": 4}
    fine = client.post(
        CHECK, json={"value": champion_deck(fate=0, feint=3), "options": {"class": ["champion"]}}
    )
    assert fine.json()["problems"] == [] and fine.json()["seat"] == 0
    arena = {"mode": "arena", "teams": 2, "class": ["champion"]}
    banned = client.post(
        CHECK, json={"value": champion_deck(fate=0, disembowel=1), "seats": 2, "options": arena}
    )
    assert "banned in Arena games: Disembowel (AtD L297)" in [p["message"] for p in banned.json()["problems"]]
    unreadable = client.post(CHECK, json={"value": "12 Hearty"}).json()
    assert unreadable["problems"][0]["code"] == "bad_deck_text" and unreadable["deck"] is None


def test_the_check_refuses_bad_requests_precisely(client: TestClient) -> None:
    cases = [
        ("/api/games/nope/options/deck/check", {"value": ""}, 404, "unknown_game"),
        ("/api/games/attack_the_darkness/options/nope/check", {"value": ""}, 404, "unknown_option"),
        ("/api/games/attack_the_darkness/options/mode/check", {"value": ""}, 404, "no_editor"),
        (CHECK, [1], 422, "bad_request"),
        (CHECK, {"value": "", "extra": 1}, 422, "bad_request"),
        (CHECK, {"value": 3}, 422, "bad_option"),
        (CHECK, {"value": "x" * (deckcode.MAX_LENGTH + 1)}, 422, "bad_option"),
        (CHECK, {"value": "", "seat": 7}, 422, "bad_seat"),
        (CHECK, {"value": "", "seat": 2, "seats": 2}, 422, "bad_seat"),
        (CHECK, {"value": "", "seat": True}, 422, "bad_seat"),
        (CHECK, {"value": "", "options": []}, 422, "bad_option"),
        (CHECK, {"value": "", "options": {"deck": ["x"]}}, 422, "bad_option"),
        (CHECK, {"value": "", "options": {"mode": "chess"}}, 422, "bad_option"),
        (CHECK, {"value": "", "options": {"colour": 1}}, 422, "unknown_option"),
    ]
    for url, body, status, code in cases:
        response = client.post(url, json=body)
        assert (response.status_code, response.json()["error"]["code"]) == (status, code), (
            body,
            response.text,
        )
    raw = client.post(CHECK, content=b"{not json", headers={"content-type": "application/json"})
    assert raw.status_code == 422 and raw.json()["error"]["code"] == "bad_request"


def test_the_builder_starts_from_the_seats_own_text_and_escapes_names(client: TestClient) -> None:
    own = champion_deck(fate=0, feint=3)
    form = FORM | {"seat": ["<b>Ann</b>", "Bo", ""], "opt_deck": [own, ""]}
    html = client.post("/lobby/editor", data=form | {"editor_option": "deck", "editor_slot": "0"}).text
    assert "&lt;b&gt;Ann&lt;/b&gt;’s Champion deck" in html and "<b>Ann</b>" not in html
    blob = re.search(r'class="atd-builder-data">(.*?)</script>', html).group(1)  # type: ignore[union-attr]
    start = json.loads(blob)["start"]
    assert start["actions"]["feint"] == 3 and "fate" not in start["actions"]
    # an unnamed seat's button still opens its builder, as the seat it will be once named
    third = client.post("/lobby/editor", data=form | {"editor_option": "deck", "editor_slot": "2"}).text
    assert "Seat 3’s" in third and 'data-slot="2"' in third
    check_base = json.loads(re.search(r'class="atd-builder-check">(.*?)</script>', third).group(1))  # type: ignore[union-attr]
    assert check_base["seat"] == 2 and check_base["seats"] == 3 and "deck" not in check_base["options"]


def test_the_builder_says_why_the_form_cannot_open_it(client: TestClient) -> None:
    bad = FORM | {"opt_campaign": "many", "editor_option": "deck", "editor_slot": "0"}
    page = client.post("/lobby/editor", data=bad)
    assert page.status_code == 200
    refusal = "Dungeons in the campaign must be a whole number"
    assert page.text == f'<p class="summary-error" role="alert">{refusal}</p>'
