"""Database URLs: people write ``sqlite:///path`` or ``postgresql://user@host/db``; the
app picks the drivers (aiosqlite / psycopg 3 for the server, their sync twins for Alembic)."""

from __future__ import annotations

from sqlalchemy.engine import make_url


def _normalise(url: str) -> tuple[str, str]:
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "postgres":
        backend = "postgresql"
    if backend not in ("sqlite", "postgresql"):
        raise ValueError(f"unsupported database {backend!r}: use sqlite:/// or postgresql://")
    return backend, parsed.render_as_string(hide_password=False).split("://", 1)[1]


def async_url(url: str) -> str:
    backend, rest = _normalise(url)
    driver = "aiosqlite" if backend == "sqlite" else "psycopg"
    return f"{backend}+{driver}://{rest}"


def sync_url(url: str) -> str:
    backend, rest = _normalise(url)
    driver = "pysqlite" if backend == "sqlite" else "psycopg"
    return f"{backend}+{driver}://{rest}"


def is_postgres(url: str) -> bool:
    return _normalise(url)[0] == "postgresql"


def libpq_dsn(url: str) -> str:
    """A plain ``postgresql://`` DSN for psycopg's own connections (LISTEN/NOTIFY)."""
    return "postgresql://" + _normalise(url)[1]
