"""The Necromancer player's move prompt says why each missing destination is missing
(DN 20.3.2, issue 11): a hero he detected is chased by a shortest route; detecting none,
he moves to an adjacent location without heroes, and must move if he can; he never
enters the Monastery (DN 10.0)."""

from __future__ import annotations

from app.kernel.types import Prompt
from tests.games.darkest_night.harness import DARKEST_NIGHT, Table, run_steps
from tests.games.darkest_night.test_necromancer import place

NECRO = 1


def necromancer_prompt(heroes: dict[str, tuple[str, int]], at: str, roll: int) -> Prompt:
    t = Table.start(seats=2, options={"necromancer_player": True, "hero_seats": [0, 0, 0, 0]})
    assert t.state.necromancer_seat == NECRO
    t.edit(lambda s: place(s, heroes, at))
    run_steps(t, [{"op": "necromancer_detect", "roll": roll}])
    return next(p for p in DARKEST_NIGHT.prompts(t.state) if p.seat == NECRO and p.required)


def reasons(prompt: Prompt) -> dict[str, tuple[str, str]]:
    return {u.label: (u.reason, u.rule) for u in prompt.unavailable}


def test_detecting_no_hero_he_may_not_step_onto_one_and_must_move() -> None:
    prompt = necromancer_prompt(
        {
            "prince": ("Village", 6),
            "valkyrie": ("Castle", 6),
            "seer": ("Monastery", 0),
            "crusader": ("Monastery", 0),
        },
        "Ruins",
        roll=1,
    )
    assert sorted(c.args["to"] for c in prompt.choices) == ["Forest", "Swamp"]
    why = reasons(prompt)
    assert set(why) == {
        "Stay",
        "Move to the Village",
        "Move to the Castle",
        "Move to the Mountains",
        "Move to the Monastery",
    }
    assert why["Move to the Village"] == (
        "a hero is there: detecting none, he may not move onto a hero",
        "DN 20.3.2",
    )
    assert "a hero is there" in why["Move to the Castle"][0]
    assert why["Move to the Mountains"][0] == "not adjacent to the Ruins"
    assert why["Stay"][0].startswith("he detected no hero, so he must move")
    assert why["Move to the Monastery"] == ("he may never enter the Monastery", "DN 10.0")
    # Each reason keeps its location, so a refusal never borrows another's.
    assert len({u.type for u in prompt.unavailable}) == len(prompt.unavailable)


def test_a_detected_hero_is_chased_by_a_shortest_route() -> None:
    prompt = necromancer_prompt(
        {
            "prince": ("Castle", 0),
            "valkyrie": ("Monastery", 0),
            "seer": ("Monastery", 0),
            "crusader": ("Monastery", 0),
        },
        "Ruins",
        roll=3,
    )
    assert sorted(c.args["to"] for c in prompt.choices) == ["Swamp", "Village"]
    why = reasons(prompt)
    assert why["Move to the Forest"][0] == "not on a shortest route to a hero he detected (the Castle)"
    assert why["Stay"][0] == "he must move toward a hero he detected (the Castle)"
    assert why["Move to the Castle"][0] == "not adjacent to the Ruins"
    assert "Move to the Swamp" not in why and "Move to the Village" not in why
