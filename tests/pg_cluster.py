"""A throwaway PostgreSQL cluster for tests (no pytest needed here; see conftest.py).

    with PgCluster() as cluster:
        url = cluster.create_database("umbra_x")   # postgresql://postgres@127.0.0.1:PORT/umbra_x

``PgCluster`` runs ``initdb`` + ``pg_ctl`` in a temporary directory on a free port of
127.0.0.1 (trust auth, user ``postgres``, durability off). PostgreSQL refuses to run as root,
so as root the server runs as the ``postgres`` OS user (created with ``useradd --system`` if
missing). If ``UMBRA_TEST_PG_URL`` is set (e.g. ``postgresql://me:pw@db:5432/postgres``), that
server is used instead and ``create_database`` issues ``CREATE DATABASE`` on it.

Run ``python tests/pg_cluster.py`` to start a cluster by hand and print its URL.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import pwd
import re
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ENV_URL = "UMBRA_TEST_PG_URL"
OS_USER = "postgres"
DB_USER = "postgres"
WANTED_MAJOR = 15
_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")


class PgClusterError(RuntimeError):
    pass


# ----------------------------------------------------------------------------- discovery


def _major(initdb: str) -> int | None:
    try:
        out = subprocess.run(
            [initdb, "--version"], capture_output=True, text=True, timeout=30, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"(\d+)(?:\.\d+)?", out)
    return int(m.group(1)) if m else None


def find_bindir() -> Path | None:
    """The directory holding ``initdb``, ``pg_ctl`` and ``postgres`` (symlinks resolved).

    Looks on PATH, in /usr/local/bin and in /usr/lib/postgresql/*/bin; prefers major 15,
    then the newest."""
    candidates: list[str] = []
    found = shutil.which("initdb")
    if found:
        candidates.append(found)
    candidates.append("/usr/local/bin/initdb")
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    seen: set[Path] = set()
    usable: list[tuple[int, Path]] = []
    for cand in candidates:
        if not os.path.isfile(cand) or not os.access(cand, os.X_OK):
            continue
        bindir = Path(os.path.realpath(cand)).parent
        if bindir in seen:
            continue
        seen.add(bindir)
        if not all((bindir / exe).is_file() for exe in ("initdb", "pg_ctl", "postgres")):
            continue
        major = _major(str(bindir / "initdb"))
        if major is not None:
            usable.append((major, bindir))
    if not usable:
        return None
    usable.sort(key=lambda mb: (mb[0] == WANTED_MAJOR, mb[0]), reverse=True)
    return usable[0][1]


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _os_user_exists() -> bool:
    try:
        pwd.getpwnam(OS_USER)
    except KeyError:
        return False
    return True


def _ensure_os_user() -> None:
    if _os_user_exists():
        return
    useradd = shutil.which("useradd") or "/usr/sbin/useradd"
    try:
        subprocess.run(
            [useradd, "--system", "--user-group", "--no-create-home", OS_USER],
            check=True,
            capture_output=True,
            timeout=60,
        )
    except subprocess.CalledProcessError:
        # Another test process (pytest-xdist worker) may have created it a moment ago.
        if not _os_user_exists():
            raise


def _psycopg_missing() -> str | None:
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:  # pragma: no cover - psycopg is a project dependency
        return f"psycopg is not importable ({exc})"
    return None


def available() -> tuple[bool, str]:
    """Whether a cluster can be provided here, and why (not)."""
    missing = _psycopg_missing()
    if missing:
        return False, missing
    if os.environ.get(ENV_URL):
        return True, f"using the server at ${ENV_URL}"
    bindir = find_bindir()
    if bindir is None:
        return False, (
            "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found on PATH, in "
            "/usr/local/bin or /usr/lib/postgresql/*/bin (apt-get install postgresql-15)"
        )
    if _is_root():
        if not (shutil.which("runuser") or shutil.which("su")):
            return False, "running as root and neither runuser nor su is available"
        if not _os_user_exists() and not (shutil.which("useradd") or os.path.exists("/usr/sbin/useradd")):
            return False, f"running as root, OS user {OS_USER!r} is missing and useradd is absent"
    return True, f"PostgreSQL binaries in {bindir}"


# ----------------------------------------------------------------------------- helpers


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _plain_url(url: str) -> str:
    """``postgresql+psycopg://`` / ``postgres://`` -> ``postgresql://`` (what libpq takes)."""
    parts = urlsplit(url)
    scheme = parts.scheme.split("+", 1)[0]
    if scheme == "postgres":
        scheme = "postgresql"
    if scheme != "postgresql":
        raise PgClusterError(f"${ENV_URL} must be a postgresql:// URL, got {url!r}")
    return urlunsplit((scheme, parts.netloc, parts.path, parts.query, parts.fragment))


