"""Issue 25, done when: a browser plays a table through ``umbra serve --processes 2`` (nginx
in front) across a ``kill -9`` of the process that owns the table. The pages reconnect by
themselves, through nginx, to the process serving the table now, catch up on what they
missed, and nothing is lost or shown twice."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PageFactory
from tests.e2e.support import (
    assert_not_reloaded,
    click_choice,
    create_table,
    expect_full_log,
    expect_live,
    expect_seq,
    lowest_choice,
    mark_no_reload,
)
from tests.serving.cluster_client import cluster, nginx_missing

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.timeout(240)]

RECONNECT = 20_000  # ms: the pages back off to at most 8 s between attempts


@pytest.mark.skipif(bool(nginx_missing()), reason="nginx not installed")
def test_a_table_plays_on_across_a_kill_9_of_its_process(
    pg_url: str, tmp_path: Path, open_page: PageFactory
) -> None:
    with cluster(pg_url, 2, tmp_path / "serve.log", UMBRA_EXTRA_GAMES="tests.support.lanterns") as running:
        table = create_table(running.base, ["Ann", "Bob"])
        ann = open_page(table.seat_url(0))
        bob = open_page(table.seat_url(1))
        spectator = open_page(table.watch_url)
        pages: list[Page] = [ann, bob, spectator]
        for page in pages:
            expect_live(page)
            mark_no_reload(page)

        click_choice(ann, lowest_choice(ann))
        seq = table.summary()["seq"]
        for page in pages:
            expect_seq(page, seq)

        owner = running.owner()  # every page's socket is in the process that owns the table
        assert owner["viewers"] == len(pages)
        os.kill(owner["pid"], signal.SIGKILL)
        for page in pages:
            expect(page.locator("#conn")).to_have_text(re.compile(r"^(re)?connecting…$|^live$"))

        # Bob moves at once: nginx hands the table to the other process (or the restarted one).
        click_choice(bob, lowest_choice(bob))
        seq = table.summary()["seq"]
        for page in pages:
            expect_live(page, timeout=RECONNECT)
            expect_seq(page, seq)
            expect_full_log(page, seq)
            assert_not_reloaded(page)

        click_choice(ann, lowest_choice(ann))
        seq = table.summary()["seq"]
        for page in pages:
            expect_seq(page, seq)
            expect_full_log(page, seq)
            assert_not_reloaded(page)

        events = httpx.get(f"{running.base}/api/tables/{table.id}/events", timeout=10).json()["events"]
        assert [e["seq"] for e in events] == list(range(1, seq + 1))
