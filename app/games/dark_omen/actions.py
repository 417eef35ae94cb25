"""What a hero may do in a round, and what it does (DO L210-358, facts §7-§14, §21).

Every seat acts at once: ``seat_choices`` lists one seat's legal commands now (each
carrying ``hero``: the seat), ``resolve`` carries one out on the newest state. A seat with
a sub-question open (a battle's boost window, a runehenge's directions, a gamble's keeps,
a barrow's keeps, a new character after a death) is offered only its answers.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from app.games.dark_omen import omens, stats
from app.games.dark_omen.board import (
    line_of_sight,
    neighbours,
    town_links,
    town_node,
)
from app.games.dark_omen.content import Content
from app.games.dark_omen.content import load as load_content
from app.games.dark_omen.state import INVENTORY, POTIONS, Hero, State
from app.kernel.types import Choice, RuleError

HERBS = ("herb_blue", "herb_yellow", "herb_purple")
INGREDIENTS = ("chicken", "mushroom", *HERBS, "red_mushroom")
"""Potion ingredients, the least precious first (fast crafting spends them in this order)."""
STORED_POTIONS = {
    "quail_eggs": {"hp": 1},
    "potion_4mp": {"mp": 4},
    "potion_4hp": {"hp": 4},
    "potion_2hp2mp": {"hp": 2, "mp": 2},
    "ceremonial_skull": {"mp": 6},
}
"""Found potions are stored and drunk when needed (DO L247-249)."""
DIRECT_DAMAGE = {"dung": 2, "tick": 1, "stone": 3}
"""Crap: 2 direct damage (DO L254); tick 1 and stone up to 3 (decision, facts §9)."""
SELLABLE = {"coin": 1, "ring": 2}
"""Only coin-symbol tokens sell (DO L250-251, L334)."""
OFFERINGS = ("straw_doll", "chicken", "mushroom", "red_mushroom", "gear_scroll", "coin", "ring")
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
TOWNS = ("Hoglichten", "Ravensden")


def refuse(code: str, message: str, status: int = 422) -> RuleError:
    return RuleError(code, message, status=status)


def ch(type_: str, seat: int, label: str, **args: Any) -> Choice:
    return Choice(type_, {"hero": seat, **args}, label)


def face(c: Content, token: str) -> str:
    return c.face(token)


def faces(c: Content, tokens: list[str]) -> Counter[str]:
    return Counter(c.face(t) for t in tokens)


def ap_left(h: Hero) -> int:
    return max(0, h.ap_limit - h.ap)


def town_of(at: int | str) -> tuple[str, str] | None:
    if isinstance(at, str):
        town, place = at.split(":", 1)
        return town, place
    return None


def location_at(s: State, at: int | str) -> dict[str, Any] | None:
    if isinstance(at, int):
        return s.locations.get(at)
    return None


def trade_place(s: State, h: Hero) -> str | None:
    """Where a hero can trade: a market, or an unlocked Trading Post or Village (DO L305-306)."""
    town = town_of(h.at)
    if town is not None:
        return "market" if town[1] == "market" else None
    loc = location_at(s, h.at)
    if loc and loc["open"] and loc["kind"] in ("trading_post", "village"):
        key = f"day:trade:{h.at}"
        return None if key in h.used else loc["kind"]
    return None


def creatures_here(s: State, space: int | str) -> list[dict[str, Any]]:
    return [c for c in s.creatures if c["space"] == space]


def level(s: State) -> int:
    return s.chapter or 1


# -- the choices of one seat -------------------------------------------------------------------------


def seat_choices(s: State, c: Content, seat: int) -> list[Choice]:
    h = s.heroes[seat]
    if not h.alive:
        return new_character_choices(s, c, seat) if h.pending else []
    if h.pending is not None:
        return pending_choices(s, c, h)
    out = invitation_choices(s, seat) + gamble_invitations(s, seat)
    if h.must_attack is not None:
        target = s.creature(h.must_attack)
        if target is not None and ap_left(h) >= 1:
            return out + [
                ch("attack", seat, f"Fight the {name_of(target)} (surprise attack)", creature=target["id"])
            ]
    out += free_choices(s, c, h)
    if ap_left(h) >= 1:
        out += ap_choices(s, c, h)
    out.append(ch("end_round", seat, "End my round"))
    return out


def name_of(creature: dict[str, Any]) -> str:
    """How choices name an enemy: a face-down token by nothing but that (DO L476)."""
    if creature.get("token") and not creature.get("flipped"):
        return "face-down creature"
    return str(creature.get("name") or f"level {creature['level']} creature")


def new_character_choices(s: State, c: Content, seat: int) -> list[Choice]:
    """DO L199: choose a new character from those remaining, at a town entrance."""
    taken = {h.character for h in s.heroes if h.alive} | set(s.fallen)
    side = stats.side_of(s, c)
    return [
        ch("new_character", seat, f"Play {card['name']} from {town}", character=cid, town=town)
        for cid, card in c.characters.items()
        if cid not in taken
        for town in sorted(side.towns)
    ]


def pending_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    p = h.pending
    assert p is not None
    seat = h.seat
    match p["kind"]:
        case "battle":
            return battle_choices(s, c, h)
        case "team":
            out = [ch("withdraw_team", seat, "Withdraw the team attack")]
            if p["joined"]:
                out.insert(
                    0, ch("launch_team", seat, f"Launch the team attack ({1 + len(p['joined'])} heroes)")
                )
            return out
        case "runehenge":
            return [
                ch("turn", seat, f"Turn white {w}, clear {cl}", white=w, clear=cl)
                for w in ("cw", "ccw")
                for cl in ("cw", "ccw")
            ]
        case "draugr" | "barrow":
            return keep_choices(s, c, h)
        case "hard_life":
            return [ch("draw_die", seat, "Roll another die"), ch("stand", seat, f"Stand on {sum(p['dice'])}")]
        case "gamble_host":
            table = s.gambles[str(seat)]
            return [ch("start_gamble", seat, f"Start the game ({len(table['players'])} player(s))")]
        case "gamble_wait":
            return []
    return []


def keep_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Keep some dice and reroll the rest (DO L344-346, L318): one choice per set of faces
    to reroll, and standing."""
    p = h.pending
    assert p is not None
    seat = h.seat
    out = [ch("stand", seat, f"Stop with {p['dice']}")]
    if p["rolls_left"] > 0:
        distinct = sorted(set(p["dice"]))
        for n in range(1, len(distinct) + 1):
            for group in combinations(distinct, n):
                out.append(
                    ch("reroll", seat, f"Reroll every {', '.join(map(str, group))}", faces=list(group))
                )
    if p["kind"] == "barrow" and torch_charges(s, c, h) > 0:
        out.append(ch("torch_rolls", seat, "Spend a torch charge for 3 more rolls"))
        if len(p["dice"]) < 4:
            out.append(ch("torch_die", seat, "Spend a torch charge to add a 4th die"))
    return out


