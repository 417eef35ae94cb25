"""A per-client token bucket, for the requests that cost the server most (imports)."""

from __future__ import annotations

import math
import time
from collections import OrderedDict

from app.kernel.types import RuleError


class RateLimited(RuleError):
    """429, with how long to wait (``Retry-After``)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__("rate_limited", message, status=429)
        self.retry_after = max(1, math.ceil(retry_after))


class RateLimit:
    """``burst`` requests at once per client, refilled at ``burst`` per ``period`` seconds.

    Memory is bounded: at most ``max_clients`` buckets, the least recently seen dropped
    first (a dropped client starts again with a full bucket, the safe direction)."""

    def __init__(self, burst: int, period: float = 60.0, *, max_clients: int = 10_000) -> None:
        self.burst = max(1, burst)
        self.rate = self.burst / period
        self.max_clients = max_clients
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, client: str, what: str, now: float | None = None) -> None:
        """Spend one token of ``client``'s bucket, or raise ``RateLimited``."""
        now = time.monotonic() if now is None else now
        tokens, since = self.buckets.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - since) * self.rate)
        if tokens < 1:
            self.buckets[client] = (tokens, now)
            wait = (1 - tokens) / self.rate
            raise RateLimited(f"too many {what} from your address; try again in {math.ceil(wait)} s", wait)
        self.buckets[client] = (tokens - 1, now)
        while len(self.buckets) > self.max_clients:
            self.buckets.popitem(last=False)
