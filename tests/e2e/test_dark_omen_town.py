"""A Dark Omen town visit in a real browser (issue 15, "Towns and places"): set up through
the API (a seeded table whose hero flips a herb and a coin on its way to a town's gate),
then clicked: into the town, to the market and its prices by level, a haggle whose dice and
result are shown, selling (only the coin-marked loot is offered), then a game of Draugr Dice
at the tavern with its dice on the table and the gold it won or lost on the hero's sheet."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from app.games.dark_omen.board import distance
from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import PHONE, Table, create_game_table, expect_live, screenshot

pytestmark = pytest.mark.browser

SEED = "do-town-7"
"""A seed whose hero (Ann, alone) finds a herb and then a coin close to Hoglichten's gate."""


class Driver:
    """Commands sent for one seat through the API, each with its own command id."""

    def __init__(self, table: Table, token: str) -> None:
        self.table, self.token, self.sent = table, token, 0

    def view(self, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token or self.token}"}
        response = httpx.get(
            f"{self.table.base}/api/tables/{self.table.id}/view", headers=headers, timeout=10
        )
        response.raise_for_status()
        return dict(response.json())

    def choices(self) -> list[dict[str, Any]]:
        return [c["command"] for p in self.view()["prompts"] if p["required"] for c in p["choices"]]

    def send(self, command: dict[str, Any]) -> None:
        self.sent += 1
        response = httpx.post(
            f"{self.table.base}/api/tables/{self.table.id}/commands",
            json=command | {"command_id": f"town-{self.sent}"},
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=10,
        )
        assert response.status_code == 200, response.text

    def send_the(self, kind: str) -> None:
        self.send(next(c for c in self.choices() if c["type"] == kind))

    def walk_to(self, goal: int) -> None:
        """Step by step closer to ``goal`` (DO L240), ending the round when the AP run out."""
        for _ in range(30):
            payload = self.view()
            here = payload["view"]["heroes"][0]["at"]
            if here == goal:
                return
            offered = [c["command"] for p in payload["prompts"] if p["required"] for c in p["choices"]]
            closer = [
                c
                for c in offered
                if c["type"] == "move"
                and isinstance(c["args"]["to"], int)
                and distance(c["args"]["to"], goal) < distance(here, goal)
            ]
            if closer:
                self.send(min(closer, key=lambda c: distance(c["args"]["to"], goal)))
            else:
                self.send_the("end_round")
        raise AssertionError(f"the hero did not reach {goal}")


def to_a_town_with_loot(table: Table) -> tuple[Driver, str]:
    """Flip the herb and then the coin nearest the way to a town (the game master's view
    says where they lie face down), stop on the town's gate space and start a fresh round
    (6 AP for the visit). The town's name."""
    driver = Driver(table, table.seat_token(0))
    seen = driver.view(table.created["gm_token"])["view"]
    at, towns = seen["heroes"][0]["at"], seen["towns"]
    face_down = {int(space): x["face"] for space, x in seen["face_down"].items()}
    coins = [space for space, face in face_down.items() if face == "coin"]
    herbs = [space for space, face in face_down.items() if face.startswith("herb")]
    town, gate, herb, coin = min(
        ((t, g, h, c) for t, g in towns.items() for h in herbs for c in coins),
        key=lambda x: distance(at, x[2]) + distance(x[2], x[3]) + distance(x[3], x[1]),
    )
    for space in (herb, coin):
        driver.walk_to(space)
        driver.send_the("loot")
    driver.walk_to(gate)
    if driver.view()["view"]["heroes"][0]["ap_left"] < 6:
        driver.send_the("end_round")
    return driver, town


def click(page: Page, target: str) -> None:
    """Click a lit board element and wait for the server's answer."""
    element = page.locator(f'.do-map [data-target="{target}"]')
    expect(element).to_have_class(re.compile(r"\bis-target\b"))
    with page.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as answer:
        element.click()
    assert answer.value.status == 200, answer.value.text()


