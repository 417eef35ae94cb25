"""Golden games: whole exported games replayed by every build (issue 9, "saves outlive releases").

A golden file is an export (``app.live.exports``: format, game, engine version, options,
seats, outcome, events with seq, type, v, data, actor, command id and time, and the HMAC
signature over all of that) plus a ``golden`` section that is not part of the export: how
it was recorded and what replaying it must give. The expectations are computed here, by
the same path a stored game takes when a later release loads it: every stored event
through the game's ``upcast``, then the fold (``kernel.fold_all``), undo folded as the live
session folds it (an undo rebuilds the state from the log without what it took back,
``kernel.replay_log`` / ``history.live_events``). The recorder and the test share this
module, so a golden holds what the code of its recording day computed, and the test says
whether today's code still computes it.

What is pinned, at every ``checkpoint_every`` seqs and at the end:
- each viewer's view (every seat, a spectator, the game master), as a short hash;
- the prompts the table offers (serialised whole), as a short hash;
- each viewer's redacted event feed (``kernel.event_for_viewer``) of the events since the
  previous checkpoint, as a short hash, so hidden-information filtering is pinned too;
- each viewer's log lines of those events (seq, round/turn mark and text, as the table
  page's log shows them; unnarrated bookkeeping events have none), as a short hash;
for the whole game, each viewer's feed per event type, as a short hash (a failure names
the event types that changed); and at the end, in full (so a failure names the first
differing key): every view, the prompts and the outcome.
"""

from __future__ import annotations

import bisect
import dataclasses
import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from app.kernel import table as kernel
from app.kernel.conformance import viewers_for
from app.kernel.game import Game
from app.kernel.types import Event, Prompt, Viewer

GOLDEN_DIR = Path(__file__).parent
GAMES_DIR = GOLDEN_DIR / "games"
RECORD_LOG = GOLDEN_DIR / "RECORDED.md"

SIGNING_KEY = "a-test-secret-key"
"""The key the goldens are signed with: the hardening tests' ``TEST_KEY``, so a test server
keyed with it imports a golden as it would any export (the replay itself needs no key)."""

CHECKPOINT_EVERY = 100
HASH_LENGTH = 16
RERECORD_HINT = (
    "a change that alters a golden game must add an upcaster or re-record with a stated reason: "
    "python -m tests.golden.record --reason '...'"
)


def canonical(value: Any) -> str:
    """A JSON value in one spelling (sorted keys, no spaces, ASCII; tuples as lists)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest(value: Any) -> str:
    """A short, stable hash of a JSON value."""
    return hashlib.sha256(canonical(value).encode()).hexdigest()[:HASH_LENGTH]


def as_json(value: Any) -> Any:
    """``value`` as plain JSON (tuples become lists), as it would cross the wire."""
    return json.loads(json.dumps(value, sort_keys=True))


def prompts_json(prompts: Sequence[Prompt]) -> list[Any]:
    """The prompts as JSON, every field but those at their default: a field added later
    with a default leaves old goldens as they were, any value that changes does not."""
    return as_json([without_defaults(p) for p in prompts])


def without_defaults(value: Any) -> Any:
    """A dataclass (nested in lists and dicts) as a dict of its fields not at their default."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: without_defaults(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not at_default(f, getattr(value, f.name))
        }
    if isinstance(value, list | tuple):
        return [without_defaults(v) for v in value]
    if isinstance(value, dict):
        return {k: without_defaults(v) for k, v in value.items()}
    return value


def at_default(spec: dataclasses.Field[Any], value: Any) -> bool:
    if spec.default is not dataclasses.MISSING:
        return bool(value == spec.default)
    if spec.default_factory is not dataclasses.MISSING:
        return bool(value == spec.default_factory())
    return False


def viewer_from_key(key: str) -> Viewer:
    """The inverse of ``Viewer.key`` for the viewers a golden pins."""
    if key.startswith("seat:"):
        return Viewer("seat", frozenset(int(s) for s in key[5:].split(",")))
    return Viewer("gm", frozenset({kernel.GM_SEAT})) if key == "gm" else Viewer("spectator")


# -- reading a golden's log --------------------------------------------------------------


def stored_log(doc: dict[str, Any]) -> list[tuple[int, Event]]:
    """The export's events as a store hands them out on load: (seq, Event) in seq order."""
    return [(raw["seq"], Event(raw["type"], raw["data"], raw.get("v", 1))) for raw in doc["events"]]


def checkpoint_seqs(last_seq: int, every: int) -> list[int]:
    return sorted({*range(every, last_seq + 1, every), last_seq})


