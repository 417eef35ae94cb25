"""Movement and pushing (AtD L79-87): squares a mover can end on (enemies block unless
flying; an unconscious token blocks enemies only, facts file §2), the "move up to" and
"push up to" questions, and movement penalties (AtD L295; a push is not a move)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import MoveTo
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.grid import Square, reachable
from app.games.attack_the_darkness.rules.health import penalty, use_penalty
from app.games.attack_the_darkness.rules.query import alive, combatants, is_enemy, lst, occupied, pos
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import GM_SEAT, Choice

C = load()
step = RULES.step


def blocked_for(s: State, who: str, flying: bool = False) -> set[Square]:
    """Squares ``who`` cannot pass: enemies, unless flying (AtD L80); an unconscious
    character's token blocks enemies only (facts file §2)."""
    if flying:
        return set()
    out: set[Square] = set()
    for other in combatants(s):
        if other != who and is_enemy(s, who, other):
            p = pos(s, other)
            if p is not None:
                out.add(p)
    return out


def move_squares(s: State, who: str, steps: int, flying: bool = False) -> dict[Square, int]:
    here = pos(s, who)
    if here is None or steps <= 0:
        return {}
    found = reachable(
        s.open_squares(), here, steps, blocked=blocked_for(s, who, flying), occupied=occupied(s) - {here}
    )
    found.pop(here, None)
    return found


@step("ask_move", "seat", "who", "n", "why")
def ask_move(ctx: Ctx, st: Step) -> None:
    s = ctx.s
    who = st["who"]
    if not alive(s, who) and who.startswith("c"):
        return
    if (who in s.monsters or who.startswith("c")) and push_squares(s, st["seat"], who, st["n"], st["why"]):
        ctx.ask(MoveTo(seat=st["seat"], who=who, n=st["n"], why=st["why"]))


def push_squares(s: State, seat: int, who: str, n: int, why: str) -> dict[Square, int]:
    if who.startswith("m") and who not in s.monsters:
        return {}
    if why != "push" and who.startswith("c"):
        ch = s.chars[int(who[1:])]
        if s.arena and ch.statuses.get("immobilized", 0) > s.round:
            return {}
    flying = who.startswith("m") and C.monsters[s.monsters[who].card].flying and why != "push"
    if why != "push":
        n -= penalty(s, who, "move")  # a movement penalty (AtD L295); pushes are not moves
    return move_squares(s, who, n, flying)


def move_choices(s: State, d: MoveTo) -> list[Any]:
    verb = "Push" if d.why == "push" else "Move"
    out = [
        Choice("move", {"to": lst(sq)}, f"{verb} to {sq[0]},{sq[1]} ({n} square{'' if n == 1 else 's'})")
        for sq, n in sorted(
            push_squares(s, int(d.seat) if d.seat != GM_SEAT else 0, d.who, d.n, d.why).items()
        )
    ]
    return [*out, Choice("stay", {}, "Stay put" if d.why != "push" else "Do not push")]


@RULES.decision(MoveTo, move_choices)
def resolve_move(ctx: Ctx, d: MoveTo, type_: str, args: dict[str, Any]) -> None:
    if type_ == "move":
        ctx.emit("Moved", who=d.who, to=list(args["to"]), why=d.why)
        if d.why != "push":
            use_penalty(ctx, d.who, "move")
