"""A heuristic bot for any player seat (Adventure, Arena) and for the game master's picks
when no game master is present: attack the weakest enemy in reach, pay with the fewest
cards, close in with the speed move, defend when it can, rest when hurt."""

from __future__ import annotations

import random

from app.games.attack_the_darkness.bot.common import by_type
from app.games.attack_the_darkness.bot.rooms import clear_room, trade
from app.games.attack_the_darkness.bot.turn import SquareJudge, act, approach
from app.games.attack_the_darkness.bot.values import (
    arrange,
    booster,
    hp_frac,
    part_damage,
    part_of,
    target_score,
)
from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.grid import chebyshev
from app.games.attack_the_darkness.rules.payment import payment_plan
from app.games.attack_the_darkness.rules.query import ckey, is_enemy, pos
from app.games.attack_the_darkness.rules.targeting import area_members
from app.games.attack_the_darkness.state import State
from app.kernel.types import Choice, Prompt

C = load()


ADVANCEMENT_WORTH = {
    "save": 6.0,
    "damage": 4.0,
    "hand_ac": 3.0,
    "hand_rc": 2.5,
    "speed": 1.5,
    "heal_on_clear": 1.0,
}
"""What each advancement effect is worth a point (AtD L163-167, L283-286): a save blunts
every blow the monsters deal, a point of damage every card; max HP counts its points."""


def advancement_worth(card: str) -> float:
    """An advancement's effects, less half its danger (it raises every later encounter's
    danger level, AtD L253, L286)."""
    adv = C.advancements[card]
    worth = sum(float(e["n"]) * ADVANCEMENT_WORTH.get(e["op"], 1.0) for e in adv.effects)
    return worth - 0.5 * adv.danger


def bot_pick(s: State, prompt: Prompt, rng: random.Random) -> Choice:
    d = s.decision
    kind = d.kind if d is not None else ""
    ch = prompt.choices
    seat = prompt.seat
    if kind == "act":
        return act(s, int(seat), ch, rng)
    if kind == "pay":
        # Every card added must leave the payment completable: no choice is ever taken back
        # but by "Back", and "Back" then the same card again is a loop.
        for mod in by_type(ch, "modify"):
            with_mod = [*d.equipment, mod.args["item"]]  # type: ignore[union-attr]
            if payment_plan(s, int(seat), d.card, list(d.rcs), with_mod) is not None:  # type: ignore[union-attr]
                return mod
        done = by_type(ch, "done")
        if done:
            boost = booster(s, int(seat), d, ch)
            return boost if boost is not None else done[0]
        plan = payment_plan(s, int(seat), d.card, list(d.rcs), list(d.equipment))  # type: ignore[union-attr]
        wanted = {s.cards[r] for r in plan or []}
        for c in by_type(ch, "add"):
            if s.cards[c.args["rc"]] in wanted:
                return c
        return by_type(ch, "cancel")[0]
    if kind == "target":
        targets = by_type(ch, "target")
        if not targets:
            return ch[-1]
        part = part_of(s, d)
        if part is not None and part.side == "ally":
            return min(targets, key=lambda c: hp_frac(s, c.args["who"]))
        me = ckey(int(seat))
        foes = [c for c in targets if is_enemy(s, me, c.args["who"])]
        if not foes:
            return ch[-1]
        dmg = part_damage(s, int(seat), part) if part is not None else 0
        return max(foes, key=lambda c: target_score(s, c.args["who"], dmg, part))
    if kind == "area":
        areas = by_type(ch, "area")
        if not areas:
            return ch[-1]
        me = ckey(int(seat))
        part = part_of(s, d)
        heal = part is not None and part.type == "recovery"

        def score(c: Choice) -> int:
            members = area_members(s, (c.args["x"], c.args["y"]), c.args["o"], part)  # type: ignore[arg-type]
            foes = sum(1 for w in members if is_enemy(s, me, w))
            return (len(members) - 2 * foes) if heal else (2 * foes - 3 * (len(members) - foes))

        best = max(areas, key=score)
        return best if score(best) > 0 else ch[-1]
    if kind == "move_to":
        moves = by_type(ch, "move")
        if not moves:
            return ch[-1]
        me = ckey(int(seat)) if isinstance(seat, int) else ""
        if d.why == "push":  # type: ignore[union-attr]
            here = pos(s, me)
            return max(moves, key=lambda c: chebyshev(tuple(c.args["to"]), here)) if here else moves[0]  # type: ignore[arg-type]
        here = pos(s, me)
        if d.who == me and isinstance(seat, int) and not s.arena and here is not None:  # type: ignore[union-attr]
            return SquareJudge(s, seat).best(moves, here) or ch[-1]
        return min(moves, key=lambda c: approach(s, me, tuple(c.args["to"])))  # type: ignore[arg-type]
    if kind == "defend":
        plays = by_type(ch, "defend") + by_type(ch, "equip")
        return plays[0] if plays else ch[-1]
    if kind == "discard":
        return max(ch, key=lambda c: (c.args["card"] in s.chars[int(seat)].hand_r, c.args["card"]))
    if kind == "clear_room":
        return clear_room(s, ch)
    if kind == "explore":
        # never dig greedily: dug monsters seed the next encounter (AtD L281)
        for t in ("flip", "stop"):
            found = by_type(ch, t)
            if found:
                return found[0]
    if kind == "arrange":
        return arrange(s, d, ch)
    if kind in ("place_token", "choose_tile"):
        return ch[0]
    if kind == "trade":
        return trade(s, d, ch)
    if kind == "keep_equipment":
        return ch[0]
    if kind == "advance":
        return max(ch, key=lambda c: advancement_worth(s.cards[c.args["card"]]))
    if kind == "gm_pick":
        picks = by_type(ch, "pick")
        done = by_type(ch, "done")
        return done[0] if done and rng.random() < 0.7 else (rng.choice(picks) if picks else ch[-1])
    if kind == "gm_place":
        chars = [pos(s, ckey(i)) for i in range(len(s.chars))]
        near = [c for c in chars if c is not None]
        return min(ch, key=lambda c: min((chebyshev(tuple(c.args["to"]), x) for x in near), default=0))  # type: ignore[arg-type]
    if kind == "gm_monster":
        attacks = by_type(ch, "attack")
        if attacks:
            return attacks[0]
        moves = by_type(ch, "move")
        if moves and not d.moved:  # type: ignore[union-attr]
            mid = d.monster  # type: ignore[union-attr]
            return min(moves, key=lambda c: approach(s, mid, tuple(c.args["to"])))  # type: ignore[arg-type]
        return ch[-1]
    return rng.choice(list(ch))
