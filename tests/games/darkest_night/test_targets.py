"""Which board element each choice acts on (app/games/darkest_night/targets.py): the map's
locations, blights and heroes that a click sends."""

from __future__ import annotations

import random

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.content import LOCATIONS, load
from app.kernel import table as kernel
from app.kernel.game import validate_options
from app.kernel.types import Choice, Command, SeatInfo, Viewer


def target(type_: str, **args: object) -> str | None:
    return DARKEST_NIGHT.choice_target(None, Choice(type_, dict(args), "label"))


def test_moves_target_their_location() -> None:
    assert target("travel", to="Village") == "location:Village"  # DN 8.0
    assert target("move_to", to="Forest") == "location:Forest"
    assert target("move_necromancer", to="Swamp") == "location:Swamp"  # DN 20.3.2
    assert target("use_skull_token", hero="seer", item="i1", to="Castle") == "location:Castle"
    assert target("place_quest", location="Ruins") == "location:Ruins"  # DN 16.1
    assert target("power_action", power="p", to="Mountains") == "location:Mountains"
    assert target("power_action", power="p", target="loc:Monastery") == "location:Monastery"
    assert target("use_item", hero="seer", item="i2", to="Village") == "location:Village"  # a Waystone


def test_blights_and_heroes_are_targets_too() -> None:
    assert target("attack", blight="b7") == "blight:b7"
    assert target("attack_target", blight="b2") == "blight:b2"
    assert target("power_action", power="p", target="blight:b3") == "blight:b3"
    assert target("take_turn", hero="seer") == "hero:seer"
    assert target("pick_hero", target="prince") == "hero:prince"
    assert target("power_action", power="p", target="hero:valkyrie") == "hero:valkyrie"


def test_other_choices_and_odd_arguments_have_no_target() -> None:
    assert target("hide") is None
    assert target("search") is None
    assert target("travel", to="Atlantis") is None
    assert target("travel") is None
    assert target("use_item", hero="seer", item="i3", to="prince") is None  # an item given to a hero
    assert target("power_action", power="p", target="loc:") is None
    assert target("attack", blight=3) is None


def test_every_travel_offered_in_a_game_targets_a_neighbour() -> None:
    """Played by the bot until a hero's action step offers travel: each travel choice is
    wired to an adjacent location of the map (DN 2.0, 8.0)."""
    game = DARKEST_NIGHT
    options = validate_options(game, {}, 1)
    events = game.setup(options, [SeatInfo(0, "Ann")], random.Random(3))
    state = kernel.replay(game, events)
    rng = random.Random(4)
    actor = Viewer("seat", frozenset({0}))
    for _ in range(400):
        prompt = next(p for p in game.prompts(state) if p.required)
        travels = [c for c in prompt.choices if c.type == "travel"]
        if travels:
            break
        choice = game.bot_choice(state, prompt, rng) or prompt.choices[0]
        state = kernel.fold_all(
            game, state, game.decide(state, Command(prompt.seat, choice.type, choice.args), actor, rng)
        )
    else:
        raise AssertionError("no travel was offered")
    view = game.view(state, actor)
    here = next(h["location"] for h in view["heroes"] if h["id"] == view["current"])
    adjacent = set(load().locations[here].adjacent)
    assert {game.choice_target(state, c) for c in travels} == {f"location:{loc}" for loc in adjacent}
    assert all(loc in LOCATIONS for loc in adjacent)
