"""``umbra bench bots`` (issue 27) on the test game Lanterns: every scenario is played,
the figures add up, and ``--json`` is one JSON document of the promised shape."""

from __future__ import annotations

import argparse
import json

import pytest

from app.bench.bots import ScenarioFigures, run_bots
from app.cli import build_parser
from tests.support import lanterns


def bench_args(*extra: str) -> argparse.Namespace:
    return build_parser().parse_args(["bench", "bots", "lanterns", *extra])


def test_the_json_document_names_every_scenario(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UMBRA_EXTRA_GAMES", "tests.support.lanterns")
    assert run_bots("lanterns", bench_args("--games", "3", "--jobs", "1", "--json")) == 0
    document = json.loads(capsys.readouterr().out)
    names = [s["name"] for s in document["scenarios"]]
    assert names == [s.name for s in lanterns.BOT_SCENARIOS]
    for scenario in document["scenarios"]:
        assert scenario["games"] == 3
        assert 0 <= scenario["wins"] <= 3
        assert scenario["decisions"] > 0
        assert 0 < scenario["decision_ms_p50"] <= scenario["decision_ms_p95"] < 1000
        low, high = scenario["win_rate_95"]
        assert low <= scenario["win_rate"] <= high


def test_the_table_and_a_chosen_scenario(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UMBRA_EXTRA_GAMES", "tests.support.lanterns")
    assert (
        run_bots(
            "lanterns",
            bench_args("--games", "2", "--jobs", "2", "--scenario", "three", "--strength", "quick"),
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "quick bot, 2 games per scenario" in out
    assert "three" in out and "\ntwo " not in out


def test_an_unknown_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_bots("chess", bench_args()) == 2
    assert "not one" in capsys.readouterr().out


def test_the_wilson_interval() -> None:
    figures = ScenarioFigures("x", games=20, wins=10)
    low, high = figures.interval()
    assert round(low, 3) == 0.299 and round(high, 3) == 0.701


def test_live_tables_of_bots_keep_their_pace_without_loop_lag(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UMBRA_EXTRA_GAMES", "tests.support.lanterns")
    args = bench_args("--live", "--tables", "2", "--seconds", "3", "--pace", "0.2", "--json")
    assert run_bots("lanterns", args) == 0
    live = json.loads(capsys.readouterr().out)["live"]
    assert live["tables"] == 2 and live["strength"] == "strong" and live["stalled_tables"] == 0
    assert live["moves"] > 2
    assert live["seconds_between_moves"] >= 0.2  # the pace holds: never faster than set
    assert live["loop_lag_ms"]["samples"] > 0 and live["loop_lag_ms"]["max"] < 50
