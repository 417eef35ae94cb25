"""The strong bot's judgement (issue 27): how a side stands (``value``) and which questions
are worth a search (``search_budget``); the search itself is the kernel's
(``app.kernel.search``), its worlds ``worlds.py``.

**The value** reads the board as a fight between two sides, each with its hit points and
the damage it deals a round (AtD L67-78, L209-217): a side wins an exchange of blows about
as its hit points times its damage outweighs the other's (Lanchester's square law), so

    ratio = (party HP × party damage) / (monsters' effective HP × monsters' damage)

gives the chance of winning the encounter, ratio^k / (1 + ratio^k), and the HP the party
keeps (√(1 − 1/ratio) of it). In Adventure and Tabletop the seat's side is the party and
every encounter still to come must be won too, each about as likely as the party is whole
(clearing the room heals half the HP lost and revives the fallen, AtD L277-279); in the
Arena (AtD L287-297) the seat's team fights every other team, and after the time limit
the HP left decides (``rules/arena.py``).
"""

from __future__ import annotations

import math

from app.games.attack_the_darkness.bot.threat import incoming, settled_seats
from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.state import State
from app.kernel.types import Budget, Prompt

C = load()

CHARACTER_DAMAGE = 6.0
"""What a conscious character deals a round, about (a card or two of 3-6 damage)."""
ENCOUNTER_EDGE = 2.0
"""The party's edge the ratio leaves out (cards, positioning, the monsters' walk to the
party): an even ratio wins more often than not."""
STEEPNESS = 1.5
"""How fast the chance of winning an encounter grows with the ratio."""
FRESH_ODDS = 0.92
"""The chance of winning an encounter still to come with the party whole; it falls
linearly to ``SPENT_ODDS`` for a party with no HP left."""
SPENT_ODDS = 0.25


def value(s: State, seat: int) -> float:
    """How ``seat``'s side stands, in [0, 1]: 1 won, 0 lost."""
    if s.result is not None:
        if s.result["result"] == "draw":
            return 0.5
        winners = s.result.get("winners") or []
        if s.arena:
            return 1.0 if seat in winners else 0.0
        return 1.0 if s.result["result"] == "win" else 0.0
    if s.arena:
        return _arena_value(s, seat)
    return _party_value(s)


def _party_value(s: State) -> float:
    total = max(1, len(s.dungeon_names) * s.encounters)
    hp = sum(max(0, ch.hp) for ch in s.chars)
    if s.in_encounter and s.monsters:
        hp = max(0.0, hp - _blows_ahead(s))
    whole = sum(ch.max_hp for ch in s.chars)
    up = sum(1 for ch in s.chars if ch.hp > 0)
    fallen = sum((ch.max_hp + 1) // 2 for ch in s.chars if ch.hp <= 0)
    foes = _monster_strength(s) if s.in_encounter else 0.0
    if foes > 0:
        mine = hp * up * CHARACTER_DAMAGE * ENCOUNTER_EDGE
        ratio = mine / foes
        win = ratio**STEEPNESS / (1 + ratio**STEEPNESS)
        kept = hp * math.sqrt(max(0.0, 1 - 1 / ratio)) if ratio > 1 else 0.0
        after = kept + (fallen if kept > 0 else 0)
        left = total - s.successes - 1
    else:
        win = 1.0
        after = hp + (fallen if up else 0)
        # between encounters the one just won is counted; before the first, none is
        left = total - s.successes
    # clearing the room heals half the HP lost before the next encounter (AtD L279)
    healed = after + (whole - after) / 2 if left > 0 else after
    odds = SPENT_ODDS + (FRESH_ODDS - SPENT_ODDS) * min(1.0, healed / max(1, whole))
    return win * odds ** max(0, left)


def _blows_ahead(s: State) -> float:
    """The damage the monsters can deal in their next phase where the characters stand
    (``threat.Exposure``): in full for those whose turn is over, half for those who may
    still step away."""
    settled = settled_seats(s)
    out = 0.0
    for seat, ch in enumerate(s.chars):
        if ch.hp > 0 and ch.pos is not None:
            out += min(ch.hp, incoming(s, seat)) * (1.0 if seat in settled else 0.5)
    return out


def _monster_strength(s: State) -> float:
    """Effective HP times damage a round of the monsters still fighting (a dominated one
    fights for the party, AtD L75): a monster's saves stretch its HP against attacks of
    about 4 damage (AtD L216-217)."""
    hp = 0.0
    damage = 0.0
    for m in s.monsters.values():
        if m.dominated > s.round:
            continue
        card = C.monsters[m.card]
        d = card.defenses
        save = 3 if d["save"] == "INF" else min(3, int(d["save"]))
        share = 1.0 if d["count"] == "INF" else min(1.0, 0.5 * int(d["count"]))
        hp += m.hp * 4 / (4 - save * share)
        if m.stunned <= s.round:
            damage += int(card.attacks["count"]) * int(card.attacks["damage"])
    return hp * max(damage, 0.5)


def _arena_value(s: State, seat: int) -> float:
    """The seat's team against all the others: HP times damage each side."""
    team = s.teams[seat]
    mine_hp = sum(max(0, ch.hp) for k, ch in enumerate(s.chars) if s.teams[k] == team)
    mine_up = sum(1 for k, ch in enumerate(s.chars) if s.teams[k] == team and ch.hp > 0)
    their_hp = sum(max(0, ch.hp) for k, ch in enumerate(s.chars) if s.teams[k] != team)
    their_up = sum(1 for k, ch in enumerate(s.chars) if s.teams[k] != team and ch.hp > 0)
    if not their_up:
        return 1.0
    if not mine_up:
        return 0.0
    ratio = (mine_hp * mine_up) / (their_hp * their_up)
    return ratio**STEEPNESS / (1 + ratio**STEEPNESS)


SEARCHED = {"act": 12, "defend": 10, "target": 10}
"""The questions the search answers, each with its rollouts' depth (commands)."""
MAX_CHOICES = 14
TRIES = 3
"""Rollouts per answer, about."""


def search_budget(s: State, prompt: Prompt) -> Budget | None:
    d = s.decision
    n = len(prompt.choices)
    if d is None or not prompt.required or not 1 < n <= MAX_CHOICES or d.kind not in SEARCHED:
        return None
    return Budget(
        iterations=min(TRIES * n, 36), depth=SEARCHED[d.kind], seconds=0.5, exploration=0.3, margin=0.03
    )
