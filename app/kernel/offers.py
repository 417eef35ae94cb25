"""Is a command one of the choices the table offered? Checked by the kernel, for every game,
before any game code sees the command (issue 23).

A command matches an offered choice only when its seat and type are the choice's and its
arguments are equal *as JSON*: the same keys, the same nesting and the same JSON types at
every level. Python's ``==`` is not enough: ``1 == 1.0 == True``, so a client sending
``{"to": 1.0}`` or ``{"to": true}`` for an offered ``{"to": 1}`` would pass a ``==`` check
and carry a float or a boolean into the rules and the log.

A command that matches nothing is refused here with a 422 that names what was expected:
the arguments that were offered for its type, the rule of a greyed-out action, or what the
table is waiting for. A game may say more about a command it does not offer through
``Game.refusal(state, seat, type)``, which is handed only the seat (held by the sender)
and the command's type (a short text), never the client's raw arguments.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from app.kernel.types import Choice, Command, Prompt, RuleError, Unavailable

NOT_OFFERED_CODES = frozenset({"not_offered", "not_your_decision", "nothing_to_decide"})
"""The kernel's own refusals: they say what is offered, not a rule (a lost race's message
leaves them out: what changed says more)."""

EXPECTED_SHOWN = 6
"""How many offered argument sets a refusal lists (then "… and N more")."""

_SEQUENCES = (list, tuple)


def same_json(a: Any, b: Any) -> bool:
    """Are ``a`` and ``b`` the same JSON value? Types count (an integer is not a float nor
    a boolean, a string is not a number), object keys count, a Python tuple is a JSON
    array. Only called after ``a == b`` held, so it only has to check the types."""
    kind = type(a)
    if kind in _SEQUENCES:
        return type(b) in _SEQUENCES and len(a) == len(b) and all(map(same_json, a, b))
    if kind is not type(b):
        return False
    if kind is dict:
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    return True


def is_offer(seat: Any, kind: str, args: dict[str, Any], command: Command) -> bool:
    """Is ``command`` the offer of ``kind`` with ``args`` to ``seat``, equal as JSON (a seat
    is its index or ``"gm"``: ``"0"`` is not seat 0)?"""
    return (
        kind == command.type
        and seat == command.seat
        and type(seat) is type(command.seat)
        and args == command.args
        and same_json(args, command.args)
    )


def offered(prompts: Iterable[Prompt], command: Command) -> Choice | None:
    """The choice of ``command.seat``'s prompts that ``command`` is, if any."""
    for prompt in prompts:
        for choice in prompt.choices:
            if is_offer(prompt.seat, choice.type, choice.args, command):
                return choice
    return None


Offer = tuple[Any, str, dict[str, Any]]
"""One offered command, kept without its labels: (seat, type, args)."""


def offers_of(prompts: Iterable[Prompt]) -> tuple[Offer, ...]:
    """What ``prompts`` offer, as (seat, type, args): kept a while to judge late commands,
    without the choices' labels and details (which may hold the state they describe)."""
    return tuple((p.seat, c.type, c.args) for p in prompts for c in p.choices)


def among(kept: Iterable[Offer], command: Command) -> bool:
    """Is ``command`` one of ``kept`` (``offers_of``), equal as JSON?"""
    return any(is_offer(seat, kind, args, command) for seat, kind, args in kept)


def json_text(value: Any) -> str:
    """``value`` as compact JSON, as a client would send it."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), sort_keys=True, default=str)


def refusal(
    prompts: Sequence[Prompt], command: Command, told: Callable[[], RuleError | None] = lambda: None
) -> RuleError:
    """Why ``command`` is not among ``prompts``: a 422 naming what was expected.

    ``told()`` is the game's own refusal of the command's type for this seat
    (``Game.refusal``), asked only when the seat was offered no command of that type at
    all and no greyed-out action of that type names its rule."""
    seat = command.seat
    mine = [p for p in prompts if p.seat == seat and type(p.seat) is type(seat)]
    same_type = [c for p in mine for c in p.choices if c.type == command.type]
    sent = json_text(command.args)
    greyed = _unavailable(mine, command.type)
    if same_type:
        loose = [c for c in same_type if c.args == command.args]
        if loose:
            return RuleError(
                "not_offered",
                f"{command.type} {sent} is not what was offered: expected {json_text(loose[0].args)} "
                "(arguments are compared as JSON: a whole number is not a decimal, a boolean or a text)",
            )
        also = "".join(f"; {_greyed_text(g)}" for g in greyed)
        return RuleError(
            "not_offered",
            f"{command.type} {sent} is not one of the choices offered now; expected one of "
            f"{_listed(json_text(c.args) for c in same_type)}{also}",
        )
    if len(greyed) == 1:
        return RuleError("not_allowed", _greyed_text(greyed[0]))
    game_says = told()
    if game_says is not None:
        return game_says
    if greyed:
        return RuleError("not_allowed", "; ".join(_greyed_text(g) for g in greyed))
    types = ", ".join(sorted({c.type for p in mine for c in p.choices}))
    not_offered = f"{command.type} is not one of the choices offered to this seat now; it may: {types}"
    if any(p.required and p.choices for p in mine):
        return RuleError("not_offered", not_offered)
    if any(p.required and p.choices for p in prompts):
        # Not the waiting prompts' titles: they speak to their own seat ("Your turn: …").
        meanwhile = f" (meanwhile it may: {types})" if types else ""
        return RuleError("not_your_decision", f"the table is not waiting for this seat now{meanwhile}")
    if types:
        return RuleError("not_offered", not_offered)
    return RuleError("nothing_to_decide", "the table is not waiting for a decision")


def _unavailable(prompts: Sequence[Prompt], command_type: str) -> list[Unavailable]:
    """The greyed-out actions of ``command_type`` in these prompts, each once."""
    found = (item for prompt in prompts for item in prompt.unavailable if item.type == command_type)
    return list(dict.fromkeys(found))


def _greyed_text(item: Unavailable) -> str:
    rule = f" ({item.rule})" if item.rule and item.rule not in item.reason else ""
    return f"{item.label}: {item.reason}{rule}"


def _listed(texts: Iterable[str]) -> str:
    unique = list(dict.fromkeys(texts))
    shown = ", ".join(unique[:EXPECTED_SHOWN])
    more = len(unique) - EXPECTED_SHOWN
    return f"{shown} … and {more} more" if more > 0 else shown