def _with_dbname(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def _check_name(name: str) -> str:
    if not _NAME_RE.match(name):
        raise ValueError(f"bad database name {name!r} (letters, digits, _; at most 63)")
    return name


# ----------------------------------------------------------------------------- the cluster


class PgCluster:
    """A throwaway cluster (or the server named by ``UMBRA_TEST_PG_URL``)."""

    def __init__(self, *, start_timeout: float = 60.0) -> None:
        self.start_timeout = start_timeout
        self.external_url: str | None = _plain_url(os.environ[ENV_URL]) if os.environ.get(ENV_URL) else None
        self.bindir: Path | None = None
        self.base: Path | None = None
        self.port: int | None = None
        self._as_postgres = False
        self._running = False

    # -- public -------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The maintenance URL (database ``postgres``, or the one in ``UMBRA_TEST_PG_URL``)."""
        if self.external_url:
            return self.external_url
        if self.port is None:
            raise PgClusterError("cluster not started")
        return f"postgresql://{DB_USER}@127.0.0.1:{self.port}/postgres"

    def url_for(self, name: str) -> str:
        return _with_dbname(self.url, _check_name(name))

    def start(self) -> PgCluster:
        if self._running:
            return self
        if self.external_url:
            self._wait_ready(self.url)
            self._running = True
            return self
        ok, reason = available()
        if not ok:
            raise PgClusterError(reason)
        self.bindir = find_bindir()
        assert self.bindir is not None
        self._as_postgres = _is_root()
        if self._as_postgres:
            _ensure_os_user()
        # As root: /tmp explicitly (a TMPDIR under /root would not be traversable).
        parent = "/tmp" if self._as_postgres else None
        self.base = Path(tempfile.mkdtemp(prefix="umbra-pg-", dir=parent))
        atexit.register(self.stop)
        try:
            if self._as_postgres:
                pw = pwd.getpwnam(OS_USER)
                os.chown(self.base, pw.pw_uid, pw.pw_gid)
            self._run(
                [
                    str(self.bindir / "initdb"),
                    "-D", str(self.datadir),
                    "-A", "trust",
                    "-U", DB_USER,
                    "-E", "UTF8",
                    "--locale=C",
                    "--no-sync",
                    "--no-instructions",
                ],
                timeout=120,
            )  # fmt: skip
            self._start_server()
        except BaseException:
            self.stop()
            raise
        self._running = True
        return self

    def stop(self) -> None:
        if self.external_url:
            self._running = False
            return
        base, self.base = self.base, None
        if base is None:
            return
        if self.bindir is not None and (base / "data" / "postmaster.pid").exists():
            with contextlib.suppress(Exception):
                self._run(
                    [str(self.bindir / "pg_ctl"), "stop", "-D", str(base / "data"),
                     "-m", "immediate", "-w", "-t", "30"],
                    timeout=60, cwd=base,
                )  # fmt: skip
        shutil.rmtree(base, ignore_errors=True)
        self._running = False
        self.port = None
        with contextlib.suppress(Exception):
            atexit.unregister(self.stop)

    def create_database(self, name: str) -> str:
        """``CREATE DATABASE name`` and return its URL."""
        import psycopg
        from psycopg import sql

        _check_name(name)
        with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.url_for(name)

    def drop_database(self, name: str) -> None:
        """``DROP DATABASE IF EXISTS name WITH (FORCE)`` (disconnects its sessions)."""
        import psycopg
        from psycopg import sql

        _check_name(name)
        with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))

    def __enter__(self) -> PgCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- internals ----------------------------------------------------------------------

    @property
    def datadir(self) -> Path:
        assert self.base is not None
        return self.base / "data"

    @property
    def logfile(self) -> Path:
        assert self.base is not None
        return self.base / "server.log"

    def _run(
        self, cmd: list[str], *, timeout: float, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        cwd = cwd or self.base  # the postgres user must be able to enter the cwd
        if self._as_postgres:
            runuser = shutil.which("runuser")
            if runuser:
                cmd = [runuser, "-u", OS_USER, "--", *cmd]
            else:
                cmd = ["su", "-s", "/bin/sh", OS_USER, "-c", shlex.join(cmd)]
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env.update(LC_ALL="C", LANG="C")
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            raise PgClusterError(
                f"{shlex.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
                + self._log_tail()
            )
        return proc

    def _log_tail(self, lines: int = 40) -> str:
        try:
            text = self.logfile.read_text(errors="replace").splitlines()[-lines:]
        except (OSError, AssertionError):
            return ""
        return "\n--- server log (tail) ---\n" + "\n".join(text)

    def _start_server(self) -> None:
        assert self.bindir is not None and self.base is not None
        options = " ".join(
            [
                "-c listen_addresses=127.0.0.1",
                f"-c unix_socket_directories={shlex.quote(str(self.base))}",
                "-c fsync=off",
                "-c full_page_writes=off",
                "-c max_connections=200",
                "-c shared_buffers=32MB",
            ]
        )
        last: Exception | None = None
        for _attempt in range(3):  # the free port may be taken between probe and bind
            self.port = _free_port()
            try:
                self._run(
                    [str(self.bindir / "pg_ctl"), "start", "-D", str(self.datadir),
                     "-l", str(self.logfile), "-w", "-t", str(int(self.start_timeout)),
                     "-o", f"-p {self.port} {options}"],
                    timeout=self.start_timeout + 30,
                )  # fmt: skip
            except PgClusterError as exc:
                last = exc
                if "already in use" in self._log_tail(10):
                    continue
                raise
            self._wait_ready(self.url)
            return
        raise PgClusterError(f"could not start PostgreSQL: {last}")

    def _wait_ready(self, url: str) -> None:
        import psycopg

        deadline = time.monotonic() + self.start_timeout
        while True:
            try:
                with psycopg.connect(url, connect_timeout=5, autocommit=True) as conn:
                    conn.execute("select 1")
                return
            except psycopg.OperationalError as exc:
                if time.monotonic() > deadline:
                    raise PgClusterError(f"PostgreSQL at {url} not ready: {exc}") from exc
                time.sleep(0.1)


def main() -> None:  # pragma: no cover - manual helper
    def _exit(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _exit)
    with PgCluster() as cluster:
        print(cluster.url, flush=True)
        print("Ctrl-C to stop", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)


if __name__ == "__main__":  # pragma: no cover
    main()
