"""Issue 8, item 7: the status a client can act on, for bodies too large, too deep or
holding numbers too long to parse, on every route; never a 400 or a 500."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi.testclient import TestClient

from tests.support.hardening import store_counts
from tests.support.tables import create_body

MIB = 1 << 20


def chunks(total: int, size: int = 64 * 1024) -> Iterator[bytes]:
    yield b'{"game": "lanterns", "name": "'
    sent = 0
    while sent < total:
        yield b"x" * size
        sent += size
    yield b'"}'


def test_a_chunked_body_over_the_cap_is_413(client: TestClient, db_url: str) -> None:
    before = store_counts(db_url)
    for path, cap in (("/api/tables", MIB), ("/api/tables/import", 8 * MIB), ("/lobby", MIB)):
        response = client.post(path, content=chunks(cap + 1), headers={"content-type": "application/json"})
        assert response.status_code == 413, (path, response.text)
        assert response.json()["error"]["code"] == "too_large"
    assert store_counts(db_url) == before


def test_a_declared_length_over_the_cap_is_413(client: TestClient) -> None:
    response = client.post(
        "/api/tables", content=b"x" * (MIB + 10), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"


def test_json_nested_a_thousand_deep_is_422(client: TestClient, db_url: str) -> None:
    before = store_counts(db_url)
    for depth in (1000, 100_000):
        deep = "[" * depth + "]" * depth
        body = '{"game": "lanterns", "seats": [{"name": "a"}], "options": {"x": ' + deep + "}}"
        for path in ("/api/tables", "/api/tables/import", "/api/tables/nope/commands"):
            response = client.post(path, content=body, headers={"content-type": "application/json"})
            assert response.status_code == 422, (path, depth, response.text)
            assert response.json()["error"]["code"] == "too_complex"
    assert store_counts(db_url) == before


def test_moderate_nesting_is_judged_by_the_route(client: TestClient) -> None:
    body = create_body(seats=2) | {"options": {"target": [[[[[[1]]]]]]}}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 422 and response.json()["error"]["code"] in ("bad_option", "too_complex")


def test_a_number_of_five_thousand_digits_in_the_lobby_is_422(client: TestClient, db_url: str) -> None:
    before = store_counts(db_url)
    huge = "9" * 5000
    form = {"game": "darkest_night", "seat": ["Ann", "Bo"], "opt_hero_seats": [huge, "0"], "name": ""}
    assert client.post("/lobby", data=form).status_code == 422
    summary = client.post("/lobby/summary", data=form)
    assert summary.status_code == 200 and "seat" in summary.text.lower()
    lantern_form = {"game": "lanterns", "seat": ["Ann"], "opt_target": huge}
    assert client.post("/lobby", data=lantern_form).status_code == 422
    chat = client.post("/t/nope/chat", data={"seat": huge, "text": "hi"})
    assert chat.status_code in (403, 404)
    assert store_counts(db_url) == before


def test_bytes_that_are_not_utf8_are_422(client: TestClient) -> None:
    response = client.post(
        "/api/tables", content=b'{"game": "\xff\xfe"}', headers={"content-type": "application/json"}
    )
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request"
