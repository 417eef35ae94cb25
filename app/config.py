"""Settings, read from the environment once at start-up."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

DEFAULT_DATABASE_URL = "sqlite:///data/umbra.db"
BOT_PACE = 1.5
"""Seconds per bot move by default: slow enough for people to follow each move (issue 11)."""


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    test_mode: bool = False
    """Accept a ``seed`` when creating a table (reproducible games for tests only)."""
    public_url: str = ""
    """Base of invite links (``https://umbra.example``); empty: taken from each request."""
    snapshot_every: int = 100
    max_body_bytes: int = 1 << 20
    extra_games: tuple[str, ...] = field(default_factory=tuple)
    """Modules to import for their games (tests register a test-only game this way)."""
    bot_delay: float = -1.0
    """Seconds a seat's bot waits before each move, so people can follow its play: the pace
    of a table whose game master has not chosen one (``app.live.bots``). Negative (unset):
    ``BOT_PACE`` (1.5 s), or instant in test mode, so tests and benches never wait."""
    bot_strength: str = ""
    """How the bots of a table whose game master chose nothing play: ``strong`` (the
    search, issue 27) or ``quick`` (the heuristic). Empty (unset): strong, or quick in test
    mode, so tests and benches never wait on the search."""
    secret_key: str = ""
    """Signs exports (HMAC-SHA256). Empty: one is generated once and kept in the database,
    so every replica on that database shares it."""
    max_import_bytes: int = 8 << 20
    max_import_events: int = 50_000
    imports_per_minute: int = 10
    """Per client address; a burst of this many, refilled over a minute."""
    idle_evict_seconds: float = 600.0
    """A table nobody watches, with no bot playing, leaves memory after this long idle."""
    max_loaded_tables: int = 2000
    """Beyond this many tables in memory the least recently used idle ones leave first."""
    allow_async_commit: bool = False
    """Serve on a PostgreSQL whose ``synchronous_commit`` is off (``UMBRA_ALLOW_ASYNC_COMMIT=1``),
    with a loud warning: a crash may then lose commands the server acknowledged."""
    max_in_flight: int = 256
    """HTTP requests in progress at once in one process; beyond it a request is answered
    503 ``overloaded`` with ``Retry-After`` at once (``app.api.gate``)."""

    def __post_init__(self) -> None:
        if self.bot_delay < 0:
            object.__setattr__(self, "bot_delay", 0.0 if self.test_mode else BOT_PACE)
        if not self.bot_strength:
            object.__setattr__(self, "bot_strength", "quick" if self.test_mode else "strong")
        if self.bot_strength not in ("strong", "quick"):
            raise ValueError(f"UMBRA_BOT_STRENGTH is strong or quick, not {self.bot_strength!r}")

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            database_url=os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL),
            test_mode=_flag("UMBRA_TEST_MODE"),
            public_url=os.environ.get("UMBRA_PUBLIC_URL", "").rstrip("/"),
            snapshot_every=int(os.environ.get("UMBRA_SNAPSHOT_EVERY", "100")),
            max_body_bytes=int(os.environ.get("UMBRA_MAX_BODY_BYTES", str(1 << 20))),
            extra_games=tuple(m for m in os.environ.get("UMBRA_EXTRA_GAMES", "").split(",") if m.strip()),
            bot_delay=float(os.environ.get("UMBRA_BOT_DELAY", "-1")),
            bot_strength=os.environ.get("UMBRA_BOT_STRENGTH", "").strip().lower(),
            secret_key=os.environ.get("UMBRA_SECRET_KEY", ""),
            max_import_bytes=int(os.environ.get("UMBRA_MAX_IMPORT_BYTES", str(8 << 20))),
            max_import_events=int(os.environ.get("UMBRA_MAX_IMPORT_EVENTS", "50000")),
            imports_per_minute=int(os.environ.get("UMBRA_IMPORTS_PER_MINUTE", "10")),
            idle_evict_seconds=float(os.environ.get("UMBRA_IDLE_EVICT_SECONDS", "600")),
            max_loaded_tables=int(os.environ.get("UMBRA_MAX_LOADED_TABLES", "2000")),
            max_in_flight=int(os.environ.get("UMBRA_MAX_IN_FLIGHT", "256")),
            allow_async_commit=_flag("UMBRA_ALLOW_ASYNC_COMMIT"),
        )
