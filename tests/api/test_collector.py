"""A serving process tunes its garbage collector (``app.api.collector``): what start-up left
alive is frozen and the young threshold raised; an app built inside another process (the
tests, the benches) leaves that process's collector alone."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api import collector
from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings

ROOT = Path(__file__).resolve().parents[2]


def test_settle_freezes_what_is_alive_and_raises_the_young_threshold() -> None:
    # In a process of its own: a freeze cannot be undone for the objects it froze.
    script = (
        "import gc, json; from app.api import collector; before = gc.get_freeze_count(); "
        "collector.settle(); print(json.dumps([before, gc.get_freeze_count(), gc.get_threshold()]))"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    before, frozen, thresholds = json.loads(out.stdout)
    assert before == 0 and frozen > 1000
    assert thresholds == [collector.YOUNG_THRESHOLD, *collector.OLDER_THRESHOLDS]
    assert collector.YOUNG_THRESHOLD > 700  # CPython's default


@pytest.mark.parametrize("serving", [True, False])
def test_only_a_served_app_settles_its_process(
    serving: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'umbra.db'}"
    upgrade(url)
    settled: list[bool] = []
    monkeypatch.setattr(collector, "settle", lambda: settled.append(True))
    thresholds = gc.get_threshold()
    with TestClient(create_app(make_settings(url), serving=serving)) as client:
        assert client.get("/healthz").status_code == 200
    assert settled == ([True] if serving else [])
    assert gc.get_threshold() == thresholds
