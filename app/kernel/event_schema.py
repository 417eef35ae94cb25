"""The JSON shape of each event type a game writes: which fields its data has and which
JSON types each may hold (issue 23, "stored bad values").

A game's schema is ``event_schema.json`` beside its module, learnt from many seeded games
of random legal commands and the golden games (``make event-schemas`` writes them with
``umbra event-schema <game>``; review the diff as you would a migration). It serves two ends:

- **no bad value is written**: before an append, a mistyped number (a boolean, a decimal
  or a text where the field holds whole numbers, ``HeroStats {"seat": true}``) is refused
  (``check_append``), in every process, which logs what else the schema has not seen;
  conformance runs refuse any difference (``check(..., strict=True)``);
- **stored bad values still load**: an event stored before the check, with ``true`` or
  ``1.0`` where the schema has only whole numbers, is read back with ``1`` (``normalise``,
  applied by the kernel wherever a stored event is read, after the game's own upcast).

Field types are JSON's: ``int`` (a whole number, never a boolean), ``float``, ``bool``,
``str``, ``null``, ``object`` and ``list``; a list's items add ``list:<type>``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from app.kernel.history import PLATFORM_PREFIX
from app.kernel.types import Event

FILE_NAME = "event_schema.json"
KINDS = {
    bool: "bool",
    int: "int",
    float: "float",
    str: "str",
    type(None): "null",
    dict: "object",
    list: "list",
}
_WHOLE = frozenset({"int"})
_MISTYPED_NUMBERS = frozenset({"bool", "float", "str", "list:bool", "list:float", "list:str"})
_NUMBER_OF = {k: ("list:int" if k.startswith("list:") else "int") for k in _MISTYPED_NUMBERS}
"""A kind a whole number is mistaken for, and the kind the field must hold for it to be one."""
_WHOLE_ITEMS = frozenset({"list", "list:int"})


class EventSchemaError(ValueError):
    """An event about to be written does not fit its type's schema: a bug in the game that
    wrote it (nothing is appended; the message names the event, field and types)."""


def kind(value: Any) -> str:
    """The JSON type of ``value`` (a tuple is a list, as JSON writes it)."""
    return KINDS.get(type(value)) or ("list" if isinstance(value, tuple) else type(value).__name__)


def kinds_of(value: Any) -> set[str]:
    """``kind(value)``, and for a list the kinds of its items as ``list:<kind>``."""
    found = {kind(value)}
    if isinstance(value, list | tuple):
        found.update(f"list:{kind(item)}" for item in value)
    return found


@dataclass(frozen=True, slots=True)
class EventShape:
    """One event type: its version and, per field, the JSON types it may hold."""

    v: int
    fields: dict[str, frozenset[str]]
    whole: tuple[str, ...] = ()
    """The fields that only ever hold a whole number."""
    whole_items: tuple[str, ...] = ()
    """The fields that only ever hold a list of whole numbers."""

    @classmethod
    def of(cls, v: int, fields: dict[str, frozenset[str]]) -> EventShape:
        whole = tuple(name for name, kinds in fields.items() if kinds == _WHOLE)
        items = tuple(name for name, kinds in fields.items() if kinds == _WHOLE_ITEMS)
        return cls(v, fields, whole, items)


Schema = dict[str, EventShape]


def path_for(game: Any) -> Path | None:
    """Where ``game``'s schema file lives: beside the module that defines its class."""
    return _path_of_class(type(game))


def _path_of_class(game_class: type) -> Path | None:
    where = getattr(sys.modules.get(game_class.__module__), "__file__", None)
    return Path(where).with_name(FILE_NAME) if where else None


def schema_of(game: Any) -> Schema | None:
    """``game``'s event schema, or None for a game that ships none (it is not checked)."""
    return _schema_of_class(type(game))


@cache
def _schema_of_class(game_class: type) -> Schema | None:
    path = _path_of_class(game_class)
    if path is None:
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    return {
        name: EventShape.of(int(entry["v"]), {f: frozenset(k) for f, k in entry["fields"].items()})
        for name, entry in raw["events"].items()
    }


def problems(schema: Schema, event: Event, *, strict: bool) -> list[str]:
    """How ``event`` differs from ``schema``. ``strict``: every difference (a type or a field
    the schema has not seen, a JSON type a field never held). Otherwise only a mistyped
    number: a boolean, a decimal or a text where the field holds whole numbers and never
    held that type (``HeroStats {"seat": true}``), in lists too."""
    return [text for text, mistyped in _differences(schema, event) if strict or mistyped]


def _differences(schema: Schema, event: Event) -> Iterator[tuple[str, bool]]:
    """Each difference of ``event`` from ``schema``, and whether it is a mistyped number."""
    shape = schema.get(event.type)
    if shape is None:
        yield f"{event.type}: no such event type in the schema", False
        return
    for name, value in event.data.items():
        allowed = shape.fields.get(name)
        if allowed is None:
            yield f"{event.type}.{name}: no such field in the schema", False
            continue
        extra = kinds_of(value) - allowed
        if extra:
            shown = json.dumps(value, default=str)[:60]
            held = " or ".join(sorted(allowed))
            mistyped = any(k in _MISTYPED_NUMBERS and _NUMBER_OF[k] in allowed for k in extra)
            yield (
                f"{event.type}.{name}: {shown} is {', '.join(sorted(extra))}, where it holds {held}",
                mistyped,
            )


