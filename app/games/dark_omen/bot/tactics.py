"""The bot's fighting sense: how hard an enemy hits and how much a blow takes off it, where a
ranged hero can shoot from (DO L363-365: a ranged attacker takes no enemy damage; the enemy
then rushes onto it), which dice to boost in the boost window (DO L404-406), and whether a
hero should fight now."""

from __future__ import annotations

from app.games.dark_omen.board import line_of_sight, ring_sector, space_id
from app.games.dark_omen.bot.paths import vortex_danger
from app.games.dark_omen.content import Content, load
from app.games.dark_omen.rules.battle import can_reach, engaged_by
from app.games.dark_omen.rules.combat import parse_roll
from app.games.dark_omen.rules.omens import fury
from app.games.dark_omen.rules.stats import (
    armor,
    creature_effect,
    damage_bonus,
    direct_damage,
    hero_dice,
    side_of,
    weapon_range,
)
from app.games.dark_omen.state import Battle, Creature, State

BLOW_BY_LEVEL = {1: 3.0, 2: 4.0, 3: 5.5, 4: 7.0}
"""An unrevealed enemy's damage roll, on average, by level (the creature cards' spread)."""


def average(spec: str) -> float:
    n, sides, mod = parse_roll(spec.replace("-", "+-"))
    return n * (sides + 1) / 2 + mod


def shown_level(s: State, c: Content, x: Creature) -> int:
    """The enemy's level as the table shows it: a face-down token's is hidden (DO L476), so
    the highest its omen may have placed (the bot never reads the token, whatever state it
    is handed)."""
    if x.token and not x.flipped:
        return max(token_levels(s, c))
    return x.level


def token_levels(s: State, c: Content) -> set[int]:
    """The levels an omen's face-down creature tokens may have (DO L475; the rules'
    ``place_creature_tokens``): the card's, else the chapter's and the one below."""
    lvl = s.chapter or 1
    named = c.omens[s.omen.id].get("token_levels") if s.omen is not None else None
    return set(named) if named else {lvl, max(1, lvl - 1)}


def enemy_dice(s: State, c: Content, x: Creature) -> int:
    if x.token and not x.flipped:
        return shown_level(s, c, x)
    return int(x.dice) + creature_effect(s, c, x, "dice")


def enemy_blow(s: State, c: Content, x: Creature, seat: int) -> float:
    """One of the enemy's damage rolls on this hero after armour (at least 1, DO L414)."""
    roll = average(x.dr) if x.dr else BLOW_BY_LEVEL.get(shown_level(s, c, x), 5.0)
    roll += creature_effect(s, c, x, "damage") + fury(s, c)
    return max(1.0, roll - armor(s, c, seat)) + creature_effect(s, c, x, "direct")


def hero_blow(s: State, c: Content, seat: int, x: Creature) -> float:
    """One of the hero's damage rolls on this enemy after its armour."""
    gid = s.heroes[seat].equipped.get("primary")
    spec = c.gear[gid]["dr"] if gid else "d4-1"
    enemy_armor = int(x.armor or 0) + creature_effect(s, c, x, "armor") if x.card else 0
    return max(0.0, average(spec) + damage_bonus(s, c, seat) - enemy_armor) + direct_damage(s, c, seat)


def melee_risk(s: State, c: Content, x: Creature, seat: int) -> float:
    """The HP a solo melee attack costs this hero, on average: about half the pairs go to
    the enemy, and every enemy die beyond the hero's hits."""
    mine = hero_dice(s)
    theirs = enemy_dice(s, c, x)
    lost = 0.5 * min(mine, theirs) + max(0, theirs - mine) * 0.85
    bonus = creature_effect(s, c, x, "attack")
    lost *= 1 + 0.15 * bonus
    return lost * enemy_blow(s, c, x, seat)


def is_ranged_at(s: State, seat: int, x: Creature) -> bool:
    """Would this hero attack ``x`` from range (not on its space, within reach)?"""
    h = s.heroes[seat]
    return x.space != h.at and can_reach(s, seat, x.id)


def firing_spaces(s: State, seat: int, target: int) -> list[int]:
    """The spaces from which the hero's weapon reaches ``target`` along a clear straight
    line (DO L365), nearest the range's end first; the target's own space left out."""
    return list(firing_goals(s, seat, target))


