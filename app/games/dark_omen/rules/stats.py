"""Derived numbers of a hero: dice, damage, armour, obstacle cost, range (DO L374-419).

Modifiers come from equipped gear, the character's side (misfit in chapters 1–2, hero in
3–4, DO L187), the guild (the highest tier only, DO L192), rune cards and the darkness
meter. Rune cards that push one quantity both ways contradict each other: with 1–2
players the negative cards are ignored, with 3–4 the beneficial ones (DO L158-162).
"""

from __future__ import annotations

from app.games.dark_omen.board import Side
from app.games.dark_omen.content import Card, Content
from app.games.dark_omen.rules.omens import storm_mp
from app.games.dark_omen.state import OBSTACLE_MP, TRACK_MAX, Creature, State

VALOR = 2
"""The meter at 1–2 is the State of Valor: +1 damage (DO L40)."""


RESISTANCE = 6
"""The meter at 6–8 is the State of Resistance: +1 MP per kill instead of 2 (DO L41)."""


def side_of(s: State, c: Content) -> Side:
    return c.board.side(s.chapter or 1)


def ability(s: State, c: Content, seat: int) -> dict[str, int]:
    h = s.heroes[seat]
    card = c.characters[h.character]
    face = card["hero"] if (s.chapter or 1) >= 3 else card["misfit"]
    return {face["op"]: face["n"]}


def gear_bonus(s: State, c: Content, seat: int, quantity: str) -> int:
    """What the equipped gear adds to ``quantity``; a ``night_bonus`` counts only at night
    (DO L122: "the time of day is relevant to certain cards"; always night below, DO L504)."""
    h = s.heroes[seat]
    total = 0
    for gid in h.equipped.values():
        card = c.gear.get(gid) or c.holographic.get(gid) or {}
        total += int(card.get("bonus", {}).get(quantity, 0))
        if s.night:
            total += int(card.get("night_bonus", {}).get(quantity, 0))
        if quantity == "damage" and card.get("slot") == "secondary":
            total += int(card.get("damage", 0))
    if h.guild:
        total += int(c.guilds[guild_card(s, seat)]["bonus"].get(quantity, 0))
    return total


def guild_card(s: State, seat: int) -> str:
    """The guild tier of this chapter: Apprentice in 2, Journeyman in 3, Master in 4."""
    h = s.heroes[seat]
    tier = {2: "apprentice", 3: "journeyman", 4: "master"}.get(s.chapter or 2, "apprentice")
    return f"{str(h.guild).lower()}_{tier}"


def rune_bonus(s: State, c: Content, seat: int, quantity: str) -> int:
    """Permanent rune modifiers on ``quantity`` for this hero, contradictions resolved."""
    h = s.heroes[seat]
    attribute = c.characters[h.character]["attribute"]
    values: list[int] = []
    for other in s.heroes:
        for rid in other.runes:
            card = c.runes[rid]
            effect = card["effect"]
            if card["longevity"] != "permanent" or effect.get("quantity") != quantity:
                continue
            if card["target"] == "individual" and other.seat != seat:
                continue
            if card.get("ignored_by") == attribute:
                continue
            n = int(effect["n"]) * ((s.chapter or 1) if effect.get("per_level") else 1)
            values.append(n)
    if any(v > 0 for v in values) and any(v < 0 for v in values):
        keep_negative = len(s.heroes) >= 3
        values = [v for v in values if (v < 0) == keep_negative]
    return sum(values)


def attack_bonus(s: State, c: Content, seat: int) -> int:
    """Gear and rune effects that modify the attack roll (DO L404), added to each die as
    rolled; it may lift a die past its face, as Courage does, but a boost never does."""
    return gear_bonus(s, c, seat, "attack") + rune_bonus(s, c, seat, "attack")


def direct_damage(s: State, c: Content, seat: int) -> int:
    """Direct damage on the hero's gear, added to each damage roll and ignoring armour
    (DO L384: "Direct damage ignores armor")."""
    h = s.heroes[seat]
    total = sum(int((c.gear.get(gid) or {}).get("direct", 0)) for gid in h.equipped.values())
    return total + gear_bonus(s, c, seat, "direct")


def creature_card(c: Content, target: Creature) -> Card:
    """The card an enemy on the map was set up from (creature, guard, boss or zombie)."""
    card = target.card
    if card is None:
        return {}
    if target.kind == "boss":
        return c.bosses.get(card, {})
    if target.kind == "zombie":
        return c.zombie
    return c.creatures.get(card) or c.guards.get(card) or {}


def creature_effect(s: State, c: Content, target: Creature, op: str) -> int:
    """An enemy card's combat effects (DO L395, L417): ``dice`` (more attack dice),
    ``attack`` (added to each attack die, the boss card's "AR dice strength incl. modifier",
    DO L493), ``damage``, ``direct`` (damage ignoring armour, DO L384), ``armor``, ``wound``
    (each hit lowers max HP, DO L195); each may hold only ``when = "night"`` or ``"day"``."""
    total = target.attack if op == "attack" else 0
    for effect in creature_card(c, target).get("effects", []):
        when = effect.get("when")
        if effect["op"] == op and (when is None or (when == "night") == s.night):
            total += int(effect["n"])
    return total


