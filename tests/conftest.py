"""Shared pytest fixtures."""

from __future__ import annotations

# =====================================================================================
# PostgreSQL fixtures  (BEGIN)
#
#   pg_cluster  (session) -> tests/pg_cluster.PgCluster, started once per run
#   pg_url      (function) -> str: "postgresql://postgres@127.0.0.1:PORT/<fresh db>"
#
# A test that uses them should be marked so it can be selected / deselected:
#
#     pytestmark = pytest.mark.postgres          # module-wide, or
#     @pytest.mark.postgres                      # per test
#     def test_something(pg_url): ...
#
# (the `postgres` marker is declared in pyproject.toml; run `pytest -m "not postgres"`
# to leave them out). Without usable PostgreSQL binaries the fixtures skip the test with
# the reason, unless CI=true or UMBRA_REQUIRE_PG=1, where they fail it instead.
# UMBRA_TEST_PG_URL=postgresql://user:pw@host:5432/postgres uses an existing server.
# =====================================================================================
import contextlib as _contextlib
import os as _os
import socket as _socket
import subprocess as _subprocess
import time as _time
import uuid as _uuid
from collections.abc import Iterator as _Iterator
from pathlib import Path as _Path

import pytest
from fastapi.testclient import TestClient

from app.bench.server import free_port, spawn_serve, stop_process
from app.config import Settings
from app.main import create_app
from app.store.migrate import upgrade

try:  # tests/ as a package (tests/__init__.py) or as a plain rootdir on sys.path
    from tests import server_fork
    from tests.pg_cluster import PgCluster, available
except ImportError:  # pragma: no cover - depends on the rootdir layout
    import server_fork  # type: ignore[no-redef]
    from pg_cluster import PgCluster, available  # type: ignore[no-redef]


def _pg_required() -> bool:
    truthy = ("1", "true", "yes", "on")
    return (
        _os.environ.get("CI", "").strip().lower() in truthy
        or _os.environ.get("UMBRA_REQUIRE_PG", "").strip().lower() in truthy
    )


@pytest.fixture(scope="session")
def pg_cluster() -> _Iterator[PgCluster]:
    """One throwaway PostgreSQL cluster for the whole run (or $UMBRA_TEST_PG_URL)."""
    ok, reason = available()
    if not ok:
        if _pg_required():
            pytest.fail(f"PostgreSQL is required (CI / UMBRA_REQUIRE_PG) but: {reason}")
        pytest.skip(f"PostgreSQL not available: {reason}")
    cluster = PgCluster()
    cluster.start()  # a failure here is a real error, never a skip
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: PgCluster) -> _Iterator[str]:
    """A fresh, empty database for this test; dropped afterwards."""
    name = f"umbra_t_{_os.getpid()}_{_uuid.uuid4().hex[:12]}"
    url = pg_cluster.create_database(name)
    try:
        yield url
    finally:
        # best effort: the throwaway cluster is deleted at the end anyway
        with _contextlib.suppress(Exception):
            pg_cluster.drop_database(name)


# =====================================================================================
# PostgreSQL fixtures  (END)
# =====================================================================================


# =====================================================================================
# The app, over SQLite and PostgreSQL
# =====================================================================================

ROOT = _Path(__file__).resolve().parents[1]
TEST_GAMES = ("tests.support.lanterns",)


