"""A free-form option per seat in the lobby (OptionSpec kind "per_seat_text", issue 13):
Attack the Darkness's custom deck, written as a short text beside each seat, checked by the
game's rules of deck building with every broken rule listed before the table is made, and
used by the table when legal. Nothing here names a game in the platform's code: the form
is drawn from the schema."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from app.games.attack_the_darkness import deckcode
from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decks import sample_deck

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
