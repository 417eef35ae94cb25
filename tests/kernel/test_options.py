"""Table options against a game's schema (app/kernel/options.py): per-seat picks, options
that apply only with another's value, and the schema checks every game passes."""

from __future__ import annotations

import pytest

from app.kernel.conformance import random_playout
from app.kernel.game import validate_options
from app.kernel.options import active_options, schema_problems
from app.kernel.registry import all_games, unregister
from app.kernel.types import OptionSpec, RuleError
from tests.support.lanterns import LANTERNS
from tests.web.waymarks import WAYMARKS

unregister(WAYMARKS.name)  # imported for its schema: the registry keeps the games other tests expect


def refused(options: dict, seat_count: int | None = None, game=WAYMARKS) -> RuleError:
    with pytest.raises(RuleError) as info:
        validate_options(game, options, seat_count)
    return info.value


def test_defaults_fill_every_option() -> None:
    assert validate_options(WAYMARKS, {}) == {"mode": "race", "route": "coast", "character": []}
    assert validate_options(WAYMARKS, {}, 3)["character"] == [None, None, None]


def test_a_pick_per_seat_is_checked_against_the_choices_and_the_seats() -> None:
    options = {"character": ["pilgrim", None]}
    assert validate_options(WAYMARKS, options, 3)["character"] == ["pilgrim", None, None]
    assert validate_options(WAYMARKS, options)["character"] == ["pilgrim", None]  # seats unknown
    err = refused({"character": ["pilgrim", "ferryman", "cartographer"]}, 2)
    assert (err.code, err.message) == (
        "bad_option",
        "option character gives 3 picks for 2 seats: one per seat at most",
    )
    err = refused({"character": [None, "wizard"]}, 2)
    assert (
        err.code == "bad_option" and "seat 2 picks 'wizard', which is not one of lamplighter" in err.message
    )
    err = refused({"character": "pilgrim"})
    assert "must be a list with one entry per seat" in err.message
    err = refused({"character": ["pilgrim", None, "pilgrim"]}, 3)
    assert err.message == (
        "option character: seats 1 and 3 both pick Pilgrim; each seat picks a different one"
    )


def test_an_option_applies_only_when_the_one_it_depends_on_has_its_value() -> None:
    tour = validate_options(WAYMARKS, {"mode": "tour", "route": "hills"})
    assert tour["route"] == "hills"
    assert active_options(WAYMARKS.options, tour) == {"mode", "route", "character"}
    race = validate_options(WAYMARKS, {"mode": "race", "route": "coast"})  # its default: accepted
    assert race["route"] == "coast" and "route" not in active_options(WAYMARKS.options, race)
    err = refused({"mode": "race", "route": "hills"})
    assert (err.code, err.message) == (
        "option_not_applicable",
        "option route (Route) applies only when mode is A tour; leave it out",
    )
    assert refused({"mode": "tour", "route": "desert"}).code == "bad_option"


def test_a_dependency_on_an_option_that_does_not_apply_does_not_apply() -> None:
    specs = (
        OptionSpec("a", "bool", False, "A"),
        OptionSpec("b", "choice", "x", "B", choices=("x", "y"), depends_on=("a", (True,))),
        OptionSpec("c", "int", 1, "C", depends_on=("b", ("x",))),
    )
    assert active_options(specs, {"a": False, "b": "x", "c": 1}) == {"a"}
    assert active_options(specs, {"a": True, "b": "x", "c": 1}) == {"a", "b", "c"}
    assert active_options(specs, {"a": True, "b": "y", "c": 1}) == {"a", "b"}


def test_every_game_declares_a_sound_schema() -> None:
    for game in [*all_games().values(), LANTERNS, WAYMARKS]:
        assert schema_problems(game.options) == [], game.name


def test_a_broken_schema_is_told() -> None:
    problems = schema_problems(
        (
            OptionSpec("late", "int", 1, "Late", depends_on=("mode", ("x",))),
            OptionSpec("mode", "choice", "x", "Mode", choices=("x",), choice_labels=("X", "Y")),
            OptionSpec("who", "per_seat", ["nobody"], "Who", choices=("a",)),
            OptionSpec("pick", "choice", "a", "Pick"),
        )
    )
    assert problems == [
        "late depends on mode, which is not declared before it",
        "mode has 2 labels for 1 choices",
        "the default of who is refused: option who: seat 1 picks 'nobody', which is not one of a",
        "pick is a choice option without choices",
        "the default of pick is refused: option pick must be one of ",
    ]


def test_the_schema_json_says_what_the_lobby_draws() -> None:
    route, character = WAYMARKS.options[1].to_json(), WAYMARKS.options[2].to_json()
    assert route["depends_on"] == {"option": "mode", "values": ["tour"]}
    assert route["choice_labels"] == ["Along the coast", "Over the hills"]
    assert character["type"] == "per_seat" and character["distinct"] is True
    assert character["blank_label"] == "a random character"
    assert "depends_on" not in WAYMARKS.options[0].to_json()


def test_the_test_game_conforms() -> None:
    for seed in range(10):
        playout = random_playout(WAYMARKS, seed, options={"mode": "tour", "route": "hills"})
        assert playout.outcome is not None


NOTES = OptionSpec("note", "per_seat_text", [], "Note", max_length=12, blank_label="no note")


class _Noted:
    """A schema with one free-form option per seat, for ``validate_options``."""

    title = "Noted"
    options = (NOTES,)


def test_a_text_per_seat_is_bounded_and_padded() -> None:
    game = _Noted()
    assert validate_options(game, {"note": ["hello", None]}, 3)["note"] == ["hello", None, None]  # type: ignore[arg-type]
    assert validate_options(game, {"note": ["  ", " hi "]}, 2)["note"] == [None, "hi"]  # type: ignore[arg-type]
    assert validate_options(game, {}, 2)["note"] == [None, None]  # type: ignore[arg-type]
    cases = {
        "option note must be a list with one entry per seat (a text or null)": "hello",
        "option note: seat 2 must give a text or null": [None, 5],
        "option note: seat 1's text has 13 characters, at most 12": ["x" * 13],
        "option note: seat 1's text holds control characters": ["a\x00b"],
        "option note gives 3 texts for 2 seats: one per seat at most": ["a", "b", "c"],
    }
    for message, value in cases.items():
        err = refused({"note": value}, 2, game=game)
        assert (err.code, err.message) == ("bad_option", message)
    assert validate_options(game, {"note": ["two\nlines"]}, 1)["note"] == ["two\nlines"]  # type: ignore[arg-type]


def test_a_text_option_needs_its_bound_and_says_it_in_its_json() -> None:
    assert schema_problems((OptionSpec("free", "per_seat_text", [], "Free"),)) == [
        "free is a per_seat_text option without a max_length"
    ]
    assert NOTES.to_json() == {
        "name": "note",
        "type": "per_seat_text",
        "default": [],
        "label": "Note",
        "help": "",
        "blank_label": "no note",
        "max_length": 12,
    }