def fold_by_checkpoint(
    game: Game, log: Sequence[tuple[int, Event]], seqs: Sequence[int]
) -> Iterator[tuple[int, Any]]:
    """(seq, state as of seq) for each checkpoint seq, folded as a live table folds its log:
    events are upcast and folded as they come; an undo rebuilds the state from the log
    without what it took back (``TableSession._apply`` → ``rebuild`` → ``replay_log``)."""
    state = game.initial_state()
    pending: list[Event] = []
    wanted = iter(seqs)
    target = next(wanted, None)
    for index, (seq, event) in enumerate(log):
        if event.type == kernel.UNDO_EVENT:
            state, pending = kernel.replay_log(game, log[: index + 1]), []
        else:
            pending.append(event)
        if seq == target:
            state, pending = kernel.fold_all(game, state, pending), []
            yield seq, state
            target = next(wanted, None)


def log_contexts(game: Game, log: Sequence[tuple[int, Event]]) -> list[Any]:
    """``game.log_context`` of the state just after each event, as a live table tells the
    line of an event it has just folded (an undo rebuilds the state, as ``fold_by_checkpoint``)."""
    state = game.initial_state()
    out = []
    for index, (_, event) in enumerate(log):
        if event.type == kernel.UNDO_EVENT:
            state = kernel.replay_log(game, log[: index + 1])
        else:
            state = kernel.fold_all(game, state, [event])
        out.append(game.log_context(state))
    return out


def expectations(game: Game, doc: dict[str, Any], every: int = CHECKPOINT_EVERY) -> dict[str, Any]:
    """What replaying ``doc``'s log gives today: the ``golden.expected`` section."""
    log = stored_log(doc)
    viewers = viewers_for(len(doc["seats"]))
    known: dict[int, Served] = {}
    contexts = log_contexts(game, log)
    served = {v.key(): served_to(game, log, v, known, contexts) for v in viewers}
    seqs = [s for s, _ in log]
    checkpoints: list[dict[str, Any]] = []
    state: Any = None
    since = 0
    for seq, state in fold_by_checkpoint(game, log, checkpoint_seqs(log[-1][0], every)):
        start, stop = bisect.bisect_right(seqs, since), bisect.bisect_right(seqs, seq)
        chunks = {key: items[start:stop] for key, items in served.items()}
        checkpoints.append(
            {
                "seq": seq,
                "views": {v.key(): digest(game.view(state, v)) for v in viewers},
                "prompts": digest(prompts_json(game.prompts(state))),
                "feeds": {key: digest_lines(s.event for s in chunk) for key, chunk in chunks.items()},
                "log": {key: digest([s.line for s in chunk if s.line]) for key, chunk in chunks.items()},
            }
        )
        since = seq
    whole = kernel.replay_log(game, log)
    if whole != state:
        raise AssertionError("folding checkpoint by checkpoint and replaying the whole log disagree")
    outcome = game.outcome(state)
    return {
        "checkpoint_every": every,
        "last_seq": log[-1][0],
        "outcome": outcome.to_json() if outcome else None,
        "checkpoints": checkpoints,
        "feeds_by_type": {key: feeds_by_type(items) for key, items in served.items()},
        "final": {
            "views": {v.key(): as_json(game.view(state, v)) for v in viewers},
            "prompts": prompts_json(game.prompts(state)),
        },
    }


@dataclasses.dataclass(frozen=True, slots=True)
class Served:
    """One stored event as one viewer gets it: its feed entry and its log line, if any."""

    type: str
    event: str | None
    """The redacted event as canonical JSON (``kernel.event_for_viewer``); None if withheld."""
    line: list[Any] | None
    """[seq, mark, text] as the table page's log shows it (``web.fragments``); None if none."""
    source: Event | None = dataclasses.field(default=None, compare=False)


def served_to(
    game: Game,
    log: Sequence[tuple[int, Event]],
    viewer: Viewer,
    known: dict[int, Served] | None = None,
    contexts: Sequence[Any] | None = None,
) -> list[Served]:
    """Each stored event as ``viewer`` gets it, its line told with ``contexts[i]`` (the
    game's ``log_context`` when event i was folded). ``known`` remembers, by identity, what
    an event served unchanged gives, so the other viewers need not encode it again."""
    known = {} if known is None else known
    out = []
    for index, (seq, event) in enumerate(log):
        visible = kernel.event_for_viewer(game, event, viewer)
        if visible is None:
            out.append(Served(event.type, None, None))
            continue
        same = known.get(id(visible))
        if same is not None and same.source is visible:
            out.append(same)
            continue
        text = kernel.describe(game, visible, contexts[index] if contexts else None)
        line = [seq, game.log_mark(visible), text] if text else None
        served = Served(event.type, canonical(visible.to_json()), line, visible)
        known[id(visible)] = served
        out.append(served)
    return out


def digest_lines(texts: Iterable[str | None]) -> str:
    """A short hash of a feed: its entries' canonical JSON, one a line (withheld ones left out)."""
    sha = hashlib.sha256()
    for text in texts:
        if text is not None:
            sha.update(text.encode() + b"\n")
    return sha.hexdigest()[:HASH_LENGTH]


