"""Deterministic chance: every random outcome comes from an rng derived from the table's
secret seed and the sequence number of the next event, and is recorded in the events."""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

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
    return SeededOnUse(int.from_bytes(digest[:16], "big"))


class SeededOnUse(random.Random):
    """``random.Random(seed)`` that seeds itself on its first draw.

    Seeding a Mersenne Twister costs more than most commands' rules (many commands roll
    nothing): the seeding waits until something draws, then the object becomes a plain
    ``random.Random`` seeded with ``seed``, so it gives exactly the numbers
    ``random.Random(seed)`` gives, and later draws cost what they always did. Every draw
    of ``random.Random`` goes through ``random()`` or ``getrandbits()``; ``seed``,
    ``getstate`` and ``setstate`` seed first too."""

    def __init__(self, seed: int) -> None:  # no super().__init__: that would seed now
        self._seed_on_use = seed
        self.gauss_next = None

    def _start(self) -> None:
        """Seed now (once; a method bound before the switch may call again after it)."""
        if type(self) is SeededOnUse:
            seed = self.__dict__.pop("_seed_on_use")
            self.__class__ = random.Random  # type: ignore[assignment]  (the same layout)
            random.Random.seed(self, seed)

    def random(self) -> float:
        SeededOnUse._start(self)
        return random.Random.random(self)

    def getrandbits(self, k: int) -> int:
        SeededOnUse._start(self)
        return random.Random.getrandbits(self, k)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        SeededOnUse._start(self)
        random.Random.seed(self, *args, **kwargs)

    def getstate(self) -> Any:
        SeededOnUse._start(self)
        return random.Random.getstate(self)

    def setstate(self, state: Any) -> None:
        SeededOnUse._start(self)
        random.Random.setstate(self, state)


def roll(rng: random.Random, count: int, sides: int = 6) -> list[int]:
    """Roll ``count`` dice of ``sides`` faces: ``[rng.randint(1, sides) for _ in range(count)]``,
    the very faces, drawn the way ``randint`` draws them without its layers of argument
    checks (``randint(1, n)`` is ``1 + _randbelow(n)``, which asks ``getrandbits`` for as
    many bits as ``n`` has until the number is below ``n``). An rng of another class (a
    test's rigged dice) is asked through its own ``randint``."""
    if type(rng) not in PLAIN_RANDOM or sides < 1:
        return [rng.randint(1, sides) for _ in range(count)]
    bits = rng.getrandbits
    width = sides.bit_length()
    faces = []
    for _ in range(count):
        face = bits(width)
        while face >= sides:
            face = bits(width)
        faces.append(face + 1)
    return faces


def shuffle(rng: random.Random, items: MutableSequence[Any]) -> None:
    """``rng.shuffle(items)``: the very order, drawn as ``random.Random.shuffle`` draws it
    (from the last place down, a place below ``i + 1`` for place ``i``, each by
    ``getrandbits`` as in ``roll``) without a method call per card. An rng of another
    class is asked through its own ``shuffle``."""
    if type(rng) not in PLAIN_RANDOM:
        rng.shuffle(items)
        return
    bits = rng.getrandbits
    for i in reversed(range(1, len(items))):
        below = i + 1
        width = below.bit_length()
        j = bits(width)
        while j >= below:
            j = bits(width)
        items[i], items[j] = items[j], items[i]


PLAIN_RANDOM = (random.Random, SeededOnUse)
"""The rngs whose ``randint`` is ``random.Random``'s own (``roll`` may draw as it does)."""


def shuffled(rng: random.Random, items: Sequence[T]) -> list[T]:
    """A shuffled copy of ``items``."""
    out: list[T] = list(items)
    shuffle(rng, out)
    return out