def press(page: Page, label: str) -> None:
    """Press the side panel's choice whose label starts with ``label``."""
    button = page.locator("#prompts button.choice", has_text=label).first
    with page.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as answer:
        button.click()
    assert answer.value.status == 200, answer.value.text()


def gold_on_the_sheet(page: Page, gold: int) -> None:
    expect(page.locator("#do-sheet-0-stats div", has_text="Gold").locator("dd b")).to_have_text(str(gold))


def test_a_town_visit_with_haggling_selling_and_draugr_dice(server: Served, open_page: PageFactory) -> None:
    table = create_game_table(server.url, "dark_omen", ["Ann"], {"mode": "quick_chapter"}, seed=SEED)
    driver, town = to_a_town_with_loot(table)
    hero = driver.view()["view"]["heroes"][0]
    assert sorted(t["face"] for t in hero["inventory"])[0] == "coin" and len(hero["inventory"]) == 2
    name = f"Ann\u2019s {hero['character']}"
    page = open_page(table.seat_url(0), viewport={"width": 1280, "height": 900})
    expect_live(page)
    log = page.locator("#log-entries")
    gold_on_the_sheet(page, hero["gold"])

    # Into the town by its gate (DO L297-298), then to the market: the stock with the
    # chapter's levels and prices, and what sells.
    click(page, f"space:{town}:gate")
    expect(page.locator("#do-town")).to_be_visible()
    expect(page.locator("#do-town .do-in-town")).to_contain_text(f"at {town}'s gate")
    click(page, f"space:{town}:market")
    expect(page.locator("#do-town .do-in-town")).to_contain_text(f"at {town}'s market")
    market = page.locator("#do-market-stock")
    expect(market).to_be_visible()
    expect(market.locator("summary")).to_contain_text("prices by level")
    expect(market.locator("thead")).to_contain_text("Level")
    expect(market.locator("thead")).to_contain_text("Price")
    stock = driver.view()["view"]["market"]["stock"]
    expect(market.locator("tbody tr")).to_have_count(len(stock))
    first = market.locator("tbody tr").first
    expect(first).to_contain_text(stock[0]["name"])
    expect(first).to_contain_text(str(stock[0]["price"]))

    # Light haggling (DO L335): the dice, the merchant's and the result are in the log.
    press(page, "Light haggling")
    haggle = log.locator("li", has_text="haggles lightly")
    expect(haggle).to_have_count(1)
    expect(haggle).to_contain_text(re.compile(rf"{name} haggles lightly: \d+ against the merchant\u2019s \d"))
    after = driver.view()["view"]["heroes"][0]
    if after["discount"]:
        expect(haggle).to_contain_text(f"{after['discount']} gold off the next purchase")
        expect(page.locator("#do-town .do-in-town")).to_contain_text(f"\u2212{after['discount']} haggled")
    else:
        expect(haggle).to_contain_text("no discount")

    # Selling: the herb is not coin-marked, so only the coin is offered (DO L250-251, L334).
    sells = page.locator("#prompts button.choice", has_text="Sell the")
    expect(sells).to_have_count(1)
    expect(sells).to_contain_text("Sell the coin for 1 gold")
    expect(page.locator("#do-sheet-0-kit")).to_contain_text("herb")
    press(page, "Sell the coin")
    gold_on_the_sheet(page, hero["gold"] + 1)
    expect(page.locator("#prompts button.choice", has_text="Sell the")).to_have_count(0)
    screenshot(page, "dark-omen-town")

    # Draugr Dice at the tavern (DO L342-348): 1 gold to the ante, five dice on the table.
    click(page, f"space:{town}:tavern")
    press(page, "Gamble: Draugr Dice")
    staked = hero["gold"]  # the coin's gold went to the ante
    gold_on_the_sheet(page, staked)
    game = page.locator("#do-battle .do-fight", has_text="Draugr Dice").first
    expect(game).to_be_visible()
    expect(game.locator(".do-die")).to_have_count(5)
    dice = [int(d) for d in game.locator(".do-die").all_inner_texts()]
    screenshot(page, "dark-omen-gamble")
    # Keep any dice you like (DO L345): tap a die to pick it, then reroll the picked ones.
    first_die = game.locator('[data-target="mydie:0"]')
    expect(first_die).to_have_class(re.compile(r"\bis-target\b"))
    with page.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as answer:
        first_die.click()
    assert answer.value.status == 200, answer.value.text()
    expect(game.locator(".do-die").first).to_have_class(re.compile(r"\bdo-die-picked\b"))
    expect(log.locator("li", has_text="picks die 1 to reroll")).to_have_count(1)
    press(page, "Reroll the picked 1 die")
    rerolled = driver.view()["view"]["heroes"][0]["pending"]
    assert rerolled["dice"][1:] == dice[1:] and rerolled["rolls_left"] == 1
    dice = rerolled["dice"]
    expect(game.locator(".do-die.do-die-picked")).to_have_count(0)
    press(page, "Stop with")
    ended = log.locator("li", has_text="Draugr Dice: ")
    expect(ended).to_have_count(1)
    said = ", ".join(map(str, dice[:-1])) + f" and {dice[-1]}"  # dice said aloud (issue 26)
    expect(log.locator("li", has_text=f"{name} stops with {said}")).to_have_count(1)
    expect(ended).to_contain_text(re.compile(r"the house rolls \d, \d, \d and \d \(score \d+\)"))
    final = driver.view()["view"]["heroes"][0]["gold"]
    if final > staked:
        expect(ended).to_contain_text(f"{name} wins the ante")
        expect(log.locator("li", has_text=f"gold {final} (the ante")).to_have_count(1)
    else:
        expect(ended).to_contain_text("the house wins the ante")
    gold_on_the_sheet(page, final)
    expect(page.locator("#do-battle")).to_be_hidden()

    # The replay draws the visit move by move (a page type of its own, for the artifacts).
    replay = open_page(table.replay_url, viewport={"width": 1280, "height": 900})
    expect(replay.locator("#do-map svg.do-map-svg")).to_be_visible()
    expect(replay.locator("#log-entries")).to_contain_text("Draugr Dice: ")
    screenshot(replay, "dark-omen-replay")


