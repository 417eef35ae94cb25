"""The monster phase (AtD L209-221, L270): the line resolves left to right, each card's
monsters in placement order (facts file §11), each by its behaviour list (keep range,
close, advance, attack, summon; AtD L211) against the lowest HP, then nearest, then
marching order (facts file §8); the game master decides in Tabletop (AtD L275) and a
dominating player for a dominated monster (AtD L75)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import GmMonster
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.grid import Square, chebyshev, in_distance, path_distances
from app.games.attack_the_darkness.rules.defence import open_defence_window
from app.games.attack_the_darkness.rules.health import char_save, damage, monster_save, penalty
from app.games.attack_the_darkness.rules.movement import move_squares
from app.games.attack_the_darkness.rules.populating import enter_monsters
from app.games.attack_the_darkness.rules.query import (
    alive,
    can_see,
    combatants,
    dominated,
    is_enemy,
    lst,
    pos,
    who_name,
)
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import GM_SEAT, Choice

C = load()
step = RULES.step


@step("monster_phase")
def monster_phase(ctx: Ctx, st: Step) -> None:
    """The line resolves left to right; each card's monsters take their turns in placement
    order (AtD L270; facts file §11)."""
    s = ctx.s
    steps = []
    for entry in s.line:
        for mid in sorted((m for m, v in s.monsters.items() if v.entry == entry), key=lambda m: int(m[1:])):
            steps.append({"op": "monster_turn", "monster": mid})
    ctx.then(steps)


def enemies_of(s: State, mid: str) -> list[str]:
    return [w for w in combatants(s) if w != mid and is_enemy(s, mid, w) and alive(s, w)]


def in_range(s: State, mid: str, who: str) -> bool:
    m = s.monsters[mid]
    kind = C.monsters[m.card].attacks["distance"]
    a, b = pos(s, mid), pos(s, who)
    if a is None or b is None:
        return False
    return in_distance(kind, chebyshev(a, b)) and can_see(s, a, b)


def best_target(s: State, mid: str) -> str | None:
    """Lowest HP, then nearest, then marching order (facts file §8)."""
    here = pos(s, mid)
    options = [w for w in enemies_of(s, mid) if in_range(s, mid, w)]
    if not options or here is None:
        return None

    def hp(w: str) -> int:
        return s.chars[int(w[1:])].hp if w.startswith("c") else s.monsters[w].hp

    return min(options, key=lambda w: (hp(w), chebyshev(here, pos(s, w)), w))  # type: ignore[arg-type]


@step("monster_turn", "monster")
def monster_turn(ctx: Ctx, st: Step) -> None:
    """A monster's turn by its behaviour list (AtD L211); the game master's in Tabletop
    (AtD L275). A stunned monster does nothing (AtD L74); an immobilized one does not move
    (AtD L73)."""
    s = ctx.s
    mid = st["monster"]
    m = s.monsters.get(mid)
    if m is None or m.stunned > s.round:
        return
    card = C.monsters[m.card]
    dominator = m.dominator
    decider: int | str | None = None
    if dominated(s, mid) and isinstance(dominator, int) and s.chars[dominator].hp > 0:
        decider = dominator  # the dominating player moves it and attacks with it (AtD L75)
    elif s.tabletop and not dominated(s, mid):
        decider = GM_SEAT
    if decider is not None:
        moved = m.immobilized > s.round
        ctx.ask(GmMonster(seat=decider, monster=mid, moved=moved, attacks=card.attacks["count"]))
        return
    for behaviour in card.behaviour:
        if behaviour == "summon" and card.summon and not m.summoned:
            ctx.emit("MonsterSummoned", id=mid)
            enter_monsters(ctx, card.summon, [], near=mid)
        elif behaviour in ("keep_range", "close", "advance"):
            monster_move(ctx, mid, behaviour)
    ctx.then([{"op": "monster_attack", "monster": mid} for _ in range(int(card.attacks["count"]))])


def monster_move(ctx: Ctx, mid: str, behaviour: str) -> None:
    s = ctx.s
    m = s.monsters[mid]
    if m.immobilized > s.round:
        return
    card = C.monsters[m.card]
    foes = enemies_of(s, mid)
    if not foes:
        return
    here = pos(s, mid)
    assert here is not None
    adjacent = any(chebyshev(here, pos(s, f)) == 1 for f in foes)  # type: ignore[arg-type]
    if behaviour == "keep_range" and not adjacent:
        return
    if behaviour in ("close", "advance") and any(in_range(s, mid, f) for f in foes):
        return
    steps = int(card.maneuver["count"]) * int(card.maneuver["move"]) - penalty(s, mid, "move")
    options = move_squares(s, mid, steps, card.flying)
    if not options:
        return
    foe_squares = [pos(s, f) for f in foes]
    dist = path_distances(s.open_squares(), [f for f in foe_squares if f is not None])
    kind = card.attacks["distance"]

    def can_hit_from(sq: Square) -> bool:
        return any(
            in_distance(kind, chebyshev(sq, f)) and can_see(s, sq, f) for f in foe_squares if f is not None
        )

    def score(sq: Square) -> tuple[int, int, int, Square]:
        near = min(chebyshev(sq, f) for f in foe_squares if f is not None)
        if behaviour == "keep_range":
            return (0 if near >= 2 else 1, 0 if can_hit_from(sq) else 1, options[sq], sq)
        return (0 if can_hit_from(sq) else 1, dist.get(sq, 999), options[sq], sq)

    best = min(options, key=score)
    if score(best) < score(here) if here in options else True:
        ctx.emit("Moved", who=mid, to=lst(best), why="behaviour")


@step("monster_attack", "monster")
def monster_attack(ctx: Ctx, st: Step) -> None:
    """One attack at the best target in range; a character's defence window comes first
    (AtD L151, L158; facts file §20: in Adventure only the seats with something playable
    are asked)."""
    s = ctx.s
    mid = st["monster"]
    if mid not in s.monsters or s.monsters[mid].stunned > s.round:
        return
    target = best_target(s, mid)
    if target is None:
        return
    hit = {"op": "hit", "source": mid, "target": target}
    if target.startswith("c"):
        open_defence_window(ctx, mid, target, hit)
    else:
        ctx.then([hit])


@step("hit", "source", "target")
def hit(ctx: Ctx, st: Step) -> None:
    """A monster's attack lands if the target is still in range and sight (facts file §20)."""
    s = ctx.s
    mid, target = st["source"], st["target"]
    if mid not in s.monsters or not alive(s, target):
        s.guard.pop(target, None)
        return
    if not in_range(s, mid, target):
        ctx.emit("Missed", attacker=mid, target=target)
        s.guard.pop(target, None)
        return
    card = C.monsters[s.monsters[mid].card]
    amount = max(0, int(card.attacks["damage"]) - penalty(s, mid, "damage"))
    if target.startswith("c"):
        damage(ctx, target, amount, char_save(ctx, target), source=mid)
    else:
        save, defended = monster_save(s, target, card.attacks["distance"])
        damage(ctx, target, amount, max(0, save - penalty(s, target, "save")), defended=defended, source=mid)