@pytest.fixture
def sqlite_url(tmp_path: _Path) -> str:
    return f"sqlite:///{tmp_path / 'umbra.db'}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: _Path) -> str:
    """Each test using this runs twice: on a SQLite file and on a real PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'umbra.db'}"
    return request.getfixturevalue("pg_url")


def make_settings(database_url: str, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "database_url": database_url,
        "test_mode": True,
        "extra_games": TEST_GAMES,
        "snapshot_every": 10,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


@pytest.fixture
def client(db_url: str) -> _Iterator[TestClient]:
    upgrade(db_url)
    with TestClient(create_app(make_settings(db_url))) as test_client:
        yield test_client


class _PortTaken(RuntimeError):
    pass


def _port_in_use(port: int) -> bool:
    with _socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


class LiveServer:
    """A real ``umbra serve`` process (uvicorn) on a free loopback port."""

    def __init__(self, database_url: str, port: int | None = None, log_path: _Path | None = None) -> None:
        self.database_url = database_url
        self.port = port or free_port()
        self.port_chosen = port is None
        """A port picked here may be taken by another process (another xdist worker's
        server) between the probe and the bind: then ``start`` tries a fresh one."""
        self.proc: _subprocess.Popen[bytes] | server_fork.ForkedProcess | None = None
        self.log_path = log_path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        for attempt in range(3):
            try:
                return self._start_once()
            except _PortTaken:
                if not self.port_chosen or attempt == 2:
                    raise
                self.port = free_port()
        raise AssertionError("unreachable")

    def _start_once(self) -> LiveServer:
        out = open(self.log_path, "ab") if self.log_path else _subprocess.DEVNULL  # noqa: SIM115
        # A fork of a process that has imported the app already (tests/server_fork.py): the
        # same ``umbra serve`` code, without 1.7 s of CPU spent importing per server.
        spawn = server_fork.fork_serve if server_fork.enabled() else spawn_serve
        with out if self.log_path else _contextlib.nullcontext():
            self.proc = spawn(
                self.port,
                self.database_url,
                out,
                UMBRA_EXTRA_GAMES=",".join(TEST_GAMES),
                UMBRA_SNAPSHOT_EVERY="10",
            )
        deadline = _time.monotonic() + 30
        while _time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if _port_in_use(self.port):
                    raise _PortTaken(f"port {self.port} was taken before umbra serve could bind it")
                raise RuntimeError(f"umbra serve exited with {self.proc.returncode}")
            if self._serving_here():
                return self
            _time.sleep(0.02)
        raise RuntimeError("umbra serve did not start in 30 s")

    def _serving_here(self) -> bool:
        """Whether the port answers as *this* server: another xdist worker's server may have
        bound the port first, and its answer must not pass for ours (our process then exits on
        its failed bind, and ``_start_once`` tries another port); a test talking to another
        worker's server loses it when that test ends."""
        try:
            with _socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                pass
        except OSError:
            return False
        import httpx

        try:
            answer = httpx.get(f"{self.url}/healthz", timeout=2)
            pid = answer.json().get("pid")
        except (httpx.HTTPError, ValueError, AttributeError):
            return False
        assert self.proc is not None
        return pid == self.proc.pid

    def kill(self) -> None:
        """Stop the process hard, as a crash would."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        stop_process(self.proc, 10)


@pytest.fixture
def live_server(db_url: str, tmp_path: _Path) -> _Iterator[LiveServer]:
    server = LiveServer(db_url, log_path=tmp_path / "server.log").start()
    try:
        yield server
    finally:
        server.stop()


# =====================================================================================
# The order of the files, for `make test` (pytest-xdist --dist loadfile
# --no-loadscope-reorder hands whole files to the workers in this order)
# =====================================================================================

SLOW_FILES = {
    "tests/e2e/test_darkest_night.py": 110,
    "tests/e2e/test_clicks_per_turn.py": 30,
    "tests/e2e/test_rules_panel.py": 28,
    "tests/e2e/test_atd_tabletop.py": 25,
    "tests/e2e/test_atd_phone.py": 20,
    "tests/e2e/test_dark_omen.py": 55,
    "tests/e2e/test_attack_the_darkness.py": 45,
    "tests/e2e/test_atd_adventure.py": 25,
    "tests/e2e/test_dark_omen_town.py": 14,
    "tests/e2e/test_dark_omen_undo.py": 13,
    "tests/e2e/test_atd_deck_builder.py": 13,
    "tests/e2e/test_clickable_board.py": 30,
    "tests/e2e/test_browser_protections.py": 27,
    "tests/e2e/test_restart.py": 22,
    "tests/e2e/test_phone.py": 21,
    "tests/e2e/test_lobby.py": 19,
    "tests/e2e/test_live_play.py": 18,
    "tests/e2e/test_your_tables.py": 12,
    "tests/e2e/test_dn_seat_page.py": 12,
    "tests/live/test_live.py": 42,
    "tests/games/attack_the_darkness/test_api.py": 20,
    "tests/web/test_assembled_pages.py": 32,
    "tests/bench/test_soak.py": 45,
    "tests/live/test_bots.py": 30,
    "tests/live/test_two_processes.py": 20,
    "tests/web/test_fragments.py": 19,
    "tests/live/test_workers.py": 19,
    "tests/bench/test_bench.py": 19,
    "tests/games/darkest_night/test_conformance.py": 16,
    "tests/games/dark_omen/test_conformance.py": 14,
    "tests/web/test_attack_the_darkness_board.py": 14,
    "tests/web/test_stable_prompts.py": 13,
    "tests/web/test_socket_prompts.py": 13,
    "tests/web/test_darkest_night_board.py": 12,
    "tests/api/test_overload.py": 12,
    "tests/kernel/test_conformance.py": 11,
    "tests/api/test_fuzz.py": 11,
    "tests/games/darkest_night/test_state_clone.py": 9,
}
"""Seconds a file takes on a quiet machine (roughly, from ``--durations``): the heaviest
files are handed out first, so that no worker starts a long file when the others are done."""

BROWSER_SECONDS_PER_TEST = 8
"""A browser test file not listed above: seconds per test."""


def _file_weight(path: str, tests: int) -> tuple[int, float]:
    """The browser tests come first, as one block (each worker then runs its share of them
    on one chromium, which is package-scoped), the heaviest first; then the other files,
    the heaviest first; the files not listed keep their places, last."""
    browser = path.startswith("tests/e2e/")
    seconds = SLOW_FILES.get(path, BROWSER_SECONDS_PER_TEST * tests if browser else 0)
    return (0 if browser else 1, -seconds)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    order = sorted(files, key=lambda path: _file_weight(path, len(files[path])))  # stable: ties keep order
    items[:] = [item for path in order for item in files[path]]
