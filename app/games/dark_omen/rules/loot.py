"""Loot (DO L242-261, L82, L176): the face-down tokens dealt on the loot spaces after a rune
throw, flipped for 1 AP; traps, surprise creatures, bread, the chicken and its card; face-up
tokens picked up, dropped, handed over or thrown (direct damage, DO L254, L384); gold
given between heroes on one space (DO L261). Potions are ``potions.py``.
"""

from __future__ import annotations

from typing import Any

from app.games.dark_omen.content import Content
from app.games.dark_omen.engine import DoCtx, action
from app.games.dark_omen.rules.creatures import hurt_creature, place_creature, reveal
from app.games.dark_omen.rules.heroes import (
    STORED_POTIONS,
    ap_left,
    ch,
    change,
    creatures_here,
    face,
    label,
    name_of,
    room_for,
    spend_ap,
    spend_tokens,
    stats_level,
)
from app.games.dark_omen.rules.stats import side_of
from app.games.dark_omen.state import Hero, State
from app.kernel.types import Choice


def refill_loot(ctx: DoCtx) -> None:
    """Empty loot spaces get a face-down token after a rune throw (DO L82, L176)."""
    s = ctx.s
    side = side_of(s, ctx.c)
    empty = [sp for sp in side.loot if sp not in s.loot]
    count = min(len(empty), len(s.pile))
    if count:
        tokens = ctx.rng.sample(sorted(s.pile), count)
        named = [f"{token}.{s.deals + i + 1}" for i, token in enumerate(tokens)]
        ctx.emit("LootDealt", spaces=empty[:count], tokens=named)


DIRECT_DAMAGE = {"dung": 2, "tick": 1, "stone": 3}
"""Crap: 2 direct damage (DO L254); tick 1 and stone up to 3 (decision, facts §9)."""


def exchange_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Heroes sharing a space swap loot, items and gold freely (DO L261)."""
    out = []
    for other in s.heroes:
        if other.seat == h.seat or not other.alive or other.at != h.at:
            continue
        seen: set[str] = set()
        for token in h.inventory + h.potions:
            f = face(c, token)
            if f not in seen and room_for(other, f):
                seen.add(f)
                out.append(
                    ch(
                        "give",
                        h.seat,
                        f"Give the {label(f)} to {s.names[other.seat]}",
                        token=token,
                        to=other.seat,
                    )
                )
        if h.gold:
            out.append(ch("give_gold", h.seat, f"Give a gold to {s.names[other.seat]}", to=other.seat))
    return out


def flip_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """The face-down token on the hero's space, flipped for 1 AP (DO L243)."""
    if isinstance(h.at, int) and h.at in s.loot:
        return [ch("loot", h.seat, "Flip the loot token here (1 AP)")]
    return []


def pick_up_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Face-up loot lying on the hero's space, into a free slot (DO L245)."""
    out: list[Choice] = []
    if isinstance(h.at, int):
        for token in s.dropped.get(h.at, []):
            f = face(c, token)
            if room_for(h, f):
                out.append(ch("take", h.seat, f"Pick up the {label(f)}", token=token))
    return out


def use_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Stored potions drunk and traveler's bread eaten when needed (DO L247-252)."""
    out: list[Choice] = []
    for token in sorted(set(h.inventory) | set(h.potions), key=lambda t: (face(c, t), t)):
        f = face(c, token)
        if f in STORED_POTIONS:
            out.append(ch("drink", h.seat, f"Drink the {label(f)}", token=token))
        if f == "bread":
            out.append(ch("eat", h.seat, "Eat the traveler's bread (+1 AP)", token=token))
    return out


