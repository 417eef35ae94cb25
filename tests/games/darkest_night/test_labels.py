"""No raw ids in what players read (issue 11): seeded bot games, with and without a
Necromancer player, list every prompt's title, choice labels and details and every log line,
and none shows a snake_case id (``treasure_chest``) or a map card id (``map114``); counts and
moves read right ("gain 1 clue", never "from the Ruins to the Ruins")."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.bench import play_with_bots
from app.games.darkest_night.describe import describe_event, result_name
from app.games.darkest_night.state import State
from app.kernel import table as kernel
from app.kernel.types import Choice, Event, Prompt

RAW_ID = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\bmap\d+\b")
WRONG = re.compile(r"\b1 (?:clues|keys|wounds|items|blights)\b|\bfrom the ([A-Z]\w*) to the \1\b")


def shown_texts(prompts: list[Prompt]) -> list[str]:
    texts = []
    for p in prompts:
        texts.append(p.title)
        for c in p.choices:
            texts += [c.label, c.detail or ""]
        for u in p.unavailable or ():
            texts += [u.label, u.reason]
    return texts


@pytest.mark.parametrize(("options", "seats", "seed"), [({}, 1, 3), ({"necromancer_player": True}, 2, 5)])
def test_bot_games_show_no_raw_ids(
    options: dict[str, Any], seats: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad: dict[str, str] = {}
    rng = random.Random(seed)
    lines = 0

    def check(where: str, text: str) -> None:
        if text and (found := RAW_ID.search(text) or WRONG.search(text)):
            bad.setdefault(found.group(0), f"{where}: {text}")

    def pick(state: State, prompt: Prompt, count: int) -> Choice:
        for text in shown_texts(DARKEST_NIGHT.prompts(state)):
            check("prompt", text)
        choice = DARKEST_NIGHT.bot_choice(state, prompt, rng)
        assert choice is not None
        return choice

    fold_all = kernel.fold_all

    def fold_and_read(game: Any, state: Any, new: list[Event]) -> Any:
        nonlocal lines
        for event in new:
            check("log", describe_event(event))
            lines += 1
        return fold_all(game, state, new)

    monkeypatch.setattr(kernel, "fold_all", fold_and_read)  # every event the game makes, read as a log line
    state, _ = play_with_bots(options, seats, f"labels-{seed}", pick, 3_000)
    assert DARKEST_NIGHT.outcome(state) is not None and lines > 100
    assert not bad, bad


def test_counts_moves_and_search_results_read_right() -> None:
    assert describe_event(Event("CluesChanged", {"by": 1, "to": 4})) == "The heroes gain 1 clue, now 4."
    assert describe_event(Event("CluesChanged", {"by": -3, "to": 1})) == "The heroes spend 3 clues, now 1."
    stay = describe_event(Event("NecromancerMoved", {"from": "Ruins", "to": "Ruins"}))
    assert stay.startswith("The Necromancer stays in the Ruins")
    move = describe_event(Event("NecromancerMoved", {"from": "Ruins", "to": "Village"}))
    assert move.startswith("The Necromancer moves from the Ruins to the Village")
    assert result_name("treasure_chest") == "A Treasure Chest" and result_name("artifact") == "An artifact"
    found = describe_event(
        Event("SearchSucceeded", {"hero": "", "result": "treasure_chest", "location": "Ruins"})
    )
    assert found.endswith("finds a Treasure Chest in the Ruins.")
    assert (
        describe_event(Event("ItemUnavailable", {"kind": "holy_relic"}))
        == "No Holy Relic is left in the stock."
    )


def test_a_fallen_heros_items_are_named_one_line_each() -> None:
    """DN 15.1: items left where a hero fell wait for the next hero; the log says which."""
    left = Event("ItemGiven", {"item": "i1", "from": "crusader", "to": "orphaned:Village", "kind": "charm"})
    assert describe_event(left) == "Crusader's Charm lies in the Village for the next hero to come."
    taken = Event("ItemGiven", {"item": "i1", "from": "orphaned:Village", "to": "seer", "kind": "holy_relic"})
    assert describe_event(taken) == "Seer picks up a Holy Relic left by a fallen hero."
    older = Event(
        "ItemGiven", {"item": "i1", "from": "orphaned:Village", "to": "seer"}
    )  # logs before the kind
    assert describe_event(older) == "Seer picks up an item left by a fallen hero."
