"""A heuristic bot for any seat: it fights what it can beat, loots, drinks when hurt, shops,
joins team attacks and walks toward the omen's goal through the labyrinth; otherwise it
ends its round. Every pick is one of the prompt's choices."""

from __future__ import annotations

import heapq
import random

from app.games.dark_omen.board import distance, neighbours
from app.games.dark_omen.content import load
from app.games.dark_omen.rules.stats import side_of
from app.games.dark_omen.state import Battle, State
from app.kernel.types import Choice, Prompt


def choose(s: State, prompt: Prompt, rng: random.Random) -> Choice | None:
    if not prompt.choices:
        return None
    by: dict[str, list[Choice]] = {}
    for c in prompt.choices:
        by.setdefault(c.type, []).append(c)
    if not isinstance(prompt.seat, int):
        return prompt.choices[0]
    h = s.heroes[prompt.seat]

    def first(*types: str) -> Choice | None:
        for t in types:
            if by.get(t):
                return by[t][0]
        return None

    if "ready" in by or "new_character" in by:
        return rng.choice(by.get("ready") or by["new_character"])
    if "turn" in by:
        return rng.choice(by["turn"])
    p = h.pending
    if p is not None and p.kind == "battle":
        return battle_pick(s, prompt.seat, by)
    if p is not None and p.kind in ("draugr", "barrow"):
        if p.kind == "draugr":  # low is good: pick every 4, 5 and 6, then reroll them
            dice = p.dice or []
            high = [c for c in by.get("pick_die", []) if c.args["pick"] and dice[c.args["index"]] >= 4]
            return (high[0] if high else None) or first("reroll", "stand")
        return first("stand")
    if p is not None and p.kind == "hard_life":
        return first("draw_die") if sum(p.dice) <= 13 else first("stand")
    if p is not None and p.kind == "gamble_host":
        return first("start_gamble") or prompt.choices[0]
    if p is not None and p.kind == "team":
        return first("launch_team", "withdraw_team")
    if "leave_team" in by:
        return None  # joined: it waits for the leader's launch (facts §21)
    pick = first("join_team")
    if pick is not None and h.hp > 5:
        return pick
    if h.must_attack:
        return first("attack")
    if h.hp <= 8:
        pick = first("drink") or next(
            (c for c in by.get("craft", []) if c.args["recipe"] in ("fast_hp", "health")), None
        )
        if pick is not None:
            return pick
    pick = first("take_belongings", "take", "offer_blood", "tend")
    if pick is not None:
        return pick
    lvl = s.chapter or 1
    attacks = [c for c in by.get("attack", []) if not c.args.get("heroic")]
    if attacks and h.hp > 3 + 2 * lvl:
        teams = by.get("propose_team", [])
        if teams and rng.random() < (0.9 if lvl >= 3 else 0.3):
            return teams[0]
        heroic = [c for c in by.get("attack", []) if c.args.get("heroic")]
        if heroic and h.mp >= 12:
            return heroic[0]
        return attacks[0]
    pick = first("loot")
    if pick is not None and len(h.inventory) < 6:
        return pick
    for c in by.get("equip", []):
        card = load().gear.get(c.args["gear"])
        if card and card["slot"] == "primary" and card["level"] > weapon_level(s, prompt.seat):
            return c
    buys = by.get("buy", [])
    if buys:
        pick = shopping(s, prompt.seat, buys)
        if pick is not None:
            return pick
    pick = first("rest") if h.hp < h.max_hp - 4 and h.gold > 1 else None
    if pick is not None:
        return pick
    moves = by.get("move", [])
    goal = goal_space(s, prompt.seat)
    if moves and goal is not None:
        step = best_step(s, prompt.seat, goal, moves)
        if step is not None:
            return step
    if by.get("meditate") and h.mp < 20:
        return by["meditate"][0]
    if moves and rng.random() < 0.5:
        return rng.choice(moves)
    return first("end_round") or prompt.choices[0]


def battle_pick(s: State, seat: int, by: dict[str, list[Choice]]) -> Choice:
    """Boost the die whose pair is cheapest to win (or at least tie, against a 6) while the
    morale lasts; then resolve."""
    h = s.heroes[seat]
    p = h.pending
    assert isinstance(p, Battle)
    enemy = sorted(p.enemy, reverse=True)
    dice = p.dice[str(seat)]
    best: tuple[int, Choice] | None = None
    for c in by.get("boost", []):
        i = c.args["index"]
        rank = sorted(range(len(dice)), key=lambda k: (-dice[k], k)).index(i)
        if rank >= len(enemy):
            continue
        target = min(6, enemy[rank] + 1)
        need = target - dice[i]
        if need > 0 and 2 * need <= h.mp - 2 and (best is None or need < best[0]):
            best = (need, c)
    if best is not None:
        return best[1]
    if by.get("raise_shield"):
        return by["raise_shield"][0]
    return by["finalize"][0]


