"""A seat's "auto-pass when I have nothing to do" (issue 11, "play that respects people's
time"): a player may let the rules answer the questions whose only other answers are
optional extras — roll without adding a spark, keep a roll instead of using an item, end
the action step once the action is taken — so their hero's turn flows on without them.

Real decisions (fight or elude, a wound, where to go) are always asked. The setting is a
command the seat sends at any time (``set_auto_pass``, offered in the "any time" prompt),
kept in the state's options as ``auto_pass_seats`` so a replay answers the same way; every
answer it gives is said in the log (an ``Automatic`` event)."""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.decisions import decision_hero
from app.games.darkest_night.engine import RULES, Ctx, applies
from app.games.darkest_night.rules.common import automatic, hero_name
from app.games.darkest_night.state import State
from app.kernel.types import Choice

AUTO_PASS = "auto_pass_seats"
"""The state option listing the seats that auto-pass."""

PASSES: dict[str, str] = {
    "roll": "roll_dice",
    "after_roll": "accept_roll",
    "action": "end_action",
}
"""For each kind of question, the answer that adds nothing: roll as it stands (DN 5.0),
keep the roll (DN 15.0), end the action step (DN 8.0; only once the action is taken)."""


AUTO_PASS_LABEL = "Auto-pass when I have nothing to do"
"""One label for turning it on and off: the seat page shows the choice as a checkbox
(a command of only ``{"on": …}`` is a setting), ticked while it is on."""


def auto_passing(s: State, seat: Any) -> bool:
    return seat in s.options.get(AUTO_PASS, ())


@applies("AutoPassSet", copy_on_write=True)  # it replaces the options, and writes no hero
def _auto_pass_set(s: State, d: dict[str, Any]) -> None:
    seats = set(s.options.get(AUTO_PASS, ()))
    if d["on"]:
        seats.add(d["seat"])
    else:
        seats.discard(d["seat"])
    s.options = {**s.options, AUTO_PASS: sorted(seats)}


def auto_pass_choice(s: State, seat: int) -> Choice:
    """The toggle offered to a hero's player among the things they may do at any time."""
    return AUTO_PASS_OFF if auto_passing(s, seat) else AUTO_PASS_ON


# The toggle's two choices, made once (offered in every prompt; a choice is only read).
AUTO_PASS_OFF = Choice(
    "set_auto_pass",
    {"on": False},
    AUTO_PASS_LABEL,
    "on: untick to be asked again before every roll and at the end of every action step",
)
AUTO_PASS_ON = Choice(
    "set_auto_pass",
    {"on": True},
    AUTO_PASS_LABEL,
    "roll without adding sparks, keep rolls, end the action step once the action is taken",
)


def set_auto_pass(ctx: Ctx, seat: int, on: bool) -> None:
    ctx.emit("AutoPassSet", seat=seat, on=bool(on))


def pass_for(s: State, d: Any) -> Choice | None:
    """The adding-nothing answer to the pending question if its seat auto-passes."""
    kind = d.kind
    if kind not in PASSES or len(d.asked) != 1 or not auto_passing(s, d.asked[0]):
        return None
    if kind == "action" and not d.taken:
        return None  # the action itself is a real decision
    wanted = PASSES[kind]
    return next((c for c in RULES.decisions[kind].choices(s, d) if c.type == wanted), None)


def auto_answer(ctx: Ctx) -> None:
    """Answer the pending question for a seat that auto-passes, saying so in the log."""
    d = ctx.s.decision
    choice = pass_for(ctx.s, d)
    if choice is None:
        return
    hero = decision_hero(d)
    who = hero_name(ctx, hero) if hero else "Auto-pass"
    ctx.s.decision = None
    automatic(ctx, hero, f"{who} auto-passes: {choice.label.lower()}", why="this seat auto-passes")
    RULES.decisions[d.kind].resolve(ctx, d, choice.type, dict(choice.args))
