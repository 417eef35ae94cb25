"""What ``umbra bench soak`` counts, and its checks of a settled table (issue 8).

Check 1: every acknowledged command's events are in the log, at the seqs its answer
named, with its ``command_id``, and the log holds no other event of that command. Check 2:
every viewer saw each event of its table's log, from where it started to the end, exactly
once and in order. Problems are counted, and a few examples kept for the report.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.bench.soak_clients import SoakTable

SAMPLES = 12
"""At most this many examples of each kind of problem are kept for the report."""


@dataclass(frozen=True)
class Ack:
    command_id: str
    seqs: tuple[int, ...]
    replayed: bool


@dataclass
class Tally:
    """Everything counted over the run, over every table."""

    sent: Counter[str] = field(default_factory=Counter)
    """Distinct commands sent, by kind (move, chat)."""
    acknowledged: int = 0
    replayed: int = 0
    refused: int = 0
    gave_up: int = 0
    attempts: int = 0
    latency_ms: list[float] = field(default_factory=list)
    """From a command's first send to its acknowledgement, retries included."""
    command_errors: Counter[str] = field(default_factory=Counter)
    other_errors: Counter[str] = field(default_factory=Counter)
    faults: Counter[str] = field(default_factory=Counter)
    """5xx other than 503, and error bodies that are not ``{"error": {"code", "message"}}``."""
    fault_samples: list[str] = field(default_factory=list)
    tables_created: int = 0
    games_finished: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    log_events: Counter[str] = field(default_factory=Counter)
    """Events of the settled logs by who caused them: bot, client move, chat, system."""
    actors: Counter[str] = field(default_factory=Counter)
    bot_commands: int = 0
    acks_checked: int = 0
    acks_bad: int = 0
    unacked_in_log: int = 0
    ack_samples: list[str] = field(default_factory=list)
    viewers_checked: int = 0
    viewers_bad: int = 0
    lost: int = 0
    duplicated: int = 0
    out_of_order: int = 0
    viewer_samples: list[str] = field(default_factory=list)
    connections: int = 0
    drops: Counter[str] = field(default_factory=Counter)
    bad_frames: int = 0
    unsettled: list[str] = field(default_factory=list)
    max_gap_s: float = 0.0
    max_gap_where: str = ""
    """Which table, and when the pause ended (seconds into the run)."""

    def sample(self, where: list[str], text: str) -> None:
        if len(where) < SAMPLES:
            where.append(text)


def describe_error(response: Any) -> tuple[str, bool]:
    """``"<status> <code>"`` for an error response, and whether it is a fault: a 5xx
    other than 503, or a body that is not ``{"error": {"code", "message"}}``."""
    try:
        body = json.loads(response.content)
        code = body["error"]["code"]
        well_formed = isinstance(code, str) and isinstance(body["error"]["message"], str)
    except (ValueError, KeyError, TypeError):
        code, well_formed = "(not a JSON error body)", False
    status = response.status_code
    return f"{status} {code}", (not well_formed) or (status >= 500 and status != 503)


def check_acks(tally: Tally, table: SoakTable, events: list[dict[str, Any]]) -> None:
    """Check 1: each acknowledged command's events are in the log, with its command_id
    (and the log holds no other event of it)."""
    by_seq = {e["seq"]: e for e in events}
    by_command: defaultdict[str, set[int]] = defaultdict(set)
    for event in events:
        if event.get("command_id"):
            by_command[event["command_id"]].add(event["seq"])
    acked = set()
    for ack in table.acks:
        tally.acks_checked += 1
        acked.add(ack.command_id)
        missing = [s for s in ack.seqs if s not in by_seq]
        other = [s for s in ack.seqs if s in by_seq and by_seq[s].get("command_id") != ack.command_id]
        if missing or other or not ack.seqs or by_command[ack.command_id] != set(ack.seqs):
            tally.acks_bad += 1
            tally.sample(
                tally.ack_samples,
                f"table {table.id} command {ack.command_id} (replayed={ack.replayed}): answered seqs "
                f"{list(ack.seqs)}, the log has {sorted(by_command[ack.command_id])} for it; "
                f"missing {missing}, another command's {other}",
            )
    ours = {c for c, seqs in by_command.items() if not c.startswith("bot-")}
    tally.unacked_in_log += len(ours - acked)


def count_log(tally: Tally, events: list[dict[str, Any]]) -> None:
    bot_commands = set()
    for event in events:
        command_id = event.get("command_id") or ""
        if command_id.startswith("bot-"):
            kind = "bot"
            bot_commands.add(command_id)
        elif command_id.startswith("chat-"):
            kind = "chat"
        elif command_id:
            kind = "client move"
        else:
            kind = "system"
        tally.log_events[kind] += 1
        tally.actors[str(event.get("actor"))] += 1
    tally.bot_commands += len(bot_commands)


def check_viewers(tally: Tally, table: SoakTable, end: int) -> None:
    """Check 2: each viewer saw every event from where it started to the end of the
    log exactly once and in order (events after ``end`` came after the log was read)."""
    for number, viewer in enumerate(table.viewers):
        tally.viewers_checked += 1
        seen = [s for s in viewer.order if s <= end]
        expected = list(range(viewer.start + 1, end + 1))
        if seen == expected:
            continue
        tally.viewers_bad += 1
        lost = sorted(set(expected) - set(seen))
        duplicated = len(seen) - len(set(seen))
        disorder = sum(1 for a, b in zip(seen, seen[1:], strict=False) if b < a)
        tally.lost += len(lost)
        tally.duplicated += duplicated
        tally.out_of_order += disorder
        tally.sample(
            tally.viewer_samples,
            f"table {table.id} viewer {number} on server {viewer.server.name}: log 1..{end}, saw "
            f"{len(seen)} events; lost {len(lost)} {lost[:8]}, duplicated {duplicated}, "
            f"out of order {disorder}",
        )
