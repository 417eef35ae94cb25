"""The event loop's lag, measured all the time (issue 10): a task that asks to wake every
``PERIOD`` seconds notes how late it woke. Work that holds the loop (a synchronous database
call, a long replay, a big render) shows here as lag, and every table on the process waits
that long. ``/healthz`` reports it (``loop_lag_ms``: p50, p99 and max over the last
``window`` seconds), and ``umbra bench live`` prints it per phase."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque

PERIOD = 0.05
"""Every 50 ms: any stall of 50 ms or more always delays a wake-up, and an idle process spends
about 6 ms of CPU a second on it (at 20 ms it was 11 of the 15 ms an idle process spends, a
cost paid once per serving process: issue 25)."""
KEPT_SECONDS = 600.0


class LoopLag:
    def __init__(self) -> None:
        self.samples: deque[tuple[float, float]] = deque(maxlen=int(KEPT_SECONDS / PERIOD))
        """(when it woke, how late in ms), oldest first."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._watch(), name="loop-lag")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _watch(self) -> None:
        clock = time.perf_counter
        while True:
            asked = clock()
            await asyncio.sleep(PERIOD)
            woke = clock()
            self.samples.append((woke, max(0.0, (woke - asked - PERIOD) * 1000)))

    def figures(self, window: float = 60.0) -> dict[str, float]:
        since = time.perf_counter() - window
        lags = sorted(lag for when, lag in self.samples if when >= since)
        if not lags:
            return {"p50": 0.0, "p99": 0.0, "max": 0.0, "samples": 0}
        return {
            "p50": round(lags[(len(lags) - 1) // 2], 2),
            "p99": round(lags[min(len(lags) - 1, int(len(lags) * 0.99))], 2),
            "max": round(lags[-1], 2),
            "samples": len(lags),
        }
