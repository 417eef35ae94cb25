"""Issue 23, item 3: each game's event schema (``app/kernel/event_schema.py``). A whole
number stored as a boolean or a decimal is read back as the whole number; no new one can
be written; the conformance runs check every event against the schema."""

from __future__ import annotations

import pytest

from app.games.dark_omen import DARK_OMEN
from app.kernel import event_schema, get_game
from app.kernel import table as kernel
from app.kernel.event_schema import EventSchemaError, EventShape, normalise, problems
from app.kernel.types import Event

SCHEMA = {
    "Moved": EventShape.of(
        1, {"seat": frozenset({"int"}), "to": frozenset({"int", "str"}), "why": frozenset({"str"})}
    ),
    "Path": EventShape.of(
        1, {"squares": frozenset({"list", "list:int"}), "odds": frozenset({"float", "int"})}
    ),
}


@pytest.mark.parametrize(
    ("stored", "read"),
    [
        ({"seat": True, "to": 3}, {"seat": 1, "to": 3}),
        ({"seat": False, "to": "Village"}, {"seat": 0, "to": "Village"}),
        ({"seat": 2.0, "to": 3.0}, {"seat": 2, "to": 3.0}),  # "to" may be a text: not a whole-number field
    ],
)
def test_a_stored_boolean_or_whole_decimal_is_read_as_the_whole_number(stored: dict, read: dict) -> None:
    event = normalise(SCHEMA, Event("Moved", stored))
    assert event.data == read and all(type(event.data[k]) is type(v) for k, v in read.items())


def test_lists_of_whole_numbers_are_read_whole_and_fine_events_are_the_very_same() -> None:
    assert normalise(SCHEMA, Event("Path", {"squares": [1.0, True, 3], "odds": 0.5})).data == {
        "squares": [1, 1, 3],
        "odds": 0.5,
    }
    fine = Event("Moved", {"seat": 1, "to": "Ruins"})
    assert normalise(SCHEMA, fine) is fine
    assert normalise(SCHEMA, Event("Unknown", {"seat": True})).data == {"seat": True}
    half = Event("Moved", {"seat": 1.5})
    assert normalise(SCHEMA, half) is half  # not a whole number: left for the game to judge


def test_a_mistyped_number_is_refused_and_strict_checks_refuse_anything_unseen() -> None:
    assert problems(SCHEMA, Event("Moved", {"seat": True}), strict=False) == [
        "Moved.seat: true is bool, where it holds int"
    ]
    assert problems(SCHEMA, Event("Moved", {"seat": "1"}), strict=False)
    assert problems(SCHEMA, Event("Path", {"squares": [1, 2.0]}), strict=False)
    assert problems(SCHEMA, Event("Path", {"odds": 0.25}), strict=False) == []  # decimals are its own
    # What the seeded games never met is only a strict check's business (conformance).
    assert problems(SCHEMA, Event("Moved", {"seat": None, "new": 1}), strict=False) == []
    assert problems(SCHEMA, Event("Moved", {"seat": None, "new": 1}), strict=True) == [
        "Moved.seat: null is null, where it holds int",
        "Moved.new: no such field in the schema",
    ]
    assert problems(SCHEMA, Event("Other", {}), strict=True) == ["Other: no such event type in the schema"]


@pytest.mark.parametrize("name", ["darkest_night", "attack_the_darkness", "dark_omen"])
def test_every_game_ships_a_schema_of_its_current_event_versions(name: str) -> None:
    game = get_game(name)
    schema = event_schema.schema_of(game)
    assert schema, f"{name} has no event_schema.json (make event-schemas)"
    versions = game.event_types()
    assert {t: s.v for t, s in schema.items()} == {t: versions[t] for t in schema}
    assert len(schema) >= 0.75 * len(versions)  # the rare rest is logged when first written


def test_the_game_refuses_to_write_a_boolean_seat() -> None:
    with pytest.raises(EventSchemaError, match="HeroStats.seat: true is bool"):
        event_schema.check(DARK_OMEN, [Event("HeroStats", {"seat": True, "hp": 3})])
    event_schema.check(DARK_OMEN, [Event("HeroStats", {"seat": 1, "hp": 3})])


def test_the_kernel_reads_stored_events_normalised_before_the_game_folds_them() -> None:
    stored = Event("HeroPlaced", {"seat": True, "at": 47.0})
    assert kernel.read(DARK_OMEN, stored).data == {"seat": 1, "at": 47}


def test_the_platforms_own_events_are_not_held_to_a_games_schema() -> None:
    """``table.bot_strength`` and its kin are the kernel's (checked by ``history``): a table
    of any game writes them without a warning that its schema has not seen them."""
    platform = [Event("table.bot_strength", {"strength": "strong"}), Event("table.bot_pace", {"seconds": 1})]
    assert event_schema.check_append(DARK_OMEN, platform) == []
    assert event_schema.check_append(DARK_OMEN, [Event("Unknown", {})]) == [
        "Unknown: no such event type in the schema"
    ]
