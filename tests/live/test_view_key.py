"""``Game.view_key``: viewers the game says see alike share one view (and one board render)
per seq (issue 10). A shared key must never hand a viewer another's hidden information: a
key equal for two viewers means their views are equal, and a viewer with secrets of its own
(the game master, the Necromancer player, DN 20.3) has a key of its own."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games.darkest_night import DARKEST_NIGHT
from app.kernel import table as kernel
from app.kernel.game import GameBase, validate_options
from app.kernel.rng import rng_for
from app.kernel.types import GAME_MASTER, GM_SEAT, SPECTATOR, Command, SeatInfo, Viewer
from tests.games.darkest_night.harness import Table

NECRO = 1


def viewers(seats: int) -> list[Viewer]:
    """Every kind of viewer: spectator, game master, each seat, and browsers holding two seats."""
    single = [Viewer("seat", frozenset({s})) for s in range(seats)]
    pairs = [Viewer("seat", frozenset({0, s})) for s in range(1, seats)]
    return [SPECTATOR, GAME_MASTER, *single, *pairs]


def check_keys(state: Any, seats: int) -> None:
    """Viewers with one key get equal views and extras; gm and the Necromancer seat never
    share a key with a viewer who may not see their secrets."""
    by_key: dict[Any, tuple[Viewer, dict[str, Any], dict[str, Any]]] = {}
    for viewer in viewers(seats):
        key = DARKEST_NIGHT.view_key(state, viewer)
        hash(key)
        view = DARKEST_NIGHT.view(state, viewer)
        extras = DARKEST_NIGHT.page_extras(state, viewer)
        if key in by_key:
            first, first_view, first_extras = by_key[key]
            assert view == first_view, f"{viewer} and {first} share key {key!r} but not their view"
            assert extras == first_extras
        else:
            by_key[key] = (viewer, view, extras)
    gm_key = DARKEST_NIGHT.view_key(state, GAME_MASTER)
    assert all(DARKEST_NIGHT.view_key(state, v) != gm_key for v in viewers(seats) if not v.is_gm)
    necro = state.necromancer_seat
    if necro is not None and state.started:
        necro_key = DARKEST_NIGHT.view_key(state, Viewer("seat", frozenset({necro})))
        for viewer in viewers(seats):
            if not viewer.sees_seat(necro):
                assert DARKEST_NIGHT.view_key(state, viewer) != necro_key


def play(seed: int, options: dict[str, Any], seats: int, commands: int) -> list[Any]:
    """The states of a seeded game of random legal commands (at most ``commands`` of them)."""
    picker = random.Random(seed)
    infos = [SeatInfo(i, f"Player {i + 1}") for i in range(seats)]
    opts = validate_options(DARKEST_NIGHT, options)
    state = kernel.replay(DARKEST_NIGHT, DARKEST_NIGHT.setup(opts, infos, rng_for(f"key-{seed}", 1)))
    states = [state]
    for step in range(commands):
        prompts = [p for p in DARKEST_NIGHT.prompts(state) if p.choices and p.required]
        if DARKEST_NIGHT.outcome(state) is not None or not prompts:
            break
        prompt = picker.choice(prompts)
        choice = picker.choice(prompt.choices)
        actor = GAME_MASTER if prompt.seat == GM_SEAT else Viewer("seat", frozenset({prompt.seat}))
        command = Command(prompt.seat, choice.type, choice.args)
        events = kernel.decide(DARKEST_NIGHT, state, command, actor, rng_for(f"key-{seed}", step + 2))
        state = kernel.fold_all(DARKEST_NIGHT, state, events)
        states.append(state)
    return states


@pytest.mark.parametrize(
    ("seed", "options", "seats"),
    [
        (3, {}, 4),
        (5, {"necromancer_player": True}, 3),
        (8, {"subdeck": "spiritual_warfare", "necromancer_player": True}, 2),
    ],
)
def test_viewers_sharing_a_key_see_the_same_view_through_a_game(
    seed: int, options: dict[str, Any], seats: int
) -> None:
    seen_keys: set[Any] = set()
    states = play(seed, options, seats, 120)
    assert len(states) > 60
    for state in states:
        check_keys(state, seats)
        seen_keys.update(DARKEST_NIGHT.view_key(state, v) for v in viewers(seats))
    expected = {"gm", "public"} | ({"necromancer"} if options.get("necromancer_player") else set())
    assert seen_keys == expected


def test_hero_seats_and_spectators_share_one_view_the_necromancer_has_his_own() -> None:
    t = Table.start(seats=2, options={"necromancer_player": True, "hero_seats": [0, 0, 0, 0]})
    assert t.state.necromancer_seat == NECRO
    hero, necro = Viewer("seat", frozenset({0})), Viewer("seat", frozenset({NECRO}))
    key = DARKEST_NIGHT.view_key
    assert key(t.state, hero) == key(t.state, SPECTATOR) == "public"
    assert key(t.state, necro) == "necromancer"
    assert key(t.state, GAME_MASTER) == "gm"
    assert isinstance(DARKEST_NIGHT.view(t.state, necro)["necromancer_hand"], list)
    assert isinstance(DARKEST_NIGHT.view(t.state, hero)["necromancer_hand"], int)


def test_the_default_key_is_the_viewer_itself() -> None:
    class Plain(GameBase):
        name = "plain"

    seat = Viewer("seat", frozenset({0}))
    assert Plain().view_key(None, seat) == seat
    assert Plain().view_key(None, seat) != Plain().view_key(None, SPECTATOR)