def goal_space(s: State, seat: int) -> int | str | None:
    """Where to head: a tavern when badly hurt, else the omen's goal (its creatures, the
    boss, its space), else the nearest creature or face-down loot."""
    c = load()
    h = s.heroes[seat]
    side = side_of(s, c)
    if not isinstance(h.at, int):
        town = h.at.split(":")[0]
        if wants_to_shop(s, seat):
            return f"{town}:market"
        if h.hp < h.max_hp - 6 and h.gold >= 1:
            return f"{town}:tavern"
        return side.towns[town]
    if h.hp <= 6 and h.gold >= 1:
        town = min(side.towns, key=lambda name: (distance(h.at, side.towns[name]), name))  # type: ignore[arg-type]
        return f"{town}:tavern"
    if wants_to_shop(s, seat):
        town = min(side.towns, key=lambda name: (distance(h.at, side.towns[name]), name))  # type: ignore[arg-type]
        return f"{town}:market"
    targets: list[int] = []
    if s.omen and s.omen.status == "active":
        omen = c.omens[s.omen.id]
        if omen["mission"] == "reach":
            return int(omen["space"])
        if omen["mission"] in ("hunt", "boss"):
            targets = [x.space for x in s.creatures if x.omen and isinstance(x.space, int)]
        if omen["mission"] == "escort" and any(p.carried_by == seat for p in s.props):
            return int(omen["to"])
        if omen["mission"] in ("collect", "clear", "escort"):
            targets = [p.space for p in s.props if p.carried_by is None and isinstance(p.space, int)]
    if not targets and h.hp > 8:
        targets = [x.space for x in s.creatures if isinstance(x.space, int) and x.kind != "boss"]
    if not targets:
        targets = list(s.loot)
    if not targets:
        return None
    return min(targets, key=lambda sp: (distance(h.at, sp), sp))  # type: ignore[arg-type]


def weapon_level(s: State, seat: int) -> int:
    gid = s.heroes[seat].equipped.get("primary")
    return int(load().gear[gid]["level"]) if gid else 0


def wants_to_shop(s: State, seat: int) -> bool:
    """No weapon of the chapter's level yet, and the gold for one."""
    c = load()
    lvl = s.chapter or 1
    if weapon_level(s, seat) >= lvl:
        return False
    prices = [
        int(c.gear[g]["price"])
        for g in c.shop(lvl)
        if c.gear[g]["slot"] == "primary" and c.gear[g]["level"] == lvl
    ]
    return bool(prices) and s.heroes[seat].gold >= min(prices)


def shopping(s: State, seat: int, buys: list[Choice]) -> Choice | None:
    """A better weapon first, then armour for an empty slot."""
    c = load()
    h = s.heroes[seat]
    better = [
        b
        for b in buys
        if c.gear[b.args["gear"]]["slot"] == "primary"
        and c.gear[b.args["gear"]]["level"] > weapon_level(s, seat)
    ]
    if better:
        return max(better, key=lambda b: (c.gear[b.args["gear"]]["level"], c.gear[b.args["gear"]]["price"]))
    armour = [
        b
        for b in buys
        if c.gear[b.args["gear"]]["slot"] in ("helmet", "body", "shield")
        and c.gear[b.args["gear"]]["slot"] not in h.equipped
    ]
    return armour[0] if armour else None


def best_step(s: State, seat: int, goal: int | str, moves: list[Choice]) -> Choice | None:
    """The move along the cheapest path (an obstacle costs as much as 4 steps)."""
    c = load()
    side = side_of(s, c)
    here = s.heroes[seat].at
    if isinstance(goal, str) or isinstance(here, str):
        return town_step(s, seat, goal, moves)
    best = {goal: 0}
    heap = [(0, goal)]
    while heap:
        cost, node = heapq.heappop(heap)
        if cost > best.get(node, 1 << 30):
            continue
        for there in neighbours(node):
            step = cost + (5 if side.blocked(side.edge(node, there), s.layers) else 1)
            if step < best.get(there, 1 << 30):
                best[there] = step
                heapq.heappush(heap, (step, there))
    now = best.get(here, 1 << 30)
    ranked = sorted(
        (m for m in moves if isinstance(m.args["to"], int)),
        key=lambda m: (
            best.get(m.args["to"], 1 << 30)
            + (4 if side.blocked(side.edge(here, m.args["to"]), s.layers) else 0)
        ),
    )
    if ranked and best.get(ranked[0].args["to"], 1 << 30) < now:
        return ranked[0]
    return None


def town_step(s: State, seat: int, goal: int | str, moves: list[Choice]) -> Choice | None:
    """Into a town by its gate and through the market to the tavern, or out again."""
    side = side_of(s, load())
    here = s.heroes[seat].at
    if isinstance(here, int):
        assert isinstance(goal, str)
        town = goal.split(":")[0]
        if side.towns[town] == here:
            return next((m for m in moves if m.args["to"] == f"{town}:gate"), None)
        return best_step(s, seat, side.towns[town], moves)
    town, place = here.split(":")
    if goal == here:
        return None
    if isinstance(goal, str) and goal.startswith(town):
        wanted = goal if place == "market" else f"{town}:market"
    elif place == "gate":
        wanted = side.towns[town]
    elif place == "market":
        wanted = f"{town}:gate"
    else:
        wanted = f"{town}:market"
    return next((m for m in moves if m.args["to"] == wanted), None)
