"""Darkest Night's board in the browser (templates/games/darkest_night/board.html), on SQLite
and PostgreSQL: the map, heroes, darkness and cards as each viewer may see them, no hidden
order in a spectator's or player's page, and fragments that change only when their part of
the view does."""

from __future__ import annotations

import copy
import html
import json
import re
from typing import Any

import httpx
from fastapi.testclient import TestClient
from markupsafe import escape
from websockets.sync.client import connect

from app.games.darkest_night.content import LOCATIONS, load
from app.kernel.types import GAME_MASTER, SPECTATOR
from app.web import fragments
from app.web.templating import make_environment
from tests.conftest import LiveServer
from tests.support.tables import auth

DN_FRAGMENTS = ["dn-context", "dn-offer", "dn-status", "dn-map", "dn-heroes", "dn-dice", "dn-cards"]
NAMES = ["Ann", "<b>Bo</b>"]


def new_dn_table(client: httpx.Client, seed: str = "dn-board", **options: Any) -> dict[str, Any]:
    body = {
        "game": "darkest_night",
        "seed": seed,
        "options": options,
        "seats": [{"name": name} for name in NAMES],
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def tokens(table: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in table["seats"]}


def seat_view(client: httpx.Client, table: dict[str, Any], seat: int) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table['table_id']}/view", headers=auth(tokens(table)[seat]))
    assert response.status_code == 200, response.text
    return response.json()


def play(client: httpx.Client, table: dict[str, Any], seat: int, command: dict[str, Any], cid: str) -> None:
    response = client.post(
        f"/api/tables/{table['table_id']}/commands",
        json=command | {"command_id": cid},
        headers=auth(tokens(table)[seat]),
    )
    assert response.status_code == 200, response.text


