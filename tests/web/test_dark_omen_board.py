"""Dark Omen's board in the browser (templates/games/dark_omen/board.html, issue 15): the
circular map drawn from the board data, the obstacle layers turned by their positions,
clickable spaces and creatures, each role's page free of what its view hides."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape

from app.games.dark_omen import DARK_OMEN, drawing
from app.games.dark_omen.board import SECTORS, distance, load_board
from app.games.dark_omen.content import load
from app.games.dark_omen.state import GambleTable, Location, Prop, Question
from app.games.dark_omen.texts import loot_name
from app.kernel import table as kernel
from app.kernel.rng import rng_for
from app.kernel.types import GAME_MASTER, SPECTATOR, Choice, Command, Viewer
from app.main import create_app
from app.store.migrate import upgrade
from app.web import fragments
from app.web.templating import make_environment
from tests.conftest import make_settings
from tests.games.dark_omen.harness import arranged, enemy, play, table
from tests.support.tables import auth
from tests.web.test_board_targets import buttons

DO_FRAGMENTS = ["do-header", "do-omens", "do-battle", "do-map", "do-town", "do-heroes"]


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url))) as test_client:
        yield test_client


def new_table(client: TestClient, seats: int = 2, seed: str = "do-board", **options: Any) -> dict[str, Any]:
    body = {
        "game": "dark_omen",
        "seed": seed,
        "options": {"mode": "quick_chapter", **options},
        "seats": [{"name": name} for name in ["Ann", "<b>Bo</b>", "Cy", "Di"][:seats]],
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def section(page: str, element_id: str) -> str:
    found = re.search(rf'<section id="{element_id}"[^>]*>.*?</section>', page, flags=re.S)
    assert found, f"no #{element_id} on the page"
    return found.group(0)


def session_of(client: TestClient, table: dict[str, Any]) -> Any:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    return client.portal.call(hub.session, table["table_id"])  # type: ignore[union-attr]


def all_parts(client: TestClient, session: Any) -> dict[str, Any]:
    """Every part of a spectator's page, by id, as the table's shared renders hold it."""
    app = client.app
    ctx = fragments.context(app.state.hub, session, SPECTATOR)  # type: ignore[attr-defined]
    shell, board = fragments.page_nodes(app.state.templates, session, ctx)  # type: ignore[attr-defined]
    return {n.id: n for node in [*shell.values(), *board.values()] for n in node.walk()}


def test_the_drawing_template_is_what_the_board_data_makes() -> None:
    """templates/games/dark_omen/_drawing.html is generated (python -m app.games.dark_omen.drawing)."""
    assert drawing.TEMPLATE.read_text(encoding="utf-8") == drawing.template()


@pytest.mark.parametrize("side_name", ["overworld", "underworld"])
def test_a_turned_layer_shows_black_exactly_on_the_blocked_slits(side_name: str) -> None:
    """A layer's mark i lies at board index i + pos once turned by pos·θ (DO L164-165):
    the drawn bars and ``Side.blocked`` agree on every slit at every position."""
    board = load_board()
    side = board.overworld if side_name == "overworld" else board.underworld
    for pos in range(SECTORS):
        layers = {"white": pos, "clear": (pos * 5) % SECTORS}
        for layer in ("white", "clear"):
            drawn = {
                (band, (i + layers[layer]) % SECTORS)
                for band, mask in enumerate(side.masks[layer])
                for i, bit in enumerate(mask)
                if bit == "1"
            }
            for edge in side.edges.values():
                if edge.kind == "slit" and edge.layer == layer:
                    assert ((edge.band, edge.index) in drawn) == side.blocked(edge, layers), (edge, pos)
    marks = drawing.marks(side_name, "clear")
    ones = sum(mask.count("1") for mask in side.masks["clear"])
    assert marks.count("M") == ones  # one bar per black mark, in the layer's own coordinates


def test_the_map_draws_every_space_town_and_layer(client: TestClient) -> None:
    table = new_table(client)
    page = client.get(table["seats"][0]["url"]).text
    for fragment in DO_FRAGMENTS:
        assert f'id="{fragment}"' in page
    board = section(page, "do-map")
    for space in range(1, SECTORS * 3 + 1):
        assert f'data-target="space:{space}"' in board
    for place in ("gate", "market", "tavern", "healer"):
        assert f'data-target="space:Hoglichten:{place}"' in board
    view = DARK_OMEN.view(session_of(client, table).state, SPECTATOR)
    for layer in ("white", "clear"):
        pos = view["layers"][layer]
        assert f'data-layer="{layer}" data-pos="{pos}"' in board
        assert f"rotate({round(pos * 360 / 37, 3)}deg)" in board
    for space in view["loot_face_down"]:
        assert f"face-down loot token on {space}<" in board
    for hero in view["heroes"]:
        assert f'id="do-hero-{hero["seat"]}"' in board
    assert "tabindex" not in board  # the page wires what is live, per viewer
    assert "&lt;b&gt;Bo&lt;/b&gt;" in page and "<b>Bo</b>" not in page
    header = section(page, "do-header")
    assert "Chapter <b>1</b>" in header and "Darkness meter" in header
    assert header.count("do-ap-left") == 12  # two heroes, six AP squares each


def test_the_server_log_names_heroes_by_player_and_character(client: TestClient) -> None:
    """Events carry only a seat; the server's lines name the hero "Ann\u2019s Visko" (issue
    15), the same in the page's log, the API's events and the command's answer, escaped on
    the page like every name."""
    table = new_table(client)
    tid, token = table["table_id"], table["seats"][1]["token"]
    view = client.get(f"/api/tables/{tid}/view").json()["view"]
    ann, bo = (
        f"{name}\u2019s {view['heroes'][seat]['character']}" for seat, name in enumerate(["Ann", "<b>Bo</b>"])
    )
    move = next(
        b for b in buttons(client.get(table["seats"][1]["url"]).text) if b["command"]["type"] == "move"
    )
    answer = client.post(
        f"/api/tables/{tid}/commands", json=move["command"] | {"command_id": "n1"}, headers=auth(token)
    )
    assert answer.status_code == 200, answer.text
    moved = f"{bo} moves to {move['command']['args']['to']}"
    assert any(e.get("text", "").startswith(moved) for e in answer.json()["events"])
    texts = [e.get("text", "") for e in client.get(f"/api/tables/{tid}/events").json()["events"]]
    assert any(t.startswith(moved) for t in texts)
    assert any(t.startswith("A Dark Omen campaign begins for Ann, <b>Bo</b>") for t in texts)
    assert any(ann in t for t in texts) and not any(re.search(r"\b[Pp]layer \d", t) for t in texts), texts
    log = re.search(r'<ol id="log-entries">.*?</ol>', client.get(f"/t/{tid}").text, flags=re.S)
    assert log, "no log on the page"
    escaped = moved.replace("<b>Bo</b>", "&lt;b&gt;Bo&lt;/b&gt;")
    assert escaped in log.group(0) and "<b>Bo</b>" not in log.group(0)
    assert "Player 1" not in log.group(0)


def test_a_seats_moves_light_spaces_with_their_cost(client: TestClient) -> None:
    table = new_table(client)
    page = client.get(table["seats"][0]["url"]).text
    offered = buttons(page)
    moves = [b for b in offered if b["command"]["type"] == "move"]
    assert moves
    for b in moves:
        assert b["target"] == f"space:{b['command']['args']['to']}"
    prompts = section(page, "prompts")
    assert re.search(r'class="detail">\d AP( · \d MP)?</small>', prompts)
    assert next(b for b in offered if b["command"]["type"] == "end_round")["target"] is None


@pytest.mark.parametrize("seed", ["do-lines-1", "do-lines-2", "do-lines-3"])
def test_a_step_across_a_drawn_black_line_costs_mp_and_no_other_does(seed: str) -> None:
    """DO L240: the black lines the map shows (walls, and slits a layer closes) are the ones
    a move pays 4 MP to cross; the cost is in each move's detail before the click."""
    state = table(2)
    rng = random.Random(seed)
    for _ in range(3):
        state = arranged(state, at=rng.randint(1, 111))
        state.layers = {"white": rng.randrange(SECTORS), "clear": rng.randrange(SECTORS)}
        blocked = set(DARK_OMEN.view(state, SPECTATOR)["blocked"])
        here = state.heroes[0].at
        prompt = next(p for p in DARK_OMEN.prompts(state) if p.seat == 0)
        for choice in prompt.choices:
            if choice.type != "move" or not isinstance(choice.args["to"], int):
                continue
            to = choice.args["to"]
            crossing = f"{here}-{to}" in blocked or f"{to}-{here}" in blocked  # "37-1" wraps the ring
            assert ("MP" in choice.detail) == crossing, (here, to, choice.detail)


