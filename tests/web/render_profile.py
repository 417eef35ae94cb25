"""How much the HTML fan-out costs per command: a Darkest Night table with four seat pages and
one spectator page (each an ``HtmlStream``, as the websocket holds them), a seeded random
legal command per step, and per command the CPU spent turning it into every page's frame.

    ./.venv/bin/python -m tests.web.render_profile [--commands 300]

Prints CPU ms per command for the fan-out (all five pages), the bytes per command a
spectator receives against its full page, and the memory the pages keep per 100 tables.
It measures, it never fails on a time (the tests prove correctness)."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.kernel.types import GAME_MASTER, SPECTATOR, Command, Viewer
from app.main import create_app
from app.store.migrate import upgrade
from app.web import fragments
from app.web.stream import HtmlStream
from tests.conftest import make_settings


def play_one(client: TestClient, session: Any, rng: random.Random) -> list[Any] | None:
    """One random legal command of a seat the table waits on (GM commands too); the stored events."""
    prompts = [p for p in session.game_prompts() if p.choices]
    required = [p for p in prompts if p.required] or prompts
    if not required or session.outcome is not None:
        return None
    prompt = rng.choice(required)
    choice = rng.choice(prompt.choices)
    viewer = GAME_MASTER if prompt.seat == "gm" else Viewer("seat", frozenset({prompt.seat}))
    command = Command(prompt.seat, choice.type, choice.args)
    result = client.portal.call(
        lambda: session.submit(command, viewer, command_id=f"p-{session.seq}-{rng.random()}")
    )
    return result.events


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=300)
    parser.add_argument("--seed", default="render-profile")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'profile.db'}"
        upgrade(url)
        with TestClient(create_app(make_settings(url, snapshot_every=0))) as client:
            run(client, args)
    return 0


def new_table(client: TestClient, seed: str) -> Any:
    body = {"game": "darkest_night", "seed": seed, "seats": [{"name": n} for n in ("Ann", "Bo", "Cy", "Di")]}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    hub = client.app.state.hub  # type: ignore[attr-defined]
    return client.portal.call(hub.session, response.json()["table_id"])


def viewers() -> list[Viewer]:
    return [Viewer("seat", frozenset({s})) for s in range(4)] + [SPECTATOR]


def run(client: TestClient, args: argparse.Namespace) -> None:
    app = client.app
    hub = app.state.hub  # type: ignore[attr-defined]
    rng = random.Random(args.seed)
    session = new_table(client, args.seed)
    streams = [HtmlStream(app, hub, session, v) for v in viewers()]
    for s in streams:
        s.opening([])
    cpu: list[float] = []
    spectator_bytes: list[int] = []
    page_bytes: list[int] = []
    games = 0
    while len(cpu) < args.commands:
        events = play_one(client, session, rng)
        if events is None:  # the game ended: a new table, new pages
            games += 1
            session = new_table(client, f"{args.seed}-{games}")
            streams = [HtmlStream(app, hub, session, v) for v in viewers()]
            for s in streams:
                s.opening([])
            continue
        start = time.process_time()
        frames = [s.update(events) for s in streams]
        cpu.append((time.process_time() - start) * 1000)
        spectator_bytes.append(sum(len(f.encode()) for f in frames[-1]))
        if len(cpu) % 25 == 1:
            page = client.get(f"/t/{session.id}/watch").text
            page_bytes.append(len(page.encode()))
    page = statistics.median(page_bytes)
    median_bytes = statistics.median(spectator_bytes)
    print(f"commands: {len(cpu)} (games begun: {games + 1})")
    print(
        f"fan-out CPU per command, 5 HTML pages: mean {statistics.fmean(cpu):.2f} ms, "
        f"median {statistics.median(cpu):.2f} ms, p95 {sorted(cpu)[int(len(cpu) * 0.95)]:.2f} ms"
    )
    print(
        f"spectator bytes per command: median {median_bytes:.0f}, "
        f"mean {statistics.fmean(spectator_bytes):.0f}; "
        f"full page {page:.0f} bytes; median {100 * median_bytes / page:.1f} % of a full page"
    )
    memory(client, args)


def memory(client: TestClient, args: argparse.Namespace) -> None:
    """What a table's five pages keep between commands, per 100 tables: each stream's
    ``sent`` cache, and the renders the table's pages share (everything reachable from them
    that nothing else holds, view slices included), after 60 commands on a few tables."""
    app = client.app
    hub = app.state.hub  # type: ignore[attr-defined]
    rng = random.Random(f"{args.seed}-memory")
    sample = 3
    sent = shared = 0
    for index in range(sample):
        session = new_table(client, f"{args.seed}-mem-{index}")
        streams = [HtmlStream(app, hub, session, v) for v in viewers()]
        for s in streams:
            s.opening([])
        for _ in range(60):
            events = play_one(client, session, rng)
            if events is None:
                break
            for s in streams:
                s.update(events)
        seen: set[int] = {id(session.state), id(session)}
        sent += sum(deep_size(s.sent, seen) for s in streams)
        kept = getattr(fragments, "_RENDERS", None) or getattr(fragments, "_SHARED_BOARDS", {})
        shared += deep_size(kept.get(session), seen)
    per_100 = 100 / sample / 2**20
    print(
        f"kept per 100 tables (5 pages each): sent caches {sent * per_100:.2f} MB, "
        f"shared renders {shared * per_100:.2f} MB"
    )


def deep_size(obj: Any, seen: set[int]) -> int:
    """Bytes reachable from ``obj`` (each object once, across calls sharing ``seen``)."""
    if obj is None or id(obj) in seen or isinstance(obj, type):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        size += sum(deep_size(k, seen) + deep_size(v, seen) for k, v in obj.items())
    elif isinstance(obj, list | tuple | set | frozenset):
        size += sum(deep_size(item, seen) for item in obj)
    elif hasattr(obj, "__dict__") or hasattr(obj, "__slots__"):
        for name in getattr(obj, "__slots__", ()):
            size += deep_size(getattr(obj, name, None), seen)
        size += deep_size(getattr(obj, "__dict__", None), seen)
    return size


if __name__ == "__main__":
    sys.exit(main())
