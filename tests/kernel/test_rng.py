"""``rng_for`` seeds its generator on the first draw (``SeededOnUse``), and gives exactly
the numbers ``random.Random`` seeded the same way gives, whatever is drawn first."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

import pytest

from app.kernel.rng import SeededOnUse, rng_for, roll, shuffle, shuffled

DRAWS: list[Callable[[random.Random], Any]] = [
    lambda g: g.randint(1, 6),
    lambda g: (lambda cards: (g.shuffle(cards), cards)[1])(list(range(30))),
    lambda g: g.choice("abcdef"),
    lambda g: g.random(),
    lambda g: g.sample(range(100), 5),
    lambda g: g.getrandbits(70),
    lambda g: g.uniform(0, 1),
    lambda g: g.gauss(0, 1),
    lambda g: g.randrange(10**30),
    lambda g: g.choices("abc", k=4),
    lambda g: g.randbytes(5),
    lambda g: g.randrange(3),
]


def reference(seed: str, seq: int) -> random.Random:
    digest = hashlib.sha256(f"{seed}:{seq}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


@pytest.mark.parametrize("first", range(len(DRAWS)))
def test_the_same_numbers_as_a_seeded_random_whatever_is_drawn_first(first: int) -> None:
    for seq in range(1, 30):
        ours, theirs = rng_for("table", seq), reference("table", seq)
        order = DRAWS[first:] + DRAWS[:first]
        assert [draw(ours) for draw in order * 2] == [draw(theirs) for draw in order * 2]
        assert type(ours) is random.Random  # a plain generator once it has drawn


def test_no_seeding_until_something_draws_and_state_reads_seed_first() -> None:
    rng = rng_for("table", 7)
    assert type(rng) is SeededOnUse
    assert rng.getstate() == reference("table", 7).getstate()
    other = rng_for("table", 8)
    other.setstate(reference("table", 9).getstate())
    assert other.random() == reference("table", 9).random()
    reseeded = rng_for("table", 10)
    reseeded.seed(5)
    assert reseeded.random() == random.Random(5).random()
    assert rng_for("a", 1).random() != rng_for("a", 2).random()


@pytest.mark.parametrize("sides", [1, 2, 3, 6, 7, 8, 12, 20])
def test_roll_gives_the_faces_randint_gives_and_leaves_the_same_state(sides: int) -> None:
    for seq in range(60):
        ours, theirs = rng_for("dice", seq), reference("dice", seq)
        if seq % 2:
            ours.random(), theirs.random()  # already seeded, or seeded by the roll itself
        assert roll(ours, 9, sides) == [theirs.randint(1, sides) for _ in range(9)]
        assert ours.getstate() == theirs.getstate()
        plain, again = reference("dice", seq), reference("dice", seq)  # a plain random.Random too
        assert roll(plain, 4, sides) == [again.randint(1, sides) for _ in range(4)]


def test_roll_asks_a_rigged_rng_through_its_own_randint() -> None:
    class Loaded(random.Random):
        def randint(self, a: int, b: int) -> int:
            return b

    assert roll(Loaded(1), 3) == [6, 6, 6]


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 30, 81])
def test_shuffle_gives_the_order_random_shuffle_gives_and_leaves_the_same_state(size: int) -> None:
    for seq in range(40):
        ours, theirs = rng_for("deck", seq), reference("deck", seq)
        if seq % 2:
            ours.random(), theirs.random()
        cards, expected = list(range(size)), list(range(size))
        shuffle(ours, cards)
        theirs.shuffle(expected)
        assert cards == expected and ours.getstate() == theirs.getstate()
        letters = list("abcdefgh")
        reference("deck", seq).shuffle(letters)  # random.Random's own shuffle
        assert shuffled(rng_for("deck", seq), "abcdefgh") == letters


def test_shuffle_asks_a_rigged_rng_through_its_own_shuffle() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: Any) -> None:  # type: ignore[override]
            x.reverse()

    cards = [1, 2, 3]
    shuffle(Reversing(1), cards)
    assert cards == [3, 2, 1]
