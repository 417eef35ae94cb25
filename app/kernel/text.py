"""What text and JSON the platform accepts: values every database can store and every page
can render, within bounds proportional to a sane request.

PostgreSQL cannot store a NUL character in ``text`` or ``jsonb``; no database or encoder
can write a lone UTF-16 surrogate (``"\\udc00"`` is legal JSON, but not valid Unicode) as
UTF-8. Such text is refused with a 422 before anything is written, wherever it hides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from app.kernel.types import RuleError

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
"""A NUL, or a surrogate code point (only ever lone in a Python ``str``)."""


def check_text(text: str, where: str) -> str:
    """``text`` unchanged, or a ``bad_text`` RuleError naming ``where`` it was found."""
    if UNSTORABLE.search(text) is not None:
        raise RuleError(
            "bad_text",
            f"{where} holds a character that cannot be stored (a NUL or a lone surrogate)",
        )
    return text


@dataclass(frozen=True, slots=True)
class JsonBounds:
    """Limits on a JSON value taken from a client: nesting, sizes and numbers."""

    max_depth: int = 16
    max_string: int = 4000
    max_items: int = 10_000
    """Entries of one list or object."""
    max_nodes: int = 100_000
    """Values in the whole document."""
    max_int: int = 2**53
    """Integers beyond what JSON numbers carry exactly in a browser."""


COMMAND_BOUNDS = JsonBounds(max_depth=8, max_string=1000, max_items=200, max_nodes=2000)
EVENT_BOUNDS = JsonBounds(max_depth=12, max_string=4000, max_items=5000, max_nodes=50_000)


def check_json(value: Any, where: str, bounds: JsonBounds = COMMAND_BOUNDS) -> None:
    """Walk a parsed JSON value iteratively (no recursion to exhaust) and refuse, with a
    422 ``bad_text`` or ``too_complex``, anything unstorable or out of ``bounds``."""
    if type(value) is dict and _flat_and_fine(value, bounds):
        return  # the usual command's arguments: a few short texts and numbers
    stack: list[tuple[Any, int, str]] = [(value, 1, where)]
    nodes = 0
    while stack:
        item, depth, path = stack.pop()
        nodes += 1
        if nodes > bounds.max_nodes:
            raise RuleError("too_complex", f"{where} has more than {bounds.max_nodes} values")
        if isinstance(item, str):
            if len(item) > bounds.max_string:
                raise RuleError("too_complex", f"{path}: a text is over {bounds.max_string} characters")
            check_text(item, path)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if abs(item) > bounds.max_int:
                raise RuleError("too_complex", f"{path}: the number {str(item)[:20]}… is out of range")
        elif isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")):
                raise RuleError("too_complex", f"{path}: numbers must be finite")
        elif isinstance(item, dict | list):
            if depth >= bounds.max_depth:
                raise RuleError("too_complex", f"{where} is nested more than {bounds.max_depth} deep")
            if len(item) > bounds.max_items:
                raise RuleError("too_complex", f"{path} has more than {bounds.max_items} entries")
            if isinstance(item, dict):
                for key, sub in item.items():
                    if not isinstance(key, str):
                        raise RuleError("too_complex", f"{path}: object keys must be text")
                    check_text(key, path)
                    if len(key) > 200:
                        raise RuleError("too_complex", f"{path}: a key is over 200 characters")
                    stack.append((sub, depth + 1, f"{path}.{key[:40]}"))
            else:
                stack.extend((sub, depth + 1, f"{path}[{i}]") for i, sub in enumerate(item))
        else:
            raise RuleError("too_complex", f"{path}: {type(item).__name__} is not a JSON value")


def _flat_and_fine(value: dict[Any, Any], bounds: JsonBounds) -> bool:
    """Whether ``value`` is one object of text keys and text, integer, boolean or null
    values that ``check_json`` would accept (False: let the full walk judge it)."""
    if len(value) > bounds.max_items or len(value) + 1 > bounds.max_nodes or bounds.max_depth <= 1:
        return False
    search = UNSTORABLE.search
    for key, item in value.items():
        if type(key) is not str or len(key) > 200 or search(key) is not None:
            return False
        kind = type(item)
        if kind is str:
            if len(item) > bounds.max_string or search(item) is not None:
                return False
        elif kind is int:
            if abs(item) > bounds.max_int:
                return False
        elif kind is not bool and item is not None:
            return False
    return True
