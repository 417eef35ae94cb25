"""The bot's sense of gear, gold and loot: what a piece of gear is worth in its slot (a
ranged weapon most of all: a ranged attacker takes no enemy blow, DO L363), what to buy,
sell and equip at a market (DO L332-337, L385-389), and which potions to brew or drink
(DO L247-249, L262-284)."""

from __future__ import annotations

from functools import lru_cache

from app.games.dark_omen.content import Card, load
from app.games.dark_omen.rules.heroes import STORED_POTIONS
from app.games.dark_omen.rules.potions import INGREDIENTS
from app.games.dark_omen.rules.stats import hp_cap
from app.games.dark_omen.state import State
from app.kernel.types import Choice

from .tactics import average

BONUS_WORTH = {
    "damage": 1.6,
    "attack": 2.5,
    "armor": 1.4,
    "direct": 1.8,
    "max_hp": 0.4,
    "mp_per_round": 1.0,
    "kill_mp": 0.4,
    "range": 2.0,
    "obstacle_mp": 0.3,
    "craft_bonus": 0.3,
    "haggle": 0.2,
}
"""What one point of a gear bonus is worth next to a point of damage on every blow."""

THROWN = ("dung", "tick", "stone")
"""Loot thrown for direct damage (DO L254)."""


def card_of(gid: str) -> Card:
    c = load()
    return c.gear.get(gid) or c.holographic.get(gid) or {}


@lru_cache(maxsize=4096)
def worth(gid: str, slot: str, lvl: int) -> float:
    """A piece of gear's worth in ``slot``: a weapon by its average blow (range counts a lot:
    no enemy blow from afar), armour by its points, the rest by their bonuses."""
    card = card_of(gid)
    total = sum(BONUS_WORTH.get(k, 0.2) * int(v) for k, v in card.get("bonus", {}).items())
    total += 0.5 * sum(BONUS_WORTH.get(k, 0.2) * int(v) for k, v in card.get("night_bonus", {}).items())
    if slot == "primary":
        total += average(card.get("dr") or "d4-1") + 1.8 * int(card.get("direct", 0))
        if int(card.get("range", 0)) > 0:
            total += 3 + 2 * lvl
    elif slot == "secondary":
        total += 1.6 * int(card.get("damage", 0))
    total += 1.4 * int(card.get("armor", 0))
    if card.get("charges") and card.get("slot") == "shield":
        total += 0.8 * int(card["charges"])
    return total


def slot_worth(s: State, seat: int, slot: str) -> float:
    gid = s.heroes[seat].equipped.get(slot)
    return worth(gid, slot, s.chapter or 1) if gid else 0.0


def equip_gain(s: State, seat: int, choice: Choice) -> float:
    """How much better the hero stands with this gear equipped in that slot."""
    lvl = s.chapter or 1
    slot = choice.args["slot"]
    new = worth(choice.args["gear"], slot, lvl)
    if slot.startswith("accessory"):
        h = s.heroes[seat]
        worst = min(
            (worth(h.equipped[sl], sl, lvl) if sl in h.equipped else 0.0)
            for sl in ("accessory1", "accessory2")
        )
        current = slot_worth(s, seat, slot)
        return new - current if current <= worst else -1.0
    return new - slot_worth(s, seat, slot)


def best_equip(s: State, seat: int, equips: list[Choice]) -> Choice | None:
    best = max(equips, key=lambda e: (equip_gain(s, seat, e), e.args["gear"]), default=None)
    return best if best is not None and equip_gain(s, seat, best) > 0.3 else None


def purchase_gain(s: State, seat: int, gid: str) -> float:
    """What buying ``gid`` adds: its worth over what the hero has in its best slot."""
    lvl = s.chapter or 1
    card = card_of(gid)
    slot = card.get("slot", "")
    if slot == "accessory":
        h = s.heroes[seat]
        current = min(
            slot_worth(s, seat, sl) if sl in h.equipped else 0.0 for sl in ("accessory1", "accessory2")
        )
        return worth(gid, "accessory1", lvl) - current
    if slot not in ("primary", "secondary", "helmet", "body", "shield", "artifact"):
        return 0.0
    owned = [g for g in s.heroes[seat].gear if card_of(g).get("slot") == slot]
    current = max((worth(g, slot, lvl) for g in owned), default=0.0)
    gain = worth(gid, slot, lvl) - current
    if slot in ("helmet", "body", "shield") and has_ranged(s, seat):
        gain *= 0.4  # a ranged hero takes few blows: a bed at the tavern serves it better
    return gain


def wish_list(s: State, seat: int) -> list[tuple[float, str, int]]:
    """The market's gear this hero would buy, best first: (gain per gold, gear, price)."""
    c = load()
    lvl = s.chapter or 1
    owned = {g for h in s.heroes for g in h.gear}
    h = s.heroes[seat]
    out = []
    for gid in shop(lvl):
        if gid in owned:
            continue
        card = c.gear[gid]
        gain = purchase_gain(s, seat, gid)
        if gain <= 0.5:
            continue
        price = max(0, int(card["price"]) - h.discount)
        out.append((gain / max(1, price), gid, price))
    return sorted(out, key=lambda item: (-item[0], item[1]))


