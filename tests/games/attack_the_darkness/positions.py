"""Small positions and readings for the rule tests (``test_rules_*.py``), built only on
the harness (``Table``, ``craft``, ``card``, ``hand``, ``monster``, ``send``, ``choices``,
``run``), on the game's published events and on its view's JSON: never on the state's
internals, which are free to change shape.

A position the harness cannot craft (a wound, a status, a piece of equipment, an empty
deck) is made by folding the very event the game emits when it happens: the event schema
is the game's contract (``event_schema.json``), so these stay true whatever the state
looks like inside."""

from __future__ import annotations

from typing import Any

from app.kernel import table as kernel
from app.kernel.types import Event, Viewer
from tests.games.attack_the_darkness.harness import GAME, C, Table

ROW = [(0, 0, "h"), (4, 0, "h"), (8, 0, "h")]
"""Three tiles side by side: an open strip 12 squares wide (x 0-11) and 3 tall (y 0-2)."""
GAP = [(0, 0, "h"), (5, 0, "h")]
"""Two tiles with a column of wall between them: x 0-3 and x 5-8, y 0-2 (AtD L101)."""
FAR = (11, 2)
"""A corner of ``ROW`` far from the fight: a monster there keeps the encounter going."""


# -- crafting --------------------------------------------------------------------------------------


def craft(
    t: Table,
    tiles: list[tuple[int, int, str]],
    places: dict[int, tuple[int, int]],
    *monsters: tuple[Any, ...],
) -> list[str]:
    """``Table.craft`` with ``monsters`` (each ``(card, square)`` or ``(card, square, hp)``)
    placed, then seat 0's action step asked afresh with nothing queued after it (a test
    reads one turn: its end goes straight to the round's scheduling, no monster phase);
    returns the monsters' ids. The ``act`` step runs once the monsters stand, or the
    encounter would be won on the spot (AtD L265)."""
    t.craft(tiles, places)
    ids = [t.monster(*m) for m in monsters]
    t.run({"op": "act", "seat": 0})
    return ids


# -- readings --------------------------------------------------------------------------------------


def view(t: Table, seat: int = 0) -> dict[str, Any]:
    """The table as ``seat``'s player sees it."""
    return GAME.view(t.state, Viewer("seat", frozenset({seat})))


def hero(t: Table, seat: int = 0) -> dict[str, Any]:
    """``seat``'s character as its own player sees it (hand included)."""
    return view(t, seat)["characters"][seat]


def foe(t: Table, mid: str) -> dict[str, Any] | None:
    """A monster as the table sees it, or None once it is dead and removed (AtD L72)."""
    return next((m for m in view(t)["monsters"] if m["id"] == mid), None)


def hp(t: Table, who: str) -> int:
    """A combatant's HP: ``"c0"`` for seat 0's character, else a monster id (0 if gone)."""
    if who.startswith("c"):
        return int(hero(t, int(who[1:]))["hp"])
    m = foe(t, who)
    return 0 if m is None else int(m["hp"])


def where(t: Table, who: str) -> list[int] | None:
    if who.startswith("c"):
        return hero(t, int(who[1:]))["pos"]
    m = foe(t, who)
    return None if m is None else m["pos"]


def hand(t: Table, seat: int = 0) -> list[str]:
    """The card ids in ``seat``'s hand, actions first."""
    return [c["card"] for c in hero(t, seat)["hand"]]


def discards(t: Table, seat: int = 0) -> list[str]:
    """The names of the cards in ``seat``'s two discard piles."""
    h = hero(t, seat)
    return [name for _, name in h["action_discard"] + h["resource_discard"]]


def waiting(t: Table) -> str | None:
    """The kind of the question the table waits on."""
    w = view(t)["waiting"]
    return None if w is None else w["kind"]


def kinds(t: Table, seat: Any = 0) -> set[str]:
    """The kinds of command offered to ``seat``."""
    return {kind for kind, _ in t.choices(seat)}


def offered(t: Table, kind: str, seat: Any = 0) -> list[dict[str, Any]]:
    """The arguments of every ``kind`` command offered to ``seat``."""
    return [args for k, args in t.choices(seat) if k == kind]


def squares(t: Table, kind: str = "speed", seat: Any = 0) -> set[tuple[int, int]]:
    """The squares offered to ``seat`` by ``kind`` choices (a speed move, a move, a push)."""
    return {(a["to"][0], a["to"][1]) for a in offered(t, kind, seat)}


def playable(t: Table, seat: int = 0) -> set[str]:
    """The card ids ``seat`` is offered to play now."""
    ids = {c["id"]: c["card"] for c in hero(t, seat)["hand"]}
    return {ids[a["card"]] for a in offered(t, "play", seat)}


def targets(t: Table, seat: int = 0) -> set[str]:
    """Who ``seat`` is offered as the next target."""
    return {a["who"] for a in offered(t, "target", seat)}


def of_type(events: list[Event], type_: str) -> list[dict[str, Any]]:
    """The data of every event of ``type_``."""
    return [e.data for e in events if e.type == type_]


def damage_to(events: list[Event], who: str) -> list[int]:
    """The damage each ``Damaged`` event dealt ``who``, in order (after saves)."""
    return [d["amount"] for d in of_type(events, "Damaged") if d["who"] == who]