def battle_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """The boost window (DO L404-406): 2 MP for +1 on one of your dice, never past 6; the
    Courage potion sets a die to 7 (DO L268); in a team only your contributed die(s)."""
    p = h.pending
    assert p is not None
    seat = h.seat
    if seat in p["ready"]:
        return []
    team = len(p["members"]) > 1
    dice = p["dice"][str(seat)]
    usable = contributed_indices(dice, seat in p["heroic"], team)
    out: list[Choice] = []
    for i in usable:
        if dice[i] < 6 and h.mp >= 2:
            out.append(ch("boost", seat, f"Boost your {dice[i]} to {dice[i] + 1} (2 MP)", index=i))
    shield = h.equipped.get("shield")
    if shield is not None and h.charges.get(shield, 0) > 0 and seat not in p.get("shields", []):
        name = c.gear[shield]["name"]
        out.append(ch("raise_shield", seat, f"Raise the {name}: a token turns the next blow (DO L339)"))
    held = faces(c, h.inventory)
    if held["herb_blue"] and held["herb_yellow"]:
        for i in usable:
            out.append(ch("courage", seat, f"Brew Courage: your {dice[i]} becomes 7", index=i))
    if team:
        out += tie_choices(s, h)
    label = "Resolve the attack" if not team else "Ready"
    out.append(ch("finalize", seat, label))
    return out


def tie_choices(s: State, h: Hero) -> list[Choice]:
    """Heroes whose contributed dice tie choose who faces the enemy first (DO L428); if the
    tied players name the same hero, that order stands (facts §21)."""
    p = h.pending
    assert p is not None
    mine = max(p["dice"][str(h.seat)])
    tied = [m for m in p["members"] if m != h.seat and max(p["dice"][str(m)]) == mine]
    if not tied:
        return []
    votes = p.get("tie_votes", {})
    return [
        ch("tie_first", h.seat, f"{s.names[x]} faces the enemy first", first=x)
        for x in sorted([h.seat, *tied])
        if votes.get(str(h.seat)) != x
    ]