@lru_cache(maxsize=8)
def shop(lvl: int) -> tuple[str, ...]:
    """What a market of this level sells that the bot may want (torches aside: barrows are
    not the bot's business)."""
    c = load()
    return tuple(
        g for g in c.shop(lvl) if not (c.gear[g].get("charges") and c.gear[g]["slot"] == "accessory")
    )


def wanted_weapon(s: State, seat: int) -> tuple[str, int] | None:
    """The ranged weapon worth saving for when the hero has none (any level up to the
    chapter's, DO L332-333, that no one owns): the best one its gold, its coins and its
    melee weapon's sale would pay for, haggling a level's gold off; else the cheapest."""
    if has_ranged(s, seat):
        return None
    c = load()
    lvl = s.chapter or 1
    owned = {g for h in s.heroes for g in h.gear}
    options = sorted(
        (int(card["price"]), gid)
        for gid, card in c.gear.items()
        if card["slot"] == "primary"
        and int(card.get("range", 0)) > 0
        and card["level"] <= lvl
        and card["type"] != "artifact"
        and gid not in owned
    )
    if not options:
        return None
    budget = spending_power(s, seat) + (lvl if may_haggle(s, seat) else 0)
    affordable = [(price, gid) for price, gid in options if price <= budget]
    if not affordable:
        price, gid = options[0]
        return gid, price
    price, gid = max(affordable, key=lambda o: (worth(o[1], "primary", lvl), -o[0], o[1]))
    return gid, price


RESERVE = 2
"""Gold kept for beds at the tavern (DO L329: 1 gold a round)."""


def may_haggle(s: State, seat: int) -> bool:
    """Light haggling is open (1 MP a try, no discount yet) with morale to spare."""
    h = s.heroes[seat]
    return h.discount == 0 and h.mp >= 3


def spending_power(s: State, seat: int) -> int:
    """Gold the hero can raise at a market: its gold, its coin tokens, and the sale of a
    melee weapon it would replace (1 gold per level, DO L337)."""
    c = load()
    h = s.heroes[seat]
    held = [c.face(t) for t in h.inventory]
    total = h.gold + held.count("coin") + 2 * held.count("ring")
    primary = h.equipped.get("primary")
    if primary and not has_ranged(s, seat) and primary in c.gear:
        total += int(c.gear[primary]["level"])
    return total


def has_ranged(s: State, seat: int) -> bool:
    gid = s.heroes[seat].equipped.get("primary")
    return bool(gid) and int(card_of(gid).get("range", 0)) > 0


def shopping_pick(s: State, seat: int, by: dict[str, list[Choice]]) -> Choice | None:
    """At a market: sell coin tokens and gear the hero has outgrown, redeem a scroll for the
    best gear it buys, a ranged weapon first (selling its melee weapon and haggling toward
    it), then what the wish list holds with a haggle first, keeping ``RESERVE`` gold for a
    bed. Acts exactly when ``wants_market`` says the market is worth a visit."""
    reserve = RESERVE
    h = s.heroes[seat]
    lvl = s.chapter or 1
    if by.get("sell_token"):
        return by["sell_token"][0]
    for sale in by.get("sell", []):
        if outgrown(s, seat, sale.args["gear"]):
            return sale
    redeems = by.get("redeem", [])
    if redeems:
        return max(redeems, key=lambda r: (purchase_gain(s, seat, r.args["gear"]), r.args["gear"]))
    wants = wish_list(s, seat)
    target = wanted_weapon(s, seat)
    if target is not None:
        gid, price = target
        cost = max(0, price - h.discount)
        buy = next((b for b in by.get("buy", []) if b.args["gear"] == gid), None)
        if buy is not None and h.gold >= cost:
            return buy
        off = lvl if may_haggle(s, seat) else 0
        primary = h.equipped.get("primary")
        sale = next((x for x in by.get("sell", []) if x.args["gear"] == primary), None)
        if sale is not None and h.gold + int(card_of(str(primary))["level"]) >= cost - off:
            return sale
        if h.gold + off >= cost:
            return haggle_pick(s, seat, by)
        wants = [w for w in wants if w[2] + price <= h.gold - reserve]
    for _, gid, price in wants:
        if price > h.gold - reserve:
            continue
        buy = next((b for b in by.get("buy", []) if b.args["gear"] == gid), None)
        if buy is None:
            continue
        if price >= 2 * lvl and may_haggle(s, seat) and h.mp >= 12:
            haggle = haggle_pick(s, seat, by)
            if haggle is not None:
                return haggle
        return buy
    return None


def haggle_pick(s: State, seat: int, by: dict[str, list[Choice]]) -> Choice | None:
    """Light haggling (1 MP) takes the level's gold off on a won roll-off, two tries in
    three (DO L335); heavy haggling costs 2 MP and a beating on a failure for a third more
    (DO L336): the bot haggles lightly."""
    if not may_haggle(s, seat):
        return None
    return next((x for x in by.get("haggle", []) if x.args["style"] == "light"), None)


