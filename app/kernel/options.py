"""Table options checked against a game's schema (``Game.options``, a tuple of ``OptionSpec``).

One checker for every way a table is made: the lobby's form, ``POST /api/tables`` and an
import all end here, so they accept and refuse the same things with the same reasons.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from app.kernel.types import OptionSpec, RuleError

if TYPE_CHECKING:
    from app.kernel.game import Game


def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def active_options(specs: Sequence[OptionSpec], values: dict[str, Any]) -> set[str]:
    """The names of the options that apply with these values: an option whose
    ``depends_on`` names an option that does not apply does not apply either."""
    active: set[str] = set()
    for spec in specs:
        if spec.depends_on is None or (spec.depends_on[0] in active and spec.active(values)):
            active.add(spec.name)
    return active


def schema_problems(specs: Sequence[OptionSpec]) -> list[str]:
    """What is wrong with a game's option schema itself (a test runs this on every game)."""
    problems: list[str] = []
    seen: dict[str, OptionSpec] = {}
    for spec in specs:
        if spec.name in seen:
            problems.append(f"{spec.name} is declared twice")
        if spec.kind in ("choice", "per_seat") and not spec.choices:
            problems.append(f"{spec.name} is a {spec.kind} option without choices")
        if spec.choice_labels and len(spec.choice_labels) != len(spec.choices):
            problems.append(
                f"{spec.name} has {len(spec.choice_labels)} labels for {len(spec.choices)} choices"
            )
        if spec.depends_on is not None:
            name, values = spec.depends_on
            if name not in seen:
                problems.append(f"{spec.name} depends on {name}, which is not declared before it")
            elif not values:
                problems.append(f"{spec.name} depends on no value of {name}")
        if spec.kind == "per_seat_text" and spec.max_length < 1:
            problems.append(f"{spec.name} is a per_seat_text option without a max_length")
        if spec.count_option is not None and seen.get(spec.count_option, spec).kind != "int":
            problems.append(
                f"{spec.name} counts by {spec.count_option}, which is not an int option before it"
            )
        try:
            check_value(spec, spec.default, None)
        except RuleError as err:
            problems.append(f"the default of {spec.name} is refused: {err.message}")
        seen[spec.name] = spec
    return problems


def validate_options(
    game: Game, options: dict[str, Any] | None, seat_count: int | None = None
) -> dict[str, Any]:
    """Fill defaults and check every option against the game's schema.

    With ``seat_count`` (the table's number of seats) a ``"per_seat"`` option is checked
    against the seats too, and padded with ``None`` (the game's pick) to one entry per seat.
    An option whose ``depends_on`` is not met keeps its default; another value is refused.
    """
    options = dict(options or {})
    known = {spec.name: spec for spec in game.options}
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise RuleError("unknown_option", f"{game.title} has no option {', '.join(unknown)}")
    result: dict[str, Any] = {}
    for spec in game.options:
        result[spec.name] = check_value(spec, options.get(spec.name, spec.default), seat_count)
    active = active_options(game.options, result)
    for spec in game.options:
        if spec.name in active or result[spec.name] == spec.default:
            continue
        if spec.kind in ("per_seat", "per_seat_text") and not any(v is not None for v in result[spec.name]):
            result[spec.name] = spec.default
            continue
        controller, values = spec.depends_on or ("", ())
        wanted = " or ".join(known[controller].label_of(v) if controller in known else str(v) for v in values)
        raise RuleError(
            "option_not_applicable",
            f"option {spec.name} ({spec.label}) applies only when {controller} is {wanted}; leave it out",
        )
    return result


