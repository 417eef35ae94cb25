"""What each viewer sees of a Dark Omen table (DESIGN.md, hidden information).

Public: the board (which edges are black now), heroes, creatures, omen, meter, runes (read
aloud, DO L149), inventories. Hidden from everyone but the game master: the face-down loot
tokens on the map and the pile (DO L82); a face-down token shows only that one lies there.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import app.games.dark_omen.texts as texts
from app.games.dark_omen.board import pos_to_tab
from app.games.dark_omen.content import load
from app.games.dark_omen.decisions import Act, NextChapter
from app.games.dark_omen.rules import combat, market, omens, stats
from app.games.dark_omen.rules.heroes import faces
from app.games.dark_omen.rules.potions import INGREDIENTS, RECIPE_NEEDS, RECIPES
from app.games.dark_omen.state import METER_MAX, TRACK_MAX, Battle, Creature, GambleTable, Prop, State
from app.kernel.flow import Decision
from app.kernel.types import Viewer


def prompt_title(s: State, d: Decision, seat: int) -> str:
    if isinstance(d, NextChapter):
        return f"Ready for chapter {d.chapter}?"
    h = s.heroes[seat]
    if not h.alive:
        return "Choose a new character"
    if h.pending is not None:
        return {
            "battle": "The attack roll: boost or resolve",
            "team": "Your team attack",
            "runehenge": "Turn the obstacle layers",
            "draugr": "Draugr Dice: keep or reroll",
            "hard_life": "Hard Life: another die?",
            "barrow": "The barrow: keep or reroll",
        }.get(h.pending.kind, "Your choice")
    return f"Your actions ({h.ap_limit - h.ap} AP left)"


@lru_cache(maxsize=4096)
def blocked_edges(side_name: str, white: int, clear: int) -> tuple[str, ...]:
    """The black edges ("a-b") of one side at these layer positions (pure, so cached)."""
    board = load().board
    side = board.overworld if side_name == "overworld" else board.underworld
    layers = {"white": white, "clear": clear}
    return tuple(sorted(f"{e.a}-{e.b}" for e in side.edges.values() if side.blocked(e, layers)))


def boss_board(s: State, x: Creature) -> dict[str, Any]:
    """A boss on its own board (DO L479-493): its card's stats, its phases in the card's
    order, and its stages (DO L487-488), each with its HP band, armour, dice and damage,
    the one it is in now and what the next one does."""
    card = load().bosses[x.card]
    top = -(-int(card["hp"]) * (1 + len(s.heroes)) // 5)  # the party-scaled HP (rules/days.py)
    stage = card.get("stage")
    mark = min(int(stage["below_hp"]), top) if stage else 0  # a small party's boss may start below it
    bands = [(top, mark, int(card["armor"]))]
    if stage:
        bands.append((min(int(stage["below_hp"]) - 1, top), 0, int(card["armor"]) + int(stage["armor"])))
    now = 2 if x.staged else 1
    stages = [
        {
            "stage": i + 1,
            "hp": [max(1, low), high],
            "armor": armor,
            "dice": int(card["ar_dice"]),
            "dr": card["dr"],
            "now": i + 1 == now,
        }
        for i, (high, low, armor) in enumerate(bands)
    ]
    following = (
        f"below {stage['below_hp']} HP its armour rises by {stage['armor']} (to {bands[1][2]})"
        if stage and now == 1
        else None
    )
    return {
        "name": card["name"],
        "max_hp": top,
        "ref": card.get("ref", "DO L479-493"),
        "phases_text": card.get("phases_text")
        or "; ".join(
            f"{p.get('phase', '')}: {str(p.get('op', '')).removeprefix('boss_')}"
            f"{' ' + str(p['n']) if p.get('n') else ''}"
            f"{' after each attack' if p.get('trigger') == 'after_attack' else ' at round start'}"
            for p in card.get("phases", [])
        ),
        "effects_text": card.get("effects_text"),
        "stages": stages,
        "stage_now": now,
        "next": following,
    }


def creature_view(x: Creature, viewer: Viewer, s: State | None = None) -> dict[str, Any]:
    """A face-down creature token shows no level until a hero engages it (DO L476)."""
    out = x.public()
    if x.kind == "boss" and x.card in load().bosses:
        out["phases"] = [p.get("phase", "") for p in load().bosses[x.card].get("phases", [])]
        if s is not None:
            out["board"] = boss_board(s, x)
    if x.token and not x.flipped:
        out["face_down"] = True
        if not viewer.is_gm:
            out["level"] = out["dice"] = None
        else:
            out["token"] = x.token
    return out


def prop_view(prop: Prop) -> dict[str, Any]:
    """An omen's token on the map (DO L141-143: fires, graves, omen loot, a person to lead),
    lying on a space or carried by a hero."""
    return prop.to_json()


def gamble_view(table: GambleTable) -> dict[str, Any]:
    """A game of chance at a tavern or village (DO L342-356): the players' dice on the
    table; the board shows the house's roll only through the log, when the game ends."""
    return table.to_json()