def outgrown(s: State, seat: int, gid: str) -> bool:
    """Unequipped gear no better than what the hero wears in its slot."""
    h = s.heroes[seat]
    if gid in h.equipped.values() or gid.startswith("holo"):
        return False
    card = card_of(gid)
    slot = card.get("slot", "")
    if card.get("type") == "artifact":
        return False
    lvl = s.chapter or 1
    if slot == "accessory":
        worst = min(slot_worth(s, seat, sl) for sl in ("accessory1", "accessory2"))
        return worth(gid, "accessory1", lvl) <= worst
    return slot in h.equipped and worth(gid, slot, lvl) <= slot_worth(s, seat, slot)


def drink_pick(s: State, seat: int, by: dict[str, list[Choice]], urgent: bool) -> Choice | None:
    """A stored potion that restores no more than is missing (or any healing one when
    ``urgent``), health first."""
    c = load()
    h = s.heroes[seat]
    missing_hp = hp_cap(s, c, seat) - h.hp
    missing_mp = 30 - h.mp
    best: tuple[float, Choice] | None = None
    for d in by.get("drink", []):
        gives = STORED_POTIONS[c.face(d.args["token"])]
        hp, mp = gives.get("hp", 0), gives.get("mp", 0)
        if urgent and hp <= 0:
            continue
        if not urgent and (hp > missing_hp or mp > missing_mp):
            continue
        score = 2 * hp + mp
        if best is None or score > best[0]:
            best = (score, d)
    return None if best is None else best[1]


def craft_pick(s: State, seat: int, by: dict[str, list[Choice]], keep_courage: bool) -> Choice | None:
    """Brew what is missing: Health (5 HP) or Lethargy, Morale (5 MP) or Wellness; a
    magic mushroom adds 2 (DO L269). Fast crafting only to make room. Courage's herbs
    (blue and yellow) are kept for the boss when ``keep_courage``."""
    c = load()
    h = s.heroes[seat]
    missing_hp = hp_cap(s, c, seat) - h.hp
    missing_mp = 30 - h.mp
    crafts = by.get("craft", [])

    def recipe(name: str, magic: bool = False) -> Choice | None:
        return next(
            (x for x in crafts if x.args["recipe"] == name and bool(x.args.get("magic")) == magic),
            None,
        )

    plans = [
        ("health", missing_hp >= 5),
        ("wellness", missing_hp >= 2 and missing_mp >= 2),
        ("morale", missing_mp >= 5),
        ("lethargy", missing_hp >= 4 and h.mp >= 10),
        ("boldness", missing_mp >= 4 and h.hp >= 18),
    ]
    for name, wanted in plans:
        if not wanted:
            continue
        if keep_courage and name in ("wellness", "morale", "boldness") and blue_for_courage(s, seat):
            continue
        pick = recipe(name, magic=missing_hp >= 7 or missing_mp >= 7) or recipe(name)
        if pick is not None:
            return pick
    return None


def blue_for_courage(s: State, seat: int) -> bool:
    """The only blue herb is needed with a yellow one for Courage."""
    c = load()
    held = [c.face(t) for t in s.heroes[seat].inventory]
    return held.count("herb_blue") <= 1 and "herb_yellow" in held


def room_pick(s: State, seat: int, by: dict[str, list[Choice]]) -> Choice | None:
    """Make a free inventory slot: fast-craft two ingredients into morale, else drop the
    least useful token."""
    c = load()
    h = s.heroes[seat]
    fast = next((x for x in by.get("craft", []) if x.args["recipe"] == "fast_mp"), None)
    held = [c.face(t) for t in h.inventory]
    ingredients = sum(1 for f in held if f in INGREDIENTS)
    if fast is not None and ingredients >= 2:
        return fast
    drops = by.get("drop", [])
    rank = {f: i for i, f in enumerate(DROP_FIRST)}
    candidates = [d for d in drops if c.face(d.args["token"]) in rank]
    if not candidates:
        return None
    return min(candidates, key=lambda d: (rank[c.face(d.args["token"])], d.args["token"]))


DROP_FIRST = ("straw_doll", "mushroom", "chicken", "tick", "herb_yellow", "stone", "herb_blue", "herb_purple")
"""What the bot drops first when it needs a slot (torch fodder, then the weakest ingredients)."""


def guild_choice(s: State, seat: int, choices: list[Choice]) -> Choice:
    """Rangers reach further (+1 range: out of a boss's reach), warriors and rogues hit
    harder, shifters take less; the first free one of this order."""
    ranged = has_ranged(s, seat)
    order = ("Ranger", "Warrior", "Rogue", "Shifter") if ranged else ("Warrior", "Rogue", "Shifter", "Ranger")
    for guild in order:
        pick = next((x for x in choices if x.args.get("guild") == guild), None)
        if pick is not None:
            return pick
    return choices[0]