def gm_monster_choices(s: State, d: GmMonster) -> list[Any]:
    out = []
    mid = d.monster
    if mid not in s.monsters:
        return [Choice("done", {}, "End the monster's turn")]
    card = C.monsters[s.monsters[mid].card]
    if d.attacks > 0:
        for who in enemies_of(s, mid):
            if in_range(s, mid, who):
                out.append(Choice("attack", {"who": who}, f"{card.name} attacks {who_name(s, who)}"))
    if not d.moved:
        steps = int(card.maneuver["count"]) * int(card.maneuver["move"]) - penalty(s, mid, "move")
        for sq, n in sorted(move_squares(s, mid, steps, card.flying).items()):
            out.append(
                Choice(
                    "move",
                    {"to": lst(sq)},
                    f"{card.name} moves to {sq[0]},{sq[1]} ({n} square{'' if n == 1 else 's'})",
                )
            )
    return [*out, Choice("done", {}, "End the monster's turn")]


@RULES.decision(GmMonster, gm_monster_choices)
def resolve_gm_monster(ctx: Ctx, d: GmMonster, type_: str, args: dict[str, Any]) -> None:
    if type_ == "done":
        return
    if type_ == "move":
        ctx.emit(
            "Moved",
            who=d.monster,
            to=list(args["to"]),
            why="game master" if d.seat == GM_SEAT else "dominated",
        )
        ctx.ask(d.replace(moved=True))
        return
    target = args["who"]
    hit_step = {"op": "hit", "source": d.monster, "target": target}
    again = {
        "op": "gm_again",
        "monster": d.monster,
        "moved": d.moved,
        "attacks": d.attacks - 1,
        "seat": d.seat,
    }
    ctx.then([again])
    if target.startswith("c"):
        open_defence_window(ctx, d.monster, target, hit_step)
    else:
        ctx.then([hit_step])


@step("gm_again", "monster", "moved", "attacks", "seat")
def gm_again(ctx: Ctx, st: Step) -> None:
    """The same monster's turn goes on, decided by the game master or its dominator."""
    if st["monster"] in ctx.s.monsters:
        seat = st.get("seat", GM_SEAT)
        ctx.ask(GmMonster(seat=seat, monster=st["monster"], moved=st["moved"], attacks=st["attacks"]))
