"""The bot's action step (AtD L268): the card worth most, else the class ability, equipment,
the speed move (strike now, else hold with the party and let the monsters come), else end
the turn, cycling a hand that cannot pay for anything (AtD L269)."""

from __future__ import annotations

import random
from typing import Any

from app.games.attack_the_darkness.bot.common import by_type
from app.games.attack_the_darkness.bot.values import hp_frac, part_damage, target_score
from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.grid import chebyshev, in_distance, path_distances
from app.games.attack_the_darkness.rules.movement import move_squares
from app.games.attack_the_darkness.rules.payment import payment_plan
from app.games.attack_the_darkness.rules.query import (
    action,
    alive,
    can_see,
    ckey,
    combatants,
    is_enemy,
    own_turn_parts,
    pos,
)
from app.games.attack_the_darkness.rules.targeting import legal_areas, legal_targets
from app.games.attack_the_darkness.state import State
from app.kernel.types import Choice

C = load()


RANGED = ("magician", "inquisitor")
"""Classes whose decks mostly shoot: they keep behind the party."""


HOLD_ROUNDS = 3
"""Rounds in which the party waits for closing monsters instead of walking up to them."""


CYCLE_ROUND = 8
"""From this round on, a turn with nothing worth playing discards the hand for new cards."""


def _nearest_enemy(s: State, me: str, sq: tuple[int, int]) -> int:
    foes = [pos(s, w) for w in combatants(s) if is_enemy(s, me, w) and alive(s, w)]
    return min((chebyshev(sq, f) for f in foes if f is not None), default=0)


_PATHS: dict[tuple[int, str], dict[tuple[int, int], int]] = {}


def approach(s: State, me: str, sq: tuple[int, int]) -> tuple[int, int, int]:
    """Lower is better: a square from which an enemy is in sight at a good distance, then
    the walking distance to the nearest enemy (so a blocked straight line is walked round)."""
    key = (id(s), me)
    dist = _PATHS.get(key)
    if dist is None:
        foes = [pos(s, w) for w in combatants(s) if is_enemy(s, me, w) and alive(s, w)]
        dist = path_distances(s.open_squares(), [f for f in foes if f is not None])
        _PATHS.clear()
        _PATHS[key] = dist
    d = _nearest_enemy(s, me, sq)
    ranged = me.startswith("c") and s.chars[int(me[1:])].cls in ("magician", "inquisitor")
    foes = [pos(s, w) for w in combatants(s) if is_enemy(s, me, w) and alive(s, w)]
    good = 2 <= d <= 4 if ranged else d == 1
    seen = any(can_see(s, sq, f) for f in foes if f is not None)
    return (0 if good and seen else 1, dist.get(sq, 99), d)


def act(s: State, seat: int, ch: tuple[Choice, ...], rng: random.Random) -> Choice:
    me = ckey(seat)
    plays = by_type(ch, "play")
    char = s.chars[seat]
    hurt = char.hp <= char.max_hp // 2
    scored: list[tuple[int, Choice]] = []
    for c in plays:
        card = action(s, c.args["card"])
        if payment_plan(s, seat, c.args["card"]) is None:
            continue
        value = 0
        for part in card.parts:
            if part.type not in ("attack", "maneuver", "recovery", "command"):
                continue
            if part.side == "area":
                if legal_areas(s, me, part):
                    value += 3
            elif part.side == "enemy" and legal_targets(s, me, part):
                dmg = part_damage(s, seat, part)
                foes = [w for w in legal_targets(s, me, part) if is_enemy(s, me, w)]
                if foes:
                    value += 5 + max(target_score(s, w, dmg, part) for w in foes) // 10
            elif part.type == "recovery" and part.side == "ally":
                hurt_allies = [
                    w
                    for w in legal_targets(s, me, part)
                    if w.startswith("c") and hp_frac(s, w) <= 0.5 and not is_enemy(s, me, w)
                ]
                value += 6 if hurt_allies else 0
            elif part.type == "recovery" and hurt:
                value += 6
            elif (
                part.side == "self"
                and part.effect("move")
                and _nearest_enemy(s, me, pos(s, me) or (0, 0)) > 2
            ) or part.effect("draw"):
                value += 1
        if value > 0:
            scored.append((value, c))
    if scored:
        return max(scored, key=lambda vc: (vc[0], -action(s, vc[1].args["card"]).cost.total))[1]
    abilities = by_type(ch, "ability")
    ability = C.classes[char.cls].ability
    moving = any(e["op"] == "move" for e in ability["effects"])
    healing = any(e["op"] == "heal" for e in ability["effects"])
    if abilities and ((healing and hurt) or (moving and _strike_from(s, seat, 4)) or not (moving or healing)):
        return abilities[0]
    equips = [c for c in by_type(ch, "equip")]
    for c in equips:
        eq = C.equipment[s.cards[c.args["item"]]]
        if any(p.side == "enemy" and legal_targets(s, me, p) for p in eq.parts):
            return c
    speed = _speed_move(s, seat, by_type(ch, "speed"))
    if speed is not None:
        return speed
    # A hand that cannot pay for any of its action cards is cycled: discard it all and draw
    # anew (AtD L269); a payable hand waiting for a target is kept, as every card drawn
    # brings fatigue nearer (AtD L70).
    # A long fight with nothing to do (foes out of reach behind fallen bodies) cycles too.
    stuck = bool(char.hand_a or char.hand_r) and (
        s.round > CYCLE_ROUND
        or not any(own_turn_parts(action(s, a)) and payment_plan(s, seat, a) is not None for a in char.hand_a)
    )
    ends = by_type(ch, "end_turn")
    return next((c for c in ends if c.args["discard"] == stuck), ends[0])


