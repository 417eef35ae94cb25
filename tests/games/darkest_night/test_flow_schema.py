"""Darkest Night's saves outlive releases (DESIGN.md): the log holds domain facts, the
published step vocabulary and decision schemas are pinned by ``flow_schema.json``, and
logs written before the flow move (``FlowSet``, ``HeroChanged`` v1) replay to the same
views, prompts and outcome."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from app.games import darkest_night
from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.events import HERO_STATS
from app.kernel import table as kernel
from app.kernel.conformance import random_playout
from app.kernel.flow import manifest
from app.kernel.flow.records import WAITING_EVENT
from app.kernel.types import GAME_MASTER, SPECTATOR, Event, Viewer

SCHEMA = Path(darkest_night.__file__).with_name("flow_schema.json")
LEGACY = Path(__file__).with_name("legacy")


def test_the_manifest_lists_every_decision_kind_and_content_op() -> None:
    stored = manifest.load(SCHEMA)
    assert len(stored["decisions"]) >= 30
    assert {"gain_grace", "lose_secrecy", "fight", "choose", "roll"} <= set(stored["steps"])


def legacy_logs() -> list[Path]:
    return sorted(LEGACY.glob("*.json.gz"))


def read(path: Path) -> dict[str, Any]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return dict(json.load(f))


@pytest.mark.parametrize("path", legacy_logs(), ids=lambda p: p.name)
def test_logs_from_before_the_flow_move_replay_identically(path: Path) -> None:
    """Recorded with the engine that wrote ``FlowSet`` and ``HeroChanged`` v1: the views,
    the prompts half way and the outcome are reached again through ``upcast``."""
    doc = read(path)
    events = [Event(e["type"], e["data"], e["v"]) for e in doc["events"]]
    assert {"FlowSet", "HeroChanged"} <= {e.type for e in events}
    known = DARKEST_NIGHT.event_types()
    assert all(1 <= e.v <= known[e.type] for e in events)  # an import of it is accepted
    state = kernel.replay(DARKEST_NIGHT, events)
    views = {v.key(): v for v in [GAME_MASTER, SPECTATOR, Viewer("seat", frozenset({0}))]}
    for key, viewer in views.items():
        assert json.loads(json.dumps(DARKEST_NIGHT.view(state, viewer))) == doc["views"][key], key
    outcome = DARKEST_NIGHT.outcome(state)
    assert (outcome.to_json() if outcome else None) == doc["outcome"]
    mid = kernel.replay(DARKEST_NIGHT, events[: doc["mid"]["count"]])
    assert json.loads(json.dumps(DARKEST_NIGHT.view(mid, GAME_MASTER))) == doc["mid"]["gm_view"]
    # The same prompts, but for the "auto-pass" toggle every hero's player is offered at
    # any time since issue 11.
    prompts = [
        [p.seat, p.title, [[c.type, c.args] for c in p.choices if c.type != "set_auto_pass"]]
        for p in DARKEST_NIGHT.prompts(mid)
    ]
    prompts = [p for p in prompts if p[2]]
    assert json.loads(json.dumps(prompts)) == doc["mid"]["prompts"]
    for event in events:
        DARKEST_NIGHT.describe(event)
        kernel.event_for_viewer(DARKEST_NIGHT, event, SPECTATOR)


def test_new_logs_hold_no_engine_internals() -> None:
    """Every command ends with a ``Waiting`` record in the published vocabulary; hero
    changes name a published stat, never an attribute."""
    stored = manifest.load(SCHEMA)
    playout = random_playout(DARKEST_NIGHT, 5, check_every=0, optional_share=0.3)
    types = {e.type for e in playout.events}
    assert "FlowSet" not in types and WAITING_EVENT in types
    for event in playout.events:
        if event.type == "HeroChanged":
            assert event.v == 2 and event.data["stat"] in HERO_STATS and "field" not in event.data
        if event.type == WAITING_EVENT:
            d = event.data["decision"]
            if d is not None:
                assert d["v"] == stored["decisions"][d["kind"]]["v"]
                allowed = {"kind", "v", "seat", "seats", *stored["decisions"][d["kind"]]["fields"]}
                assert set(d) <= allowed, d["kind"]
            for st in event.data["pending"]:
                assert set(st) - {"op"} <= set(stored["steps"][st["op"]]), st["op"]