def feeds_by_type(served: Sequence[Served]) -> dict[str, str]:
    """A viewer's whole feed split by stored event type, one hash each."""
    by_type: dict[str, list[str | None]] = {}
    for item in served:
        by_type.setdefault(item.type, []).append(item.event)
    return {kind: digest_lines(texts) for kind, texts in sorted(by_type.items())}


# -- comparing ---------------------------------------------------------------------------


def first_difference(expected: Any, actual: Any, path: str = "$") -> str | None:
    """The first key path where two JSON values differ, with both values (shortened)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual), key=str):
            where = f"{path}.{key}"
            if key not in actual:
                return f"{where}: missing (expected {short(expected[key])})"
            if key not in expected:
                return f"{where}: unexpected {short(actual[key])}"
            found = first_difference(expected[key], actual[key], where)
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            found = first_difference(e, a, f"{path}[{i}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{path}: expected {len(expected)} items, got {len(actual)}"
        return None
    if type(expected) is not type(actual) or expected != actual:
        return f"{path}: expected {short(expected)}, got {short(actual)}"
    return None


def viewers(expected: dict[str, str], actual: dict[str, str]) -> str:
    """Which viewers' hashes differ, or "every viewer"."""
    keys = [k for k in sorted(set(expected) | set(actual)) if expected.get(k) != actual.get(k)]
    return "every viewer" if len(keys) == len(expected) > 1 else ", ".join(keys)


def short(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def differences(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """Readable differences between a golden's expectations and today's replay, earliest
    first: the outcome, the first checkpoint that differs (what differs there), then the
    first differing key of each final view and of the final prompts."""
    found: list[str] = []
    if expected["outcome"] != actual["outcome"]:
        found.append(f"outcome: expected {short(expected['outcome'])}, got {short(actual['outcome'])}")
    if expected["last_seq"] != actual["last_seq"]:
        found.append(f"log length: expected {expected['last_seq']} events, got {actual['last_seq']}")
    got = {c["seq"]: c for c in actual["checkpoints"]}
    since = 0
    for want in expected["checkpoints"]:
        have = got.get(want["seq"])
        if have is None:
            found.append(f"checkpoint at seq {want['seq']}: not reached")
            break
        wrong = [
            f"{what} of {viewers(want[part], have[part])}"
            for part, what in (("views", "views"), ("feeds", "event feeds"), ("log", "log lines"))
            if want[part] != have[part]
        ]
        if want["prompts"] != have["prompts"]:
            wrong.append("the prompts")
        if wrong:
            found.append(
                f"first differing checkpoint, seq {want['seq']} (events {since + 1}–{want['seq']}): "
                + "; ".join(wrong)
            )
            break
        since = want["seq"]
    changed: dict[str, list[str]] = {}
    for key, kinds in expected["feeds_by_type"].items():
        now = actual["feeds_by_type"].get(key, {})
        for kind in sorted(set(kinds) | set(now)):
            if kinds.get(kind) != now.get(kind):
                changed.setdefault(kind, []).append(key)
    if changed:
        found.append(
            "event feeds differ by type: "
            + "; ".join(f"{kind} ({', '.join(keys)})" for kind, keys in sorted(changed.items()))
        )
    by_diff: dict[str, list[str]] = {}
    for key, view in sorted(expected["final"]["views"].items()):
        diff = first_difference(view, actual["final"]["views"].get(key))
        if diff:
            by_diff.setdefault(diff, []).append(key)
    for diff, keys in by_diff.items():
        who = "every viewer" if len(keys) == len(expected["final"]["views"]) > 1 else ", ".join(keys)
        found.append(f"final view of {who}: {diff}")
    diff = first_difference(expected["final"]["prompts"], actual["final"]["prompts"])
    if diff:
        found.append(f"final prompts: {diff}")
    return found


# -- files -------------------------------------------------------------------------------


def golden_files() -> list[Path]:
    return sorted(GAMES_DIR.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def export_part(doc: dict[str, Any]) -> dict[str, Any]:
    """The export inside a golden (what ``app.live.exports.check_import`` reads)."""
    return {k: v for k, v in doc.items() if k != "golden"}


def render(value: Any, indent: int = 0, width: int = 110) -> str:
    """JSON with sorted keys, compact where it fits and one list item per line otherwise:
    small on disk, and a re-recording shows as a readable line diff."""
    compact = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    if len(compact) + indent <= width or not isinstance(value, dict | list) or not value:
        return compact
    pad, inner = " " * indent, " " * (indent + 1)
    if isinstance(value, dict):
        items = [
            f"{inner}{json.dumps(k, ensure_ascii=False)}: {render(v, indent + 1, width)}"
            for k, v in sorted(value.items())
        ]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    lines = [inner + json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":")) for v in value]
    return "[\n" + ",\n".join(lines) + f"\n{pad}]"


def recorded_at(seq: int) -> str:
    """A fixed time per event: re-recording the same code gives the same bytes."""
    return datetime.fromtimestamp(1_767_225_600 + seq, UTC).isoformat()
