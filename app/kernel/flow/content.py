"""Reading a game's content (DESIGN.md, "Content") and the checks every game's content
passes: TOML files under ``app/games/<game>/content/``, one entry per card or token, each
saying ``source = "rulebook"`` (a fact the rulebook states) or ``source = "authored"``
(written and balanced by us), and naming its effects as steps of the game's rules.

The loader is deliberately small: a game turns the raw tables into its own frozen
dataclasses (its content is its own); the kernel only reads files and checks the parts
that are the same for every game.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.kernel.flow.rules import Rules

SOURCES = ("rulebook", "authored")
"""Where an entry's facts come from: the rulebook states them, or we wrote them."""


def read_toml(folder: Path, name: str) -> dict[str, Any]:
    """One content file as a dict (empty when the file does not exist)."""
    path = folder / name
    if not path.exists():
        return {}
    with path.open("rb") as f:
        return tomllib.load(f)


def content_files(folder: Path) -> list[Path]:
    """Every ``*.toml`` under the content folder, sorted (subfolders included)."""
    return sorted(folder.rglob("*.toml"))


@dataclass(frozen=True)
class Entry:
    """One content entry: the file, its table name (``event``, ``blight``…) and its data."""

    file: str
    table: str
    data: dict[str, Any]

    @property
    def label(self) -> str:
        ident = self.data.get("id", self.data.get("name", self.data.get("kind", "?")))
        return f"{self.file}:{self.table}:{ident}"


def entries(folder: Path) -> Iterator[Entry]:
    """Every entry: each element of a top-level array of tables (``[[event]]``), and a
    file that is one entry itself (a hero file with an ``id``) with its nested entries
    (``[[power]]``)."""
    for path in content_files(folder):
        with path.open("rb") as f:
            raw = tomllib.load(f)
        name = str(path.relative_to(folder))
        if "id" in raw:
            yield Entry(name, "", {k: v for k, v in raw.items() if not _is_table_list(v)})
        for key, value in raw.items():
            if _is_table_list(value):
                for item in value:
                    yield Entry(name, key, item)


def _is_table_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def walk_ops(node: Any) -> Iterator[str]:
    """Every ``op`` named anywhere inside a piece of content data."""
    if isinstance(node, dict):
        if isinstance(node.get("op"), str):
            yield node["op"]
        for value in node.values():
            yield from walk_ops(value)
    elif isinstance(node, list | tuple):
        for value in node:
            yield from walk_ops(value)


def missing_ops(rules: Rules, data: Iterable[Any], *, also: Iterable[str] = ()) -> set[str]:
    """The ops named in ``data`` that are neither steps of ``rules`` nor in ``also`` (a
    game's other named vocabularies, e.g. modifier kinds that are not steps)."""
    known = set(rules.steps) | set(also)
    return {op for node in data for op in walk_ops(node) if op not in known}


def bad_sources(folder: Path) -> list[str]:
    """Entries whose ``source`` is missing or not one of ``SOURCES`` (by label)."""
    return [e.label for e in entries(folder) if e.data.get("source") not in SOURCES]
