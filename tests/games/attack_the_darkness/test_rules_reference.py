"""Attack the Darkness's rules at hand (issue 28): the step of a turn each required prompt
belongs to (``Game.guide_step``), told apart per seat where one question serves two steps,
every such step with its first-game guide, and the entries the table's own words lead to."""

from __future__ import annotations

import random

import pytest

from app.games.attack_the_darkness import ATTACK_THE_DARKNESS as GAME
from app.games.attack_the_darkness.decisions import Defend, GmMonster, MoveTo
from app.games.attack_the_darkness.engine import RULES
from app.kernel import playout
from app.kernel.reference import RulesReference
from app.kernel.types import GM_SEAT, Prompt
from tests.games.attack_the_darkness.harness import Table

VARIANTS = {
    "act": {"act", "fatigued"},
    "move_to": {"move", "push"},
    "defend": {"defend", "protect"},
    "place_tile": {"place_tile", "gm_map"},
    "gm_monster": {"gm_monster", "dominated"},
}
"""The decision kinds that serve two steps of a turn; every other kind is a step of its own."""


def reference() -> RulesReference:
    found = GAME.rules_reference()
    assert found is not None
    return found


def required_steps(state: object) -> list[str | None]:
    return [GAME.guide_step(state, p) for p in GAME.prompts(state) if p.required]


def asked(seat: object) -> Prompt:
    """A required prompt for ``seat`` (``guide_step`` reads only its seat and whether the
    table waits on it)."""
    return Prompt(seat, "", ())


def test_every_step_a_prompt_can_belong_to_has_a_guide_and_every_guide_a_step() -> None:
    steps = set().union(*(VARIANTS.get(kind, {kind}) for kind in RULES.decisions))
    assert steps == set(reference().guides)


def test_the_action_step_and_a_fatigued_one() -> None:
    t = Table(seats=2)
    t.craft([(0, 0, "v"), (3, 0, "v")], {0: (1, 1), 1: (1, 2)})
    assert required_steps(t.state) == ["act"]
    t.state.chars[0].fatigued = True
    assert required_steps(t.state) == ["fatigued"]


def test_a_card_move_and_a_push() -> None:
    t = Table(seats=1)
    t.state.decision = MoveTo(seat=0, who="c0", n=2, why="card")
    assert GAME.guide_step(t.state, asked(0)) == "move"
    t.state.decision = MoveTo(seat=0, who="m1", n=1, why="push")
    assert GAME.guide_step(t.state, asked(0)) == "push"


def test_defending_oneself_and_protecting_an_ally() -> None:
    t = Table(seats=2)
    t.state.decision = Defend(seat=0, attacker="m1", target="c0", resume={})
    assert GAME.guide_step(t.state, asked(0)) == "defend"
    t.state.decision = Defend(seat=1, attacker="m1", target="c0", resume={})
    assert GAME.guide_step(t.state, asked(1)) == "protect"


def test_a_monster_turn_is_the_game_masters_or_a_dominating_players() -> None:
    t = Table(seats=1, mode="tabletop")
    t.state.decision = GmMonster(seat=GM_SEAT, monster="m1", moved=False, attacks=1)
    assert GAME.guide_step(t.state, asked(GM_SEAT)) == "gm_monster"
    t.state.decision = GmMonster(seat=0, monster="m1", moved=False, attacks=1)
    assert GAME.guide_step(t.state, asked(0)) == "dominated"


def test_the_game_master_lays_the_map_and_players_lay_a_random_dungeons() -> None:
    tabletop = Table(seats=2, mode="tabletop", dungeon="random")
    assert required_steps(tabletop.state) == ["gm_map"]
    adventure = Table(seats=2, dungeon="random")
    assert required_steps(adventure.state) == ["place_tile"]


def test_an_optional_any_time_offer_shows_no_guide() -> None:
    t = Table(seats=1, classes=["samurai"])
    t.craft([(0, 0, "v")], {0: (1, 1)})
    optional = [p for p in GAME.prompts(t.state) if not p.required]
    assert [p.title for p in optional] == ["A Lifetime of Preparation"]
    assert GAME.guide_step(t.state, optional[0]) is None
    assert GAME.guide_step(t.state.clone(), asked(0)) == "act"


@pytest.mark.parametrize(
    ("options", "core"),
    [
        ({"mode": "adventure", "dungeon": "tavern_cellar", "campaign": 2}, {"act", "pay", "clear_room"}),
        ({"mode": "tabletop", "dungeon": "random", "encounters": 1}, {"gm_map", "gm_pick", "gm_monster"}),
        ({"mode": "arena", "teams": 2}, {"cut", "act"}),
    ],
)
def test_every_required_prompt_of_a_played_table_names_a_guided_step(
    options: dict[str, object], core: set[str]
) -> None:
    """Two bot players (and the bot's game master) play a table of each mode to its end:
    every prompt the table waits on names a step of a turn, and that step has its guide."""
    guides = reference().guides
    seen: set[str | None] = set()

    def check(table: playout.Played, *_: object) -> None:
        seen.update(GAME.guide_step(table.state, p) for p in GAME.prompts(table.state) if p.required)

    rng = random.Random(3)
    table = playout.set_up(GAME, options, ["P1", "P2"], f"guide-{options['mode']}")
    check(table)
    bots = playout.bot_player(lambda state, prompt: GAME.bot_choice(state, prompt, rng), random.Random(5))
    playout.play(table, bots, max_commands=3000, on_command=check)
    assert table.outcome is not None
    assert None not in seen
    assert seen <= set(guides)
    assert core <= seen


def test_the_speed_moves_refusal_opens_the_speed_move_entry() -> None:
    """The greyed speed move cites AtD L82: the entry on the speed move, in the Movement
    chapter, covers it."""
    t = Table(seats=1)
    t.craft([(0, 0, "v"), (3, 0, "v")], {0: (1, 1)})
    t.monster("aura_knight", (5, 3))
    square = next(args for type_, args in t.choices(0) if type_ == "speed")
    t.send(0, "speed", **square)
    (prompt,) = [p for p in GAME.prompts(t.state) if p.required]
    rules = [u.rule for u in prompt.unavailable if u.type == "speed"]
    assert rules == ["AtD L82"]
    entry = reference().resolve(rules[0])
    assert entry is not None and entry.chapter == "Movement" and "speed" in entry.title
