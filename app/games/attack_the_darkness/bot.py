"""A heuristic bot for any player seat (Adventure, Arena) and for the game master's picks
when no game master is present: attack the weakest enemy in reach, pay with the fewest
cards, close in with the speed move, defend when it can, rest when hurt."""

from __future__ import annotations

import random
from typing import Any

from app.games.attack_the_darkness import query as q
from app.games.attack_the_darkness.grid import chebyshev
from app.games.attack_the_darkness.rules import payment_plan
from app.games.attack_the_darkness.state import State
from app.kernel.types import Choice, Prompt

C = q.C


def _by(choices: tuple[Choice, ...], type_: str) -> list[Choice]:
    return [c for c in choices if c.type == type_]


def _nearest_enemy(s: State, me: str, sq: tuple[int, int]) -> int:
    foes = [q.pos(s, w) for w in q.combatants(s) if q.is_enemy(s, me, w) and q.alive(s, w)]
    return min((chebyshev(sq, f) for f in foes if f is not None), default=0)


def bot_pick(s: State, prompt: Prompt, rng: random.Random) -> Choice:
    d = s.decision
    kind = d.kind if d is not None else ""
    ch = prompt.choices
    seat = prompt.seat
    if kind == "act":
        return _act(s, int(seat), ch, rng)
    if kind == "pay":
        mods = _by(ch, "modify")
        if mods:
            return mods[0]
        done = _by(ch, "done")
        if done:
            boost = _booster(s, int(seat), d, ch)
            return boost if boost is not None else done[0]
        plan = payment_plan(s, int(seat), d.card, list(d.rcs))  # type: ignore[union-attr]
        wanted = {s.cards[r] for r in plan or []}
        for c in _by(ch, "add"):
            if s.cards[c.args["rc"]] in wanted:
                return c
        return _by(ch, "cancel")[0]
    if kind == "target":
        targets = _by(ch, "target")
        if not targets:
            return ch[-1]
        part = _part(s, d)
        if part is not None and part.side == "ally":
            return min(targets, key=lambda c: _hp_frac(s, c.args["who"]))
        me = q.ckey(int(seat))
        foes = [c for c in targets if q.is_enemy(s, me, c.args["who"])]
        if not foes:
            return ch[-1]
        dmg = _part_damage(s, int(seat), part) if part is not None else 0
        return max(foes, key=lambda c: _target_score(s, c.args["who"], dmg, part))
    if kind == "area":
        areas = _by(ch, "area")
        if not areas:
            return ch[-1]
        me = q.ckey(int(seat))
        part = _part(s, d)
        heal = part is not None and part.type == "recovery"

        def score(c: Choice) -> int:
            members = q.area_members(s, (c.args["x"], c.args["y"]), c.args["o"], part)  # type: ignore[arg-type]
            foes = sum(1 for w in members if q.is_enemy(s, me, w))
            return (len(members) - 2 * foes) if heal else (2 * foes - 3 * (len(members) - foes))

        best = max(areas, key=score)
        return best if score(best) > 0 else ch[-1]
    if kind == "move_to":
        moves = _by(ch, "move")
        if not moves:
            return ch[-1]
        me = q.ckey(int(seat)) if isinstance(seat, int) else ""
        if d.why == "push":  # type: ignore[union-attr]
            here = q.pos(s, me)
            return max(moves, key=lambda c: chebyshev(tuple(c.args["to"]), here)) if here else moves[0]  # type: ignore[arg-type]
        return min(moves, key=lambda c: _approach(s, me, tuple(c.args["to"])))  # type: ignore[arg-type]
    if kind == "defend":
        plays = _by(ch, "defend") + _by(ch, "equip")
        return plays[0] if plays else ch[-1]
    if kind == "discard":
        return max(ch, key=lambda c: (c.args["card"] in s.chars[int(seat)]["hand_r"], c.args["card"]))
    if kind == "clear_room":
        return _clear(s, ch)
    if kind == "explore":
        # never dig greedily: dug monsters seed the next encounter (AtD L281)
        for t in ("flip", "stop"):
            found = _by(ch, t)
            if found:
                return found[0]
    if kind == "arrange":
        return _arrange(s, d, ch)
    if kind in ("place_token", "choose_tile"):
        return ch[0]
    if kind == "trade":
        return _trade(s, d, ch)
    if kind == "keep_equipment":
        return ch[0]
    if kind == "advance":
        return max(ch, key=lambda c: C.advancements[s.cards[c.args["card"]]].bonus("max_hp"))
    if kind == "gm_pick":
        picks = _by(ch, "pick")
        done = _by(ch, "done")
        return done[0] if done and rng.random() < 0.7 else (rng.choice(picks) if picks else ch[-1])
    if kind == "gm_place":
        chars = [q.pos(s, q.ckey(i)) for i in range(len(s.chars))]
        near = [c for c in chars if c is not None]
        return min(ch, key=lambda c: min((chebyshev(tuple(c.args["to"]), x) for x in near), default=0))  # type: ignore[arg-type]
    if kind == "gm_monster":
        attacks = _by(ch, "attack")
        if attacks:
            return attacks[0]
        moves = _by(ch, "move")
        if moves and not d.moved:  # type: ignore[union-attr]
            mid = d.monster  # type: ignore[union-attr]
            return min(moves, key=lambda c: _approach(s, mid, tuple(c.args["to"])))  # type: ignore[arg-type]
        return ch[-1]
    return rng.choice(list(ch))


