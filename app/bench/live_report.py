"""The figures of ``umbra bench live``: per phase, per database, and how they are drawn
from what the viewers received (see ``app.bench.live``)."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.bench.databases import BenchDatabase
from app.bench.live_clients import LiveTable
from app.bench.stats import fmt, percentile
from app.bench.stats import table as text_table


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
    """``GET /view`` requests (one per command, two when the waited-on seat changed)."""
    failures: Counter[str] = field(default_factory=Counter)
    retries: Counter[str] = field(default_factory=Counter)
    """Requests sent again after a broken connection (not failures: see ``live.send``)."""
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
        ]


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

    def report(self) -> str:
        page = _mean(self.page_start + self.page_end)
        frames = [b for p in self.measured for b in p.frame_bytes]
        views, commands = sum(p.views for p in self.measured), sum(p.commands for p in self.measured)
        rows = text_table(HEADERS, [p.row(page) for p in self.measured], left=1)
        d = self.delivery
        lines = [
            f"{self.database.label}: {self.settings}",
            f"  {self.tables} tables x ({self.seats} {self.picker} seats + {self.spectators} spectators): "
            f"{self.tables * self.seats} json + {self.tables * self.spectators} html websockets, "
            f"connected in {self.connect_s:.1f} s",
            *(f"  the server refused {refusal}" for refusal in self.refusals),
            *("  " + line for line in rows.splitlines()),
            f"  full page render (GET /t/<id>/watch): {fmt(_mean(self.page_start), 0)} B at the start, "
            f"{fmt(_mean(self.page_end), 0)} B at the end; diff ratio = B/cmd/spectator / their mean",
            f"  spectator frames: {len(frames)}, p50 {fmt(percentile(frames, 50), 0)} B, "
            f"p99 {fmt(percentile(frames, 99), 0)} B; games ended: {self.finished_games}; GET /view per "
            f"command: {fmt(views / commands if commands else float('nan'), 2)}",
            f"  seat events lost / duplicated / out of order / wrong: "
            f"{d.lost} / {d.duplicated} / {d.out_of_order} / {d.wrong}"
            + (f"; bad frames {d.bad_frames}" if d.bad_frames else ""),
            f"  missing frames / sockets closed early / replica resyncs: "
            f"{sum(p.missing for p in self.phases)} / {self.closed} / {self.resyncs}",
        ]
        for phase in self.phases:
            if phase.cut_short:
                lines.append(f"  {phase.name}: {phase.cut_short} tables stopped at the time budget")
            if not phase.drained:
                lines.append(f"  {phase.name}: viewers had not caught up when the drain budget ran out")
            for reason, count in phase.retries.most_common(5):
                lines.append(f"  {phase.name}: sent again after a broken connection x{count}: {reason}")
            for reason, count in phase.failures.most_common(5):
                lines.append(f"  {phase.name}: failed x{count}: {reason}")
        if not self.drained:
            lines.append("  some viewers had not reached the end of their log when the drain budget ran out")
        lines.append(f"  result: {'OK' if self.ok else 'FAILED'}")
        return "\n".join(lines)


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
            if w.is_spectator:
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
