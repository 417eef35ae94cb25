"""Card texts for people: what an action, resource, monster, equipment, advancement or class
card does, in plain words made from its content entry (the printed cards' texts are not in
the rulebook, DESIGN.md "Content"). Presentation only: the rules read the entries themselves.

Every text here is public (a card's printed face); *which* card a viewer may see is decided
by the view (``view.py``), never here."""

from __future__ import annotations

from functools import cache
from typing import Any

from app.games.attack_the_darkness.content import (
    COLOUR_NAMES,
    RESOURCE_NAMES,
    ActionCard,
    MonsterCard,
    Part,
    load,
)

C = load()

TYPE_NAMES = {
    "attack": "Attack",
    "maneuver": "Maneuver",
    "recovery": "Recovery",
    "command": "Command",
    "defense": "Defense",
}
DISTANCE_NAMES = {
    "self": "self",
    "melee": "melee (1 square)",
    "reach": "reach (up to 2 squares)",
    "ranged": "ranged (2 or more squares)",
}
"""AtD L89-92."""
BEHAVIOUR_NAMES = {
    "keep_range": "keeps its range",
    "close": "closes in",
    "advance": "advances",
    "attack": "attacks",
    "summon": "summons",
}
"""The monster behaviours the engine runs in Adventure (AtD L211)."""
STATUS_NAMES = {
    "stunned": "stunned",
    "immobilized": "immobilized",
    "dominated": "dominated",
    "pressure": "pressured",
}


def _n(e: dict[str, Any]) -> Any:
    return e.get("n", "")


def effect_text(e: dict[str, Any]) -> str:
    """One effect of a card, an equipment, an ability or a mystery in words."""
    op, n = e["op"], _n(e)
    match op:
        case "damage":
            extra = []
            if "vs_minion" in e:
                extra.append(f"{e['vs_minion']} against a minion")
            if "vs_boss" in e:
                extra.append(f"{e['vs_boss']} against a boss")
            return f"{n} damage" + (f" ({', '.join(extra)})" if extra else "")
        case "damage_x":
            return f"{n}×X damage" if n not in ("", 1) else "X damage"
        case "heal":
            return f"heal {n}"
        case "heal_x":
            return "heal X" if n in ("", 1) else f"heal {n}×X"
        case "move":
            return f"move up to {n}"
        case "push":
            return f"push up to {n}"
        case "save":
            return f"save {n}"
        case "draw":
            return f"draw {n}"
        case "stun" | "immobilize" | "dominate":
            word = {"stun": "stunned", "immobilize": "immobilized", "dominate": "dominated"}[op]
            return f"{word} for {n} round{'s' if n != 1 else ''}"
        case "pressure":
            return f"pressure point for {n} round{'s' if n != 1 else ''} (INF becomes 1)"
        case "arrange_top":
            return f"look at the top {n} cards and arrange them"
        case "bonus_damage":
            return f"+{n} damage"
        case "multiplier":
            return f"×{n}"
        case "reach":
            return f"+{n} square of reach"
        case "bonus_save":
            return f"+{n} save"
        case "bonus_move":
            return f"+{n} move"
        case "bonus_heal":
            return f"+{n} heal"
        case "bonus_push":
            return f"+{n} push"
        case "split":
            return "unspent Stamina pays one more card this turn"
        case "double_discards":
            return "discards count double"
        case "stun_target":
            return f"the target is stunned for {n} round{'s' if n != 1 else ''}"
        case "immobilize_target":
            return f"the target is immobilized for {n} round{'s' if n != 1 else ''}"
        case "vs_boss":
            return f"+{n} damage against a boss"
        case "lose_hp":
            return f"lose {n} HP"
        case "heal_party":
            return f"everyone heals {n}"
        case "find_equipment":
            return "find equipment"
        case "advancement":
            return "draw an advancement"
        case "ambush":
            return "an ambush: monsters seed the next encounter"
        case "hand_rc":
            return f"+{n} resource card in hand"
        case "hand_ac":
            return f"+{n} action card in hand"
        case "max_hp":
            return f"+{n} max HP"
        case "speed":
            return f"+{n} speed"
        case "heal_on_clear":
            return f"heal {n} when the room is cleared"
    return op.replace("_", " ")


def targets_text(part: Part) -> str:
    """AtD L156-162: Self, Ally (yourself included), Enemy — up to a maximum — or an Area."""
    if part.targets == "self":
        return "self"
    if part.targets == "area":
        return "an area of 3×2"
    n = part.count
    plural = {"enemy": "enemies", "ally": "allies"}[part.side] if n != 1 else part.side
    return f"up to {n} {plural}"