def _arrange(s: State, d: Any, ch: tuple[Choice, ...]) -> Choice:
    """Cheapest action cards first, then the resource cards that give the most."""
    tops = _by(ch, "top")
    if not tops:
        return ch[-1]
    if d.deck == "actions":
        return min(tops, key=lambda c: (C.actions[s.cards[c.args["card"]]].cost.total, c.args["card"]))
    return max(
        tops,
        key=lambda c: (sum(a for a, _ in C.resources[s.cards[c.args["card"]]].resources), c.args["card"]),
    )


def _trade(s: State, d: Any, ch: tuple[Choice, ...]) -> Choice:
    """Accept a gift, decline a swap; propose nothing (the bot is done at once)."""
    if d.offer is not None:
        return _by(ch, "accept" if d.offer["take"] is None else "decline")[0]
    return _by(ch, "done")[0]


RANGED = ("magician", "inquisitor")
"""Classes whose decks mostly shoot: they keep behind the party."""
HOLD_ROUNDS = 3
"""Rounds in which the party waits for closing monsters instead of walking up to them."""
CYCLE_ROUND = 8
"""From this round on, a turn with nothing worth playing discards the hand for new cards."""
BOOSTS = ("bonus_damage", "multiplier", "stun_target", "immobilize_target")


def _booster(s: State, seat: int, d: Any, ch: tuple[Choice, ...]) -> Choice | None:
    """Once an attack is paid, resource cards that make it hit harder go in too: the start
    and end steps refill the hand anyway (AtD L267, L269). Not at the cost of HP the
    character can ill afford, nor of a discard from a small hand."""
    card = q.action(s, d.card)
    if "attack" not in card.types:
        return None
    char = s.chars[seat]
    for c in _by(ch, "add"):
        rc = C.resources[s.cards[c.args["rc"]]]
        if not any(rc.modifier(op) for op in BOOSTS):
            continue
        if int(rc.condition.get("lose_hp", 0)) and char["hp"] <= char["max_hp"] // 2:
            continue
        if int(rc.condition.get("discard", 0)) and len(char["hand_a"]) + len(char["hand_r"]) < 4:
            continue
        return c
    return None


def _part_damage(s: State, seat: int, part: Any) -> int:
    """What a part's damage comes to with the resource cards chosen so far (AtD L179-180)."""
    from app.games.attack_the_darkness.rules import adv_bonus, rc_total

    if part is None:
        return 0
    base = next((int(e["n"]) for e in part.effects if e["op"] in ("damage", "damage_x")), 0)
    if not base:
        return 0
    if s.play is not None and s.play.get("seat") == seat:
        base += rc_total(s, "bonus_damage")
        base *= rc_total(s, "multiplier") or 1
    return base + adv_bonus(s, seat, "damage")


def _threat(s: State, who: str) -> int:
    if who.startswith("c"):
        return 3
    card = C.monsters[s.monsters[who]["card"]]
    return int(card.attacks["count"]) * int(card.attacks["damage"])


def _target_score(s: State, who: str, dmg: int, part: Any) -> int:
    """Kills first, then the damage that gets through the target's save, then the target
    that hits hardest (AtD L76-78, L216-217)."""
    from app.games.attack_the_darkness.rules import monster_save

    hp = _hp(s, who)
    save = 0
    if who.startswith("m") and part is not None:
        save = monster_save(s, who, part.distance)[0]
    through = max(0, dmg - save)
    kill = through >= hp
    return (100 if kill else 0) + 10 * min(through, hp) + _threat(s, who)


def _part(s: State, d: Any) -> Any:
    from app.games.attack_the_darkness.rules import play_parts

    try:
        return play_parts(s)[d.part]
    except (KeyError, IndexError, TypeError):
        return None


