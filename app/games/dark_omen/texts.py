"""Card effects in words, for the board (runes and omens always visible with what they do
and when they end, issue 15). The cards hold effects as data (``{op, n, who}``, README
"Content"); this reads them aloud, it decides nothing."""

from __future__ import annotations

from functools import cache
from typing import Any

from app.games.dark_omen.content import load

GAINS = {"hp": "HP", "mp": "MP", "gold": "gold"}
QUANTITIES = {
    "armor": "armour",
    "damage": "damage",
    "obstacle_mp": "MP to cross an obstacle",
    "range": "range",
    "dice": "attack dice",
    "kill_mp": "MP for a kill",
}
LONGEVITY = {
    "immediate": "at once, then back to the bag",
    "reactionary": "kept until it is used",
    "permanent": "until the next rune throw",
}
WHO = {"group": "the group", "all": "every player"}


def effect_text(effect: dict[str, Any]) -> str:
    op, n = effect.get("op", ""), effect.get("n", 0)
    verb, _, what = op.partition("_")
    if verb in ("gain", "lose") and what in GAINS:
        text = f"{'+' if verb == 'gain' else '−'}{n} {GAINS[what]}"
    elif op == "modify":
        quantity = QUANTITIES.get(
            effect.get("quantity", ""), str(effect.get("quantity", "")).replace("_", " ")
        )
        text = f"{n:+d} {quantity}" + (" per chapter level" if effect.get("per_level") else "")
    elif op == "ward":
        text = "wards off the next blow"
    elif op == "second_wind":
        text = "a second wind when you would fall"
    else:
        text = op.replace("_", " ") + (f" {n}" if n else "")
    who = effect.get("who")
    return f"{text} ({WHO.get(who, who)})" if who else text


@cache
def rune_text(rune_id: str) -> str:
    """DO L145-162: house, individual or group, how long it lasts, what it does."""
    card = load().runes[rune_id]
    longevity = LONGEVITY.get(card.get("longevity", ""), card.get("longevity", ""))
    immune = f"; {card['ignored_by']} ignores it" if card.get("ignored_by") else ""
    target = card.get("target", "individual")
    return f"{card['house']}, {target}: {effect_text(card['effect'])}, {longevity}{immune}"


@cache
def omen_texts(omen_id: str) -> dict[str, Any]:
    """DO L132-143: the reward comes at once on success; a failure is settled at day end."""
    card = load().omens[omen_id]
    return {
        "success": ", ".join(effect_text(e) for e in card.get("success", [])),
        "failure": ", ".join(effect_text(e) for e in card.get("failure", [])),
        "meter": [card.get("meter_success", 0), card.get("meter_failure", 0)],
        "spaces": list(card.get("spaces", [])),
    }


BONUSES = {
    **QUANTITIES,
    "attack": "to each attack die",
    "direct": "direct damage",
    "max_hp": "max HP back from wounds",
    "mp_per_round": "MP each round",
    "craft_bonus": "to what a brewed potion restores",
    "haggle": "to your haggling die",
}


def bonus_text(bonus: dict[str, int]) -> str:
    """A gear or guild ``bonus`` table in words: ``{obstacle_mp = -1}`` → "−1 MP to cross an
    obstacle" (README "Content", the effect names the engine reads)."""
    return ", ".join(
        f"{n:+d} {BONUSES.get(k, k.replace('_', ' '))}".replace("-", "−") for k, n in sorted(bonus.items())
    )


POTION_EFFECTS = {
    "hp": "HP",
    "mp": "MP",
    "courage": "a die becomes a 7 (in the boost window only)",
    "free_steps": "a free step after a paid one",
    "levity": "the next obstacle costs no MP",
    "ap_debt": "1 AP less next round",
}


def potion_text(effect: dict[str, int]) -> str:
    """What a crafted potion does at once (DO L265-284), read from the recipe's effect."""
    parts = []
    for key, n in effect.items():
        if key in ("hp", "mp"):
            parts.append(f"{n:+d} {POTION_EFFECTS[key]}".replace("-", "−"))
        else:
            parts.append(POTION_EFFECTS.get(key, key.replace("_", " ")))
    return ", ".join(parts)


LOOT_NAMES = {
    "bread": "traveler's bread",
    "ceremonial_skull": "ceremonial skull (+6 MP)",
    "gear_scroll": "gear scroll",
    "herb_blue": "blue herb",
    "herb_purple": "purple herb",
    "herb_yellow": "yellow herb",
    "potion_2hp2mp": "potion of 2 HP and 2 MP",
    "potion_4hp": "potion of 4 HP",
    "potion_4mp": "potion of 4 MP",
    "quail_eggs": "quail eggs (+1 HP)",
    "red_mushroom": "red mushroom",
    "straw_doll": "straw doll",
}
"""A loot token's face as players say it (DO L80): "the purple herb", "the potion of 4 HP",
never "herb purple" or "potion 4hp" (issue 26). Faces not listed read as their id's words."""


def loot_name(face: str) -> str:
    """A loot face in words ("purple herb", "potion of 2 HP and 2 MP", "coin")."""
    return LOOT_NAMES.get(face, face.replace("_", " "))