def test_a_move_changes_only_the_parts_it_touches(client: TestClient) -> None:
    table = new_table(client)
    tid, seat = table["table_id"], 0
    move = next(
        b for b in buttons(client.get(table["seats"][seat]["url"]).text) if b["command"]["type"] == "move"
    )
    session = session_of(client, table)
    before = all_parts(client, session)
    token = table["seats"][seat]["token"]
    response = client.post(
        f"/api/tables/{tid}/commands", json=move["command"] | {"command_id": "m1"}, headers=auth(token)
    )
    assert response.status_code == 200, response.text
    after = all_parts(client, session_of(client, table))
    changed = {key for key, node in after.items() if key not in before or before[key].version != node.version}
    assert "do-figures" in changed
    for static in ("do-art-overworld", "do-layer-white", "do-layer-clear", "do-places", "do-loot"):
        assert static not in changed, static


def test_no_page_shows_what_its_view_hides(client: TestClient) -> None:
    """Face-down loot tokens (DO L82) and face-down creature tokens (DO L476): only the
    game master's page names them; a seat's and a spectator's never do."""
    table = new_table(client, seats=2, seed="do-secrets")
    state = session_of(client, table).state
    secrets = [str(s.value) for s in DARK_OMEN.secrets(state)]
    assert secrets, "the table deals face-down loot"
    pages = {
        "seat 0": client.get(table["seats"][0]["url"]).text,
        "seat 1": client.get(table["seats"][1]["url"]).text,
        "spectator": client.get(f"/t/{table['table_id']}/watch").text,
    }
    gm = client.get(table["gm_url"]).text
    content = load()
    for space, token in state.loot.items():
        face = escape(loot_name(content.face(token)))
        assert f"face-down loot token on {space} ({face}: game master only)" in gm
    for role, page in pages.items():
        for secret in secrets:
            assert secret not in page, (role, secret)
        assert "game master only" not in page, role
        board = section(page, "do-map")
        assert board.count("A face-down loot token on") == len(state.loot), role


