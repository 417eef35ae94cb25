"""Clicks per turn of each game, measured by playing it in the browser (issue 26): every
command of a few turns is sent by pressing the page as a person would
(``clicks_in_browser``), and the figures are printed (``-s`` shows them;
``UMBRA_CLICK_TURNS`` plays longer for the closing note's figures)."""

from __future__ import annotations

import os

import pytest

from tests.e2e.clicks_in_browser import SPECS, play
from tests.e2e.conftest import PageFactory, Served

pytestmark = pytest.mark.browser

TURNS = int(os.environ.get("UMBRA_CLICK_TURNS", "6"))

CEILINGS = {"darkest_night": 4.0, "attack_the_darkness": 8.0, "dark_omen": 14.0}
"""Far above what each game takes (DN 2.8, AtD about 5, DO about one press per AP): these
only catch a page that makes a player press twice where once was enough."""


@pytest.mark.parametrize("game", sorted(SPECS))
def test_a_few_turns_are_played_by_pressing_the_pages(
    game: str, server: Served, open_page: PageFactory
) -> None:
    database = server.database_url.removeprefix("sqlite:///")
    figures = play(SPECS[game], server.url, database, open_page, turns=TURNS)
    print(figures.report())
    assert figures.turns >= min(TURNS, 2), figures.report()
    assert figures.commands > 0 and figures.presses >= figures.commands
    assert figures.per_turn <= CEILINGS[game], figures.report()