def _hp(s: State, who: str) -> int:
    return s.chars[int(who[1:])]["hp"] if who.startswith("c") else s.monsters[who]["hp"]


def _hp_frac(s: State, who: str) -> float:
    if who.startswith("c"):
        ch = s.chars[int(who[1:])]
        return ch["hp"] / max(1, ch["max_hp"])
    return 1.0


_PATHS: dict[tuple[int, str], dict[tuple[int, int], int]] = {}


def _approach(s: State, me: str, sq: tuple[int, int]) -> tuple[int, int, int]:
    """Lower is better: a square from which an enemy is in sight at a good distance, then
    the walking distance to the nearest enemy (so a blocked straight line is walked round)."""
    from app.games.attack_the_darkness.grid import path_distances

    key = (id(s), me)
    dist = _PATHS.get(key)
    if dist is None:
        foes = [q.pos(s, w) for w in q.combatants(s) if q.is_enemy(s, me, w) and q.alive(s, w)]
        dist = path_distances(s.open_squares(), [f for f in foes if f is not None])
        _PATHS.clear()
        _PATHS[key] = dist
    d = _nearest_enemy(s, me, sq)
    ranged = me.startswith("c") and s.chars[int(me[1:])]["cls"] in ("magician", "inquisitor")
    foes = [q.pos(s, w) for w in q.combatants(s) if q.is_enemy(s, me, w) and q.alive(s, w)]
    good = 2 <= d <= 4 if ranged else d == 1
    seen = any(q.can_see(s, sq, f) for f in foes if f is not None)
    return (0 if good and seen else 1, dist.get(sq, 99), d)


def _act(s: State, seat: int, ch: tuple[Choice, ...], rng: random.Random) -> Choice:
    me = q.ckey(seat)
    plays = _by(ch, "play")
    char = s.chars[seat]
    hurt = char["hp"] <= char["max_hp"] // 2
    scored: list[tuple[int, Choice]] = []
    for c in plays:
        card = q.action(s, c.args["card"])
        if payment_plan(s, seat, c.args["card"]) is None:
            continue
        value = 0
        for part in card.parts:
            if part.type not in ("attack", "maneuver", "recovery", "command"):
                continue
            if part.side == "area":
                if q.legal_areas(s, me, part):
                    value += 3
            elif part.side == "enemy" and q.legal_targets(s, me, part):
                dmg = _part_damage(s, seat, part)
                foes = [w for w in q.legal_targets(s, me, part) if q.is_enemy(s, me, w)]
                if foes:
                    value += 5 + max(_target_score(s, w, dmg, part) for w in foes) // 10
            elif part.type == "recovery" and part.side == "ally":
                hurt_allies = [
                    w
                    for w in q.legal_targets(s, me, part)
                    if w.startswith("c") and _hp_frac(s, w) <= 0.5 and not q.is_enemy(s, me, w)
                ]
                value += 6 if hurt_allies else 0
            elif part.type == "recovery" and hurt:
                value += 6
            elif (
                part.side == "self"
                and part.effect("move")
                and _nearest_enemy(s, me, q.pos(s, me) or (0, 0)) > 2
            ) or part.effect("draw"):
                value += 1
        if value > 0:
            scored.append((value, c))
    if scored:
        return max(scored, key=lambda vc: (vc[0], -q.action(s, vc[1].args["card"]).cost.total))[1]
    abilities = _by(ch, "ability")
    ability = C.classes[char["cls"]].ability
    moving = any(e["op"] == "move" for e in ability["effects"])
    healing = any(e["op"] == "heal" for e in ability["effects"])
    if abilities and ((healing and hurt) or (moving and _strike_from(s, seat, 4)) or not (moving or healing)):
        return abilities[0]
    equips = [c for c in _by(ch, "equip")]
    for c in equips:
        eq = C.equipment[s.cards[c.args["item"]]]
        if any(p.side == "enemy" and q.legal_targets(s, me, p) for p in eq.parts):
            return c
    speed = _speed_move(s, seat, _by(ch, "speed"))
    if speed is not None:
        return speed
    # A hand that cannot pay for any of its action cards is cycled: discard it all and draw
    # anew (AtD L269); a payable hand waiting for a target is kept, as every card drawn
    # brings fatigue nearer (AtD L70).
    # A long fight with nothing to do (foes out of reach behind fallen bodies) cycles too.
    stuck = bool(char["hand_a"] or char["hand_r"]) and (
        s.round > CYCLE_ROUND
        or not any(
            q.own_turn_parts(q.action(s, a)) and payment_plan(s, seat, a) is not None for a in char["hand_a"]
        )
    )
    ends = _by(ch, "end_turn")
    return next((c for c in ends if c.args["discard"] == stuck), ends[0])


