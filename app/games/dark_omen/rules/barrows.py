"""Barrows from chapter 2 (DO L314-325, facts §12): searched for with k AP (found on a d6 ≤ k),
explored with 1 AP and a torch charge: three dice kept or rerolled twice (a torch charge for
three more rolls or a fourth die), then the best pattern pays; the Mole Dwarf Ruin's barrows
in the Underworld (DO L504). Keeping and rerolling dice is shared with Draugr Dice
(``gambling.py``, DO L344-346).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from app.games.dark_omen.content import Content
from app.games.dark_omen.engine import DoCtx, action
from app.games.dark_omen.rules.creatures import place_guard
from app.games.dark_omen.rules.gambling import end_turn, shoots_the_moon
from app.games.dark_omen.rules.heroes import (
    ap_left,
    ch,
    change,
    creatures_here,
    d6,
    give_artifact,
    level,
    spend_ap,
    spend_torch,
    stats_level,
    torch_charges,
)
from app.games.dark_omen.rules.stats import side_of
from app.games.dark_omen.state import Hero, Question, State
from app.kernel.types import Choice


def barrow_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Barrows from chapter 2 (DO L315-325): search an empty space with k AP (found on a d6
    ≤ k; a failure bars retrying this round); explore one with 1 AP + a torch charge."""
    seat = h.seat
    here = h.at
    out: list[Choice] = []
    if not isinstance(here, int) or level(s) < 2:
        return out
    left = ap_left(h)
    if here in s.barrows:
        if torch_charges(s, c, h) > 0:
            out.append(ch("explore_barrow", seat, "Explore the barrow (1 AP, a torch charge)"))
        return out
    side = side_of(s, c)
    if s.chapter == 4:
        if here == 39 and torch_charges(s, c, h) > 0:  # the Mole Dwarf Ruin (DO L504)
            out.append(ch("explore_barrow", seat, "Explore the ruin's barrows (1 AP, a torch charge)"))
        return out
    empty = (
        here not in s.loot
        and here not in s.dropped
        and here not in s.locations
        and side.town_at(here) is None
        and not creatures_here(s, here)
    )
    if empty and "round:barrow_search" not in h.used and len(s.barrows) + s.barrows_gone < 4:
        for k in range(1, min(left, 6) + 1):
            out.append(ch("search_barrow", seat, f"Search for a barrow with {k} AP", ap=k))
    return out


def keep_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Keep some dice and reroll the rest (DO L344-346, L318): one choice per set of faces
    to reroll, and standing."""
    p = h.pending
    assert isinstance(p, Question)
    seat = h.seat
    out = [ch("stand", seat, f"Stop with {', '.join(map(str, p.dice))}")]
    if p.rolls_left > 0:
        distinct = sorted(set(p.dice))
        for n in range(1, len(distinct) + 1):
            for group in combinations(distinct, n):
                out.append(
                    ch("reroll", seat, f"Reroll every {', '.join(map(str, group))}", faces=list(group))
                )
    if p.kind == "barrow" and torch_charges(s, c, h) > 0:
        out.append(ch("torch_rolls", seat, "Spend a torch charge for 3 more rolls"))
        if len(p.dice) < 4:
            out.append(ch("torch_die", seat, "Spend a torch charge to add a 4th die"))
    return out


@action("search_barrow")
def do_search_barrow(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    h = ctx.s.heroes[seat]
    k = args["ap"]
    spend_ap(ctx, seat, k, "looking for a barrow")
    roll = d6(ctx)
    if roll <= k:
        ctx.emit("BarrowFound", seat=seat, space=h.at, roll=roll)
    else:
        ctx.emit("Used", seat=seat, key="round:barrow_search")
        ctx.emit("BarrowMissed", seat=seat, roll=roll)


@action("explore_barrow")
def do_explore_barrow(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_ap(ctx, seat, 1, "exploring a barrow")
    spend_torch(ctx, seat)
    ctx.emit("PendingRoll", seat=seat, kind="barrow", dice=[d6(ctx) for _ in range(3)], rolls_left=2)


@action("torch_rolls")
def do_torch_rolls(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    p = ctx.s.heroes[seat].pending
    assert isinstance(p, Question)
    spend_torch(ctx, seat)
    ctx.emit("PendingRoll", seat=seat, kind="barrow", dice=p.dice, rolls_left=p.rolls_left + 3)


@action("torch_die")
def do_torch_die(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    p = ctx.s.heroes[seat].pending
    assert isinstance(p, Question)
    spend_torch(ctx, seat)
    ctx.emit("PendingRoll", seat=seat, kind="barrow", dice=[*p.dice, d6(ctx)], rolls_left=p.rolls_left)


@action("reroll")
def do_reroll(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    h = ctx.s.heroes[seat]
    p = h.pending
    assert isinstance(p, Question)
    dice = [d6(ctx) if d in args["faces"] else d for d in p.dice]
    new = {k: v for k, v in p.to_json().items() if k != "kind"} | {
        "dice": dice,
        "rolls_left": p.rolls_left - 1,
    }
    ctx.emit("PendingRoll", seat=seat, kind=p.kind, **new)
    if p.kind == "draugr" and (new["rolls_left"] == 0 or shoots_the_moon(dice)):
        end_turn(ctx, seat)
    elif p.kind == "barrow" and new["rolls_left"] == 0 and torch_charges(ctx.s, ctx.c, h) == 0:
        finish_barrow(ctx, seat)


@action("stand")
def do_stand(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    p = ctx.s.heroes[seat].pending
    assert isinstance(p, Question)
    if p.kind in ("draugr", "hard_life"):
        end_turn(ctx, seat)
    else:
        finish_barrow(ctx, seat)


def barrow_pattern(dice: list[int]) -> str:
    """The best pattern (facts §12): four of a kind, three of a kind, straight, pair."""
    counts = Counter(dice)
    top = max(counts.values())
    if top >= 4:
        return "four"
    if top == 3:
        return "three"
    ordered = sorted(set(dice))
    if any(ordered[i : i + 3] == list(range(ordered[i], ordered[i] + 3)) for i in range(len(ordered) - 2)):
        return "straight"
    if top == 2:
        return "pair"
    return "nothing"


def finish_barrow(ctx: DoCtx, seat: int) -> None:
    s, c = ctx.s, ctx.c
    h = s.heroes[seat]
    p = h.pending
    assert isinstance(p, Question)
    pattern = barrow_pattern(p.dice)
    ctx.emit("BarrowExplored", seat=seat, dice=p.dice, pattern=pattern)
    ctx.emit("PendingCleared", seat=seat)
    lvl = stats_level(ctx)
    if pattern == "pair":
        change(ctx, seat, "a pair in the barrow", gold=1)
    elif pattern == "straight":
        change(ctx, seat, "a straight in the barrow", gold=3)
    elif pattern == "four":
        change(ctx, seat, "four of a kind in the barrow", gold=3)
        give_artifact(ctx, seat)
        ctx.emit("BarrowGone", space=h.at)
    elif pattern == "three":
        guard = "screeching_specter" if d6(ctx) <= 3 else "draugr_champion"
        cid = place_guard(ctx, h.at, f"{guard}_{lvl}", barrow=True)
        ctx.emit("SurpriseAttack", seat=seat, creature=cid)
    elif torch_charges(s, c, h) == 0:
        change(ctx, seat, "pitch black (DO L325)", mp=-5)
        guard = "screeching_specter" if lvl <= 2 else "draugr_champion"
        cid = place_guard(ctx, h.at, f"{guard}_{lvl}", barrow=False, no_flee=True)
        ctx.emit("SurpriseAttack", seat=seat, creature=cid)
