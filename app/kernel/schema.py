"""The shape of a game's state, as a stable hash: what a snapshot is keyed by, next to the
engine version (DESIGN.md, "Saves outlive releases": snapshots are a cache keyed by engine
version and a hash of the state schema, never trusted across a change).

The hash covers the structure a pickled state depends on: each dataclass's module and
name, whether it has slots, and its fields in order with their type annotations, followed
recursively through nested dataclasses, containers (``list[Hero]``, ``dict[str, Deck]``),
unions, literals, enums (their members), named tuples and typed dicts. Any other class
counts by its module and name only. It is computed from text, never from ``hash()``, so it
is the same in every process whatever ``PYTHONHASHSEED`` is.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import sys
import types
import typing
from functools import lru_cache
from typing import Any

HASH_LENGTH = 16
"""Hex digits kept of the SHA-256 (64 bits: a collision between two schemas of one game is
not a practical concern, and the snapshot key stays short)."""


def state_schema_hash(obj_or_type: Any) -> str:
    """The schema hash of a state (an instance or its type)."""
    kind = obj_or_type if isinstance(obj_or_type, type) else type(obj_or_type)
    return _hash_of(kind)


def describe_schema(obj_or_type: Any) -> str:
    """The canonical text the hash is taken of (to see what a schema change changed)."""
    kind = obj_or_type if isinstance(obj_or_type, type) else type(obj_or_type)
    return _describe(kind, ())


@lru_cache(maxsize=256)
def _hash_of(kind: type) -> str:
    return hashlib.sha256(_describe(kind, ()).encode()).hexdigest()[:HASH_LENGTH]


def _describe(tp: Any, inside: tuple[type, ...]) -> str:
    """One type as canonical text; ``inside`` holds the classes being described (a class
    met again inside itself is written as a reference, so recursive types end)."""
    if tp is Any:
        return "Any"
    if tp is None or tp is type(None):
        return "None"
    if isinstance(tp, str):
        return f"ref:{tp}"  # an annotation that could not be resolved: its text
    if isinstance(tp, typing.TypeVar):
        return f"~{tp.__name__}"
    if isinstance(tp, typing.NewType):
        return f"{_name(tp)}={_describe(tp.__supertype__, inside)}"
    origin = typing.get_origin(tp)
    if origin is not None:
        return _describe_generic(tp, origin, inside)
    if not isinstance(tp, type):
        return f"?{tp!r}"
    if tp in inside:
        return f"recursive:{_name(tp)}"
    if dataclasses.is_dataclass(tp):
        return _describe_fields(tp, [f.name for f in dataclasses.fields(tp)], inside)
    if issubclass(tp, enum.Enum):
        members = ",".join(f"{m.name}={m.value!r}" for m in tp)
        return f"enum {_name(tp)}{{{members}}}"
    if issubclass(tp, tuple) and hasattr(tp, "_fields"):
        return _describe_fields(tp, list(tp._fields), inside)
    if typing.is_typeddict(tp):
        return _describe_fields(tp, list(tp.__annotations__), inside)
    return _name(tp)


def _describe_generic(tp: Any, origin: Any, inside: tuple[type, ...]) -> str:
    args = typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        # ``X | None`` and ``None | X`` are one type: the members are sorted.
        return "Union[" + ",".join(sorted(_describe(a, inside) for a in args)) + "]"
    if origin is typing.Literal:
        return "Literal[" + ",".join(repr(a) for a in args) + "]"
    if origin is typing.Annotated:
        return _describe(args[0], inside)
    if origin is typing.ClassVar:
        return "ClassVar[" + ",".join(_describe(a, inside) for a in args) + "]"
    head = _name(origin) if isinstance(origin, type) else repr(origin)
    return head + "[" + ",".join("..." if a is Ellipsis else _describe(a, inside) for a in args) + "]"


def _describe_fields(tp: type, names: list[str], inside: tuple[type, ...]) -> str:
    hints = _hints(tp)
    slots = " slots" if "__slots__" in vars(tp) else ""
    body = ",".join(f"{n}:{_describe(hints.get(n, Any), (*inside, tp))}" for n in names)
    return f"{_name(tp)}{slots}{{{body}}}"


def _hints(tp: type) -> dict[str, Any]:
    """The class's annotations, resolved (postponed annotations are strings). When some
    cannot be resolved together, each is resolved on its own, so nested classes are still
    followed; one that cannot be resolved at all is kept as its text, which is stable too."""
    try:
        return typing.get_type_hints(tp)
    except Exception:
        pass
    module = sys.modules.get(tp.__module__)
    names = {**(vars(module) if module else {}), tp.__name__: tp}
    hints: dict[str, Any] = {}
    for klass in reversed(tp.__mro__):
        for name, annotation in vars(klass).get("__annotations__", {}).items():
            hints[name] = _resolve(annotation, names)
    return hints


def _resolve(annotation: Any, names: dict[str, Any]) -> Any:
    if not isinstance(annotation, str):
        return annotation
    try:
        return eval(annotation, names)  # what typing.get_type_hints does, one name at a time
    except Exception:
        return annotation


def _name(tp: Any) -> str:
    module = getattr(tp, "__module__", "")
    name = getattr(tp, "__qualname__", None) or getattr(tp, "__name__", repr(tp))
    return name if module == "builtins" else f"{module}.{name}"