SLOT_WORDS = {
    "primary": "main weapon",
    "secondary": "off-hand",
    "helmet": "helmet",
    "body": "body armour",
    "shield": "shield",
    "accessory": "accessory",
}
"""Where a gear card is worn (DO L374-388), as a player says it."""

BONUS_WORDS = {
    "damage": "+{n} damage",
    "armor": "+{n} armour",
    "max_hp": "+{n} maximum HP",
    "kill_mp": "+{n} MP for each kill",
    "mp_per_round": "+{n} MP each round",
    "obstacle_mp": "black lines cost {m} MP less to cross",
    "attack": "+{n} on each attack die",
}
"""A gear card's bonuses (the ``bonus`` table of gear.toml), in words."""


def gear_stats(card: dict[str, Any]) -> list[str]:
    """A gear card's full stats in words: its slot, damage die and reach, damage, armour,
    bonuses, charges and ability (DO L374-388, L339): what a buyer compares."""
    out = [SLOT_WORDS.get(card["slot"], str(card["slot"]).replace("_", " "))]
    if card.get("dr"):
        reach = int(card.get("range", 0))
        out.append(f"damage {card['dr']}, " + (f"range {reach}" if reach else "melee"))
    if card.get("damage"):
        out.append(f"+{card['damage']} damage")
    if card.get("armor"):
        out.append(f"armour {card['armor']}")
    for key, n in (card.get("bonus") or {}).items():
        out.append(BONUS_WORDS.get(key, f"{key.replace('_', ' ')} {{n:+}}").format(n=n, m=-n))
    for key, n in (card.get("night_bonus") or {}).items():
        out.append(BONUS_WORDS.get(key, key.replace("_", " ")).format(n=n, m=-n) + " at night")
    if card.get("direct") and not card.get("ability"):
        out.append(f"{card['direct']} direct damage")
    if card.get("charges"):
        n = int(card["charges"])
        what = "shield token" if card["slot"] == "shield" else "charge"
        out.append(f"{n} {what}{'s' if n != 1 else ''}")
    return out


@lru_cache(maxsize=8)
def _stock(level: int) -> tuple[dict[str, Any], ...]:
    c = load()
    return tuple(
        {
            "id": gid,
            "name": c.gear[gid]["name"],
            "level": c.gear[gid]["level"],
            "type": c.gear[gid]["type"],
            "price": int(c.gear[gid]["price"]),
            "stats": gear_stats(c.gear[gid]),
            "ability": c.gear[gid].get("ability", ""),
        }
        for gid in c.shop(level)
    )


def market_view(s: State) -> dict[str, Any]:
    """What the market sells at this chapter's level, at list price (a hero's haggled
    discount is shown on the hero, DO L332-337), each card's full stats and ability, and
    which cards a hero already owns (one copy of each card, DO L56), and who."""
    owners = {g: h.seat for h in s.heroes for g in h.gear}
    return {
        "level": s.chapter or 1,
        "stock": list(_stock(s.chapter or 1)),
        "owned": sorted(owners),
        "owned_by": {g: s.names[seat] for g, seat in sorted(owners.items())},
    }


