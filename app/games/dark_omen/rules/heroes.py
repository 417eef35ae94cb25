"""A hero's tracks, action points, hands and death, shared by every rule module.

- Tracks: health and morale run 0–30, health within the maximum wounds leave (DO L193-197);
  gold and blood of the beast; all moved by one ``HeroStats`` event (``change``).
- Action points: 6 a round, spent in any order (DO L210-213).
- Hands: the six inventory slots and three potion slots (DO L203-208, L246-249), gear and
  the slots it is equipped in (DO L385-389), torch charges (DO L318; a straw doll counts as
  one, DO L256).
- Death at 0 HP: the belongings buried with the figure, which rises as a zombie wielding
  its weapon (DO L198-202).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.games.dark_omen.content import Content
from app.games.dark_omen.engine import DoCtx
from app.games.dark_omen.rules.combat import parse_roll
from app.games.dark_omen.rules.stats import hp_cap
from app.games.dark_omen.state import INVENTORY, POTIONS, TRACK_MAX, Creature, Hero, Location, State
from app.games.dark_omen.texts import loot_name
from app.kernel.types import Choice

STORED_POTIONS = {
    "quail_eggs": {"hp": 1},
    "potion_4mp": {"mp": 4},
    "potion_4hp": {"hp": 4},
    "potion_2hp2mp": {"hp": 2, "mp": 2},
    "ceremonial_skull": {"mp": 6},
}
"""Found potions are stored and drunk when needed (DO L247-249)."""


def ch(type_: str, seat: int, label: str, **args: Any) -> Choice:
    return Choice(type_, {"hero": seat, **args}, label)


def face(c: Content, token: str) -> str:
    return c.face(token)


def faces(c: Content, tokens: list[str]) -> Counter[str]:
    return Counter(c.face(t) for t in tokens)


def label(f: str) -> str:
    """A loot face as a choice names it ("purple herb", "potion of 4 HP", issue 26)."""
    return loot_name(f)


def ap_left(h: Hero) -> int:
    return max(0, h.ap_limit - h.ap)


def level(s: State) -> int:
    return s.chapter or 1


def town_of(at: int | str) -> tuple[str, str] | None:
    if isinstance(at, str):
        town, place = at.split(":", 1)
        return town, place
    return None


def location_at(s: State, at: int | str) -> Location | None:
    if isinstance(at, int):
        return s.locations.get(at)
    return None


def creatures_here(s: State, space: int | str) -> list[Creature]:
    return [x for x in s.creatures if x.space == space]


def name_of(creature: Creature) -> str:
    """How choices name an enemy: a face-down token by nothing but that (DO L476)."""
    if creature.token and not creature.flipped:
        return "face-down creature"
    return str(creature.name or f"level {creature.level} creature")


def room_for(h: Hero, f: str) -> bool:
    if f in STORED_POTIONS:
        return len(h.potions) < POTIONS
    return len(h.inventory) < INVENTORY


def torch_charges(s: State, c: Content, h: Hero) -> int:
    """Torch charges: charged torch gear, and straw dolls (1 each, DO L256)."""
    torches = sum(n for gid, n in h.charges.items() if "Torch" in c.gear.get(gid, {}).get("name", ""))
    return torches + faces(c, h.inventory)["straw_doll"]


SLOTS = ("primary", "secondary", "helmet", "body", "shield", "accessory1", "accessory2", "artifact")


def slots_for(card: dict[str, Any]) -> list[str]:
    if card["slot"] == "accessory":
        return ["accessory1", "accessory2"]
    return [card["slot"]]


def d6(ctx: DoCtx) -> int:
    return ctx.rng.randint(1, 6)


def roll_spec(ctx: DoCtx, spec: str) -> int:
    n, sides, mod = parse_roll(spec.replace("-", "+-"))
    return sum(ctx.rng.randint(1, sides) for _ in range(n)) + mod


def stats_level(ctx: DoCtx) -> int:
    return ctx.s.chapter or 1


def change(
    ctx: DoCtx,
    seat: int,
    why: str,
    *,
    hp: int = 0,
    mp: int = 0,
    gold: int = 0,
    max_hp: int = 0,
    blood: int = 0,
) -> None:
    """Move a hero's tracks (HP within 0…max HP, MP 0–30, DO L194-197) in one event."""
    h = ctx.s.heroes[seat]
    data: dict[str, Any] = {}
    if max_hp:
        data["max_hp"] = max(1, min(TRACK_MAX, h.max_hp + max_hp))
    cap = hp_cap(ctx.s, ctx.c, seat, data.get("max_hp", h.max_hp))
    if hp or max_hp:
        data["hp"] = max(0, min(cap, h.hp + hp))
    if mp:
        data["mp"] = max(0, min(TRACK_MAX, h.mp + mp))
    if gold:
        data["gold"] = max(0, h.gold + gold)
    if blood:
        data["blood"] = max(0, h.blood + blood)
    if data:
        ctx.emit("HeroStats", seat=seat, why=why, **data)
    if h.alive and h.hp <= 0:
        hero_dies(ctx, seat)


