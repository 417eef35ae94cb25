"""What a card will do to each target the player may pick, said before the click that
commits it (issue 13 "Playing a card"): "Hack! with Reaching on Zombie #2: 6 damage (vs a
minion) − 1 save (its defence) = 5 → Zombie #2 dies (4 HP)".

Pure reads of the state, made with the very numbers the rules use (``effects.deal``,
``health.monster_save``, ``health.char_save``, ``effects.apply_effects``): Attack the
Darkness rolls no dice, so a monster's outcome is certain; what is not is said as such — an Arena
opponent may still answer with a Defense card (AtD L151, L289), a push happens only if the
target survives. Shown to the seat choosing (``Game.page_extras``), never in ``view``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.attack_the_darkness.board import PENALTY_STAT
from app.games.attack_the_darkness.content import Part, load
from app.games.attack_the_darkness.decisions import Area, Target
from app.games.attack_the_darkness.rules.advancement import adv_bonus
from app.games.attack_the_darkness.rules.effects import is_boss, mod_total, play_parts, rc_total
from app.games.attack_the_darkness.rules.health import monster_save, penalty
from app.games.attack_the_darkness.rules.query import ckey, is_enemy, who_name
from app.games.attack_the_darkness.rules.targeting import area_choices, area_members, target_choices
from app.games.attack_the_darkness.state import State
from app.games.attack_the_darkness.targets import choice_target
from app.kernel.types import Choice, Viewer

C = load()
INF = 10**6
"""``health.monster_save``'s stand-in for an INF save (AtD L78, L217)."""
STATUS_WORDS = {
    "stun": "stunned",
    "immobilize": "immobilized",
    "dominate": "dominated",
    "pressure": "pressured",
}


@dataclass(frozen=True, slots=True)
class Hit:
    """One damage effect on one target, as ``effects.deal`` will compute it."""

    base: int
    base_why: str
    bonus: int
    mult: int
    weakened: int
    total: int
    save: int
    save_why: str
    dealt: int
    hp_before: int
    hp_after: int


def char_save(s: State, who: str) -> int:
    """``health.char_save`` without spending anything (AtD L295)."""
    seat = int(who[1:])
    save = s.guard.get(who, 0) + adv_bonus(s, seat, "save")
    cut = penalty(s, who, "save")
    return max(0, save - cut) if save > 0 and cut else save


def weakened_by(s: State, me: str) -> int:
    """The attacker's damage penalty on this card (``effects.attack_penalty``, AtD L295)."""
    if s.play is not None and s.play.damage_penalty is not None:
        return s.play.damage_penalty
    return penalty(s, me, "damage")


def hit(s: State, seat: int, part: Part, who: str, e: dict[str, Any], hp: int) -> Hit:
    """Damage = (base + flat bonuses) × (sum of multipliers, else 1) − penalty − saves
    (AtD L179-180, L76-78; facts file §6), vs Minion and vs Boss replacing the base (AtD L187),
    as ``effects.deal`` does."""
    me = ckey(seat)
    x = s.play.x if s.play is not None else 0
    base, why = int(e["n"]) + (x if e["op"] == "damage_x" else 0), ""
    boss = is_boss(s, who, me)
    if who.startswith("m") and "vs_minion" in e and C.monsters[s.monsters[who].card].type == "Minion":
        base, why = int(e["vs_minion"]), "against a minion"
    if boss and "vs_boss" in e and int(e["vs_boss"]) > base:
        base, why = int(e["vs_boss"]), "against a boss"
    bonus = (
        rc_total(s, "bonus_damage")
        + mod_total(s, part, "bonus_damage")
        + adv_bonus(s, seat, "damage")
        + (rc_total(s, "vs_boss") if boss else 0)
    )
    mult = rc_total(s, "multiplier") or 1
    weakened = weakened_by(s, me)
    total = max(0, (base + bonus) * mult - weakened)
    if who.startswith("m"):
        save, defended = monster_save(s, who, part.distance)
        cut = penalty(s, who, "save")
        save = max(0, save - cut)
        save_why = _monster_defence(s, who) if defended else ""
        if defended and cut:
            save_why += f", less a −{cut} save penalty"
    else:
        save = char_save(s, who)
        save_why = "raised by Defense cards and advancements" if save else ""
    dealt = max(0, total - save)
    return Hit(base, why, bonus, mult, weakened, total, save, save_why, dealt, hp, max(0, hp - dealt))


def _monster_defence(s: State, mid: str) -> str:
    d = C.monsters[s.monsters[mid].card].defenses
    if d["count"] == "INF":
        return "its defence, against every attack"
    used = s.monsters[mid].defended
    return f"its defence, {used + 1} of {d['count']} this round"


def hit_text(h: Hit) -> str:
    """ "(4 + 2) × 2 − 1 (damage penalty) = 11 damage − 2 save (its defence…) = 9"."""
    amount = f"{h.base}" + (f" ({h.base_why})" if h.base_why else "")
    if h.bonus:
        amount = f"{amount} + {h.bonus}"
    if h.mult > 1:
        amount = f"({amount}) × {h.mult}" if h.bonus else f"{amount} × {h.mult}"
    if h.weakened:
        amount += f" − {h.weakened} (damage penalty)"
    text = f"{amount} = {h.total} damage" if (h.bonus or h.mult > 1 or h.weakened) else f"{amount} damage"
    if h.save >= INF:
        return f"{text}, all saved ({h.save_why}): no damage"
    if h.save:
        text += f" − {h.save} save ({h.save_why}) = {h.dealt}"
    return text


