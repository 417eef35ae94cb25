"""Issue 23: a command matches an offered choice only when its arguments are equal as
JSON. Every example of the issue, through the public API on SQLite and PostgreSQL: a 4xx
JSON error that names what was expected, and the table's seq unchanged."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.api_play import ApiTable, as_json, mistyped
from tests.support.tables import auth


def refused_alike(table: ApiTable, seat: int, command: dict[str, Any], *codes: str) -> dict[str, Any]:
    """Send ``command``: it must be refused with a 422 (of one of ``codes``) and change nothing."""
    before = table.seq()
    response = table.send(seat, command)
    assert response.status_code == 422, (command, response.status_code, response.text)
    error = response.json()["error"]
    assert set(response.json()) == {"error"} and error["message"], response.text
    if codes:
        assert error["code"] in codes, (command, error)
    assert table.seq() == before, command
    return error  # type: ignore[no-any-return]


def with_args(command: dict[str, Any], args: dict[str, Any], tag: str) -> dict[str, Any]:
    """``command`` with other arguments, under a fresh command id."""
    fresh = hashlib.sha256(f"{command['command_id']}/{as_json(args)}/{tag}".encode()).hexdigest()[:24]
    return command | {"args": args, "command_id": f"bad-{fresh}"}


def test_dark_omen_give_gold_to_a_float_or_a_boolean_seat(client: TestClient) -> None:
    """``give_gold {"to": 1.0}`` was a 500, ``{"to": true}`` a 200 that stored
    ``HeroStats {"seat": true}`` for ever."""
    table = ApiTable.create(client, "dark_omen")
    seat, command = table.play_until("give_gold", random.Random(3))
    to = command["args"]["to"]
    assert type(to) is int
    for wrong in (float(to), to == 1, str(to)):
        error = refused_alike(table, seat, with_args(command, {"to": wrong}, repr(wrong)), "not_offered")
        assert as_json(command["args"]) in error["message"] or f'"to": {to}' in error["message"], error
    # The export is the log as stored (the events feed reads stored booleans back as numbers).
    stored = client.get(f"/api/tables/{table.tid}/export", headers=auth(table.gm_token)).json()["events"]
    assert stored and not [
        e for e in stored if any(type(e["data"].get(k)) in (bool, float) for k in ("seat", "to", "hero"))
    ]


def test_dark_omen_move_to_a_float_square(client: TestClient) -> None:
    table = ApiTable.create(client, "dark_omen")
    seat, command = table.play_until("move", random.Random(1))
    to = command["args"]["to"]
    refused_alike(table, seat, with_args(command, {"to": float(to)}, "f"), "not_offered")
    assert table.send(seat, command).status_code == 200  # the offered one still goes through


def test_dark_omen_commands_never_legal_are_a_422_not_a_lost_race(client: TestClient) -> None:
    """Issue 23: commands that were never legal (no grave to take belongings from in round
    1, loot, a token, a creature or an omen token that does not exist) are refused with the
    rule (422), not told as a race another hero won, and spend nothing."""
    api = ApiTable.create(client, "dark_omen")
    tid, tokens = api.tid, api.tokens
    view = client.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()
    seq = view["seq"]
    never = [
        ("take_belongings", {}),
        ("take", {"token": "l99.9"}),
        ("attack", {"creature": "c999"}),
        ("tend", {"prop": "nothing_here.1"}),
        ("join_team", {"leader": 1}),
    ]
    if view["view"]["heroes"][0]["at"] not in view["view"]["loot_face_down"]:
        never.append(("loot", {}))
    for i, (kind, args) in enumerate(never):
        for sent_seq in (seq, None):
            command = {"seat": 0, "type": kind, "args": args, "command_id": f"never-{i}-{sent_seq}"}
            if sent_seq is not None:
                command["seq"] = sent_seq
            response = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(tokens[0]))
            assert response.status_code == 422, (kind, response.text)
            assert response.json()["error"]["code"] in ("not_offered", "not_allowed"), response.text
    after = client.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()
    assert after["seq"] == seq and after["view"]["heroes"][0]["ap_left"] == 6


@pytest.mark.parametrize("leader", ["x", None, [1], {}, 1.0, True])
def test_dark_omen_join_team_with_a_leader_that_is_no_seat(client: TestClient, leader: Any) -> None:
    """``join_team {"leader": "x"}`` (or null, a list, an object) was a 500 (``int(...)``
    on the client's value in the game's refusal)."""
    table = ApiTable.create(client, "dark_omen")
    command = {"command_id": "join", "seat": 0, "type": "join_team", "args": {"leader": leader}}
    refused_alike(table, 0, command)


def test_darkest_night_mistyped_combat_option_and_auto_pass(client: TestClient) -> None:
    """``resolve_combat {"option": 0.0}`` was a 500; ``set_auto_pass {"on": 1}`` a 200."""
    table = ApiTable.create(client, "darkest_night")
    rng = random.Random(2)
    seat, auto = table.play_until("set_auto_pass", rng)
    on = auto["args"]["on"]
    for wrong in (int(on), float(on), "true"):
        refused_alike(table, seat, with_args(auto, {"on": wrong}, repr(wrong)), "not_offered")
    seat, combat = table.play_until("resolve_combat", rng, steps=800)
    option = combat["args"]["option"]
    refused_alike(
        table, seat, with_args(combat, combat["args"] | {"option": float(option)}, "f"), "not_offered"
    )
    refused_alike(
        table, seat, with_args(combat, combat["args"] | {"option": option == 1}, "b"), "not_offered"
    )


def test_attack_the_darkness_tile_as_a_float_and_a_card_as_an_object(client: TestClient) -> None:
    """``tile {"tile": 3.0}`` was a 200; ``play {"card": {}}`` (or a list) while a card is
    greyed out was a 500 (an unhashable key in the game's refusal)."""
    table = ApiTable.create(client, "attack_the_darkness")
    rng = random.Random(5)
    seat, tile = table.play_until("tile", rng)
    refused_alike(table, seat, with_args(tile, {"tile": float(tile["args"]["tile"])}, "f"), "not_offered")
    assert table.send(seat, tile).status_code == 200
    for _ in range(300):
        offered = table.offered()
        plays = [(s, c) for s, _, c in offered if c["type"] == "play"]
        greyed = [u for s, _ in plays[:1] for u in table.greyed(s) if u["type"] == "play"]
        if plays and greyed:
            break
        assert table.step(rng, offered)
    else:
        raise AssertionError("no turn with a greyed-out card came")
    seat, play = plays[0]
    for wrong in ({}, [], [play["args"]["card"]], None):
        error = refused_alike(
            table, seat, with_args(play, {"card": wrong}, type(wrong).__name__), "not_offered"
        )
        assert "expected one of" in error["message"] and greyed[0]["reason"] in error["message"], error


@pytest.mark.parametrize("game", ["darkest_night", "attack_the_darkness", "dark_omen"])
def test_every_argument_retyped_is_refused(client: TestClient, game: str) -> None:
    """Along a seeded game, every offered command with each argument given another JSON
    type (an integer as a decimal, a boolean or a text; a text as an object, a list or a
    number; a list as a text…) is a 422 that stores nothing."""
    table = ApiTable.create(client, game, seed=f"retyped-{game}")
    rng = random.Random(game)
    tried = 0
    for _ in range(12):
        offered = table.offered()
        with_arguments = [(s, c) for s, _, c in offered if c["args"]]
        for seat, command in rng.sample(with_arguments, min(2, len(with_arguments))):
            same_seat = {as_json([c["type"], c["args"]]) for s, _, c in offered if s == seat}
            for i, args in enumerate(mistyped(command["args"])):
                if as_json([command["type"], args]) in same_seat:
                    continue  # another offered choice (a null tactic is one of the ways)
                refused_alike(table, seat, with_args(command, args, f"m{i}"))
                tried += 1
        if not table.step(rng, offered):
            break
    assert tried >= 12, tried
