"""Fixtures for the browser tests: one headless Debian chromium per run (never a
downloaded browser), and a real ``umbra serve`` process per test on a SQLite file.

Without /usr/bin/chromium every browser test is skipped with a loud reason (``.ci/run``
installs chromium, so CI runs them)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect, sync_playwright

from tests.conftest import LiveServer
from tests.e2e.support import CHROMIUM, LAUNCH_ARGS, SCREENSHOTS

MISSING_CHROMIUM = (
    f"*** BROWSER TESTS SKIPPED: {CHROMIUM} is missing. Install Debian's chromium "
    "(apt-get install chromium chromium-driver; .ci/run does it). Never `playwright install`. ***"
)

expect.set_options(timeout=10_000)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"e2e_report_{report.when}", report)
    return report


def _failed(request: pytest.FixtureRequest) -> bool:
    report = getattr(request.node, "e2e_report_call", None)
    return report is None or report.failed


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not CHROMIUM.exists() and terminalreporter.stats.get("skipped"):
        terminalreporter.write_sep("*", MISSING_CHROMIUM, red=True, bold=True)


# Package scope, not session: while Playwright's sync driver runs, the thread has a running
# event loop, so `asyncio.run()` in the tests collected after tests/e2e would fail.
@pytest.fixture(scope="package")
def playwright_driver() -> Iterator[Playwright]:
    if not CHROMIUM.exists():
        pytest.skip(MISSING_CHROMIUM)
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="package")
def browser(playwright_driver: Playwright) -> Iterator[Browser]:
    browser = playwright_driver.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS
    )
    try:
        yield browser
    finally:
        browser.close()


class Served:
    """The test's server, which a test may kill and start again on the same port and
    database (as a crash and a restart would)."""

    def __init__(self, database_url: str, log_path: Path) -> None:
        self.database_url = database_url
        self.log_path = log_path
        self.server = LiveServer(database_url, log_path=log_path).start()

    @property
    def url(self) -> str:
        return self.server.url

    def kill(self) -> None:
        """SIGKILL, as a crash would: connections drop without a close frame (1006)."""
        self.server.kill()

    def start_again(self) -> None:
        self.server = LiveServer(self.database_url, port=self.server.port, log_path=self.log_path).start()

    def stop(self) -> None:
        """SIGTERM, as a deploy would: uvicorn shuts down gracefully."""
        self.server.stop()


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Served]:
    served = Served(f"sqlite:///{tmp_path / 'umbra.db'}", tmp_path / "server.log")
    try:
        yield served
    finally:
        served.stop()
        if _failed(request) and served.log_path.exists():
            tail = served.log_path.read_text(errors="replace").splitlines()[-60:]
            print("--- server log (tail) ---", *tail, sep="\n")


PageFactory = Callable[..., Page]


@pytest.fixture
def open_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[PageFactory]:
    """``open_page(url, context=None, **context_options)``: a new page, in a new browser
    context (its own cookie jar) unless one is given. Uncaught script errors and any
    ``alert``/``confirm`` dialog are recorded; the test fails on either."""
    contexts: list[BrowserContext] = []
    pages: list[Page] = []
    errors: list[str] = []
    dialogs: list[str] = []

    def factory(url: str | None = None, context: BrowserContext | None = None, **options: Any) -> Page:
        if context is None:
            context = browser.new_context(**options)
            context.set_default_timeout(10_000)
            contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))

        def on_dialog(dialog: Any) -> None:
            dialogs.append(f"{page.url}: {dialog.type} {dialog.message!r}")
            dialog.dismiss()

        page.on("dialog", on_dialog)
        pages.append(page)
        if url:
            page.goto(url)
        return page

    factory.dialogs = dialogs  # type: ignore[attr-defined]
    factory.errors = errors  # type: ignore[attr-defined]
    yield factory
    try:
        if _failed(request):
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name)
            for i, page in enumerate(pages):
                if not page.is_closed():
                    page.screenshot(path=str(SCREENSHOTS / f"failed-{name}-{i}.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
    if not _failed(request):
        assert not errors, f"uncaught script errors: {errors}"
        assert not dialogs, f"unexpected dialogs: {dialogs}"
