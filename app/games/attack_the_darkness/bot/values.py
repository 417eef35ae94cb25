"""What the bot counts a card, a target and a resource card worth: damage that gets through a
save (AtD L76-78, L179-180, L216-217), kills first, the hardest hitter next."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.bot.common import by_type
from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.rules.advancement import adv_bonus
from app.games.attack_the_darkness.rules.effects import play_parts, rc_total
from app.games.attack_the_darkness.rules.health import monster_save
from app.games.attack_the_darkness.rules.payment import payment_ok
from app.games.attack_the_darkness.rules.query import action
from app.games.attack_the_darkness.state import State
from app.kernel.types import Choice

C = load()


BOOSTS = ("bonus_damage", "multiplier", "stun_target", "immobilize_target")


def booster(s: State, seat: int, d: Any, ch: tuple[Choice, ...]) -> Choice | None:
    """Once an attack is paid, resource cards that make it hit harder go in too: the start
    and end steps refill the hand anyway (AtD L267, L269). Not at the cost of HP the
    character can ill afford, nor of a discard from a small hand, nor when its condition
    could not be met with the card's own (two Shattering, each a discard, beside Ponderous's:
    the card would be left unpayable, and paying has no "take it back" but "Back")."""
    card = action(s, d.card)
    if "attack" not in card.types:
        return None
    char = s.chars[seat]
    for c in by_type(ch, "add"):
        rc = C.resources[s.cards[c.args["rc"]]]
        if not any(rc.modifier(op) for op in BOOSTS):
            continue
        if int(rc.condition.get("lose_hp", 0)) and char.hp <= char.max_hp // 2:
            continue
        if int(rc.condition.get("discard", 0)) and len(char.hand_a) + len(char.hand_r) < 4:
            continue
        if not payment_ok(s, seat, d.replace(rcs=[*d.rcs, c.args["rc"]])):
            continue
        return c
    return None


def part_damage(s: State, seat: int, part: Any) -> int:
    """What a part's damage comes to with the resource cards chosen so far (AtD L179-180)."""
    if part is None:
        return 0
    base = next((int(e["n"]) for e in part.effects if e["op"] in ("damage", "damage_x")), 0)
    if not base:
        return 0
    if s.play is not None and s.play.seat == seat:
        base += rc_total(s, "bonus_damage")
        base *= rc_total(s, "multiplier") or 1
    return base + adv_bonus(s, seat, "damage")


def _threat(s: State, who: str) -> int:
    if who.startswith("c"):
        return 3
    card = C.monsters[s.monsters[who].card]
    return int(card.attacks["count"]) * int(card.attacks["damage"])


def target_score(s: State, who: str, dmg: int, part: Any) -> int:
    """Kills first, then the damage that gets through the target's save, then the target
    that hits hardest (AtD L76-78, L216-217)."""
    hp = _hp(s, who)
    save = 0
    if who.startswith("m") and part is not None:
        save = monster_save(s, who, part.distance)[0]
    through = max(0, dmg - save)
    kill = through >= hp
    return (100 if kill else 0) + 10 * min(through, hp) + _threat(s, who)


def part_of(s: State, d: Any) -> Any:
    try:
        return play_parts(s)[d.part]
    except (KeyError, IndexError, TypeError):
        return None


def _hp(s: State, who: str) -> int:
    return s.chars[int(who[1:])].hp if who.startswith("c") else s.monsters[who].hp


def hp_frac(s: State, who: str) -> float:
    if who.startswith("c"):
        ch = s.chars[int(who[1:])]
        return ch.hp / max(1, ch.max_hp)
    return 1.0


def arrange(s: State, d: Any, ch: tuple[Choice, ...]) -> Choice:
    """Cheapest action cards first, then the resource cards that give the most."""
    tops = by_type(ch, "top")
    if not tops:
        return ch[-1]
    if d.deck == "actions":
        return min(tops, key=lambda c: (C.actions[s.cards[c.args["card"]]].cost.total, c.args["card"]))
    return max(
        tops,
        key=lambda c: (sum(a for a, _ in C.resources[s.cards[c.args["card"]]].resources), c.args["card"]),
    )
