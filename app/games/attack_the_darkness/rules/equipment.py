"""Equipment cards (AtD L202-208): using equipment alone (its frequency and condition,
AtD L204-205), two slots (AtD L206), keeping equipment found while clearing the room
(AtD L280), and trades or gifts between resting players (AtD L207, L279)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import KeepEquipment, Trade
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import Choice

C = load()
step = RULES.step


SLOTS = 2
"""Two equipment slots (AtD L206)."""


def equipment_key(s: State, item: str) -> str:
    eq = C.equipment[s.cards[item]]
    return ("round:" if eq.uses == "round" else "enc:") + item


def usable_equipment(s: State, seat: int, *, defending: bool = False) -> list[str]:
    """Equipment usable now: its frequency unspent, its condition meetable (AtD L204);
    never in Arena (AtD L289)."""
    if s.arena:
        return []
    ch = s.chars[seat]
    out = []
    for item in ch.equipment:
        eq = C.equipment[s.cards[item]]
        if ch.used.get(equipment_key(s, item)):
            continue
        types = [p.type for p in eq.parts]
        if defending != ("defense" in types):
            continue
        need = int(eq.condition.get("discard", 0))
        kind = eq.condition.get("discard_type")
        pool = ch.hand_a + ch.hand_r
        if kind:
            pool = [c for c in ch.hand_a if kind in C.actions[s.cards[c]].types]
        if len(pool) >= need:
            out.append(item)
    return out


def equipment_pool(s: State, seat: int, item: str, excluded: set[str]) -> list[str]:
    """The hand cards that may pay an equipment's discard condition (AtD L204)."""
    ch = s.chars[seat]
    kind = C.equipment[s.cards[item]].condition.get("discard_type")
    pool = [c for c in ch.hand_a + ch.hand_r if c not in excluded]
    if kind:
        pool = [c for c in pool if c in ch.hand_a and kind in C.actions[s.cards[c]].types]
    return pool


def start_equipment(ctx: Ctx, seat: int, item: str, context: str, after: Step) -> None:
    """Equipment used alone counts as an action of its type, unmodified (AtD L205)."""
    s = ctx.s
    eq = C.equipment[s.cards[item]]
    ctx.emit("EquipmentUsed", seat=seat, item=item, id=eq.id, key=equipment_key(s, item))
    steps: list[Step] = []
    need = int(eq.condition.get("discard", 0))
    if need:
        steps.append({"op": "ask_discard", "seat": seat, "left": need})
    wanted = "defense" if context == "defend" else None
    steps += [
        {"op": "play_part", "seat": seat, "part": i}
        for i, p in enumerate(eq.parts)
        if (p.type == "defense") == (wanted == "defense")
    ]
    steps += [{"op": "finish_play", "seat": seat}, after]
    ctx.then(steps)


def keep_choices(s: State, d: KeepEquipment) -> list[Choice]:
    seat = int(d.seat)
    ch = s.chars[seat]
    item = C.equipment[s.cards[d.card]]
    used = sum(C.equipment[s.cards[e]].slots for e in ch.equipment)
    out = []
    if used + item.slots <= SLOTS:
        out.append(Choice("keep", {"drop": []}, f"Keep {item.name}"))
    else:
        for e in ch.equipment:
            if used - C.equipment[s.cards[e]].slots + item.slots <= SLOTS:
                out.append(
                    Choice(
                        "keep", {"drop": [e]}, f"Keep {item.name}, dropping {C.equipment[s.cards[e]].name}"
                    )
                )
        if not out and item.slots <= SLOTS:
            out.append(Choice("keep", {"drop": list(ch.equipment)}, f"Keep {item.name}, dropping everything"))
    return [*out, Choice("leave", {}, f"Leave {item.name}")]


@RULES.decision(KeepEquipment, keep_choices)
def resolve_keep(ctx: Ctx, d: KeepEquipment, type_: str, args: dict[str, Any]) -> None:
    s = ctx.s
    if type_ == "keep":
        ctx.emit("EquipmentKept", seat=d.seat, card=d.card, id=s.cards[d.card], dropped=list(args["drop"]))
    else:
        ctx.emit("EquipmentLeft", seat=d.seat, card=d.card)


@step("trades", "seats")
def trades(ctx: Ctx, st: Step) -> None:
    """Once the rests are done, resting players may trade or make gifts of equipment
    between themselves (AtD L279); the trades stay open until each of them is done (facts
    file §20)."""
    seats = list(st["seats"])
    ctx.ask(Trade(seat="any", seats=seats, traders=seats))


def slots_used(s: State, items: list[str]) -> int:
    return sum(C.equipment[s.cards[e]].slots for e in items)


def trade_fits(s: State, seat: int, other: int, give: str | None, take: str | None) -> bool:
    """Both keep to their 2 slots after the exchange (AtD L206)."""
    mine = [e for e in s.chars[seat].equipment if e != give] + ([take] if take else [])
    theirs = [e for e in s.chars[other].equipment if e != take] + ([give] if give else [])
    return slots_used(s, mine) <= SLOTS and slots_used(s, theirs) <= SLOTS


def item_name(s: State, item: str | None) -> str:
    return C.equipment[s.cards[item]].name if item else "nothing"


def trade_choices(s: State, d: Trade) -> list[Choice]:
    if d.offer is not None:
        o = d.offer
        what = f"{s.names[o['seat']]} gives {item_name(s, o['give'])} for {item_name(s, o['take'])}"
        return [Choice("accept", {}, f"Accept: {what}"), Choice("decline", {}, f"Decline: {what}")]
    out = []
    for seat in d.asked:
        for other in d.traders:
            if other == seat:
                continue
            gives = [*s.chars[seat].equipment, None]
            takes = [*s.chars[other].equipment, None]
            for give in gives:
                for take in takes:
                    if (give is None and take is None) or not trade_fits(s, seat, other, give, take):
                        continue
                    label = (
                        f"{s.names[seat]} offers {s.names[other]} {item_name(s, give)} "
                        f"for {item_name(s, take)}"
                    )
                    out.append(
                        Choice("propose", {"seat": seat, "to": other, "give": give, "take": take}, label)
                    )
        out.append(Choice("done", {"seat": seat}, f"{s.names[seat]} is done trading"))
    return out


@RULES.decision(Trade, trade_choices)
def resolve_trade(ctx: Ctx, d: Trade, type_: str, args: dict[str, Any]) -> None:
    """A proposal goes to the other resting player, who accepts (the items change hands at
    once) or declines; ``done`` leaves the trading; it ends when fewer than two remain."""
    traders = list(d.traders)
    if type_ == "propose":
        offer = {"seat": args["seat"], "to": args["to"], "give": args["give"], "take": args["take"]}
        ctx.emit("TradeProposed", **offer)
        ctx.ask(Trade(seat=offer["to"], traders=traders, offer=offer))
        return
    if type_ == "accept":
        assert d.offer is not None
        ctx.emit("EquipmentTraded", **d.offer)
    elif type_ == "decline":
        assert d.offer is not None
        ctx.emit("TradeDeclined", **d.offer)
    else:
        seat = args["seat"]
        ctx.emit("TradingDone", seat=seat)
        traders.remove(seat)
    if len(traders) > 1:
        ctx.ask(Trade(seat="any", seats=traders, traders=traders))
