"""``check_json`` takes the usual flat command arguments on a short path: whatever the
path, it accepts and refuses exactly what the full walk does."""

from __future__ import annotations

from typing import Any

import pytest

from app.kernel import text
from app.kernel.text import COMMAND_BOUNDS, EVENT_BOUNDS, JsonBounds, check_json
from app.kernel.types import RuleError

CASES: list[dict[Any, Any]] = [
    {},
    {"to": "Village"},
    {"hero": "seer", "n": 3, "free": True, "target": None},
    {"text": "x" * 1000},
    {"text": "x" * 1001},
    {"big": 2**53},
    {"big": -(2**53) - 1},
    {"nul": "a\x00b"},
    {"surrogate": "\udc00"},
    {"k" * 201: 1},
    {"a\x00": 1},
    {1: "not a text key"},
    {"float": 1.5},
    {"nan": float("nan")},
    {"nested": {"a": 1}},
    {"list": [1, 2]},
    {"object": object()},
    {f"k{i}": i for i in range(201)},
]


def verdict(value: Any, bounds: JsonBounds, monkeypatch: pytest.MonkeyPatch | None) -> str:
    if monkeypatch is not None:
        monkeypatch.setattr(text, "_flat_and_fine", lambda _value, _bounds: False)  # the full walk
    try:
        check_json(value, "args", bounds)
    except RuleError as err:
        return f"{err.code}: {err.message}"
    finally:
        if monkeypatch is not None:
            monkeypatch.undo()
    return "ok"


@pytest.mark.parametrize("bounds", [COMMAND_BOUNDS, EVENT_BOUNDS, JsonBounds(max_depth=1)])
@pytest.mark.parametrize("value", CASES, ids=range(len(CASES)))
def test_the_short_path_judges_as_the_full_walk(
    value: dict[Any, Any], bounds: JsonBounds, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert verdict(value, bounds, None) == verdict(value, bounds, monkeypatch)
