"""``umbra bench``: the store and live benchmarks run (quick, SQLite only) and print their
figures, the live one for any registered game; the engine benchmark is dispatched to a
game's own ``bench`` module or plays random games; the bench game Pulse keeps the kernel
contract and stays out of the product's registry.

No timing is asserted: these only check that the benchmarks work."""

from __future__ import annotations

import json
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
from app.kernel.registry import all_games, get_game, unregister

ROOT = Path(__file__).resolve().parents[2]


def test_store_bench_quick_on_sqlite(capsys: pytest.CaptureFixture[str], registry_kept: None) -> None:
    assert main(["bench", "store", "--quick", "--no-postgres"]) == 0
    out = capsys.readouterr().out
    for line in (
        r"sqlite: POST /commands \(Darkest Night, no viewer, in-process ASGI\): \d+ commands, CPU [\d.]+ ms",
        r"sqlite: append \(3 events, one writer\): CPU [\d.]+ ms per append",
        r"sqlite: open a 10,000-event table \(snapshots\): p50 [\d.]+ ms",
        r"sqlite: open a 10,000-event table \(no snapshot\): p50 [\d.]+ ms",
        r"sqlite: memory per idle loaded table \(Darkest Night, 40 tables\): \d+ KiB",
    ):
        assert re.search(line, out), (line, out)
    for label in ("bare INSERT + COMMIT", "append 1 event", "append 3 events (1 command)"):
        assert f"sqlite    {label}" in out
    for label in ("per s", "p50 ms", "p99 ms", "x bare", "journal_mode=wal"):
        assert label in out
    assert "postgresql: skipped: --no-postgres" in out


@pytest.fixture
def registry_kept() -> Iterator[None]:
    """The benches import the bench game (and ``UMBRA_EXTRA_GAMES``) into this process to
    know them: take what they registered out of the registry again afterwards, and forget
    the modules first imported here that define those games, so that a later test's import
    (``create_app``'s extra games) runs them again and registers their games once more."""
    before, imported = set(all_games()), set(sys.modules)
    try:
        yield
    finally:
        for name, game in all_games().items():
            if name not in before:
                unregister(name)
                if type(game).__module__ not in imported:
                    sys.modules.pop(type(game).__module__, None)


def phase_counts(out: str, tables: int) -> tuple[int, int]:
    """Commands of the two measured phases, from the report's table."""
    alone = re.search(r"^  1 table at a time +(\d+) ", out, re.MULTILINE)
    together = re.search(rf"^  {tables} tables at once +(\d+) ", out, re.MULTILINE)
    assert alone and together, out
    return int(alone.group(1)), int(together.group(1))


LIVE_LABELS = (
    "per s",
    "push p50 ms",
    "push p95 ms",
    "push p99 ms",
    "frag p50 ms",
    "frag p95 ms",
    "frag p99 ms",
    "POST p50 ms",
    "B/cmd/spectator",
    "diff ratio",
    "CPU ms/cmd",
    "full page render (GET /t/<id>/watch)",
    "seat events lost / duplicated / out of order / wrong: 0 / 0 / 0 / 0",
    "missing frames / sockets closed early / replica resyncs: 0 / 0 / 0",
    "result: OK",
    "postgresql: skipped: --no-postgres",
)


def test_live_bench_quick_on_sqlite(capsys: pytest.CaptureFixture[str], registry_kept: None) -> None:
    """No game named: the bench game Pulse (no bot: random picks among the served
    prompts), its 8 seats each on a JSON websocket, every event once and in order."""
    assert main(["bench", "live", "--quick", "--no-postgres"]) == 0
    out = capsys.readouterr().out
    assert "umbra bench live pulse (quick" in out
    assert "5 tables x (8 random seats + 2 spectators): 40 json + 10 html websockets" in out
    for label in LIVE_LABELS:
        assert label in out, label
    assert phase_counts(out, 5) == (20, 100)  # 5 x 4 alone, then 5 x 20 at once


