"""Helpers for the browser tests: tables made through the REST API, page probes, and
screenshots saved under ``test-artifacts/screenshots/`` (gitignored)."""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Locator, Page, expect

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
# Debian's chromium; never a browser downloaded by `playwright install`.
CHROMIUM = Path(os.environ.get("UMBRA_CHROMIUM", "/usr/bin/chromium"))
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
XSS_NAME = "<script>alert(1)</script>"


@dataclass
class Table:
    """A table created through ``POST /api/tables``, with its one-time links."""

    base: str
    created: dict[str, Any]

    @property
    def id(self) -> str:
        return self.created["table_id"]

    @property
    def names(self) -> list[str]:
        return [s["name"] for s in self.created["seats"]]

    def seat_url(self, seat: int) -> str:
        return self.created["seats"][seat]["url"]

    def seat_token(self, seat: int) -> str:
        return self.created["seats"][seat]["token"]

    @property
    def gm_url(self) -> str:
        return self.created["gm_url"]

    @property
    def watch_url(self) -> str:
        return self.created["watch_url"]

    @property
    def replay_url(self) -> str:
        return self.created["replay_url"]

    def summary(self) -> dict[str, Any]:
        response = httpx.get(f"{self.base}/api/tables/{self.id}", timeout=10)
        response.raise_for_status()
        return response.json()

    def view(self, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = httpx.get(f"{self.base}/api/tables/{self.id}/view", headers=headers, timeout=10)
        response.raise_for_status()
        return response.json()

    def gm_view(self) -> dict[str, Any]:
        return self.view(self.created["gm_token"])

    def hidden_cards(self) -> set[str]:
        """Every card id a spectator must not learn now: all hands and the deck."""
        view = self.gm_view()["view"]
        cards = {card for player in view["players"] for card in player["hand"]}
        return cards | set(view["deck"])

    def api_move(self) -> int:
        """The seat to act plays its lowest card (or its first choice) through the API."""
        summary = self.summary()
        seat = summary["waiting_for"][0]
        token = self.seat_token(seat)
        prompts = self.view(token)["prompts"]
        choices = [c for p in prompts for c in p["choices"] if c["command"]["seat"] == seat]
        plays = [c for c in choices if c["command"]["type"] == "play"]
        choice = min(plays, key=lambda c: card_value(c["command"]["args"]["card"])) if plays else choices[0]
        response = httpx.post(
            f"{self.base}/api/tables/{self.id}/commands",
            json=choice["command"],
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        response.raise_for_status()
        return response.json()["seq"]


def create_table(base: str, names: list[str], target: int = 5, seed: str = "e2e") -> Table:
    response = httpx.post(
        f"{base}/api/tables",
        json={
            "game": "lanterns",
            "options": {"target": target},
            "seats": [{"name": n} for n in names],
            "seed": seed,
        },
        timeout=10,
    )
    assert response.status_code == 201, response.text
    return Table(base, response.json())


def card_value(card: str) -> int:
    return int(card.rsplit("-", 1)[1])


def screenshot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def mark_no_reload(page: Page) -> None:
    """Tag the live document: a reload (or navigation) would lose the tag."""
    page.evaluate("window.__e2eNoReload = true")


def assert_not_reloaded(page: Page) -> None:
    assert page.evaluate("window.__e2eNoReload === true"), f"{page.url} was reloaded"


def expect_live(page: Page, timeout: float = 10_000) -> None:
    expect(page.locator("#conn")).to_have_attribute("data-state", "live", timeout=timeout)
    expect(page.locator("#conn")).to_have_text("live")


def expect_seq(page: Page, seq: int, timeout: float = 10_000) -> None:
    expect(page.locator("#seq")).to_have_attribute("data-seq", str(seq), timeout=timeout)


def log_seqs(page: Page) -> list[int]:
    """The ``data-seq`` of every log line, top (newest) first."""
    return [
        int(s) for s in page.locator("#log-entries > li").evaluate_all("ls => ls.map(l => l.dataset.seq)")
    ]


def expect_full_log(page: Page, seq: int) -> None:
    """The log shows each event 1..seq exactly once, newest first (nothing lost or doubled)."""
    expect(page.locator("#log-entries > li")).to_have_count(seq)
    assert log_seqs(page) == list(range(seq, 0, -1))


def choice_buttons(page: Page) -> Locator:
    return page.locator("#prompts button.choice")


def lowest_choice(page: Page) -> Locator:
    """The play with the lowest score among this page's choices (else the first choice):
    with the ``e2e`` seed and a target of 5 the game lasts four moves."""
    buttons = choice_buttons(page)
    expect(buttons.first).to_be_visible()
    labels = buttons.locator(".label").all_text_contents()
    plays = [
        (card_value(m.group(1)), i) for i, text in enumerate(labels) if (m := re.match(r"Play (\S+)", text))
    ]
    return buttons.nth(min(plays)[1] if plays else 0)


def click_choice(page: Page, button: Locator) -> None:
    """Click a choice and wait until the server has answered it (committed or refused)."""
    with page.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as info:
        button.click()
    assert info.value.status == 200, f"the move was refused: {info.value.text()}"


def wait_until(predicate: Any, timeout: float = 10.0, message: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {message}")
        time.sleep(0.05)


def scroll_width(page: Page) -> int:
    """The document's width in CSS pixels (a phone zooms out to show a wider page, so
    compare this with the device width, not with ``innerWidth``)."""
    return page.evaluate("document.scrollingElement.scrollWidth")


# -- any game (Darkest Night's browser tests) ---------------------------------------------

REQUIRED_CHOICES = "#prompts .prompt:not(.prompt-optional) button.choice"


def create_game_table(
    base: str, game: str, names: list[str], options: dict[str, Any] | None = None, seed: str = "e2e"
) -> Table:
    """A table of any game, made through ``POST /api/tables``."""
    response = httpx.post(
        f"{base}/api/tables",
        json={"game": game, "options": options or {}, "seats": [{"name": n} for n in names], "seed": seed},
        timeout=10,
    )
    assert response.status_code == 201, response.text
    return Table(base, response.json())


def table_events(table: Table, token: str | None = None) -> list[dict[str, Any]]:
    """The whole log as ``token``'s holder (none: a spectator) may see it."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = httpx.get(f"{table.base}/api/tables/{table.id}/events", headers=headers, timeout=10)
    response.raise_for_status()
    return response.json()["events"]


def narrated_seqs(table: Table, token: str | None = None) -> list[int]:
    """The seqs that have a log line for this viewer (the game narrates them), newest first."""
    return [e["seq"] for e in reversed(table_events(table, token)) if e.get("text")]


def required_choices(page: Page) -> Locator:
    """The buttons of this page's required prompts (not the optional "at any time" ones)."""
    return page.locator(REQUIRED_CHOICES)


def choice_commands(buttons: Locator) -> list[dict[str, Any]]:
    """The ready-made command each button posts (its ``hx-vals``), in order."""
    raw = buttons.evaluate_all("bs => bs.map(b => b.getAttribute('hx-vals'))")
    return [json.loads(json.loads(vals)["command"]) for vals in raw]


def page_seq(page: Page) -> int:
    return int(page.locator("#seq").get_attribute("data-seq") or 0)