def play_to_first_action(client: httpx.Client, table: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Choose heroes, powers and who goes first (always the first offer) until a hero is
    asked for an action; return that seat and its view."""
    tid = table["table_id"]
    for step in range(60):
        seat = client.get(f"/api/tables/{tid}").json()["waiting_for"][0]
        payload = seat_view(client, table, seat)
        if (payload["view"].get("waiting") or {}).get("kind") == "action":
            return seat, payload
        prompt = next(p for p in payload["prompts"] if p["required"])
        play(client, table, seat, prompt["choices"][0]["command"], f"setup-{step}")
    raise AssertionError("no hero reached the action step")


def section(page: str, element_id: str) -> str:
    """The HTML of the fragment with this id (each is one ``<section>`` with no section in it)."""
    found = re.search(rf'<section id="{element_id}"[^>]*>.*?</section>', page, flags=re.S)
    assert found, f"no #{element_id} on the page"
    return found.group(0)


def article(fragment: str, element_id: str) -> str:
    found = re.search(rf'<article id="{element_id}"[^>]*>.*?</article>', fragment, flags=re.S)
    assert found, f"no #{element_id}"
    return found.group(0)


def location_group(board: str, location: str) -> str:
    """The SVG group that draws one location, up to the next location or the end of the map."""
    found = re.search(rf'data-location="{location}">.*?(?=<g class="dn-loc|</svg>)', board, flags=re.S)
    assert found, f"no {location} on the map"
    return found.group(0)


def escape_html(text: str) -> str:
    """As Jinja escapes text (``'`` as ``&#39;``)."""
    return str(escape(text))


def as_json_lists(items: list[str]) -> list[str]:
    return [json.dumps(items), json.dumps(items, separators=(",", ":")), html.escape(json.dumps(items))]


def render_board(client: TestClient, table_id: str, view: dict[str, Any] | None = None) -> dict[str, str]:
    """The board fragments a spectator gets right now (optionally for a given view)."""
    app = client.app
    hub = app.state.hub
    session = client.portal.call(hub.session, table_id)
    ctx = fragments.context(hub, session, SPECTATOR, view=view)
    return fragments.board_fragments(app.state.templates, ctx)


# -- the pages -------------------------------------------------------------------------------


def test_seat_and_watch_pages_show_the_board(client: TestClient) -> None:
    table = new_dn_table(client)
    tid = table["table_id"]
    play_to_first_action(client, table)
    spectator = client.get(f"/api/tables/{tid}/view").json()["view"]

    seat_page = client.get(table["seats"][0]["url"])  # the invite link: cookie, then /t/{id}
    assert seat_page.status_code == 200 and seat_page.url.path == f"/t/{tid}"
    watch_page = client.get(f"/t/{tid}/watch")
    assert watch_page.status_code == 200

    for page in (seat_page.text, watch_page.text):
        assert "generic-view" not in page  # the real board, not the JSON fallback
        board = section(page, "dn-map")
        for location in LOCATIONS:
            assert f'data-location="{location}"' in board
            assert f'id="dn-place-{location.lower()}"' in board
        blights = [b for here in spectator["board"].values() for b in here["blights"]]
        assert blights, "setup places blights"
        for b in blights:
            assert b["type"] in board
        necro = location_group(board, spectator["necromancer"])
        assert 'class="dn-necromancer"' in necro and board.count('class="dn-necromancer"') == 1

        status = section(page, "dn-status")
        assert f"Darkness <b>{spectator['darkness']}</b>" in status
        assert f"Round <b>{spectator['round']}</b>" in status
        assert status.count("dn-cell-card") == len(spectator["darkness_thresholds"]) == 2
        assert "darkness cards at 10, 20, +1 might at 25, Monastery blights past 30" in status

        heroes = section(page, "dn-heroes")
        assert len(spectator["heroes"]) == 4
        for hero in spectator["heroes"]:
            sheet = article(heroes, f"dn-hero-{hero['id']}")
            assert hero["name"] in sheet
            assert f"<b>{hero['grace']}</b><small>/{hero['default_grace']}</small>" in sheet
            assert f"<b>{hero['secrecy']}</b><small>/{hero['default_secrecy']}</small>" in sheet
            for power in hero["powers"]:
                assert power["name"] in sheet
                assert html.escape(power["text"], quote=True) in sheet  # readable on tap and hover
            assert f"{hero['deck_size']} powers in deck" in sheet
            assert hero["name"] in board  # a token on the map (its title names it)

        cards = section(page, "dn-cards")
        assert f"<td>{spectator['decks']['event']['size']}</td>" in cards
        assert f"<td>{spectator['decks']['map']['size']}</td>" in cards
        # Player names are text, never markup.
        assert "<b>Bo</b>" not in page and "&lt;b&gt;Bo&lt;/b&gt;" in page


def test_no_hidden_order_reaches_a_spectator_or_a_player(client: TestClient) -> None:
    table = new_dn_table(client, seed="dn-hidden")
    tid = table["table_id"]
    play_to_first_action(client, table)
    gm = client.get(f"/api/tables/{tid}/view", headers=auth(table["gm_token"])).json()["view"]
    map_order = gm["decks"]["map"]["order"]
    assert len(map_order) >= 3
    hero_decks = [h["deck"] for h in gm["heroes"]]
    assert all(len(deck) > 1 for deck in hero_decks)

    watch = client.get(f"/t/{tid}/watch").text
    seat = client.get(table["seats"][1]["url"]).text
    for page in (watch, seat):
        deck_orders = [d["order"] for d in gm["decks"].values() if len(d["order"]) > 1]
        for order in [map_order, *hero_decks, *deck_orders]:
            for text in as_json_lists(order):
                assert text not in page
        for card in map_order[:3]:
            assert card not in page  # not even one by one
        for deck in hero_decks:
            assert not any(power_id in page for power_id in deck)


def test_the_game_master_page_shows_every_deck_order(client: TestClient) -> None:
    """Issue 4: "the game-master page shows everything, including deck orders"."""
    table = new_dn_table(client, seed="dn-gm-orders")
    tid = table["table_id"]
    play_to_first_action(client, table)
    gm = client.get(f"/api/tables/{tid}/view", headers=auth(table["gm_token"])).json()["view"]
    assert client.get(table["gm_url"]).status_code == 200  # the link sets the cookie
    page = client.get(f"/t/{tid}/gm").text
    orders = section(page, "dn-cards")
    assert 'id="dn-cards-orders"' in orders
    map_order = gm["decks"]["map"]["order_names"]
    assert map_order[0].startswith(gm["decks"]["map"]["order"][0] + ": ")
    found = re.search(r'id="dn-order-map".*?</ol>', orders, flags=re.S)
    assert found and re.findall(r"<li>(.*?)</li>", found.group(0)) == [
        escape_html(n.split(": ", 1)[1]) for n in map_order
    ]
    assert f"next <i>{escape_html(gm['decks']['event']['order_names'][0])}</i>" in orders
    for hero in gm["heroes"]:
        sheet = article(section(page, "dn-heroes"), f"dn-hero-{hero['id']}")
        assert "(order: game master only)" in sheet
        assert re.findall(r"<li>(.*?)</li>", sheet.split('class="dn-order"')[1]) == [
            escape_html(n) for n in hero["deck_names"]
        ]
    client.cookies.clear()
    for other in (client.get(f"/t/{tid}/watch").text, client.get(table["seats"][0]["url"]).text):
        assert "dn-cards-orders" not in other and "game master only" not in other


def test_only_the_necromancer_player_sees_his_hand(client: TestClient) -> None:
    table = new_dn_table(client, seed="dn-necro", necromancer_player=True)
    tid = table["table_id"]
    play_to_first_action(client, table)
    hand = [
        card["id"]
        for card in client.get(f"/api/tables/{tid}/view", headers=auth(table["gm_token"])).json()["view"][
            "necromancer_hand"
        ]
    ]
    assert len(hand) == 4

    necromancer = section(client.get(table["seats"][1]["url"]).text, "dn-cards")
    assert "4 map cards:" in necromancer and all(card in necromancer for card in hand)
    client.cookies.clear()  # a hero's player on another device
    for page in (client.get(table["seats"][0]["url"]).text, client.get(f"/t/{tid}/watch").text):
        assert "4 map cards, face down." in section(page, "dn-cards")
        assert not any(card in page for card in hand)


def test_fragments_are_one_element_each_with_a_stable_id(client: TestClient) -> None:
    table = new_dn_table(client, seed="dn-ids")
    play_to_first_action(client, table)
    board = render_board(client, table["table_id"])
    assert list(board) == DN_FRAGMENTS
    for key, fragment in board.items():
        assert fragment.startswith(f'<section id="{key}"'), fragment[:80]
        assert fragment.rstrip().endswith("</section>")
        assert fragment.count("<section") == 1
    # Rendering again gives the same HTML: no timestamps, no random ids.
    assert render_board(client, table["table_id"]) == board
    # Before setup the view is only {"started": false}: every fragment still renders.
    empty = render_board(client, table["table_id"], {"started": False})
    assert list(empty) == DN_FRAGMENTS
    assert all(frag.startswith(f'<section id="{key}"') for key, frag in empty.items())


def test_hero_and_power_choices_show_the_card_texts(client: TestClient) -> None:
    """Issue 4: hero selection and the choice of 3 of 5 starting powers happen in the game,
    with the power texts readable (DN 3.2)."""
    table = new_dn_table(client, seed="dn-offer")
    tid = table["table_id"]
    content = load()
    offer = section(client.get(f"/t/{tid}/watch").text, "dn-offer")
    assert f"<h2>Choose a hero <small>({len(content.heroes)} heroes;" in offer
    for hero in content.heroes.values():  # every hero on offer, with its starting powers' texts
        assert f'id="dn-offer-{hero.id}"' in offer
        for power in (p for p in hero.powers if p.starting):
            assert escape_html(power.text) in offer, (hero.id, power.id)

    seat = client.get(f"/api/tables/{tid}").json()["waiting_for"][0]
    choose = next(
        c["command"] for p in seat_view(client, table, seat)["prompts"] for c in p["choices"] if p["required"]
    )
    play(client, table, seat, choose, "pick-hero")
    chosen = content.heroes[choose["args"]["hero"]]
    offer = section(client.get(f"/t/{tid}/watch").text, "dn-offer")
    assert "keep 3 of 5" in offer
    assert re.findall(r"<li><b>(.*?)</b>", offer) == [
        escape_html(p.name) for p in chosen.powers if p.starting
    ]
    assert all(escape_html(p.text) in offer for p in chosen.powers if p.starting)

    play_to_first_action(client, table)
    assert section(client.get(f"/t/{tid}/watch").text, "dn-offer").startswith(
        '<section id="dn-offer" class="dn-offer" hidden>'
    )


def test_viewers_with_the_same_view_share_one_board_render(client: TestClient) -> None:
    table = new_dn_table(client, seed="dn-shared")
    tid = table["table_id"]
    play_to_first_action(client, table)
    app = client.app
    hub, env = app.state.hub, app.state.templates
    session = client.portal.call(hub.session, tid)
    spectator = fragments.context(hub, session, SPECTATOR)
    first = fragments.shared_board(env, session, spectator)
    again = fragments.shared_board(env, session, fragments.context(hub, session, SPECTATOR))
    assert again is first  # rendered once for both
    assert first == fragments.board_fragments(env, spectator)
    gm = fragments.context(hub, session, GAME_MASTER)
    assert gm["view"] != spectator["view"]
    gm_board = fragments.shared_board(env, session, gm)
    assert gm_board is not first and "dn-cards-orders" in gm_board["dn-cards"]
    assert "dn-cards-orders" not in first["dn-cards"]


def test_a_travel_changes_the_heroes_not_the_cards(client: TestClient) -> None:
    table = new_dn_table(client, seed="dn-diff")
    tid = table["table_id"]
    seat, payload = play_to_first_action(client, table)
    hero_id = payload["view"]["waiting"]["hero"]
    hero = next(h for h in payload["view"]["heroes"] if h["id"] == hero_id)
    assert hero["secrecy"] < 5, "travel raises secrecy up to 5 (DN 8.0)"
    travel = next(
        c["command"] for p in payload["prompts"] for c in p["choices"] if c["command"]["type"] == "travel"
    )
    before = render_board(client, tid)
    play(client, table, seat, travel, "travel-1")
    after_view = client.get(f"/api/tables/{tid}/view").json()["view"]
    moved = next(h for h in after_view["heroes"] if h["id"] == hero_id)
    assert moved["secrecy"] == hero["secrecy"] + 1
    after = render_board(client, tid)

    assert before["dn-heroes"] != after["dn-heroes"]
    assert f"<b>{moved['secrecy']}</b><small>/" in article(after["dn-heroes"], f"dn-hero-{hero_id}")
    assert before["dn-map"] != after["dn-map"]  # the hero's token moved
    assert before["dn-cards"] == after["dn-cards"]
    assert before["dn-dice"] == after["dn-dice"]


# -- details the engine rarely shows in a short game --------------------------------------


def test_blights_rolls_and_powers_render_every_detail(client: TestClient) -> None:
    table = new_dn_table(client, seed="dn-detail")
    tid = table["table_id"]
    play_to_first_action(client, table)
    view = copy.deepcopy(client.get(f"/api/tables/{tid}/view").json()["view"])
    content = load()
    for here in view["board"].values():
        for b in here["blights"]:
            spec = content.blights[b["type"]]
            b.update(might=spec.might, color=spec.color, text=spec.text)
    quest = {"id": "q1", "card": "the_lovers", "name": "The Lovers", "progress": 1, "needed": 2}
    view["board"]["Forest"]["quests"] = [quest | {"time": 3, "limit": 4, "text": "Help the <lovers>."}]
    view["board"]["Swamp"]["mysteries"] = [{"id": "m1", "card": "x", "name": "Defiled Shrine", "keys": [0]}]
    hero = view["heroes"][0]
    other = view["heroes"][1]
    hero["powers"][0].update(active=True, target=other["id"])
    hero["powers"][1].update(exhausted=True, active=True, suppressed=True)
    hero["items"] = [{"id": "i1", "kind": "charm", "name": "Charm", "text": "Reroll <all>", "locked": True}]
    view["last_roll"] = {
        "hero": hero["id"],
        "purpose": "fight",
        "dice": 3,
        "target": 5,
        "faces": [2, 6, 4, 5],
        "kept": [6, 4, 2],  # Terror dropped the 6; the relic made the 5 a 6
        "successes": 1,
        "relic": True,
        "terror": True,
        "sources": [["base", 1], ["spark", 1], ["Ballad of Valor", 1]],
    }
    board = render_board(client, tid, view)

    first = next(b for here in view["board"].values() for b in here["blights"])
    title = f"{first['type']}, might {first['might']}: {first['text']}"
    assert html.escape(title, quote=True) in board["dn-map"]
    assert "The Lovers: progress 1 of 2, time 3 of 4" in board["dn-map"]
    assert "Q 1/2 ◷3/4" in board["dn-map"]
    assert "Mystery Defiled Shrine: 1 key(s) taken" in board["dn-map"]
    assert "Help the &lt;lovers&gt;." in board["dn-map"] and "Help the &lt;lovers&gt;." in board["dn-cards"]

    sheet = article(board["dn-heroes"], f"dn-hero-{hero['id']}")
    assert f"active → {other['name']}" in sheet
    assert ">suppressed</span>" in sheet
    assert ">locked</span>" in sheet and "Reroll &lt;all&gt;" in sheet

    dice = board["dn-dice"]
    assert dice.count('class="dn-die dn-die-dropped"') == 1
    assert dice.count('class="dn-die dn-die-hit"') == 1 and dice.count('class="dn-die dn-die-miss"') == 2
    assert "+1 relic" in dice and "against <b>5+</b>" in dice and "1 success<" in dice
    assert "1 base, spark +1, Ballad of Valor +1" in dice and "Terror" in dice


def live_frame_after(live_server: LiveServer, seed: str, command_type: str) -> tuple[str, dict[str, Any]]:
    """Play to the first action, then the first offered command of this type while a
    spectator's HTML stream is open; return the frame it got and the view before."""
    with httpx.Client(base_url=live_server.url, timeout=10) as client:
        table = new_dn_table(client, seed=seed)
        tid = table["table_id"]
        seat, payload = play_to_first_action(client, table)
        command = next(
            c["command"]
            for p in payload["prompts"]
            for c in p["choices"]
            if c["command"]["type"] == command_type
        )
        url = f"{live_server.ws_url}/ws/tables/{tid}?format=html&after={payload['seq']}"
        with connect(url, open_timeout=10) as spectator:
            assert "dn-" not in spectator.recv(timeout=10)  # current: only the players panel
            play(client, table, seat, command, f"{command_type}-live")
            return spectator.recv(timeout=10), payload["view"]


def top_level_ids(frame: str) -> set[str]:
    """The ids of the elements a frame swaps in (each starts a line of its own)."""
    return set(re.findall(r'^<\w+ id="([\w-]+)"', frame, flags=re.MULTILINE))


def test_hiding_pushes_that_heros_panel_and_the_log_not_the_board(live_server: LiveServer) -> None:
    """Hide (DN 6.0) changes one hero's secrecy: the frame carries that hero's panel and
    the log line, and neither the map, the other heroes, the cards nor the dice."""
    frame, before = live_frame_after(live_server, "dn-hide", "hide")
    hero = before["waiting"]["hero"]
    panel = f"dn-hero-{hero.replace('~', '-')}"
    sent = top_level_ids(frame)
    # The stats changed and, the turn ending by itself (issue 11), the title's and meta's turn
    # marks: those small parts, never the whole panel, its powers or items.
    assert f"{panel}-stats" in sent, sent
    assert not {panel, f"{panel}-head", f"{panel}-powers", f"{panel}-items"} & sent, sent
    assert 'hx-swap-oob="afterbegin:#log-entries"' in frame and "gains 1 secrecy" in frame
    others = {f"dn-hero-{h['id'].replace('~', '-')}" for h in before["heroes"]} - {panel}
    assert not any(i == o or i.startswith(o + "-") for i in sent for o in others), sorted(sent)
    assert not sent & {"dn-map", "dn-heroes", "dn-cards", "dn-dice", "dn-status"}, sent
    # With no free action left the action step, and the turn, end by themselves (issue 11):
    # the hero's own place is redrawn without the acting hero's mark; no other place is.
    own_place = "dn-loc-" + next(h for h in before["heroes"] if h["id"] == hero)["location"].lower()
    elsewhere = {i for i in sent if i != own_place and not i.startswith(own_place + "-")}
    assert not any(i.startswith(("dn-loc-", "dn-place-", "dn-cards-")) for i in elsewhere), sorted(sent)
    assert len(frame) < 6000, len(frame)


def test_a_travel_pushes_the_two_locations_not_the_map(live_server: LiveServer) -> None:
    frame, before = live_frame_after(live_server, "dn-diff", "travel")
    hero = next(h for h in before["heroes"] if h["id"] == before["waiting"]["hero"])
    sent = top_level_ids(frame)
    panel = f"dn-hero-{hero['id'].replace('~', '-')}"
    assert f"{panel}-meta" in sent and f"{panel}-stats" in sent  # where it is, its secrecy
    # The two locations' figures (a layer of each), not the locations nor the map.
    start = f"dn-loc-{hero['location'].lower()}"
    assert f"{start}-figures" in sent and f"dn-place-{hero['location'].lower()}-sum" in sent
    moved_to = {i for i in sent if i.startswith("dn-loc-")} - {f"{start}-figures"}
    assert len(moved_to) == 1 and moved_to.pop().endswith("-figures"), sent  # where the hero went
    assert not sent & {"dn-map", "dn-heroes", "dn-cards", "dn-dice"}, sent


def test_the_map_drawing_matches_the_board_content() -> None:
    drawn = make_environment().get_template("games/darkest_night/_map.html").module.LOCATIONS
    board = load().locations
    assert sorted(drawn) == sorted(LOCATIONS)
    for name, spec in board.items():
        assert drawn[name]["adjacent"] == list(spec.adjacent), name
        assert drawn[name]["necromancer"] == list(spec.necromancer), name
        assert drawn[name]["search"] == spec.search, name


def test_the_necromancers_moves_are_told_in_words(client: TestClient) -> None:
    """DN 10.0: when the Necromancer detects no hero he moves by the arrow of the number he
    rolled, a circular arrow keeping him where he is. Each location says so in words ("1 or
    5 → Castle · 2 or 4 → Village", "3 or 6 → stays"), not "d6 1,5 ▸Cas · 3,6 ↻"; the
    list under the map spells every face out."""
    table = new_dn_table(client)
    play_to_first_action(client, table)
    board = section(client.get(f"/t/{table['table_id']}/watch").text, "dn-map")
    mountains = re.search(r'<svg id="dn-loc-mountains-arrows".*?</svg>', board, flags=re.S)
    assert mountains
    lines = re.findall(r"<tspan[^>]*>([^<]*)</tspan>", mountains.group(0))
    assert lines == [
        "Necromancer's roll, none detected:",
        "1 or 5 → Castle · 2 or 4 → Village",
        "3 or 6 → stays",
    ]
    village = re.search(r'<svg id="dn-loc-village-arrows".*?</svg>', board, flags=re.S)
    assert village
    assert re.findall(r"<tspan[^>]*>([^<]*)</tspan>", village.group(0))[1:] == [
        "1 → Mountains · 2 → Ruins",
        "3 → Forest · 4 → Castle",
        "5 → Swamp · 6 → stays",
    ]
    assert "▸" not in board and "↻" not in board
    assert (
        "The Necromancer’s move roll when he detects no hero (DN 10.0): 1 → Castle; 2 → Village; "
        "3 he stays here; 4 → Village; 5 → Castle; 6 he stays here." in board
    )
