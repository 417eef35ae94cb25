"""Deterministic chance: every random outcome comes from an rng derived from the table's
secret seed and the sequence number of the next event, and is recorded in the events."""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")


def new_seed() -> str:
    """A fresh secret seed for a table (never shown to anyone)."""
    return secrets.token_hex(16)


def rng_for(seed: str, next_seq: int) -> random.Random:
    """The rng for the command whose first event will have ``next_seq``.

    The same seed and seq always give the same rng, so the same command on the same
    state yields the same events.
    """
    digest = hashlib.sha256(f"{seed}:{next_seq}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def roll(rng: random.Random, count: int, sides: int = 6) -> list[int]:
    """Roll ``count`` dice of ``sides`` faces."""
    return [rng.randint(1, sides) for _ in range(count)]


def shuffled(rng: random.Random, items: Sequence[T]) -> list[T]:
    """A shuffled copy of ``items``."""
    out: MutableSequence[T] = list(items)
    rng.shuffle(out)
    return list(out)
