"""The bot's action step (AtD L268): the card worth most, else the class ability, equipment,
the speed move (to strike now, else to wait just outside the monsters' reach so they walk
up and are struck first: ``square_worth``), else end the turn, cycling a hand that cannot
pay for anything (AtD L269)."""

from __future__ import annotations

import random
from typing import Any

from app.games.attack_the_darkness.bot.common import by_type
from app.games.attack_the_darkness.bot.threat import Exposure
from app.games.attack_the_darkness.bot.values import hp_frac, part_damage, target_score
from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.grid import chebyshev, in_distance, path_distances
from app.games.attack_the_darkness.rules.health import monster_save
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


CYCLE_ROUND = 8
"""From this round on, a turn with nothing worth playing discards the hand for new cards."""


def _nearest_enemy(s: State, me: str, sq: tuple[int, int]) -> int:
    foes = [pos(s, w) for w in combatants(s) if is_enemy(s, me, w) and alive(s, w)]
    return min((chebyshev(sq, f) for f in foes if f is not None), default=0)


def approach(s: State, me: str, sq: tuple[int, int]) -> tuple[int, int, int]:
    """Lower is better: a square from which an enemy is in sight at a good distance, then
    the walking distance to the nearest enemy (so a blocked straight line is walked round)."""
    dist = _foe_distances(s, me)
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
    lost = char.max_hp - char.hp
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
            elif part.type == "recovery" and (hurt or lost >= _heals(part)):
                value += 6
            elif part.effect("draw"):
                value += 1
        if value > 0:
            scored.append((value, c))
    if scored:
        return max(scored, key=lambda vc: (vc[0], -action(s, vc[1].args["card"]).cost.total))[1]
    ability = _ability(s, seat, by_type(ch, "ability"))
    if ability is not None:
        return ability
    for c in by_type(ch, "equip"):
        if _equipment_worth_using(s, seat, s.cards[c.args["item"]]):
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


def _ability(s: State, seat: int, offered: list[Choice]) -> Choice | None:
    """The class ability (AtD L109-114) when it does something now: a heal (Second Wind,
    Lay on Hands) once someone in reach has lost what it heals, a move (Shadow Step) when
    it brings an attack to bear, anything else (draws) at once."""
    if not offered:
        return None
    char = s.chars[seat]
    ability = C.classes[char.cls].ability
    heals = [int(e["n"]) for e in ability["effects"] if e["op"] == "heal"]
    moving = any(e["op"] == "move" for e in ability["effects"])
    if heals:
        return offered[0] if _lost_in_reach(s, seat, ally=char.cls == "templar") >= heals[0] - 1 else None
    if moving:
        return offered[0] if _strike_from(s, seat, 4) else None
    return offered[0]


def _heals(part: Any) -> int:
    """What a recovery part heals (a card healing X counts 3); 99 when it heals nothing."""
    for e in part.effects:
        if e["op"] == "heal":
            return int(e["n"])
        if e["op"] == "heal_x":
            return 3
    return 99


def _lost_in_reach(s: State, seat: int, *, ally: bool) -> int:
    """The most HP a conscious character in reach (the character itself, or any ally
    within 2 squares) has lost."""
    me = s.chars[seat]
    if not ally or me.pos is None:
        return me.max_hp - me.hp
    return max(
        (
            o.max_hp - o.hp
            for o in s.chars
            if o.hp > 0 and o.pos is not None and chebyshev(o.pos, me.pos) <= 2
        ),
        default=0,
    )


def _equipment_worth_using(s: State, seat: int, card: str) -> bool:
    """Equipment used alone (AtD L205) when it does something now: an attack with a foe in
    reach, a heal once it would not be wasted, draws at once; boots and shields wait."""
    me = ckey(seat)
    eq = C.equipment[card]
    for part in eq.parts:
        if part.side == "enemy" and legal_targets(s, me, part):
            return True
        heal = part.effect("heal")
        if heal is not None and _lost_in_reach(s, seat, ally=part.side == "ally") >= int(heal["n"]) - 1:
            return True
        if part.type == "command" and part.effect("draw"):
            return True
    return False


def attack_parts(s: State, seat: int) -> list[Any]:
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
    parts = attack_parts(s, seat)
    if not parts:
        return False
    here = pos(s, ckey(seat))
    if here is None:
        return False
    return any(_hits_from(s, seat, sq, parts) for sq in move_squares(s, ckey(seat), steps))


def _speed_move(s: State, seat: int, speeds: list[Choice]) -> Choice | None:
    """The speed move (AtD L82) to the square worth most (``SquareJudge``), if it is
    worth more than staying put. In the Arena the character closes in on its foes."""
    here = pos(s, ckey(seat))
    if not speeds or here is None:
        return None
    if s.arena:
        return _arena_speed_move(s, seat, speeds)
    return SquareJudge(s, seat).best(speeds, here)


PATIENCE = 3
"""Rounds the party waits outside the monsters' reach before it walks into it."""
EXPOSED = {"lead": 0.8, "behind": 1.6}
"""What each point of damage the monsters can deal a square costs: the character with the
most HP leads (the monsters strike the lowest HP in reach, AtD L211), the others keep
behind it."""


