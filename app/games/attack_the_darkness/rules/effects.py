"""What a card does to a target (AtD L121-127, L168-184, L187): resource card and
equipment modifiers, damage = (base + bonuses) × multipliers − penalty − saves (AtD
L179-180; facts file §6), vs Minion and vs Boss (AtD L187; every Arena opponent is a boss,
AtD L289), heals, saves, pushes, statuses and penalties, in the card's printed order."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import Part, load
from app.games.attack_the_darkness.engine import Ctx
from app.games.attack_the_darkness.rules.advancement import adv_bonus
from app.games.attack_the_darkness.rules.health import (
    char_save,
    counted,
    damage,
    heal,
    monster_save,
    penalty,
    set_penalty,
    set_status,
)
from app.games.attack_the_darkness.rules.query import alive, ckey, is_enemy
from app.games.attack_the_darkness.state import State

C = load()


def rc_total(s: State, op: str) -> int:
    """What the resource cards paying for the card being resolved add to ``op`` (AtD L121-124)."""
    if s.play is None:
        return 0
    return sum(C.resources[s.cards[r]].modifier(op) for r in s.play.rcs)


def mod_total(s: State, part: Part, op: str) -> int:
    """The modifiers equipment added to the card give the part it fits (AtD L208)."""
    if s.play is None:
        return 0
    mods = [C.equipment[s.cards[e]] for e in s.play.mods]
    return sum(eq.modifier(op) for eq in mods if eq.fits(part))


def play_parts(s: State) -> tuple[Part, ...]:
    """The action types of the card (or the equipment used alone) being resolved."""
    play = s.play
    if play is None:
        return ()
    if play.equipment:
        return C.equipment[s.cards[play.equipment]].parts
    assert play.card is not None
    return C.actions[s.cards[play.card]].parts


def is_boss(s: State, who: str, attacker: str) -> bool:
    """Bosses, and in Arena every opponent (AtD L289)."""
    if who.startswith("c"):
        return s.arena and is_enemy(s, attacker, who)
    return C.monsters[s.monsters[who].card].type == "Boss"


def apply_self(ctx: Ctx, seat: int, part: Part) -> None:
    s = ctx.s
    me = ckey(seat)
    x = s.play.x if s.play is not None else 0
    for e in part.effects:
        op = e["op"]
        if op in ("heal", "heal_x"):
            heal(ctx, me, int(e["n"]) + (x if op == "heal_x" else 0) + rc_total(s, "bonus_heal"))
        elif op == "save":
            ctx.emit("Guarded", who=me, save=int(e["n"]) + rc_total(s, "bonus_save"))
        elif op == "move":
            ctx.then(
                [
                    {
                        "op": "ask_move",
                        "seat": seat,
                        "who": me,
                        "n": int(e["n"]) + rc_total(s, "bonus_move"),
                        "why": "card",
                    }
                ]
            )


def apply_effects(ctx: Ctx, seat: int, part: Part, who: str) -> None:
    s = ctx.s
    me = ckey(seat)
    x = s.play.x if s.play is not None else 0
    pushes = 0
    for e in part.effects:
        op = e["op"]
        n = int(e["n"])
        if op in ("damage", "damage_x"):
            deal(ctx, seat, part, who, e, x)
        elif op in ("heal", "heal_x"):
            heal(ctx, who, n + (x if op == "heal_x" else 0) + rc_total(s, "bonus_heal"))
        elif op == "save":
            ctx.emit("Guarded", who=who, save=n + rc_total(s, "bonus_save"))
        elif op == "push":
            pushes = n + rc_total(s, "bonus_push")
        elif op in ("stun", "immobilize", "dominate", "pressure"):
            set_status(ctx, seat, who, op, n)
        elif op == "penalty":
            set_penalty(ctx, seat, who, e["stat"], n, int(e["rounds"]))
        elif op == "move":
            ctx.then(
                [
                    {
                        "op": "ask_move",
                        "seat": seat,
                        "who": me,
                        "n": n + rc_total(s, "bonus_move"),
                        "why": "card",
                    }
                ]
            )
    if part.type == "attack":
        for op, status in (("stun_target", "stun"), ("immobilize_target", "immobilize")):
            n = rc_total(s, op)
            if n and alive(s, who):
                set_status(ctx, seat, who, status, n)
    pushes += mod_total(s, part, "bonus_push")
    if pushes and alive(s, who) and who != me:
        ctx.then([{"op": "ask_move", "seat": seat, "who": who, "n": pushes, "why": "push"}])


def deal(ctx: Ctx, seat: int, part: Part, who: str, e: dict[str, Any], x: int) -> None:
    """Damage = (base + flat bonuses) × (sum of multipliers, else 1) − saves (AtD L179-180;
    facts file §6); vs Minion and vs Boss replace the base (AtD L187)."""
    s = ctx.s
    me = ckey(seat)
    base = int(e["n"]) + (x if e["op"] == "damage_x" else 0)
    boss = is_boss(s, who, me)
    if who.startswith("m") and "vs_minion" in e and C.monsters[s.monsters[who].card].type == "Minion":
        base = int(e["vs_minion"])
    if boss and "vs_boss" in e:
        base = max(base, int(e["vs_boss"]))
    bonus = (
        rc_total(s, "bonus_damage")
        + mod_total(s, part, "bonus_damage")
        + adv_bonus(s, seat, "damage")
        + (rc_total(s, "vs_boss") if boss else 0)
    )
    mult = rc_total(s, "multiplier") or 1
    total = max(0, (base + bonus) * mult - attack_penalty(ctx, me))
    if who.startswith("m"):
        save, defended = monster_save(s, who, part.distance)
        damage(ctx, who, total, max(0, save - penalty(s, who, "save")), defended=defended, source=me)
    else:
        damage(ctx, who, total, char_save(ctx, who), source=me)


def attack_penalty(ctx: Ctx, me: str) -> int:
    """A damage penalty weakens the attacker's next attack (AtD L295): every target of the
    card being played, the use spent once for the whole card."""
    s = ctx.s
    if s.play is not None and s.play.damage_penalty is not None:
        return s.play.damage_penalty
    cut = penalty(s, me, "damage")
    if cut and counted(s, me, "damage"):
        ctx.emit("PenaltyUsed", who=me, stat="damage", in_play=cut)
    return cut
