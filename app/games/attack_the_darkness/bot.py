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
            return done[0]
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
        return min(targets, key=lambda c: _hp(s, c.args["who"]))
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
        for t in ("flip", "dig", "stop"):
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
                dmg = next((int(e["n"]) for e in part.effects if e["op"] in ("damage", "damage_x")), 1)
                value += 5 + dmg
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
    if abilities and (hurt or char["cls"] not in ("champion", "templar")):
        return abilities[0]
    equips = [c for c in _by(ch, "equip")]
    for c in equips:
        eq = C.equipment[s.cards[c.args["item"]]]
        if any(p.side == "enemy" and q.legal_targets(s, me, p) for p in eq.parts):
            return c
    speeds = _by(ch, "speed")
    here = q.pos(s, me)
    if speeds and here is not None:
        best = min(speeds, key=lambda c: _approach(s, me, tuple(c.args["to"])))  # type: ignore[arg-type]
        if _approach(s, me, tuple(best.args["to"])) < _approach(s, me, here):  # type: ignore[arg-type]
            return best
    # A hand with nothing worth playing is cycled: discard it all and draw anew (AtD L269).
    stuck = not scored and (char["hand_a"] or char["hand_r"])
    ends = _by(ch, "end_turn")
    return next((c for c in ends if c.args["discard"] == bool(stuck)), ends[0])


def _clear(s: State, ch: tuple[Choice, ...]) -> Choice:
    revives = _by(ch, "revive")
    if revives:
        return revives[0]
    rest = [c for c in _by(ch, "rest") if not c.args["discard"]]
    explore = [c for c in _by(ch, "explore") if not c.args["discard"]]
    seat = int(ch[0].args["seat"])
    char = s.chars[seat]
    if explore and char["hp"] >= char["max_hp"] * 0.7:
        return explore[0]
    small = len(char["actions"]) < 8 or len(char["resources"]) < 8
    pick = [c for c in rest if c.args["reshuffle"] == small]
    return (pick or rest or list(ch))[0]