def _attack_parts(s: State, seat: int) -> list[Any]:
    """The enemy-targeting attack parts of the payable action cards in hand."""
    out = []
    for inst in s.chars[seat].hand_a:
        card = action(s, inst)
        if payment_plan(s, seat, inst) is None:
            continue
        out += [
            card.parts[i]
            for i in own_turn_parts(card)
            if card.parts[i].type == "attack" and card.parts[i].side == "enemy"
        ]
    return out


def _hits_from(s: State, seat: int, sq: tuple[int, int], parts: list[Any]) -> bool:
    me = ckey(seat)
    for w in combatants(s):
        if not (is_enemy(s, me, w) and alive(s, w)):
            continue
        there = pos(s, w)
        if there is None:
            continue
        d = chebyshev(sq, there)
        if any(in_distance(p.distance, d) for p in parts) and can_see(s, sq, there):
            return True
    return False


def _strike_from(s: State, seat: int, steps: int) -> bool:
    """Could a move of ``steps`` bring an attack card in hand to bear on an enemy?"""
    parts = _attack_parts(s, seat)
    if not parts:
        return False
    here = pos(s, ckey(seat))
    if here is None:
        return False
    return any(_hits_from(s, seat, sq, parts) for sq in move_squares(s, ckey(seat), steps))


def _speed_move(s: State, seat: int, speeds: list[Choice]) -> Choice | None:
    """Move to strike this turn; else hold with the party and let the monsters come (they
    close in by their behaviour, AtD L211): a character running ahead alone is picked off.
    Monsters that keep their distance (AtD L220) must be walked up to."""
    me = ckey(seat)
    here = pos(s, me)
    if not speeds or here is None:
        return None
    parts = _attack_parts(s, seat)
    if parts and not _hits_from(s, seat, here, parts):
        strikes = [c for c in speeds if _hits_from(s, seat, tuple(c.args["to"]), parts)]  # type: ignore[arg-type]
        if strikes:
            return min(
                strikes,
                key=lambda c: (_exposure(s, me, tuple(c.args["to"])), approach(s, me, tuple(c.args["to"]))),
            )  # type: ignore[arg-type]
    foes = [pos(s, w) for w in combatants(s) if is_enemy(s, me, w) and alive(s, w)]
    foe_squares = [f for f in foes if f is not None]
    allies = [
        pos(s, ckey(i))
        for i, ch in enumerate(s.chars)
        if i != seat and ch.hp > 0 and ch.pos is not None and not is_enemy(s, me, ckey(i))
    ]
    friends = [a for a in allies if a is not None]
    char = s.chars[seat]
    frail = char.cls in RANGED or char.hp * 5 <= char.max_hp * 2
    if frail and foe_squares and friends:
        # the frail keep out of the monsters' reach, close behind the party
        def safety(sq: tuple[int, int]) -> tuple[bool, int, int]:
            near_friend = min(chebyshev(sq, a) for a in friends)
            near_foe = min(chebyshev(sq, f) for f in foe_squares)
            return (near_friend <= 3, min(near_foe, 4), -near_friend)

        best = max(speeds, key=lambda c: safety(tuple(c.args["to"])))  # type: ignore[arg-type]
        return best if safety(tuple(best.args["to"])) > safety(here) else None  # type: ignore[arg-type]
    # after a few rounds the party goes to them anyway: a monster that cannot reach the
    # party (walls, a slow mover) must not stall the encounter
    coming = s.round <= HOLD_ROUNDS and any(
        m.hp > 0 and "keep_range" not in C.monsters[m.card].behaviour for m in s.monsters.values()
    )
    if coming and not s.arena:
        if not friends or min(chebyshev(here, a) for a in friends) <= 2:
            return None
        return min(speeds, key=lambda c: min(chebyshev(tuple(c.args["to"]), a) for a in friends))  # type: ignore[arg-type]
    best = min(speeds, key=lambda c: approach(s, me, tuple(c.args["to"])))  # type: ignore[arg-type]
    return best if approach(s, me, tuple(best.args["to"])) < approach(s, me, here) else None  # type: ignore[arg-type]


def _exposure(s: State, me: str, sq: tuple[int, int]) -> int:
    """How many enemies stand next to a square."""
    return sum(
        1
        for w in combatants(s)
        if is_enemy(s, me, w) and alive(s, w) and chebyshev(sq, pos(s, w)) == 1  # type: ignore[arg-type]
    )
