"""Issue 15: a seat takes back its own newest command past other seats' later commands when
the game tells what each touched (``Game.undo_footprint``) and none touched the same
things, rolled dice or revealed anything; a game without footprints keeps "before anyone
else acts". The log check (``check_history``, on import) applies the same rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from app.kernel import history
from app.kernel.game import GameBase
from app.kernel.history import UndoFacts, check_history, undo_refusal
from app.kernel.types import Event, RuleError


class Things(GameBase):
    """A toy: ``Touched`` events name what they touch; ``Rolled`` is a die."""

    name = "things"
    title = "Things"
    opening_event = "Opened"

    def __init__(self, footprints: bool = True) -> None:
        self.footprints = footprints

    def event_types(self) -> dict[str, int]:
        return {"Opened": 1, "Touched": 1, "Rolled": 1}

    def undoable(self, events: Sequence[Event]) -> bool:
        return all(e.type == "Touched" for e in events)

    def undo_footprint(self, events: Sequence[Event]) -> frozenset[str] | None:
        if not self.footprints:
            return None
        return frozenset(str(e.data.get("thing")) for e in events)


@dataclass(frozen=True)
class Entry:
    seq: int
    event: Event
    actor: str
    command_id: str | None


def log(*steps: tuple[str, str, dict[str, object]]) -> list[Entry]:
    """An opening, then one event per (actor, type, data) step, each its own command."""
    entries = [Entry(1, Event("Opened", {}), "system", None)]
    for i, (actor, type_, data) in enumerate(steps, start=2):
        entries.append(Entry(i, Event(type_, dict(data)), actor, f"c{i}"))
    return entries


def undo(entries: list[Entry], seat: int, seq: int) -> list[Entry]:
    event = Event(history.UNDO_EVENT, {"seat": seat, "undone": [seq, seq], "count": 1})
    return [*entries, Entry(len(entries) + 1, event, f"seat:{seat}", f"u{len(entries) + 1}")]


def facts(actor: str, undoable: bool = True, *things: str) -> UndoFacts:
    return UndoFacts(actor, undoable, frozenset(things))


def test_the_rule_past_later_commands() -> None:
    mine = facts("seat:0", True, "space 1", "hero 0")
    assert undo_refusal(mine, []) is None
    assert undo_refusal(mine, [facts("seat:1", True, "space 2", "hero 1")]) is None
    touching = undo_refusal(mine, [facts("seat:1", True, "space 1", "hero 1")])
    assert touching == "another player's later action touched the same things (space 1)"
    dice = undo_refusal(mine, [facts("seat:1", False, "space 9")])
    assert dice is not None and "rolled dice" in dice
    assert undo_refusal(facts("seat:0", False, "space 1"), []) is not None
    blind = UndoFacts("seat:0", True, None)
    assert undo_refusal(blind, []) is None
    assert undo_refusal(blind, [facts("seat:1", True, "x")]) == "another player has acted since"
    many = [facts("seat:1", True, f"s{i}") for i in range(history.UNDO_REACH + 1)]
    assert "more than" in str(undo_refusal(mine, many))


def test_a_log_undoing_past_an_independent_command_is_accepted() -> None:
    entries = log(("seat:0", "Touched", {"thing": "a"}), ("seat:1", "Touched", {"thing": "b"}))
    check_history(Things(), undo(entries, 0, 2), seat_count=2)
    # Taken back, seat 0's command is gone: a second undo of it is refused.
    twice = undo(undo(entries, 0, 2), 0, 2)
    with pytest.raises(RuleError, match="nothing left to take back"):
        check_history(Things(), twice, seat_count=2)
    # Seat 1 may still take back its own (now the newest standing).
    check_history(Things(), undo(undo(entries, 0, 2), 1, 3), seat_count=2)


@pytest.mark.parametrize(
    ("later", "game", "reason"),
    [
        (("seat:1", "Touched", {"thing": "a"}), Things(), "touched the same things"),
        (("seat:1", "Rolled", {"thing": "z"}), Things(), "rolled dice"),
        (("seat:1", "Touched", {"thing": "b"}), Things(footprints=False), "acted since"),
    ],
)
def test_a_log_undoing_past_a_blocking_command_is_refused(
    later: tuple[str, str, dict[str, object]], game: Things, reason: str
) -> None:
    entries = log(("seat:0", "Touched", {"thing": "a"}), later)
    with pytest.raises(RuleError, match=reason) as refused:
        check_history(game, undo(entries, 0, 2), seat_count=2)
    assert refused.value.code == "bad_export"


def test_a_log_undo_names_exactly_its_seats_newest_command() -> None:
    entries = log(
        ("seat:0", "Touched", {"thing": "a"}),
        ("seat:0", "Touched", {"thing": "c"}),
        ("seat:1", "Touched", {"thing": "b"}),
    )
    check_history(Things(), undo(entries, 0, 3), seat_count=2)
    with pytest.raises(RuleError, match="newest command"):
        check_history(Things(), undo(entries, 0, 2), seat_count=2)  # not seat 0's newest


def test_an_undo_reaches_past_at_most_undo_reach_commands() -> None:
    others = [("seat:1", "Touched", {"thing": f"b{i}"}) for i in range(history.UNDO_REACH)]
    entries = log(("seat:0", "Touched", {"thing": "a"}), *others)
    check_history(Things(), undo(entries, 0, 2), seat_count=2)
    entries = log(("seat:0", "Touched", {"thing": "a"}), *others, ("seat:1", "Touched", {"thing": "z"}))
    with pytest.raises(RuleError, match=f"at most {history.UNDO_REACH}"):
        check_history(Things(), undo(entries, 0, 2), seat_count=2)


def test_replay_leaves_out_only_the_command_taken_back() -> None:
    entries = undo(log(("seat:0", "Touched", {"thing": "a"}), ("seat:1", "Touched", {"thing": "b"})), 0, 2)
    live = list(history.live_events([(e.seq, e.event) for e in entries]))
    assert [e.data.get("thing") for e in live if e.type == "Touched"] == ["b"]
