"""``app/kernel/offers.py``: a command is played only if it is one of its seat's offered
choices, equal as JSON; otherwise the refusal says what was expected (issue 23)."""

from __future__ import annotations

import pytest

from app.kernel import offers
from app.kernel.types import GM_SEAT, Choice, Command, Prompt, RuleError, Unavailable

MOVE = Choice("move", {"to": 1, "path": [2, 3], "how": {"fly": False}}, "Move")
SEARCH = Unavailable("search", "Search", "nothing here", "X 1")
PROMPTS = [
    Prompt(0, "Your turn", (MOVE, Choice("rest", {}, "Rest")), (SEARCH,)),
    Prompt(1, "Any time", (Choice("gift", {"to": 0}, "Gift"),), required=False),
    Prompt(GM_SEAT, "Game master", (Choice("spawn", {"at": "a1"}, "Spawn"),), required=False),
]  # fmt: skip


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (1, 1, True),
        (1, 1.0, False),
        (1, True, False),
        (0, False, False),
        ("1", "1", True),
        ([1, 2], (1, 2), True),  # a tuple is a JSON array
        ([1, 2], [1, 2.0], False),
        ({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}, True),
        ({"a": [1, {"b": 2}]}, {"a": [1, {"b": True}]}, False),
        (None, None, True),
    ],
)
def test_same_json_counts_types_at_every_depth(a: object, b: object, same: bool) -> None:
    assert offers.same_json(a, b) is same


def test_only_an_offered_choice_of_the_seat_matches() -> None:
    assert (
        offers.offered(PROMPTS, Command(0, "move", {"to": 1, "path": [2, 3], "how": {"fly": False}})) is MOVE
    )
    for args in (
        {"to": 1.0, "path": [2, 3], "how": {"fly": False}},
        {"to": 1, "path": [2, 3.0], "how": {"fly": False}},
        {"to": 1, "path": [2, 3], "how": {"fly": 0}},
        {"to": 1, "path": [2, 3]},
        {"to": 1, "path": [2, 3], "how": {"fly": False}, "extra": 1},
    ):
        assert offers.offered(PROMPTS, Command(0, "move", args)) is None, args
    assert offers.offered(PROMPTS, Command(1, "rest", {})) is None  # another seat's choice
    assert offers.offered(PROMPTS, Command("0", "rest", {})) is None  # a seat is its index, not a text


def refusal(command: Command, told: RuleError | None = None) -> RuleError:
    return offers.refusal(PROMPTS, command, lambda: told)


def test_a_mistyped_argument_is_told_what_was_offered() -> None:
    err = refusal(Command(0, "move", {"to": True, "path": [2, 3], "how": {"fly": False}}))
    assert err.code == "not_offered" and err.status == 422
    assert "is not what was offered" in err.message and '"to": 1' in err.message
    other = refusal(Command(0, "move", {"to": 9}))
    assert other.code == "not_offered" and "expected one of" in other.message


def test_a_greyed_out_action_names_its_rule_and_the_game_explains_the_rest() -> None:
    err = refusal(Command(0, "search", {}))
    assert (err.code, err.message) == ("not_allowed", "Search: nothing here (X 1)")
    told = RuleError("no_ap", "no action points left (X 2)")
    assert refusal(Command(0, "fly", {}), told) is told
    assert refusal(Command(0, "fly", {})).code == "not_offered"  # the game said nothing


def test_a_seat_not_waited_on_hears_so_and_what_it_may_do_meanwhile() -> None:
    err = refusal(Command(1, "rest", {}))
    assert err.code == "not_your_decision" and "meanwhile it may: gift" in err.message
    assert refusal(Command(2, "rest", {})).message == "the table is not waiting for this seat now"
    idle = offers.refusal([PROMPTS[1]], Command(2, "rest", {}))
    assert idle.code == "nothing_to_decide"


def test_kept_offers_judge_a_late_command_without_labels() -> None:
    kept = offers.offers_of(PROMPTS)
    assert (0, "rest", {}) in kept
    assert offers.among(kept, Command(0, "move", {"to": 1, "path": [2, 3], "how": {"fly": False}}))
    assert not offers.among(kept, Command(0, "move", {"to": 1.0, "path": [2, 3], "how": {"fly": False}}))
