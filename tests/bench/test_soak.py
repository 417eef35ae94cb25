"""``umbra bench soak``: the quick soak runs in-process and passes its checks, on SQLite
with one server process, on PostgreSQL with two processes and one killed now and then,
and with a restart of its own throwaway cluster; the checks themselves catch what they
are there to catch (a lost or duplicated event, an answer the log does not hold, a 500).

No figure is asserted: the soak's verdict is its checks, and the summary must hold them."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest

from app.bench import run
from app.bench.soak import make_plan
from app.bench.soak_checks import Ack, Tally, check_acks, check_viewers, describe_error
from app.cli import build_parser

CHECKS = (
    "PASS check 1, acknowledged commands are in the log",
    "PASS check 2, every viewer saw each event once and in order",
    "PASS check 3, errors are 503s or 4xx with JSON bodies and no server exited by itself",
)


SUITE_MINUTES = "0.15"
"""The suite's soaks play 9 s (the quick soak's default is 18 s): a chaos event comes every
2-4 s from the start, so each run still sees the kill or the outage its test asserts, and
the checks read every acknowledged command and every viewer's feed all the same."""


def soak(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    minutes = [] if "--minutes" in argv else ["--minutes", SUITE_MINUTES]
    args = build_parser().parse_args(["bench", "soak", "--quick", "--seed", "7", *minutes, *argv])
    code = run(args.what, args.game, args)
    return code, capsys.readouterr().out


def assert_passed(code: int, out: str) -> None:
    for line in CHECKS:
        assert line in out, out
    assert "result: PASS" in out, out
    assert code == 0, out
    checked = re.search(r"acknowledged commands are in the log: (\d+) checked", out)
    assert checked and int(checked.group(1)) > 0, out
    for label in ("command latency", "bot moves committed", "server processes", "RSS ready", "fds end"):
        assert label in out, label


def test_soak_quick_on_sqlite(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = soak(capsys, "--no-postgres", "--workers", "1")
    assert "3 Darkest Night tables" in out and "on 1 server process;" in out
    assert "note: SQLite, one server process" in out
    assert_passed(code, out)


@pytest.mark.postgres
def test_soak_quick_on_postgres_two_processes_one_killed(
    pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = soak(capsys, "--postgres-url", pg_url, "--workers", "2", "--chaos")
    assert "on 2 server processes" in out
    assert "chaos can only kill server processes" in out
    assert "chaos: kill -9 server" in out and "killed by chaos" in out
    assert "PostgreSQL stopped" not in out
    assert_passed(code, out)


@pytest.mark.postgres
def test_soak_quick_restarts_its_own_cluster(pg_cluster: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --postgres-url the soak starts (and so may restart) a cluster of its own."""
    code, out = soak(capsys, "--workers", "2", "--chaos", "--minutes", "0.2")
    if not pg_cluster.external_url:
        assert "chaos: PostgreSQL stopped" in out and "chaos: PostgreSQL back" in out
    assert_passed(code, out)


def test_soak_options() -> None:
    args = build_parser().parse_args(
        ["bench", "soak", "--tables", "5", "--minutes", "1.5", "--workers", "1", "--chaos", "--seed", "3"]
    )
    plan = make_plan(args)
    assert (plan.tables, plan.minutes, plan.workers, plan.chaos, plan.seed) == (5, 1.5, 1, True, 3)
    plan = make_plan(build_parser().parse_args(["bench", "soak"]))
    assert (plan.tables, plan.minutes, plan.workers, plan.chaos) == (20, 10.0, 2, False)
    assert plan.chaos_every_s == (30.0, 90.0)
    quick = make_plan(build_parser().parse_args(["bench", "soak", "--quick"]))
    assert (quick.tables, quick.minutes) == (3, 0.3)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["bench", "soak", "--workers", "3"])


def test_soak_refuses_another_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("soak", "lanterns", SimpleNamespace()) == 2
    assert "no soak for lanterns yet" in capsys.readouterr().out


# -- the checks, on made-up tables ------------------------------------------------------


class FakeResponse:
    def __init__(self, status: int, content: bytes) -> None:
        self.status_code, self.content = status, content


def test_error_bodies_that_are_faults() -> None:
    assert describe_error(FakeResponse(409, b'{"error": {"code": "stale", "message": "m"}}')) == (
        "409 stale",
        False,
    )
    assert describe_error(FakeResponse(503, b'{"error": {"code": "unavailable", "message": "m"}}')) == (
        "503 unavailable",
        False,
    )
    assert describe_error(FakeResponse(500, b'{"error": {"code": "internal", "message": "m"}}'))[1]
    assert describe_error(FakeResponse(500, b"Internal Server Error")) == (
        "500 (not a JSON error body)",
        True,
    )
    assert describe_error(FakeResponse(422, b'{"detail": "x"}'))[1]


def fake_table(acks: list[Ack], orders: list[list[int]]) -> Any:
    viewers = [SimpleNamespace(order=o, start=0, server=SimpleNamespace(name="A")) for o in orders]
    return SimpleNamespace(id="t1", acks=acks, viewers=viewers)


def log(*commands: str | None) -> list[dict[str, Any]]:
    return [{"seq": i, "command_id": c, "actor": "seat:0"} for i, c in enumerate(commands, start=1)]


def test_check_acks() -> None:
    events = log(None, "c1", "c1", "bot-2-1", "c3")
    tally = Tally()
    check_acks(tally, fake_table([Ack("c1", (2, 3), False), Ack("c3", (5,), True)], []), events)
    assert (tally.acks_checked, tally.acks_bad, tally.unacked_in_log) == (2, 0, 0)
    tally = Tally()
    wrong = [Ack("c1", (2,), False), Ack("c3", (6,), False), Ack("c9", (4,), False)]
    check_acks(tally, fake_table(wrong, []), events)
    assert (tally.acks_checked, tally.acks_bad) == (3, 3)  # one event short, not in the log, another's
    assert len(tally.ack_samples) == 3


def test_check_viewers() -> None:
    tally = Tally()
    check_viewers(tally, fake_table([], [[1, 2, 3, 4], [1, 2, 3, 4, 5]]), 4)  # 5 came after the log was read
    assert (tally.viewers_checked, tally.viewers_bad) == (2, 0)
    tally = Tally()
    check_viewers(tally, fake_table([], [[1, 2, 2, 3, 4], [1, 3, 2, 4], [1, 2, 4]]), 4)
    assert (tally.viewers_bad, tally.duplicated, tally.out_of_order, tally.lost) == (3, 1, 1, 1)


def test_quick_plan_runs_in_a_test_budget() -> None:
    """The quick soak is sized for a test: a chaos event every few seconds."""
    plan = make_plan(SimpleNamespace(quick=True, chaos=True))
    assert plan.minutes * 60 <= 20 and plan.chaos_every_s[1] <= 5
