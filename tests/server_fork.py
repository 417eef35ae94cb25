"""A fork server for the tests' ``umbra serve`` processes.

Starting ``python -m app.cli serve`` costs about 1.7 s of CPU, most of it importing FastAPI,
SQLAlchemy, Alembic and the app; the suite starts well over a hundred servers. A fork server
is one Python process per test process that has imported all that once: each server is a
``fork()`` of it that runs the very ``umbra serve`` code (``app.cli.main(["serve", ...])``,
migrations included) with the environment and log file of the request. Nothing is imported
that a fresh process would not import: the games named by ``UMBRA_EXTRA_GAMES`` are imported
in the forked child, as ``create_app`` does in a fresh process.

Two fork servers take turns, each started with its own random hash seed (unless
``PYTHONHASHSEED`` fixes it for every process, as it would for fresh ones), so two servers of
one test (or a server and its restart) differ in their hash seed as fresh processes would.
``UMBRA_TEST_FORK=0`` starts every server as a fresh process instead.

The protocol: one JSON line per request on the fork server's stdin, one JSON line answer
on its stdout: ``{"spawn": {"argv", "env", "cwd", "log"}}`` -> ``{"pid"}``,
``{"poll": pid}`` -> ``{"code": int | null}`` (the fork server reaps its children)."""

from __future__ import annotations

import atexit
import json
import os
import signal
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]


def enabled() -> bool:
    return os.environ.get("UMBRA_TEST_FORK", "1").strip().lower() not in ("0", "false", "no", "off")


# -- the client side (in the test process) -------------------------------------------------


class ForkedProcess:
    """The part of ``subprocess.Popen`` the tests use, for a server forked by a fork server
    (it is that process's child, so it learns the exit code from there)."""

    def __init__(self, forker: _Forker, pid: int) -> None:
        self.forker = forker
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.forker.poll(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"forked server {self.pid}", timeout or 0)
            time.sleep(0.02)
        return code

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:  # as Popen: never signal a pid that may have been reused
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class _Forker:
    """One fork server process and a lock around its request/answer pipe."""

    def __init__(self) -> None:
        env = dict(os.environ)  # no PYTHONHASHSEED there: each fork server its own hash seed
        path = [str(ROOT), *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])]
        env["PYTHONPATH"] = os.pathsep.join(path)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.server_fork"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lock = threading.Lock()

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        with self.lock:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        if not line:
            raise BrokenPipeError(f"the fork server exited ({self.proc.poll()})")
        return json.loads(line)

    def poll(self, pid: int) -> int | None:
        return self.ask({"poll": pid})["code"]

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


_forkers: list[_Forker] = []
_turn = 0


def _forker() -> _Forker:
    global _turn
    if not _forkers:
        _forkers.extend(_Forker() for _ in range(2))
        atexit.register(lambda: [f.close() for f in _forkers])
    _turn += 1
    index = _turn % len(_forkers)
    if _forkers[index].proc.poll() is not None:  # it died: a new one
        _forkers[index] = _Forker()
    return _forkers[index]


def fork_serve(port: int, database_url: str, log: IO[bytes] | int, **env: str) -> ForkedProcess:
    """What ``app.bench.server.spawn_serve(port, database_url, log, **env)`` starts, forked
    from a fork server: ``umbra serve`` of this checkout on a loopback ``port`` in test mode,
    with ``env`` over this process's environment and its output to ``log`` (a file opened
    for appending, or ``subprocess.DEVNULL``)."""
    full = dict(os.environ)
    path = [str(ROOT), *([full["PYTHONPATH"]] if full.get("PYTHONPATH") else [])]
    full.update(
        {"DATABASE_URL": database_url, "UMBRA_TEST_MODE": "1", "PYTHONPATH": os.pathsep.join(path), **env}
    )
    log_path = os.devnull if isinstance(log, int) else str(Path(log.name).resolve())
    request = {
        "spawn": {
            "argv": ["serve", "--port", str(port), "--log-level", "warning"],
            "env": full,
            "cwd": str(ROOT),
            "log": log_path,
        }
    }
    forker = _forker()
    try:
        answer = forker.ask(request)
    except (BrokenPipeError, OSError):
        forker = _forker()
        answer = forker.ask(request)
    return ForkedProcess(forker, answer["pid"])


# -- the fork server ----------------------------------------------------------------------


def _child(spec: dict[str, Any]) -> None:
    """In the forked child: become ``umbra serve`` as a fresh process would be, never return."""
    code = 1
    try:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        log = os.open(spec["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.closerange(3, 1024)  # the fork server's pipes: its parent must see them close
        os.chdir(spec["cwd"])
        os.environ.clear()
        os.environ.update(spec["env"])
        sys.argv = ["umbra", *spec["argv"]]
        from app.cli import main

        code = main(spec["argv"])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def serve_forks() -> None:
    # What ``umbra serve`` imports before it serves; imported here once, forked many times.
    import alembic.command  # noqa: F401
    import uvicorn  # noqa: F401
    import uvicorn.lifespan.on  # noqa: F401
    import uvicorn.loops.auto  # noqa: F401
    import uvicorn.protocols.http.auto  # noqa: F401
    import uvicorn.protocols.websockets.auto  # noqa: F401

    import app.cli  # noqa: F401
    import app.main  # noqa: F401
    import app.store.migrate  # noqa: F401

    codes: dict[int, int] = {}
    for line in sys.stdin:
        request = json.loads(line)
        if "spawn" in request:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _child(request["spawn"])
            answer: dict[str, Any] = {"pid": pid}
        else:
            pid = request["poll"]
            if pid not in codes:
                try:
                    done, status = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:  # not a child of this fork server
                    done, status = pid, 255 << 8
                if done:
                    codes[pid] = os.waitstatus_to_exitcode(status)
            answer = {"code": codes.get(pid)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve_forks()
