"""What the kernel's strong bot (``app.kernel.search``, issue 27) needs of Dark Omen: a world
a seat cannot tell from the table (``determinize``), how the party stands (``value``) and
where the search is worth its time (``search_budget``).

Hidden from every seat (DO L82, L476, facts §21): which loot token lies face down on which
space (the pile is a set, drawn at random when needed) and the level of an omen's face-down
creature tokens. Everything else a seat sees: heroes, inventories, gear, runes, the meter,
the revealed creatures. The future's dice, omens, runes and cards are drawn when needed
from the command's rng, so they are in no state to hide.
"""

from __future__ import annotations

import math
import random
from typing import Any

from app.games.dark_omen.board import distance
from app.games.dark_omen.bot import tactics
from app.games.dark_omen.content import Content, base_token, load
from app.games.dark_omen.rules.campaign import quick
from app.games.dark_omen.rules.combat import contributed, ordered, strikes
from app.games.dark_omen.rules.heroes import STORED_POTIONS, ap_left
from app.games.dark_omen.rules.stats import armor, damage_bonus, direct_damage, weapon_range
from app.games.dark_omen.state import (
    AP_PER_ROUND,
    DAYS_PER_CHAPTER,
    METER_MAX,
    ROUNDS_PER_DAY,
    TRACK_MAX,
    Battle,
    Creature,
    Hero,
    State,
    TeamAttack,
)
from app.kernel.types import Budget, Prompt

# -- the world a seat imagines ----------------------------------------------------------------


def determinize(s: State, seat: Any, rng: random.Random) -> State:
    """A copy of ``s`` with what no seat sees redrawn (the input is never changed):

    - the face-down loot: every token not in sight (the pile and the face-down ones, a pool
      the seat cannot tell apart: all 64 less what lies face up, in hands or was spent) dealt
      at random onto the face-down spaces, each keeping its deal's public instance number
      (``l05.17``: the 17th deal), the rest back in the pile;
    - each face-down creature token: a token of the levels the omen's setup names (DO L475)
      that no face-up creature shows, drawn without replacement, with its level's dice.
      (A token flipped and slain earlier in the day is no longer on the table: the seat
      remembers it, the state does not; it may be drawn again, a small blur.)
    """
    c = load()
    world = s.clone()
    spaces = sorted(s.loot)
    pool = sorted(s.pile + [base_token(s.loot[space]) for space in spaces])
    rng.shuffle(pool)
    world.loot = {space: f"{pool[i]}.{deal_number(s.loot[space])}" for i, space in enumerate(spaces)}
    world.pile = sorted(pool[len(spaces) :])
    hidden = [x for x in world.creatures if x.token and not x.flipped]
    if hidden:
        levels = tactics.token_levels(s, c)
        shown = {base_token(x.token) for x in s.creatures if x.token and x.flipped}
        tokens = sorted(t for t, lvl in c.creature_tokens.items() if lvl in levels and t not in shown)
        for creature, token in zip(hidden, rng.sample(tokens, min(len(hidden), len(tokens))), strict=False):
            lvl = c.creature_tokens[token]
            creature.token, creature.level, creature.dice = f"{token}.{creature.id}", lvl, lvl
    return world


def deal_number(token: str) -> str:
    """The public part of a dealt token's name: which deal it was (``l05.17`` → ``17``)."""
    return token.split(".", 1)[1] if "." in token else "0"


# -- how the party stands ----------------------------------------------------------------------


def value(s: State, seat: Any) -> float:
    """How the party stands in [0, 1] (everyone wins or loses together): 1 won, 0 lost;
    in between, read from the board:

    - **readiness**: each living hero's health, morale, weapon, armour, potions and gold
      (``hero_strength``); a fallen hero counts nothing until replaced;
    - **the boss day** (day 6): the boss's health against the damage the party can still
      deal with the action points the day has left (``boss_odds``);
    - **the day's omen**: met, or how far along (creatures of a hunt slain, props tended);
    - **the campaign**: chapters behind, and the darkness meter (0 loses, DO L42), and the
      characters left to replace the fallen (none left loses, DO L202).
    """
    if s.result is not None:
        return 1.0 if s.result.result == "win" else 0.0
    c = load()
    heroes = s.heroes
    if not heroes or s.chapter is None:
        return 0.5 + 0.1 * (len(s.results) / max(1, s.last_chapter - s.first_chapter + 1))
    ready = sum(hero_strength(s, c, h) for h in heroes) / len(heroes)
    boss = next((x for x in s.creatures if x.kind == "boss"), None)
    last_chapter = s.chapter >= s.last_chapter
    if boss is not None and boss.hp is not None:
        final = boss_odds(s, c, boss)
        chapter_value = 0.75 * final + 0.25 * ready
    else:
        chapter_value = 0.15 + 0.6 * ready + 0.1 * omen_progress(s, c)
    v = chapter_value
    if not quick(s):
        chapters = s.last_chapter - s.first_chapter + 1
        done = s.chapter - s.first_chapter
        meter = s.meter / METER_MAX
        danger = 0.25 if s.meter <= 1 else 0.1 if s.meter <= 2 else 0.0
        left = characters_left(s, c)
        spare = 0.0 if left >= len(heroes) else 0.08 * (len(heroes) - left)
        v = 0.6 * v + 0.25 * done / chapters + 0.15 * meter - danger - spare
        if not last_chapter:
            v = min(v, 0.9)
    return min(0.98, max(0.02, v))