class SquareJudge:
    """What a square is worth to ``seat``'s character, in damage points: the best strike
    from it with a payable attack card in hand (damage through the save, a kill worth the
    victim's own blows), less the damage the monsters can deal there next phase
    (``threat.Exposure``; a blow that would knock the character out costs most), less the
    walk still to go to the nearest foe, less straying from the party's leader. What
    depends only on the state is worked out once."""

    def __init__(self, s: State, seat: int) -> None:
        me = ckey(seat)
        self.s = s
        self.hp = s.chars[seat].hp
        self.exposure = Exposure(s, seat)
        lead = _leader(s)
        self.lead_at = s.chars[lead].pos if lead is not None and lead != seat else None
        # a fight that drags on (monsters that keep their distance, AtD L220) must be walked
        # into: caution fades and the pull of the foes grows round by round
        self.late = max(0, s.round - PATIENCE)
        self.caution = EXPOSED["lead" if lead == seat else "behind"] * max(0.25, 1 - 0.15 * self.late)
        self.pull = 0.3 + 0.1 * self.late
        self.walks = _foe_distances(s, me)
        parts = attack_parts(s, seat)
        self.blows: list[tuple[tuple[int, int], list[tuple[str, float, int]]]] = []
        if parts:
            for w in combatants(s):
                there = pos(s, w)
                if there is None or not (is_enemy(s, me, w) and alive(s, w)):
                    continue
                hp = s.monsters[w].hp if w in s.monsters else s.chars[int(w[1:])].hp
                spared = _blows(s, w)
                options = []
                for p in parts:
                    save = monster_save(s, w, p.distance)[0] if w in s.monsters else 0
                    through = max(0, part_damage(s, seat, p) - save)
                    kill = through >= hp
                    options.append(
                        (
                            p.distance,
                            min(through, hp) + (2.0 * spared if kill else 0.0),
                            spared if kill else 0,
                        )
                    )
                self.blows.append((there, options))

    def strike(self, sq: tuple[int, int]) -> tuple[float, int]:
        """The best blow from ``sq`` and the damage a monster it kills will not deal."""
        best, spared = 0.0, 0
        for there, options in self.blows:
            d = chebyshev(sq, there)
            for distance, worth, saved in options:
                if worth > best and in_distance(distance, d) and can_see(self.s, sq, there):
                    best, spared = worth, saved
        return best, spared

    def worth(self, sq: tuple[int, int]) -> float:
        strike, spared = self.strike(sq)
        blows = max(0, self.exposure.at(sq) - spared)
        worth = strike - self.caution * blows
        if blows >= self.hp and self.late < 3:
            worth -= 30
        if self.walks:
            worth -= self.pull * min(self.walks.get(sq, 30), 30)
            if self.lead_at is not None:
                worth -= 0.6 * max(0, chebyshev(sq, self.lead_at) - 2)
        return worth

    def best(self, moves: list[Choice], here: tuple[int, int]) -> Choice | None:
        """The move to the square worth most, if it beats staying put."""
        scored = [(self.worth(tuple(c.args["to"])), c) for c in moves]  # type: ignore[arg-type]
        top, choice = max(scored, key=lambda wc: wc[0])
        return choice if top > self.worth(here) + 0.1 else None


def _leader(s: State) -> int | None:
    """The conscious character with the most HP (the first in marching order on a tie)."""
    up = [k for k in s.order if s.chars[k].hp > 0 and s.chars[k].pos is not None]
    return max(up, key=lambda k: (s.chars[k].hp, -s.order.index(k))) if up else None


def _blows(s: State, who: str) -> int:
    """What a monster deals in one turn."""
    if who not in s.monsters:
        return 3
    card = C.monsters[s.monsters[who].card]
    return int(card.attacks["count"]) * int(card.attacks["damage"])


def _foe_distances(s: State, me: str) -> dict[tuple[int, int], int]:
    """Walking distance from the nearest foe to every open square (shared: read only)."""
    foes = [p for w in combatants(s) if is_enemy(s, me, w) and alive(s, w) and (p := pos(s, w))]
    return path_distances(s.open_squares(), foes) if foes else {}


def _arena_speed_move(s: State, seat: int, speeds: list[Choice]) -> Choice | None:
    """Arena: move to strike this turn, else close in on the foes."""
    me = ckey(seat)
    here = pos(s, me)
    assert here is not None
    parts = attack_parts(s, seat)
    if parts and not _hits_from(s, seat, here, parts):
        strikes = [c for c in speeds if _hits_from(s, seat, tuple(c.args["to"]), parts)]  # type: ignore[arg-type]
        if strikes:
            return min(
                strikes,
                key=lambda c: (_exposure(s, me, tuple(c.args["to"])), approach(s, me, tuple(c.args["to"]))),
            )  # type: ignore[arg-type]
    best = min(speeds, key=lambda c: approach(s, me, tuple(c.args["to"])))  # type: ignore[arg-type]
    return best if approach(s, me, tuple(best.args["to"])) < approach(s, me, here) else None  # type: ignore[arg-type]


def _exposure(s: State, me: str, sq: tuple[int, int]) -> int:
    """How many enemies stand next to a square."""
    return sum(
        1
        for w in combatants(s)
        if is_enemy(s, me, w) and alive(s, w) and chebyshev(sq, pos(s, w)) == 1  # type: ignore[arg-type]
    )
