"""Towns and trading (DO L292-298, L326-340, L385-389): the market (buy gear of your level,
haggle, sell gear and coin-marked loot, redeem a gear scroll), Trading Posts and Villages
once a day (DO L305-306), the smith's repairs, the tavern's rest, the healer lifting a Moon
rune (DO L296); equipping gear, free unless engaged (DO L386). Gambling at the tavern is
``gambling.py``.
"""

from __future__ import annotations

from typing import Any

from app.games.dark_omen.content import Content
from app.games.dark_omen.engine import DoCtx, action
from app.games.dark_omen.rules.gambling import game_choices
from app.games.dark_omen.rules.heroes import (
    ap_left,
    ch,
    change,
    creatures_here,
    d6,
    face,
    gain_gear,
    level,
    location_at,
    slots_for,
    spend_ap,
    spend_tokens,
    stats_level,
    town_of,
)
from app.games.dark_omen.rules.stats import gear_bonus
from app.games.dark_omen.state import Hero, State
from app.kernel.types import Choice

SELLABLE = {"coin": 1, "ring": 2}
"""Only coin-symbol tokens sell (DO L250-251, L334)."""


def trade_place(s: State, h: Hero) -> str | None:
    """Where a hero can trade: a market, or an unlocked Trading Post or Village (DO L305-306)."""
    town = town_of(h.at)
    if town is not None:
        return "market" if town[1] == "market" else None
    loc = location_at(s, h.at)
    if loc and loc.open and loc.kind in ("trading_post", "village"):
        key = f"day:trade:{h.at}"
        return None if key in h.used else loc.kind
    return None


def stock_on_show(s: State) -> bool:
    """Someone stands in a town's market: every page lists its stock (DO L332-333)."""
    return any(isinstance(h.at, str) and h.at.endswith(":market") for h in s.heroes)


def price(s: State, c: Content, h: Hero, gid: str) -> int:
    return max(0, int(c.gear[gid]["price"]) - h.discount)


def trade_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Buy gear of your level or lower, haggle, sell gear for 1 gold per level, sell coin
    tokens (DO L332-337); a scroll buys a gear of the chapter's level (DO L253). Only where
    the hero can trade (``trade_place``)."""
    seat = h.seat
    out: list[Choice] = []
    if trade_place(s, h) is None:
        return out
    owned = {g for other in s.heroes for g in other.gear}
    for gid in c.shop(level(s)):
        if gid not in owned and price(s, c, h, gid) <= h.gold:
            out.append(ch("buy", seat, f"Buy {c.gear[gid]['name']} for {price(s, c, h, gid)} gold", gear=gid))
    scroll = next((t for t in h.inventory if face(c, t) == "gear_scroll"), None)
    if scroll is not None:
        for gid in c.shop(level(s)):
            if gid not in owned and c.gear[gid]["level"] == level(s):
                out.append(
                    ch(
                        "redeem",
                        seat,
                        f"Trade the gear scroll for {c.gear[gid]['name']}",
                        gear=gid,
                        token=scroll,
                    )
                )
    if h.discount == 0:
        if h.mp >= 1:
            out.append(ch("haggle", seat, "Light haggling (1 MP)", style="light"))
        if h.mp >= 2:
            out.append(ch("haggle", seat, "Heavy haggling (2 MP)", style="heavy"))
    for gid in h.gear:
        card = c.gear.get(gid)
        if card is not None and gid != "angry_chicken":
            out.append(ch("sell", seat, f"Sell {card['name']} for {card['level']} gold", gear=gid))
    seen = set()
    for token in h.inventory:
        f = face(c, token)
        if f in SELLABLE and f not in seen:
            seen.add(f)
            out.append(ch("sell_token", seat, f"Sell the {f} for {SELLABLE[f]} gold", token=token))
    return out


def equip_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Free, unless engaged: then 1 AP, once per round (DO L386)."""
    engaged = h.engaged or bool(creatures_here(s, h.at))
    if engaged and (ap_left(h) < 1 or "round:equip" in h.used):
        return []
    out = []
    for gid in h.gear:
        if gid in h.equipped.values():
            continue
        card = c.gear.get(gid) or c.holographic[gid]
        if card["level"] > level(s) and card["type"] != "artifact":
            continue
        for slot in slots_for(card):
            cost = " (1 AP)" if engaged else ""
            out.append(ch("equip", h.seat, f"Equip {card['name']} ({slot}){cost}", gear=gid, slot=slot))
    return out


def repair_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """1 AP + 1 gold per level restores charges (DO L339-340)."""
    out = []
    for gid, n in h.charges.items():
        card = c.gear.get(gid)
        if card and n < int(card.get("charges", 0)) and h.gold >= card["level"]:
            out.append(ch("repair", h.seat, f"Repair {card['name']} ({card['level']} gold)", gear=gid))
    return out


