"""A heuristic bot for any seat, and the strong bot's rollout policy (issue 27). It plays
only from the prompt's choices and the state it is handed (in search: a world redrawn for
its seat), one action at a time:

1. **Questions of its own first**: the boost window (``tactics.boost_pick``), a team attack
   it leads or is asked to join, a gamble's or a barrow's keeps, a new character.
2. **What costs nothing** (DO L222-224, L231-233): belongings, blood for the omen, a
   potion when hurt, the market (sell coins and outgrown gear, redeem a scroll, haggle, buy:
   a ranged weapon first), better gear, brewing, picking up what is worth a slot.
3. **A fight in reach** it can afford: from range whenever it can (a ranged attacker takes
   no enemy blow, DO L363), else in melee when its health bears the enemy's blows.
4. **Where to go**: the tavern when hurt, the market when it can buy, on the boss day (day
   6) a space the boss is in its weapon's reach from, before it (day 5) rest and then the
   boss's space, else the omen's goal, then face-down loot and creatures.
5. Meditation while an omen is active, else the round's end.
"""

from __future__ import annotations

import random

from app.games.dark_omen.board import distance, neighbours
from app.games.dark_omen.content import load
from app.games.dark_omen.rules.battle import can_reach, engaged_by, joined_leader
from app.games.dark_omen.rules.heroes import POTIONS, STORED_POTIONS, ap_left, room_for
from app.games.dark_omen.rules.stats import heroic_cost, hp_cap, side_of
from app.games.dark_omen.state import (
    AP_PER_ROUND,
    DAYS_PER_CHAPTER,
    INVENTORY,
    ROUNDS_PER_DAY,
    Battle,
    Creature,
    Hero,
    State,
    TeamAttack,
)
from app.kernel.types import Choice, Prompt

from . import kit, paths, tactics

Choices = dict[str, list[Choice]]

MP_FOR_BOSS = 16
"""Morale kept out of ordinary battles: the boss's dice are beaten with boosts (2 MP a pip,
DO L406) and heroic dice (5 MP, DO L408)."""

TAKE_WORTHY = frozenset(
    {
        "coin",
        "ring",
        "gear_scroll",
        "bread",
        "herb_purple",
        "herb_blue",
        "red_mushroom",
        "dung",
        *STORED_POTIONS,
    }
)
"""Face-up loot worth a slot (never among what ``kit.room_pick`` drops: no drop-and-take loop)."""


def choose(s: State, prompt: Prompt, rng: random.Random) -> Choice | None:
    if not prompt.choices:
        return None
    by: Choices = {}
    for choice in prompt.choices:
        by.setdefault(choice.type, []).append(choice)
    if not isinstance(prompt.seat, int):
        return prompt.choices[0]
    seat = prompt.seat
    h = s.heroes[seat]
    if "ready" in by:
        return kit.guild_choice(s, seat, by["ready"])
    if "new_character" in by:
        return new_character(s, by["new_character"])
    if "turn" in by:
        return rng.choice(by["turn"])
    p = h.pending
    if isinstance(p, Battle):
        return battle(s, seat, by)
    if isinstance(p, TeamAttack):
        if "launch_team" in by:
            return by["launch_team"][0]
        return None if p.invited else first(by, "withdraw_team")
    if p is not None:
        return question(p.kind, p.dice or [], by, prompt)
    if "leave_team" in by:
        return None  # joined: it waits for the leader's launch (facts §21)
    invited = invitation(s, seat, by)
    if invited is not None:
        return invited
    if h.must_attack:
        return first(by, "attack") or first(by, "end_round") or prompt.choices[0]
    free = free_action(s, seat, by)
    if free is not None:
        return free
    boss = the_boss(s)
    if boss is not None and waits_for_partner(s, seat, boss):
        return None
    return act(s, seat, by, boss) or first(by, "end_round") or prompt.choices[0]


def first(by: Choices, *types: str) -> Choice | None:
    for t in types:
        if by.get(t):
            return by[t][0]
    return None


def question(kind: str, dice: list[int], by: Choices, prompt: Prompt) -> Choice:
    """Gambles and barrows: Draugr Dice wants low dice (reroll the 4s, 5s and 6s), Hard
    Life stops past 13; a barrow stands on what it rolled; a gamble it hosts starts."""
    if kind == "draugr":
        high = [c for c in by.get("pick_die", []) if c.args["pick"] and dice[c.args["index"]] >= 4]
        return (high[0] if high else None) or first(by, "reroll", "stand") or prompt.choices[0]
    if kind == "hard_life":
        return (first(by, "draw_die") if sum(dice) <= 13 else first(by, "stand")) or prompt.choices[0]
    if kind == "gamble_host":
        return first(by, "start_gamble") or prompt.choices[0]
    return first(by, "stand") or prompt.choices[0]