def contributed_indices(dice: list[int], heroic: bool, team: bool) -> list[int]:
    order = sorted(range(len(dice)), key=lambda i: -dice[i])
    if not team:
        return order
    return order[: 2 if heroic else 1]


def invitation_choices(s: State, seat: int) -> list[Choice]:
    """A team attack asks allies in reach to join or decline (DO L424-425)."""
    out = []
    for other in s.heroes:
        p = other.pending
        if p and p["kind"] == "team" and seat in p["invited"]:
            h = s.heroes[seat]
            if ap_left(h) >= 1 and can_reach(s, seat, p["creature"]):
                out.append(ch("join_team", seat, f"Join {s.names[other.seat]}'s attack", leader=other.seat))
                if level(s) >= 3 and h.mp >= stats.heroic_cost(s, load_content(), seat) and heroic_fits(s, p):
                    out.append(
                        ch("join_team", seat, "Join with a heroic attack", leader=other.seat, heroic=True)
                    )
            out.append(ch("decline_team", seat, f"Decline {s.names[other.seat]}'s attack", leader=other.seat))
    return out


def heroic_fits(s: State, p: dict[str, Any]) -> bool:
    """DO L463: no heroic die that would give the heroes more dice than the enemy. Judged on
    the team so far (the leader, those who joined, and this hero) once the enemy is known; a
    face-down token's dice stay hidden (DO L476), so launching drops what no longer fits."""
    target = s.creature(p["creature"])
    if target is None:
        return False
    if target.get("card") is None:
        return True
    members = 2 + len(p["joined"])
    dice = int(target["dice"]) + stats.creature_effect(s, load_content(), target, "dice")
    return members + len(p["heroic"]) + 1 <= dice


def gamble_invitations(s: State, seat: int) -> list[Choice]:
    """Players at the same place may join a game of chance (DO L342)."""
    h = s.heroes[seat]
    out = []
    for host, table in s.gambles.items():
        if seat in table["invited"]:
            name = s.names[int(host)]
            if ap_left(h) >= 1 and h.mp >= 1 and h.gold >= 1 and h.at == s.heroes[int(host)].at:
                out.append(
                    ch("join_gamble", seat, f"Join {name}'s game (1 AP, 1 MP, 1 gold)", host=int(host))
                )
            out.append(ch("decline_gamble", seat, f"Decline {name}'s game", host=int(host)))
    return out


def can_reach(s: State, seat: int, cid: str) -> bool:
    """On the enemy's space, or within weapon range in a straight clear line (DO L365)."""
    from app.games.dark_omen.content import load

    c = load()
    target = s.creature(cid)
    h = s.heroes[seat]
    if target is None:
        return False
    if target["space"] == h.at:
        return True
    reach = stats.weapon_range(s, c, seat)
    if reach <= 0 or not isinstance(h.at, int) or not isinstance(target["space"], int):
        return False
    steps = line_of_sight(stats.side_of(s, c), h.at, target["space"], s.layers)
    return steps is not None and steps <= reach


def torch_charges(s: State, c: Content, h: Hero) -> int:
    """Torch charges: charged torch gear, and straw dolls (1 each, DO L256)."""
    torches = sum(n for gid, n in h.charges.items() if "Torch" in c.gear.get(gid, {}).get("name", ""))
    return torches + faces(c, h.inventory)["straw_doll"]


