"""Health and status conditions (AtD L67-78): damage less saves, healing, unconscious
characters (AtD L69) and dead monsters (AtD L72); a monster's defences (AtD L216-217) and a
character's saves (Defense cards, advancements); stun, immobilize, dominate and pressure
(AtD L73-75, L173); penalties to saves, movement and damage (AtD L295)."""

from __future__ import annotations

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.engine import Ctx
from app.games.attack_the_darkness.rules.advancement import adv_bonus
from app.games.attack_the_darkness.rules.query import alive
from app.games.attack_the_darkness.state import Penalty, State

C = load()


def heal(ctx: Ctx, who: str, n: int) -> None:
    """Heals cap at max HP; any HP gained wakes an unconscious character (AtD L69)."""
    s = ctx.s
    if not alive(s, who) and not who.startswith("c"):
        return
    if who.startswith("c"):
        ch = s.chars[int(who[1:])]
        top = ch.max_hp
        hp = ch.hp
    else:
        m = s.monsters[who]
        top = C.monsters[m.card].hp
        hp = m.hp
    new = min(top, hp + max(0, n))
    if new != hp:
        ctx.emit("Healed", who=who, amount=new - hp, hp=new, woke=hp == 0 and who.startswith("c"))


def damage(ctx: Ctx, who: str, amount: int, save: int, *, defended: bool = False, source: str = "") -> None:
    """Damage less saves, never below 0 (AtD L76-78; facts file §3). A character at 0 HP is
    unconscious (AtD L69); a monster dies (AtD L72)."""
    s = ctx.s
    if not alive(s, who):
        return
    hp = s.chars[int(who[1:])].hp if who.startswith("c") else s.monsters[who].hp
    dealt = max(0, amount - save)
    new = max(0, hp - dealt)
    ctx.emit(
        "Damaged", who=who, amount=dealt, saved=min(amount, save), hp=new, defended=defended, source=source
    )
    if new == 0 and hp > 0:
        if who.startswith("c"):
            ch = s.chars[int(who[1:])]
            ctx.emit("KnockedOut", seat=int(who[1:]), discarded=ch.hand_a + ch.hand_r)
        else:
            ctx.emit("MonsterDied", id=who)


def monster_save(s: State, mid: str, distance: str) -> tuple[int, bool]:
    """A monster defends the first eligible attacks each round; INF defends all; melee
    defences also cover reach (AtD L216-217); Pressure Point turns INF into 1 (AtD L173)."""
    m = s.monsters[mid]
    if m.stunned > s.round:
        return 0, False  # facts file §3: a stunned monster does not defend
    d = C.monsters[m.card].defenses
    kinds = set(d["distances"])
    if "melee" in kinds:
        kinds.add("reach")
    if distance not in kinds:
        return 0, False
    count, save = d["count"], d["save"]
    pressed = m.pressure > s.round
    if count == "INF":
        count = 1 if pressed else 10**6
    if save == "INF":
        save = 1 if pressed else 10**6
    if m.defended >= int(count):
        return 0, False
    return int(save), True


def char_save(ctx: Ctx, who: str) -> int:
    """A character's save against one attack: Defense cards in play and advancements, less
    a save penalty (AtD L295; **decision:** a penalty is spent only by a save actually
    taken, one above 0)."""
    s = ctx.s
    seat = int(who[1:])
    save = s.guard.get(who, 0) + adv_bonus(s, seat, "save")
    if save > 0 and penalty(s, who, "save"):
        cut = penalty(s, who, "save")
        use_penalty(ctx, who, "save")
        return max(0, save - cut)
    return save


def set_status(ctx: Ctx, seat: int, who: str, op: str, rounds: int) -> None:
    """Stun, immobilize, dominate for N rounds (AtD L73-75), kept in play while they last
    (AtD L168-170). In Arena a character's stun and immobilization take their Arena forms
    and domination does nothing (AtD L292-294); so do behaviour cards (AtD L296)."""
    s = ctx.s
    if not alive(s, who):
        return
    status = {
        "stun": "stunned",
        "immobilize": "immobilized",
        "dominate": "dominated",
        "pressure": "pressure",
    }[op]
    if who.startswith("c") and status in ("dominated", "pressure"):
        return
    until = s.round + rounds
    ctx.emit("StatusSet", who=who, status=status, until=until, by=seat)


def set_penalty(ctx: Ctx, seat: int, who: str, stat: str, n: int, rounds: int) -> None:
    """A penalty to saves, movement or damage lasts its rounds (AtD L168-170); in Arena a
    character's penalty applies only to its next save, move or attack, and "N rounds" to
    the next N of them (AtD L295)."""
    s = ctx.s
    if not alive(s, who):
        return
    if s.arena and who.startswith("c"):
        ctx.emit("PenaltySet", who=who, stat=stat, n=n, until=None, left=rounds, by=seat)
    else:
        ctx.emit("PenaltySet", who=who, stat=stat, n=n, until=s.round + rounds, left=None, by=seat)


def penalty_entry(s: State, who: str, stat: str) -> Penalty | None:
    """``who``'s penalty to ``stat`` (``save``, ``move`` or ``damage``), live or not."""
    if who.startswith("c"):
        return s.chars[int(who[1:])].penalties.get(stat)
    m = s.monsters.get(who)
    return None if m is None else m.penalties.get(stat)


def penalty(s: State, who: str, stat: str) -> int:
    """The penalty ``who`` has now to a save, a move or an attack's damage (AtD L295)."""
    entry = penalty_entry(s, who, stat)
    return entry.n if entry is not None and entry.live(s.round) else 0


def counted(s: State, who: str, stat: str) -> bool:
    """An Arena penalty counted in uses (AtD L295), spent by the next save, move or attack."""
    entry = penalty_entry(s, who, stat)
    return entry is not None and entry.left is not None and entry.left > 0


def use_penalty(ctx: Ctx, who: str, stat: str) -> None:
    if counted(ctx.s, who, stat):
        ctx.emit("PenaltyUsed", who=who, stat=stat)
