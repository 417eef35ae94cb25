"""Golden games (issue 9): every build replays the recorded exports and must reach the
recorded views, event feeds, prompts and outcome; each golden is still an export this
server imports. See ``tests/golden/README.md``."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from app.kernel.registry import get_game
from app.live.exports import check_import
from app.live.session import TableSession
from app.store import EventStore, SeatRecord, TableRecord
from app.store.migrate import upgrade
from tests.golden import golden

FILES = golden.golden_files()


@cache
def loaded(path: Path) -> dict[str, Any]:
    return golden.load(path)


def replay(doc: dict[str, Any]) -> dict[str, Any]:
    """What today's code replays a golden's log to (its ``expected`` as computed now)."""
    game = get_game(doc["game"])
    assert game is not None, f"no game {doc['game']!r} is registered"
    return golden.expectations(game, golden.export_part(doc), doc["golden"]["expected"]["checkpoint_every"])


@cache
def replayed(path: Path) -> dict[str, Any]:
    return replay(loaded(path))


def replay_problems(doc: dict[str, Any]) -> list[str]:
    """What today's replay of a golden gets wrong (empty when it matches)."""
    return golden.differences(doc["golden"]["expected"], replay(doc))


def failure(name: str, problems: list[str]) -> str:
    shown = "\n  ".join(problems[:6]) + ("\n  …" if len(problems) > 6 else "")
    return f"golden game {name} replays differently:\n  {shown}\n{golden.RERECORD_HINT}"


def test_there_are_golden_games() -> None:
    ids = {loaded(p)["golden"]["id"] for p in FILES}
    assert len(ids) >= 6, ids
    docs = [loaded(p) for p in FILES]
    assert any(d["golden"]["expected"]["outcome"] for d in docs), "no golden reaches an outcome"
    assert any(d["options"].get("necromancer_player") for d in docs), "no golden has a Necromancer player"
    assert any(e["type"] == "table.undo" for d in docs for e in d["events"]), "no golden holds an undo"
    from tests.support.hardening import TEST_KEY

    assert golden.SIGNING_KEY == TEST_KEY  # a hardening test client imports a golden as is


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_game_replays_to_its_recorded_views(path: Path) -> None:
    actual = replay_or_fail(path.stem, lambda: replayed(path))
    problems = golden.differences(loaded(path)["golden"]["expected"], actual)
    assert not problems, failure(path.stem, problems)


