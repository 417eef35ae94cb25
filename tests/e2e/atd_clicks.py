"""Clicking Attack the Darkness's board as a person does (issue 13, "How it must be
shown"): a command chosen by the quick player (``atd_play.py``) is sent by clicking the
element of the board that stands for it (the square, the token, the card in the hand, the
tile, the game master's dungeon card), through the small menu when one element holds
several choices, or the prompt's button when nothing on the board stands for it."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.e2e.atd_play import Command
from tests.e2e.support import choice_commands, expect_seq

REGIONS = {
    "square": "#atd-cells",
    "tile": "#atd-tiles",
    "combatant": "#atd-tokens",
    "ac": "#atd-hand",
    "rc": "#atd-hand",
    "top": "#atd-window",
    "adv": "#atd-window",
    "item": "#atd-party",
    "dungeon": "#atd-gm",
}
"""Where on the page each kind of ``data-target`` is clicked (a monster is also a row of
the monster line and a character a panel: the tests click the token on the grid)."""


def _same(a: Command, b: Command) -> bool:
    return a["type"] == b["type"] and a["args"] == b["args"]


def button_for(page: Page, command: Command) -> Locator:
    """This page's prompt button that sends ``command``."""
    buttons = page.locator("#prompts button.choice")
    expect(buttons.first).to_be_attached()
    for i, offered in enumerate(choice_commands(buttons)):
        if _same(offered, command):
            return buttons.nth(i)
    raise AssertionError(f"{page.url}: no choice sends {command['type']} {command['args']}")


def board_element(page: Page, target: str) -> Locator:
    """The lit board element marked ``target`` (in its region of the page)."""
    region = REGIONS[target.split(":", 1)[0]]
    return page.locator(f'{region} .is-target[data-target="{target}"]').first


def click(page: Page, command: Command, seq: int | None = None, *, board: bool = True) -> str | None:
    """Send ``command`` from ``page`` the way a person would; returns the ``data-target``
    clicked (None: the prompt's button). With ``seq``, first wait for the page to show it."""
    if seq is not None:
        expect_seq(page, seq)
    button = button_for(page, command)
    target = button.get_attribute("data-target") if board else None
    label = button.locator(".label").inner_text().strip()
    with page.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as info:
        if target:
            element = board_element(page, target)
            expect(element).to_be_visible()
            element.click()
            menu = page.locator("#target-menu")
            if menu.count():
                menu.get_by_role("menuitem", name=label, exact=True).click()
        else:
            button.click()
    assert info.value.status == 200, info.value.text()
    return target


def lit(page: Page, selector: str) -> Locator:
    return page.locator(f"{selector}.is-target")