def free_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """0-AP actions (DO L222-224, L231-233)."""
    seat = h.seat
    out: list[Choice] = []
    here = h.at
    if isinstance(here, int):
        for token in s.dropped.get(here, []):
            f = face(c, token)
            if room_for(h, f):
                out.append(ch("take", seat, f"Pick up the {label(f)}", token=token))
        if str(here) in s.graves and not creatures_here(s, here) and h.mp >= 2:
            out.append(ch("take_belongings", seat, "Take the fallen hero's belongings (−2 MP)"))
    for token in sorted(set(h.inventory) | set(h.potions), key=lambda t: (face(c, t), t)):
        f = face(c, token)
        if f in STORED_POTIONS:
            out.append(ch("drink", seat, f"Drink the {label(f)}", token=token))
        if f == "bread":
            out.append(ch("eat", seat, "Eat the traveler's bread (+1 AP)", token=token))
    seen: set[str] = set()
    for token in h.inventory + h.potions:
        f = face(c, token)
        if f not in seen:
            seen.add(f)
            out.append(ch("drop", seat, f"Drop the {label(f)}", token=token))
    out += craft_choices(s, c, h)
    out += equip_choices(s, c, h)
    out += exchange_choices(s, c, h)
    place = trade_place(s, h)
    if place is not None:
        out += trade_choices(s, c, h)
    if s.omen and s.omen["status"] == "active" and h.blood > 0:
        omen = c.omens[s.omen["id"]]
        if omen["mission"] == "gather":
            out.append(ch("offer_blood", seat, "Hand in a blood of the beast for the omen"))
    if isinstance(here, int) and here not in s.campfires and torch_charges(s, c, h) > 0:
        out.append(ch("campfire", seat, "Light a campfire with a torch charge (+2 MP)"))
    loc = location_at(s, here)
    if loc is not None and loc.get("lit") and "round:camp" not in h.used:
        out.append(ch("warm", seat, "Warm up at the permanent camp (+2 MP)"))
    if (
        stats.region_at(s, c, here) == "The Great Mycelia"
        and not h.effects.get("burnt_path")
        and torch_charges(s, c, h) > 0
    ):
        out.append(ch("burn_path", seat, "Burn a path through the vines with a torch charge"))
    if isinstance(here, int) and any(c2["space"] == here for c2 in s.creatures):
        for token in h.inventory:
            f = face(c, token)
            if f in DIRECT_DAMAGE and f not in seen - {f}:
                for target in creatures_here(s, here):
                    out.append(
                        ch(
                            "throw",
                            seat,
                            f"Throw the {label(f)} at the {name_of(target)}",
                            token=token,
                            creature=target["id"],
                        )
                    )
                break
    return out


def exchange_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Heroes sharing a space swap loot, items and gold freely (DO L260)."""
    out = []
    for other in s.heroes:
        if other.seat == h.seat or not other.alive or other.at != h.at:
            continue
        seen: set[str] = set()
        for token in h.inventory + h.potions:
            f = face(c, token)
            if f not in seen and room_for(other, f):
                seen.add(f)
                out.append(
                    ch(
                        "give",
                        h.seat,
                        f"Give the {label(f)} to {s.names[other.seat]}",
                        token=token,
                        to=other.seat,
                    )
                )
        if h.gold:
            out.append(ch("give_gold", h.seat, f"Give a gold to {s.names[other.seat]}", to=other.seat))
    return out


def room_for(h: Hero, f: str) -> bool:
    if f in STORED_POTIONS:
        return len(h.potions) < POTIONS
    return len(h.inventory) < INVENTORY


def label(f: str) -> str:
    return f.replace("_", " ")


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


SLOTS = ("primary", "secondary", "helmet", "body", "shield", "accessory1", "accessory2", "artifact")


def slots_for(card: dict[str, Any]) -> list[str]:
    if card["slot"] == "accessory":
        return ["accessory1", "accessory2"]
    return [card["slot"]]


def equip_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Free, unless engaged: then 1 AP, once per round (DO L386)."""
    engaged = h.engaged or bool(creatures_here(s, h.at))
    if engaged and (ap_left(h) < 1 or "round:equip" in h.used):
        return []
    out = []
    for gid in h.gear:
        if gid in h.equipped.values():
            continue
        card = c.gear.get(gid) or c.holographic[gid]
        if card["level"] > level(s) and card["type"] != "artifact":
            continue
        for slot in slots_for(card):
            cost = " (1 AP)" if engaged else ""
            out.append(ch("equip", h.seat, f"Equip {card['name']} ({slot}){cost}", gear=gid, slot=slot))
    return out


def price(s: State, c: Content, h: Hero, gid: str) -> int:
    return max(0, int(c.gear[gid]["price"]) - h.discount)


