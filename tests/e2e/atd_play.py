"""A quick, deterministic Attack the Darkness player for the browser tests: the choice it
makes from an API view's prompts, and a driver that plays a table through the REST API
with it (``POST /api/tables/{id}/commands``). The browser tests click some of its choices
on the pages and let it play the routine turns between, so a table plays the same way
with the same seed whatever was clicked; ``python -m tests.e2e.atd_play`` plays tables in
process to find a seed whose first moments the tests need come early.

The player: moves next to the nearest enemy, attacks the weakest one in reach with its
first attack card, pays with the first resource cards offered, defends with the cheapest
Defense card, rests when the room is cleared and keeps what it finds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

Command = dict[str, Any]
Payload = dict[str, Any]


class Http(Protocol):
    def get(self, url: str, *, headers: dict[str, str]) -> Any: ...
    def post(self, url: str, *, json: Any, headers: dict[str, str]) -> Any: ...


def chebyshev(a: list[int] | tuple[int, int], b: list[int] | tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def enemies_of(view: Payload, seat: Any) -> list[dict[str, Any]]:
    """The living enemies of ``seat`` (a character's monsters and Arena rivals; the game
    master's: the characters), each with its ``id`` as the choices name it."""
    chars = view["characters"]
    people = [
        {"id": f"c{c['seat']}", "pos": c["pos"], "hp": c["hp"], "team": c["team"]}
        for c in chars
        if c["pos"] and not c["unconscious"]
    ]
    if seat == "gm":
        return people
    if view["mode"] == "arena":
        team = chars[seat]["team"]
        return [p for p in people if p["team"] != team]
    return [m for m in view["monsters"] if m["hp"] > 0 and m["pos"]]


def _command(choice: dict[str, Any]) -> Command:
    return choice["command"]


def _of(choices: list[dict[str, Any]], *types: str) -> list[Command]:
    return [c["command"] for c in choices if c["command"]["type"] in types]


def _nearest(commands: list[Command], goals: list[list[int]]) -> Command:
    """The command whose square (``to``) comes closest to one of ``goals``."""
    return min(commands, key=lambda c: min((chebyshev(c["args"]["to"], g) for g in goals), default=0))


def quick_choice(
    choices: list[dict[str, Any]],
    view: Payload,
    seat: Any,
    avoid: frozenset[str] = frozenset(),
    explore: bool = False,
) -> Command:
    """The quick player's choice among ``choices`` (one prompt's, from the API); ``avoid``:
    the cards it could not pay for this turn; ``explore``: explore the room rather than
    rest when it is cleared."""
    kind = (view.get("waiting") or {}).get("kind")
    foes = enemies_of(view, seat)
    goals = [f["pos"] for f in foes]
    me = view["characters"][seat] if isinstance(seat, int) else None
    if kind == "act" and me is not None:
        speeds = _of(choices, "speed")
        near = any(chebyshev(me["pos"], g) <= 1 for g in goals)
        if speeds and goals and not near:
            return _nearest(speeds, goals)
        attacks = {h["id"] for h in me.get("hand", []) if "attack" in h.get("types", ())}
        plays = [c for c in _of(choices, "play") if c["args"]["card"] in attacks - avoid]
        if plays and near:
            return plays[0]
        ends = _of(choices, "end_turn")
        return next((c for c in ends if c["args"].get("discard")), ends[0]) if ends else _command(choices[0])
    if kind == "pay":
        done = _of(choices, "done")
        adds = _of(choices, "add")
        return (done or adds or _of(choices, "cancel") or [_command(choices[0])])[0]
    if kind == "target":
        hp = {f["id"]: f["hp"] for f in foes}
        targets = [c for c in _of(choices, "target") if c["args"].get("who") in hp]
        if targets:
            return min(targets, key=lambda c: hp[c["args"]["who"]])
        return _command(choices[-1])
    if kind == "defend":
        defences = _of(choices, "defend")
        cheap = [c for c in choices if c["command"]["type"] == "defend" and c["label"].endswith("(0)")]
        return _command(cheap[0]) if cheap else (defences or [_command(choices[-1])])[0]
    if kind == "gm_monster":
        attacks = _of(choices, "attack")
        moves = _of(choices, "move")
        near = any(
            chebyshev(m["pos"], g) <= 1 for m in view["monsters"] if m["id"] == _acting(view) for g in goals
        )
        if attacks:
            return attacks[0]
        if moves and goals and not near:
            return _nearest(moves, goals)
        return _of(choices, "done")[0]
    if kind == "move_to" and goals:
        return _nearest(_of(choices, "move"), goals)
    if kind == "gm_place" and goals:
        places = _of(choices, "place")
        return min(places, key=lambda c: abs(min(chebyshev(c["args"]["to"], g) for g in goals) - 3))
    if kind == "place_tile":
        return _snug_tile(_of(choices, "place_tile"), view)
    if kind == "gm_pick":
        done = _of(choices, "done")
        picks = [c for c in choices if c["command"]["type"] == "pick"]
        if done or not picks:
            return done[0]
        return _command(min(picks, key=lambda c: int(c["label"].rsplit("danger ", 1)[1].rstrip(")"))))
    if kind == "clear_room":
        revive = _of(choices, "revive")
        rests = [c for c in _of(choices, "rest") if not c["args"]["discard"] and not c["args"]["reshuffle"]]
        explores = [c for c in _of(choices, "explore") if not c["args"]["discard"]] if explore else []
        return (revive or explores or rests or [_command(choices[0])])[0]
    if kind == "explore":
        return (_of(choices, "flip") or _of(choices, "dig") or _of(choices, "stop"))[0]
    if kind == "trade":
        return (_of(choices, "done") or _of(choices, "accept") or [_command(choices[0])])[0]
    return _command(choices[0])


def _snug_tile(spots: list[Command], view: Payload) -> Command:
    """A tile spot that shares an edge with the map (AtD L248 allows a corner too), nearest
    the map's origin: a compact map."""
    open_squares = {tuple(int(v) for v in k.split(",")) for k in view["grid"]["open"]}

    def squares(args: dict[str, Any]) -> set[tuple[int, int]]:
        w, h = (3, 4) if args["o"] == "v" else (4, 3)
        return {(args["x"] + i, args["y"] + j) for i in range(w) for j in range(h)}

    def edge(args: dict[str, Any]) -> bool:
        return any((x + dx, y + dy) in open_squares for x, y in squares(args) for dx, dy in STEPS)

    snug = [c for c in spots if edge(c["args"])] or spots
    return min(snug, key=lambda c: abs(c["args"]["x"]) + abs(c["args"]["y"]))


STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _acting(view: Payload) -> str | None:
    """The monster whose turn the game master is deciding."""
    return ((view.get("waiting") or {}).get("monster") or {}).get("id")


@dataclass
class Driver:
    """Plays a table through the REST API: ``http`` is an ``httpx.Client`` on the server, or
    a ``TestClient`` in process (the seed search)."""

    http: Http
    table_id: str
    tokens: dict[Any, str]
    """Each seat's token, and the game master's under ``"gm"``."""
    unpaid: dict[Any, set[str]] = field(default_factory=dict)
    """Per seat, the cards it cancelled (could not pay) this turn: not tried again."""
    playing: dict[Any, str] = field(default_factory=dict)
    explorers: set[Any] = field(default_factory=set)
    """Seats that explore the next room they clear (once each), rather than rest."""

    @classmethod
    def of(cls, http: Http, created: dict[str, Any]) -> Driver:
        tokens: dict[Any, str] = {s["seat"]: s["token"] for s in created["seats"]}
        return cls(http, created["table_id"], tokens | {"gm": created["gm_token"]})

    def payload(self, seat: Any = "gm") -> Payload:
        response = self.http.get(
            f"/api/tables/{self.table_id}/view", headers={"Authorization": f"Bearer {self.tokens[seat]}"}
        )
        assert response.status_code == 200, response.text
        return response.json()

    def choices(self, seat: Any) -> tuple[list[dict[str, Any]], Payload]:
        payload = self.payload(seat)
        prompt = next(p for p in payload["prompts"] if p["seat"] == seat and p["choices"] and p["required"])
        return prompt["choices"], payload

    def next_move(self) -> tuple[Any, Command, Payload]:
        """The seat asked first, the quick player's command for it, and its view."""
        gm = self.payload()
        assert gm["outcome"] is None, "the game is over"
        seat = gm["waiting_for"][0]
        choices, payload = self.choices(seat)
        avoid = frozenset(self.unpaid.get(seat, ()))
        explore = seat in self.explorers
        return seat, quick_choice(choices, payload["view"], seat, avoid, explore), payload

    def send(self, seat: Any, command: Command) -> None:
        response = self.http.post(
            f"/api/tables/{self.table_id}/commands",
            json=command,
            headers={"Authorization": f"Bearer {self.tokens[seat]}"},
        )
        assert response.status_code == 200, response.text
        self.note(seat, command)

    def note(self, seat: Any, command: Command) -> None:
        """Remember what the quick player must not retry this turn (a command sent by
        ``send``, or clicked on a page)."""
        kind = command["type"]
        if kind == "play":
            self.playing[seat] = command["args"]["card"]
        elif kind == "cancel" and seat in self.playing:
            self.unpaid.setdefault(seat, set()).add(self.playing.pop(seat))
        elif kind == "end_turn":
            self.unpaid.pop(seat, None)
        elif kind == "explore":
            self.explorers.discard(seat)

    def play_until(self, until: Callable[[Payload], bool], limit: int = 600) -> Payload:
        """Play the quick player's moves until ``until`` holds for the game master's
        payload (``view``, ``waiting_for``, ``outcome``); that payload."""
        for _ in range(limit):
            gm = self.payload()
            if until(gm):
                return gm
            assert gm["outcome"] is None, f"the game ended first: {gm['outcome']}"
            seat, command, _ = self.next_move()
            self.send(seat, command)
        raise AssertionError("the wanted moment never came")


def waiting_kind(*kinds: str) -> Callable[[Payload], bool]:
    return lambda gm: (gm["view"].get("waiting") or {}).get("kind") in kinds


def search(options: dict[str, Any], names: list[str], seeds: list[str], stop: str = "") -> None:
    """Play a table of each seed in process with the quick player, to its end (or until the
    table waits for ``stop``, e.g. ``clear_room``), and print how many moves it took, the
    round it reached, the result and how many decisions of each kind each seat made: the
    browser tests pick a seed whose moments they need come early."""
    import tempfile
    from collections import Counter

    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.store.migrate import upgrade
    from tests.conftest import make_settings

    url = f"sqlite:///{tempfile.mkdtemp()}/search.db"
    upgrade(url)
    with TestClient(create_app(make_settings(url))) as client:
        for seed in seeds:
            body = {
                "game": "attack_the_darkness",
                "options": options,
                "seats": [{"name": n} for n in names],
                "seed": seed,
            }
            created = client.post("/api/tables", json=body)
            assert created.status_code == 201, created.text
            driver = Driver.of(client, created.json())
            kinds: Counter[str] = Counter()
            for _ in range(2000):
                gm = driver.payload()
                kind = (gm["view"].get("waiting") or {}).get("kind", "")
                if gm["outcome"] is not None or (stop and kind == stop):
                    break
                seat, command, _ = driver.next_move()
                kinds[f"{seat}:{kind}"] += 1
                driver.send(seat, command)
            result = gm["outcome"]["result"] if gm["outcome"] else kind
            moves = sum(kinds.values())
            print(
                seed, moves, f"round {gm['view']['round']}", result, dict(sorted(kinds.items())), flush=True
            )


if __name__ == "__main__":
    import argparse
    import json

    parser = argparse.ArgumentParser(description=search.__doc__)
    parser.add_argument("options", type=json.loads, help='the table options, e.g. \'{"mode": "arena"}\'')
    parser.add_argument("names", help="the seats' names, comma-separated")
    parser.add_argument("seeds", nargs="+")
    parser.add_argument("--stop", default="", help="stop when the table waits for this kind")
    args = parser.parse_args()
    search(args.options, args.names.split(","), args.seeds, args.stop)
