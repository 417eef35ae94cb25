"""Attack the Darkness in Debian's chromium (issue 13): an Adventure table of two players
and a spectator, played by clicking to the end of its first encounter — the tokens on the
stairs, the tile a set of monsters takes, the speed move, a card from the hand paid by
clicking resource cards and aimed by clicking a monster's token, a defence window answered
with a Defense card, then clearing the room with both players choosing at once and the
trading of the two resting players. The quick player (``atd_play.py``) plays the routine
turns between through the API; the spectator's page follows to the end and never shows a
hand. Screenshots of each moment go to test-artifacts/screenshots/.

The seed and dungeon were picked with ``python -m tests.e2e.atd_play``: with them the
first encounter of The Tavern Cellar is won in 60 moves over 3 rounds, Bob is attacked in
round 1 with a Dodge in hand, and the monsters' set takes one of two equally far tiles."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
from playwright.sync_api import Locator, Page, expect

from tests.e2e.atd_clicks import board_element, button_for, click, lit
from tests.e2e.atd_play import Driver, Payload, waiting_kind
from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import create_game_table, expect_live, expect_seq, screenshot

SEED = "atd-0"
OPTIONS = {"mode": "adventure", "dungeon": "tavern_cellar"}


def asks(seat: int, *kinds: str) -> Callable[[Payload], bool]:
    """The table waits on ``seat`` for one of ``kinds``."""
    return lambda gm: waiting_kind(*kinds)(gm) and gm["waiting_for"][:1] == [seat]


def window(page: Page) -> Locator:
    return page.locator("#atd-window")


def test_an_adventure_to_the_end_of_its_first_encounter_by_clicking(
    server: Served, open_page: PageFactory
) -> None:
    table = create_game_table(server.url, "attack_the_darkness", ["Ann", "Bob"], OPTIONS, SEED)
    watch = open_page(table.watch_url)
    ann = open_page(table.seat_url(0))
    bob = open_page(table.seat_url(1))
    pages = {0: ann, 1: bob}
    for page in (watch, ann, bob):
        expect_live(page)

    with httpx.Client(base_url=server.url, timeout=10) as http:
        table_api = Driver.of(http, table.created)

        def click_next(seat: int) -> tuple[dict, str | None]:
            """The quick player's next move for ``seat``, clicked on that seat's page."""
            asked, command, payload = table_api.next_move()
            assert asked == seat, f"the table waits for {asked}, not {seat}"
            target = click(pages[seat], command, payload["seq"])
            table_api.note(seat, command)
            return command, target

        # The tokens on the stairs (AtD L251): each player clicks a lit stairs square.
        gm = table_api.payload()
        assert waiting_kind("place_token")(gm)
        expect_seq(ann, gm["seq"])
        stairs = ann.locator("#atd-cells .atd-sq.atd-stairs")
        expect(lit(ann, "#atd-cells .atd-sq.atd-stairs")).to_have_count(stairs.count())
        assert ann.locator("#atd-cells .atd-sq.is-target:not(.atd-stairs)").count() == 0
        command, target = click_next(0)
        assert target == "square:{},{}".format(*command["args"]["to"])
        expect(ann.locator('#atd-tokens [data-target="combatant:c0"]')).to_be_visible()
        command, _ = click_next(1)
        expect(watch.locator('#atd-tokens [data-target="combatant:c1"]')).to_be_visible()

        # Two empty tiles equally far: the party's first seat clicks the one the set takes.
        gm = table_api.payload()
        assert waiting_kind("choose_tile")(gm)
        expect_seq(ann, gm["seq"])
        expect(window(ann)).to_contain_text("Where the monsters go")
        expect(lit(ann, "#atd-tiles .atd-tile")).to_have_count(len(gm["view"]["waiting"]["choose"]["tiles"]))
        screenshot(ann, "atd-adventure-choose-tile")
        click_next(0)
        gm = table_api.payload()
        assert gm["view"]["monsters"], "the monsters are on the map"
        expect_seq(watch, gm["seq"])
        expect(watch.locator("#atd-tokens .atd-mon")).to_have_count(len(gm["view"]["monsters"]))

        # Ann's first turn: the free speed move is a click on a lit square, then the end step.
        gm = table_api.payload()
        assert asks(0, "act")(gm)
        command, target = click_next(0)
        assert command["type"] == "speed" and target.startswith("square:")
        x, y = command["args"]["to"]
        gm = table_api.payload()
        g = gm["view"]["grid"]
        expect(ann.locator('#atd-tokens [data-target="combatant:c0"]')).to_have_attribute(
            "style", re.compile(rf"grid-column: {x - g['x0'] + 2}; grid-row: {y - g['y0'] + 2}")
        )
        command, target = click_next(0)
        assert command["type"] == "end_turn" and target is None

        # Bob's turn goes by; a monster attacks him: his page opens the defence window and
        # lights his Defense card, the others' pages say whom the table waits for.
        gm = table_api.play_until(waiting_kind("defend"))
        assert gm["waiting_for"] == [1]
        attack = gm["view"]["waiting"]
        for page in pages.values():
            expect_seq(page, gm["seq"])
        expect(window(bob)).to_contain_text("You are attacked!")
        expect(window(bob)).to_contain_text(f"attacks Bob: {attack['attack']['damage']} damage")
        expect(window(ann)).to_contain_text("Waiting for Bob to defend or take it.")
        expect(window(watch)).to_contain_text("Waiting for Bob to defend or take it.")
        expect(ann.locator("#atd-status")).to_contain_text("waiting for Bob")
        attacker = watch.locator(f'#atd-tokens [data-target="combatant:{attack["attacker"]["id"]}"]')
        expect(attacker).to_have_class(re.compile(r"\batd-current\b"))
        expect(watch.locator('#atd-tokens [data-target="combatant:c1"]')).to_have_class(
            re.compile(r"\batd-attacked\b")
        )
        screenshot(bob, "atd-adventure-defence")
        screenshot(watch, "atd-adventure-defence-watch")
        _, command, payload = table_api.next_move()
        assert command["type"] == "defend"
        target = f"ac:{card_of(payload, command)}"
        expect(board_element(bob, target)).to_be_visible()
        assert click(bob, command, payload["seq"]) == target
        expect(window(bob)).to_contain_text("Paying for Dodge")
        command, target = click_next(1)  # Declare: a prompt button
        assert command["type"] == "done" and target is None
        expect(window(bob)).not_to_contain_text("You are attacked!")
        expect(window(ann)).not_to_contain_text("Waiting for Bob to defend")

        # Ann's second turn, all by clicking: the speed move, Cleave from her hand paid with
        # three resource cards (the window sums them), declared, and aimed at a Harpy.
        gm = table_api.play_until(asks(0, "act"))
        command, target = click_next(0)
        assert command["type"] == "speed"
        _, command, payload = table_api.next_move()
        assert command["type"] == "play"
        # "choose the resource cards" is the prompt's button: the card's click pays the
        # cheapest way at once (issue 26)
        assert click(ann, command, payload["seq"]) is None
        table_api.note(0, command)
        target = f"ac:{card_of(payload, command)}"
        card = ann.locator(f'#atd-hand [data-target="{target}"] .atd-card-name').first.inner_text()
        expect(window(ann)).to_contain_text(f"Paying for {card}")
        expect(window(ann).locator(".atd-warn")).to_contain_text("Not paid yet")
        expect(lit(ann, "#atd-hand .atd-rc").first).to_be_visible()
        assert watch.locator("#atd-window").inner_text().count("Paying for") == 0, "a payment is its payer's"
        paid_with: list[str] = []
        while True:
            asked, command, payload = table_api.next_move()
            if command["type"] != "add":
                break
            name = ann.locator(f'#atd-hand [data-target="rc:{card_of(payload, command)}"] .atd-card-name')
            paid_with.append(name.first.inner_text())
            click(ann, command, payload["seq"])
            expect(window(ann)).to_contain_text(paid_with[-1])
            marked = ann.locator("#atd-hand .atd-paying .atd-card-name")
            expect(marked).to_have_count(len(paid_with))
            assert sorted(marked.all_inner_texts()) == sorted(paid_with)
        assert len(paid_with) == 3, paid_with
        expect(window(ann).locator(".atd-ok")).to_contain_text("Paid: you may declare it.")
        summary = window(ann).locator(".atd-summary").inner_text()
        assert summary.startswith(f"{card}:"), summary
        screenshot(ann, "atd-adventure-paying")
        assert command["type"] == "done"
        click(ann, command, payload["seq"])
        expect(window(watch)).to_contain_text(f"Ann plays {card} with {', '.join(paid_with)}")
        asked, command, payload = table_api.next_move()
        assert (asked, command["type"]) == (0, "target")
        who = command["args"]["who"]
        token = ann.locator(f'#atd-tokens [data-target="combatant:{who}"]')
        hp_before = next(m["hp"] for m in payload["view"]["monsters"] if m["id"] == who)
        expect_seq(ann, payload["seq"])
        expect(token).to_have_class(re.compile(r"\bis-target\b"))
        screenshot(ann, "atd-adventure-target")
        assert click(ann, command) == f"combatant:{who}"
        gm = table_api.payload()
        hurt = next((m["hp"] for m in gm["view"]["monsters"] if m["id"] == who), 0)
        assert hurt < hp_before, "the Harpy took the damage"
        expect_seq(watch, gm["seq"])
        expect(watch.locator("#log-entries")).to_contain_text(card)
        command, _ = click_next(0)
        assert command["type"] == "end_turn"

        # The rest of the encounter goes by; the room is cleared: both pages ask at once.
        gm = table_api.play_until(waiting_kind("clear_room"))
        assert sorted(gm["waiting_for"]) == [0, 1]
        for page in pages.values():
            expect_seq(page, gm["seq"])
            expect(window(page)).to_contain_text("Clearing the room")
        bob_rest = rest_command(table_api, 1)
        ann_rest = rest_command(table_api, 0)
        screenshot(ann, "atd-adventure-clearing")
        click(bob, bob_rest)
        expect(window(ann)).to_contain_text("Chosen already: Bob")
        expect(button_for(ann, ann_rest)).to_be_visible()  # Ann still chooses
        click(ann, ann_rest)

        # The two resting players may trade: both pages show it; nobody holds equipment yet
        # after a first encounter, so each may only say done.
        gm = table_api.payload()
        assert waiting_kind("trade")(gm)
        for page in pages.values():
            expect_seq(page, gm["seq"])
            expect(window(page)).to_contain_text("Trading equipment")
            expect(window(page)).to_contain_text("Nobody resting holds equipment")
        screenshot(bob, "atd-adventure-trading")
        _, command, payload = table_api.next_move()
        click(ann, command, payload["seq"])

        # The first encounter is over: the spectator's page follows to the next one.
        gm = table_api.payload()
        assert gm["view"]["encounter"] == 2
        expect_seq(watch, gm["seq"])
        expect(watch.locator("#atd-status")).to_contain_text(f"encounter 2 of {gm['view']['encounters']}")
        expect(watch.locator("#log-entries")).to_contain_text("chooses to rest")
        assert watch.locator("#atd-hand .atd-card, .atd-hand-seat").count() == 0
        screenshot(watch, "atd-adventure-watch")


def card_of(payload: Payload, command: dict) -> str:
    """The card (not the copy) a command names: ``card`` or ``rc`` is an instance in a hand."""
    inst = command["args"].get("card") or command["args"].get("rc")
    for ch in payload["view"]["characters"]:
        for held in ch.get("hand", ()):
            if held["id"] == inst:
                return held["card"]
    raise AssertionError(f"{inst} is in no hand this view shows")


def rest_command(driver: Driver, seat: int) -> dict:
    choices, _ = driver.choices(seat)
    rests = [c["command"] for c in choices if c["command"]["type"] == "rest"]
    return next(c for c in rests if not c["args"]["discard"] and not c["args"]["reshuffle"])


CAMPAIGN_SEED = "atd-1"
CAMPAIGN = {"mode": "adventure", "dungeon": "random", "encounters": 1, "campaign": 2}


def test_a_room_explored_then_a_trade_proposed_and_accepted_by_clicking(
    server: Served, open_page: PageFactory
) -> None:
    """Equipment is found by exploring, after the trades of that clearing (AtD L279-280), so
    a trade needs a later room: a campaign of two one-encounter dungeons (seed picked with
    ``python -m tests.e2e.atd_play``). After the first, Bob explores by clicking the
    face-down tiles and keeps a Battle Axe; both say they are ready for the next dungeon;
    after its encounter both rest, Bob offers Ann the axe and Ann accepts, all by clicking,
    every page showing the offer."""
    table = create_game_table(server.url, "attack_the_darkness", ["Ann", "Bob"], CAMPAIGN, CAMPAIGN_SEED)
    watch = open_page(table.watch_url)
    ann = open_page(table.seat_url(0))
    bob = open_page(table.seat_url(1))
    pages = {0: ann, 1: bob}
    for page in (watch, ann, bob):
        expect_live(page)

    with httpx.Client(base_url=server.url, timeout=10) as http:
        table_api = Driver.of(http, table.created)
        table_api.explorers = {1}

        def click_next(seat: int) -> tuple[dict, str | None]:
            asked, command, payload = table_api.next_move()
            assert asked == seat, f"the table waits for {asked}, not {seat}"
            target = click(pages[seat], command, payload["seq"])
            table_api.note(seat, command)
            return command, target

        # The first room is cleared: Ann rests, Bob explores, flipping face-down tiles by
        # clicking them until he finds equipment, and keeps it.
        table_api.play_until(waiting_kind("clear_room"))
        assert click_next(0)[0]["type"] == "rest"
        assert click_next(1)[0]["type"] == "explore"
        while waiting_kind("explore")(gm := table_api.payload()):
            expect_seq(bob, gm["seq"])
            face_down = bob.locator("#atd-tiles .atd-tile.atd-tile-down")
            expect(lit(bob, "#atd-tiles .atd-tile")).to_have_count(face_down.count())
            command, target = click_next(1)
            assert command["type"] == "flip" and target == f"tile:{command['args']['tile']}"
        assert waiting_kind("keep_equipment")(gm)
        expect_seq(bob, gm["seq"])
        expect(window(bob)).to_contain_text("Equipment found: Battle Axe")
        screenshot(bob, "atd-adventure-equipment-found")
        assert click_next(1)[0]["type"] == "keep"
        expect(bob.locator("#atd-char-1 .atd-chip")).to_contain_text("Battle Axe")

        # Between the dungeons of the campaign each player says ready (AtD L238).
        for seat in (0, 1):
            assert click_next(seat)[0]["type"] == "ready"

        # The second dungeon's encounter goes by; both rest: the trading opens.
        table_api.play_until(waiting_kind("clear_room"))
        assert click_next(0)[0]["type"] == "rest"
        assert click_next(1)[0]["type"] == "rest"
        gm = table_api.payload()
        assert waiting_kind("trade")(gm)
        expect_seq(bob, gm["seq"])
        expect(window(bob)).not_to_contain_text("Nobody resting holds equipment")
        choices, payload = table_api.choices(1)
        gift = next(
            c["command"]
            for c in choices
            if c["command"]["type"] == "propose"
            and c["command"]["args"]["give"]
            and not c["command"]["args"]["take"]
        )
        click(bob, gift, payload["seq"])
        gm = table_api.payload()
        for page in (ann, bob, watch):
            expect_seq(page, gm["seq"])
            expect(window(page)).to_contain_text("Bob offers Ann Battle Axe for nothing.")
        expect(window(ann)).to_contain_text("Accept or decline it.")
        expect(window(bob)).to_contain_text("Waiting for Ann to accept or decline.")
        screenshot(ann, "atd-adventure-trade-offer")
        choices, payload = table_api.choices(0)
        accept = next(c["command"] for c in choices if c["command"]["type"] == "accept")
        click(ann, accept, payload["seq"])
        gm = table_api.payload()
        expect_seq(watch, gm["seq"])
        expect(watch.locator("#atd-char-0 .atd-chip")).to_contain_text("Battle Axe")
        expect(watch.locator("#atd-char-1 .atd-chip")).to_have_count(0)
        expect(watch.locator("#log-entries")).to_contain_text("accepts")
        _, command, payload = table_api.next_move()
        assert command["type"] == "done"
        click(pages[command["args"]["seat"]], command, payload["seq"])
        assert not waiting_kind("trade")(table_api.payload())