def check(game: Any, events: Iterable[Event], *, strict: bool = False) -> None:
    """Refuse (``EventSchemaError``) events that do not fit ``game``'s schema: a mistyped
    number always, every difference when ``strict`` (conformance runs)."""
    schema = schema_of(game)
    if schema is None:
        return
    for event in events:
        found = problems(schema, event, strict=strict)
        if found:
            raise EventSchemaError("; ".join(found))


def check_append(game: Any, events: Iterable[Event]) -> list[str]:
    """Before an append, in one pass over ``events``: refuse a mistyped number
    (``EventSchemaError``), and return what else the schema has not seen (a rare type,
    field or JSON type the seeded games never met), which a serving process logs. The
    platform's own events (``table.*``: pace, strength, chat, undo) are not the game's: the
    kernel checks them (``history``), and no game's schema learns them."""
    schema = schema_of(game)
    if schema is None:
        return []
    own_events = (event for event in events if not event.type.startswith(PLATFORM_PREFIX))
    found = [d for event in own_events for d in _differences(schema, event)]
    mistyped = [text for text, bad in found if bad]
    if mistyped:
        raise EventSchemaError("; ".join(mistyped))
    return [text for text, _ in found]


def normalise(schema: Schema | None, event: Event) -> Event:
    """``event`` with each whole-number field stored as a boolean or a whole decimal read
    back as the whole number (``true`` → 1, ``2.0`` → 2), in lists too; the very event
    when nothing needs it (most events, always in a log written since the check)."""
    if schema is None:
        return event
    shape = schema.get(event.type)
    if shape is None:
        return event
    data = event.data
    fixed: dict[str, Any] | None = None
    for name in shape.whole:
        value = data.get(name)
        if value is not None and type(value) is not int and _is_whole(value):
            fixed = dict(data) if fixed is None else fixed
            fixed[name] = int(value)
    for name in shape.whole_items:
        value = data.get(name)
        if isinstance(value, list) and any(type(item) is not int and _is_whole(item) for item in value):
            fixed = dict(data) if fixed is None else fixed
            fixed[name] = [int(item) if _is_whole(item) else item for item in value]
    return event if fixed is None else Event(event.type, fixed, event.v)


def _is_whole(value: Any) -> bool:
    return type(value) is bool or type(value) is int or (type(value) is float and value.is_integer())


# -- learning a schema -------------------------------------------------------------------------


def learn(events: Iterable[Event], versions: dict[str, int], into: dict[str, dict[str, set[str]]]) -> None:
    """Add what ``events`` hold to ``into`` (type → field → kinds), at today's versions."""
    for event in events:
        if versions.get(event.type) != event.v:
            continue  # an older version: upcast before it is learnt
        fields = into.setdefault(event.type, {})
        for name, value in event.data.items():
            fields.setdefault(name, set()).update(kinds_of(value))


def dump(game_name: str, learnt: dict[str, dict[str, set[str]]], versions: dict[str, int]) -> str:
    events = {
        name: {"v": versions[name], "fields": {f: sorted(k) for f, k in sorted(fields.items())}}
        for name, fields in sorted(learnt.items())
    }
    return json.dumps({"game": game_name, "events": events}, indent=1, sort_keys=True) + "\n"


def golden_events(game_name: str, root: Path) -> Iterable[Event]:
    """The events of the golden games of ``game_name`` under ``root`` (``tests/golden/games``)."""
    for path in sorted(root.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc.get("game") == game_name:
            yield from (Event(e["type"], e["data"], e.get("v", 1)) for e in doc["events"])


def main(argv: Sequence[str]) -> None:
    """``umbra event-schema <game> <games per option set> [options JSON …]``:
    learn the game's schema from that many seeded random games with each option set (the
    defaults when none is given) and from the golden games, and write it beside the game
    (``make event-schemas`` runs it for every game with the option sets of their tests)."""
    from app.kernel import get_game
    from app.kernel import table as kernel
    from app.kernel.conformance import random_playout

    game = get_game(argv[0])
    games = int(argv[1]) if len(argv) > 1 else 60
    plans = [json.loads(text) for text in argv[2:]] or [{}]
    versions = dict(game.event_types())
    learnt: dict[str, dict[str, set[str]]] = {}
    for options in plans:
        for seed in range(games):
            learn(random_playout(game, seed, options=options, check_every=0).events, versions, learnt)
    root = Path(__file__).resolve().parents[2] / "tests" / "golden" / "games"
    stored = (game.upcast(e) for e in golden_events(game.name, root) if not kernel.is_platform_event(e))
    learn(stored, versions, learnt)
    path = path_for(game)
    assert path is not None
    path.write_text(dump(game.name, learnt, versions), encoding="utf-8")
    print(f"{path}: {len(learnt)} of {len(versions)} event types seen")
