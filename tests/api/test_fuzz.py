"""Issue 8: a seeded fuzzer over table creation, commands, chat, import and the page
routes. Whatever arrives: never a 5xx, never a text/plain error, and a refused request
stores nothing. A few hundred cases per database in CI; ``UMBRA_FUZZ_CASES=5000`` for more,
``UMBRA_FUZZ_SEED`` to vary them."""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.hardening import keyed_client, resign, store_counts
from tests.support.tables import auth, create_body, first_choice

CASES = int(os.environ.get("UMBRA_FUZZ_CASES", "150"))
SEED = int(os.environ.get("UMBRA_FUZZ_SEED", "8"))
NASTY = ["", " ", "\x00", "\udc00", "\ud800\udc00", "😀", "<script>x</script>", "%00", "../", "a" * 5000,
         "\u202e", "null", "9" * 400, "gm", "-1", "chat", "undo", "\\u0000", "é", "\r\n"]  # fmt: skip


def nasty_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(10 if depth < 6 else 6)
    if kind == 0:
        return rng.choice(NASTY)
    if kind == 1:
        return rng.choice([0, 1, -1, 2**31, 2**63, 10**400, 3])
    if kind == 2:
        return rng.choice([0.5, float("nan"), float("inf"), -0.0, 1e308])
    if kind == 3:
        return rng.choice([None, True, False])
    if kind == 4:
        return "".join(rng.choice('ab\x00\udc00é😀{}[]"\\') for _ in range(rng.randrange(12)))
    if kind == 5:
        return rng.randrange(-3, 8)
    if kind in (6, 7):
        return [nasty_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {
        rng.choice(NASTY[:8] + ["seat", "type", "args", "text"]): nasty_value(rng, depth + 1)
        for _ in range(3)
    }


def mutate(rng: random.Random, doc: Any, depth: int = 0) -> Any:
    """``doc`` with one random change somewhere inside it."""
    doc = copy.deepcopy(doc)
    if not isinstance(doc, dict | list) or not doc or depth > 5 or rng.random() < 0.25:
        return nasty_value(rng)
    if isinstance(doc, dict):
        key = rng.choice(list(doc))
        action = rng.randrange(4)
        if action == 0:
            del doc[key]
        elif action == 1:
            doc[rng.choice(NASTY[:10])] = nasty_value(rng)
        else:
            doc[key] = mutate(rng, doc[key], depth + 1)
        return doc
    i = rng.randrange(len(doc))
    action = rng.randrange(4)
    if action == 0:
        del doc[i]
    elif action == 1:
        doc.insert(i, nasty_value(rng))
    else:
        doc[i] = mutate(rng, doc[i], depth + 1)
    return doc


def send(client: TestClient, method: str, path: str, body: Any = None, **kw: Any) -> Any:
    if body is None:
        return client.request(method, path, **kw)
    raw = json.dumps(body)  # NaN and lone surrogates travel as JSON allows them
    headers = {"content-type": "application/json"} | kw.pop("headers", {})
    return client.request(method, path, content=raw, headers=headers, **kw)


def form(**fields: str) -> dict[str, Any]:
    return {"data": fields}


def check(response: Any, path: str, what: Any) -> None:
    assert response.status_code < 500, (path, str(what)[:300], response.status_code, response.text[:300])
    kind = response.headers.get("content-type", "")
    assert not kind.startswith("text/plain"), (path, str(what)[:300], response.text[:300])
    if path.startswith("/api/") and response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"} and body["error"]["code"] and body["error"]["message"], body


@pytest.fixture
def fuzz_table(db_url: str) -> Any:
    with keyed_client(db_url) as client:
        table = client.post("/api/tables", json=create_body(seats=3)).json()
        tid, tokens = table["table_id"], [s["token"] for s in table["seats"]]
        for _ in range(4):  # a few real moves, so the export has substance
            seat = client.get(f"/api/tables/{tid}").json()["waiting_for"][0]
            view = client.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
            client.post(
                f"/api/tables/{tid}/commands", json=first_choice(view, seat), headers=auth(tokens[seat])
            )
        exported = client.get(f"/api/tables/{tid}/export", headers=auth(table["gm_token"])).json()
        client.get(table["seats"][0]["url"].replace("http://testserver", ""))  # a seat cookie
        yield client, db_url, table, exported


def test_fuzz_the_api_and_pages(fuzz_table: Any) -> None:
    client, db_url, table, exported = fuzz_table
    tid, token = table["table_id"], table["seats"][0]["token"]
    view = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
    command = view["prompts"][0]["choices"][0]["command"] if view["prompts"] else {
        "command_id": "c", "seat": 0, "type": "chat", "args": {"text": "hi"}}  # fmt: skip
    chat = {"command_id": "chat-1", "seat": 0, "type": "chat", "args": {"text": "hello"}}
    rng = random.Random(SEED)
    api, gm = f"/api/tables/{tid}/commands", {"headers": auth(table["gm_token"])}
    seat0 = {"headers": auth(token)}
    targets: list[tuple[str, Callable[[], tuple[str, str, Any, dict[str, Any]]]]] = [
        ("create", lambda: ("POST", "/api/tables", mutate(rng, create_body(seats=2)), {})),
        ("command", lambda: ("POST", api, mutate(rng, command), seat0)),
        ("chat", lambda: ("POST", api, mutate(rng, chat), seat0)),
        ("import", lambda: ("POST", "/api/tables/import", mutate(rng, exported), {})),
        ("import signed", lambda: ("POST", "/api/tables/import", resign(mutate(rng, exported)), {})),
        ("bot", lambda: ("POST", f"/api/tables/{tid}/seats/{rng.choice(['0', '9', '-1', 'x'])}/bot",
                         mutate(rng, {"on": True}), gm)),
        ("act", lambda: ("POST", f"/t/{tid}/act", None, form(command=json.dumps(mutate(rng, command))))),
        ("page chat", lambda: ("POST", f"/t/{tid}/chat", None,
                               form(seat=str(nasty_value(rng))[:50], text=str(nasty_value(rng))[:600]))),
        ("get", lambda: ("GET", rng.choice([f"/api/tables/{tid}/events?after=", f"/t/{tid}/replay?seq=",
                                            f"/t/{tid}/log?before=", f"/api/tables/{tid}/view?x="])
                         + str(rng.choice([-1, 10**30, "x", "%00", 3])), None, {})),
    ]  # fmt: skip
    for _ in range(CASES):
        name, make = rng.choice(targets)
        method, path, body, kw = make()
        if "data" in kw:  # a form: only what a browser can encode
            kw["data"] = {k: v.encode("utf-8", "replace").decode() for k, v in kw["data"].items()}
        before = store_counts(db_url)
        response = send(client, method, path, body, **kw)
        check(response, path, body if body is not None else kw)
        refused = response.status_code >= 400 or (path.startswith("/t/") and "flash-error" in response.text)
        if refused:
            assert store_counts(db_url) == before, (name, str(body)[:300], response.text[:300])
