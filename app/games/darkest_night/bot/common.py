"""Helpers every part of the bot uses: the odds a choice's detail states, a choice by type."""

from __future__ import annotations

import re

from app.kernel.types import Choice

ODDS = re.compile(r"(\d+)%")


def odds(choice: Choice) -> int:
    found = ODDS.findall(choice.detail)
    return int(found[-1]) if found else 0


def first(choices: list[Choice], type_: str) -> Choice | None:
    return next((c for c in choices if c.type == type_), None)
