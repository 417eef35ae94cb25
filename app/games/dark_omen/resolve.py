"""Carrying out one seat's action (DO L210-358), already checked to be one of its choices.

Every random outcome is rolled here and written into the events."""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.games.dark_omen import combat, gambling, omens, stats
from app.games.dark_omen.actions import (
    DIRECT_DAMAGE,
    INGREDIENTS,
    RECIPES,
    SELLABLE,
    STORED_POTIONS,
    ap_left,
    face,
    maze_exits,
    name_of,
    price,
    room_for,
    slots_for,
    torch_charges,
)
from app.games.dark_omen.board import distance, neighbours, obstacle_throw
from app.games.dark_omen.engine import DoCtx
from app.games.dark_omen.state import TRACK_MAX, Hero

# -- small helpers -------------------------------------------------------------------------------


def d6(ctx: DoCtx) -> int:
    return ctx.rng.randint(1, 6)


def roll_spec(ctx: DoCtx, spec: str) -> int:
    n, sides, mod = combat.parse_roll(spec.replace("-", "+-"))
    return sum(ctx.rng.randint(1, sides) for _ in range(n)) + mod


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
    cap = stats.hp_cap(ctx.s, ctx.c, seat, data.get("max_hp", h.max_hp))
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


def spend_tokens(ctx: DoCtx, seat: int, tokens: list[str], why: str) -> None:
    if tokens:
        ctx.emit("LootSpent", seat=seat, tokens=tokens, why=why)
    h = ctx.s.heroes[seat]
    for token in tokens:
        if face(ctx.c, token) == "chicken" and "angry_chicken" in h.gear:
            ctx.emit("GearLost", seat=seat, gear="angry_chicken", why="the chicken is gone (DO L257)")


def take_ingredients(ctx: DoCtx, h: Hero, count: int) -> tuple[list[str], int]:
    """Fast crafting spends the least precious ingredients first, blood of the beast last."""
    chosen: list[str] = []
    for kind in INGREDIENTS:
        for token in h.inventory:
            if len(chosen) < count and face(ctx.c, token) == kind and token not in chosen:
                chosen.append(token)
    return chosen, count - len(chosen)


# -- the dispatcher --------------------------------------------------------------------------------


def resolve_action(ctx: DoCtx, seat: int, type_: str, args: dict[str, Any]) -> None:
    handler = HANDLERS[type_]
    handler(ctx, seat, args)


