"""Questions about a state that the rules, prompts, bot and view all ask: who is whose
enemy, where everyone stands, what a seat can pay, which targets and squares are legal."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import COLOURS, TIMING_TYPES, ActionCard, Content, Part, load
from app.games.attack_the_darkness.grid import (
    Square,
    area_boxes,
    chebyshev,
    in_distance,
    line_of_sight,
    reachable,
)
from app.games.attack_the_darkness.state import State

C: Content = load()


def ckey(seat: int) -> str:
    return f"c{seat}"


def seat_of(who: str) -> int | None:
    return int(who[1:]) if who.startswith("c") else None


def pos(s: State, who: str) -> Square | None:
    if who.startswith("c"):
        p = s.chars[int(who[1:])]["pos"]
        return None if p is None else (p[0], p[1])
    m = s.monsters.get(who)
    return None if m is None else (m["pos"][0], m["pos"][1])


def alive(s: State, who: str) -> bool:
    if who.startswith("c"):
        return s.chars[int(who[1:])]["hp"] > 0
    return who in s.monsters


def dominated(s: State, mid: str) -> bool:
    m = s.monsters.get(mid)
    return m is not None and m.get("dominated", 0) > s.round


def side(s: State, who: str) -> Any:
    """Characters are one side in Adventure and Tabletop, their team in Arena; a dominated
    monster counts as an ally of the characters (AtD L75)."""
    if who.startswith("c"):
        return ("team", s.teams[int(who[1:])]) if s.arena else "heroes"
    return "heroes" if dominated(s, who) else "monsters"


def is_enemy(s: State, a: str, b: str) -> bool:
    return side(s, a) != side(s, b)


def combatants(s: State) -> list[str]:
    out = [ckey(i) for i, ch in enumerate(s.chars) if ch["pos"] is not None]
    return out + list(s.monsters)


def occupied(s: State) -> set[Square]:
    out = {(ch["pos"][0], ch["pos"][1]) for ch in s.chars if ch["pos"] is not None}
    return out | {(m["pos"][0], m["pos"][1]) for m in s.monsters.values()}


def blocked_for(s: State, who: str, flying: bool = False) -> set[Square]:
    """Squares ``who`` cannot pass: enemies, unless flying (AtD L80); an unconscious
    character's token blocks enemies only (facts file §2)."""
    if flying:
        return set()
    out: set[Square] = set()
    for other in combatants(s):
        if other != who and is_enemy(s, who, other):
            p = pos(s, other)
            if p is not None:
                out.add(p)
    return out


def move_squares(s: State, who: str, steps: int, flying: bool = False) -> dict[Square, int]:
    here = pos(s, who)
    if here is None or steps <= 0:
        return {}
    found = reachable(
        s.open_squares(), here, steps, blocked=blocked_for(s, who, flying), occupied=occupied(s) - {here}
    )
    found.pop(here, None)
    return found


def can_see(s: State, a: Square, b: Square) -> bool:
    return line_of_sight(s.open_squares(), a, b)


# -- cards -----------------------------------------------------------------------------------


def card_of(s: State, instance: str) -> str:
    return s.cards[instance]


def action(s: State, instance: str) -> ActionCard:
    return C.actions[s.cards[instance]]


def own_turn_parts(card: ActionCard) -> list[int]:
    """Parts a card resolves on its player's own turn (AtD L147-153): Attack, Maneuver,
    Recovery, Command; Defense too when the card says it may be played on your turn."""
    return [
        i
        for i, p in enumerate(card.parts)
        if p.type in TIMING_TYPES or (card.on_own_turn and p.type == "defense")
    ]


def defense_parts(card: ActionCard) -> list[int]:
    return [i for i, p in enumerate(card.parts) if p.type == "defense"]


