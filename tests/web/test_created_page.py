"""Creating a table is POST-redirect-GET (issue 11): the lobby's POST answers 303 to the
"table is ready" page, a reload of that page shows the same table and creates none, and its
links travel in a short-lived HttpOnly cookie scoped to that page, never in a URL."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.support.hardening import store_counts

FORM = {"game": "lanterns", "seat": ["Ann", "Bo"], "name": "Friday"}


def test_the_lobby_post_redirects_to_a_page_that_reloads_without_a_second_table(
    client: TestClient, db_url: str
) -> None:
    before = store_counts(db_url)["tables"]
    posted = client.post("/lobby", data=FORM, follow_redirects=False)
    assert posted.status_code == 303
    location = posted.headers["location"]
    table_id = re.fullmatch(r"/lobby/created/(\w+)", location).group(1)  # type: ignore[union-attr]
    cookie = posted.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and f"Path={location}" in cookie
    assert "Max-Age=3600" in cookie
    assert store_counts(db_url)["tables"] == before + 1

    first = client.get(location)
    assert first.status_code == 200 and "table is ready" in first.text
    assert first.headers["cache-control"] == "no-store"
    links = re.findall(rf"/t/{table_id}/join/[\w-]+", first.text)
    assert len(set(links)) == 2
    assert re.search(rf"/t/{table_id}/gm/join/[\w-]+", first.text)
    assert ">Ann<" in first.text and ">Bo<" in first.text

    again = client.get(location)  # the reload
    assert again.status_code == 200 and again.text == first.text
    assert store_counts(db_url)["tables"] == before + 1
    # The tokens are never in a URL the server saw.
    assert "/join/" not in location and "token" not in location


def test_a_seat_link_opens_the_seat_after_the_redirect(client: TestClient) -> None:
    page = client.post("/lobby", data=FORM)  # followed: 303 then GET
    assert page.status_code == 200 and str(page.url).startswith("http://testserver/lobby/created/")
    seat_link = re.search(r"/t/\w+/join/[\w-]+", page.text).group(0)  # type: ignore[union-attr]
    seat = client.get(seat_link)
    assert seat.status_code == 200 and "Playing as" in seat.text


def test_another_browser_sees_no_links(client: TestClient) -> None:
    page = client.post("/lobby", data=FORM)
    table_id = re.search(r"/lobby/created/(\w+)", str(page.url)).group(1)  # type: ignore[union-attr]
    client.cookies.clear()
    stranger = client.get(f"/lobby/created/{table_id}")
    assert stranger.status_code == 410 and "/join/" not in stranger.text
    client.cookies.set(f"umbra_created_{table_id}", "aaa.bbb", path=f"/lobby/created/{table_id}")
    forged = client.get(f"/lobby/created/{table_id}")
    assert forged.status_code == 410 and "/join/" not in forged.text
    assert client.get("/lobby/created/nosuchtable").status_code == 404


def test_get_lobby_is_the_lobby_page(client: TestClient) -> None:
    page = client.get("/lobby")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "Start a table" in page.text and '<form method="post" action="/lobby"' in page.text
    chosen = client.get("/lobby", params={"game": "lanterns"})
    assert re.search(r'<option value="lanterns" selected', chosen.text)


def test_a_reload_shows_the_bot_switches_as_they_are_now(client: TestClient) -> None:
    page = client.post("/lobby", data=FORM)
    table_id = re.search(r"/lobby/created/(\w+)", str(page.url)).group(1)  # type: ignore[union-attr]
    gm_token = re.search(rf"/t/{table_id}/gm/join/([\w-]+)", page.text).group(1)  # type: ignore[union-attr]
    assert 'aria-label="Let the bot play Bo"' in page.text
    switched = client.post(
        f"/t/{table_id}/seats/1/bot", data={"on": "1", "reply": "toggle", "token": gm_token}
    )
    assert switched.status_code == 200, switched.text
    again = client.get(str(page.url))
    assert 'aria-label="Take Bo back from the bot"' in again.text
    assert 'aria-label="Let the bot play Ann"' in again.text


def test_the_ready_page_marks_who_plays_the_necromancer(client: TestClient) -> None:
    """Issue 11: the ready page says what each seat plays (DN 3.2, 20.3), and says it again
    on a reload."""
    form = {"game": "darkest_night", "seat": ["Ann", "Bo", "Cy"], "opt_necromancer_player": "on"}
    posted = client.post("/lobby", data=form, follow_redirects=False)
    assert posted.status_code == 303, posted.text
    for _ in range(2):
        page = client.get(posted.headers["location"]).text
        rows = re.findall(r'<li class="invite">\s*<span class="who">(.*?)</span>', page, flags=re.S)
        assert len(rows) == 4 and rows[3] == "Spectators"
        assert rows[2].startswith("Cy ") and "seat-role-necromancer" in rows[2]
        assert "plays the Necromancer (DN 20.3)." in rows[2]
        assert (
            "Necromancer" not in rows[0] + rows[1]
            and "chooses and plays" in rows[0]
            and "chooses and plays" in rows[1]
        )
        assert "Combined difficulty modifier" in page  # the rest of the summary, apart