def test_live_darkest_night_bench_quick_on_sqlite(
    capsys: pytest.CaptureFixture[str], registry_kept: None
) -> None:
    """Darkest Night's bot plays; the seat count is the most its default options accept."""
    assert main(["bench", "live", "darkest_night", "--quick", "--no-postgres"]) == 0
    out = capsys.readouterr().out
    assert "5 tables x (4 bot seats + 2 spectators): 20 json + 10 html websockets" in out
    for label in LIVE_LABELS:
        assert label in out, label
    assert phase_counts(out, 5) == (20, 100)
    # Every move is chosen from the prompts its seat's socket pushed: no GET /view.
    assert "GET /view per command: 0.00;" in out


def test_live_bench_plays_a_game_it_was_never_told_of(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, registry_kept: None
) -> None:
    """The test-only game Lanterns, named by ``UMBRA_EXTRA_GAMES`` for the bench and its
    server, is played by its bot with no line of the bench knowing it; its short games end."""
    monkeypatch.setenv("UMBRA_EXTRA_GAMES", "tests.support.lanterns")
    argv = ["bench", "live", "lanterns", "--quick", "--no-postgres", "--tables", "2", "--seats", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "2 tables x (3 bot seats + 2 spectators): 6 json + 4 html websockets" in out
    for label in LIVE_LABELS:
        assert label in out, label
    alone, together = phase_counts(out, 2)
    assert alone == 8 and together > 0
    assert "games ended: 2;" in out  # both seeded games reach their end


def test_store_and_live_refuse_what_they_cannot_run(
    capsys: pytest.CaptureFixture[str], registry_kept: None
) -> None:
    assert main(["bench", "store", "lanterns"]) == 2
    assert main(["bench", "live", "no_such_game", "--no-postgres"]) == 2
    assert "no game named 'no_such_game'" in capsys.readouterr().out
    assert main(["bench", "live", "pulse", "--seats", "9", "--no-postgres"]) == 2
    assert "takes 1 to 8 seats, not 9" in capsys.readouterr().out
    assert main(["bench", "live", "pulse", "--tables", "0", "--no-postgres"]) == 2
    assert "--tables must be at least 1" in capsys.readouterr().out


@pytest.mark.parametrize("game", ["no_such_game", "no-such-game", "../etc"])
def test_engine_bench_missing(game: str, capsys: pytest.CaptureFixture[str], registry_kept: None) -> None:
    assert main(["bench", "engine", game]) == 2
    assert f"no engine benchmark for {game}: no such game" in capsys.readouterr().out


def test_engine_bench_needs_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine"]) == 2
    assert "needs a game" in capsys.readouterr().out


def test_engine_bench_of_a_game_is_picked_up(monkeypatch: pytest.MonkeyPatch, registry_kept: None) -> None:
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


def test_engine_bench_without_a_bench_module_plays_random_games(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, registry_kept: None
) -> None:
    """A registered game whose package has no ``bench`` module: random legal playouts."""
    monkeypatch.setenv("UMBRA_EXTRA_GAMES", "tests.support.lanterns")
    assert main(["bench", "engine", "lanterns", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "lanterns has no bench module of its own" in out
    found = re.search(r"(\d+) games, .* commands/s, .* games/s, median (\d+) commands", out)
    assert found, out
    assert int(found.group(1)) >= 1 and int(found.group(2)) >= 1


def test_bench_help_says_what_each_bench_prints(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    out = capsys.readouterr().out
    for line in ("umbra bench store", "umbra bench live [<game>]", "umbra bench soak", "umbra bench engine"):
        assert line in out
    for figure in ("push p50/p95/p99", "CPU ms per command", "commands/s, games/s", "UMBRA_EXTRA_GAMES"):
        assert figure in out, figure


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


def test_live_bench_at_a_fixed_rate_prints_json(
    capsys: pytest.CaptureFixture[str], registry_kept: None
) -> None:
    """``--rate``: a fixed offered load for ``--seconds``, html seat sockets and ``--viewers``
    spectators; ``--json`` puts one JSON document on stdout (the text goes to stderr)."""
    argv = ["bench", "live", "--quick", "--no-postgres", "--tables", "2", "--seats", "2"]
    argv += ["--rate", "4", "--seconds", "2", "--viewers", "1", "--seat-format", "html", "--json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert doc["game"] == "pulse" and doc["ok"] is True
    # The command that runs it again, printed with the figures (README, "Performance").
    again = "umbra bench live pulse --quick --no-postgres --json --tables 2 --seats 2 --rate 4 --seconds 2"
    assert doc["command"] == again + " --viewers 1 --seat-format html"
    assert f"command: {doc['command']}" in captured.err
    (run,) = doc["runs"]
    assert (run["database"], run["tables"], run["seats"], run["spectators"]) == ("sqlite", 2, 2, 1)
    assert run["seat_format"] == "html" and run["workers"] == 1
    (phase,) = run["phases"]
    assert phase["name"] == "2 tables at 4/s" and phase["offered_per_s"] == 8.0
    assert 8 <= phase["commands"] <= 18  # 2 tables x 4/s x 2 s, give or take a slot
    assert phase["missing_frames"] == 0 and phase["failures"] == {}
    # Pulse has no bot to say whom an html page's table waits on: each move asks GET /view.
    assert phase["pushed_prompts"] == 0 and phase["view_requests"] >= phase["commands"]
    for key in ("seat_ms", "spectator_ms"):
        assert set(phase[key]) == {"p50", "p95", "p99"} and phase[key]["p50"] > 0
    assert phase["server_cpu_ms_per_command"] > 0
    assert phase["postgres_cpu_ms_per_command"] is None  # SQLite
    assert {"p50", "p99", "max"} <= set(phase["loop_lag_ms"])
    assert "2 tables at 4/s" in captured.err and "result: OK" in captured.err


def test_live_bench_workers_need_postgres(capsys: pytest.CaptureFixture[str], registry_kept: None) -> None:
    assert main(["bench", "live", "--quick", "--no-postgres", "--workers", "2", "--tables", "1"]) == 0
    assert "sqlite: skipped: --workers 2 needs PostgreSQL" in capsys.readouterr().out
    assert main(["bench", "live", "--quick", "--no-postgres", "--processes", "2", "--tables", "1"]) == 0
    assert "sqlite: skipped: --processes 2 needs PostgreSQL" in capsys.readouterr().out


def test_live_bench_sends_the_waited_on_seats_commands_at_once(
    capsys: pytest.CaptureFixture[str], registry_kept: None
) -> None:
    """Dark Omen waits on every hero in the same round: their bots send at once, each from
    its own client; a command another hero's beat is a refused race (409), not a failure,
    and the spectators' frames stay small against a full page."""
    argv = ["bench", "live", "dark_omen", "--quick", "--no-postgres", "--tables", "1", "--viewers", "1"]
    assert main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    (run,) = json.loads(captured.out)["runs"]
    assert run["ok"] is True and run["picker"] == "bot" and run["seats"] == 4
    phases = run["phases"]
    assert [p["name"] for p in phases] == ["1 table at a time", "1 tables at once"]
    assert sum(p["concurrent_sends"] for p in phases) > 0
    for phase in phases:
        assert phase["commands"] > 0 and phase["failures"] == {} and phase["missing_frames"] == 0
        assert set(phase["refused_races"]) <= {"409 taken", "409 stale"}
        assert phase["concurrent_sends"] >= 2 * phase["concurrent_rounds"]
        assert 0 < phase["diff_ratio"] < 0.15
    assert run["delivery"] == {"lost": 0, "duplicated": 0, "out_of_order": 0, "wrong": 0, "bad_frames": 0}
    assert re.search(
        r"1 tables at once: seats acting at once: \d+ POSTs in \d+ rounds; refused races: \d+", captured.err
    )