def board_of(state: Any, viewer: Any) -> dict[str, str]:
    """The board fragments of one viewer's view, rendered from nothing."""
    ctx = {"view": DARK_OMEN.view(state, viewer), "game": DARK_OMEN}
    return fragments.board_fragments(make_environment(), ctx)


def test_a_battle_shows_both_sides_dice_and_the_boosts_are_clicks() -> None:
    """DO L396-414: the attack roll lies on the table, paired highest to highest; each of the
    attacker's own dice is a boost's target on the attacker's page only."""
    state = arranged(table(2), at=10, mp=10)
    enemy(state, space=10, level=1, hp=9, armor=1, dr="3", name="Test Foe")
    state, _ = play(state, 0, "attack", rolls=[5, 2], creature="e1")
    prompt = next(p for p in DARK_OMEN.prompts(state) if p.seat == 0)
    boosts = [c for c in prompt.choices if c.type == "boost"]
    assert boosts and all(DARK_OMEN.choice_target(state, c) == f"mydie:{c.args['index']}" for c in boosts)
    mine = board_of(state, Viewer("seat", frozenset({0})))["do-battle"]
    theirs = board_of(state, Viewer("seat", frozenset({1})))["do-battle"]
    assert "hidden" not in mine.split(">", 1)[0]
    assert "Battle: P1 against Test Foe" in mine
    assert 'class="do-die do-die-enemy">2<' in mine and 'data-target="mydie:0"' in mine
    assert "data-target=" not in theirs  # another seat's dice are not its to boost
    assert "Paired highest to highest" in mine
    assert 'enemy 2 v P1 5: <b class="do-ok">hero strikes</b>' in mine
    assert "Damage rolls if resolved now:" in mine


def test_the_underworld_is_drawn_with_its_vortices(client: TestClient) -> None:
    """Chapter 4 is played on the back of the board (DO L495), its vortices on the map."""
    table = new_table(client, seats=1, seed="do-under", chapter=4)
    page = client.get(table["seats"][0]["url"]).text
    board = section(page, "do-map")
    assert 'id="do-art-underworld"' in board and "do-art-overworld" not in board
    assert 'clip-path="url(#do-clip-white-underworld)"' in board
    view = DARK_OMEN.view(session_of(client, table).state, SPECTATOR)
    assert board.count("A darkness vortex on") == len(view["vortices"])
    assert "the Underworld" in section(page, "do-header")