def hp_cap(s: State, c: Content, seat: int, max_hp: int | None = None) -> int:
    """The most HP a hero may hold: the track's 30 less what wounds took (DO L194-195); gear
    with ``max_hp`` gives back that much of the lost maximum while equipped."""
    h = s.heroes[seat]
    base = h.max_hp if max_hp is None else max_hp
    return min(TRACK_MAX, base + gear_bonus(s, c, seat, "max_hp"))


def hero_dice(s: State) -> int:
    """One attack die in chapter 1, two after (DO L402)."""
    return 1 if (s.chapter or 1) == 1 else 2


def heroic_cost(s: State, c: Content, seat: int) -> int:
    """5 MP, or 3 with Giant Strength (DO L408, L462)."""
    return 3 if "giant_strength" in ability(s, c, seat) else 5


def weapon_roll(s: State, c: Content, seat: int) -> str:
    """The primary weapon's damage roll, or an unarmed D4−1 (DO L388)."""
    gid = s.heroes[seat].equipped.get("primary")
    return c.gear[gid]["dr"] if gid else "d4-1"


def damage_bonus(s: State, c: Content, seat: int) -> int:
    bonus = gear_bonus(s, c, seat, "damage") + rune_bonus(s, c, seat, "damage")
    bonus += ability(s, c, seat).get("bonus_damage", 0)
    if 0 < s.meter <= VALOR:
        bonus += 1
    return bonus


def armor(s: State, c: Content, seat: int) -> int:
    """The hero's total armour (DO L413); Mountains hardcore: −1 (facts §4: on the total)."""
    h = s.heroes[seat]
    total = sum(int((c.gear.get(gid) or {}).get("armor", 0)) for gid in h.equipped.values())
    total += gear_bonus(s, c, seat, "armor") + rune_bonus(s, c, seat, "armor")
    total += ability(s, c, seat).get("bonus_armor", 0)
    if region_at(s, c, h.at) == "Mountains":
        total -= 1
    return max(0, total)


def obstacle_cost(s: State, c: Content, seat: int) -> int:
    """4 MP to cross a black line (DO L240), less with climbing gear, guilds, runes, more in
    an omen's storm (DO L135)."""
    cost = OBSTACLE_MP + rune_bonus(s, c, seat, "obstacle_mp") + gear_bonus(s, c, seat, "obstacle_mp")
    cost += storm_mp(s, c)
    cost -= ability(s, c, seat).get("cheap_obstacle", 0)
    return max(1, cost)


def weapon_range(s: State, c: Content, seat: int) -> int:
    h = s.heroes[seat]
    gid = h.equipped.get("primary")
    reach = int(c.gear[gid].get("range", 0)) if gid else 0
    if reach <= 0:
        return 0
    reach += gear_bonus(s, c, seat, "range")
    if region_at(s, c, h.at) == "Woodlands":
        reach -= 1
    return max(0, reach)


def kill_mp(s: State, c: Content, seat: int) -> int:
    """+2 MP to everyone involved in a kill, +1 in the State of Resistance (DO L422, L41)."""
    base = 1 if s.meter >= RESISTANCE else 2
    return base + ability(s, c, seat).get("kill_mp", 0) + gear_bonus(s, c, seat, "kill_mp")


def move_ap(s: State, c: Content, seat: int, to: int | str) -> int:
    """1 AP a step; 2 in the Swamplands with its hardcore banner (DO L74); in Mole Dwarf
    City, pitch black: 1 AP more without a torch with charges (DO L499, facts §18)."""
    region = region_at(s, c, to)
    if region == "Swamplands":
        return 2
    if region == "Mole Dwarf City" and not has_torch(s, c, seat):
        return 2
    return 1


def bridge_mp(s: State, here: int | str, there: int | str) -> int:
    """The Mole Dwarf Ruin (39 in the Underworld): crossing its bridges, into or out of the
    ruin, costs 1 MP more, for courage (DO L512)."""
    if s.chapter == 4 and isinstance(here, int) and isinstance(there, int) and 39 in (here, there):
        return 1
    return 0


def hardcore(s: State) -> bool:
    return bool(s.options.get("hardcore_regions"))


SAFE_PLACES = ("mole_dwarf_ruin", "ship_wreck")
"""Places where the region banners do not reach: the Mole Dwarf Ruin (DO L512) and the
Ship Wreck (DO L521)."""


def region_at(s: State, c: Content, at: int | str) -> str | None:
    """The hardcore banner in force on a space, if the option plays them."""
    if not hardcore(s) or not isinstance(at, int):
        return None
    loc = s.locations.get(at)
    if loc is not None and loc.kind in SAFE_PLACES:
        return None
    return side_of(s, c).region(at)


def has_torch(s: State, c: Content, seat: int) -> bool:
    h = s.heroes[seat]
    return any(n > 0 and "Torch" in c.gear.get(g, {}).get("name", "") for g, n in h.charges.items())


def meter_state(s: State) -> str:
    if s.meter <= VALOR:
        return "valor"
    if s.meter >= RESISTANCE:
        return "resistance"
    return "neutral"
