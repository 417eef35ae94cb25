"""The heuristic bot in the Necromancer player's seat (DN 20.3): it keeps a table with an
empty Necromancer seat going, answers only from the prompt, and plays like an adversary."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from app.games.darkest_night.bench import play_with_bots
from app.games.darkest_night.state import Blight, State
from app.kernel.types import Choice, Prompt
from tests.games.darkest_night.harness import DARKEST_NIGHT, Table, run_steps

NECRO = 1
"""With two seats and a Necromancer player, seat 1 plays him (DN 20.3)."""


def bot_game(seed: int, seats: int = 3, max_commands: int = 5_000) -> tuple[State, Counter[str]]:
    """Bots on every seat of a Necromancer-player table: the final state and how many of
    each Necromancer-seat decision the bot answered."""
    table_seed = f"necro-bot-{seed}"
    answered: Counter[str] = Counter()

    def pick(state: State, prompt: Prompt, count: int) -> Choice:
        choice = DARKEST_NIGHT.bot_choice(state, prompt, random.Random(f"{table_seed}:{count}"))
        assert choice is not None, f"the bot left seat {prompt.seat} waiting: {prompt.title}"
        assert choice in prompt.choices
        if prompt.seat == state.necromancer_seat:
            assert state.decision is not None
            answered[state.decision["kind"]] += 1
        return choice

    state, _ = play_with_bots({"necromancer_player": True}, seats, table_seed, pick, max_commands)
    assert DARKEST_NIGHT.outcome(state) is not None, f"seed {seed}: no end after {max_commands} commands"
    return state, answered


def test_bots_on_every_seat_play_a_necromancer_table_to_its_end() -> None:
    """DN 20.3: the bot plays the Necromancer seat, so an all-bot table finishes."""
    totals: Counter[str] = Counter()
    for seed in range(5):
        state, answered = bot_game(seed)
        assert DARKEST_NIGHT.outcome(state) is not None
        assert state.necromancer_seat == 2
        assert answered["play_map_card"] > 0  # every blight comes from his hand (DN 20.3.3)
        totals += answered
    assert totals["play_map_card"] >= 20
    assert totals["necromancer_move"] >= 5


def necro_table() -> Table:
    t = Table.start(options={"necromancer_player": True}, seats=2)
    assert t.state.necromancer_seat == NECRO
    return t


def place(t: Table, heroes: dict[str, tuple[str, int]], necromancer: str) -> None:
    """Heroes at (location, secrecy), the rest in the Monastery; no blights anywhere."""

    def change(s: State) -> None:
        for hero in s.heroes.values():
            hero.location, hero.secrecy = heroes.get(hero.id, ("Monastery", 6))
        s.necromancer = necromancer
        for location in s.blights:
            s.blights[location] = []

    t.edit(change)


def necro_prompt(t: Table) -> Prompt:
    prompts = [p for p in DARKEST_NIGHT.prompts(t.state) if p.seat == NECRO]
    assert len(prompts) == 1
    return prompts[0]


def detect(t: Table, roll: int) -> Prompt:
    run_steps(t, [{"op": "necromancer_detect", "roll": roll}], phase="necromancer")
    assert t.decision is not None and t.decision["kind"] == "necromancer_move"
    return necro_prompt(t)


def bot_move(t: Table, prompt: Prompt) -> str:
    choice = DARKEST_NIGHT.bot_choice(t.state, prompt, random.Random(0))
    assert choice is not None and choice.type == "move_necromancer"
    return str(choice.args["to"])


@pytest.mark.parametrize("kind", ["necromancer_move", "play_map_card"])
def test_bot_choice_answers_a_necromancer_prompt_from_its_choices(kind: str) -> None:
    t = necro_table()
    if kind == "necromancer_move":
        place(t, {"prince": ("Village", 0), "valkyrie": ("Ruins", 2)}, "Castle")
        prompt = detect(t, 3)
    else:
        t.edit(lambda s: (setattr(s, "necromancer", "Castle"), s.blights.__setitem__("Castle", [])))
        run_steps(t, [{"op": "necromancer_blight"}], phase="necromancer")
        prompt = necro_prompt(t)
    assert t.decision is not None and t.decision["kind"] == kind
    assert len(prompt.choices) > 1
    choice = DARKEST_NIGHT.bot_choice(t.state, prompt, random.Random(7))
    assert choice is not None and choice in prompt.choices
    assert DARKEST_NIGHT.bot_choice(t.state, replace(prompt, required=False), random.Random(7)) is None
    t.act(choice.type, seat=NECRO, **choice.args)


def test_the_necromancer_moves_onto_an_exposed_hero_rather_than_an_empty_place() -> None:
    """DN 20.3.2: both heroes are detected; he steps onto the Prince (secrecy 0) in the
    Village, not into the empty Swamp on the way to the Valkyrie."""
    t = necro_table()
    place(t, {"prince": ("Village", 0), "valkyrie": ("Ruins", 2)}, "Castle")
    prompt = detect(t, 3)
    assert [c.args["to"] for c in prompt.choices] == ["Swamp", "Village"]
    assert bot_move(t, prompt) == "Village"


@pytest.mark.parametrize(
    ("prince", "valkyrie", "chosen"),
    [(0, 2, "Swamp"), (2, 0, "Mountains")],
)
def test_the_necromancer_chases_the_hero_with_less_secrecy(prince: int, valkyrie: int, chosen: str) -> None:
    t = necro_table()
    place(t, {"prince": ("Swamp", prince), "valkyrie": ("Mountains", valkyrie)}, "Castle")
    prompt = detect(t, 3)
    assert [c.args["to"] for c in prompt.choices] == ["Mountains", "Swamp"]
    assert bot_move(t, prompt) == chosen


def test_undetected_he_moves_where_his_blight_overflows_into_the_monastery() -> None:
    """DN 20.3.2 and 11.1: nobody detected; the Swamp is full, so his blight there falls
    on the Monastery."""
    t = necro_table()
    place(t, {}, "Ruins")
    t.edit(lambda s: s.blights.__setitem__("Swamp", [Blight(f"b9{i}", "Taint") for i in range(4)]))
    prompt = detect(t, 1)
    assert [c.args["to"] for c in prompt.choices] == ["Forest", "Swamp", "Village"]
    assert bot_move(t, prompt) == "Swamp"


def test_he_plays_the_card_with_the_mightier_blight() -> None:
    """DN 20.3.3: in the Castle map105 makes an Unholy Aura (might 4), map104 a Vampire
    (might 6, a monster, with a hero there)."""
    t = necro_table()
    place(t, {"prince": ("Castle", 3)}, "Castle")
    t.edit(lambda s: setattr(s, "hand", ["map105", "map104"]))
    run_steps(t, [{"op": "necromancer_blight"}], phase="necromancer")
    prompt = necro_prompt(t)
    assert [c.args["card"] for c in prompt.choices] == ["map105", "map104"]
    choice = DARKEST_NIGHT.bot_choice(t.state, prompt, random.Random(0))
    assert choice is not None and choice.args == {"card": "map104"}
    t.act(choice.type, seat=NECRO, **choice.args)
    assert [b.type for b in t.state.blights["Castle"]] == ["Vampire"]