def do_end_round(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Forfeit the rest of the round's AP (DO L211)."""
    ctx.emit("RoundPassed", seat=seat)


def do_move(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    s, c = ctx.s, ctx.c
    h = s.heroes[seat]
    to = args["to"]
    if stats.region_at(s, c, h.at) == "The Great Mycelia" and not h.effects.get("burnt_path"):
        roll = ctx.rng.randint(1, 4)
        if roll == 4:  # entangling vines: no move, and the roll costs 1 AP (DO L498)
            ctx.emit("ApSpent", seat=seat, n=1, why="entangling vines", engaged=False, roll=roll)
            return
    side = stats.side_of(s, c)
    used: dict[str, int] = {}
    mp = 0
    ap = 1 if isinstance(to, str) or isinstance(h.at, str) else stats.move_ap(s, c, seat, to)
    if isinstance(to, int) and isinstance(h.at, int) and side.blocked(side.edge(h.at, to), s.layers):
        if h.effects.get("levity", 0) > 0:
            used["levity"] = 1
        else:
            mp = stats.obstacle_cost(s, c, seat)
    if isinstance(to, int) and isinstance(h.at, int):
        mp += stats.bridge_mp(s, h.at, to)
    if h.effects.get("free_steps", 0) > 0:
        used["free_steps"] = 1
        ap = 0
    ctx.emit("HeroMoved", seat=seat, to=to, ap=ap, mp=mp, used=used, **{"from": h.at})
    scorch = omens.burning(s, c, to)
    if scorch:
        change(ctx, seat, "the omen's fire", hp=-scorch)
    vortex_contact(ctx, seat)


def do_loot(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 AP flips the token here (DO L243); its effect, or into a free slot (DO L246-258)."""
    s, c = ctx.s, ctx.c
    h = s.heroes[seat]
    space = h.at
    assert isinstance(space, int)
    token = s.loot[space]
    f = face(c, token)
    spend_ap(ctx, seat, 1, "loot")
    if f == "trap":
        ctx.emit("LootRevealed", seat=seat, space=space, token=token, face=f, to="discard")
        if ap_left(h) > 0:
            ctx.emit("ApChanged", seat=seat, limit=h.ap_limit - 1, why="a trap (−1 AP)")
        else:
            ctx.emit("ApChanged", seat=seat, limit=h.ap_limit, debt=1, why="a trap: −1 AP next round")
        return
    if f == "creature":
        ctx.emit("LootRevealed", seat=seat, space=space, token=token, face=f, to="discard")
        cid = place_creature(ctx, space, stats_level(ctx), kind="creature")
        ctx.emit("SurpriseAttack", seat=seat, creature=cid)
        return
    to = ("potions" if f in STORED_POTIONS else "inventory") if room_for(h, f) else "ground"
    ctx.emit("LootRevealed", seat=seat, space=space, token=token, face=f, to=to)
    if f == "chicken" and to == "inventory":
        ctx.emit(
            "GearGained", seat=seat, gear="angry_chicken", why="the chicken comes with its card (DO L257)"
        )


def stats_level(ctx: DoCtx) -> int:
    return ctx.s.chapter or 1


def do_take(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    h = ctx.s.heroes[seat]
    f = face(ctx.c, args["token"])
    ctx.emit(
        "LootTaken",
        seat=seat,
        token=args["token"],
        space=h.at,
        to="potions" if f in STORED_POTIONS else "inventory",
    )


def do_drop(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Dropping costs nothing; the token lies face up (DO L245)."""
    h = ctx.s.heroes[seat]
    if isinstance(h.at, str):
        spend_tokens(ctx, seat, [args["token"]], "left in town")
        return
    ctx.emit("LootDropped", seat=seat, token=args["token"], space=h.at)
    if face(ctx.c, args["token"]) == "chicken" and "angry_chicken" in h.gear:
        ctx.emit("GearLost", seat=seat, gear="angry_chicken", why="the chicken is gone (DO L257)")


def do_give(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit("LootGiven", seat=seat, to=args["to"], token=args["token"])


def do_give_gold(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    change(ctx, seat, "a gift", gold=-1)
    change(ctx, args["to"], "a gift", gold=1)


def do_drink(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    effect = STORED_POTIONS[face(ctx.c, args["token"])]
    spend_tokens(ctx, seat, [args["token"]], "drunk")
    change(ctx, seat, "a potion", hp=effect.get("hp", 0), mp=effect.get("mp", 0))


def do_eat(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Traveler's bread: +1 AP this round (DO L252)."""
    h = ctx.s.heroes[seat]
    spend_tokens(ctx, seat, [args["token"]], "eaten")
    ctx.emit("ApChanged", seat=seat, limit=h.ap_limit + 1, why="traveler's bread (+1 AP)")


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
        skill = stats.gear_bonus(s, c, seat, "craft_bonus")
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
    skill = stats.gear_bonus(s, c, seat, "craft_bonus")

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


def do_equip(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    s = ctx.s
    h = s.heroes[seat]
    from app.games.dark_omen.actions import creatures_here

    if h.engaged or creatures_here(s, h.at):
        spend_ap(ctx, seat, 1, "changing gear while engaged")
        ctx.emit("Used", seat=seat, key="round:equip")
    ctx.emit("GearEquipped", seat=seat, gear=args["gear"], slot=args["slot"])


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


def mark_trade(ctx: DoCtx, seat: int) -> None:
    """A Trading Post or Village trades once per day per player (DO L305-306)."""
    h = ctx.s.heroes[seat]
    loc = ctx.s.locations.get(h.at) if isinstance(h.at, int) else None
    if loc is not None:
        ctx.emit("Used", seat=seat, key=f"day:trade:{h.at}")


def do_buy(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    h = ctx.s.heroes[seat]
    cost = price(ctx.s, ctx.c, h, args["gear"])
    change(ctx, seat, "a purchase", gold=-cost)
    if h.discount:
        ctx.emit("DiscountSet", seat=seat, n=0)
    gain_gear(ctx, seat, args["gear"], "bought")
    mark_trade(ctx, seat)


def do_redeem(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_tokens(ctx, seat, [args["token"]], "a gear scroll traded")
    gain_gear(ctx, seat, args["gear"], "a gear scroll (DO L253)")
    mark_trade(ctx, seat)


def do_sell(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    card = ctx.c.gear[args["gear"]]
    ctx.emit("GearLost", seat=seat, gear=args["gear"], why="sold")
    change(ctx, seat, "a sale", gold=int(card["level"]))
    mark_trade(ctx, seat)


def do_sell_token(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    value = SELLABLE[face(ctx.c, args["token"])]
    spend_tokens(ctx, seat, [args["token"]], "sold")
    change(ctx, seat, "a sale", gold=value)


def do_haggle(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Light: 1 MP, two roll-offs, a win takes 1 gold per level off; heavy: 2 MP, two d6,
    5–6 takes 2 gold per level off, a second failure costs 1 HP (DO L335-336)."""
    lvl = stats_level(ctx)
    knack = stats.gear_bonus(ctx.s, ctx.c, seat, "haggle")  # added to your own haggling die
    if args["style"] == "light":
        change(ctx, seat, "light haggling", mp=-1)
        rolls = []
        for _ in range(2):
            mine, theirs = d6(ctx) + knack, d6(ctx)
            rolls.append([mine, theirs])
            if mine > theirs:
                ctx.emit("DiscountSet", seat=seat, n=lvl, rolls=rolls)
                return
        ctx.emit("DiscountSet", seat=seat, n=0, rolls=rolls)
        return
    change(ctx, seat, "heavy haggling", mp=-2)
    rolls = []
    for _ in range(2):
        roll = d6(ctx) + knack
        rolls.append([roll])
        if roll >= 5:
            ctx.emit("DiscountSet", seat=seat, n=2 * lvl, rolls=rolls)
            return
    ctx.emit("DiscountSet", seat=seat, n=0, rolls=rolls)
    change(ctx, seat, "a beating by the guard", hp=-1)


def do_repair(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    card = ctx.c.gear[args["gear"]]
    spend_ap(ctx, seat, 1, "repair")
    change(ctx, seat, "the smith's fee", gold=-int(card["level"]))
    ctx.emit("ChargesSet", seat=seat, gear=args["gear"], n=int(card["charges"]))
    h = ctx.s.heroes[seat]
    if isinstance(h.at, int):
        ctx.emit("Used", seat=seat, key=f"day:repair:{h.at}")


def do_rest(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 gold to enter the tavern's rest, then +2 HP +1 MP per AP (DO L329-330)."""
    h = ctx.s.heroes[seat]
    spend_ap(ctx, seat, 1, "rest")
    if "round:rested" not in h.used:
        change(ctx, seat, "a bed at the tavern", gold=-1)
        ctx.emit("Used", seat=seat, key="round:rested")
    change(ctx, seat, "rest", hp=2, mp=1)


def do_cleanse(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """The healer removes a Moon rune for 3 gold or 5 loot tokens (DO L296)."""
    h = ctx.s.heroes[seat]
    spend_ap(ctx, seat, 1, "the healer")
    if args["pay"] == "gold":
        change(ctx, seat, "the healer's fee", gold=-3)
    else:
        spend_tokens(ctx, seat, h.inventory[:5], "the healer's fee")
    ctx.emit("RuneDiscarded", seat=seat, rune=args["rune"], why="healed")


def do_meditate(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 AP: +1 MP, only while an omen is active (DO L286-289)."""
    spend_ap(ctx, seat, 1, "meditation")
    change(ctx, seat, "meditation", mp=1)


def do_tend(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 AP for an omen's prop on your space: douse a fire, lay a grave to rest, take the
    omen's loot, lead the one calling for aid (DO L141-143, L243)."""
    omens.tend(ctx, seat, args["prop"])


def do_unlock(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 AP and 2 blood of the beast (DO L302)."""
    h = ctx.s.heroes[seat]
    spend_ap(ctx, seat, 1, "unlocking")
    change(ctx, seat, "unlocking a location", blood=-2)
    ctx.emit("LocationUnlocked", space=h.at, why="two blood of the beast")


def pay_offering(ctx: DoCtx, seat: int, offering: str) -> None:
    h = ctx.s.heroes[seat]
    if offering == "gold":
        change(ctx, seat, "an offering", gold=-1)
    elif offering == "blood":
        change(ctx, seat, "an offering", blood=-1)
    elif offering.startswith("rune:"):
        ctx.emit("RuneDiscarded", seat=seat, rune=offering[5:], why="an offering")
    elif offering.startswith("herbs:"):
        _, a, b = offering.split(":")
        tokens = [
            next(t for t in h.inventory if face(ctx.c, t) == a),
            next(t for t in h.inventory if face(ctx.c, t) == b),
        ]
        spend_tokens(ctx, seat, tokens, "an offering")
    else:
        spend_tokens(ctx, seat, [offering], "an offering")


def do_runehenge(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 AP and an offering; roll a d6 per layer, then choose each direction (DO L312-313)."""
    spend_ap(ctx, seat, 1, "runehenge")
    pay_offering(ctx, seat, args["offering"])
    ctx.emit("PendingRoll", seat=seat, kind="runehenge", rolls=[d6(ctx), d6(ctx)])


def do_turn(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    h = ctx.s.heroes[seat]
    assert h.pending is not None
    white_roll, clear_roll = h.pending["rolls"]
    layers = ctx.s.layers
    ctx.emit(
        "LayersTurned",
        white=obstacle_throw(layers["white"], white_roll, args["white"] == "cw"),
        clear=obstacle_throw(layers["clear"], clear_roll, args["clear"] == "cw"),
        rolls=[white_roll, clear_roll],
        why="runehenge",
        seat=seat,
    )
    ctx.emit("PendingCleared", seat=seat)


def do_courage_stone(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_ap(ctx, seat, 1, "Stone of Courage")
    spend_tokens(ctx, seat, [args["token"]], "sacrificed at the Stone of Courage")
    change(ctx, seat, "the Stone of Courage", hp=2)


def do_rejuvenate(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_ap(ctx, seat, 1, "Stone of Rejuvenation")
    ctx.emit("Used", seat=seat, key="day:rejuvenation")
    change(ctx, seat, "the Stone of Rejuvenation", mp=2)


def do_river(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 AP + 2 gold to the other river space (DO L308)."""
    h = ctx.s.heroes[seat]
    other = next(sp for sp in stats.side_of(ctx.s, ctx.c).location_spaces("river_travel") if sp != h.at)
    change(ctx, seat, "river travel", gold=-2)
    ctx.emit("HeroMoved", seat=seat, to=other, ap=1, mp=0, used={}, **{"from": h.at})


def do_campfire(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """A campfire lit with a torch charge (a straw doll counts): +2 MP, one round (DO L309)."""
    h = ctx.s.heroes[seat]
    spend_torch(ctx, seat)
    ctx.emit("CampfireLit", seat=seat, space=h.at)
    change(ctx, seat, "a campfire", mp=2)


def spend_torch(ctx: DoCtx, seat: int) -> None:
    h = ctx.s.heroes[seat]
    for gid, n in sorted(h.charges.items()):
        if n > 0 and "Torch" in ctx.c.gear.get(gid, {}).get("name", ""):
            ctx.emit("ChargesSet", seat=seat, gear=gid, n=n - 1)
            return
    doll = next(t for t in h.inventory if face(ctx.c, t) == "straw_doll")
    spend_tokens(ctx, seat, [doll], "burnt as a torch")


def do_offer_blood(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit("BloodOffered", seat=seat, n=1)


def do_take_belongings(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """−2 MP for all a fallen hero's possessions (DO L201)."""
    ctx.emit("BelongingsTaken", seat=seat, space=ctx.s.heroes[seat].at)


def do_throw(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Direct-damage loot, thrown for 0 AP; it ignores armour (DO L254, L384)."""
    f = face(ctx.c, args["token"])
    n = DIRECT_DAMAGE[f] if f != "stone" else ctx.rng.randint(1, 3)
    spend_tokens(ctx, seat, [args["token"]], "thrown")
    target = ctx.s.creature(args["creature"])
    assert target is not None
    reveal(ctx, target)
    hurt_creature(ctx, target, n, seat)


# -- gambling (DO L342-358) --------------------------------------------------------------------------


def pay_to_gamble(ctx: DoCtx, seat: int) -> None:
    """1 AP + 1 MP, and 1 gold to the ante (DO L342-344, L351)."""
    h = ctx.s.heroes[seat]
    spend_ap(ctx, seat, 1, "gambling")
    change(ctx, seat, "gambling", mp=-1, gold=-1)
    if isinstance(h.at, int):
        ctx.emit("Used", seat=seat, key=f"day:gamble:{h.at}")


def gamblers_here(ctx: DoCtx, seat: int) -> list[int]:
    """Players at the same gambling place who could join (DO L342: two or more players at
    the same place may all gamble against each other and the house)."""
    s = ctx.s
    h = s.heroes[seat]
    return [
        o.seat
        for o in s.heroes
        if o.seat != seat
        and o.alive
        and o.at == h.at
        and not o.done
        and o.pending is None
        and ap_left(o) >= 1
        and o.mp >= 1
        and o.gold >= 1
    ]


def do_gamble(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Open a game at this table: the others here are asked to join; alone, it starts."""
    pay_to_gamble(ctx, seat)
    invited = gamblers_here(ctx, seat)
    ctx.emit("GambleOpened", seat=seat, game=args["game"], invited=invited)
    if not invited:
        start_gamble(ctx, seat)


def do_join_gamble(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    pay_to_gamble(ctx, seat)
    ctx.emit("GambleAnswered", seat=seat, host=args["host"], join=True)


def do_decline_gamble(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit("GambleAnswered", seat=seat, host=args["host"], join=False)


def do_start_gamble(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    start_gamble(ctx, seat)


def start_gamble(ctx: DoCtx, host: int) -> None:
    """Everyone antes 1 gold, the house 2; turns go in seat order from the host; in Hard
    Life the house first rolls two dice and sets them aside (DO L344, L351-352)."""
    table = ctx.s.gambles[str(host)]
    players = sorted(table["players"], key=lambda p: (p - host) % len(ctx.s.heroes))
    house = [d6(ctx), d6(ctx)] if table["game"] == "hard_life" else []
    ctx.emit("GambleStarted", host=host, players=players, ante=len(players) + 2, house=house)
    next_gambler(ctx, host)


def next_gambler(ctx: DoCtx, host: int) -> None:
    """The next player's turn, or the house's when all have played."""
    table = ctx.s.gambles[str(host)]
    left = [p for p in table["players"] if str(p) not in table["scores"]]
    if not left:
        finish_gamble(ctx, host)
        return
    seat = left[0]
    if table["game"] == "draugr":
        ctx.emit(
            "PendingRoll", seat=seat, kind="draugr", dice=[d6(ctx) for _ in range(5)], rolls_left=2, host=host
        )
        if gambling.shoots_the_moon(ctx.s.heroes[seat].pending["dice"]):  # type: ignore[index]
            end_turn(ctx, seat)
    else:
        dice = [d6(ctx) for _ in range(3)]
        ctx.emit("PendingRoll", seat=seat, kind="hard_life", dice=dice, host=host)
        if sum(dice) == 18:  # DO L358: half the ante, rounded down, from the supply
            change(ctx, seat, "an 18 on three dice (DO L358)", gold=table["ante"] // 2)


def end_turn(ctx: DoCtx, seat: int) -> None:
    p = ctx.s.heroes[seat].pending
    assert p is not None
    host = p["host"]
    ctx.emit("GambleTurnEnded", seat=seat, host=host, dice=p["dice"])
    ctx.emit("PendingCleared", seat=seat)
    table = ctx.s.gambles[str(host)]
    if table["game"] == "draugr" and gambling.shoots_the_moon(p["dice"]):
        finish_gamble(ctx, host)  # Shooting the Moon: no further play (DO L345)
    else:
        next_gambler(ctx, host)


def finish_gamble(ctx: DoCtx, host: int) -> None:
    """The house plays last; the winners split the ante, rounded up from the supply; a
    house win returns it to the supply (DO L347-348, L355-357)."""
    table = ctx.s.gambles[str(host)]
    scores = {int(k): v for k, v in table["scores"].items()}
    if table["game"] == "draugr":
        moon = [p for p, dice in scores.items() if gambling.shoots_the_moon(dice)]
        house = [] if moon else [d6(ctx) for _ in range(4)]
        winners = moon[:1] if moon else gambling.draugr_winners(scores, house)
        push: list[int] = []
    else:
        totals = {p: sum(dice) for p, dice in scores.items()}
        standing = [t for t in totals.values() if t <= 18]
        house = gambling.hard_life_house(table["house"], max(standing) if standing else None, lambda: d6(ctx))
        result = gambling.hard_life_result(totals, sum(house))
        winners = result or None
        push = [p for p, t in totals.items() if t == sum(house)] if result == [] else []
    ctx.emit(
        "GambleEnded",
        host=host,
        game=table["game"],
        scores=table["scores"],
        house=house,
        winners=winners or [],
        push=push,
    )
    for seat in table["players"]:
        if ctx.s.heroes[seat].pending is not None:
            ctx.emit("PendingCleared", seat=seat)
    if winners:
        share = -(-table["ante"] // len(winners))
        for seat in winners:
            change(ctx, seat, f"the ante ({table['game'].replace('_', ' ')})", gold=share)
    for seat in push:  # a push: the tied players take their gold back (facts §13)
        change(ctx, seat, "a push: the stake back", gold=1)


def do_reroll(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    h = ctx.s.heroes[seat]
    p = h.pending
    assert p is not None
    dice = [d6(ctx) if d in args["faces"] else d for d in p["dice"]]
    new = {k: v for k, v in p.items() if k != "kind"} | {"dice": dice, "rolls_left": p["rolls_left"] - 1}
    ctx.emit("PendingRoll", seat=seat, kind=p["kind"], **new)
    if p["kind"] == "draugr" and (new["rolls_left"] == 0 or gambling.shoots_the_moon(dice)):
        end_turn(ctx, seat)
    elif p["kind"] == "barrow" and new["rolls_left"] == 0 and torch_charges(ctx.s, ctx.c, h) == 0:
        finish_barrow(ctx, seat)


def do_stand(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    p = ctx.s.heroes[seat].pending
    assert p is not None
    if p["kind"] in ("draugr", "hard_life"):
        end_turn(ctx, seat)
    else:
        finish_barrow(ctx, seat)


def do_draw_die(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Hard Life: one more die; 19 or more loses at once (DO L353)."""
    p = ctx.s.heroes[seat].pending
    assert p is not None
    dice = [*p["dice"], d6(ctx)]
    ctx.emit("PendingRoll", seat=seat, kind="hard_life", dice=dice, host=p["host"])
    if sum(dice) > 18:
        end_turn(ctx, seat)


# -- barrows (DO L315-325) --------------------------------------------------------------------------


def do_search_barrow(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    h = ctx.s.heroes[seat]
    k = args["ap"]
    spend_ap(ctx, seat, k, "looking for a barrow")
    roll = d6(ctx)
    if roll <= k:
        ctx.emit("BarrowFound", seat=seat, space=h.at, roll=roll)
    else:
        ctx.emit("Used", seat=seat, key="round:barrow_search")
        ctx.emit("BarrowMissed", seat=seat, roll=roll)


def do_explore_barrow(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_ap(ctx, seat, 1, "exploring a barrow")
    spend_torch(ctx, seat)
    ctx.emit("PendingRoll", seat=seat, kind="barrow", dice=[d6(ctx) for _ in range(3)], rolls_left=2)


def do_torch_rolls(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    p = ctx.s.heroes[seat].pending
    assert p is not None
    spend_torch(ctx, seat)
    ctx.emit("PendingRoll", seat=seat, kind="barrow", dice=p["dice"], rolls_left=p["rolls_left"] + 3)


def do_torch_die(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    p = ctx.s.heroes[seat].pending
    assert p is not None
    spend_torch(ctx, seat)
    ctx.emit("PendingRoll", seat=seat, kind="barrow", dice=[*p["dice"], d6(ctx)], rolls_left=p["rolls_left"])


def barrow_pattern(dice: list[int]) -> str:
    """The best pattern (facts §12): four of a kind, three of a kind, straight, pair."""
    counts = Counter(dice)
    top = max(counts.values())
    if top >= 4:
        return "four"
    if top == 3:
        return "three"
    ordered = sorted(set(dice))
    if any(ordered[i : i + 3] == list(range(ordered[i], ordered[i] + 3)) for i in range(len(ordered) - 2)):
        return "straight"
    if top == 2:
        return "pair"
    return "nothing"


def finish_barrow(ctx: DoCtx, seat: int) -> None:
    s, c = ctx.s, ctx.c
    h = s.heroes[seat]
    p = h.pending
    assert p is not None
    pattern = barrow_pattern(p["dice"])
    ctx.emit("BarrowExplored", seat=seat, dice=p["dice"], pattern=pattern)
    ctx.emit("PendingCleared", seat=seat)
    lvl = stats_level(ctx)
    if pattern == "pair":
        change(ctx, seat, "a pair in the barrow", gold=1)
    elif pattern == "straight":
        change(ctx, seat, "a straight in the barrow", gold=3)
    elif pattern == "four":
        change(ctx, seat, "four of a kind in the barrow", gold=3)
        give_artifact(ctx, seat)
        ctx.emit("BarrowGone", space=h.at)
    elif pattern == "three":
        guard = "screeching_specter" if d6(ctx) <= 3 else "draugr_champion"
        cid = place_guard(ctx, h.at, f"{guard}_{lvl}", barrow=True)
        ctx.emit("SurpriseAttack", seat=seat, creature=cid)
    elif torch_charges(s, c, h) == 0:
        change(ctx, seat, "pitch black (DO L325)", mp=-5)
        guard = "screeching_specter" if lvl <= 2 else "draugr_champion"
        cid = place_guard(ctx, h.at, f"{guard}_{lvl}", barrow=False, no_flee=True)
        ctx.emit("SurpriseAttack", seat=seat, creature=cid)


def give_artifact(ctx: DoCtx, seat: int) -> None:
    owned = {g for h in ctx.s.heroes for g in h.gear}
    pool = [a for a in ctx.c.artifacts(stats_level(ctx)) if a not in owned]
    if pool:
        gain_gear(ctx, seat, ctx.rng.choice(pool), "an artifact from a barrow")


# -- Underworld places (DO L506-532) ----------------------------------------------------------------


def do_burn_path(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """A torch charge burns a path: move freely through the Great Mycelia all round (DO L498)."""
    spend_torch(ctx, seat)
    ctx.emit("EffectSet", seat=seat, effect="burnt_path", n=1)


def do_warm(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """The permanent camp: +2 MP while on it, once a round (DO L527)."""
    ctx.emit("Used", seat=seat, key="round:camp")
    change(ctx, seat, "the permanent camp", mp=2)


def do_make_camp(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_ap(ctx, seat, 1, "making camp")
    spend_torch(ctx, seat)
    ctx.emit("CampMade", seat=seat, space=ctx.s.heroes[seat].at)


def do_smithy(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """A torch charge lights the forge, another pays the full repair (DO L523)."""
    spend_ap(ctx, seat, 1, "the Dwarven Smithy")
    spend_torch(ctx, seat)
    spend_torch(ctx, seat)
    ctx.emit("ChargesSet", seat=seat, gear=args["gear"], n=int(ctx.c.gear[args["gear"]]["charges"]))


def do_hoard(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """5 MP and a d6: 1 nothing; 2–4 a random L2 gear (broken if it needs charges); 5 a
    random L4 gear; 6 a random L4 creature (DO L529-532)."""
    h = ctx.s.heroes[seat]
    spend_ap(ctx, seat, 1, "the Gear Hoard")
    change(ctx, seat, "searching the cabins", mp=-5)
    roll = d6(ctx)
    ctx.emit("HoardSearched", seat=seat, roll=roll)
    owned = {g for o in ctx.s.heroes for g in o.gear}
    if 2 <= roll <= 5:
        lvl = 2 if roll <= 4 else 4
        pool = [g for g in ctx.c.shop(4) if ctx.c.gear[g]["level"] == lvl and g not in owned]
        if pool:
            gid = ctx.rng.choice(pool)
            if roll <= 4 and ctx.c.gear[gid].get("charges"):
                ctx.emit("HoardSearched", seat=seat, roll=roll, broken=gid)
            else:
                gain_gear(ctx, seat, gid, "the Gear Hoard")
    elif roll == 6:
        cid = place_creature(ctx, h.at, 4, kind="creature", hoard=True)  # type: ignore[arg-type]
        ctx.emit("SurpriseAttack", seat=seat, creature=cid)


def do_gloomy(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_ap(ctx, seat, 1, "Gloomy Waters")
    ctx.emit("Used", seat=seat, key="round:gloomy")
    spend_tokens(ctx, seat, [args["token"]], "into the Gloomy Waters")
    change(ctx, seat, "Gloomy Waters", mp=3)


def do_blood_bag(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_ap(ctx, seat, 1, "Blood Bag")
    change(ctx, seat, "the Blood Bag", max_hp=-1)
    change(ctx, seat, "the Blood Bag", hp=4)


def do_apothecary(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_ap(ctx, seat, 1, "Ship Apothecary")
    change(ctx, seat, "the Ship Apothecary", hp=2, mp=1)


def do_well(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_ap(ctx, seat, 1, "Well of Fortune")
    change(ctx, seat, "a coin in the well", gold=-(2 if args["beg"] else 1))
    roll = d6(ctx)
    ctx.emit("WellAnswered", seat=seat, roll=roll)
    if roll == 6:
        lvl = 4 if args["beg"] else (1 + (d6(ctx) - 1) // 2)
        owned = {g for h in ctx.s.heroes for g in h.gear}
        pool = [g for g in ctx.c.shop(4) if ctx.c.gear[g]["level"] == lvl and g not in owned]
        if pool:
            gain_gear(ctx, seat, ctx.rng.choice(pool), "the Well of Fortune")


def do_ritual(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    spend_ap(ctx, seat, 1, "a ritual in the Sacred Grove")
    ctx.emit("EffectSet", seat=seat, effect="black", n=0)


def do_maze(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    h = ctx.s.heroes[seat]
    cost = dict(maze_exits(ctx.s, ctx.c, h.at))[args["to"]]
    spend_ap(ctx, seat, 1, "the Eternal Maze")
    ctx.emit("HeroMoved", seat=seat, to=args["to"], ap=0, mp=cost, used={}, **{"from": h.at})


def vortex_contact(ctx: DoCtx, seat: int) -> None:
    """A hero on a vortex loses the round's AP and 1 HP and takes a black token, and is
    carried to the other vortex (DO L537-542)."""
    s = ctx.s
    h = s.heroes[seat]
    if s.chapter != 4 or h.at not in s.vortices:
        return
    other = s.vortices[1 - s.vortices.index(h.at)]
    ctx.emit("HeroMoved", seat=seat, to=other, ap=0, mp=0, used={}, **{"from": h.at})
    vortex_hit(ctx, seat)


def vortex_hit(ctx: DoCtx, seat: int) -> None:
    h = ctx.s.heroes[seat]
    if ap_left(h):
        spend_ap(ctx, seat, ap_left(h), "a darkness vortex")
    ctx.emit("EffectSet", seat=seat, effect="black", n=h.effects.get("black", 0) + 1)
    change(ctx, seat, "a darkness vortex", hp=-1)


# -- creatures and battles (DO L359-473) -----------------------------------------------------------


def place_creature(
    ctx: DoCtx, space: int, lvl: int, *, kind: str, omen: bool = False, hoard: bool = False
) -> str:
    """A creature of ``lvl`` on ``space``; one from the Gear Hoard shuts it until it falls
    (DO L532)."""
    cid = f"c{ctx.s.next_creature}"
    extra = {"hoard": True} if hoard else {}
    ctx.emit(
        "CreaturePlaced", id=cid, space=space, level=lvl, kind=kind, omen=omen, dice=lvl, hp=None, **extra
    )
    return cid


def place_guard(ctx: DoCtx, space: Any, guard: str, *, barrow: bool, no_flee: bool = False) -> str:
    card = ctx.c.guards[guard]
    cid = f"c{ctx.s.next_creature}"
    ctx.emit(
        "CreaturePlaced",
        id=cid,
        space=space,
        level=card["level"],
        kind="guard",
        omen=False,
        dice=card["level"],
        card=guard,
        name=card["name"],
        hp=card["hp"],
        armor=card["armor"],
        dr=card["dr"],
        barrow=barrow,
        no_flee=no_flee,
    )
    return cid


def reveal(ctx: DoCtx, target: dict[str, Any]) -> None:
    """The first attack draws a random creature card of its level (DO L367-369, L476)."""
    if target.get("card") is not None:
        return
    if target.get("token") and not target.get("flipped"):  # flip the token first (DO L476)
        ctx.emit("CreatureTokenFlipped", creature=target["id"], token=target["token"], level=target["level"])
    cid = ctx.rng.choice(ctx.c.creatures_of(target["level"]))
    card = ctx.c.creatures[cid]
    ctx.emit(
        "CreatureRevealed",
        creature=target["id"],
        card=cid,
        name=card["name"],
        hp=card["hp"],
        armor=card["armor"],
        dr=card["dr"],
    )


def do_attack(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 AP, then the attack roll: 1 die in chapter 1, 2 after, +1 heroic (5 MP, declared
    before rolling, DO L402-408); the enemy rolls its level's dice."""
    s, c = ctx.s, ctx.c
    h = s.heroes[seat]
    target = s.creature(args["creature"])
    assert target is not None
    heroic = bool(args.get("heroic"))
    spend_ap(ctx, seat, 1, "attack", engaged=True)
    if heroic:
        change(ctx, seat, "a heroic attack", mp=-stats.heroic_cost(s, c, seat))
    reveal(ctx, target)
    n = stats.hero_dice(s) + (1 if heroic else 0)
    ranged = [seat] if target["space"] != h.at else []
    ctx.emit(
        "AttackRolled",
        creature=target["id"],
        members=[seat],
        dice={str(seat): hero_roll(ctx, seat, n)},
        enemy=enemy_roll(ctx, target),
        ranged=ranged,
        heroic=[seat] if heroic else [],
    )


def hero_roll(ctx: DoCtx, seat: int, n: int) -> list[int]:
    """A hero's attack dice, each with the gear and rune modifiers on attack rolls (DO L404),
    never below 1."""
    bonus = stats.attack_bonus(ctx.s, ctx.c, seat)
    return [max(1, d6(ctx) + bonus) for _ in range(n)]


def enemy_dice(ctx: DoCtx, target: dict[str, Any]) -> int:
    """Its level's dice (DO L402) or its card's, plus any its effects add (DO L395)."""
    return int(target["dice"]) + stats.creature_effect(ctx.s, ctx.c, target, "dice")


def enemy_roll(ctx: DoCtx, target: dict[str, Any]) -> list[int]:
    """The enemy's attack dice, each with its card's modifier (a boss's "+1", DO L493)."""
    bonus = stats.creature_effect(ctx.s, ctx.c, target, "attack")
    return [max(1, d6(ctx) + bonus) for _ in range(enemy_dice(ctx, target))]


def do_raise_shield(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """A shield's token, spent, takes 0 damage from one attack (DO L339): raised in the
    boost window, it turns the next enemy blow on this hero in this battle."""
    ctx.emit("ShieldRaised", seat=seat, gear=ctx.s.heroes[seat].equipped["shield"])


def do_boost(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    p = ctx.s.heroes[seat].pending
    assert p is not None
    die = p["dice"][str(seat)][args["index"]]
    ctx.emit("DieBoosted", seat=seat, index=args["index"], to=die + 1, mp=2)


def do_courage(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Courage: set one attack die to 7 (DO L268), brewed from a blue and a yellow herb."""
    h = ctx.s.heroes[seat]
    tokens = [
        next(t for t in h.inventory if face(ctx.c, t) == "herb_blue"),
        next(t for t in h.inventory if face(ctx.c, t) == "herb_yellow"),
    ]
    spend_tokens(ctx, seat, tokens, "brewing courage")
    ctx.emit("DieBoosted", seat=seat, index=args["index"], to=7, mp=0)


def do_tie_first(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit("TieVoted", seat=seat, first=args["first"])


def do_finalize(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    h = ctx.s.heroes[seat]
    p = h.pending
    assert p is not None
    ctx.emit("BattleReady", seat=seat)
    p = h.pending
    assert p is not None
    living = [m for m in p["members"] if ctx.s.heroes[m].alive]
    if all(m in p["ready"] for m in living):
        resolve_battle(ctx, p)


def agreed_order(order: list[tuple[int, int]], votes: dict[str, int]) -> list[tuple[int, int]]:
    """Within a run of equal dice, a hero every tied player named goes first (DO L428)."""
    out = list(order)
    i = 0
    while i < len(out):
        j = i
        while j + 1 < len(out) and out[j + 1][1] == out[i][1]:
            j += 1
        group = out[i : j + 1]
        seats = {seat for seat, _ in group}
        named = {votes.get(str(seat)) for seat in seats}
        if len(seats) > 1 and len(named) == 1 and next(iter(named)) in seats:
            first = next(iter(named))
            out[i : j + 1] = sorted(group, key=lambda item: item[0] != first)
        i = j + 1
    return out


def unblocked_picker(ctx: DoCtx, p: dict[str, Any]) -> Any:
    """The table option for whom an unblocked enemy die hits (DO L430, L467)."""
    rule = ctx.s.options.get("unblocked_target", "lowest")
    heroes = ctx.s.heroes

    def dice_of(seat: int) -> list[int]:
        return sorted(p["dice"][str(seat)], reverse=True)

    def pick(seats: list[int]) -> int:
        match rule:
            case "strongest":
                return min(seats, key=lambda x: (-dice_of(x)[0], x))
            case "weakest":
                return min(seats, key=lambda x: (dice_of(x)[0], x))
            case "most_hp":
                return min(seats, key=lambda x: (-heroes[x].hp, x))
            case "least_hp":
                return min(seats, key=lambda x: (heroes[x].hp, x))
        return min(seats, key=lambda x: (dice_of(x)[0], x))

    return None if rule == "lowest" else pick


def resolve_battle(ctx: DoCtx, p: dict[str, Any]) -> None:
    """Pair the dice and resolve every damage roll in order (combat.strikes); the enemy
    DR is its card's roll minus each hero's armour, at least 1 (DO L412-414); a hero's DR
    is the weapon roll plus bonuses minus the enemy's armour (DO L416-419)."""
    s, c = ctx.s, ctx.c
    members = [m for m in p["members"] if s.heroes[m].alive]
    target = s.creature(p["creature"])
    team = len(p["members"]) > 1
    outcomes: list[dict[str, Any]] = []
    slain_by: int | None = None
    shields = list(p.get("shields", []))
    if target is not None and members:
        contributions: dict[int, list[int]] = {}
        unused: dict[int, list[int]] = {}
        for m in members:
            contributions[m], unused[m] = combat.contributed(p["dice"][str(m)], m in p["heroic"], team)
        order = agreed_order(combat.ordered(contributions, unused), p.get("tie_votes", {}))
        if not team:
            order = [(members[0], d) for d in contributions[members[0]]]
        hits = combat.strikes(p["enemy"], order, solo=not team, unblocked_target=unblocked_picker(ctx, p))
        for hit in hits:
            if target["hp"] <= 0 or not any(s.heroes[m].alive for m in members):
                break
            if hit.by == "enemy":
                victims = [v for v in hit.seats if s.heroes[v].alive and v not in p["ranged"]]
                if not victims:
                    continue
                roll = roll_spec(ctx, target["dr"]) + omens.fury(s, c)
                roll += stats.creature_effect(s, c, target, "damage")
                direct = stats.creature_effect(s, c, target, "direct")
                wound = stats.creature_effect(s, c, target, "wound")
                for v in victims:
                    if ward(ctx, v):
                        outcomes.append({"by": "enemy", "seat": v, "roll": roll, "damage": 0, "warded": True})
                        continue
                    if v in shields:
                        shields.remove(v)
                        if shield_blocks(ctx, v):
                            outcomes.append(
                                {"by": "enemy", "seat": v, "roll": roll, "damage": 0, "shielded": True}
                            )
                            continue
                    damage = max(1, roll - stats.armor(s, c, v)) + direct
                    outcomes.append({"by": "enemy", "seat": v, "roll": roll, "damage": damage})
                    change(ctx, v, f"the {name_of(target)}'s blow", hp=-damage, max_hp=-wound)
            else:
                striker = hit.seats[0]
                if not s.heroes[striker].alive:
                    continue
                if s.heroes[striker].effects.get("black", 0) >= 3:
                    if s.heroes[striker].mp < 1:
                        continue
                    change(ctx, striker, "three black tokens (DO L541)", mp=-1)
                roll = roll_spec(ctx, stats.weapon_roll(s, c, striker))
                armor = int(target["armor"]) + stats.creature_effect(s, c, target, "armor")
                damage = max(0, roll + stats.damage_bonus(s, c, striker) - armor)
                damage += stats.direct_damage(s, c, striker)
                outcomes.append({"by": "hero", "seat": striker, "roll": roll, "damage": damage})
                hurt_creature(ctx, target, damage, striker, announce=False)
                if target["hp"] <= 0:
                    slain_by = striker
    ctx.emit("BattleEnded", creature=p["creature"], members=p["members"], strikes=outcomes)
    if target is not None and target["hp"] <= 0:
        creature_slain(ctx, target, slain_by if slain_by is not None else members[0])
    elif target is not None and p["ranged"]:
        rush(ctx, target, p)
    if target is not None and target["kind"] == "boss" and target in s.creatures:
        boss_phases(ctx, "after_attack")


def boss_phases(ctx: DoCtx, trigger: str) -> None:
    """Each boss's phases with this trigger, in its card's order (DO L481-491): the ability
    (a roar hurting heroes in reach, no armour; a hex rolled per hero, dodged as the card
    says), then the movement (a step toward the nearest hero)."""
    s, c = ctx.s, ctx.c
    for boss in [x for x in s.creatures if x["kind"] == "boss"]:
        card = c.bosses[boss["card"]]
        for phase in card["phases"]:
            if phase.get("trigger", "round_start") != trigger or boss not in s.creatures:
                continue
            targets = [h for h in s.heroes if h.alive and isinstance(h.at, int)]
            if not targets or not isinstance(boss["space"], int):
                continue
            in_reach = [h for h in targets if distance(h.at, boss["space"]) <= phase.get("reach", 0)]  # type: ignore[arg-type]
            if phase["op"] == "boss_roar":
                for h in in_reach:
                    change(ctx, h.seat, f"{boss['name']}'s roar", hp=-phase["n"])
            elif phase["op"] == "boss_hex":
                for h in in_reach:
                    roll = d6(ctx)
                    if roll < phase["hit_on"]:
                        continue
                    if phase.get("dodge") == "ward" and ward(ctx, h.seat):
                        continue  # a ward rune counters the hex, as the card states (DO L482)
                    change(ctx, h.seat, f"{boss['name']}'s hex (rolled {roll})", hp=-phase["n"])
            elif phase["op"] == "boss_move":
                nearest = min(targets, key=lambda h: (distance(h.at, boss["space"]), h.seat))  # type: ignore[arg-type]
                if nearest.at != boss["space"]:
                    step = min(neighbours(boss["space"]), key=lambda sp: (distance(sp, nearest.at), sp))  # type: ignore[arg-type]
                    ctx.emit("CreatureMoved", creature=boss["id"], to=step, why="the boss moves")


def shield_blocks(ctx: DoCtx, seat: int) -> bool:
    """Spend one of the raised shield's tokens, if it still has one (DO L339)."""
    h = ctx.s.heroes[seat]
    gid = h.equipped.get("shield")
    if gid is None or h.charges.get(gid, 0) <= 0:
        return False
    ctx.emit("ChargesSet", seat=seat, gear=gid, n=h.charges[gid] - 1, why="a shield token turned a blow")
    return True


def ward(ctx: DoCtx, seat: int) -> bool:
    """A reactionary ward rune cancels the next blow, then is discarded (DO L155)."""
    h = ctx.s.heroes[seat]
    for rid in h.runes:
        if ctx.c.runes[rid]["effect"]["op"] == "ward":
            ctx.emit("RuneDiscarded", seat=seat, rune=rid, why="a ward turned a blow")
            return True
    return False


def rush(ctx: DoCtx, target: dict[str, Any], p: dict[str, Any]) -> None:
    """A ranged attack enrages the enemy: it rushes to the ranged attacker with the least
    HP + MP, unless a melee attacker was on its space (DO L363-365, facts §15)."""
    s = ctx.s
    if any(m not in p["ranged"] for m in p["members"]):
        return
    living = [m for m in p["ranged"] if s.heroes[m].alive]
    if not living:
        return
    seat = min(living, key=lambda m: (s.heroes[m].hp + s.heroes[m].mp, m))
    ctx.emit("CreatureMoved", creature=target["id"], to=s.heroes[seat].at, why="rushes the ranged attacker")


def hurt_creature(ctx: DoCtx, target: dict[str, Any], damage: int, seat: int, announce: bool = True) -> None:
    hp = int(target["hp"]) - damage
    armor = None
    stage = target.get("stage")
    if stage and not target.get("staged") and hp < stage["below_hp"]:
        armor = int(target["armor"]) + stage["armor"]
    ctx.emit("CreatureHurt", creature=target["id"], hp=hp, by=seat, damage=damage, armor=armor)
    if announce and hp <= 0:
        creature_slain(ctx, target, seat)


def creature_slain(ctx: DoCtx, target: dict[str, Any], seat: int) -> None:
    """The finisher takes a blood of the beast; everyone involved +2 MP (+1 in the State of
    Resistance, DO L41, L421-422). A creature guarding a location frees it (DO L302). A
    boss's finisher takes its holographic trophy (facts §22)."""
    s, c = ctx.s, ctx.c
    involved = [m for m in target["involved"] if s.heroes[m].alive] or [seat]
    ctx.emit("CreatureSlain", creature=target["id"], by=seat, space=target["space"], kind=target["kind"])
    if s.heroes[seat].alive:
        change(ctx, seat, "blood of the beast", blood=1)
    for m in involved:
        change(ctx, m, "a kill", mp=stats.kill_mp(s, c, m))
    loc = s.locations.get(target["space"]) if isinstance(target["space"], int) else None
    if loc is not None and not loc["open"]:
        ctx.emit("LocationUnlocked", space=target["space"], why="freed from a creature")
    if target.get("barrow") and s.heroes[seat].alive:
        give_artifact(ctx, seat)
        ctx.emit("BarrowGone", space=target["space"])
    if target["kind"] == "boss" and s.heroes[seat].alive:
        trophy = c.bosses[target["card"]].get("reward")
        if trophy and not any(trophy in h.gear for h in s.heroes):
            gain_gear(ctx, seat, trophy, f"the trophy of {target['name']}")


def give_holographic(ctx: DoCtx, gid: str, why: str) -> None:
    """A unique holographic card (facts §22: boss and story rewards) goes to the living hero
    with the least gear (the lowest seat on a tie), unless someone holds it already."""
    s = ctx.s
    living = [h for h in s.heroes if h.alive]
    if not living or any(gid in h.gear for h in s.heroes):
        return
    taker = min(living, key=lambda h: (len(h.gear), h.seat))
    gain_gear(ctx, taker.seat, gid, why)


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


def do_new_character(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    side = stats.side_of(ctx.s, ctx.c)
    ctx.emit("HeroJoined", seat=seat, character=args["character"], at=side.towns[args["town"]])
    cast_runes(ctx, seat, individual_only=True)


def cast_runes(ctx: DoCtx, seat: int, *, individual_only: bool = False) -> None:
    """Draw 4 runes from the bag, each landing on one house (a d4), and apply immediate
    cards at once (DO L145-155)."""
    taken = {ctx.c.runes[r]["rune"] for h in ctx.s.heroes for r in h.runes if h.seat != seat}
    symbols = sorted({r["rune"] for r in ctx.c.runes.values()} - taken)
    drawn = ctx.rng.sample(symbols, min(4, len(symbols)))
    houses = ("Sun", "Moon", "Fortune", "Hope")
    cards = [f"{houses[ctx.rng.randint(0, 3)].lower()}_{sym.lower()}" for sym in drawn]
    keep = (
        [r for r in ctx.s.heroes[seat].runes if ctx.c.runes[r]["target"] == "group"]
        if individual_only
        else []
    )
    ctx.emit("RunesCast", seat=seat, runes=keep + cards)
    apply_runes(ctx, seat, cards)


def apply_runes(ctx: DoCtx, seat: int, cards: list[str]) -> None:
    s, c = ctx.s, ctx.c
    for rid in cards:
        card = c.runes[rid]
        effect = card["effect"]
        if card["longevity"] != "immediate":
            continue
        targets = [seat] if card["target"] == "individual" else [h.seat for h in s.heroes if h.alive]
        for t in targets:
            if card.get("ignored_by") == c.characters[s.heroes[t].character]["attribute"]:
                continue
            n = int(effect["n"])
            match effect["op"]:
                case "gain_hp":
                    change(ctx, t, card["name"], hp=n)
                case "lose_hp":
                    change(ctx, t, card["name"], hp=-n)
                case "gain_mp":
                    change(ctx, t, card["name"], mp=n)
                case "lose_mp":
                    change(ctx, t, card["name"], mp=-n)
                case "gain_gold":
                    change(ctx, t, card["name"], gold=n)
                case "lose_gold":
                    change(ctx, t, card["name"], gold=-n)
        if s.heroes[seat].alive and rid in s.heroes[seat].runes:
            ctx.emit(
                "RuneDiscarded", seat=seat, rune=rid, why="an immediate rune acts and returns to the deck"
            )


def second_wind(ctx: DoCtx) -> None:
    """Reactionary second-wind runes: at 5 HP or less, +5 HP, then discarded."""
    for h in ctx.s.heroes:
        if h.alive and 0 < h.hp <= 5:
            for rid in h.runes:
                if ctx.c.runes[rid]["effect"]["op"] == "second_wind":
                    ctx.emit("RuneDiscarded", seat=h.seat, rune=rid, why="second wind")
                    change(ctx, h.seat, "second wind", hp=int(ctx.c.runes[rid]["effect"]["n"]))
                    break


# -- team attacks (DO L424-436, facts §21) ----------------------------------------------------------


def do_propose_team(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    from app.games.dark_omen.actions import team_allies

    ctx.emit(
        "TeamProposed",
        seat=seat,
        creature=args["creature"],
        invited=team_allies(ctx.s, seat, args["creature"]),
    )


def do_join_team(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit("TeamAnswered", seat=seat, leader=args["leader"], join=True, heroic=bool(args.get("heroic")))


def do_decline_team(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit("TeamAnswered", seat=seat, leader=args["leader"], join=False)
    p = ctx.s.heroes[args["leader"]].pending
    if p is not None and not p["invited"] and not p["joined"]:
        ctx.emit("TeamWithdrawn", seat=args["leader"], why="nobody joined")


def do_withdraw_team(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit("TeamWithdrawn", seat=seat, why="withdrawn")


def do_launch_team(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Launching spends an AP from each member; one roll for all (facts §21); a heroic that
    would give the heroes more dice than the enemy is refused (DO L463)."""
    s, c = ctx.s, ctx.c
    p = s.heroes[seat].pending
    assert p is not None
    target = s.creature(p["creature"])
    members = [seat] + [
        m
        for m in p["joined"]
        if s.heroes[m].alive and ap_left(s.heroes[m]) >= 1 and _reach(s, m, p["creature"])
    ]
    ctx.emit("TeamWithdrawn", seat=seat, why="launched")
    if target is None or len(members) < 2:
        return
    reveal(ctx, target)
    heroic: list[int] = []
    for m in p["heroic"]:
        if m in members and len(members) + len(heroic) + 1 <= enemy_dice(ctx, target):
            heroic.append(m)
    for m in members:
        spend_ap(ctx, m, 1, "team attack", engaged=True)
    for m in heroic:
        change(ctx, m, "a heroic attack", mp=-stats.heroic_cost(s, c, m))
    dice = {str(m): hero_roll(ctx, m, stats.hero_dice(s) + (1 if m in heroic else 0)) for m in members}
    ranged = [m for m in members if s.heroes[m].at != target["space"]]
    ctx.emit(
        "AttackRolled",
        creature=target["id"],
        members=members,
        dice=dice,
        enemy=enemy_roll(ctx, target),
        ranged=ranged,
        heroic=heroic,
    )


def _reach(s: Any, seat: int, cid: str) -> bool:
    from app.games.dark_omen.actions import can_reach

    return can_reach(s, seat, cid)


HANDLERS = {
    "end_round": do_end_round,
    "move": do_move,
    "loot": do_loot,
    "take": do_take,
    "drop": do_drop,
    "drink": do_drink,
    "give": do_give,
    "give_gold": do_give_gold,
    "eat": do_eat,
    "craft": do_craft,
    "equip": do_equip,
    "buy": do_buy,
    "redeem": do_redeem,
    "sell": do_sell,
    "sell_token": do_sell_token,
    "haggle": do_haggle,
    "repair": do_repair,
    "rest": do_rest,
    "cleanse": do_cleanse,
    "meditate": do_meditate,
    "unlock": do_unlock,
    "runehenge": do_runehenge,
    "turn": do_turn,
    "courage_stone": do_courage_stone,
    "rejuvenate": do_rejuvenate,
    "river": do_river,
    "campfire": do_campfire,
    "offer_blood": do_offer_blood,
    "take_belongings": do_take_belongings,
    "throw": do_throw,
    "gamble": do_gamble,
    "reroll": do_reroll,
    "stand": do_stand,
    "draw_die": do_draw_die,
    "join_gamble": do_join_gamble,
    "decline_gamble": do_decline_gamble,
    "start_gamble": do_start_gamble,
    "search_barrow": do_search_barrow,
    "explore_barrow": do_explore_barrow,
    "torch_rolls": do_torch_rolls,
    "torch_die": do_torch_die,
    "gloomy": do_gloomy,
    "burn_path": do_burn_path,
    "warm": do_warm,
    "make_camp": do_make_camp,
    "smithy": do_smithy,
    "hoard": do_hoard,
    "blood_bag": do_blood_bag,
    "apothecary": do_apothecary,
    "well": do_well,
    "ritual": do_ritual,
    "maze": do_maze,
    "attack": do_attack,
    "boost": do_boost,
    "courage": do_courage,
    "finalize": do_finalize,
    "tie_first": do_tie_first,
    "new_character": do_new_character,
    "propose_team": do_propose_team,
    "join_team": do_join_team,
    "decline_team": do_decline_team,
    "withdraw_team": do_withdraw_team,
    "launch_team": do_launch_team,
    "tend": do_tend,
    "raise_shield": do_raise_shield,
}