def cost_parts(s: State, seat: int, card: ActionCard) -> list[tuple[int | None, str]]:
    """The cost to pay: Arena immobilization doubles a Maneuver card's cost (AtD L293)."""
    parts = list(card.cost.parts)
    if s.arena and "maneuver" in card.types and s.chars[seat]["statuses"].get("immobilized", 0) > s.round:
        parts = [(None if n is None else 2 * n, c) for n, c in parts]
    return parts


def units_of(s: State, rcs: list[str]) -> list[str]:
    """Resource units the chosen RCs provide, each as the resources it may be (AtD L124)."""
    out: list[str] = []
    for inst in rcs:
        for amount, kinds in C.resources[s.cards[inst]].resources:
            out.extend([kinds] * amount)
    return out


def pay_plan(units: list[str], parts: list[tuple[int | None, str]]) -> tuple[bool, int]:
    """Can ``units`` pay the cost (each unit a resource it may be)? Returns (paid, x): for
    an X cost, X = the units that can pay its colour, at least 1 (AtD L176)."""
    fixed = [COLOURS[c] for n, c in parts if n is not None for _ in range(n)]
    x_colour = next((c for n, c in parts if n is None), None)
    match = _match(units, fixed)
    if match is None:
        return False, 0
    if x_colour is None:
        return True, 0
    spare = [u for i, u in enumerate(units) if i not in match]
    x = sum(1 for u in spare if set(u) & set(COLOURS[x_colour]))
    return x >= 1, x


def _match(units: list[str], needs: list[str]) -> set[int] | None:
    """A bipartite matching of cost units to resource units (tiny: backtracking)."""
    used: dict[int, int] = {}

    def place(k: int, seen: set[int]) -> bool:
        for i, u in enumerate(units):
            if i in seen or not set(u) & set(needs[k]):
                continue
            seen.add(i)
            if i not in used or place(used[i], seen):
                used[i] = k
                return True
        return False

    for k in range(len(needs)):
        if not place(k, set()):
            return None
    return set(used)


def spent_units(units: list[str], parts: list[tuple[int | None, str]]) -> int:
    """How many of ``units`` the cost uses (all matching units go to an X cost)."""
    fixed = sum(n for n, _ in parts if n is not None)
    paid, x = pay_plan(units, parts)
    return fixed + x if paid else 0


def leftover_units(s: State, seat: int) -> list[str]:
    return ["S"] * s.leftover.get(str(seat), 0)


def rc_usable(s: State, inst: str, card: ActionCard) -> bool:
    """An RC powers an AC it may modify (Envenomed: attacks only, AtD L127)."""
    rc = C.resources[s.cards[inst]]
    return not (rc.attack_only and "attack" not in card.types)


def condition_need(s: State, seat: int, card: ActionCard, rcs: list[str]) -> tuple[int, int]:
    """(cards to discard, HP to lose) for the AC's and RCs' conditions (AtD L140, L181-182);
    Prepared makes each discarded card count double (AtD L308: ⌈N/2⌉ cards)."""
    discard = int(card.condition.get("discard", 0))
    lose = 0
    double = False
    for inst in rcs:
        rc = C.resources[s.cards[inst]]
        discard += int(rc.condition.get("discard", 0))
        lose += int(rc.condition.get("lose_hp", 0))
        double = double or rc.modifier("double_discards") > 0
    if double:
        discard = (discard + 1) // 2
    return discard, lose


def discardable(s: State, seat: int, card: ActionCard, hand_excluded: set[str]) -> list[str]:
    ch = s.chars[seat]
    pool = [c for c in ch["hand_a"] + ch["hand_r"] if c not in hand_excluded]
    kind = card.condition.get("discard_type")
    if kind:
        pool = [c for c in pool if c in ch["hand_a"] and kind in C.actions[s.cards[c]].types]
    return pool


