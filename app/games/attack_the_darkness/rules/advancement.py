"""Character advancement (AtD L283-286): after every second success each player draws
3 + 1 per advancement held and keeps one; the bonuses advancements give (AtD L163-167:
hand sizes, saves, damage; their danger, AtD L253)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import Advance
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import Choice

C = load()
step = RULES.step


def adv_bonus(s: State, seat: int, op: str) -> int:
    return sum(C.advancements[s.cards[a]].bonus(op) for a in s.chars[seat].advancements)


@step("advance_seat", "seat")
def advance_seat(ctx: Ctx, st: Step) -> None:
    """Draw 3 + 1 per advancement held, keep 1 (AtD L284-285); capped at the cards left."""
    s = ctx.s
    seat = st["seat"]
    n = min(3 + len(s.chars[seat].advancements), len(s.adv_deck))
    if n <= 0:
        return
    ctx.emit("AdvancementsDrawn", seat=seat, n=n, cards=s.adv_deck[:n])
    ctx.ask(Advance(seat=seat))


def advance_choices(s: State, d: Advance) -> list[Choice]:
    seat = int(d.seat)
    held = {s.cards[a] for a in s.chars[seat].advancements}
    out = []
    seen: set[str] = set()
    drawn = s.adv_draw.get(str(seat), [])
    for inst in drawn:
        adv = C.advancements[s.cards[inst]]
        if adv.id in seen or (adv.id in held and not adv.stacks):
            continue
        seen.add(adv.id)
        out.append(Choice("keep", {"card": inst}, f"Keep {adv.name} (danger {adv.danger})"))
    if not out and drawn:
        out.append(Choice("keep", {"card": drawn[0]}, f"Keep {C.advancements[s.cards[drawn[0]]].name}"))
    return out


@RULES.decision(Advance, advance_choices)
def resolve_advance(ctx: Ctx, d: Advance, _t: str, args: dict[str, Any]) -> None:
    s = ctx.s
    adv = C.advancements[s.cards[args["card"]]]
    ctx.emit("AdvancementKept", seat=d.seat, card=args["card"], id=adv.id, effects=list(adv.effects))
    pile = list(s.adv_deck)
    ctx.rng.shuffle(pile)
    ctx.emit("DeckShuffled", deck="advancement", order=pile, n=len(pile))
