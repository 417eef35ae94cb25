"""``umbra bench``: the store and live benchmarks run (quick, SQLite only) and print their
figures; the engine benchmark is dispatched to a game's own ``bench`` module; the bench
game Pulse keeps the kernel contract and stays out of the product's registry.

No timing is asserted: these only check that the benchmarks work."""

from __future__ import annotations

import re
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.bench.stats import percentile, table
from app.cli import main
from app.kernel.conformance import random_playout
from app.kernel.registry import get_game, unregister

ROOT = Path(__file__).resolve().parents[2]


def test_store_bench_quick_on_sqlite(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "store", "--quick", "--no-postgres"]) == 0
    out = capsys.readouterr().out
    for label in ("bare INSERT + COMMIT", "append 1 event", "append 3 events (1 command)"):
        assert f"sqlite    {label}" in out
    for label in ("per s", "p50 ms", "p99 ms", "x bare", "journal_mode=wal"):
        assert label in out
    assert "postgresql: skipped: --no-postgres" in out


def test_live_bench_quick_on_sqlite(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "live", "--quick", "--no-postgres"]) == 0
    out = capsys.readouterr().out
    for label in ("commands/s", "push p50 ms", "push p99 ms", "reply p50 ms", "1 worker", "16 workers"):
        assert label in out
    assert "100 tables x 5 viewers: 500 websockets" in out
    assert "events lost / duplicated / out of order / wrong: 0 / 0 / 0 / 0" in out
    assert "result: OK" in out
    assert "postgresql: skipped: --no-postgres" in out


def test_live_darkest_night_bench_quick_on_sqlite(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "live", "darkest_night", "--quick", "--no-postgres"]) == 0
    out = capsys.readouterr().out
    assert "5 tables x (4 bot seats + 2 spectators): 10 html websockets" in out
    for label in (
        "frag p50 ms",
        "frag p99 ms",
        "B/cmd/spectator",
        "diff ratio",
        "CPU ms/cmd",
        "full page render (GET /t/<id>/watch)",
        "missing frames / sockets closed early / replica resyncs: 0 / 0 / 0",
    ):
        assert label in out, label
    alone = re.search(r"^  1 table at a time +(\d+) ", out, re.MULTILINE)
    together = re.search(r"^  5 tables at once +(\d+) ", out, re.MULTILINE)
    assert alone and together, out
    assert (alone.group(1), together.group(1)) == ("20", "100")  # 5 x 4 alone, then 5 x 20 at once
    assert "result: OK" in out
    assert "postgresql: skipped: --no-postgres" in out


def test_store_and_live_refuse_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "store", "lanterns"]) == 2
    assert main(["bench", "live", "lanterns", "--no-postgres"]) == 2
    assert "no live benchmark for lanterns yet" in capsys.readouterr().out


@pytest.mark.parametrize("game", ["no_such_game", "no-such-game", "../etc"])
def test_engine_bench_missing(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", game]) == 2
    assert f"no engine benchmark for {game} yet" in capsys.readouterr().out


def test_engine_bench_needs_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine"]) == 2
    assert "needs a game" in capsys.readouterr().out


def test_engine_bench_of_a_game_is_picked_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's ``app/games/<game>/bench.py`` with ``run(args)`` is what runs."""
    seen = []
    package = types.ModuleType("app.games.benchy")
    package.__path__ = []
    bench = types.ModuleType("app.games.benchy.bench")
    bench.run = lambda args: seen.append(args.quick) or 7  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "app.games.benchy", package)
    monkeypatch.setitem(sys.modules, "app.games.benchy.bench", bench)
    assert main(["bench", "engine", "benchy", "--quick"]) == 7
    assert seen == [True]


@pytest.fixture
def pulse() -> Iterator[object]:
    """The bench game, taken out of the registry again afterwards (importing registers it)."""
    registered = get_game("pulse") is not None
    from app.bench.pulse import PULSE

    try:
        yield PULSE
    finally:
        if not registered:
            unregister("pulse")


def test_pulse_keeps_the_kernel_contract(pulse: object) -> None:
    for seed in range(30):
        random_playout(pulse, seed, options={"limit": 1 + seed})  # type: ignore[arg-type]
    for seed in range(5):
        playout = random_playout(pulse, seed)  # type: ignore[arg-type]
        assert playout.commands == 100  # the default limit


def test_pulse_is_not_a_product_game() -> None:
    code = "from app.kernel.registry import all_games; print(sorted(all_games()))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert "pulse" not in out


def test_percentile_and_table() -> None:
    values = list(range(1, 101))
    assert percentile(values, 50) == 50
    assert percentile(values, 99) == 99
    assert percentile([3.0], 99) == 3.0
    text = table(["name", "n"], [["a", "1"], ["bb", "10"]], left=1)
    assert text.splitlines() == ["name   n", "----  --", "a      1", "bb    10"]
