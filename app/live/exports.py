"""Exported logs: signed by the server, checked whole before an import becomes a table.

An export is the table's whole log (never its secret seed) with an HMAC-SHA256 signature
over its canonical JSON, made with the server's secret key. An import is accepted only if
that signature verifies, so a saved game cannot be edited into a win (dice, events,
options, seats or outcome); on top of that, every event is checked against its type and
bounds, the history must be one the platform could have written (see
``app.kernel.history``), and the log must replay to a state that has an outcome or waits
on a legal move. Only a server holding the same key (the same ``UMBRA_SECRET_KEY``, or the
same database's generated key) accepts another's export.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.kernel import table as kernel
from app.kernel.game import Game
from app.kernel.history import check_history
from app.kernel.registry import get_game
from app.kernel.text import check_text
from app.kernel.types import Event, RuleError
from app.live import inputs
from app.store import StoredEvent

EXPORT_FORMAT = "umbra-log"
EXPORT_VERSION = 1
SIGNATURE_PREFIX = "hmac-sha256:"
SIGNING_KEY_SETTING = "export_signing_key"


class TooLarge(RuleError):
    def __init__(self, message: str) -> None:
        super().__init__("too_large", message, status=413)


def canonical(doc: dict[str, Any]) -> bytes:
    """The bytes a signature covers: everything but the signature, in one spelling."""
    body = {k: v for k, v in doc.items() if k != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def sign(key: str, doc: dict[str, Any]) -> str:
    digest = hmac.new(key.encode(), canonical(doc), hashlib.sha256).hexdigest()
    return SIGNATURE_PREFIX + digest


def verify(key: str, doc: dict[str, Any]) -> bool:
    given = doc.get("signature")
    if not isinstance(given, str):
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), sign(key, doc).encode())


@dataclass(frozen=True, slots=True)
class CheckedImport:
    game: Game
    name: str
    options: dict[str, Any]
    seat_names: list[str]
    events: list[StoredEvent]
    state: Any
    """The state the log replays to (saved as the new table's snapshot, so that loading
    it replays nothing a second time)."""


def check_import(doc: Any, key: str, *, max_events: int) -> CheckedImport:
    """Everything an import must pass, cheapest first; raises RuleError (422, or 413 for
    too many events) and touches nothing. Linear in the size of ``doc``."""
    if not isinstance(doc, dict):
        raise RuleError("bad_export", "an export is a JSON object")
    if doc.get("format") != EXPORT_FORMAT or doc.get("version") != EXPORT_VERSION:
        raise RuleError("bad_export", f"not an {EXPORT_FORMAT} v{EXPORT_VERSION} file")
    events = doc.get("events")
    if not isinstance(events, list):
        raise RuleError("bad_export", "the export's 'events' must be a list")
    if len(events) > max_events:
        raise TooLarge(f"an import holds at most {max_events} events, not {len(events)}")
    if not verify(key, doc):
        raise RuleError(
            "bad_signature",
            "the export's signature does not verify: it was edited, or made by a server with "
            "another secret key (UMBRA_SECRET_KEY)",
        )
    game = get_game(str(doc.get("game")))
    if game is None:
        raise RuleError("unknown_game", f"there is no game {str(doc.get('game'))[:64]!r}")
    seats = doc.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise RuleError("bad_export", "the export's 'seats' must be a list of {seat, name}")
    names = inputs.check_seat_names(game, [s.get("name") for s in seats])
    options = inputs.check_options(game, doc.get("options"), len(names))
    name = inputs.check_table_name(doc.get("name") or "")
    stored = [_imported_event(raw, seq) for seq, raw in enumerate(events, start=1)]
    check_history(game, stored, len(names))
    try:
        state = kernel.replay_log(game, [(s.seq, s.event) for s in stored])
        outcome = game.outcome(state)
        waiting = outcome is None and any(p.choices for p in game.prompts(state) if p.required)
    except Exception as exc:  # a forged event the fold cannot take
        raise RuleError("replay_failed", f"the log does not replay: {type(exc).__name__}") from exc
    if outcome is None and not waiting:
        raise RuleError("replay_failed", "the log replays to a table that has no outcome and waits on no one")
    claimed = doc.get("outcome")
    if claimed != (outcome.to_json() if outcome else None):
        raise RuleError("replay_failed", "the export's outcome is not what its log replays to")
    return CheckedImport(game, name, options, names, stored, state)


def _imported_event(raw: Any, expected_seq: int) -> StoredEvent:
    if not isinstance(raw, dict):
        raise RuleError("bad_export", f"event {expected_seq} is not an object")
    seq, kind, data, version = raw.get("seq"), raw.get("type"), raw.get("data"), raw.get("v", 1)
    if seq != expected_seq or isinstance(seq, bool):
        raise RuleError(
            "bad_export", f"events must run 1, 2, 3… without gaps; found {str(seq)[:20]} at {expected_seq}"
        )
    if not isinstance(kind, str) or not 0 < len(kind) <= 64 or not isinstance(data, dict):
        raise RuleError("bad_export", f"event {expected_seq} needs a type and a data object")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RuleError("bad_export", f"event {expected_seq} has a bad version")
    actor, command_id, at_raw = raw.get("actor", "system"), raw.get("command_id"), raw.get("at")
    if not isinstance(actor, str) or not (command_id is None or isinstance(command_id, str)):
        raise RuleError("bad_export", f"event {expected_seq} has a bad actor or command id")
    try:
        at = datetime.fromisoformat(at_raw) if isinstance(at_raw, str) and len(at_raw) <= 40 else None
    except ValueError:
        at = None
    if at is None:
        raise RuleError("bad_export", f"event {expected_seq} has a bad time")
    return StoredEvent(
        expected_seq,
        Event(check_text(kind, f"event {expected_seq}'s type"), data, version),
        actor[:64],
        command_id,
        at if at.tzinfo else at.replace(tzinfo=UTC),
    )


def export_doc(
    game: Game, record: Any, seats: list[Any], outcome: Any, events: list[StoredEvent], key: str
) -> dict[str, Any]:
    """The whole log as a signed JSON document (never the secret seed)."""
    doc = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": game.name,
        "engine_version": record.engine_version,
        "name": record.name,
        "options": record.options,
        "seats": [{"seat": s.seat, "name": s.name} for s in seats],
        "outcome": outcome.to_json() if outcome else None,
        "events": [e.to_json() | {"command_id": e.command_id} for e in events],
    }
    doc["signature"] = sign(key, doc)
    return doc
