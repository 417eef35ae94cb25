"""A round and a player's turn (AtD L264-270): the player phase in marching order (initiative
in the Arena, AtD L290), then the monster phase; a turn's start step (draws, cards in play
expiring, the Arena stun, AtD L292), its action step (cards, the speed move once, AtD L82,
equipment, the class ability) and its end step (keep or discard the hand, draw again)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import Act, ConfirmPlay, Pay
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.rules.abilities import ability_ready, use_ability
from app.games.attack_the_darkness.rules.arena import ARENA_ROUNDS
from app.games.attack_the_darkness.rules.drawing import draw_up
from app.games.attack_the_darkness.rules.equipment import start_equipment, usable_equipment
from app.games.attack_the_darkness.rules.health import penalty, use_penalty
from app.games.attack_the_darkness.rules.movement import move_squares
from app.games.attack_the_darkness.rules.payment import declare_card, payment_plan
from app.games.attack_the_darkness.rules.query import action, ckey, lst, own_turn_parts
from app.games.attack_the_darkness.rules.targeting import attack_hits_nothing
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import Choice, Unavailable

C = load()
step = RULES.step


@step("round")
def round_(ctx: Ctx, st: Step) -> None:
    """A round: the player phase in marching order, then the monster phase (AtD L265-270);
    in Arena, turns in initiative order and no monster phase (AtD L290)."""
    s = ctx.s
    if s.arena and s.round >= ARENA_ROUNDS:
        ctx.then([{"op": "encounter_over", "result": "arena_time", "team": None}])
        return
    ctx.emit("RoundBegan", round=s.round + 1)
    ctx.then([{"op": "player_turn", "seat": seat} for seat in s.order])
    if not s.arena:
        ctx.later([{"op": "monster_phase"}])


@step("player_turn", "seat")
def player_turn(ctx: Ctx, st: Step) -> None:
    """Start step: draw up to 3 + 3 (AtD L267); an unconscious character takes no turn
    (AtD L69)."""
    s = ctx.s
    seat = st["seat"]
    ch = s.chars[seat]
    if ch.hp <= 0:
        return
    ctx.emit("TurnBegan", seat=seat, round=s.round)
    expired = [e.card for e in ch.in_play if e.until <= s.round]
    if expired:
        ctx.emit("InPlayExpired", seat=seat, cards=expired)
    draw_up(ctx, seat)
    if s.arena and ch.statuses.get("stunned", 0) > s.round and ch.hand_a and ch.hand_r:
        # Arena stun: discard 1 AC and 1 RC at the end of the start step (AtD L292).
        ctx.emit("CardsDiscarded", seat=seat, cards=[ch.hand_a[0], ch.hand_r[0]], why="stunned")
    ctx.then([{"op": "act", "seat": seat}])


@step("act", "seat")
def act(ctx: Ctx, st: Step) -> None:
    if ctx.s.chars[st["seat"]].hp > 0 and ctx.s.turn == st["seat"]:
        ctx.ask(Act(seat=st["seat"]))


@step("end_step", "seat", "discard")
def end_step(ctx: Ctx, st: Step) -> None:
    """End step: optionally discard the whole hand, then draw as at the start (AtD L269)."""
    seat = st["seat"]
    ch = ctx.s.chars[seat]
    if st["discard"] and (ch.hand_a or ch.hand_r):
        ctx.emit("HandDiscarded", seat=seat, cards=ch.hand_a + ch.hand_r)
    if ch.hp > 0:
        draw_up(ctx, seat)
    ctx.emit("TurnEnded", seat=seat)


def speed_blocked(s: State, seat: int) -> bool:
    ch = s.chars[seat]
    return ch.speed_used or (s.arena and ch.statuses.get("immobilized", 0) > s.round)


def act_choices(s: State, d: Act) -> list[Any]:
    seat = int(d.seat)
    ch = s.chars[seat]
    out: list[Choice] = []
    if not ch.fatigued:
        seen: set[str] = set()
        for inst in ch.hand_a:
            card = action(s, inst)
            if card.id in seen or not own_turn_parts(card):
                continue
            cheapest = payment_plan(s, seat, inst)
            if cheapest is not None:
                seen.add(card.id)
                out += play_choices(s, seat, inst, cheapest)
        if ability_ready(s, seat):
            ab = C.classes[ch.cls].ability
            out.append(Choice("ability", {}, f"{ab['name']}: {ab['text']}"))
    for item in usable_equipment(s, seat):
        out.append(Choice("equip", {"item": item}, f"Use {C.equipment[s.cards[item]].name}"))
    if not speed_blocked(s, seat):
        speed = ch.speed - penalty(s, ckey(seat), "move")
        for sq, n in sorted(move_squares(s, ckey(seat), speed).items()):
            out.append(
                Choice(
                    "speed", {"to": lst(sq)}, f"Move to {sq[0]},{sq[1]} ({n} square{'' if n == 1 else 's'})"
                )
            )
    out.append(Choice("end_turn", {"discard": False}, "End the turn and draw"))
    if ch.hand_a or ch.hand_r:
        out.append(Choice("end_turn", {"discard": True}, "End the turn, discard the whole hand and draw"))
    return out


def rc_names(s: State, rcs: list[str]) -> str:
    return ", ".join(C.resources[s.cards[r]].name for r in rcs) or "nothing"


def play_choices(s: State, seat: int, inst: str, cheapest: list[str]) -> list[Choice]:
    """A payable card's choices (issue 26, fewer clicks): "play_cheapest" (the card's click
    on the page) pays the fewest resource cards that meet the cost and the condition, in
    one click: when the hand pays the card one way only, that way; "play" opens the payment
    step, the resource cards chosen one at a time ("choose"). Either way the resources are
    chosen before the card is declared (AtD L140, L143)."""
    card = action(s, inst)
    label = f"Play {card.name} ({card.cost.label()})"
    nothing = attack_hits_nothing(s, seat, card)
    warn = f": {NOTHING_TO_HIT}" if nothing else ""
    detail = NOTHING_DETAIL if nothing else ""
    return [
        Choice("play_cheapest", {"card": inst}, f"{label} paying {rc_names(s, cheapest)}{warn}", detail),
        Choice("play", {"card": inst}, f"{label}: choose the resource cards{warn}", detail),
    ]


def start_play(ctx: Ctx, seat: int, inst: str, cheapest: bool) -> None:
    """Pay for ``inst``: the cheapest way in one click, declared at once; else the payment
    step asks for the resource cards one at a time (AtD L143)."""
    s = ctx.s
    if cheapest:
        rcs = payment_plan(s, seat, inst) or []
        declare_card(ctx, Pay(seat=seat, card=inst, rcs=list(rcs), context="turn"))
    else:
        ctx.ask(Pay(seat=seat, card=inst, rcs=[], context="turn"))


NOTHING_TO_HIT = "no enemy in range: it will do nothing"
NOTHING_DETAIL = (
    "No enemy is in range and in sight, so the card and the resource cards paying for it "
    "would be spent for nothing (legal: AtD L157). You will be asked to confirm."
)


def act_unavailable(s: State, d: Act) -> list[Any]:
    """Cards and moves not allowed now, each with the rule that forbids it."""
    seat = int(d.seat)
    ch = s.chars[seat]
    out: list[Unavailable] = []
    seen: set[str] = set()
    for inst in ch.hand_a:
        card = action(s, inst)
        if card.id in seen:
            continue
        seen.add(card.id)
        label = f"Play {card.name}"
        if ch.fatigued:
            out.append(
                Unavailable(
                    "play", label, "a fatigued character only moves at speed and uses equipment", "AtD L71"
                )
            )
        elif not own_turn_parts(card):
            out.append(
                Unavailable("play", label, "a Defense card is played during an enemy's turn", "AtD L151")
            )
        elif payment_plan(s, seat, inst) is None:
            out.append(
                Unavailable(
                    "play",
                    label,
                    "the resource cards in hand cannot pay its cost or meet its condition",
                    "AtD L140, L143",
                )
            )
    if ch.speed_used:
        out.append(Unavailable("speed", "Move at speed", "the speed move is once per turn", "AtD L82"))
    elif s.arena and ch.statuses.get("immobilized", 0) > s.round:
        out.append(
            Unavailable(
                "speed", "Move at speed", "an immobilized character has no speed move in Arena", "AtD L293"
            )
        )
    return out


@RULES.decision(Act, act_choices, unavailable=act_unavailable)
def resolve_act(ctx: Ctx, d: Act, type_: str, args: dict[str, Any]) -> None:
    seat = int(d.seat)
    match type_:
        case "end_turn":
            ctx.then([{"op": "end_step", "seat": seat, "discard": bool(args["discard"])}])
        case "speed":
            ctx.emit("Moved", who=ckey(seat), to=list(args["to"]), why="speed")
            use_penalty(ctx, ckey(seat), "move")
            ctx.then([{"op": "act", "seat": seat}])
        case "play" | "play_cheapest":
            cheapest = type_ == "play_cheapest"
            if attack_hits_nothing(ctx.s, seat, action(ctx.s, args["card"])):
                ctx.ask(ConfirmPlay(seat=seat, card=args["card"], cheapest=cheapest))
            else:
                start_play(ctx, seat, args["card"], cheapest)
        case "equip":
            start_equipment(ctx, seat, args["item"], "turn", {"op": "act", "seat": seat})
        case "ability":
            use_ability(ctx, seat)


def confirm_choices(s: State, d: ConfirmPlay) -> list[Any]:
    name = action(s, d.card).name
    return [
        Choice("play", {}, "Play it anyway", f"Pay for {name} and spend it with nothing to hit (AtD L157)"),
        Choice("back", {}, "Back", f"Keep {name} and its resource cards in hand"),
    ]


@RULES.decision(ConfirmPlay, confirm_choices)
def resolve_confirm(ctx: Ctx, d: ConfirmPlay, type_: str, args: dict[str, Any]) -> None:
    """Confirmed: the payment starts; Back: the action step again, nothing spent."""
    seat = int(d.seat)
    if type_ == "play":
        start_play(ctx, seat, d.card, d.cheapest)
    else:
        ctx.ask(Act(seat=seat))


def schedule(ctx: Ctx) -> None:
    """The round structure: while an encounter runs, the next round (AtD L264)."""
    if ctx.s.in_encounter:
        ctx.later([{"op": "round"}])
        return
    raise RuntimeError("attack_the_darkness: nothing scheduled outside an encounter without a decision")
