"""The heuristic bot plays any seat with legal choices to the end: a Quick Start chapter
(it wins some) and a whole campaign across chapter boundaries; and the engine bench runs."""

from __future__ import annotations

import argparse
import json

import pytest

from app.bench.engine import run_engine
from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.bench import play_with_bots
from app.kernel import table as kernel
from app.kernel.types import Event


def test_the_bot_plays_quick_start_chapters_and_wins_some() -> None:
    results = []
    for seed in range(3):
        state, commands = play_with_bots({"mode": "quick_chapter", "chapter": 1}, 2, seed)
        outcome = DARK_OMEN.outcome(state)
        assert outcome is not None and commands < 60_000
        results.append(outcome.result)
    assert "win" in results


def test_the_bot_plays_a_whole_campaign_across_chapters() -> None:
    """Across chapter boundaries the log replays to the same state (through JSON, as stored)
    and no viewer's feed or view shows a face-down token."""
    log: list[Event] = []
    state, _ = play_with_bots({"difficulty": "light"}, 2, 2, log=log, check=True)
    stored = [Event(**e) for e in json.loads(json.dumps([e.to_json() for e in log]))]
    assert kernel.replay(DARK_OMEN, stored) == state
    assert DARK_OMEN.outcome(state) is not None
    assert len(state.results) >= 2  # at least one chapter boundary crossed
    assert all(h.guild for h in state.heroes)  # one guild each from chapter 2 (DO L189)
    assert len({h.guild for h in state.heroes}) == len(state.heroes)
    chapters = DARK_OMEN.chapters(state)
    assert [c.outcome.result for c in chapters if c.outcome] == state.results


def test_umbra_bench_engine_dark_omen(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_engine("dark_omen", argparse.Namespace(quick=True, smoke=True)) == 0
    out = capsys.readouterr().out
    assert "commands/s" in out and "games/s" in out and "won" in out
