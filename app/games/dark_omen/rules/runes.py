"""Runes (DO L144-162): every player casts 4 on days 1, 3 and 6 (a Quick Start deals one card
of each house, DO L551); immediate cards act at once and go, reactionary ones wait for
their moment (a ward turning a blow, a second wind at 5 HP), permanent ones modify a
quantity all chapter (``stats.rune_bonus``, contradictions settled by player count).
"""

from __future__ import annotations

from app.games.dark_omen.engine import DoCtx
from app.games.dark_omen.rules.campaign import quick
from app.games.dark_omen.rules.heroes import change


def rune_throw(ctx: DoCtx) -> None:
    """Everyone discards their runes and casts 4 (DO L147-150); in a Quick Start, 4 random
    cards, one of each house (DO L551)."""
    s = ctx.s
    for h in s.heroes:
        if not h.alive:
            continue
        if quick(s):
            symbols = sorted({r["rune"] for r in ctx.c.runes.values()})
            drawn = ctx.rng.sample(symbols, 4)
            cards = [
                f"{house}_{sym.lower()}"
                for house, sym in zip(("sun", "moon", "fortune", "hope"), drawn, strict=True)
            ]
            ctx.emit("RunesCast", seat=h.seat, runes=cards)
            apply_runes(ctx, h.seat, cards)
        else:
            cast_runes(ctx, h.seat)


def cast_runes(ctx: DoCtx, seat: int, *, individual_only: bool = False) -> None:
    """Draw 4 runes from the bag, each landing on one house (a d4), and apply immediate
    cards at once (DO L145-155)."""
    taken = {ctx.c.runes[r]["rune"] for h in ctx.s.heroes for r in h.runes if h.seat != seat}
    symbols = sorted({r["rune"] for r in ctx.c.runes.values()} - taken)
    drawn = ctx.rng.sample(symbols, min(4, len(symbols)))
    houses = ("Sun", "Moon", "Fortune", "Hope")
    cards = [f"{houses[ctx.rng.randint(0, 3)].lower()}_{sym.lower()}" for sym in drawn]
    keep = (
        [r for r in ctx.s.heroes[seat].runes if ctx.c.runes[r]["target"] == "group"]
        if individual_only
        else []
    )
    ctx.emit("RunesCast", seat=seat, runes=keep + cards)
    apply_runes(ctx, seat, cards)


def apply_runes(ctx: DoCtx, seat: int, cards: list[str]) -> None:
    s, c = ctx.s, ctx.c
    for rid in cards:
        card = c.runes[rid]
        effect = card["effect"]
        if card["longevity"] != "immediate":
            continue
        targets = [seat] if card["target"] == "individual" else [h.seat for h in s.heroes if h.alive]
        for t in targets:
            if card.get("ignored_by") == c.characters[s.heroes[t].character]["attribute"]:
                continue
            n = int(effect["n"])
            match effect["op"]:
                case "gain_hp":
                    change(ctx, t, card["name"], hp=n)
                case "lose_hp":
                    change(ctx, t, card["name"], hp=-n)
                case "gain_mp":
                    change(ctx, t, card["name"], mp=n)
                case "lose_mp":
                    change(ctx, t, card["name"], mp=-n)
                case "gain_gold":
                    change(ctx, t, card["name"], gold=n)
                case "lose_gold":
                    change(ctx, t, card["name"], gold=-n)
        if s.heroes[seat].alive and rid in s.heroes[seat].runes:
            ctx.emit(
                "RuneDiscarded", seat=seat, rune=rid, why="an immediate rune acts and returns to the deck"
            )


def second_wind(ctx: DoCtx) -> None:
    """Reactionary second-wind runes: at 5 HP or less, +5 HP, then discarded."""
    for h in ctx.s.heroes:
        if h.alive and 0 < h.hp <= 5:
            for rid in h.runes:
                if ctx.c.runes[rid]["effect"]["op"] == "second_wind":
                    ctx.emit("RuneDiscarded", seat=h.seat, rune=rid, why="second wind")
                    change(ctx, h.seat, "second wind", hp=int(ctx.c.runes[rid]["effect"]["n"]))
                    break


def ward(ctx: DoCtx, seat: int) -> bool:
    """A reactionary ward rune cancels the next blow, then is discarded (DO L155)."""
    h = ctx.s.heroes[seat]
    for rid in h.runes:
        if ctx.c.runes[rid]["effect"]["op"] == "ward":
            ctx.emit("RuneDiscarded", seat=seat, rune=rid, why="a ward turned a blow")
            return True
    return False
