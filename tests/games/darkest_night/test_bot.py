"""The heuristic bot in the Necromancer player's seat (DN 20.3): it keeps a table with an
empty Necromancer seat going, answers only from the prompt, and plays like an adversary.
In the hero seats it hunts clues, fetches a Holy Relic and slays the Necromancer (DN 18.1)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from app.games.darkest_night.bench import bot_game as bench_game
from app.games.darkest_night.bench import play_with_bots
from app.games.darkest_night.bot import choose
from app.games.darkest_night.bot.hero import choose_hero, choose_powers
from app.games.darkest_night.bot.planner import retriever
from app.games.darkest_night.state import Blight, Item, State
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
            answered[state.decision.kind] += 1
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
    assert t.decision is not None and t.decision.kind == "necromancer_move"
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
    assert t.decision is not None and t.decision.kind == kind
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


# -- the hero seats ------------------------------------------------------------------------


def hero_action_prompt(t: Table, hero: str) -> Prompt:
    """The action step of ``hero`` (DN 8.0), reached directly."""
    run_steps(t, [{"op": "action_step", "hero": hero}], phase="turn")
    assert t.decision is not None and t.decision.kind == "action"
    prompts = [p for p in DARKEST_NIGHT.prompts(t.state) if p.required]
    assert len(prompts) == 1
    return prompts[0]


def hero_choice(t: Table, prompt: Prompt) -> Choice:
    choice = choose(t.state, prompt, random.Random(0))
    assert choice in prompt.choices
    return choice


def clear_blights(s: State) -> None:
    for location in s.blights:
        s.blights[location] = []


def test_the_bearer_attacks_the_necromancer_when_no_blight_shields_him() -> None:
    """DN 18.1: a hero holding a Holy Relic, with the Necromancer and no blight at his
    location, fights him to win."""
    t = Table.start()

    def change(s: State) -> None:
        clear_blights(s)
        s.necromancer = "Village"
        crusader = s.heroes["crusader"]
        crusader.location, crusader.secrecy, crusader.grace = "Village", 2, 4
        crusader.items.append(Item("i99", "holy_relic"))

    t.edit(change)
    prompt = hero_action_prompt(t, "crusader")
    assert hero_choice(t, prompt).type == "attack_necromancer"


def test_without_a_relic_nobody_attacks_the_necromancer() -> None:
    """DN 12.2: without a Holy Relic a fight against him cannot slay him."""
    t = Table.start()

    def change(s: State) -> None:
        clear_blights(s)
        s.necromancer = "Village"
        s.heroes["crusader"].location = "Village"

    t.edit(change)
    prompt = hero_action_prompt(t, "crusader")
    assert any(c.type == "attack_necromancer" for c in prompt.choices)
    assert hero_choice(t, prompt).type != "attack_necromancer"


def test_the_mesmer_pilfers_secrets_where_blights_gather() -> None:
    """DN 17.1: with 3 blights here, Pilfer Secrets gives 3 clues; the bot takes them rather
    than wander off."""
    t = Table.start(heroes=["mesmer", "seer", "crusader", "valkyrie"])

    def change(s: State) -> None:
        clear_blights(s)
        s.blights["Ruins"] = [Blight("b90", "Taint"), Blight("b91", "Webs"), Blight("b92", "Omen")]
        s.necromancer = "Castle"
        mesmer = s.heroes["mesmer"]
        mesmer.location, mesmer.secrecy = "Ruins", 5

    t.edit(change)
    prompt = hero_action_prompt(t, "mesmer")
    choice = hero_choice(t, prompt)
    assert choice.type == "power_action" and choice.args["power"] == "mesmer.pilfer_secrets"


def test_a_hero_without_grace_prays_in_the_monastery() -> None:
    """DN 8.0, 13.1: at 0 grace the next wound kills; praying restores grace."""
    t = Table.start()

    def change(s: State) -> None:
        clear_blights(s)
        s.heroes["valkyrie"].grace = 0

    t.edit(change)
    prompt = hero_action_prompt(t, "valkyrie")
    assert hero_choice(t, prompt).type == "pray"


def test_the_relic_is_fetched_by_the_best_necromancer_fighter() -> None:
    """DN 8.0, 18.1: with 10 clues the hero likeliest to beat the Necromancer goes for the
    relic (the Crusader's Wrath rolls 4 dice)."""
    t = Table.start()
    t.edit(lambda s: setattr(s, "clues", 10))
    fetcher = retriever(t.state)
    assert fetcher is not None and fetcher.id == "crusader"


def test_the_bot_picks_clue_finders_and_their_best_powers() -> None:
    """DN 3.2: the Seer before the Bard; the Mesmer keeps Pilfer Secrets."""
    heroes = [Choice("choose_hero", {"hero": h}, h) for h in ("bard", "paragon", "seer", "mesmer")]
    assert choose_hero(heroes).args["hero"] == "seer"
    combos = [
        Choice("choose_powers", {"powers": ["mesmer.glamour", "mesmer.puppet_strings", "mesmer.trance"]}, ""),
        Choice(
            "choose_powers",
            {"powers": ["mesmer.consume_dreams", "mesmer.pilfer_secrets", "mesmer.glamour"]},
            "",
        ),
    ]
    assert "mesmer.pilfer_secrets" in choose_powers(combos).args["powers"]


def test_hero_bots_play_whole_games_and_sometimes_win() -> None:
    """DN 18.0: four bot heroes finish their games (win or loss) from the prompts alone."""
    results = Counter(bench_game(seed)[0] for seed in range(12))
    assert "unfinished" not in results
    assert sum(results.values()) == 12
    assert results["win"] >= 1, results  # these seeds: 2 wins (the old bot won none in 1,000)
