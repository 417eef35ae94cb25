"""The registry finds the games through the ``umbra.games`` entry point; the kernel never
imports ``app.games``."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from app.kernel import registry
from app.kernel.registry import ENTRY_POINT_GROUP, NoGamesInstalled, all_games, get_game, register, unregister
from tests.support.lanterns import Lanterns
from tests.support.vigil import VIGIL

ROOT = Path(__file__).resolve().parents[2]


def test_the_kernel_imports_no_game() -> None:
    for path in sorted((ROOT / "app" / "kernel").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            modules: list[str] = []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
            bad = [m for m in modules if m == "app.games" or m.startswith("app.games.")]
            assert not bad, f"{path.relative_to(ROOT)}:{node.lineno} imports {bad}"
        assert "app.games" not in path.read_text(), f"{path.relative_to(ROOT)} names app.games"


def test_umbra_declares_its_games_as_an_entry_point() -> None:
    [point] = [p for p in entry_points(group=ENTRY_POINT_GROUP) if p.value == "app.games:discover"]
    from app.games import discover

    assert point.load() is discover
    assert "darkest_night" in discover()


def test_a_fresh_process_finds_every_game_folder_by_asking_the_registry() -> None:
    """No import of any game beforehand: the registry's first answer has them all."""
    games = sorted(p.name for p in (ROOT / "app" / "games").iterdir() if (p / "__init__.py").exists())
    code = (
        "import sys\n"
        "from app.kernel.registry import all_games, get_game\n"
        "assert not [m for m in sys.modules if m.startswith('app.games')], 'imported too early'\n"
        "print(','.join(all_games()))\n"
        "print(get_game('darkest_night').title)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    listed, title = done.stdout.split()[0], done.stdout.split("\n")[1]
    assert listed.split(",") == games and title == "Darkest Night"


@pytest.fixture
def undiscovered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The registry as in a process that has not discovered yet, with no entry point
    installed (a stale install); put back as it was afterwards."""
    monkeypatch.setattr(registry, "_discovered", False)
    monkeypatch.setattr(registry, "entry_points", lambda group: [])
    yield


def test_a_stale_install_says_what_to_do(undiscovered: None) -> None:
    with pytest.raises(NoGamesInstalled, match="make install"):
        all_games()
    with pytest.raises(NoGamesInstalled):
        get_game("darkest_night")


def test_games_registered_by_whoever_imports_them() -> None:
    assert get_game(VIGIL.name) is None
    register(VIGIL)
    try:
        assert get_game(VIGIL.name) is VIGIL and VIGIL.name in all_games()
        register(VIGIL)  # the same object again: fine
        with pytest.raises(ValueError, match="already registered"):
            register(type(VIGIL)())
    finally:
        unregister(VIGIL.name)
    assert get_game(VIGIL.name) is None


def test_all_games_is_sorted_and_a_copy() -> None:
    games = all_games()
    assert list(games) == sorted(games)
    games.clear()
    assert all_games()
    assert isinstance(get_game("lanterns"), Lanterns)  # the tests' own game (tests.support.lanterns)