def at_the_market(server: Served) -> tuple[Table, Driver]:
    """Ann's Nyrkki walks into the market of the town nearest her (DO L297-298, L332)."""
    options = {"mode": "quick_chapter", "character": ["nyrkki"]}
    table = create_game_table(server.url, "dark_omen", ["Ann"], options, seed=SEED)
    driver = Driver(table, table.seat_token(0))
    seen = driver.view(table.created["gm_token"])["view"]
    at = seen["heroes"][0]["at"]
    town, gate = min(seen["towns"].items(), key=lambda t: distance(at, t[1]))
    driver.walk_to(gate)
    if driver.view()["view"]["heroes"][0]["ap_left"] < 3:
        driver.send_the("end_round")
    for where in ("gate", "market"):
        driver.send(
            next(c for c in driver.choices() if c["type"] == "move" and c["args"]["to"] == f"{town}:{where}")
        )
    return table, driver


def top(page: Page, selector: str) -> float:
    """Where an element starts, in CSS px from the top of the page."""
    script = "s => document.querySelector(s).getBoundingClientRect().top + window.scrollY"
    return float(page.evaluate(script, selector))


def test_on_a_phone_the_map_comes_before_the_market_whose_prices_buy(
    server: Served, open_page: PageFactory
) -> None:
    """Issue 26: the market's 23 "Buy" buttons put the map 2,000 px down a phone. In one
    column they leave the choices: the market's prices are its buy buttons, and the market
    starts folded below the map, so the map starts within the first screen and the hero's
    sheet follows it. Opening the market and tapping a price buys that card (DO L332-333)."""
    table, driver = at_the_market(server)
    hero = driver.view()["view"]["heroes"][0]
    buys = [c for c in driver.choices() if c["type"] == "buy"]
    assert len(buys) > 10, "the seed's hero can afford little"
    page = open_page(table.seat_url(0), viewport=PHONE, is_mobile=True, has_touch=True)
    expect_live(page)
    hidden = page.locator('#prompts button.choice[data-target^="gear:"]')
    expect(hidden).to_have_count(len(buys))
    for i in (0, len(buys) - 1):
        expect(hidden.nth(i)).to_be_hidden()
    expect(page.locator("#prompts button.choice", has_text="Light haggling")).to_be_visible()
    market = page.locator("#do-market-stock")
    expect(market).not_to_have_attribute("open", "")
    assert top(page, "#do-map") <= 900, f"the map starts {top(page, '#do-map')} px down the page"
    assert top(page, "#do-map") < top(page, "#do-town") < top(page, "#do-heroes") < top(page, "#do-header")
    folded = market.bounding_box()
    assert folded and folded["height"] < 80, f"the folded market is {folded} tall"
    screenshot(page, "dark-omen-phone-market")

    market.locator("summary").tap()
    expect(market).to_have_attribute("open", "")
    price = market.locator(f'.do-buy[data-target="gear:{buys[0]["args"]["gear"]}"]')
    expect(price).to_have_class(re.compile(r"\bis-target\b"))
    screenshot(page, "dark-omen-phone-market-open")
    label = str(price.get_attribute("aria-label"))
    assert label.startswith("Buy ") and label.endswith(" gold"), label
    cost = int(label.rsplit(" ", 2)[1])
    with page.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as answer:
        price.tap()
    assert answer.value.status == 200, answer.value.text()
    gold_on_the_sheet(page, hero["gold"] - cost)
    name = label.removeprefix("Buy ").rsplit(" for ", 1)[0]
    expect(page.locator("#do-sheet-0-kit")).to_contain_text(name)
    expect(market).to_have_attribute("open", "")  # the reader's open market stays open