def spend_ap(ctx: DoCtx, seat: int, n: int, why: str, *, engaged: bool = False) -> None:
    ctx.emit("ApSpent", seat=seat, n=n, why=why, engaged=engaged)


def campfire_warmth(ctx: DoCtx, seat: int) -> None:
    """DO L309: "When on this space regain 2 MP" — every hero on a lit campfire's space,
    once per campfire (it holds up for one round; facts: +2 MP once per hero)."""
    h = ctx.s.heroes[seat]
    key = f"round:campfire:{h.at}"
    if h.alive and h.at in ctx.s.campfires and key not in h.used:
        ctx.emit("Used", seat=seat, key=key)
        change(ctx, seat, "a campfire", mp=2)


def spend_tokens(ctx: DoCtx, seat: int, tokens: list[str], why: str) -> None:
    if tokens:
        ctx.emit("LootSpent", seat=seat, tokens=tokens, why=why)
    h = ctx.s.heroes[seat]
    for token in tokens:
        if face(ctx.c, token) == "chicken" and "angry_chicken" in h.gear:
            ctx.emit("GearLost", seat=seat, gear="angry_chicken", why="the chicken is gone (DO L257)")


def auto_slot(ctx: DoCtx, seat: int, gid: str) -> str | None:
    h = ctx.s.heroes[seat]
    card = ctx.c.gear.get(gid) or ctx.c.holographic[gid]
    for slot in slots_for(card):
        if slot not in h.equipped:
            return slot
    return None


def gain_gear(ctx: DoCtx, seat: int, gid: str, why: str) -> None:
    card = ctx.c.gear.get(gid) or ctx.c.holographic[gid]
    charges = card.get("charges")
    ctx.emit("GearGained", seat=seat, gear=gid, charges=charges, slot=auto_slot(ctx, seat, gid), why=why)


def give_holographic(ctx: DoCtx, gid: str, why: str) -> None:
    """A unique holographic card (facts §22: boss and story rewards) goes to the living hero
    with the least gear (the lowest seat on a tie), unless someone holds it already."""
    s = ctx.s
    living = [h for h in s.heroes if h.alive]
    if not living or any(gid in h.gear for h in s.heroes):
        return
    taker = min(living, key=lambda h: (len(h.gear), h.seat))
    gain_gear(ctx, taker.seat, gid, why)


def give_artifact(ctx: DoCtx, seat: int) -> None:
    owned = {g for h in ctx.s.heroes for g in h.gear}
    pool = [a for a in ctx.c.artifacts(stats_level(ctx)) if a not in owned]
    if pool:
        gain_gear(ctx, seat, ctx.rng.choice(pool), "an artifact from a barrow")


def spend_torch(ctx: DoCtx, seat: int) -> None:
    h = ctx.s.heroes[seat]
    for gid, n in sorted(h.charges.items()):
        if n > 0 and "Torch" in ctx.c.gear.get(gid, {}).get("name", ""):
            ctx.emit("ChargesSet", seat=seat, gear=gid, n=n - 1)
            return
    doll = next(t for t in h.inventory if face(ctx.c, t) == "straw_doll")
    spend_tokens(ctx, seat, [doll], "burnt as a torch")


def hero_dies(ctx: DoCtx, seat: int) -> None:
    """DO L199-202: belongings buried with the figure, which rises as a zombie (8 HP, no
    armour, the weapon it held)."""
    s = ctx.s
    h = s.heroes[seat]
    space = h.at
    weapon = h.equipped.get("primary")
    belongings = {
        "inventory": list(h.inventory),
        "potions": list(h.potions),
        "gear": list(h.gear),
        "charges": dict(h.charges),
        "gold": h.gold,
    }
    group = [r for other in s.heroes for r in other.runes if ctx.c.runes[r]["target"] == "group"]
    ctx.emit("HeroDied", seat=seat, character=h.character, space=space, group_runes=group)
    ctx.emit("GraveDug", space=space, belongings=belongings)
    dr = ctx.c.gear[weapon]["dr"] if weapon else "d4"
    attack = int(ctx.c.gear[weapon].get("bonus", {}).get("attack", 0)) if weapon else 0
    cid = f"c{s.next_creature}"
    lvl = s.chapter or 1
    ctx.emit(
        "CreaturePlaced",
        id=cid,
        space=space,
        level=lvl,
        kind="zombie",
        omen=False,
        dice=lvl,
        card="zombie",
        name=f"Zombie {ctx.c.characters[h.character]['name']}",
        hp=8,
        armor=0,
        dr=dr,
        attack=attack,  # the weapon adds to its attack and damage (DO L201)
    )