def replay_or_fail(name: str, replaying: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The replay, or a failure that says the log no longer replays and what to do."""
    try:
        return replaying()
    except Exception as exc:  # an event today's fold cannot take
        pytest.fail(failure(name, [f"the log no longer replays: {type(exc).__name__}: {exc}"]))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_game_is_an_importable_export(path: Path) -> None:
    """The stored log passes the import checks of today's server: signature, every event
    type and version known, a history the platform could have written (each undo takes
    back the newest command, one the game lets be taken back), and the outcome it claims."""
    doc = loaded(path)
    checked = check_import(golden.export_part(doc), golden.SIGNING_KEY, max_events=100_000)
    assert len(checked.events) == len(doc["events"])
    assert doc["outcome"] == doc["golden"]["expected"]["outcome"]


STORED = ("dn-default-4seats", "dn-necromancer-player", "dn-undo-chat")
"""Goldens also loaded through a database: many seats, a Necromancer player, undos (the
others replay through the same fold above; the store is the slow part of this test)."""


def test_golden_games_load_from_the_store_as_saved_tables(sqlite_url: str) -> None:
    """Stored in a real database as an import stores them, goldens load as a live table
    loads a saved game (``TableSession.load``: the store's events, upcast and folded, undo
    included) to the recorded final views, prompts and outcome."""
    upgrade(sqlite_url)

    async def load_all() -> dict[str, list[str]]:
        store = EventStore(sqlite_url)
        problems: dict[str, list[str]] = {}
        try:
            for path in (golden.GAMES_DIR / f"{name}.json" for name in STORED):
                doc = loaded(path)
                checked = check_import(golden.export_part(doc), golden.SIGNING_KEY, max_events=100_000)
                record = TableRecord(
                    id=path.stem,
                    game=checked.game.name,
                    name=checked.name,
                    options=checked.options,
                    seed="unused: nothing is decided here",
                    gm_token_hash=f"gm-{path.stem}",
                    engine_version=doc["engine_version"],
                    status="running",
                    outcome=None,
                    created_at=datetime.now(UTC),
                )
                seats = [SeatRecord(i, n, f"{path.stem}-{i}", None) for i, n in enumerate(checked.seat_names)]
                await store.create_table(record, seats, checked.events)
                session = await TableSession.load(store, checked.game, record, snapshot_every=0)
                final = doc["golden"]["expected"]["final"]
                got = {
                    "outcome": session.outcome.to_json() if session.outcome else None,
                    "views": {
                        key: golden.as_json(checked.game.view(session.state, golden.viewer_from_key(key)))
                        for key in final["views"]
                    },
                    "prompts": golden.prompts_json(session.game_prompts()),
                }
                want = {"outcome": doc["golden"]["expected"]["outcome"]} | final
                diff = golden.first_difference(want, got)
                if diff:
                    problems[path.stem] = [diff]
        finally:
            await store.close()
        return problems

    problems = asyncio.run(load_all())
    assert not problems, "\n".join(failure(name, found) for name, found in problems.items())


def test_a_tampered_event_fails_with_a_readable_difference() -> None:
    """The check can fail: one die changed in memory changes what the game replays to."""
    doc = copy.deepcopy(loaded(golden.GAMES_DIR / "dn-default-4seats.json"))
    rolled = next(e for e in doc["events"] if e["type"] == "DiceRolled")
    rolled["data"]["faces"] = [7 - f for f in rolled["data"]["faces"]]
    problems = replay_problems(doc)
    assert problems
    message = failure("dn-default-4seats", problems)
    assert "first differing checkpoint" in message
    assert f"events {(rolled['seq'] - 1) // 100 * 100 + 1}–" in message
    assert golden.RERECORD_HINT in message
    assert "python -m tests.golden.record --reason" in message


def test_a_changed_view_is_reported_by_its_first_differing_key() -> None:
    path = golden.GAMES_DIR / "dn-default-1seat.json"
    expected = copy.deepcopy(loaded(path)["golden"]["expected"])
    view = expected["final"]["views"]["spectator"]
    view["darkness"] = view["darkness"] + 1
    problems = golden.differences(expected, replayed(path))
    assert problems == [
        f"final view of spectator: $.darkness: expected {view['darkness']}, got {view['darkness'] - 1}"
    ]


def test_a_log_that_no_longer_replays_fails_with_the_hint() -> None:
    """An event today's fold cannot take (say, a field renamed without an upcaster) is
    reported as such, with what to do, not as a bare traceback."""
    doc = copy.deepcopy(loaded(golden.GAMES_DIR / "dn-dual-class.json"))
    changed = next(e for e in doc["events"] if e["type"] == "HeroChanged")
    changed["data"]["hero_id"] = changed["data"].pop("hero")
    with pytest.raises(pytest.fail.Exception) as failed:
        replay_or_fail("dn-dual-class", lambda: replay(doc))
    assert "the log no longer replays: KeyError" in str(failed.value)
    assert golden.RERECORD_HINT in str(failed.value)


def test_a_dropped_undo_changes_the_replay() -> None:
    """Undo is folded on replay: a log without one of its undos replays to another game."""
    doc = copy.deepcopy(loaded(golden.GAMES_DIR / "dn-undo-chat.json"))
    doc["events"] = [e for e in doc["events"] if e["type"] != "table.undo"]
    for seq, event in enumerate(doc["events"], start=1):
        event["seq"] = seq
    assert replay_problems(doc)


def test_first_difference_names_the_key_path() -> None:
    expected = {"heroes": [{"grace": 3, "name": "Knight"}], "round": 2}
    assert golden.first_difference(expected, expected) is None
    actual = {"heroes": [{"grace": 2, "name": "Knight"}], "round": 2}
    assert golden.first_difference(expected, actual) == "$.heroes[0].grace: expected 3, got 2"
    assert golden.first_difference(expected, {"round": 2}) == (
        '$.heroes: missing (expected [{"grace": 3, "name": "Knight"}])'
    )
    assert golden.first_difference([1, 2], [1, 2, 3]) == "$: expected 2 items, got 3"
    assert golden.first_difference({"a": 1}, {"a": True}) == "$.a: expected 1, got true"


def test_the_recorder_writes_a_golden_that_replays_and_logs_why(tmp_path: Path, monkeypatch: Any) -> None:
    from tests.golden import record

    base = next(p for p in record.PLANS if p.id == "dn-undo-chat")
    plan = dataclasses.replace(base, id="tiny", max_commands=30, seed="golden-tiny-1")
    monkeypatch.setattr(golden, "GAMES_DIR", tmp_path)
    monkeypatch.setattr(golden, "RECORD_LOG", tmp_path / "RECORDED.md")
    monkeypatch.setattr(record, "PLANS", (plan,))
    with pytest.raises(SystemExit):
        record.main([])  # no reason, no recording
    assert not (tmp_path / "tiny.json").exists()

    assert record.main(["--reason", "a test recording"]) == 0
    doc = golden.load(tmp_path / "tiny.json")
    assert doc["golden"]["undos"] > 0 and doc["golden"]["commands"] == 30
    assert not replay_problems(doc)
    check_import(golden.export_part(doc), golden.SIGNING_KEY, max_events=100_000)

    assert record.main(["--keep-events", "--reason", "expectations only"]) == 0
    again = golden.load(tmp_path / "tiny.json")
    assert again["events"] == doc["events"] and again["signature"] == doc["signature"]
    assert again["golden"]["recorded"]["events_kept"] is True
    lines = [line for line in (tmp_path / "RECORDED.md").read_text().splitlines() if line.startswith("- ")]
    assert [line.rsplit("reason: ", 1)[1] for line in lines] == ["a test recording", "expectations only"]
    assert f"darkest_night engine {record.game_of(plan).engine_version}" in lines[0]