def drop_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Dropping costs nothing (DO L222, L245): one choice per face held."""
    out: list[Choice] = []
    seen: set[str] = set()
    for token in h.inventory + h.potions:
        f = face(c, token)
        if f not in seen:
            seen.add(f)
            out.append(ch("drop", h.seat, f"Drop the {label(f)}", token=token))
    return out


def throw_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """The first direct-damage token held, thrown at an enemy on the hero's space (DO L254)."""
    here = h.at
    out: list[Choice] = []
    if not isinstance(here, int) or not any(x.space == here for x in s.creatures):
        return out
    for token in h.inventory:
        f = face(c, token)
        if f in DIRECT_DAMAGE:
            for target in creatures_here(s, here):
                out.append(
                    ch(
                        "throw",
                        h.seat,
                        f"Throw the {label(f)} at the {name_of(target)}",
                        token=token,
                        creature=target.id,
                    )
                )
            break
    return out


@action("loot")
def do_loot(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 AP flips the token here (DO L243); its effect, or into a free slot (DO L246-258)."""
    s, c = ctx.s, ctx.c
    h = s.heroes[seat]
    space = h.at
    assert isinstance(space, int)
    token = s.loot[space]
    f = face(c, token)
    spend_ap(ctx, seat, 1, "loot")
    if f == "trap":
        ctx.emit("LootRevealed", seat=seat, space=space, token=token, face=f, to="discard")
        if ap_left(h) > 0:
            ctx.emit("ApChanged", seat=seat, limit=h.ap_limit - 1, why="a trap (−1 AP)")
        else:
            ctx.emit("ApChanged", seat=seat, limit=h.ap_limit, debt=1, why="a trap: −1 AP next round")
        return
    if f == "creature":
        ctx.emit("LootRevealed", seat=seat, space=space, token=token, face=f, to="discard")
        cid = place_creature(ctx, space, stats_level(ctx), kind="creature")
        ctx.emit("SurpriseAttack", seat=seat, creature=cid)
        return
    to = ("potions" if f in STORED_POTIONS else "inventory") if room_for(h, f) else "ground"
    ctx.emit("LootRevealed", seat=seat, space=space, token=token, face=f, to=to)
    if f == "chicken" and to == "inventory":
        ctx.emit(
            "GearGained", seat=seat, gear="angry_chicken", why="the chicken comes with its card (DO L257)"
        )


@action("take")
def do_take(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    h = ctx.s.heroes[seat]
    f = face(ctx.c, args["token"])
    ctx.emit(
        "LootTaken",
        seat=seat,
        token=args["token"],
        space=h.at,
        to="potions" if f in STORED_POTIONS else "inventory",
    )


@action("drop")
def do_drop(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Dropping costs nothing; the token lies face up (DO L245)."""
    h = ctx.s.heroes[seat]
    if isinstance(h.at, str):
        spend_tokens(ctx, seat, [args["token"]], "left in town")
        return
    ctx.emit("LootDropped", seat=seat, token=args["token"], space=h.at)
    if face(ctx.c, args["token"]) == "chicken" and "angry_chicken" in h.gear:
        ctx.emit("GearLost", seat=seat, gear="angry_chicken", why="the chicken is gone (DO L257)")


@action("give")
def do_give(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit("LootGiven", seat=seat, to=args["to"], token=args["token"])


@action("give_gold")
def do_give_gold(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    change(ctx, seat, "a gift", gold=-1)
    change(ctx, args["to"], "a gift", gold=1)


@action("eat")
def do_eat(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Traveler's bread: +1 AP this round (DO L252)."""
    h = ctx.s.heroes[seat]
    spend_tokens(ctx, seat, [args["token"]], "eaten")
    ctx.emit("ApChanged", seat=seat, limit=h.ap_limit + 1, why="traveler's bread (+1 AP)")


@action("throw")
def do_throw(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Direct-damage loot, thrown for 0 AP; it ignores armour (DO L254, L384)."""
    f = face(ctx.c, args["token"])
    n = DIRECT_DAMAGE[f] if f != "stone" else ctx.rng.randint(1, 3)
    spend_tokens(ctx, seat, [args["token"]], "thrown")
    target = ctx.s.creature(args["creature"])
    assert target is not None
    reveal(ctx, target)
    hurt_creature(ctx, target, n, seat)