def damage_roll(s: State, p: Battle, strike: combat.Strike) -> dict[str, Any]:
    """One damage roll of the forecast, the way ``resolve`` will roll it (DO L410-418): a hero
    rolls the weapon's die plus bonuses less the creature's armour (0 at least, then direct
    damage); the enemy rolls its damage die (and the day's fury) less each victim's armour,
    at least 1."""
    c = load()
    target = s.creature(p.creature)
    if strike.by == "enemy":
        extra = omens.fury(s, c) + stats.creature_effect(s, c, target, "damage") if target else 0
        return {
            "by": "enemy",
            "seats": list(strike.seats),
            "die": target.dr if target is not None and target.dr is not None else "?",
            "bonus": extra,
            "armor": {str(v): stats.armor(s, c, v) for v in strike.seats},
            "direct": stats.creature_effect(s, c, target, "direct") if target else 0,
            "least": 1,
        }
    seat = strike.seats[0]
    armor = (int(target.armor or 0) + stats.creature_effect(s, c, target, "armor")) if target else 0
    return {
        "by": "hero",
        "seats": [seat],
        "die": stats.weapon_roll(s, c, seat),
        "bonus": stats.damage_bonus(s, c, seat),
        "armor": {"enemy": armor},
        "direct": stats.direct_damage(s, c, seat),
        "least": 0,
    }


def battle_view(s: State, p: Battle) -> dict[str, Any]:
    """The attack roll as it stands in the boost window (DO L399-470, ``combat``): each
    enemy die high to low and the hero die facing it, and the damage rolls that would follow
    now, in order. Forecast only: the boosts still to come change it."""
    team = len(p.members) > 1
    contributions: dict[int, list[int]] = {}
    unused: dict[int, list[int]] = {}
    for m in p.members:
        contributions[m], unused[m] = combat.contributed(p.dice[str(m)], m in p.heroic, team)
    order = combat.ordered(contributions, unused)
    enemy = sorted(p.enemy, reverse=True)
    pairs = [{"enemy": e, "hero": list(order[i]) if i < len(order) else None} for i, e in enumerate(enemy)]
    extra = [list(h) for h in order[len(enemy) :]]
    hits = combat.strikes(p.enemy, order, solo=not team)
    return {
        "leader": p.leader,
        "pairs": pairs,
        "extra": extra,
        "strikes": [x.to_json() for x in hits],
        "rolls": [damage_roll(s, p, x) for x in hits],
        "unblocked": s.options.get("unblocked_target", "lowest"),
    }


def guild_rank(s: State, seat: int) -> dict[str, str] | None:
    """The guild and its tier this chapter: Apprentice in chapter 2, Journeyman in 3,
    Master in 4 (DO L189-192), with the tier's trait."""
    if not s.heroes[seat].guild:
        return None
    card = load().guilds[stats.guild_card(s, seat)]
    return {"guild": card["guild"], "tier": card["tier"], "trait": texts.bonus_text(card.get("bonus", {}))}


def recipes_for(c: Any, inventory: list[str], blood: int) -> list[dict[str, Any]]:
    """The recipes every character knows (DO L262-284): fast crafting and the nine advanced
    potions, each with what it needs, what it does and whether the ingredients held brew it
    now (Courage only in a boost window, facts §10)."""
    held = faces(c, inventory)
    n = sum(held[i] for i in INGREDIENTS) + blood
    out: list[dict[str, Any]] = [
        {
            "recipe": "fast_mp",
            "name": "Fast crafting",
            "needs": "any 2 ingredients or blood",
            "does": "+4 MP",
            "ready": n >= 2,
        },
        {
            "recipe": "fast_hp",
            "name": "Fast crafting",
            "needs": "any 3 ingredients or blood",
            "does": "+4 HP",
            "ready": n >= 3,
        },
    ]
    for name, (needs, effect) in RECIPES.items():
        want = RECIPE_NEEDS[name]
        out.append(
            {
                "recipe": name,
                "name": name.title(),
                "needs": " + ".join(texts.loot_name(k) for k in needs),
                "does": texts.potion_text(effect),
                "ready": all(held[k] >= v for k, v in want.items()),
            }
        )
    return out


