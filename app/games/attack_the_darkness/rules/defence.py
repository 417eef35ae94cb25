"""The defence window (AtD L151, L158; facts file §20): when an enemy attacks a character,
the attacked player may answer with a Defense card (paid as any card) or defensive
equipment before the attack resolves; then every other player whose Defense card can target
an Ally (AtD L158: "a friendly target") in reach and sight of the attacked character may
play it on them (Armor of Light), in marching order. Each seat is asked once and the window
closes when the last one asked has answered; the attack then lands (or misses, facts file
§20).

Who is asked: facing a human opponent (the Tabletop game master, an Arena opponent) the
attacked player always, and another player whenever public facts allow an ally Defense
(conscious, not fatigued, a class that may hold such a card, the attacked one in its reach
and sight), so a pause tells the opponent nothing about a hand; in Adventure only the seats
with something playable (facts file §20)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import Part, load
from app.games.attack_the_darkness.decisions import Defend, Pay
from app.games.attack_the_darkness.decks import legal_for
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.rules.equipment import start_equipment, usable_equipment
from app.games.attack_the_darkness.rules.payment import payment_plan
from app.games.attack_the_darkness.rules.query import action, ckey, is_enemy, target_ok, who_name
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import Choice

C = load()
step = RULES.step

WINDOW_OP = "defence_window"


def open_defence_window(ctx: Ctx, attacker: str, target: str, hit: Step) -> None:
    """An enemy attacks the character ``target``: ask the seats that may defend it, one at a
    time, then resolve ``hit`` (the attack, checked again for distance and sight)."""
    ctx.then([{"op": WINDOW_OP, "attacker": attacker, "target": target, "done": [], "hit": hit}])


@step(WINDOW_OP, "attacker", "target", "done", "hit")
def defence_window(ctx: Ctx, st: Step) -> None:
    """Ask the next seat of the window (the attacked player first, then the others in
    marching order) that may defend the target; ``done`` are the seats already passed over,
    each asked at most once. When none is left, the attack resolves."""
    s = ctx.s
    target = st["target"]
    done = list(st["done"])
    for seat in window_order(s, target):
        if seat in done:
            continue
        done.append(seat)
        if asked_to_defend(s, seat, target):
            resume = dict(st) | {"done": done}
            ctx.ask(Defend(seat=seat, attacker=st["attacker"], target=target, resume=resume))
            return
    ctx.then([dict(st["hit"])])


def window_order(s: State, target: str) -> list[int]:
    """The attacked player, then every other seat in marching (Arena: initiative) order."""
    first = int(target[1:])
    order = list(s.order) or list(range(len(s.chars)))
    order += [k for k in range(len(s.chars)) if k not in order]
    return [first, *(k for k in order if k != first)]


def facing_human(s: State) -> bool:
    """A human decides the attacks: the Tabletop game master, an Arena opponent."""
    return s.tabletop or s.arena


def asked_to_defend(s: State, seat: int, target: str) -> bool:
    """Facts file §20: facing a human opponent, the attacked player always, another player
    when the public facts allow an ally Defense; in Adventure, a seat with something
    playable."""
    if ckey(seat) == target:
        return facing_human(s) or can_defend(s, seat, target)
    if not may_guard(s, seat, target):
        return False
    return publicly_may_guard(s, seat, target) if facing_human(s) else can_defend(s, seat, target)


def may_guard(s: State, seat: int, target: str) -> bool:
    """Another character may take part: on the map, conscious, not fatigued (AtD L69-71),
    a friend of the attacked one (AtD L158; Arena teams, AtD L288)."""
    ch = s.chars[seat]
    return ch.pos is not None and ch.hp > 0 and not ch.fatigued and not is_enemy(s, ckey(seat), target)


def publicly_may_guard(s: State, seat: int, target: str) -> bool:
    """What the table knows without seeing a hand: the seat's class may hold a Defense card
    with an Ally target (AtD L306-308; not one banned in the Arena, AtD L297) that reaches
    the attacked one in sight."""
    cls = s.chars[seat].cls
    return any(
        guards(s, seat, target, part)
        for card in C.actions.values()
        if legal_for(card.classes, cls) and not (s.arena and card.arena_banned)
        for part in card.parts
    )


def guards(s: State, seat: int, target: str, part: Part) -> bool:
    """Does a Defense part played by ``seat`` protect ``target``? On the attacked player's
    own character any Defense does; on another's, an Ally target in its distance and sight
    (AtD L88-98, L158)."""
    if part.type != "defense":
        return False
    me = ckey(seat)
    return me == target or (part.side == "ally" and target_ok(s, me, part, target))


def defend_choices(s: State, d: Defend) -> list[Any]:
    seat = int(d.seat)
    ch = s.chars[seat]
    mine = d.target == ckey(seat)
    whom = "" if mine else f" {who_name(s, d.target)}"
    out = []
    if not ch.fatigued and ch.hp > 0:
        seen: set[str] = set()
        for inst in ch.hand_a:
            card = action(s, inst)
            if card.id in seen or not any(guards(s, seat, d.target, p) for p in card.parts):
                continue
            if payment_plan(s, seat, inst) is not None:
                seen.add(card.id)
                out.append(
                    Choice("defend", {"card": inst}, f"Defend{whom} with {card.name} ({card.cost.label()})")
                )
    for item in usable_equipment(s, seat, defending=True):
        eq = C.equipment[s.cards[item]]
        if any(guards(s, seat, d.target, p) for p in eq.parts):
            out.append(Choice("equip", {"item": item}, f"Defend{whom} with {eq.name}"))
    return [*out, Choice("pass", {}, "Take the attack" if mine else "Let the attack land")]


def can_defend(s: State, seat: int, target: str) -> bool:
    """Has ``seat`` anything to play in a window on an attack at ``target``?"""
    return len(defend_choices(s, Defend(seat=seat, attacker="", target=target, resume={}))) > 1


@RULES.decision(Defend, defend_choices)
def resolve_defend(ctx: Ctx, d: Defend, type_: str, args: dict[str, Any]) -> None:
    seat = int(d.seat)
    if type_ == "pass":
        ctx.then([dict(d.resume)])
    elif type_ == "equip":
        start_equipment(ctx, seat, args["item"], "defend", dict(d.resume))
    else:
        ctx.ask(Pay(seat=seat, card=args["card"], rcs=[], context="defend", resume=dict(d.resume)))