def part_text(part: Part) -> dict[str, str]:
    return {
        "type": TYPE_NAMES.get(part.type, part.type.title()),
        "distance": DISTANCE_NAMES.get(part.distance, part.distance),
        "targets": targets_text(part),
        "effects": ", ".join(effect_text(e) for e in part.effects),
    }


def condition_text(condition: dict[str, Any]) -> str:
    out = []
    if condition.get("discard"):
        kind = condition.get("discard_type")
        n = condition["discard"]
        out.append(f"discard {n} {kind + ' ' if kind else ''}card{'s' if n != 1 else ''}")
    if condition.get("lose_hp"):
        out.append(f"lose {condition['lose_hp']} HP")
    return " and ".join(out)


def cost_colours(card: ActionCard) -> list[dict[str, str]]:
    """The cost as coloured pips (AtD L132-139), X shown as X."""
    return [
        {"n": "X" if n is None else str(n), "colour": COLOUR_NAMES[c], "letter": c}
        for n, c in card.cost.parts
    ]


@cache
def action_card(cid: str) -> dict[str, Any]:
    card = C.actions[cid]
    return {
        "kind": "action",
        "name": card.name,
        "cost": cost_colours(card),
        "cost_label": card.cost.label(),
        "parts": [part_text(p) for p in card.parts],
        "condition": condition_text(card.condition),
        "arena_banned": card.arena_banned,
    }


def _resource_label(amount: int, kinds: str) -> str:
    names = " or ".join(RESOURCE_NAMES[k] for k in kinds)
    return f"{amount} {names}"


@cache
def resource_card(cid: str) -> dict[str, Any]:
    card = C.resources[cid]
    return {
        "kind": "resource",
        "name": card.name,
        "gives": [{"label": _resource_label(a, k), "kinds": k} for a, k in card.resources],
        "effects": ", ".join(effect_text(e) for e in card.effects),
        "condition": condition_text(card.condition),
        "attack_only": card.attack_only,
        "core": card.core,
    }


def player_card(cid: str) -> dict[str, Any]:
    return action_card(cid) if cid in C.actions else resource_card(cid)


def _defences(m: MonsterCard) -> str:
    d = m.defenses
    if not d["count"]:
        return "none"
    count = "every attack" if d["count"] == "INF" else f"{d['count']} per round"
    save = "INF" if d["save"] == "INF" else d["save"]
    return f"{count}, {'/'.join(d['distances'])}, save {save}"


@cache
def monster_card(cid: str) -> dict[str, Any]:
    """A monster card's numbers (AtD L212-219) and behaviour list (AtD L211)."""
    m = C.monsters[cid]
    a, mv = m.attacks, m.maneuver
    return {
        "name": m.name,
        "type": m.type,
        "number": m.number,
        "attacks": f"{a['count']}× {a['distance']} {a['damage']} damage",
        "maneuver": f"{mv['count']}× {mv['mode']} {mv['move']}",
        "defences": _defences(m),
        "defence_count": m.defenses["count"],
        "hp": m.hp,
        "danger": m.danger,
        "behaviour": [BEHAVIOUR_NAMES.get(b, b) for b in m.behaviour],
        "boss": f"boss set part {m.boss_part} of {m.boss_parts}" if m.boss_set else "",
        "flying": m.flying,
    }


@cache
def equipment_card(cid: str) -> dict[str, Any]:
    e = C.equipment[cid]
    return {
        "name": e.name,
        "slots": e.slots,
        "uses": f"once per {e.uses}",
        "condition": condition_text(e.condition),
        "parts": [part_text(p) for p in e.parts],
    }


def dungeon_card_text(cid: str) -> str:
    """A one-line text for any dungeon card (monster, equipment, mystery)."""
    if cid in C.monsters:
        m = monster_card(cid)
        return f"{m['number']}× {m['attacks']}; defences {m['defences']}; {m['hp']} HP; danger {m['danger']}"
    if cid in C.equipment:
        e = equipment_card(cid)
        parts = "; ".join(f"{p['type']}: {p['effects']}" for p in e["parts"])
        return f"{e['uses']}, {e['slots']} slot{'s' if e['slots'] != 1 else ''}: {parts}"
    if cid in C.mysteries:
        return ", ".join(effect_text(e) for e in C.mysteries[cid].effects)
    return ""


@cache
def advancement_text(cid: str) -> str:
    a = C.advancements[cid]
    return ", ".join(effect_text(e) for e in a.effects) + f" (danger {a.danger})"


@cache
def class_card(cls: str) -> dict[str, Any]:
    c = C.classes[cls]
    return {
        "name": c.name,
        "resources": " and ".join(RESOURCE_NAMES[k] for k in c.resources),
        "ability": f"{c.ability['name']}: {c.ability['text']}",
    }
