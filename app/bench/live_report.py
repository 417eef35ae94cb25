"""The figures of ``umbra bench live``: per phase, per database, and how they are drawn
from what the viewers received (see ``app.bench.live``)."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.bench.databases import BenchDatabase
from app.bench.live_clients import LiveTable
from app.bench.stats import fmt, percentile
from app.bench.stats import table as text_table

nan = math.nan


@dataclass
class Phase:
    """Commands sent with ``tables_at_once`` tables playing at the same time."""

    name: str
    tables_at_once: int
    commands_per_table: int
    measured: bool = True
    sent: list[tuple[LiveTable, int, float]] = field(default_factory=list)
    """(table, seq of the command's last event, time just before its POST) per command."""
    reply_ms: list[float] = field(default_factory=list)
    views: int = 0
    """``GET /view`` requests (when a seat's socket had not pushed its prompts; see ``live``)."""
    pushed: int = 0
    """Commands chosen from the prompts the seat's own socket pushed (no ``GET /view``)."""
    failures: Counter[str] = field(default_factory=Counter)
    retries: Counter[str] = field(default_factory=Counter)
    """Requests sent again after a broken connection (not failures: see ``live.send``)."""
    rounds_together: int = 0
    """Rounds in which several seats of a table sent their commands at once."""
    sent_together: int = 0
    """The POSTs of those rounds (each seat's from its own client)."""
    client_cpu_s: float = 0.0
    """This process's CPU seconds over the phase (bot picks, replicas, frames): near the
    phase's length, the client, not the server, set the pace."""
    refused: Counter[str] = field(default_factory=Counter)
    """POSTs of a round refused because another seat's command got there first (409
    ``taken`` or ``stale``): races the game refuses by its rules, not failures."""
    cut_short: int = 0
    start: float = 0.0
    end: float = 0.0
    cpu_s: float = 0.0
    drained: bool = True
    push_ms: list[float] = field(default_factory=list)
    frag_ms: list[float] = field(default_factory=list)
    per_command_bytes: list[float] = field(default_factory=list)
    """Per spectator: the bytes it received in the phase / its table's commands."""
    frame_bytes: list[int] = field(default_factory=list)
    missing: int = 0
    offered_per_s: float | None = None
    """With ``--rate``: the commands per second offered (tables x rate); else None."""
    late: int = 0
    """With ``--rate``: commands sent later than their slot by over half an interval (the
    table's previous command had not come back yet)."""
    db_cpu_s: float | None = None
    """PostgreSQL's CPU seconds over the phase (its postmaster and backends), when local."""
    proxy_cpu_s: float = 0.0
    """nginx's part of ``cpu_s`` in front of ``--processes`` (0 without)."""
    loop_lag_ms: dict[str, float] = field(default_factory=dict)
    """The server's event-loop lag over the phase (``/healthz``: p50, p99, max)."""

    @property
    def commands(self) -> int:
        return len(self.sent)

    @property
    def seconds(self) -> float:
        return self.end - self.start

    def row(self, page: float) -> list[str]:
        per_command = _mean(self.per_command_bytes)
        return [
            self.name,
            str(self.commands),
            fmt(self.commands / self.seconds if self.seconds else float("nan"), 1),
            *(fmt(percentile(self.push_ms, p), 1) for p in (50, 95, 99)),
            *(fmt(percentile(self.frag_ms, p), 1) for p in (50, 95, 99)),
            fmt(percentile(self.reply_ms, 50), 1),
            fmt(percentile(self.reply_ms, 99), 1),
            fmt(per_command, 0),
            fmt(per_command / page if page else float("nan"), 3),
            fmt(self.cpu_s * 1000 / self.commands if self.commands else float("nan"), 2),
            fmt(self.cpu_s / self.seconds * 100 if self.seconds else float("nan"), 0),
            fmt(
                self.db_cpu_s * 1000 / self.commands if self.commands and self.db_cpu_s is not None else nan,
                2,
            ),
            fmt(self.loop_lag_ms.get("p99", nan), 1),
            fmt(self.loop_lag_ms.get("max", nan), 1),
        ]

    @property
    def db_ms_per_command(self) -> float:
        if not self.commands or self.db_cpu_s is None:
            return nan
        return self.db_cpu_s * 1000 / self.commands

    def to_json(self, page: float) -> dict[str, Any]:
        per_command = _mean(self.per_command_bytes)
        commands = self.commands

        def pcts(values: list[float]) -> dict[str, float | None]:
            return {f"p{p}": _num(percentile(values, p)) for p in (50, 95, 99)}

        return {
            "name": self.name,
            "tables_at_once": self.tables_at_once,
            "commands": commands,
            "seconds": _num(self.seconds),
            "commands_per_s": _num(commands / self.seconds if self.seconds else nan),
            "offered_per_s": self.offered_per_s,
            "late": self.late,
            "seat_ms": pcts(self.push_ms),
            "spectator_ms": pcts(self.frag_ms),
            "post_ms": {
                "p50": _num(percentile(self.reply_ms, 50)),
                "p99": _num(percentile(self.reply_ms, 99)),
            },
            "bytes_per_command_per_spectator": _num(per_command),
            "diff_ratio": _num(per_command / page if page else nan),
            "frame_bytes_p50": _num(percentile(self.frame_bytes, 50)),
            "server_cpu_ms_per_command": _num(self.cpu_s * 1000 / commands if commands else nan),
            "nginx_cpu_ms_per_command": _num(self.proxy_cpu_s * 1000 / commands if commands else nan),
            "server_cpu_percent": _num(self.cpu_s / self.seconds * 100 if self.seconds else nan),
            "postgres_cpu_ms_per_command": _num(self.db_ms_per_command),
            "loop_lag_ms": self.loop_lag_ms,
            "missing_frames": self.missing,
            "view_requests": self.views,
            "pushed_prompts": self.pushed,
            "client_cpu_percent": _num(self.client_cpu_s / self.seconds * 100 if self.seconds else nan),
            "concurrent_rounds": self.rounds_together,
            "concurrent_sends": self.sent_together,
            "refused_races": dict(self.refused),
            "failures": dict(self.failures),
            "retries": dict(self.retries),
        }


HEADERS = [
    "load",
    "commands",
    "per s",
    "push p50 ms",
    "push p95 ms",
    "push p99 ms",
    "frag p50 ms",
    "frag p95 ms",
    "frag p99 ms",
    "POST p50 ms",
    "POST p99 ms",
    "B/cmd/spectator",
    "diff ratio",
    "CPU ms/cmd",
    "CPU %",
    "PG ms/cmd",
    "lag p99 ms",
    "lag max ms",
]


@dataclass
class Delivery:
    """The seats' JSON websockets: every event of the log once, in order, as told."""

    lost: int = 0
    duplicated: int = 0
    out_of_order: int = 0
    wrong: int = 0
    bad_frames: int = 0

    @property
    def ok(self) -> bool:
        return not (self.lost or self.duplicated or self.out_of_order or self.wrong or self.bad_frames)


@dataclass
class Figures:
    database: BenchDatabase
    game: str
    picker: str
    """``bot`` or ``random``."""
    seats: int = 0
    spectators: int = 0
    settings: str = ""
    tables: int = 0
    connect_s: float = 0.0
    phases: list[Phase] = field(default_factory=list)
    """The warm-up first (not reported), then the measured phases."""
    page_start: list[int] = field(default_factory=list)
    page_end: list[int] = field(default_factory=list)
    delivery: Delivery = field(default_factory=Delivery)
    closed: int = 0
    resyncs: int = 0
    finished_games: int = 0
    refusals: list[str] = field(default_factory=list)
    """Seat counts the server refused with the game's default options, and why."""
    drained: bool = True
    """Every viewer reached the end of its table's log (asked of the server at the end)."""
    workers: int = 1
    processes: int = 1
    seat_format: str = "json"

    @property
    def measured(self) -> list[Phase]:
        return [p for p in self.phases if p.measured]

    @property
    def ok(self) -> bool:
        return (
            bool(self.measured)
            and all(p.commands for p in self.measured)
            and not any(p.failures or p.missing or not p.drained for p in self.phases)
            and self.delivery.ok
            and not self.closed
            and not self.resyncs
            and self.drained
        )

    def server_shape(self) -> str:
        if self.processes > 1:
            return f"{self.processes} processes behind nginx, each table in one"
        return "1 process" if self.workers == 1 else f"{self.workers} worker processes"

    def report(self) -> str:
        page = _mean(self.page_start + self.page_end)
        frames = [b for p in self.measured for b in p.frame_bytes]
        views, commands = sum(p.views for p in self.measured), sum(p.commands for p in self.measured)
        pushed = sum(p.pushed for p in self.measured)
        rows = text_table(HEADERS, [p.row(page) for p in self.measured], left=1)
        d = self.delivery
        lines = [
            f"{self.database.label}: {self.settings}",
            f"  {self.tables} tables x ({self.seats} {self.picker} seats + {self.spectators} spectators): "
            + (
                f"{self.tables * self.seats} json + {self.tables * self.spectators} html websockets"
                if self.seat_format == "json"
                else f"{self.tables * (self.seats + self.spectators)} html websockets"
            )
            + f", connected in {self.connect_s:.1f} s; server: {self.server_shape()}",
            *(f"  the server refused {refusal}" for refusal in self.refusals),
            *("  " + line for line in rows.splitlines()),
            f"  full page render (GET /t/<id>/watch): {fmt(_mean(self.page_start), 0)} B at the start, "
            f"{fmt(_mean(self.page_end), 0)} B at the end; diff ratio = B/cmd/spectator / their mean",
            f"  spectator frames: {len(frames)}, p50 {fmt(percentile(frames, 50), 0)} B, "
            f"p99 {fmt(percentile(frames, 99), 0)} B; games ended: {self.finished_games}; GET /view per "
            f"command: {fmt(views / commands if commands else float('nan'), 2)}; prompts taken from a seat "
            f"socket's push per command: {fmt(pushed / commands if commands else float('nan'), 2)}",
            f"  seat events lost / duplicated / out of order / wrong: "
            f"{d.lost} / {d.duplicated} / {d.out_of_order} / {d.wrong}"
            + (f"; bad frames {d.bad_frames}" if d.bad_frames else ""),
            f"  missing frames / sockets closed early / replica resyncs: "
            f"{sum(p.missing for p in self.phases)} / {self.closed} / {self.resyncs}",
        ]
        for phase in self.measured:
            refused = ", ".join(f"{reason} x{count}" for reason, count in sorted(phase.refused.items()))
            client_cpu = phase.client_cpu_s / phase.seconds * 100 if phase.seconds else nan
            lines.append(
                f"  {phase.name}: seats acting at once: {phase.sent_together} POSTs in "
                f"{phase.rounds_together} rounds; refused races: {sum(phase.refused.values())}"
                + (f" ({refused})" if refused else "")
                + f"; bench client CPU {fmt(client_cpu, 0)} %"
            )
            if self.processes > 1 and phase.commands:
                serving = (phase.cpu_s - phase.proxy_cpu_s) * 1000 / phase.commands
                lines.append(
                    f"  {phase.name}: server CPU ms per command: serving processes {fmt(serving, 2)}, "
                    f"nginx {fmt(phase.proxy_cpu_s * 1000 / phase.commands, 2)}"
                )
        for phase in self.phases:
            if phase.cut_short:
                lines.append(f"  {phase.name}: {phase.cut_short} tables stopped at the time budget")
            if not phase.drained:
                lines.append(f"  {phase.name}: viewers had not caught up when the drain budget ran out")
            for reason, count in phase.retries.most_common(5):
                lines.append(f"  {phase.name}: sent again x{count}: {reason}")
            for reason, count in phase.failures.most_common(5):
                lines.append(f"  {phase.name}: failed x{count}: {reason}")
        if not self.drained:
            lines.append("  some viewers had not reached the end of their log when the drain budget ran out")
        lines.append(f"  result: {'OK' if self.ok else 'FAILED'}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        page = _mean(self.page_start + self.page_end)
        d = self.delivery
        return {
            "database": self.database.label,
            "settings": self.settings,
            "game": self.game,
            "picker": self.picker,
            "tables": self.tables,
            "seats": self.seats,
            "seat_format": self.seat_format,
            "spectators": self.spectators,
            "workers": self.workers,
            "processes": self.processes,
            "full_page_bytes": _num(page),
            "phases": [p.to_json(page) for p in self.measured],
            "delivery": {
                "lost": d.lost,
                "duplicated": d.duplicated,
                "out_of_order": d.out_of_order,
                "wrong": d.wrong,
                "bad_frames": d.bad_frames,
            },
            "sockets_closed_early": self.closed,
            "ok": self.ok,
        }


def _num(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 3)


def _mean(values: Sequence[float]) -> float:
    return statistics.fmean(values) if values else float("nan")


def collect(tables: list[LiveTable], figures: Figures) -> None:
    """Latencies over every (command, viewer) pair, bytes per command per spectator, and
    the seats' exactly-once, in-order check."""
    for table in tables:
        figures.resyncs += table.resyncs
        figures.finished_games += table.finished
        figures.closed += sum(1 for w in table.watchers if w.closed)
        for when, into in (("start", figures.page_start), ("end", figures.page_end)):
            if when in table.page_bytes:
                into.append(table.page_bytes[when])
    for phase in figures.phases:
        commands = Counter(t.id for t, _, _ in phase.sent)
        for table, seq, t0 in phase.sent:
            for w in table.watchers:
                at = w.arrival_of(seq)
                if at is None:
                    phase.missing += 1
                else:
                    (phase.frag_ms if w.is_spectator else phase.push_ms).append((at - t0) * 1000)
        for table in tables:
            if not commands[table.id]:
                continue
            for w in table.watchers:
                if w.is_spectator:
                    sizes = w.bytes_between(phase.start, phase.end)
                    phase.frame_bytes += sizes
                    phase.per_command_bytes.append(sum(sizes) / commands[table.id])
    d = figures.delivery
    for table in tables:
        for w in table.watchers:
            if w.fragments:
                continue
            d.bad_frames += w.bad_frames
            seen = set(w.order)
            d.duplicated += len(w.order) - len(seen)
            d.lost += sum(1 for s in range(table.start_seq + 1, table.final_seq + 1) if s not in seen)
            d.wrong += sum(1 for s in seen if s > table.final_seq or s <= table.start_seq)
            d.out_of_order += sum(1 for a, b in zip(w.order, w.order[1:], strict=False) if b < a)
            for seq, (sender, kind, data) in table.expected.items():
                got = w.contents.get(seq)
                if sender == w.seat and got is not None and got != (kind, data):
                    d.wrong += 1
