"""The strong bot's judgement (issue 27): how a side stands (``value``) and which questions
are worth a search (``search_budget``); the search itself is the kernel's
(``app.kernel.search``), its worlds ``worlds.py``.

**The value** reads the board as a fight between two sides, each with its hit points and
the damage it deals a round (AtD L67-78, L209-217): a side wins an exchange of blows about
as its hit points times its damage outweighs the other's (Lanchester's square law). For an
encounter

    ratio = EDGE × party HP × characters standing / (monsters' effective HP × their damage)

and the chance of winning it is ratio^k / (1 + ratio^k); a won encounter leaves the party
``0.6 + 0.09 ln ratio`` of its HP. Both were fitted on 1,207 encounters of the heuristic
bot's games (every sample dungeon at 1, 2 and 4 players): k = 2.9, EDGE = 28. The HP counted
is less the blows the monsters can deal next phase where the characters stand
(``threat.Exposure``), so a look-ahead that stops mid-round still sees them coming.

The party must win every encounter still to come as well (AtD L265): each is a fight against
monsters worth about its danger level squared (1.55 × danger², the median of those
encounters), after clearing the room healed half the HP lost and revived the fallen at
half their HP (AtD L277-279). The value is the product of those chances, so a win that
ends the encounter counts the same before and after the next one is dealt. In the Arena
(AtD L287-297) the seat's team fights every other team, and after the time limit the HP
left decides (``rules/arena.py``).
"""

from __future__ import annotations

import math

from app.games.attack_the_darkness.bot.threat import incoming, settled_seats
from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.state import State
from app.kernel.types import Budget, Prompt

C = load()

EDGE = 28.0
"""What a standing character's HP is worth against a monster's HP × damage (fitted)."""
STEEPNESS = 2.9
"""How fast the chance of winning an encounter grows with the ratio (fitted)."""
STRENGTH_PER_DANGER = 1.55
"""An encounter's monsters are worth about this times its danger level squared."""
CARD_WORTH = 0.5
"""A card in a standing character's hand, in HP, in the encounter being fought."""
ARENA_STEEPNESS = 1.5


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


def win_chance(hp: float, standing: int, strength: float) -> tuple[float, float]:
    """The chance a party with ``hp`` left over ``standing`` characters beats monsters of
    ``strength``, and the share of its HP it keeps."""
    if strength <= 0:
        return 1.0, 1.0
    if hp <= 0 or standing <= 0:
        return 0.0, 0.0
    ratio = EDGE * hp * standing / strength
    chance = 1 / (1 + ratio**-STEEPNESS)
    return chance, min(0.95, max(0.3, 0.6 + 0.09 * math.log(ratio)))


def _party_value(s: State) -> float:
    chars = s.chars
    whole = sum(ch.max_hp for ch in chars)
    hp = float(sum(max(0, ch.hp) for ch in chars))
    standing = sum(1 for ch in chars if ch.hp > 0)
    fallen = sum((ch.max_hp + 1) // 2 for ch in chars if ch.hp <= 0)
    chance = 1.0
    fighting = s.in_encounter and bool(s.monsters)
    if fighting:
        hp = max(0.0, hp - _blows_ahead(s))
        # cards in hand are blows and saves to come: a card spent for nothing is lost
        hand = sum(len(ch.hand_a) + len(ch.hand_r) for ch in chars if ch.hp > 0)
        won, kept = win_chance(hp + CARD_WORTH * hand, standing, _monster_strength(s))
        chance, hp = won, hp * kept
        if chance <= 0:
            return 0.0
    if hp <= 0 and standing == 0:
        return 0.0
    # the fallen are revived at half their HP once the room is cleared (AtD L278)
    hp += fallen
    standing = len(chars)
    adv = sum(C.advancements[s.cards[a]].danger for ch in chars for a in ch.advancements)
    for tiles in future_tiles(s):
        hp += (whole - hp) / 2  # a rest heals half the HP lost (AtD L279)
        danger = len(chars) * tiles + adv
        won, kept = win_chance(hp, standing, STRENGTH_PER_DANGER * danger * danger)
        chance *= won
        hp *= kept
    return chance


def future_tiles(s: State) -> list[int]:
    """The tiles of each encounter still to begin, in order (a sample dungeon's layouts,
    AtD L437-466; a random dungeon's 7, 8, 9…, carried through a campaign, AtD L250)."""
    per = s.encounters
    # between the dungeons of a campaign the next one is still to begin
    start = s.dungeon_index * per + (0 if s.between else s.encounter + 1)
    left = max(0, len(s.dungeon_names) * per - start)
    if s.dungeon != "random":
        layouts = [len(tiles) for _, tiles in C.dungeons[s.dungeon].encounters]
        return [layouts[(start + k) % per] for k in range(left)]
    first = s.tiles_next + (1 if s.in_encounter else 0)
    return [first + k for k in range(left)]


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
    return ratio**ARENA_STEEPNESS / (1 + ratio**ARENA_STEEPNESS)


SEARCHED = {"act": 14, "defend": 12, "target": 14}
"""The questions the search answers, each with its rollouts' depth (commands): which card
to play or whether to end the turn, whom to strike, whether to defend."""
MAX_CHOICES = 10
"""A question with more answers (the speed move's squares) is left to the heuristic: each
answer must be tried at least once, and a decision must stay under a second."""
TRIES = 4
"""Rollouts per answer."""


def search_budget(s: State, prompt: Prompt) -> Budget | None:
    d = s.decision
    n = len(prompt.choices)
    if d is None or not prompt.required or not 1 < n <= MAX_CHOICES or d.kind not in SEARCHED:
        return None
    return Budget(iterations=TRIES * n, depth=SEARCHED[d.kind], seconds=0.4, exploration=0.3, margin=0.05)
