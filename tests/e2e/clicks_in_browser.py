"""Clicks per turn, measured by playing in the browser (issue 26, "Done when": the closing
note gives clicks per turn for each game measured by playing in the browser).

Every seat of a real ``umbra serve`` table has its own browser page. The heuristic bot
(``Game.bot_choice``) decides what each player wants, from the table's true state read
back from the server's SQLite file; the page then does it the way a person would, and every
mouse press is counted:

- a board element that stands for the command (``.is-target[data-target]`` outside the
  prompts: a square, a token, a card in the hand) is pressed, and when it holds several
  choices the small menu's item too (two presses);
- otherwise the prompt's button, after opening the folded section that hides it if any.

The pages are never told what to send: a press that the server answers with anything but
200 fails the run. ``ClickSpec`` says, per game, which presses belong to a turn and what a
turn is (Darkest Night's hero turn, a player turn of Attack the Darkness, a Dark Omen
hero's round), as the engine-side counters (``app/games/*/clicks`` and ``bench``) do.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Locator, Page, expect

from app.games.attack_the_darkness.bench import TURN_KINDS
from app.games.darkest_night.clicks import NECROMANCER_KINDS, SETUP_KINDS
from app.kernel import table as kernel
from app.kernel.registry import get_game
from app.kernel.types import Choice, Event, Prompt
from tests.e2e.support import Table, choice_commands, create_game_table, expect_seq

Counted = Callable[[Any, Prompt], bool]
"""Is a press answering ``prompt`` in ``state`` part of a turn (not setup, not the enemy's)?"""
Turns = Callable[[list[Event]], int]
"""How many turns these new events begin."""


@dataclass(frozen=True)
class ClickSpec:
    game: str
    options: dict[str, Any]
    names: list[str]
    counted: Counted
    turns: Turns
    turn_word: str
    prefer: Callable[[Prompt, Choice], Choice] = lambda _prompt, choice: choice
    """The command a person sends for the bot's choice (Attack the Darkness: a card's own
    click pays it the cheapest way)."""
    spent: Turns | None = None
    """Dark Omen: the AP these events spend (its target is one press per AP)."""


@dataclass
class ClickFigures:
    game: str
    turn_word: str
    turns: int = 0
    presses: int = 0
    commands: int = 0
    menu_presses: int = 0
    unfold_presses: int = 0
    board_presses: int = 0
    ap: int = 0
    by_title: dict[str, int] = field(default_factory=dict)

    @property
    def per_turn(self) -> float:
        return self.presses / self.turns if self.turns else 0.0

    def report(self) -> str:
        top = sorted(self.by_title.items(), key=lambda kv: -kv[1])[:8]
        lines = [
            f"{self.game}: {self.presses} presses over {self.turns} {self.turn_word}s = "
            f"{self.per_turn:.2f} per {self.turn_word} ({self.commands} commands; "
            f"{self.board_presses} on the board, {self.menu_presses} in a menu, "
            f"{self.unfold_presses} to unfold a section)"
            + (f"; {self.ap} AP spent, {self.presses / self.ap:.2f} presses per AP" if self.ap else ""),
            *(f"    {n:4d}  {title}" for title, n in top),
        ]
        return "\n".join(lines)


class TrueTable:
    """The table's state as the server stored it (every event, hidden ones too): the
    stand-in for what a player has in mind, never shown to the pages."""

    def __init__(self, database: str, table_id: str, game_id: str) -> None:
        self.connection = sqlite3.connect(database)
        self.table_id = table_id
        game = get_game(game_id)
        assert game is not None, game_id
        self.game = game
        self.state: Any = None
        self.seq = 0

    def catch_up(self) -> list[Event]:
        rows = self.connection.execute(
            "SELECT seq, type, version, data FROM events WHERE table_id = ? AND seq > ? ORDER BY seq",
            (self.table_id, self.seq),
        ).fetchall()
        events = [Event(type_, json.loads(data), version) for _seq, type_, version, data in rows]
        if rows:
            self.state = kernel.replay(self.game, events, self.state)
            self.seq = rows[-1][0]
        return events

    def close(self) -> None:
        self.connection.close()


def _visible_board_element(page: Page, target: str) -> Locator | None:
    candidates = page.locator(f'.is-target[data-target="{target}"]:not(#prompts *)')
    for i in range(candidates.count()):
        element = candidates.nth(i)
        if element.is_visible():
            return element
    return None


def press(page: Page, command: dict[str, Any], figures: ClickFigures, counted: bool) -> None:
    """Send ``command`` from ``page`` as a person would, counting the presses."""
    buttons = page.locator("#prompts button.choice")
    expect(buttons.first).to_be_attached()
    offered = choice_commands(buttons)
    matches = [
        i for i, c in enumerate(offered) if c["type"] == command["type"] and c["args"] == command["args"]
    ]
    assert matches, f"{page.url}: no choice sends {command}"
    button = buttons.nth(matches[0])
    target = button.get_attribute("data-target")
    label = button.locator(".label").inner_text().strip() if button.locator(".label").count() else ""
    presses = 0
    with page.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as info:
        element = _visible_board_element(page, target) if target else None
        if element is not None:
            element.click()
            presses += 1
            figures.board_presses += counted
            menu = page.locator("#target-menu")
            if menu.count() and menu.is_visible():
                menu.get_by_role("menuitem", name=label, exact=True).click()
                presses += 1
                figures.menu_presses += counted
        else:
            if not button.is_visible():
                folded = button.locator("xpath=ancestor::details[not(@open)][last()]")
                if folded.count():
                    folded.locator(":scope > summary").click()
                    presses += 1
                    figures.unfold_presses += counted
            button.click()
            presses += 1
    assert info.value.status == 200, f"{page.url}: {command} was refused: {info.value.text()}"
    if counted:
        figures.presses += presses
        figures.commands += 1


def play(
    spec: ClickSpec,
    base: str,
    database: str,
    open_page: Callable[..., Page],
    *,
    turns: int,
    seed: int = 0,
    max_commands: int = 2_000,
    viewport: dict[str, int] | None = None,
) -> ClickFigures:
    """Play a new table of ``spec`` in the browser until ``turns`` turns began (or the game
    ended) and return the presses counted."""
    table: Table = create_game_table(base, spec.game, spec.names, spec.options, seed=f"clicks-{seed}")
    options = {"viewport": viewport} if viewport else {}
    pages = {seat: open_page(table.seat_url(seat), **options) for seat in range(len(spec.names))}
    true = TrueTable(database, table.id, spec.game)
    rng = random.Random(seed)
    figures = ClickFigures(spec.game, spec.turn_word)
    try:
        true.catch_up()
        for _ in range(max_commands):
            if true.game.outcome(true.state) is not None or figures.turns >= turns:
                break
            required = [p for p in true.game.prompts(true.state) if p.required and p.choices]
            assert required, "the table waits on nobody yet has not ended"
            rng.shuffle(required)
            # A player may wait on purpose (a Dark Omen hero who joined a team attack waits
            # for its launch): the next player with something to do acts.
            answers = ((p, true.game.bot_choice(true.state, p, rng)) for p in required)
            prompt, choice = next(((p, c) for p, c in answers if c is not None), (required[0], None))
            assert choice is not None, f"the bot has no answer to {prompt.title!r}"
            choice = spec.prefer(prompt, choice)
            page = pages[prompt.seat]
            expect_seq(page, true.seq)
            counted = spec.counted(true.state, prompt)
            if counted:
                figures.by_title[prompt.title] = figures.by_title.get(prompt.title, 0) + 1
            press(page, {"type": choice.type, "args": choice.args}, figures, counted)
            before = true.seq
            for _wait in range(200):
                events = true.catch_up()
                if true.seq > before:
                    break
                page.wait_for_timeout(25)
            else:
                raise AssertionError(f"{choice.type} was answered 200 yet stored nothing")
            figures.turns += spec.turns(events)
            figures.ap += spec.spent(events) if spec.spent else 0
    finally:
        true.close()
    return figures


# -- the three games ------------------------------------------------------------------------


def _dn_counted(state: Any, _prompt: Prompt) -> bool:
    kind = state.decision.kind if state.decision is not None else ""
    return kind not in SETUP_KINDS and kind not in NECROMANCER_KINDS


def _atd_counted(state: Any, prompt: Prompt) -> bool:
    own_turn = state.decision is not None and state.decision.kind in TURN_KINDS
    return own_turn and isinstance(prompt.seat, int) and state.turn == prompt.seat


def _atd_one_click(prompt: Prompt, choice: Choice) -> Choice:
    if choice.type != "play":
        return choice
    quick = [c for c in prompt.choices if c.type == "play_cheapest" and c.args == choice.args]
    return quick[0] if quick else choice


def _counting(*types: str) -> Turns:
    return lambda events: sum(1 for e in events if e.type in types)


SPECS = {
    "darkest_night": ClickSpec(
        "darkest_night",
        {},
        ["Ann", "Bo", "Cy", "Di"],
        _dn_counted,
        _counting("TurnStarted", "TurnSkipped"),
        "hero turn",
    ),
    "attack_the_darkness": ClickSpec(
        "attack_the_darkness",
        {"dungeon": "tavern_cellar"},
        ["Ann", "Bo"],
        _atd_counted,
        _counting("TurnBegan"),
        "player turn",
        _atd_one_click,
    ),
    "dark_omen": ClickSpec(
        "dark_omen",
        {},
        ["Ann", "Bo"],
        lambda _state, _prompt: True,
        lambda events: 2 * sum(1 for e in events if e.type == "RoundEnded"),
        "hero round",
        spent=lambda events: sum(
            e.data["n"] if e.type == "ApSpent" else e.data["ap"]
            for e in events
            if e.type in ("ApSpent", "HeroMoved")
        ),
    ),
}
"""Four people at Darkest Night (one hero each), two at Attack the Darkness's Tavern Cellar
(the rulebook's first dungeon, AtD L241) and at Dark Omen's first chapter."""
