"""Records of where a game waits (see README.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Record = dict[str, Any]
StepUpcaster = Callable[[dict[str, Any]], dict[str, Any]]
DecisionUpcaster = Callable[[Record], Record]


@dataclass(frozen=True)
class DecisionSchema:
    kind: str
    fields: tuple[str, ...]
    version: int = 1
