"""Potions (DO L247-249, L262-284): drinking a stored potion, fast crafting from any two or
three ingredients, and the nine advanced recipes, a magic mushroom adding 2 to every
number. Courage is brewed in a battle's boost window (``battle.py``, facts §10).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.games.dark_omen.content import Content
from app.games.dark_omen.engine import DoCtx, action
from app.games.dark_omen.rules.heroes import STORED_POTIONS, ch, change, face, faces, spend_tokens
from app.games.dark_omen.rules.stats import gear_bonus
from app.games.dark_omen.state import Hero, State
from app.kernel.types import Choice

HERBS = ("herb_blue", "herb_yellow", "herb_purple")


INGREDIENTS = ("chicken", "mushroom", *HERBS, "red_mushroom")
"""Potion ingredients, the least precious first (fast crafting spends them in this order)."""


RECIPES: dict[str, tuple[tuple[str, ...], dict[str, int]]] = {
    "morale": (("herb_blue", "herb_blue"), {"mp": 5}),
    "courage": (("herb_blue", "herb_yellow"), {"courage": 7}),
    "wellness": (("herb_blue", "herb_purple"), {"hp": 2, "mp": 2}),
    "speed": (("herb_yellow", "herb_yellow"), {"free_steps": 1}),
    "levity": (("herb_yellow", "herb_purple"), {"levity": 1}),
    "health": (("herb_purple", "herb_purple"), {"hp": 5}),
    "boldness": (("herb_blue", "mushroom"), {"mp": 4, "hp": -2}),
    "lethargy": (("herb_purple", "mushroom"), {"hp": 4, "mp": -2}),
    "adrenaline": (("herb_yellow", "mushroom"), {"free_steps": 1, "ap_debt": 1}),
}
"""Advanced crafting (DO L265-284). A magic mushroom as third ingredient adds 2 to every
number, negatives included (DO L269); Speed and Adrenaline: "spend 1 AP to move 2
spaces" is one free step after a paid one."""


RECIPE_NEEDS = {name: Counter(needs) for name, (needs, _) in RECIPES.items()}


def craft_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Fast crafting: 2 ingredients = 4 MP, 3 = 4 HP; advanced recipes (DO L262-284)."""
    seat = h.seat
    if not h.inventory and h.blood < 2:
        return []
    held = faces(c, h.inventory)
    n = sum(held[i] for i in INGREDIENTS) + h.blood
    out = []
    if n >= 2:
        out.append(ch("craft", seat, "Fast crafting: 2 ingredients for 4 MP", recipe="fast_mp"))
    if n >= 3:
        out.append(ch("craft", seat, "Fast crafting: 3 ingredients for 4 HP", recipe="fast_hp"))
    for name, want in RECIPE_NEEDS.items():
        if name == "courage":
            continue  # brewed in a boost window, where it sets a die (facts §10)
        if all(held[k] >= v for k, v in want.items()):
            out.append(ch("craft", seat, f"Brew {name.title()}", recipe=name))
            if held["red_mushroom"]:
                out.append(
                    ch("craft", seat, f"Brew {name.title()} with a magic mushroom", recipe=name, magic=True)
                )
    return out


def take_ingredients(ctx: DoCtx, h: Hero, count: int) -> tuple[list[str], int]:
    """Fast crafting spends the least precious ingredients first, blood of the beast last."""
    chosen: list[str] = []
    for kind in INGREDIENTS:
        for token in h.inventory:
            if len(chosen) < count and face(ctx.c, token) == kind and token not in chosen:
                chosen.append(token)
    return chosen, count - len(chosen)


@action("craft")
def do_craft(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """DO L262-284: crafted potions act at once."""
    s, c = ctx.s, ctx.c
    h = s.heroes[seat]
    recipe = args["recipe"]
    if recipe in ("fast_mp", "fast_hp"):
        count = 2 if recipe == "fast_mp" else 3
        tokens, blood = take_ingredients(ctx, h, count)
        spend_tokens(ctx, seat, tokens, "fast crafting")
        if blood:
            change(ctx, seat, "blood of the beast in a potion", blood=-blood)
        skill = gear_bonus(s, c, seat, "craft_bonus")
        if recipe == "fast_mp":
            change(ctx, seat, "a fast potion", mp=4 + skill)
        else:
            change(ctx, seat, "a fast potion", hp=4 + skill)
        return
    needs, effect = RECIPES[recipe]
    tokens: list[str] = []
    for kind in needs + (("red_mushroom",) if args.get("magic") else ()):
        tokens.append(next(t for t in h.inventory if face(c, t) == kind and t not in tokens))
    spend_tokens(ctx, seat, tokens, f"brewing {recipe}")
    bump = 2 if args.get("magic") else 0
    skill = gear_bonus(s, c, seat, "craft_bonus")

    def more(n: int) -> int:
        return n + bump if n > 0 else n - bump

    def healing(n: int) -> int:
        """The brewer's skill (a guild trait) adds to what a potion restores, never to its
        harm."""
        return more(n) + skill if n > 0 else more(n)

    if "hp" in effect or "mp" in effect:
        change(
            ctx,
            seat,
            f"a {recipe} potion",
            hp=healing(effect.get("hp", 0)) if "hp" in effect else 0,
            mp=healing(effect.get("mp", 0)) if "mp" in effect else 0,
        )
    for key in ("free_steps", "levity"):
        if key in effect:
            ctx.emit("EffectSet", seat=seat, effect=key, n=h.effects.get(key, 0) + more(effect[key]))
    if "ap_debt" in effect:
        ctx.emit("ApChanged", seat=seat, limit=h.ap_limit, debt=more(effect["ap_debt"]), why="adrenaline")


@action("drink")
def do_drink(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    effect = STORED_POTIONS[face(ctx.c, args["token"])]
    spend_tokens(ctx, seat, [args["token"]], "drunk")
    change(ctx, seat, "a potion", hp=effect.get("hp", 0), mp=effect.get("mp", 0))