def on_target(s: State, seat: int, part: Part, who: str, *, area: bool = False) -> str:
    """What ``part`` of the card being played does to ``who`` (``effects.apply_effects``)."""
    me = ckey(seat)
    name = who_name(s, who)
    is_char = who.startswith("c")
    hp = s.chars[int(who[1:])].hp if is_char else s.monsters[who].hp
    top = s.chars[int(who[1:])].max_hp if is_char else C.monsters[s.monsters[who].card].hp
    x = s.play.x if s.play is not None else 0
    said: list[str] = []
    falls = False
    pushes = 0
    for e in part.effects:
        op, n = e["op"], int(e["n"])
        if op in ("damage", "damage_x"):
            if falls:
                continue
            h = hit(s, seat, part, who, e, hp)
            text = hit_text(h)
            if h.save < INF and h.hp_after == 0 and hp > 0:
                text += f" → {name} {'is knocked out' if is_char else 'dies'} ({hp} HP)"
                falls = True
            elif h.save < INF and h.dealt:
                text += f" → {h.hp_after} of {top} HP left"
            said.append(text)
            hp = h.hp_after if h.save < INF else hp
        elif op in ("heal", "heal_x"):
            amount = n + (x if op == "heal_x" else 0) + rc_total(s, "bonus_heal")
            new = min(top, hp + max(0, amount))
            wakes = " (wakes up)" if is_char and hp == 0 < new else ""
            said.append(f"heal {amount}: {name} {hp} → {new} HP{wakes}")
            hp = new
        elif op == "save":
            said.append(f"save {n + rc_total(s, 'bonus_save')} against the next attack")
        elif op == "push":
            pushes = n + rc_total(s, "bonus_push")
        elif op in STATUS_WORDS and not falls:
            if is_char and op in ("dominate", "pressure"):
                said.append(f"not {STATUS_WORDS[op]}: a character cannot be (AtD L75, L173)")
            else:
                said.append(f"{STATUS_WORDS[op]} for {n} round{'s' if n != 1 else ''}")
        elif op == "penalty" and not falls:
            rounds = int(e["rounds"])
            lasts = f"{rounds} round{'s' if rounds != 1 else ''}"
            if s.arena and is_char:
                lasts = f"the next {rounds} use{'s' if rounds != 1 else ''}"  # AtD L295
            said.append(f"−{n} {PENALTY_STAT.get(e['stat'], e['stat'])} for {lasts}")
        elif op == "move":
            said.append(f"then you move up to {n + rc_total(s, 'bonus_move')}")
    if part.type == "attack" and not falls:
        for op, status in (("stun_target", "stunned"), ("immobilize_target", "immobilized")):
            n = rc_total(s, op)
            if n:
                said.append(f"{status} for {n} round{'s' if n != 1 else ''}")
    pushes += mod_total(s, part, "bonus_push")
    if pushes and who != me and not falls:
        said.append(f"then pushed up to {pushes} square{'s' if pushes != 1 else ''}")
    text = "; ".join(said) or "no effect"
    if is_char and part.type == "attack" and is_enemy(s, me, who) and not area and hp > 0:
        text += f" — if {name} does not defend first (a Defense card raises the save, AtD L151)"
    return f"{name}: {text}"


def card_head(s: State) -> str:
    """The card and the resource cards that modify it: "Hack! with Reaching, Hearty"."""
    play = s.play
    assert play is not None
    if play.equipment:
        return C.dungeon_name(s.cards[play.equipment])
    assert play.card is not None
    name = C.card_name(s.cards[play.card])
    mods = [C.card_name(s.cards[r]) for r in play.rcs if C.resources[s.cards[r]].effects]
    mods += [C.dungeon_name(s.cards[m]) for m in play.mods]
    return name + (f" with {', '.join(mods)}" if mods else "")


def predictions(s: State, choices: list[Choice]) -> dict[str, Any] | None:
    """Each target (or area) choice of the pending Target or Area decision with what it
    will do, for the seat choosing; None for any other question."""
    d = s.decision
    if not isinstance(d, Target | Area) or s.play is None:
        return None
    seat = int(d.seat)
    part = play_parts(s)[d.part]
    lines = []
    for c in choices:
        if c.type == "target":
            text = on_target(s, seat, part, c.args["who"])
        elif c.type == "area":
            members = area_members(s, (c.args["x"], c.args["y"]), c.args["o"], part)
            text = "; ".join(on_target(s, seat, part, w, area=True) for w in members) or "nobody is hit"
        else:
            continue
        lines.append({"kind": c.type, "label": c.label, "target": choice_target(s, c), "text": text})
    if not lines:
        return None
    return {"card": card_head(s), "lines": lines}


def page_extras(s: State, viewer: Viewer) -> dict[str, Any]:
    """``predict`` for the viewer who is choosing a target now; nothing for anyone else."""
    d = s.decision
    if not isinstance(d, Target | Area) or not viewer.holds(d.seat):
        return {}
    choices = target_choices(s, d) if isinstance(d, Target) else area_choices(s, d)
    found = predictions(s, choices)
    return {"predict": found} if found else {}