def test_between_chapters_the_header_says_where_the_campaign_stands() -> None:
    """DO L110-116: a campaign waits between chapters until every player is ready."""
    state = table(2, mode="campaign").clone()
    state.chapter, state.results = None, ["win"]
    board = board_of(state, SPECTATOR)
    assert "Between chapters: 1 of 4 played (chapter 1 won)" in board["do-header"]
    assert "The map is laid out when a chapter begins." in board["do-map"]


def test_the_board_renders_every_state_of_random_play_without_leaking() -> None:
    """Seeded random legal commands of every seat (battles, towns, gambles, deaths as they
    come): each viewer's board renders, shows no Python leftovers, and a seat's or a
    spectator's never names a secret (DO L82, L476)."""
    env = make_environment()
    rng = random.Random(15)
    state = table(3, mode="quick_chapter", chapter=2)
    kinds: set[str] = set()
    for step in range(400):
        prompts = [p for p in DARK_OMEN.prompts(state) if p.choices and p.seat != "gm"]
        if not prompts or DARK_OMEN.outcome(state) is not None:
            break
        prompt = rng.choice(prompts)
        choice = rng.choice(prompt.choices)
        command = Command(prompt.seat, choice.type, choice.args)
        events = DARK_OMEN.decide(
            state, command, Viewer("seat", frozenset({prompt.seat})), rng_for("rand", step)
        )
        state = kernel.fold_all(DARK_OMEN, state, events)
        kinds |= {h.pending.kind for h in state.heroes if h.pending}
        if step % 7:
            continue
        secrets = [str(s.value) for s in DARK_OMEN.secrets(state)]
        for viewer in (SPECTATOR, Viewer("seat", frozenset({0})), GAME_MASTER):
            html = "".join(
                fragments.board_fragments(
                    env, {"view": DARK_OMEN.view(state, viewer), "game": DARK_OMEN}
                ).values()
            )
            assert (
                "built-in method" not in html
                and "Undefined" not in html
                and "None" not in html.replace("None yet", "")
            )
            if not viewer.is_gm:
                assert not [s for s in secrets if s in html], (step, viewer)
    assert kinds, "random play opened some sub-question (a battle, a gamble, a runehenge…)"


def test_the_loot_under_your_hero_and_a_creature_in_reach_are_clicks() -> None:
    """DO L242-244: flipping the loot token you stand on (1 AP) and attacking an enemy are
    the board's own elements, wired on the page of the seat that may do it."""
    state = arranged(table(2), at=10)
    state.loot[10] = "l05.1"
    state.loot[12] = "l06.1"
    state.locations[10] = Location("stone_of_rejuvenation")
    state.heroes[0].blood = 2
    enemy(state, space=10, name="Test Foe")
    prompt = next(p for p in DARK_OMEN.prompts(state) if p.seat == 0)
    targets = {DARK_OMEN.choice_target(state, c) for c in prompt.choices}
    assert {"loot:here", "creature:e1", "location:here", "space:11", "space:9", "space:47"} <= targets
    mine = board_of(state, Viewer("seat", frozenset({0})))["do-map"]
    watching = board_of(state, SPECTATOR)["do-map"]
    assert mine.count('data-target="loot:here"') == 1 and "loot:here" not in watching
    assert mine.count('data-target="location:here"') == 1 and "location:here" not in watching
    assert 'data-target="creature:e1"' in mine and 'data-target="creature:e1"' in watching


def test_the_replay_draws_the_map_at_every_step(client: TestClient) -> None:
    """Replay by move (issue 15, "Log, undo, watching"): the board as a spectator saw it."""
    table = new_table(client, seed="do-replay")
    seat = 0
    move = next(
        b for b in buttons(client.get(table["seats"][seat]["url"]).text) if b["command"]["type"] == "move"
    )
    headers = auth(table["seats"][seat]["token"])
    response = client.post(
        f"/api/tables/{table['table_id']}/commands",
        json=move["command"] | {"command_id": "r1"},
        headers=headers,
    )
    assert response.status_code == 200, response.text
    seq = response.json()["seq"]
    for at in (1, seq - 1, seq):
        frame = client.get(f"/t/{table['table_id']}/replay/frame", params={"seq": at})
        assert frame.status_code == 200, frame.text
    assert 'data-target="space:111"' in frame.text
    assert f"on {move['command']['args']['to']}:" in frame.text
    page = client.get(f"/t/{table['table_id']}/replay")
    assert page.status_code == 200 and "do-map" in page.text