def _attack_parts(s: State, seat: int) -> list[Any]:
    """The enemy-targeting attack parts of the payable action cards in hand."""
    out = []
    for inst in s.chars[seat]["hand_a"]:
        card = q.action(s, inst)
        if payment_plan(s, seat, inst) is None:
            continue
        out += [
            card.parts[i]
            for i in q.own_turn_parts(card)
            if card.parts[i].type == "attack" and card.parts[i].side == "enemy"
        ]
    return out


def _hits_from(s: State, seat: int, sq: tuple[int, int], parts: list[Any]) -> bool:
    from app.games.attack_the_darkness.grid import in_distance

    me = q.ckey(seat)
    for w in q.combatants(s):
        if not (q.is_enemy(s, me, w) and q.alive(s, w)):
            continue
        there = q.pos(s, w)
        if there is None:
            continue
        d = chebyshev(sq, there)
        if any(in_distance(p.distance, d) for p in parts) and q.can_see(s, sq, there):
            return True
    return False


def _strike_from(s: State, seat: int, steps: int) -> bool:
    """Could a move of ``steps`` bring an attack card in hand to bear on an enemy?"""
    parts = _attack_parts(s, seat)
    if not parts:
        return False
    here = q.pos(s, q.ckey(seat))
    if here is None:
        return False
    return any(_hits_from(s, seat, sq, parts) for sq in q.move_squares(s, q.ckey(seat), steps))


def _speed_move(s: State, seat: int, speeds: list[Choice]) -> Choice | None:
    """Move to strike this turn; else hold with the party and let the monsters come (they
    close in by their behaviour, AtD L211): a character running ahead alone is picked off.
    Monsters that keep their distance (AtD L220) must be walked up to."""
    me = q.ckey(seat)
    here = q.pos(s, me)
    if not speeds or here is None:
        return None
    parts = _attack_parts(s, seat)
    if parts and not _hits_from(s, seat, here, parts):
        strikes = [c for c in speeds if _hits_from(s, seat, tuple(c.args["to"]), parts)]  # type: ignore[arg-type]
        if strikes:
            return min(
                strikes,
                key=lambda c: (_exposure(s, me, tuple(c.args["to"])), _approach(s, me, tuple(c.args["to"]))),
            )  # type: ignore[arg-type]
    foes = [q.pos(s, w) for w in q.combatants(s) if q.is_enemy(s, me, w) and q.alive(s, w)]
    foe_squares = [f for f in foes if f is not None]
    allies = [
        q.pos(s, q.ckey(i))
        for i, ch in enumerate(s.chars)
        if i != seat and ch["hp"] > 0 and ch["pos"] is not None and not q.is_enemy(s, me, q.ckey(i))
    ]
    friends = [a for a in allies if a is not None]
    char = s.chars[seat]
    frail = char["cls"] in RANGED or char["hp"] * 5 <= char["max_hp"] * 2
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
        m["hp"] > 0 and "keep_range" not in C.monsters[m["card"]].behaviour for m in s.monsters.values()
    )
    if coming and not s.arena:
        if not friends or min(chebyshev(here, a) for a in friends) <= 2:
            return None
        return min(speeds, key=lambda c: min(chebyshev(tuple(c.args["to"]), a) for a in friends))  # type: ignore[arg-type]
    best = min(speeds, key=lambda c: _approach(s, me, tuple(c.args["to"])))  # type: ignore[arg-type]
    return best if _approach(s, me, tuple(best.args["to"])) < _approach(s, me, here) else None  # type: ignore[arg-type]


def _exposure(s: State, me: str, sq: tuple[int, int]) -> int:
    """How many enemies stand next to a square."""
    return sum(
        1
        for w in q.combatants(s)
        if q.is_enemy(s, me, w) and q.alive(s, w) and chebyshev(sq, q.pos(s, w)) == 1  # type: ignore[arg-type]
    )


def _clear(s: State, ch: tuple[Choice, ...]) -> Choice:
    revives = _by(ch, "revive")
    if revives:
        return revives[0]
    rest = [c for c in _by(ch, "rest") if not c.args["discard"]]
    explore = [c for c in _by(ch, "explore") if not c.args["discard"]]
    seat = int(ch[0].args["seat"])
    char = s.chars[seat]
    # HP lost stays lost until healed: rest unless (nearly) whole (AtD L279)
    if explore and char["hp"] >= char["max_hp"] - 1:
        return explore[0]
    small = len(char["actions"]) < 8 or len(char["resources"]) < 8
    pick = [c for c in rest if c.args["reshuffle"] == small]
    return (pick or rest or list(ch))[0]
