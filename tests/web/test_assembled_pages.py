"""After any sequence of live updates, the page a browser assembles from its frames is the
page a fresh render gives (issue 10): seeded random games of Darkest Night and of every test
game, watched by a spectator, each seat and the game master, each page holding what the
websocket sent it (``HtmlStream``, as ``app.api.ws`` drives it) applied as htmx applies it
(``tests/web/page_model.py``). Renders are decided on data (``app/web/parts.py``); these
tests are what proves that a part's slice covers everything it shows."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.http.tokens import cookie_name
from app.kernel.registry import register, unregister
from app.kernel.types import SPECTATOR, Viewer
from app.main import create_app
from app.store.migrate import upgrade
from app.web import fragments
from app.web.stream import HtmlStream
from tests.conftest import TEST_GAMES, make_settings
from tests.support.beacons import BEACONS
from tests.support.tables import auth
from tests.support.vigil import VIGIL
from tests.web.page_model import Page
from tests.web.waymarks import WAYMARKS

EXTRA = ("tests.support.beacons", "tests.web.waymarks")
TABLES = {
    "darkest_night": {"seats": ["Ann", "<b>Bo</b>", "Cy"], "options": {}},
    "lanterns": {"seats": ["Ann", "Bo"], "options": {}},
    "vigil": {"seats": ["Ann", "Bo"], "options": {"nights": 2}},
    "beacons": {"seats": ["Ann", "Bo"], "options": {"colour": ["jade", "amber"]}},
    "waymarks": {"seats": ["Ann", "Bo"], "options": {}},
}


@pytest.fixture
def served(sqlite_url: str) -> Iterator[TestClient]:
    """An app serving Darkest Night and every test game."""
    upgrade(sqlite_url)
    settings = make_settings(sqlite_url, extra_games=(*TEST_GAMES, *EXTRA))
    games = (BEACONS, WAYMARKS, VIGIL)
    try:
        app = create_app(settings)
        for game in games:
            register(game)
        with TestClient(app) as client:
            yield client
    finally:
        for game in games:
            unregister(game.name)


@dataclass
class Watcher:
    """One browser page: how it is opened, its viewer and stream, and the page it holds."""

    url: str
    cookie: str | None
    viewer: Viewer
    stream: HtmlStream
    page: Page
    last: int


class Table:
    def __init__(self, client: TestClient, game: str, seed: str) -> None:
        self.client = client
        self.app: Any = client.app
        self.hub = self.app.state.hub
        spec = TABLES[game]
        body = {
            "game": game,
            "seed": seed,
            "options": spec["options"],
            "seats": [{"name": n} for n in spec["seats"]],
        }
        response = client.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        created = response.json()
        self.id: str = created["table_id"]
        self.tokens: dict[Any, str] = {s["seat"]: s["token"] for s in created["seats"]}
        self.tokens["gm"] = created["gm_token"]
        self.session = self.call(self.hub.session, self.id)
        self.watchers = [self.watch(f"/t/{self.id}/watch", None)]
        self.watchers += [self.watch(f"/t/{self.id}", token) for s, token in self.tokens.items() if s != "gm"]
        self.watchers.append(self.watch(f"/t/{self.id}/gm", self.tokens["gm"]))

    def call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        return self.client.portal.call(lambda: fn(*args, **kwargs))

    def get_page(self, url: str, cookie: str | None) -> Page:
        headers = {"cookie": f"{cookie_name(self.id)}={cookie}"} if cookie else {}
        response = self.client.get(url, headers=headers)
        assert response.status_code == 200, response.text
        return Page(response.text)

    def watch(self, url: str, cookie: str | None) -> Watcher:
        page = self.get_page(url, cookie)
        viewer = SPECTATOR if cookie is None else self.call(self.hub.viewer, self.id, [cookie], lenient=True)
        assert cookie is None or viewer.role in ("seat", "gm"), viewer
        stream = HtmlStream(self.app, self.hub, self.session, viewer)
        watcher = Watcher(url, cookie, viewer, stream, page, page.seq)
        self.deliver(watcher, opening=True)
        return watcher

    def deliver(self, watcher: Watcher, *, opening: bool = False) -> None:
        """What the websocket sends this page for the commits since it last heard: one frame
        at most per wake-up, each commit's log lines once."""
        upto = self.session.seq
        events = self.call(self.session.events_between, watcher.last, upto)
        frames = watcher.stream.opening(events) if opening else watcher.stream.update(events)
        assert len(frames) <= 1
        for frame in frames:
            watcher.page.apply(frame)
        watcher.last = upto
        if frames or not opening:
            assert watcher.page.seq == upto, (watcher.url, watcher.page.seq, upto)

    def step(self, rng: random.Random) -> bool:
        """One seeded random legal command of anyone who may act (a chat line now and then);
        False once nobody can."""
        offers = []
        for watcher in self.watchers:
            if watcher.viewer.role == "spectator":
                continue
            for prompt in self.hub.view_payload(self.session, watcher.viewer)["prompts"]:
                token = self.tokens["gm" if prompt["seat"] == "gm" else prompt["seat"]]
                offers += [(prompt["required"], token, c["command"]) for c in prompt["choices"]]
        if not offers or self.session.outcome is not None:
            return False
        if rng.random() < 0.06:
            seat = rng.choice([s for s in self.tokens if s != "gm"])
            text = {"text": "hi <all>"}
            command = {"command_id": f"chat-{rng.random()}", "seat": seat, "type": "chat", "args": text}
            token = self.tokens[seat]
        else:
            required = [o for o in offers if o[0]]
            _, token, command = rng.choice(required if required and rng.random() < 0.85 else offers)
        response = self.client.post(f"/api/tables/{self.id}/commands", json=command, headers=auth(token))
        assert response.status_code == 200, (command, response.text)
        return True

    def check(self, fresh: bool) -> None:
        """Each page as assembled equals the page a browser opening it now gets (rendered
        from nothing when ``fresh``: no render of any part reused)."""
        for watcher in self.watchers:
            if fresh:
                fragments.forget_renders(self.session)
            now = self.get_page(watcher.url, watcher.cookie)
            assert now.seq == watcher.page.seq
            assembled, served = watcher.page.live_html(), now.live_html()
            assert assembled.keys() == served.keys(), watcher.url
            for key in served:
                assert assembled[key] == served[key], (watcher.url, key, assembled[key], served[key])
            lines = watcher.page.log_seqs()
            assert len(lines) == len(set(lines)), "a log line came twice"
            assert lines == sorted(lines, reverse=True), "log lines out of order"
            # A page shows the newest lines only (LOG_PAGE); its oldest may then name who acted
            # where the whole log does not (that command began before the page's first line).
            served_lines = now.log_lines()
            assert watcher.page.log_seqs()[: len(served_lines)] == now.log_seqs()
            assert watcher.page.log_lines()[: len(served_lines) - 1] == served_lines[:-1]
            assert watcher.page.seqs == sorted(set(watcher.page.seqs)), "a frame came twice or late"