def test_a_boss_is_shown_with_its_stats_and_stage() -> None:
    """Day 6 brings the chapter's boss (DO L493): its stats, phases and stage in view."""
    state = arranged(table(1), at=10)
    boss = enemy(state, space=12, hp=16, armor=0, dr="d4+1", cid="boss1", name="Vahva the cave bear")
    boss.kind, boss.card, boss.stage = "boss", "vahva", {"below_hp": 8, "armor": 1}
    board = board_of(state, SPECTATOR)
    assert "Boss: Vahva the cave bear</b> on 12 — 16 HP" in board["do-omens"]
    assert "below 8 HP its armour rises by 1" in board["do-omens"]
    assert "each round: ability, then movement" in board["do-omens"]
    assert ">B</text>" in board["do-map"]


def drive_to(client: TestClient, table: dict[str, Any], seat: int, goal: int, tag: str) -> None:
    """Move a hero towards ``goal`` with its own move choices, each step closer (DO L240)."""
    tid = table["table_id"]
    headers = auth(table["seats"][seat]["token"])
    for step in range(8):
        payload = client.get(f"/api/tables/{tid}/view", headers=headers).json()
        here = payload["view"]["heroes"][seat]["at"]
        if here == goal:
            return
        moves = [
            c["command"]
            for p in payload["prompts"]
            for c in p["choices"]
            if c["command"]["type"] == "move" and isinstance(c["command"]["args"]["to"], int)
        ]
        closer = min(moves, key=lambda m: distance(m["args"]["to"], goal))
        assert distance(closer["args"]["to"], goal) < distance(here, goal), "no step closer"
        body = closer | {"command_id": f"{tag}-{step}"}
        response = client.post(f"/api/tables/{tid}/commands", json=body, headers=headers)
        assert response.status_code == 200, response.text
    raise AssertionError(f"seat {seat} did not reach {goal}")


def test_a_lost_race_for_a_loot_token_is_a_short_message_that_costs_nothing(client: TestClient) -> None:
    """Two heroes on one loot token flip it at once: the first commit wins, the other's
    press is refused with the engine's short message and spends nothing (facts §21)."""
    table = new_table(client, seed="do-race")
    tid = table["table_id"]
    view = client.get(f"/api/tables/{tid}/view").json()["view"]
    a, b = view["heroes"][0]["at"], view["heroes"][1]["at"]
    goal = min(view["loot_face_down"], key=lambda s: (max(distance(a, s), distance(b, s)), s))
    drive_to(client, table, 0, goal, "a")
    drive_to(client, table, 1, goal, "b")
    client.get(table["seats"][1]["url"])  # this browser holds seat 1
    page = client.get(f"/t/{tid}").text
    loot = next(b for b in buttons(page) if b["command"]["type"] == "loot" and b["command"]["seat"] == 1)
    assert loot["target"] == "loot:here" and 'data-target="loot:here"' in section(page, "do-map")
    ap_before = client.get(f"/api/tables/{tid}/view").json()["view"]["heroes"][1]["ap_left"]
    first = {"seat": 0, "type": "loot", "args": {}, "command_id": "win"}
    won = client.post(f"/api/tables/{tid}/commands", json=first, headers=auth(table["seats"][0]["token"]))
    assert won.status_code == 200, won.text
    clicked_at = re.search(r'id="seq" class="seq" data-seq="(\d+)"', page)[1]  # type: ignore[index]
    lost = client.post(f"/t/{tid}/act", data={"command": json.dumps(loot["command"]), "seq": clicked_at})
    assert lost.status_code == 409, lost.text
    assert "nothing was spent" in lost.text and 'id="flash"' in lost.text
    assert client.get(f"/api/tables/{tid}/view").json()["view"]["heroes"][1]["ap_left"] == ap_before


def test_an_omens_tokens_lie_on_the_map_and_are_tended_by_a_click() -> None:
    """DO L141-143: an omen sets tokens on the map (fires, relics, a person to lead); one on
    the board is a click, one carried shows on its bearer's sheet."""
    state = arranged(table(2), at=10)
    state.props = [Prop("p1", "fire", "Burning hut", 10), Prop("p2", "relic", "Old Idol", 10, carried_by=1)]
    board = board_of(state, SPECTATOR)
    assert 'data-target="prop:p1"' in board["do-map"] and "Burning hut on 10" in board["do-map"]
    assert "prop:p2" not in board["do-map"] and "Old Idol" in board["do-heroes"]
    assert (
        DARK_OMEN.choice_target(state, Choice("tend", {"prop": "p1"}, "Douse the fire (1 AP)")) == "prop:p1"
    )


