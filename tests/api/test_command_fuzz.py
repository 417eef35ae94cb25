"""Issue 23, item 5: a Hypothesis state machine plays each game through the public API,
mixing legal commands with the same commands mistyped (each argument's JSON type changed)
and commands that were never legal (a known type with arbitrary JSON arguments). A legal
command must pass; any other must be a 4xx JSON error that leaves the seq where it was.
Any failure is shrunk to a minimal sequence of commands.

``UMBRA_FUZZ_COMMANDS`` sets the commands per game (CI runs a few hundred; 10,000 for a
real hunt), ``UMBRA_FUZZ_SEED`` the seed."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, precondition, rule, run_state_machine_as_test

from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.support.api_play import SCENARIOS, ApiTable, as_json, mistyped

COMMANDS = int(os.environ.get("UMBRA_FUZZ_COMMANDS", "240"))
SEED = int(os.environ.get("UMBRA_FUZZ_SEED", "23"))
STEPS = 20
"""Commands per table (one Hypothesis example): enough to reach a game's later decisions,
few enough that a failure shrinks fast and an example's choices fit Hypothesis's buffer
(an example that outgrows it is dropped unplayed)."""

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 120),
    st.floats(-3, 120, allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=4,
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'umbra.db'}"
    upgrade(url)
    with TestClient(create_app(make_settings(url))) as client:
        yield client


class CommandFuzz(RuleBasedStateMachine):
    """One table of ``game``, played by legal, mistyped and never-legal commands."""

    client: TestClient
    game: str
    counts: dict[str, int]
    """Commands sent per kind (legal, mistyped, never) over every example of one game."""

    def __init__(self) -> None:
        super().__init__()
        # The same table seed for every example: a replayed example must play the same game.
        self.table = ApiTable.create(self.client, self.game, seed=f"fuzz-{SEED}")
        self.seq = self.table.seq()
        self.offers: list[tuple[int, bool, dict[str, Any]]] = self.table.offered()
        self.types = sorted({c["type"] for _, _, c in self.offers} | {"chat", "undo"})
        self.sent = 0

    def _offered_now(self) -> set[str]:
        return {as_json([s, c["type"], c["args"]]) for s, _, c in self.offers}

    def _refused(self, seat: int, command: dict[str, Any], kind: str) -> None:
        response = self.table.send(seat, command)
        self.sent += 1
        self.counts[kind] += 1
        status = response.status_code
        assert status < 500, (command, status, response.text[:300])
        assert 400 <= status < 500, ("accepted", command, status, response.text[:300])
        body = response.json()
        assert set(body) == {"error"} and body["error"]["code"] and body["error"]["message"], body
        assert self.table.seq() == self.seq, ("the seq moved", command)

    @precondition(lambda self: any(needed for _, needed, _ in self.offers))
    @rule(data=st.data())
    def legal(self, data: st.DataObject) -> None:
        required = [(s, c) for s, needed, c in self.offers if needed]
        seat, command = data.draw(st.sampled_from(required), label="legal")
        response = self.table.send(seat, command)
        self.sent += 1
        self.counts["legal"] += 1
        assert response.status_code == 200, (command, response.status_code, response.text[:300])
        self.seq = response.json()["seq"]
        self.offers = self.table.offered()
        self.types = sorted(set(self.types) | {c["type"] for _, _, c in self.offers})

    @precondition(lambda self: any(c["args"] for _, _, c in self.offers))
    @rule(data=st.data())
    def mistyped_arguments(self, data: st.DataObject) -> None:
        seat, _, command = data.draw(
            st.sampled_from([o for o in self.offers if o[2]["args"]]), label="offered"
        )
        offered = self._offered_now()
        variants = [
            a for a in mistyped(command["args"]) if as_json([seat, command["type"], a]) not in offered
        ]
        if not variants:
            return
        args = data.draw(st.sampled_from(variants), label="mistyped")
        self._refused(seat, command | {"args": args, "command_id": f"m-{self.sent}-{self.seq}"}, "mistyped")

    @rule(data=st.data(), args=st.dictionaries(st.text(max_size=10), json_values, max_size=3))
    def never_legal(self, data: st.DataObject, args: dict[str, Any]) -> None:
        seat = data.draw(st.sampled_from(range(len(self.table.tokens))), label="seat")
        kind = data.draw(st.sampled_from(self.types), label="type")
        if kind in ("chat", "undo") or as_json([seat, kind, args]) in self._offered_now():
            return  # chat is legal with any text, and undo may be
        command = {"command_id": f"n-{self.sent}-{self.seq}", "seat": seat, "type": kind, "args": args}
        if data.draw(st.booleans(), label="with seq"):
            command["seq"] = self.seq
        self._refused(seat, json.loads(json.dumps(command)), "never")


@pytest.mark.parametrize("game", sorted(SCENARIOS))
def test_fuzzed_commands_never_pass_and_never_fail_the_server(served: TestClient, game: str) -> None:
    counts = {"legal": 0, "mistyped": 0, "never": 0}
    machine = type(f"Fuzz_{game}", (CommandFuzz,), {"client": served, "game": game, "counts": counts})
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=max(1, COMMANDS // STEPS),
            stateful_step_count=STEPS,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
    print(f"{game}: {counts}")
    assert counts["mistyped"] and counts["never"] and counts["legal"], counts