def new_character(s: State, choices: list[Choice]) -> Choice:
    """A fighter (extra damage or armour) at the town nearest the chapter's boss."""
    c = load()
    boss_space = boss_goal(s)
    side = side_of(s, c)

    def key(x: Choice) -> tuple[int, int, str]:
        card = c.characters[x.args["character"]]
        face = card["hero"] if (s.chapter or 1) >= 3 else card["misfit"]
        fighter = 0 if face["op"] in ("bonus_damage", "bonus_armor", "giant_strength") else 1
        return (fighter, distance(side.towns[x.args["town"]], boss_space), x.args["character"])

    return min(choices, key=key)


def boss_goal(s: State) -> int:
    """The chapter's boss omen's space: the card is known (DO L125), only its day is to come."""
    c = load()
    return int(c.omens[c.boss_omen(s.chapter or 1)]["space"])


def the_boss(s: State) -> Creature | None:
    return next((x for x in s.creatures if x.kind == "boss"), None)


# -- the boost window and team attacks ------------------------------------------------------------


def battle(s: State, seat: int, by: Choices) -> Choice:
    h = s.heroes[seat]
    p = h.pending
    assert isinstance(p, Battle)
    x = s.creature(p.creature)
    reserve = 0 if x is not None and x.kind == "boss" else MP_FOR_BOSS
    pick = tactics.boost_pick(s, seat, reserve)
    if pick is not None:
        kind, index = pick
        chosen = next((c for c in by.get(kind, []) if c.args["index"] == index), None)
        if chosen is not None:
            return chosen
    if by.get("raise_shield") and seat not in p.ranged and enemy_wins(p, seat):
        return by["raise_shield"][0]
    return by["finalize"][0]


def enemy_wins(p: Battle, seat: int) -> bool:
    """Does some enemy die beat this hero's (so a blow may come its way)?"""
    mine = sorted(p.dice[str(seat)], reverse=True)
    theirs = sorted(p.enemy, reverse=True)
    return len(theirs) > len(mine) or any(e > d for e, d in zip(theirs, mine, strict=False))


def invitation(s: State, seat: int, by: Choices) -> Choice | None:
    """Join a team attack when the hero can bear it (from range it takes no blow), heroic
    when the morale allows; decline otherwise."""
    joins = by.get("join_team", [])
    declines = by.get("decline_team", [])
    if not joins and not declines:
        return None
    h = s.heroes[seat]
    for join in joins:
        leader = s.heroes[join.args["leader"]]
        p = leader.pending
        x = s.creature(p.creature) if isinstance(p, TeamAttack) else None
        if x is None:
            continue
        ranged = x.space != h.at
        safe = ranged or h.hp > tactics.melee_risk(s, load(), x, seat) + 4
        if not safe:
            continue
        heroic = next(
            (j for j in joins if j.args.get("heroic") and j.args["leader"] == join.args["leader"]), None
        )
        if heroic is not None and h.mp >= heroic_cost(s, load(), seat) + 6:
            return heroic
        return join
    return declines[0] if declines else None


# -- a round's action ------------------------------------------------------------------------------


def act(s: State, seat: int, by: Choices, boss: Creature | None) -> Choice | None:
    """An action costing AP (points 3 to 5 of the module's list), or the round's end."""
    h = s.heroes[seat]
    if ap_left(h) < 1 or not any(t not in ("end_round",) for t in by):
        return first(by, "end_round")
    safe = out_of_the_vortices(s, seat, by)
    if safe is not None:
        return safe
    fight = fight_pick(s, seat, by, boss)
    if fight is not None:
        return fight
    here = chores_here(s, seat, by, boss)
    if here is not None:
        return here
    move = travel(s, seat, by, boss)
    if move is not None:
        return move
    if by.get("meditate") and h.mp < 26:
        return by["meditate"][0]
    return first(by, "end_round")