# -- positions made by folding the game's own events -----------------------------------------------


def fold(t: Table, type_: str, **data: Any) -> None:
    """The table as if the game had emitted this event (the published event schema)."""
    event = Event(type_, data)
    t.state = kernel.fold_all(GAME, t.state, [event])
    t.events.append(event)


def pack(t: Table, card: str, *squares: tuple[int, int]) -> list[str]:
    """One monster card drawn with a set of monsters, one on each square (AtD L254,
    L213): a single entry at the left of the line; returns the monsters' ids."""
    first = 100 + len([e for e in t.events if e.type == "MonstersEntered"]) * 10
    ids = [f"m{first + k}" for k in range(len(squares))]
    monsters = [
        {"id": mid, "square": list(sq), "hp": C.monsters[card].hp}
        for mid, sq in zip(ids, squares, strict=True)
    ]
    fold(
        t,
        "MonstersEntered",
        entry=f"L{first}",
        card=card,
        cards=[],
        monsters=monsters,
        at_left_of=None,
        name=C.monsters[card].name,
    )
    return ids


def wound(t: Table, seat: int, n: int) -> None:
    """``seat``'s character loses ``n`` HP (not to 0: see ``knock_out``)."""
    now = hp(t, f"c{seat}")
    assert 0 < n < now, "a wound leaves the character conscious"
    fold(t, "Damaged", who=f"c{seat}", amount=n, saved=0, hp=now - n, defended=False, source="")


def knock_out(t: Table, seat: int) -> None:
    """``seat``'s character drops to 0 HP: unconscious, its hand discarded (AtD L69)."""
    now = hp(t, f"c{seat}")
    fold(t, "Damaged", who=f"c{seat}", amount=now, saved=0, hp=0, defended=False, source="")
    fold(t, "KnockedOut", seat=seat, discarded=[])


def afflict(t: Table, who: str, status: str, rounds: int = 1, by: int | None = 0) -> None:
    """``who`` is ``status`` ("stunned", "immobilized", "dominated", "pressure") for
    ``rounds`` more rounds, as a card played by seat ``by`` makes it (AtD L73-75)."""
    until = view(t)["round"] + rounds
    fold(t, "StatusSet", who=who, status=status, until=until, by=by)


def equip(t: Table, seat: int, card: str) -> str:
    """``seat`` holds a copy of the equipment ``card`` (kept as from an explored tile,
    AtD L280); returns the item's id. The copies are named in the game's opening event."""
    names = t.events[0].data["dungeon_cards"]
    held = {i for ch in view(t)["characters"] for i in (e["id"] for e in ch["equipment"])}
    item = next(f"d{k}" for k, c in enumerate(names) if c == card and f"d{k}" not in held)
    fold(t, "EquipmentKept", seat=seat, card=item, id=card, dropped=[])
    return item


def advance(t: Table, seat: int, card: str) -> None:
    """``seat`` keeps the advancement ``card`` (AtD L284), its effects applied."""
    names = t.events[0].data["advancement_cards"]
    held = {a["id"] for ch in view(t)["characters"] for a in ch["advancements"]}
    inst = next(f"v{k}" for k, c in enumerate(names) if c == card and f"v{k}" not in held)
    effects = [dict(e) for e in C.advancements[card].effects]
    fold(t, "AdvancementKept", seat=seat, card=inst, id=card, effects=effects)


def empty_deck(t: Table, seat: int, deck: str = "actions") -> None:
    """``seat`` has drawn every card of one deck; the hand is then emptied into the
    discards (the deck stays empty: the next draw from it fatigues, AtD L70)."""
    left = hero(t, seat)["action_deck" if deck == "actions" else "resource_deck"]
    fold(
        t,
        "CardsDrawn",
        seat=seat,
        n_actions=left if deck == "actions" else 0,
        n_resources=left if deck == "resources" else 0,
        actions=[],
        resources=[],
    )
    t.hand(seat)


# -- playing ---------------------------------------------------------------------------------------


def declare(t: Table, seat: int, card: str, *rcs: str, discard: tuple[str, ...] = ()) -> list[Event]:
    """``seat`` plays ``card`` powered by ``rcs`` (AtD L143), then discards ``discard`` for
    the conditions (AtD L182): every step an offered command."""
    events = t.send(seat, "play", card=card)
    if waiting(t) == "confirm_play":  # nothing to hit: played anyway (AtD L157)
        events += t.send(seat, "play")
    for rc in rcs:
        events += t.send(seat, "add", rc=rc)
    events += t.send(seat, "done")
    for c in discard:
        events += t.send(seat, "discard", card=c)
    return events


def pass_defences(t: Table, events: list[Event]) -> list[Event]:
    """Every defence window now open is passed (AtD L151): the attacks land."""
    while waiting(t) == "defend":
        events = events + t.send(view(t)["waiting"]["seats"][0], "pass")
    return events


def defend(t: Table, seat: int, card: str, *rcs: str) -> list[Event]:
    """In a defence window (AtD L151), ``seat`` plays the Defense ``card`` with ``rcs``."""
    events = t.send(seat, "defend", card=card)
    for rc in rcs:
        events += t.send(seat, "add", rc=rc)
    return events + t.send(seat, "done")
