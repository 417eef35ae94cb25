"""Stakes before the roll (issue 11): every fight, elude, attack, search and prayer prompt
says what happens on success and on failure, and lists every modifier of its dice with its
source ("Ghost Step 2 dice, Evil Presence −1 → 1 die vs 6"), so a player decides knowing
what is at stake (DN 5.0, 8.0, 12.0)."""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.engine import Ctx
from app.games.darkest_night.rules.powers import default_grace
from app.games.darkest_night.state import Hero

BLIGHT_DICE = {"fight": "fight_dice", "elude": "elude_dice"}
"""The blight effects that take dice from a roll (Unholy Aura, Evil Presence, DN 11.2)."""


def blight_dice_sources(ctx: Ctx, hero: Hero, roll: str) -> list[tuple[str, int]]:
    """(blight, dice) for each blight that changes this roll's dice where the hero stands,
    or everywhere for a red one (DN 11.2); none while Cursed Ashes are scattered."""
    effect = BLIGHT_DICE.get(roll)
    if effect is None or hero.flags.get("ignore_blights"):
        return []
    memo = ctx.memo  # once per state, as ``dice_bonus``: callers only read the list
    if memo is None:
        return list_blight_dice_sources(ctx, effect, hero.location)
    key = ("blight_dice_sources", effect, hero.location)
    known = memo.get(key)
    if known is None:
        known = memo[key] = list_blight_dice_sources(ctx, effect, hero.location)
    return known


def list_blight_dice_sources(ctx: Ctx, effect: str, here: str) -> list[tuple[str, int]]:
    red, local = ctx.c.blights_by_effect.get(effect, (frozenset(), frozenset()))
    out = []
    for location, blights in ctx.s.blights.items():
        for blight in blights:
            if blight.type in red or (blight.type in local and location == here):
                out.append((blight.type, int(ctx.c.blights[blight.type].params.get("n", 0))))
    return out


def dice_word(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def sources_text(sources: list[tuple[str, int]] | list[list[Any]]) -> str:
    """ "Skewer 2 dice, Unholy Aura −1": the base (a tactic's dice or the plain die), then
    each modifier with its source."""
    parts = []
    for index, (name, n) in enumerate(sources):
        if index == 0:
            parts.append(dice_word(n) if name == "base" else f"{name} {dice_word(n)}")
        else:
            parts.append(f"{name} {'+' if n >= 0 else '−'}{abs(n)}")
    return ", ".join(parts)


def extras_text(relic: bool, terror: bool) -> str:
    """The Holy Relic's +1 (DN 15.2) and Terror's extra die (DN 11.2), when they apply."""
    parts = []
    if relic:
        parts.append("Holy Relic +1 to the highest die")
    if terror:
        parts.append("Terror: an extra die, the highest dropped")
    return "".join(f", {p}" for p in parts)


EFFECT_TEXTS = {
    "wound": lambda x: "a wound",
    "lose_secrecy": lambda x: f"−{x.get('n', 1)} secrecy",
    "lose_grace": lambda x: f"−{x.get('n', 1)} grace",
    "lose_spark": lambda x: f"−{x.get('n', 1)} spark",
    "gain_secrecy": lambda x: f"+{x.get('n', 1)} secrecy",
    "gain_grace": lambda x: f"+{x.get('n', 1)} grace",
    "gain_spark": lambda x: f"+{x.get('n', 1)} spark",
    "lose_turn": lambda x: "lose your next turn",
    "exhaust_power": lambda x: "exhaust a power",
    "exhaust_all_powers": lambda x: "exhaust all your powers",
    "darkness": lambda x: f"darkness {'+' if int(x.get('n', 1)) >= 0 else '−'}{abs(int(x.get('n', 1)))}",
    "draw_event": lambda x: "draw another event",
    "clues": lambda x: f"+{x.get('n', 1)} clue{'s' if int(x.get('n', 1)) != 1 else ''}",
    "destroy_blight": lambda x: "the blight is destroyed",
    "necromancer_beaten": lambda x: (
        "he sacrifices a blight here to escape, or with none here a Holy Relic slays him (DN 12.2)"
    ),
    "move_necromancer": lambda x: "the Necromancer moves here",
    "necromancer_approach": lambda x: "the Necromancer draws near",
    "gain_item": lambda x: f"gain a {x.get('kind', 'item').replace('_', ' ')}",
    "create_blight": lambda x: "a new blight",
    "quest_progress": lambda x: "the quest advances",
    "mystery_best_die": lambda x: "the mystery's rewards your best die reaches",
}
"""Plain words for the effects a roll's outcome most often has (DN 13.0 penalties)."""
HIDDEN = frozenset({"power_hook"})
"""Bookkeeping steps that say nothing to the player."""


def effects_text(steps: list[dict[str, Any]] | tuple[dict[str, Any], ...], none: str = "nothing") -> str:
    """What a list of effects does, in a few words ("a wound", "−1 secrecy, a wound")."""
    parts = []
    for x in steps:
        op = x.get("op", "")
        if op in HIDDEN:
            continue
        text = EFFECT_TEXTS.get(op)
        parts.append(text(x) if text else op.replace("_", " "))
    return ", ".join(parts) or none


def combat_stakes(d: dict[str, Any]) -> tuple[str, str]:
    """(on success, on failure) of a combat step, with attacking's secrecy (DN 8.0, 12.1)."""
    win = effects_text(d.get("win", ()), none="you overcome it")
    fail = effects_text(d.get("fail", ()), none="no harm")
    if d.get("vs") == "attack":
        fail += "; −1 secrecy either way (DN 8.0)"
    return win, fail


def roll_stakes(ctx: Ctx, hero: Hero, step: dict[str, Any]) -> str:
    """What the roll's success and failure do, from the step it feeds."""
    then = step.get("then") or {}
    op = then.get("op")
    if op == "combat_result":
        combat = then.get("combat", {})
        win, fail = combat_stakes(combat)
        if then.get("approach") == "elude":
            win = "you slip past" if not combat.get("win") else win
        return f"win: {win}; fail: {fail}"
    if op == "search_result":
        return "a map card per success, you keep one result; fail: nothing found"
    if op == "prayed":
        return f"+1 grace per success (up to {default_grace(ctx, hero)}), then refresh your powers"
    return ""
