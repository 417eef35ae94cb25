"""Resolving a declared card (AtD L140-155, L168-170, L181-184): the condition first (HP,
then discards), then each action type valid now (on itself, its targets or an area), then
the draws; the card is discarded or stays in play for its duration."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import Area, Discard
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.rules.drawing import draw_n
from app.games.attack_the_darkness.rules.effects import apply_effects, apply_self, play_parts, rc_total
from app.games.attack_the_darkness.rules.equipment import equipment_pool
from app.games.attack_the_darkness.rules.health import damage
from app.games.attack_the_darkness.rules.payment import condition_need, discardable
from app.games.attack_the_darkness.rules.query import alive, ckey, own_turn_parts
from app.games.attack_the_darkness.rules.targeting import legal_areas, target_ok
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import Choice

C = load()
step = RULES.step


@step("play_condition", "seat")
def play_condition(ctx: Ctx, st: Step) -> None:
    """The condition resolves first: HP lost, then the discards (AtD L140, L182)."""
    s = ctx.s
    seat = st["seat"]
    play = s.play
    assert play is not None and play.card is not None
    card = C.actions[s.cards[play.card]]
    need, lose = condition_need(s, seat, card, play.rcs)
    if lose:
        damage(ctx, ckey(seat), lose, 0, source="condition")
    if need:
        ctx.then([{"op": "ask_discard", "seat": seat, "left": need}])


@step("ask_discard", "seat", "left")
def ask_discard(ctx: Ctx, st: Step) -> None:
    if st["left"] > 0 and ctx.s.chars[st["seat"]].hp > 0:
        ctx.ask(Discard(seat=st["seat"], left=st["left"]))


@step("equip_discard", "seat", "item", "left")
def equip_discard(ctx: Ctx, st: Step) -> None:
    """An equipment modifier's discard condition, before anything else (AtD L182, L208)."""
    if st["left"] > 0 and equipment_pool(ctx.s, st["seat"], st["item"], set()):
        ctx.ask(Discard(seat=st["seat"], left=st["left"], item=st["item"]))


def discard_choices(s: State, d: Discard) -> list[Any]:
    seat = int(d.seat)
    play = s.play
    ch = s.chars[seat]
    if d.item is not None:
        pool = equipment_pool(s, seat, d.item, set())
    elif play is not None and play.equipment:
        eq = C.equipment[s.cards[play.equipment]]
        kind = eq.condition.get("discard_type")
        pool = (
            [c for c in ch.hand_a if kind in C.actions[s.cards[c]].types] if kind else ch.hand_a + ch.hand_r
        )
    else:
        assert play is not None and play.card is not None
        pool = discardable(s, seat, C.actions[s.cards[play.card]], set())
    seen: set[str] = set()
    out = []
    for c in pool:
        if s.cards[c] in seen:
            continue
        seen.add(s.cards[c])
        out.append(Choice("discard", {"card": c}, f"Discard {C.card_name(s.cards[c])}"))
    return out


@RULES.decision(Discard, discard_choices)
def resolve_discard(ctx: Ctx, d: Discard, _t: str, args: dict[str, Any]) -> None:
    ctx.emit("CardsDiscarded", seat=d.seat, cards=[args["card"]], why="condition")
    if d.left > 1 and d.item is not None:
        ctx.then([{"op": "equip_discard", "seat": d.seat, "item": d.item, "left": d.left - 1}])
    elif d.left > 1:
        ctx.then([{"op": "ask_discard", "seat": d.seat, "left": d.left - 1}])


@step("play_part", "seat", "part")
def play_part(ctx: Ctx, st: Step) -> None:
    """One action type of the card (AtD L152-153): its effects on itself, its targets, or
    an area; effects are optional (AtD L142)."""
    s = ctx.s
    seat = st["seat"]
    if s.play is None or s.chars[seat].hp <= 0:
        return
    part = play_parts(s)[st["part"]]
    me = ckey(seat)
    if part.side == "self":
        apply_self(ctx, seat, part)
    elif part.side == "area":
        if legal_areas(s, me, part):
            ctx.ask(Area(seat=seat, part=st["part"]))
    elif part.type == "defense" and s.play.context == "defend":
        protect = s.play.protect
        if protect and target_ok(s, me, part, protect):
            apply_effects(ctx, seat, part, protect)
    else:
        ctx.then(
            [{"op": "choose_target", "seat": seat, "part": st["part"], "left": part.count, "chosen": []}]
        )


@step("finish_play", "seat")
def finish_play(ctx: Ctx, st: Step) -> None:
    """Draws come last (AtD L184); the AC is discarded or kept in play for its duration
    (AtD L168-170)."""
    s = ctx.s
    seat = st["seat"]
    play = s.play
    if play is None:
        return
    n = rc_total(s, "draw")
    if play.card or play.equipment:
        valid = (
            own_turn_parts(C.actions[s.cards[play.card]]) if play.card and play.context == "turn" else None
        )
        parts = play_parts(s)
        for i, p in enumerate(parts):
            if valid is not None and i not in valid:
                continue
            eff = p.effect("draw")
            if eff is not None:
                n += int(eff["n"])
    if n and s.chars[seat].hp > 0:
        draw_n(ctx, seat, n, 0)
    durations = [d for d in play.durations if alive(s, d[1])]
    until = max((d[0] for d in durations), default=0)
    on = durations[0][1] if durations else None
    if s.play is not None:
        ctx.emit("PlayFinished", seat=seat, until=until, on=on)
