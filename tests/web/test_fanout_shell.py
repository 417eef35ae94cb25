"""The shell's fragments for a viewer are rendered again only when what they read changed
(issue 10, ``fragments.shell_nodes``): an idle seat or a spectator is handed its last render
while the table's turn stays where it was. That is right only because the status, prompts
and players fragments never read the view or the seq (only the seq marker reads the seq):
these tests hold the templates to it, and check the reused renders against fresh ones."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel.types import GAME_MASTER, SPECTATOR, Viewer
from app.main import create_app
from app.store.migrate import upgrade
from app.web import fragments
from app.web.stream import HtmlStream
from tests.conftest import make_settings
from tests.web.render_profile import new_table, play_one

VIEWERS = [*(Viewer("seat", frozenset({s})) for s in range(4)), SPECTATOR]


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url, snapshot_every=0))) as client:
        yield client


def fresh_shell(app: Any, ctx: dict[str, Any]) -> dict[str, str]:
    """The shell rendered from nothing (no table's renders reused)."""
    return {key: node.html() for key, node in fragments.shell_nodes(app.state.templates, ctx).items()}


def test_the_shell_reads_neither_the_view_nor_the_seq_but_in_the_seq_marker(client: TestClient) -> None:
    app: Any = client.app
    hub = app.state.hub
    session = new_table(client, "shell-reads")
    rng = random.Random("shell-reads")
    for _ in range(15):
        assert play_one(client, session, rng) is not None
        for viewer in VIEWERS:
            ctx = fragments.context(hub, session, viewer)
            shell = fresh_shell(app, ctx)
            other = fresh_shell(app, ctx | {"view": {"started": False}, "seq": ctx["seq"] + 1000})
            assert {k: v for k, v in other.items() if k != "seq"} == {
                k: v for k, v in shell.items() if k != "seq"
            }
            assert other["seq"] != shell["seq"]


def test_each_shell_fragment_reads_only_what_its_reuse_compares(client: TestClient) -> None:
    """``fragments.SHELL_READS`` names what each fragment reads: rendered from only those
    names of the context, it is the same HTML (a name it reads but does not list is then
    undefined, and its HTML differs or the render fails)."""
    app: Any = client.app
    hub = app.state.hub
    template = app.state.templates.get_template("table.html")
    session = new_table(client, "shell-reads-each")
    rng = random.Random("shell-reads-each")
    for _ in range(20):
        assert play_one(client, session, rng) is not None
        for viewer in [*VIEWERS, GAME_MASTER]:
            ctx = fragments.context(hub, session, viewer)
            shell = fresh_shell(app, ctx)
            for name, reads in fragments.SHELL_READS.items():
                only = {key: ctx[key] for key in reads}
                # The keys made of only those names: a part key missing something its part
                # reads would be made without it (and fail here, or render other HTML).
                given = {key: only.get(key) for key in ("viewer", "outcome", "names", "has_bot", "table_id")}
                lists = {key: only.get(key, []) for key in ("waiting_for", "prompts", "seats")}
                keyed = only | fragments.shell_keys(given | lists | {"campaign": only.get("campaign")})
                blocks = [(name, f"frag_{name}")]
                assert fragments.render_nodes(template, blocks, keyed, None)[name].html() == shell[name]


def test_reused_shells_are_the_fresh_render_and_idle_viewers_skip_the_templates(client: TestClient) -> None:
    app: Any = client.app
    hub = app.state.hub
    session = new_table(client, "shell-reuse")
    streams = [HtmlStream(app, hub, session, v) for v in VIEWERS]
    for stream in streams:
        stream.opening([])
    rng = random.Random("shell-reuse")
    reused = 0
    for _ in range(60):
        events = play_one(client, session, rng)
        if events is None:
            break
        held = {v: dict(fragments.renders_of(session).shells.get(v, {})) for v in VIEWERS}
        for stream in streams:
            stream.update(events)
        for viewer in VIEWERS:
            ctx = fragments.context(hub, session, viewer)
            live = fragments.shell_nodes(app.state.templates, ctx, session)
            assert {k: n.html() for k, n in live.items()} == fresh_shell(app, ctx)
            now = fragments.renders_of(session).shells[viewer]
            reused += sum(held[viewer][name][1] is now[name][1] for name in held[viewer] or ())
    assert reused >= 60, "a fragment whose reads did not change is handed its last render"