def characters_left(s: State, c: Content) -> int:
    in_play = {h.character for h in s.heroes}
    return sum(1 for cid in c.characters if cid not in in_play and cid not in s.fallen)


def hero_strength(s: State, c: Content, h: Hero) -> float:
    """One hero in [0, 1]: health weighs most (it is life), then morale (boosts, heroic
    attacks, obstacles), the weapon's expected blow, armour, potions at hand, gold."""
    if not h.alive:
        return 0.0
    health = min(h.hp, TRACK_MAX) / TRACK_MAX
    morale = min(h.mp, TRACK_MAX) / TRACK_MAX
    lvl = s.chapter or 1
    blow = expected_blow(s, c, h.seat, 0)
    weapon = min(1.0, blow / (4 + 3 * lvl)) * (1.25 if weapon_range(s, c, h.seat) > 0 else 1.0)
    guard = min(1.0, armor(s, c, h.seat) / (1 + 2 * lvl))
    stored = sum(sum(STORED_POTIONS[c.face(t)].values()) for t in h.potions if c.face(t) in STORED_POTIONS)
    supplies = min(1.0, (stored + 2 * len(h.inventory) // 3) / 15)
    gold = min(1.0, h.gold / (4 + 4 * lvl))
    low = 0.15 if h.hp <= 5 else 0.0  # one blow from death
    kit = 0.2 * min(1.0, weapon) + 0.08 * guard + 0.07 * supplies + 0.05 * gold
    return max(0.0, 0.35 * health + 0.25 * morale + kit - low)


def expected_blow(s: State, c: Content, seat: int, enemy_armor: int) -> float:
    """What one of the hero's damage rolls takes off an enemy with this armour, on average."""
    gid = s.heroes[seat].equipped.get("primary")
    spec = c.gear[gid]["dr"] if gid else "d4-1"
    roll = tactics.average(spec) + damage_bonus(s, c, seat) - enemy_armor
    return max(0.0, roll) + direct_damage(s, c, seat)


HIT_CHANCE = {1: 0.55, 2: 0.5, 3: 0.45, 4: 0.45}
"""Roughly how often one attack lands a blow on a boss of each chapter when the hero has
morale for boosts (two hero dice from chapter 2 against the boss's more and stronger dice;
measured over the bots' boss days)."""

BOOST_MP = 16
"""Morale that buys the boosts of a boss fight (2 MP a pip, DO L406): without it the boss's
dice win most pairs."""


def boss_odds(s: State, c: Content, boss: Creature) -> float:
    """The chance the boss falls today, read as the damage the living heroes can still deal
    (their action points left today, less the walk to it, times an attack's expected damage,
    which their morale for boosts raises) against its health."""
    lvl = s.chapter or 1
    boss_armor = int(boss.armor or 0)
    rounds_after = ROUNDS_PER_DAY - s.round if s.day == DAYS_PER_CHAPTER else 0
    dealt, taken = 0.0, dict.fromkeys(range(len(s.heroes)), 0.0)
    for h in s.heroes:
        if isinstance(h.pending, Battle) and h.pending.leader == h.seat and h.pending.creature == boss.id:
            dealt, taken = battle_forecast(s, c, h.pending, boss)
    capacity = 0.0
    for h in s.heroes:
        if not h.alive:
            continue
        ap = ap_left(h) + AP_PER_ROUND * rounds_after
        walk = distance(h.at, boss.space) if isinstance(h.at, int) and isinstance(boss.space, int) else 4
        reach = weapon_range(s, c, h.seat)
        ap = max(0, ap - max(0, walk - reach))
        hit = HIT_CHANCE.get(lvl, 0.45) * (0.6 + 0.4 * min(h.mp, BOOST_MP) / BOOST_MP)
        per_ap = hit * expected_blow(s, c, h.seat, boss_armor) * (0.75 if reach > 0 else 0.8)
        capacity += ap * per_ap * min(1.0, max(0.0, h.hp - taken[h.seat]) / 12)
    hp = max(0.0, int(boss.hp or 0) - dealt)
    scale = 0.35 * max(hp, 6) + 2
    return 1 / (1 + math.exp(-(capacity - hp) / scale))


def battle_forecast(s: State, c: Content, p: Battle, x: Creature) -> tuple[float, dict[int, float]]:
    """What an attack roll lying in its boost window will do once resolved, on average: the
    damage the heroes' winning dice deal, and the health each hero loses to the enemy's
    (a ranged hero none, DO L363), as the rules pair them (``combat.strikes``). A look-ahead
    that stops before the window closes is judged by it, not by the dice unspent."""
    team = len(p.members) > 1
    contributions: dict[int, list[int]] = {}
    unused: dict[int, list[int]] = {}
    for m in p.members:
        contributions[m], unused[m] = contributed(p.dice[str(m)], m in p.heroic, team)
    order = (
        ordered(contributions, unused) if team else [(p.members[0], d) for d in contributions[p.members[0]]]
    )
    dealt, taken = 0.0, dict.fromkeys(range(len(s.heroes)), 0.0)
    for hit in strikes(p.enemy, order, solo=not team):
        if hit.by == "hero":
            dealt += tactics.hero_blow(s, c, hit.seats[0], x)
        else:
            for seat in hit.seats:
                if seat not in p.ranged:
                    taken[seat] += tactics.enemy_blow(s, c, x, seat)
    return dealt, taken


def omen_progress(s: State, c: Content) -> float:
    """The day's omen: 1 met, 0 failed, ½ on a day without one; an active one by how far
    along it is (a hunt's creatures slain or hurt, props tended, blood handed in)."""
    if s.omen is None:
        return 0.5
    if s.omen.status == "success":
        return 1.0
    if s.omen.status != "active":
        return 0.0
    omen = c.omens[s.omen.id]
    mission = omen["mission"]
    if mission == "hunt":
        planned = int(omen.get("creatures", 0)) + len(omen.get("guards", []))
        left = sum(1 - wounds(c, x) for x in s.creatures if x.omen)
        return 0.5 * (1 - left / planned) if planned else 0.0
    if mission in ("collect", "clear", "escort"):
        total = len(omen.get("props", [])) or 1
        return 0.5 * (1 - sum(1 for p in s.props if p.carried_by is None) / total)
    if mission == "gather":
        return 0.5 * s.omen.blood / max(1, int(omen.get("blood", 1)))
    return 0.0


def wounds(c: Content, x: Creature) -> float:
    """How much of a revealed creature's health is gone (0 for a face-down one)."""
    card = c.creatures.get(x.card or "") or c.guards.get(x.card or "")
    if not card or x.hp is None or not card.get("hp"):
        return 0.0
    return max(0.0, min(1.0, 1 - x.hp / int(card["hp"])))


# -- where to think -------------------------------------------------------------------------------

BATTLE = Budget(iterations=24, depth=4, seconds=0.4, exploration=0.4, margin=0.04)
"""A boost window or a team attack's launch: its outcome shows within a few commands (the
battle resolves, the heroes' next actions; a look-ahead stopping in the window reads its
dice, ``battle_forecast``); 24 tries take about 0.3 s, and an answer must beat the
heuristic's by 0.04 to be kept (the dice make single tries noisy)."""


def search_budget(s: State, prompt: Prompt) -> Budget | None:
    """Search only where a choice's outcome shows soon and the choices are few: a battle's
    boost window (boosts, Courage, a shield, the tied order, resolving) and a team attack
    its leader launches or withdraws. Everything else (a round's action among dozens, the
    market, between chapters) the heuristic answers: a look-ahead of a few commands cannot
    tell those apart, and each decision must stay well under a second."""
    if not isinstance(prompt.seat, int) or prompt.seat >= len(s.heroes):
        return None
    h = s.heroes[prompt.seat]
    if isinstance(h.pending, Battle | TeamAttack) and len(prompt.choices) <= 8:
        return BATTLE
    return None