def can_afford(s: State, seat: int, inst: str, *, defending: bool = False) -> bool:
    """Could the AC be paid with every RC in hand it may use, and its condition met?"""
    ch = s.chars[seat]
    card = action(s, inst)
    rcs = [r for r in ch["hand_r"] if rc_usable(s, r, card)]
    parts = cost_parts(s, seat, card)
    if not parts:
        need, lose = condition_need(s, seat, card, [])
        return len(discardable(s, seat, card, {inst})) >= need and (lose == 0 or ch["hp"] > lose)
    paid, _ = pay_plan(units_of(s, rcs) + leftover_units(s, seat), parts)
    if not paid:
        return False
    need = int(card.condition.get("discard", 0))
    return len(discardable(s, seat, card, {inst})) - 1 >= need or need == 0


# -- targets and areas --------------------------------------------------------------------------


def reach_bonus(s: State) -> int:
    play = s.play or {}
    return sum(C.resources[s.cards[r]].modifier("reach") for r in play.get("rcs", ()))


def target_ok(s: State, actor: str, part: Part, who: str, extra: int = 0) -> bool:
    """A target meets the part's side, distance and line of sight (AtD L88-98, L156-158);
    an unconscious character cannot be attacked (AtD L69)."""
    a, b = pos(s, actor), pos(s, who)
    if a is None or b is None:
        return False
    if part.side == "enemy":
        if not is_enemy(s, actor, who) or not alive(s, who):
            return False
    elif part.side == "ally":
        if is_enemy(s, actor, who):
            return False
        if part.type in ("attack", "command") and not alive(s, who):
            return False
    if who == actor:
        return part.distance in ("melee", "reach", "self") or part.side == "ally"
    d = chebyshev(a, b)
    return in_distance(part.distance, d, extra if part.type == "attack" else 0) and can_see(s, a, b)


def legal_targets(s: State, actor: str, part: Part, exclude: list[str] = ()) -> list[str]:  # type: ignore[assignment]
    extra = reach_bonus(s)
    return [who for who in combatants(s) if who not in exclude and target_ok(s, actor, part, who, extra)]


def area_ok(s: State, actor: str, part: Part, anchor: Square, orient: str) -> bool:
    """Every square of the 3×2 box meets the distance; one open square is in LOS
    (AtD L159-162). **Decision:** a melee or reach box may hold the caster's square."""
    a = pos(s, actor)
    if a is None:
        return False
    box = area_boxes(anchor, orient)
    extra = reach_bonus(s) if part.type == "attack" else 0
    for sq in box:
        d = chebyshev(a, sq)
        if part.distance == "ranged" and d < 2:
            return False
        if part.distance in ("melee", "reach") and d > (1 if part.distance == "melee" else 2) + extra:
            return False
    open_sq = s.open_squares()
    return any(sq in open_sq and can_see(s, a, sq) for sq in box)


def area_members(s: State, anchor: Square, orient: str, part: Part) -> list[str]:
    """Everything inside is targeted (AtD L161): attack areas skip unconscious characters,
    recovery areas heal (and wake) them (facts file §2)."""
    box = set(area_boxes(anchor, orient))
    out = []
    for who in combatants(s):
        p = pos(s, who)
        if p in box and (alive(s, who) or part.type == "recovery"):
            out.append(who)
    return out


def legal_areas(s: State, actor: str, part: Part) -> list[tuple[Square, str]]:
    """Placements that meet the rules and hold at least one combatant (an empty one does
    nothing: not offered)."""
    a = pos(s, actor)
    if a is None:
        return []
    spots = {pos(s, w) for w in combatants(s) if alive(s, w) or part.type == "recovery"}
    anchors: set[tuple[Square, str]] = set()
    for sq in spots:
        if sq is None:
            continue
        for o, (w, h) in (("h", (3, 2)), ("v", (2, 3))):
            for i in range(w):
                for j in range(h):
                    anchors.add(((sq[0] - i, sq[1] - j), o))
    return sorted(x for x in anchors if area_ok(s, actor, part, x[0], x[1]))
