"""Questions about a state that every rule asks (and the prompts, the bot and the view
with them): who a combatant is (``"c0"`` a seat's character, ``"m5"`` a monster), where it
stands, whether it is alive (AtD L69, L72), whose side it is on (a dominated monster fights
for the characters, AtD L75; teams in the Arena, AtD L288), line of sight (AtD L97-101),
whether a card's part may target a combatant (AtD L88-98, L156-158), and which parts of an
action card resolve on its player's own turn (AtD L145-155)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import TIMING_TYPES, ActionCard, Part, load
from app.games.attack_the_darkness.grid import Square, chebyshev, in_distance, line_of_sight
from app.games.attack_the_darkness.state import State

C = load()


def ckey(seat: int) -> str:
    return f"c{seat}"


def pos(s: State, who: str) -> Square | None:
    if who.startswith("c"):
        return s.chars[int(who[1:])].pos
    m = s.monsters.get(who)
    return None if m is None else m.pos


def alive(s: State, who: str) -> bool:
    if who.startswith("c"):
        return s.chars[int(who[1:])].hp > 0
    return who in s.monsters


def dominated(s: State, mid: str) -> bool:
    m = s.monsters.get(mid)
    return m is not None and m.dominated > s.round


def side(s: State, who: str) -> Any:
    """Characters are one side in Adventure and Tabletop, their team in Arena; a dominated
    monster counts as an ally of the characters (AtD L75)."""
    if who.startswith("c"):
        return ("team", s.teams[int(who[1:])]) if s.arena else "heroes"
    return "heroes" if dominated(s, who) else "monsters"


def is_enemy(s: State, a: str, b: str) -> bool:
    if s.arena:
        return side(s, a) != side(s, b)
    # outside the Arena: the characters and the monsters they dominate against the rest
    return (a[0] == "c" or dominated(s, a)) != (b[0] == "c" or dominated(s, b))


def combatants(s: State) -> list[str]:
    out = [ckey(i) for i, ch in enumerate(s.chars) if ch.pos is not None]
    return out + list(s.monsters)


def occupied(s: State) -> set[Square]:
    out = {ch.pos for ch in s.chars if ch.pos is not None}
    return out | {m.pos for m in s.monsters.values()}


def can_see(s: State, a: Square, b: Square) -> bool:
    return line_of_sight(s.open_squares(), a, b)


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


def lst(sq: Square) -> list[int]:
    return [sq[0], sq[1]]


def who_name(s: State, who: str) -> str:
    if who.startswith("c"):
        return s.names[int(who[1:])]
    m = s.monsters.get(who)
    return f"{C.monsters[m.card].name} #{who[1:]}" if m else f"#{who[1:]}"
