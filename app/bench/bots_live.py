"""``umbra bench bots <game> --live``: tables of bots on a real server (issue 27: "a table
of bots plays at its set pace with no event-loop lag above 50 ms").

A real ``umbra serve`` on a temporary SQLite file; ``--tables`` tables (2 by default) of
the game's first bot scenario, made through the API, every seat handed to the bot, the
strength and pace set by the game master's commands (``--strength``, strong by default;
``--pace`` seconds, 0.5 by default). For ``--seconds`` (30; 10 with ``--quick``) it
watches: moves per table, the mean time between a table's moves beside its set pace (the
pace plus the bot's thinking), and the server's event-loop lag (``/healthz``: p50, p99,
max over the run). Fails (exit 1) if a table stops moving before its game ends or the lag
reaches 50 ms.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from app.bench.server import Server, extra_game_modules
from app.kernel.search import BotScenario

LAG_LIMIT_MS = 50.0


async def _table(
    client: httpx.AsyncClient, game: str, scenario: BotScenario, strength: str, pace: float
) -> str:
    body = {
        "game": game,
        "options": scenario.options,
        "seats": [{"name": f"Bot {i + 1}"} for i in range(scenario.seats)],
    }
    created = (await client.post("/api/tables", json=body)).raise_for_status().json()
    table_id, gm = created["table_id"], created["gm_token"]
    headers = {"Authorization": f"Bearer {gm}"}
    for i, (kind, args) in enumerate(
        (("bot_strength", {"strength": strength}), ("bot_pace", {"seconds": pace}))
    ):
        command = {"command_id": f"bench-{i}", "seat": "gm", "type": kind, "args": args}
        (
            await client.post(f"/api/tables/{table_id}/commands", json=command, headers=headers)
        ).raise_for_status()
    for seat in range(scenario.seats):
        handed = await client.post(
            f"/api/tables/{table_id}/seats/{seat}/bot", json={"on": True}, headers=headers
        )
        handed.raise_for_status()
    return table_id


async def _watch(url: str, game: str, scenario: BotScenario, args: Any) -> dict[str, Any]:
    tables = getattr(args, "tables", None) or 2
    seconds = getattr(args, "seconds", None) or (10.0 if getattr(args, "quick", False) else 30.0)
    strength = getattr(args, "strength", None) or "strong"
    pace = float(getattr(args, "pace", None) if getattr(args, "pace", None) is not None else 0.5)
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        ids = [await _table(client, game, scenario, strength, pace) for _ in range(tables)]
        first = {t: (await client.get(f"/api/tables/{t}")).json() for t in ids}
        start = time.perf_counter()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - start
        last = {t: (await client.get(f"/api/tables/{t}")).json() for t in ids}
        health = (await client.get("/healthz", params={"window": elapsed})).json()
    moves = {t: last[t]["seq"] - first[t]["seq"] for t in ids}
    stalled = [t for t in ids if moves[t] == 0 and last[t].get("status") == "running"]
    per_move = [elapsed / m for m in moves.values() if m]
    return {
        "tables": tables,
        "seconds": round(elapsed, 1),
        "strength": strength,
        "pace_s": pace,
        "moves": sum(moves.values()),
        "seconds_between_moves": round(sum(per_move) / len(per_move), 2) if per_move else None,
        "stalled_tables": len(stalled),
        "loop_lag_ms": health["loop_lag_ms"],
    }


async def _run(game: str, scenario: BotScenario, args: Any) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="umbra-bench-bots-") as folder:
        server = Server(
            f"sqlite:///{Path(folder) / 'bench.db'}",
            Path(folder) / "server.log",
            extra_game_modules(),
            env={"UMBRA_BOT_STRENGTH": "strong"},
        )
        server.start()
        try:
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
                await server.wait_ready(client, game)
            return await _watch(server.url, game, scenario, args)
        finally:
            server.stop()


def run_live(game: str, scenario: BotScenario, args: Any) -> tuple[dict[str, Any], bool]:
    """The figures, and whether the run passed (no stalled table, lag under 50 ms)."""
    figures = asyncio.run(_run(game, scenario, args))
    passed = not figures["stalled_tables"] and figures["loop_lag_ms"]["max"] < LAG_LIMIT_MS
    return figures, passed


def report(game: str, scenario: str, figures: dict[str, Any], passed: bool) -> str:
    lag = figures["loop_lag_ms"]
    between = figures["seconds_between_moves"]
    return "\n".join(
        [
            f"{game} {scenario}: {figures['tables']} tables of bots ({figures['strength']}, pace "
            f"{figures['pace_s']:g} s) on a real server for {figures['seconds']:g} s",
            f"  moves                {figures['moves']}",
            f"  s between moves      {'-' if between is None else f'{between:.2f}'} per table (set pace "
            f"{figures['pace_s']:g} s + thinking)",
            f"  stalled tables       {figures['stalled_tables']}",
            f"  loop lag ms          p50 {lag['p50']:.1f}  p99 {lag['p99']:.1f}  max {lag['max']:.1f}"
            f"  ({'under' if passed else 'NOT under'} {LAG_LIMIT_MS:g} ms)",
        ]
    )
