"""What every part of the bot reads of a prompt."""

from __future__ import annotations

from app.games.attack_the_darkness.content import load
from app.kernel.types import Choice

C = load()


def by_type(choices: tuple[Choice, ...], type_: str) -> list[Choice]:
    return [c for c in choices if c.type == type_]