def play(client: TestClient, game: str, seed: str, steps: int) -> Table:
    rng = random.Random(seed)
    table = Table(client, game, seed)
    table.check(fresh=True)
    for _ in range(steps):
        if not table.step(rng):
            break
        for watcher in table.watchers:
            table.deliver(watcher)
        table.check(fresh=rng.random() < 0.5)
    return table


@pytest.mark.parametrize("seed", ["dn-a", "dn-b"])
def test_darkest_night_pages_equal_a_fresh_render_after_any_updates(served: TestClient, seed: str) -> None:
    table = play(served, "darkest_night", seed, steps=45)
    assert table.session.seq > 40
    spectator = table.watchers[0].page
    assert spectator.frames >= 40  # one per commit: the seq marker moves every time


@pytest.mark.parametrize("game", ["lanterns", "vigil", "beacons", "waymarks"])
def test_test_games_pages_equal_a_fresh_render_after_any_updates(served: TestClient, game: str) -> None:
    table = play(served, game, f"{game}-pages", steps=30)
    assert table.session.seq > 5


# -- template calls (app.web.templating.ViewContext) -------------------------------------------


def block_env() -> Any:
    from jinja2 import DictLoader

    from app.web.parts import PartExtension
    from app.web.templating import ViewEnvironment

    return ViewEnvironment(loader=DictLoader({}), extensions=[PartExtension], autoescape=True)


def test_template_calls_keep_jinjas_meaning() -> None:
    """``ViewContext.call``'s short way: macros and plain functions are called directly; a
    function marked ``pass_context`` still gets the context; StopIteration is undefined."""
    from jinja2 import pass_context

    from app.web.templating import ViewContext

    @pass_context
    def who(context: Any) -> str:
        return str(context.get("name"))

    def stop() -> None:
        raise StopIteration

    env = block_env()
    assert env.context_class is ViewContext
    source = (
        "{% macro twice(x) %}{{ x }}{{ x }}{% endmacro %}{{ twice(name) }} {{ who() }} "
        "{{ 'abc'.upper() }} {{ stop() is undefined }}{% for i in [1] %}{{ who() }}{% endfor %}"
    )
    assert env.from_string(source).render(name="Bo", who=who, stop=stop) == "BoBo Bo ABC TrueBo"


def test_block_contexts_and_plain_filters_keep_jinjas_meaning() -> None:
    """``templating.block_context`` lays a template's globals under the context as Jinja's
    ``new_context`` does, and the filters registered without their async wrapper answer as
    Jinja's own."""
    from jinja2 import Environment

    from app.web.templating import block_context, make_environment

    env = make_environment()
    template = env.get_template("table.html")
    ours, jinjas = block_context(template, {"seq": 3}), template.new_context({"seq": 3})
    assert dict(ours.parent) == dict(jinjas.parent)
    assert ours.globals_keys == jinjas.globals_keys and ours.blocks.keys() == jinjas.blocks.keys()
    source = (
        "{{ xs|select('>', 1)|list }} {{ xs|reject('>', 1)|join(',') }} {{ rows|map(attribute='n')|sum }} "
        "{{ rows|selectattr('n')|first }} {{ rows|rejectattr('n')|list|length }} {{ xs|unique|list }} "
        "{{ xs|slice(2)|list }} {% for k, g in rows|groupby('n') %}{{ k }}{{ g|length }}{% endfor %}"
    )
    values = {"xs": [3, 1, 2, 3], "rows": [{"n": 0}, {"n": 2}, {"n": 2}]}
    plain = Environment(autoescape=True).from_string(source).render(values)
    assert env.from_string(source).render(values) == plain
    assert plain.startswith("[3, 2, 3] 1 4 {&#39;n&#39;: 2} 1 [3, 1, 2]")