def trade_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Buy gear of your level or lower, haggle, sell gear for 1 gold per level, sell coin
    tokens (DO L332-337); a scroll buys a gear of the chapter's level (DO L253)."""
    seat = h.seat
    out = []
    owned = {g for other in s.heroes for g in other.gear}
    for gid in c.shop(level(s)):
        if gid not in owned and price(s, c, h, gid) <= h.gold:
            out.append(ch("buy", seat, f"Buy {c.gear[gid]['name']} for {price(s, c, h, gid)} gold", gear=gid))
    scroll = next((t for t in h.inventory if face(c, t) == "gear_scroll"), None)
    if scroll is not None:
        for gid in c.shop(level(s)):
            if gid not in owned and c.gear[gid]["level"] == level(s):
                out.append(
                    ch(
                        "redeem",
                        seat,
                        f"Trade the gear scroll for {c.gear[gid]['name']}",
                        gear=gid,
                        token=scroll,
                    )
                )
    if h.discount == 0:
        if h.mp >= 1:
            out.append(ch("haggle", seat, "Light haggling (1 MP)", style="light"))
        if h.mp >= 2:
            out.append(ch("haggle", seat, "Heavy haggling (2 MP)", style="heavy"))
    for gid in h.gear:
        card = c.gear.get(gid)
        if card is not None and gid != "angry_chicken":
            out.append(ch("sell", seat, f"Sell {card['name']} for {card['level']} gold", gear=gid))
    seen = set()
    for token in h.inventory:
        f = face(c, token)
        if f in SELLABLE and f not in seen:
            seen.add(f)
            out.append(ch("sell_token", seat, f"Sell the {f} for {SELLABLE[f]} gold", token=token))
    return out


def ap_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    seat = h.seat
    out = move_choices(s, c, h)
    here = h.at
    left = ap_left(h)
    if isinstance(here, int) and here in s.loot:
        out.append(ch("loot", seat, "Flip the loot token here (1 AP)"))
    for target in s.creatures:
        if can_reach(s, seat, target["id"]) and engaged_by(s, target["id"]) in (None, seat):
            out.append(ch("attack", seat, f"Attack the {name_of(target)} (1 AP)", creature=target["id"]))
            if level(s) >= 3 and h.mp >= stats.heroic_cost(s, c, seat):
                out.append(
                    ch(
                        "attack",
                        seat,
                        f"Heroic attack on the {name_of(target)}",
                        creature=target["id"],
                        heroic=True,
                    )
                )
            allies = team_allies(s, seat, target["id"])
            if allies:
                out.append(
                    ch(
                        "propose_team",
                        seat,
                        f"Propose a team attack on the {name_of(target)}",
                        creature=target["id"],
                    )
                )
    if omens.may_meditate(s, c):
        out.append(ch("meditate", seat, "Meditate (+1 MP, 1 AP)"))
    for prop in omens.tasks_here(s, here):
        out.append(ch("tend", seat, omens.task_label(prop), prop=prop["id"]))
    town = town_of(here)
    if town is not None:
        _, place = town
        if place == "tavern":
            if h.gold >= 1 or "round:rested" in h.used:
                out.append(ch("rest", seat, "Rest (+2 HP, +1 MP, 1 AP)"))
            if h.gold >= 1 and h.mp >= 1:
                out.append(ch("gamble", seat, "Gamble: Draugr Dice", game="draugr"))
                out.append(ch("gamble", seat, "Gamble: Hard Life", game="hard_life"))
        if place == "healer":
            for rid in h.runes:
                card = c.runes[rid]
                if card["house"] == "Moon":
                    if h.gold >= 3:
                        out.append(
                            ch("cleanse", seat, f"Be healed of {card['name']} (3 gold)", rune=rid, pay="gold")
                        )
                    if len(h.inventory) >= 5:
                        out.append(
                            ch("cleanse", seat, f"Be healed of {card['name']} (5 loot)", rune=rid, pay="loot")
                        )
        if place == "market":
            out += repair_choices(s, c, h)
    loc = location_at(s, here)
    if loc is not None:
        out += location_choices(s, c, h, loc)
    if isinstance(here, int) and level(s) >= 2:
        out += barrow_choices(s, c, h, left)
    return out


def engaged_by(s: State, cid: str) -> int | None:
    """The seat whose battle or team attack holds this creature (facts §21: the target is
    reserved until it resolves)."""
    for h in s.heroes:
        p = h.pending
        if p and p["kind"] in ("battle", "team") and p["creature"] == cid:
            return h.seat
    return None


def team_allies(s: State, seat: int, cid: str) -> list[int]:
    return [
        o.seat
        for o in s.heroes
        if o.seat != seat and o.alive and not o.done and o.pending is None and ap_left(o) >= 1
    ]