def check_value(spec: OptionSpec, value: Any, seat_count: int | None) -> Any:
    """One option's value, checked (and copied where it is a list)."""
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise RuleError("bad_option", f"option {spec.name} must be true or false")
    elif spec.kind == "int":
        if not is_whole(value):
            raise RuleError("bad_option", f"option {spec.name} must be a whole number")
        if spec.minimum is not None and value < spec.minimum:
            raise RuleError("bad_option", f"option {spec.name} must be at least {spec.minimum}")
        if spec.maximum is not None and value > spec.maximum:
            raise RuleError("bad_option", f"option {spec.name} must be at most {spec.maximum}")
    elif spec.kind == "seats":
        if not isinstance(value, list) or not all(is_whole(v) and v >= 0 for v in value):
            raise RuleError("bad_option", f"option {spec.name} must be a list of seat numbers (0, 1, …)")
        if spec.maximum is not None and len(value) > spec.maximum:
            raise RuleError("bad_option", f"option {spec.name} lists at most {spec.maximum} seats")
        value = list(value)
    elif spec.kind == "per_seat":
        value = check_per_seat(spec, value, seat_count)
    elif spec.kind == "per_seat_text":
        value = check_per_seat_text(spec, value, seat_count)
    elif value not in spec.choices:
        choices = ", ".join(map(str, spec.choices))
        raise RuleError("bad_option", f"option {spec.name} must be one of {choices}")
    return value


def check_per_seat(spec: OptionSpec, value: Any, seat_count: int | None) -> list[Any]:
    """A pick per seat, in seat order: each one of ``choices`` or ``None`` (the game's pick)."""
    if not isinstance(value, list):
        raise RuleError(
            "bad_option", f"option {spec.name} must be a list with one entry per seat (a choice or null)"
        )
    for seat, pick in enumerate(value):
        if pick is not None and pick not in spec.choices:
            raise RuleError(
                "bad_option",
                f"option {spec.name}: seat {seat + 1} picks {pick!r}, which is not one of "
                f"{', '.join(map(str, spec.choices))}",
            )
    if seat_count is not None:
        if len(value) > seat_count:
            raise RuleError(
                "bad_option",
                f"option {spec.name} gives {len(value)} picks for {seat_count} seat"
                f"{'s' if seat_count != 1 else ''}: one per seat at most",
            )
        value = [*value, *[None] * (seat_count - len(value))]
    if spec.distinct:
        picked = [p for p in value if p is not None]
        twice = next((p for i, p in enumerate(picked) if p in picked[:i]), None)
        if twice is not None:
            seats = [i + 1 for i, p in enumerate(value) if p == twice]
            raise RuleError(
                "bad_option",
                f"option {spec.name}: seats {seats[0]} and {seats[1]} both pick {spec.label_of(twice)}; "
                "each seat picks a different one",
            )
    return list(value)


def check_per_seat_text(spec: OptionSpec, value: Any, seat_count: int | None) -> list[str | None]:
    """A text per seat, in seat order: each a string of at most ``max_length`` characters
    (an empty one is ``None``, the game's pick), no control characters but line breaks."""
    if not isinstance(value, list):
        raise RuleError(
            "bad_option", f"option {spec.name} must be a list with one entry per seat (a text or null)"
        )
    out: list[str | None] = []
    for seat, text in enumerate(value):
        if text is None:
            out.append(None)
            continue
        if not isinstance(text, str):
            raise RuleError("bad_option", f"option {spec.name}: seat {seat + 1} must give a text or null")
        if len(text) > spec.max_length:
            raise RuleError(
                "bad_option",
                f"option {spec.name}: seat {seat + 1}'s text has {len(text)} characters, "
                f"at most {spec.max_length}",
            )
        if any(ord(ch) < 32 and ch not in "\n\r\t" for ch in text):
            raise RuleError(
                "bad_option", f"option {spec.name}: seat {seat + 1}'s text holds control characters"
            )
        out.append(text.strip() or None)
    if seat_count is not None:
        if len(out) > seat_count:
            raise RuleError(
                "bad_option",
                f"option {spec.name} gives {len(out)} texts for {seat_count} seat"
                f"{'s' if seat_count != 1 else ''}: one per seat at most",
            )
        out += [None] * (seat_count - len(out))
    return out