def firing_goals(s: State, seat: int, target: int) -> dict[int, float]:
    """``firing_spaces`` with what each costs over the farthest: a space next to a boss
    takes its roar at each round's start (the bosses' reach, DO L481-482), one in the
    vortices' way may lose a round (DO L534-539)."""
    c = load()
    reach = weapon_range(s, c, seat)
    if reach <= 0:
        return {}
    side = side_of(s, c)
    ring, sector = ring_sector(target)
    out: list[tuple[int, int]] = []
    for d in range(1, reach + 1):
        for candidate in (space_id(ring, sector + d), space_id(ring, sector - d)):
            steps = line_of_sight(side, candidate, target, s.layers)
            if steps is not None and steps <= reach:
                out.append((-steps, candidate))
        for r in (ring - d, ring + d):
            if 0 <= r <= 2:
                candidate = space_id(r, sector)
                steps = line_of_sight(side, candidate, target, s.layers)
                if steps is not None and steps <= reach:
                    out.append((-steps, candidate))
    longest = max((-steps for steps, _ in out), default=0)
    return {space: 1.5 * (longest + steps) + 4 * vortex_danger(s, space) for steps, space in sorted(set(out))}


def free_target(s: State, seat: int, x: Creature) -> bool:
    """No other seat's battle holds it (facts §21)."""
    return engaged_by(s, x.id) in (None, seat)


def boost_pick(s: State, seat: int, mp_reserve: int) -> tuple[str, int] | None:
    """In the boost window: the boost (or Courage) that turns a pair most cheaply, as
    ("boost" | "courage", die index), or None to resolve. A ranged hero takes no enemy blow,
    so only winning a pair is worth morale; in melee a tie already saves the blow. In a team
    only the contributed die counts (DO L432)."""
    c = load()
    h = s.heroes[seat]
    p = h.pending
    assert isinstance(p, Battle)
    x = s.creature(p.creature)
    ranged = seat in p.ranged
    team = len(p.members) > 1
    dice = p.dice[str(seat)]
    enemy = sorted(p.enemy, reverse=True)
    order = sorted(range(len(dice)), key=lambda k: (-dice[k], k))
    usable = order[: (2 if seat in p.heroic else 1)] if team else order
    rank_of = team_ranks(s, p, seat) if team else {i: r for r, i in enumerate(order)}
    best: tuple[float, str, int] | None = None
    lethal = x is not None and x.hp is not None and hero_blow(s, c, seat, x) >= x.hp
    for i in usable:
        rank = rank_of.get(i)
        if rank is None or rank >= len(enemy):
            continue
        foe = enemy[rank]
        if dice[i] > foe:
            continue
        win = foe + 1 - dice[i]
        tie = foe - dice[i]
        options = []
        if foe + 1 <= 6:
            options.append((win, "win"))
        if not ranged and tie > 0:
            options.append((tie, "tie"))
        for need, kind in options:
            cost = 2 * need
            if need > 3 and not lethal:
                continue
            if cost > h.mp - mp_reserve:
                continue
            worth = 1.0 if kind == "win" else 0.6
            if lethal and kind == "win":
                worth += 0.5
            score = worth / need
            if best is None or score > best[0]:
                best = (score, "boost", i)
        if foe >= 6 and held_courage(s, seat) and (best is None or best[0] < 0.5):
            best = (0.5, "courage", i)
    return None if best is None else (best[1], best[2])


def team_ranks(s: State, p: Battle, seat: int) -> dict[int, int]:
    """In a team attack, which enemy die (by rank) each of this hero's contributed dice faces."""
    entries: list[tuple[int, int, int, int]] = []
    for m in p.members:
        ds = p.dice[str(m)]
        order = sorted(range(len(ds)), key=lambda k: (-ds[k], k))
        take = order[: (2 if m in p.heroic else 1)]
        spare = max((ds[k] for k in order[len(take) :]), default=0)
        for k in take:
            entries.append((-ds[k], -spare, m, k))
    entries.sort()
    return {k: rank for rank, (_, _, m, k) in enumerate(entries) if m == seat}


def held_courage(s: State, seat: int) -> bool:
    c = load()
    held = {c.face(t) for t in s.heroes[seat].inventory}
    return "herb_blue" in held and "herb_yellow" in held