def view(s: State, viewer: Viewer) -> dict[str, Any]:
    if not s.started:
        return {}
    c = load()
    side = stats.side_of(s, c)
    heroes = []
    for h in s.heroes:
        card = c.characters[h.character]
        heroes.append(
            {
                "seat": h.seat,
                "player": s.names[h.seat],
                "character": card["name"],
                "attribute": card["attribute"],
                "alive": h.alive,
                "at": h.at,
                "hp": h.hp,
                "max_hp": h.max_hp,
                "hp_cap": stats.hp_cap(s, c, h.seat),
                "wounds": TRACK_MAX - h.max_hp,
                "wounds_eased": stats.hp_cap(s, c, h.seat) - h.max_hp,
                "mp": h.mp,
                "mp_cap": TRACK_MAX,
                "gold": h.gold,
                "blood": h.blood,
                "ap_left": max(0, h.ap_limit - h.ap),
                "ap_limit": h.ap_limit,
                "discount": h.discount,
                "done": h.done,
                "inventory": [{"token": t, "face": c.face(t)} for t in h.inventory],
                "potions": [{"token": t, "face": c.face(t)} for t in h.potions],
                "gear": [{"id": g, "name": (c.gear.get(g) or c.holographic[g])["name"]} for g in h.gear],
                "equipped": dict(h.equipped),
                "charges": dict(h.charges),
                "runes": [
                    {
                        "id": r,
                        "name": c.runes[r]["name"],
                        "house": c.runes[r]["house"],
                        "text": texts.rune_text(r),
                    }
                    for r in h.runes
                ],
                "guild": h.guild,
                "guild_rank": guild_rank(s, h.seat),
                "recipes": recipes_for(c, h.inventory, h.blood),
                "pending": None if h.pending is None else h.pending.to_json(),
                "effects": dict(h.effects),
            }
        )
    d = s.decision
    blocked: list[str] = []
    if s.chapter is not None:
        blocked = list(blocked_edges(side.name, s.layers["white"], s.layers["clear"]))
    out: dict[str, Any] = {
        "chapter": s.chapter,
        "chapters": [s.first_chapter, s.last_chapter],
        "results": list(s.results),
        "day": s.day,
        "round": s.round,
        "night": s.night,
        "meter": s.meter,
        "meter_state": stats.meter_state(s),
        "meter_scale": {"max": METER_MAX, "valor": stats.VALOR, "resistance": stats.RESISTANCE},
        "side": side.name,
        "tabs": {layer: pos_to_tab(pos) for layer, pos in s.layers.items()},
        "blocked": blocked,
        "towns": dict(side.towns),
        "loot_face_down": sorted(s.loot),
        "loot_face_up": {str(k): [{"token": t, "face": c.face(t)} for t in v] for k, v in s.dropped.items()},
        "pile": len(s.pile),
        "locations": {str(k): v.to_json() for k, v in s.locations.items()},
        "creatures": [creature_view(x, viewer, s) for x in s.creatures],
        "omen": None,
        "omen_days": list(s.omen_days),
        "barrows": list(s.barrows),
        "campfires": list(s.campfires),
        "vortices": list(s.vortices),
        "graves": sorted(s.graves),
        "fallen": list(s.fallen),
        "heroes": heroes,
        "waiting": None if d is None else {"kind": d.kind, "seats": d.asked},
        "result": None if s.result is None else s.result.to_json(),
    }
    if s.omen is not None:
        omen = c.omens[s.omen.id]
        out["omen"] = {
            "id": omen["id"],
            "name": omen["name"],
            "mission": omen["mission"],
            "status": s.omen.status,
            "space": omen.get("space"),
            "blood": [s.omen.blood, omen.get("blood")],
            **texts.omen_texts(omen["id"]),
        }
    out["props"] = [prop_view(p) for p in s.props]
    out["battles"] = [
        battle_view(s, h.pending)
        for h in s.heroes
        if isinstance(h.pending, Battle) and h.pending.leader == h.seat
    ]
    out["you"] = (
        sorted(seat for seat in viewer.seats if isinstance(seat, int)) if viewer.role == "seat" else []
    )
    out["layers"] = dict(s.layers)
    out["gambles"] = {host: gamble_view(g) for host, g in s.gambles.items()}
    out["market"] = market_view(s) if market.stock_on_show(s) else None
    if viewer.is_gm:
        out["face_down"] = {str(k): {"token": v, "face": c.face(v)} for k, v in s.loot.items()}
    if isinstance(d, Act):
        out["acting"] = list(d.asked)
    return out