def test_dice_games_and_barrows_show_their_dice_and_rolls_left() -> None:
    """Draugr Dice, Hard Life (DO L342-356) and a barrow's exploration (DO L321-330) lie on
    the table with the rolls left; a game of chance names its players and their dice."""
    state = arranged(table(2), at=10)
    state.heroes[0].pending = Question("draugr", dice=[3, 4, 5], rolls_left=2)
    state.heroes[1].pending = Question("barrow", dice=[6, 6, 2], rolls_left=1)
    state.gambles = {"0": GambleTable("draugr", [0, 1], [], {"1": [2, 2, 6]}, ante=2)}
    battle = board_of(state, SPECTATOR)["do-battle"]
    assert "hidden" not in battle.split(">", 1)[0]
    assert "P1: Draugr Dice" in battle and "score 9" in battle and "2 rolls left" in battle  # 3s count 0
    assert "P2: exploring a barrow" in battle and "= 14" in battle and "1 roll left" in battle
    assert "Draugr Dice at P1's table" in battle
    assert "ante 2 gold" in battle and battle.count('class="do-die"') >= 9


def market_rows(html: str) -> dict[str, str]:
    """Each stock row's text (tags dropped), by gear id."""
    rows = re.findall(r'<tr class="([^"]*)" data-gear="([^"]+)"[^>]*>(.*?)</tr>', html, re.S)
    return {
        gid: classes + " | " + " ".join(re.sub(r"<[^>]+>", " ", body).split()) for classes, gid, body in rows
    }


def test_the_market_shows_full_stats_and_greys_out_what_the_hero_cannot_buy() -> None:
    """Issue 26: each card's damage die, reach, armour, tokens and ability; a card the
    shopper cannot afford or another hero owns is greyed out with why (DO L332-337, DO L56:
    one copy of each card); authored duplicates no longer share a name and a level."""
    state = arranged(table(2), at=10, gold=3)
    state.heroes[0].at = "Hoglichten:market"
    state.heroes[1].gear = ["g1_a0"]
    rows = market_rows(board_of(state, Viewer("seat", frozenset({0})))["do-town"])
    assert "P1 has <b>3 gold</b>" in board_of(state, Viewer("seat", frozenset({0})))["do-town"]
    assert rows["g1_w5"].startswith("do-gear do-cannot-buy |")  # the Worn Bow costs 5
    assert "Worn Bow level 1 weapon · main weapon · damage d4+2, range 2" in rows["g1_w5"]
    assert "costs 5 gold, you have 3" in rows["g1_w5"]
    assert "Oak Seax" in rows["g1_w3"] and "1 direct damage with each damage roll" in rows["g1_w3"]
    assert rows["g1_w0"] == "do-gear | Rusty Axe level 1 weapon · main weapon · damage d4, melee 2 gold"
    assert "do-owned do-cannot-buy" in rows["g1_a0"] and "owned by P2" in rows["g1_a0"]
    assert "Bone Shield" in rows["g1_a8"] and "armour 1 · 1 shield token" in rows["g1_a8"]
    names = [(r.split(" | ")[1].split(" level ")[0]) for r in rows.values()]
    assert len(names) == len(set(names)) == 27
    state.heroes[0].discount = 2
    cheaper = market_rows(board_of(state, Viewer("seat", frozenset({0})))["do-town"])
    assert "3 gold 5" in cheaper["g1_w5"] and "do-cannot-buy" not in cheaper["g1_w5"]  # 5 less 2 haggled


def test_the_market_lists_prices_by_level_open_for_the_hero_shopping_there() -> None:
    """A hero at a market sees its stock open, each card's level and price, and what sells
    (DO L332-337); another page shows it folded, to keep the page short."""
    state = arranged(table(2), at=10)
    state.heroes[0].at = "Hoglichten:market"
    stock = DARK_OMEN.view(state, SPECTATOR)["market"]["stock"]
    mine = board_of(state, Viewer("seat", frozenset({0})))["do-town"]
    assert 'id="do-market-stock" open>' in mine and "prices by level" in mine
    assert "only coin-marked tokens sell" in mine
    rows = re.findall(r'data-gear="([^"]+)"', mine)
    assert rows == [g["id"] for g in stock] and len(rows) == 27
    for viewer in (SPECTATOR, Viewer("seat", frozenset({1}))):
        other = board_of(state, viewer)["do-town"]
        assert 'id="do-market-stock">' in other and "Hoglichten's <b>market</b>" in other