def move_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Orthogonal steps at 1 AP; a black line costs 4 MP more (DO L240); towns are entered
    and left by the gate and never blocked (DO L297-298)."""
    seat = h.seat
    side = stats.side_of(s, c)
    out = []
    here = h.at
    free = h.effects.get("free_steps", 0) > 0
    if isinstance(here, str):
        town, _ = here.split(":", 1)
        for node in town_links(town, here):
            out.append(ch("move", seat, f"Go to the {node.split(':')[1]}", to=node))
        if here.endswith(":gate"):
            entrance = side.towns[town]
            out.append(ch("move", seat, f"Leave {town} to space {entrance}", to=entrance))
        return [x for x in out if free or ap_left(h) >= 1]
    town = side.town_at(here)
    if town is not None:
        out.append(ch("move", seat, f"Enter {town}", to=town_node(town, "gate")))
    for there in neighbours(here):
        ap = stats.move_ap(s, c, seat, there)
        if not free and ap > ap_left(h):
            continue
        bridge = stats.bridge_mp(s, here, there)
        if bridge > h.mp:
            continue
        toll = f" (+{bridge} MP for the bridge)" if bridge else ""
        if side.blocked(side.edge(here, there), s.layers):
            if h.effects.get("levity", 0) > 0:
                out.append(ch("move", seat, f"Move to {there}, floating over the obstacle{toll}", to=there))
            elif h.mp >= stats.obstacle_cost(s, c, seat) + bridge:
                cost = stats.obstacle_cost(s, c, seat)
                out.append(
                    ch("move", seat, f"Move to {there} across the obstacle ({cost} MP){toll}", to=there)
                )
        else:
            out.append(ch("move", seat, f"Move to {there}{toll}", to=there))
    return out


def repair_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """1 AP + 1 gold per level restores charges (DO L339-340)."""
    out = []
    for gid, n in h.charges.items():
        card = c.gear.get(gid)
        if card and n < int(card.get("charges", 0)) and h.gold >= card["level"]:
            out.append(ch("repair", h.seat, f"Repair {card['name']} ({card['level']} gold)", gear=gid))
    return out


def location_choices(s: State, c: Content, h: Hero, loc: dict[str, Any]) -> list[Choice]:
    """Location tokens (DO L301-313): unlocked with 1 AP + 2 blood of the beast."""
    seat = h.seat
    if not loc["open"]:
        return [ch("unlock", seat, "Unlock this location (1 AP, 2 blood)")] if h.blood >= 2 else []
    out = []
    match loc["kind"]:
        case "runehenge" | "dwarven_clocktower":
            for offering in offering_choices(s, c, h, loc["kind"]):
                out.append(
                    ch("runehenge", seat, f"Offer {offering[1]} at the runehenge", offering=offering[0])
                )
        case "stone_of_courage":
            seen = set()
            for token in h.inventory:
                f = face(c, token)
                if f not in seen and h.hp < h.max_hp:
                    seen.add(f)
                    out.append(ch("courage_stone", seat, f"Sacrifice the {label(f)} (+2 HP)", token=token))
        case "stone_of_rejuvenation":
            if "day:rejuvenation" not in h.used:
                out.append(ch("rejuvenate", seat, "Rest at the Stone of Rejuvenation (+2 MP)"))
        case "river_travel":
            if h.gold >= 2:
                out.append(ch("river", seat, "Travel by river (2 gold)"))
        case "village":
            if h.gold >= 1 and h.mp >= 1 and f"day:gamble:{h.at}" not in h.used:
                out.append(ch("gamble", seat, "Gamble: Draugr Dice", game="draugr"))
                out.append(ch("gamble", seat, "Gamble: Hard Life", game="hard_life"))
            if f"day:repair:{h.at}" not in h.used:
                out += repair_choices(s, c, h)
        case "gloomy_waters":
            if h.inventory and "round:gloomy" not in h.used:
                out.append(ch("gloomy", seat, "Discard a loot for 3 MP", token=h.inventory[0]))
        case "blood_bag":
            if h.max_hp > 1:
                out.append(ch("blood_bag", seat, "Max HP −1, then +4 HP"))
        case "ship_apothecary":
            out.append(ch("apothecary", seat, "Recover 2 HP and 1 MP (1 AP)"))
        case "well_of_fortune":
            if h.gold >= 1:
                out.append(ch("well", seat, "Wish (1 gold)", beg=False))
            if h.gold >= 2:
                out.append(ch("well", seat, "Beg (2 gold)", beg=True))
        case "sacred_grove":
            if h.effects.get("black", 0):
                out.append(ch("ritual", seat, "Perform the ritual (clears black tokens)"))
        case "hidden_treasury":
            together = sum(1 for o in s.heroes if o.alive and o.at == h.at)
            if together >= 2 and torch_charges(s, c, h) > 0:
                out.append(ch("explore_barrow", seat, "Explore the secret chamber (1 AP, a torch charge)"))
        case "dwarven_smithy":
            if stats.has_torch(s, c, seat) and torch_charges(s, c, h) >= 2:
                for gid, n in h.charges.items():
                    card = c.gear.get(gid)
                    if card and n < int(card.get("charges", 0)):
                        out.append(ch("smithy", seat, f"Reforge {card['name']} (2 torch charges)", gear=gid))
        case "permanent_camp":
            if not loc.get("lit") and torch_charges(s, c, h) > 0:
                out.append(ch("make_camp", seat, "Make a permanent campfire with a torch"))
        case "gear_hoard":
            if h.mp >= 5 and not any(x.get("hoard") for x in s.creatures):  # shut while its dead walk
                out.append(ch("hoard", seat, "Search the cabins (5 MP)"))
        case "eternal_maze":
            for there, cost in maze_exits(s, c, h.at):
                if h.mp >= cost:
                    out.append(ch("maze", seat, f"Through the maze to {there} ({cost} MP)", to=there))
    return out


def maze_exits(s: State, c: Content, here: int | str) -> list[tuple[int, int]]:
    """Eternal Maze: the nearest entrance 2 MP, the second 3, the farthest 4 (DO L508)."""
    from app.games.dark_omen.board import distance

    assert isinstance(here, int)
    others = [sp for sp in stats.side_of(s, c).location_spaces("eternal_maze") if sp != here]
    others.sort(key=lambda sp: (distance(here, sp), sp))
    return [(sp, 2 + i) for i, sp in enumerate(others[:3])]


def offering_choices(s: State, c: Content, h: Hero, kind: str) -> list[tuple[str, str]]:
    """A gold, gear, or loot token (DO L312); two herbs of different colours make one
    offering (DO L255). The Dwarven Clocktower takes a Sun or Hope rune, or 1 gold (DO L509)."""
    out: list[tuple[str, str]] = []
    if h.gold >= 1:
        out.append(("gold", "a gold coin"))
    if kind == "dwarven_clocktower":
        out += [(f"rune:{r}", c.runes[r]["name"]) for r in h.runes if c.runes[r]["house"] in ("Sun", "Hope")]
        return out
    held = faces(c, h.inventory)
    for f in OFFERINGS:
        if held[f]:
            token = next(t for t in h.inventory if face(c, t) == f)
            out.append((token, f"the {label(f)}"))
    colours = [f for f in HERBS if held[f]]
    if len(colours) >= 2:
        out.append((f"herbs:{colours[0]}:{colours[1]}", f"a {label(colours[0])} and a {label(colours[1])}"))
    if h.blood:
        out.append(("blood", "a blood of the beast"))
    return out


def barrow_choices(s: State, c: Content, h: Hero, left: int) -> list[Choice]:
    """Barrows from chapter 2 (DO L315-325): search an empty space with k AP (found on a d6
    ≤ k; a failure bars retrying this round); explore one with 1 AP + a torch charge."""
    seat = h.seat
    here = h.at
    assert isinstance(here, int)
    out = []
    if here in s.barrows:
        if torch_charges(s, c, h) > 0:
            out.append(ch("explore_barrow", seat, "Explore the barrow (1 AP, a torch charge)"))
        return out
    side = stats.side_of(s, c)
    if s.chapter == 4:
        if here == 39 and torch_charges(s, c, h) > 0:  # the Mole Dwarf Ruin (DO L504)
            out.append(ch("explore_barrow", seat, "Explore the ruin's barrows (1 AP, a torch charge)"))
        return out
    empty = (
        here not in s.loot
        and here not in s.dropped
        and here not in s.locations
        and side.town_at(here) is None
        and not creatures_here(s, here)
    )
    if empty and "round:barrow_search" not in h.used and len(s.barrows) + s.barrows_gone < 4:
        for k in range(1, min(left, 6) + 1):
            out.append(ch("search_barrow", seat, f"Search for a barrow with {k} AP", ap=k))
    return out