def town_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """A town's places for 1 AP (DO L292-296, L326-340): the tavern's rest (1 gold for the
    bed, once a round) and games of chance, the healer lifting a Moon rune for 3 gold or 5
    loot, the market's smith."""
    seat = h.seat
    out: list[Choice] = []
    town = town_of(h.at)
    if town is None:
        return out
    _, place = town
    if place == "tavern":
        if h.gold >= 1 or "round:rested" in h.used:
            out.append(ch("rest", seat, "Rest (+2 HP, +1 MP, 1 AP)"))
        if h.gold >= 1 and h.mp >= 1:
            out += game_choices(seat)
    if place == "healer":
        for rid in h.runes:
            card = c.runes[rid]
            if card["house"] == "Moon":
                if h.gold >= 3:
                    out.append(
                        ch("cleanse", seat, f"Be healed of {card['name']} (3 gold)", rune=rid, pay="gold")
                    )
                if len(h.inventory) >= 5:
                    out.append(
                        ch("cleanse", seat, f"Be healed of {card['name']} (5 loot)", rune=rid, pay="loot")
                    )
    if place == "market":
        out += repair_choices(s, c, h)
    return out


def mark_trade(ctx: DoCtx, seat: int) -> None:
    """A Trading Post or Village trades once per day per player (DO L305-306)."""
    h = ctx.s.heroes[seat]
    loc = ctx.s.locations.get(h.at) if isinstance(h.at, int) else None
    if loc is not None:
        ctx.emit("Used", seat=seat, key=f"day:trade:{h.at}")


@action("buy")
def do_buy(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    h = ctx.s.heroes[seat]
    cost = price(ctx.s, ctx.c, h, args["gear"])
    name = ctx.c.gear[args["gear"]]["name"]
    change(ctx, seat, f"buying the {name} for {cost} gold", gold=-cost)
    if h.discount:
        ctx.emit("DiscountSet", seat=seat, n=0)
    gain_gear(ctx, seat, args["gear"], f"bought for {cost} gold")
    mark_trade(ctx, seat)


@action("redeem")
def do_redeem(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_tokens(ctx, seat, [args["token"]], "a gear scroll traded")
    gain_gear(ctx, seat, args["gear"], "a gear scroll (DO L253)")
    mark_trade(ctx, seat)


@action("sell")
def do_sell(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Gear goes back to the deck for 1 gold per level (DO L337)."""
    card = ctx.c.gear[args["gear"]]
    ctx.emit("GearLost", seat=seat, gear=args["gear"], why="sold")
    change(ctx, seat, "a sale", gold=int(card["level"]))
    mark_trade(ctx, seat)


@action("sell_token")
def do_sell_token(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    value = SELLABLE[face(ctx.c, args["token"])]
    spend_tokens(ctx, seat, [args["token"]], "sold")
    change(ctx, seat, "a sale", gold=value)


@action("haggle")
def do_haggle(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Light: 1 MP, two roll-offs, a win takes 1 gold per level off; heavy: 2 MP, two d6,
    5–6 takes 2 gold per level off, a second failure costs 1 HP (DO L335-336)."""
    lvl = stats_level(ctx)
    knack = gear_bonus(ctx.s, ctx.c, seat, "haggle")  # added to your own haggling die
    if args["style"] == "light":
        change(ctx, seat, "light haggling", mp=-1)
        rolls = []
        for _ in range(2):
            mine, theirs = d6(ctx) + knack, d6(ctx)
            rolls.append([mine, theirs])
            if mine > theirs:
                ctx.emit("DiscountSet", seat=seat, n=lvl, rolls=rolls)
                return
        ctx.emit("DiscountSet", seat=seat, n=0, rolls=rolls)
        return
    change(ctx, seat, "heavy haggling", mp=-2)
    rolls = []
    for _ in range(2):
        roll = d6(ctx) + knack
        rolls.append([roll])
        if roll >= 5:
            ctx.emit("DiscountSet", seat=seat, n=2 * lvl, rolls=rolls)
            return
    ctx.emit("DiscountSet", seat=seat, n=0, rolls=rolls)
    change(ctx, seat, "a beating by the guard", hp=-1)


@action("repair")
def do_repair(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    card = ctx.c.gear[args["gear"]]
    spend_ap(ctx, seat, 1, "repair")
    change(ctx, seat, "the smith's fee", gold=-int(card["level"]))
    ctx.emit("ChargesSet", seat=seat, gear=args["gear"], n=int(card["charges"]))
    h = ctx.s.heroes[seat]
    if isinstance(h.at, int):
        ctx.emit("Used", seat=seat, key=f"day:repair:{h.at}")


@action("equip")
def do_equip(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    s = ctx.s
    h = s.heroes[seat]
    if h.engaged or creatures_here(s, h.at):
        spend_ap(ctx, seat, 1, "changing gear while engaged")
        ctx.emit("Used", seat=seat, key="round:equip")
    ctx.emit("GearEquipped", seat=seat, gear=args["gear"], slot=args["slot"])


@action("rest")
def do_rest(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 gold to enter the tavern's rest, then +2 HP +1 MP per AP (DO L329-330)."""
    h = ctx.s.heroes[seat]
    spend_ap(ctx, seat, 1, "rest")
    if "round:rested" not in h.used:
        change(ctx, seat, "a bed at the tavern", gold=-1)
        ctx.emit("Used", seat=seat, key="round:rested")
    change(ctx, seat, "rest", hp=2, mp=1)


@action("cleanse")
def do_cleanse(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """The healer removes a Moon rune for 3 gold or 5 loot tokens (DO L296)."""
    h = ctx.s.heroes[seat]
    spend_ap(ctx, seat, 1, "the healer")
    if args["pay"] == "gold":
        change(ctx, seat, "the healer's fee", gold=-3)
    else:
        spend_tokens(ctx, seat, h.inventory[:5], "the healer's fee")
    ctx.emit("RuneDiscarded", seat=seat, rune=args["rune"], why="healed")