@pytest.mark.parametrize("viewport", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_market_shows_full_stats_and_what_the_hero_cannot_afford(
    server: Served, open_page: PageFactory, viewport: tuple[int, int]
) -> None:
    """Issue 26: the market's 27 cards with their stats and abilities, those the hero
    cannot afford greyed out with why, readable on a phone without sideways scrolling."""
    table, driver = at_the_market(server)
    gold = driver.view()["view"]["heroes"][0]["gold"]
    market_view = driver.view()["view"]["market"]
    stock, owned = market_view["stock"], set(market_view["owned"])
    width, height = viewport
    page = open_page(table.seat_url(0), viewport={"width": width, "height": height})
    expect_live(page)
    market = page.locator("#do-market-stock")
    expect(market).to_be_visible()
    expect(market.locator("tbody tr")).to_have_count(27)
    expect(market.locator(".do-market-purse")).to_contain_text(f"{gold} gold")
    bow = market.locator('tr[data-gear="g1_w5"]')
    expect(bow).to_contain_text("damage d4+2, range 2")
    expect(market.locator('tr[data-gear="g1_w3"]')).to_contain_text("1 direct damage")
    too_dear = [g for g in stock if g["price"] > gold and g["id"] not in owned]
    assert too_dear, "the seed's hero can afford everything"
    expect(market.locator("tr.do-cannot-buy")).to_have_count(
        len(too_dear) + len(owned & {g["id"] for g in stock})
    )
    dear = market.locator(f'tr[data-gear="{too_dear[0]["id"]}"]')
    expect(dear).to_contain_text(f"costs {too_dear[0]['price']} gold, you have {gold}")
    cheap = next(g for g in stock if g["price"] <= gold and g["id"] not in owned)
    expect(market.locator(f'tr[data-gear="{cheap["id"]}"]')).not_to_have_class(re.compile("do-cannot-buy"))
    overflow = page.evaluate("document.getElementById('do-market-stock').scrollWidth")
    assert overflow <= width, f"the market is {overflow} px wide on a {width} px screen"
    market.scroll_into_view_if_needed()
    screenshot(page, f"dark-omen-market-{'phone' if width < 600 else 'desktop'}")
