"""The defence window (AtD L151): an attacked character may answer with a Defense card
(paid as any card) or defensive equipment before the attack resolves; in Adventure it is
skipped when nothing is playable (facts file §20)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import Defend, Pay
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.rules.equipment import start_equipment, usable_equipment
from app.games.attack_the_darkness.rules.payment import payment_plan
from app.games.attack_the_darkness.rules.query import action, defense_parts
from app.games.attack_the_darkness.state import State
from app.kernel.types import Choice

C = load()


def defend_choices(s: State, d: Defend) -> list[Any]:
    seat = int(d.seat)
    ch = s.chars[seat]
    out = []
    if not ch.fatigued and ch.hp > 0:
        seen: set[str] = set()
        for inst in ch.hand_a:
            card = action(s, inst)
            if card.id in seen or not defense_parts(card):
                continue
            if payment_plan(s, seat, inst) is not None:
                seen.add(card.id)
                out.append(Choice("defend", {"card": inst}, f"Defend with {card.name} ({card.cost.label()})"))
    for item in usable_equipment(s, seat, defending=True):
        out.append(Choice("equip", {"item": item}, f"Defend with {C.equipment[s.cards[item]].name}"))
    return [*out, Choice("pass", {}, "Take the attack")]


def can_defend(s: State, seat: int) -> bool:
    return len(defend_choices(s, Defend(seat=seat, attacker="", target="", resume={}))) > 1


@RULES.decision(Defend, defend_choices)
def resolve_defend(ctx: Ctx, d: Defend, type_: str, args: dict[str, Any]) -> None:
    seat = int(d.seat)
    if type_ == "pass":
        ctx.then([dict(d.resume)])
    elif type_ == "equip":
        start_equipment(ctx, seat, args["item"], "defend", dict(d.resume))
    else:
        ctx.ask(Pay(seat=seat, card=args["card"], rcs=[], context="defend", resume=dict(d.resume)))