def free_action(s: State, seat: int, by: Choices) -> Choice | None:
    """The 0-AP actions worth taking now (each spends or gains something, so they end)."""
    c = load()
    h = s.heroes[seat]
    boss = the_boss(s)
    pick = first(by, "take_belongings", "offer_blood")
    if pick is not None:
        return pick
    danger = h.hp <= max(6, hp_cap(s, c, seat) // 3)
    if danger:
        pick = kit.drink_pick(s, seat, by, urgent=True) or health_brew(by)
        if pick is not None:
            return pick
    if by.get("throw") and (boss is not None or h.must_attack):
        return by["throw"][0]
    if by.get("buy") or by.get("sell_token") or by.get("redeem") or by.get("sell") or by.get("haggle"):
        pick = kit.shopping_pick(s, seat, by)
        if pick is not None:
            return pick
    equips = by.get("equip", [])
    if equips:
        engaged = h.engaged or any(x.space == h.at for x in s.creatures)
        best = kit.best_equip(s, seat, equips)
        if best is not None and (not engaged or kit.equip_gain(s, seat, best) > 4):
            return best
    pick = kit.craft_pick(s, seat, by, keep_courage=(s.chapter or 1) >= 3 and boss is None)
    if pick is not None:
        return pick
    pick = kit.drink_pick(s, seat, by, urgent=False)
    if pick is not None and (boss is not None or h.hp < hp_cap(s, c, seat) - 8):
        return pick
    if boss is not None and by.get("eat") and ap_left(h) >= 1:
        return by["eat"][0]
    for take in by.get("take", []):
        f = c.face(take.args["token"])
        if f in TAKE_WORTHY and room_for(h, f) and (f in STORED_POTIONS or len(h.inventory) < INVENTORY - 1):
            return take
    if isinstance(h.at, int) and h.at in s.loot and len(h.inventory) >= INVENTORY and ap_left(h) >= 1:
        return kit.room_pick(s, seat, by)
    return None


def health_brew(by: Choices) -> Choice | None:
    for recipe in ("health", "lethargy", "wellness", "fast_hp"):
        pick = next((x for x in by.get("craft", []) if x.args["recipe"] == recipe), None)
        if pick is not None:
            return pick
    return None


def fight_pick(s: State, seat: int, by: Choices, boss: Creature | None) -> Choice | None:
    """An attack worth making now: from range whenever it can; in melee when the hero's
    health bears the enemy's blows (on the boss day it takes more risk). A ranged hero
    standing on its target steps out first (the next AP shoots)."""
    c = load()
    h = s.heroes[seat]
    attacks = [a for a in by.get("attack", []) if not a.args.get("heroic")]
    heroics = {a.args["creature"]: a for a in by.get("attack", []) if a.args.get("heroic")}
    ranged_hero = kit.has_ranged(s, seat)
    best: tuple[float, Choice] | None = None
    for attack in attacks:
        x = s.creature(attack.args["creature"])
        if x is None:
            continue
        from_range = x.space != h.at
        worth = target_worth(s, x)
        if from_range:
            score = 10 + worth
        else:
            if ranged_hero and ap_left(h) >= 2 and not h.must_attack and step_out(s, seat, by, x) is not None:
                continue  # step out and shoot instead
            risk = tactics.melee_risk(s, c, x, seat)
            last_chance = x.kind == "boss" and s.round == ROUNDS_PER_DAY
            margin = 1.0 if last_chance else 2.0
            if h.hp <= risk * margin + 3:
                continue
            score = worth - risk / 4
        if score <= 0:
            continue
        heroic = heroics.get(x.id)
        pick = attack
        if heroic is not None and h.mp >= heroic_cost(s, c, seat) + (
            12 if x.kind == "boss" else MP_FOR_BOSS + 6
        ):
            pick = heroic
        if best is None or score > best[0]:
            best = (score, pick)
    if best is not None:
        return best[1]
    if boss is not None and boss.space == h.at and ranged_hero:
        return step_out(s, seat, by, boss)
    return None


def waits_for_partner(s: State, seat: int, boss: Creature) -> bool:
    """Two ranged heroes take turns on the boss for 1 AP a shot: it rushes onto whoever
    shot it (DO L363-365), so the one it stands on waits for the other's shot instead of
    walking out; and a hero waits while another's battle holds the boss (facts §21). The
    other hero's bot always answers then, so the table never waits on two bots."""
    h = s.heroes[seat]
    holder = engaged_by(s, boss.id)
    if holder is not None and holder != seat:
        return True
    if boss.space != h.at or not kit.has_ranged(s, seat) or h.must_attack:
        return False
    return any(partner_shoots(s, o.seat, boss) for o in s.heroes if o.seat != seat)


def partner_shoots(s: State, seat: int, boss: Creature) -> bool:
    """Can this hero shoot the boss from range right now (and will its bot)?"""
    h = s.heroes[seat]
    return (
        h.alive
        and not h.done
        and ap_left(h) >= 1
        and h.pending is None
        and h.must_attack is None
        and joined_leader(s, seat) is None
        and boss.space != h.at
        and kit.has_ranged(s, seat)
        and can_reach(s, seat, boss.id)
    )


def target_worth(s: State, x: Creature) -> float:
    """What felling this enemy is worth: the boss most, the omen's creatures next (a hunt,
    blood for a gather), then any (blood and morale, DO L421-422)."""
    if x.kind == "boss":
        return 20.0
    if x.omen:
        return 6.0
    if x.kind == "zombie":
        return 4.0
    return 3.0


def step_out(s: State, seat: int, by: Choices, x: Creature) -> Choice | None:
    """A ranged hero on its target's space: the free step to a space it shoots from."""
    spots = set(tactics.firing_spaces(s, seat, x.space)) if isinstance(x.space, int) else set()
    c = load()
    side = side_of(s, c)
    h = s.heroes[seat]
    if not isinstance(h.at, int):
        return None
    options = [
        m
        for m in by.get("move", [])
        if m.args["to"] in spots and not side.blocked(side.edge(h.at, m.args["to"]), s.layers)
    ]
    partners = {o.at for o in s.heroes if o.seat != seat and o.alive}
    return min(
        options,
        key=lambda m: (m.args["to"] in partners, paths.vortex_danger(s, m.args["to"]), m.args["to"]),
        default=None,
    )


def out_of_the_vortices(s: State, seat: int, by: Choices) -> Choice | None:
    """The Underworld's vortices sweep the middle ring at each round's start and take a
    hero's whole round (DO L534-539): with its last AP, a hero standing in their likely way
    steps to a safer neighbour."""
    h = s.heroes[seat]
    if s.chapter != 4 or not isinstance(h.at, int) or ap_left(h) != 1:
        return None
    here = paths.vortex_danger(s, h.at)
    if here < 0.2:
        return None
    c = load()
    side = side_of(s, c)
    safer = [
        m
        for m in by.get("move", [])
        if isinstance(m.args["to"], int)
        and paths.vortex_danger(s, m.args["to"]) < here / 2
        and m.args["to"] not in s.vortices
        and not side.blocked(side.edge(h.at, m.args["to"]), s.layers)
    ]
    return min(safer, key=lambda m: (paths.vortex_danger(s, m.args["to"]), m.args["to"]), default=None)


def chores_here(s: State, seat: int, by: Choices, boss: Creature | None) -> Choice | None:
    """What the hero's space offers for an AP: the omen's props, the loot token, a bed at
    the tavern, a Stone, an apothecary or a campfire's warmth (not when the boss waits)."""
    c = load()
    h = s.heroes[seat]
    pick = first(by, "tend")
    if pick is not None:
        return pick
    near_boss = boss is not None and distance_to(s, seat, boss) <= 6
    if by.get("loot") and not near_boss and (len(h.inventory) < INVENTORY or len(h.potions) < POTIONS):
        return by["loot"][0]
    if boss is not None or must_head_for_boss(s, seat):
        return None
    cap = hp_cap(s, c, seat)
    if by.get("rest") and (h.hp < cap - 1 or (h.mp < 24 and s.day >= DAYS_PER_CHAPTER - 2)):
        return by["rest"][0]
    pick = first(by, "rejuvenate", "warm", "apothecary")
    if pick is not None and (h.mp < 24 or h.hp < cap - 1):
        return pick
    return None


def distance_to(s: State, seat: int, x: Creature) -> int:
    h = s.heroes[seat]
    if isinstance(h.at, int) and isinstance(x.space, int):
        return distance(h.at, x.space)
    return 9


def ap_left_today(s: State, h: Hero) -> int:
    return ap_left(h) + AP_PER_ROUND * (ROUNDS_PER_DAY - s.round)


def boss_spots(s: State, seat: int) -> dict[int, float]:
    """Where to wait for the boss still to come: the spaces that shoot its space (the far
    ones first), else its space and its neighbours."""
    goal = boss_goal(s)
    return tactics.firing_goals(s, seat, goal) or dict.fromkeys(near(goal), 0.0)


def must_head_for_boss(s: State, seat: int) -> bool:
    """The day before the boss's (day 5): time to walk to it, with a little to spare."""
    if s.day != DAYS_PER_CHAPTER - 1 or the_boss(s) is not None:
        return False
    h = s.heroes[seat]
    return paths.cost_to(s, seat, boss_spots(s, seat), hurry=True) + 4 >= ap_left_today(s, h)


def travel(s: State, seat: int, by: Choices, boss: Creature | None) -> Choice | None:
    """The step toward where the hero should be now (the module's list, point 4)."""
    moves = by.get("move", [])
    if not moves:
        return None
    c = load()
    h = s.heroes[seat]
    cap = hp_cap(s, c, seat)
    if boss is not None and isinstance(boss.space, int):
        if h.hp <= 6 and not h.potions and h.gold >= 1 and paths.town_cost(s, seat, "tavern") <= 4:
            return paths.go_to_town(s, seat, "tavern", moves)
        spots = tactics.firing_goals(s, seat, boss.space) or {boss.space: 0.0}
        return paths.step_toward(s, seat, spots, moves, hurry=True)
    if must_head_for_boss(s, seat):
        return paths.step_toward(s, seat, boss_spots(s, seat), moves, hurry=True)
    if (
        isinstance(h.at, str)
        and h.at.endswith(":tavern")
        and h.hp < cap - 1
        and h.gold >= 1
        and by.get("rest")
    ):
        return None  # resting is cheaper than leaving (a bed is paid once a round)
    before_boss = s.day == DAYS_PER_CHAPTER - 1 or (s.day == DAYS_PER_CHAPTER - 2 and s.round >= 3)
    hurt = h.hp < max(10, cap // 2) or (before_boss and (h.hp < cap - 6 or h.mp < 18))
    if hurt and h.gold >= 1 and paths.town_cost(s, seat, "tavern") <= 12:
        return paths.go_to_town(s, seat, "tavern", moves)
    if wants_market(s, seat) and paths.town_cost(s, seat, "market") <= 14:
        step = paths.go_to_town(s, seat, "market", moves)
        if step is not None:
            return step
    goals = omen_goals(s, seat)
    if not goals:
        goals = [sp for sp in s.loot if len(h.inventory) < INVENTORY or len(h.potions) < POTIONS]
    if not goals and h.hp > cap // 2:
        goals = [x.space for x in s.creatures if isinstance(x.space, int) and x.kind != "boss"]
    if not goals:
        return None
    return paths.step_toward(s, seat, split(s, seat, goals), moves)


def near(space: int) -> list[int]:
    """A space and its neighbours: where to wait for a boss that is still to come."""
    return [space, *neighbours(space)]


def wants_market(s: State, seat: int) -> bool:
    """Gold enough for a ranged weapon (with a haggle), or a scroll to redeem, or coins to
    sell toward one."""
    c = load()
    h = s.heroes[seat]
    held = [c.face(t) for t in h.inventory]
    if "gear_scroll" in held:
        return True
    lvl = s.chapter or 1
    target = kit.wanted_weapon(s, seat)
    if target is not None:
        return kit.spending_power(s, seat) + (lvl if kit.may_haggle(s, seat) else 0) >= target[1]
    coins = held.count("coin") + 2 * held.count("ring")
    if coins:
        return True
    wants = kit.wish_list(s, seat)
    return any(price <= h.gold - kit.RESERVE for _, _, price in wants)


def omen_goals(s: State, seat: int) -> list[int]:
    """The spaces the day's omen needs a hero on: its space (reach), its props or where a
    carried person goes, its creatures (from range: the spaces that shoot them)."""
    c = load()
    if s.omen is None or s.omen.status != "active":
        return []
    omen = c.omens[s.omen.id]
    mission = omen["mission"]
    h = s.heroes[seat]
    if mission == "reach":
        return [int(omen["space"])]
    if mission == "escort":
        if any(p.carried_by == seat for p in s.props):
            return [int(omen["to"])]
        return [p.space for p in s.props if p.carried_by is None and isinstance(p.space, int)]
    if mission in ("collect", "clear"):
        return [p.space for p in s.props if p.carried_by is None and isinstance(p.space, int)]
    if mission in ("hunt", "gather"):
        if h.hp < max(8, hp_cap(s, c, seat) // 3) and not kit.has_ranged(s, seat):
            return []
        wanted = [x for x in s.creatures if isinstance(x.space, int) and (x.omen or mission == "gather")]
        out: list[int] = []
        for x in wanted:
            assert isinstance(x.space, int)
            out += tactics.firing_spaces(s, seat, x.space) or [x.space]
        return out
    return []


def split(s: State, seat: int, goals: list[int]) -> list[int]:
    """Two heroes after several goals: each takes the one it is nearer to, when the other
    hero is nearer to another (no racing for one token)."""
    h = s.heroes[seat]
    others = [o for o in s.heroes if o.seat != seat and o.alive and isinstance(o.at, int)]
    if len(set(goals)) < 2 or not others or not isinstance(h.at, int):
        return goals
    mine = [g for g in goals if all(distance(h.at, g) <= distance(o.at, g) for o in others)]  # type: ignore[arg-type]
    return mine or goals
