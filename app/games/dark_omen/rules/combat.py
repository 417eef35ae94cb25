"""Dice battles, as pure functions (DO L399-473, facts §15): who strikes whom, in what order.

The attack roll pairs the enemy's dice and the heroes' dice highest to highest; the higher
die of a pair makes a damage roll (DR), a tie does nothing (DO L403). In a team attack each
hero contributes their highest die (two with a heroic attack, DO L432-434); hero dice are
ordered high to low, a tie going to the higher unused die, then to seat order (DO L428,
L453, L465). When the heroes have more dice than the enemy, the enemy's last die faces its
paired die and every unpaired hero die together (DO L444-449): higher, one DR hits them all;
a tie, the paired hero deals nothing and the others strike ("distract"); lower, they all
strike. An enemy die no hero die faces hits the lowest roller (DO L430), or whom the table
option says (DO L467). Enemy DRs come first, then the heroes' by die, highest first
(DO L436, L453); in a solo fight the pairs resolve from the top (DO L456-457).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

UNBLOCKED_TARGETS = ("lowest", "strongest", "weakest", "most_hp", "least_hp")
"""Whom an unblocked enemy die hits: the lowest roller (the rule, DO L430) or, as a table
option, the strongest or weakest attacker, the most or least health (DO L467)."""


@dataclass(frozen=True)
class Strike:
    """One damage roll: by the enemy against ``seats``, or by hero ``seats[0]``."""

    by: str
    """"enemy" or "hero"."""
    seats: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"by": self.by, "seats": list(self.seats)}


def ordered(contributions: dict[int, list[int]], unused: dict[int, list[int]]) -> list[tuple[int, int]]:
    """The heroes' contributed dice high to low as (seat, die): a tie goes to the higher
    unused die, then to the lower seat (DO L428, L453, L465)."""
    dice = [(seat, die) for seat, ds in contributions.items() for die in ds]

    def key(item: tuple[int, int]) -> tuple[int, int, int]:
        seat, die = item
        spare = max(unused.get(seat, []), default=0)
        return (-die, -spare, seat)

    return sorted(dice, key=key)


def contributed(rolled: list[int], heroic: bool, team: bool) -> tuple[list[int], list[int]]:
    """(the dice a hero brings, the dice left unused). Solo: all of them; in a team the
    highest one, two with a heroic attack (DO L432-434)."""
    dice = sorted(rolled, reverse=True)
    if not team:
        return dice, []
    take = 2 if heroic else 1
    return dice[:take], dice[take:]


def strikes(
    enemy: list[int],
    heroes: list[tuple[int, int]],
    *,
    solo: bool,
    unblocked_target: Any = None,
) -> list[Strike]:
    """Every DR of one attack roll, in resolution order.

    ``enemy`` is the enemy's dice (any order); ``heroes`` the heroes' dice already ordered
    (``ordered``), as (seat, die). ``unblocked_target(seats)`` picks the seat an unblocked
    enemy die hits among the heroes who rolled; by default the lowest roller, the lower seat
    on a tie."""
    e = sorted(enemy, reverse=True)
    pairs = min(len(e), len(heroes))
    enemy_hits: list[Strike] = []
    hero_hits: list[tuple[int, Strike]] = []
    sequence: list[Strike] = []
    """Solo resolution order: pair by pair from the top (DO L456-457)."""
    extra_heroes = len(heroes) > len(e)
    for i in range(pairs):
        ed = e[i]
        seat, hd = heroes[i]
        last_with_extras = extra_heroes and i == len(e) - 1
        if last_with_extras:
            group = [heroes[i], *heroes[len(e) :]]
            if ed > hd:
                hit = Strike("enemy", tuple(dict.fromkeys(s for s, _ in group)))
                enemy_hits.append(hit)
                sequence.append(hit)
            else:
                strikers = group[1:] if ed == hd else group
                for s, d in strikers:
                    hit = Strike("hero", (s,))
                    hero_hits.append((d, hit))
                    sequence.append(hit)
            continue
        if hd > ed:
            hit = Strike("hero", (seat,))
            hero_hits.append((hd, hit))
            sequence.append(hit)
        elif ed > hd:
            hit = Strike("enemy", (seat,))
            enemy_hits.append(hit)
            sequence.append(hit)
    if len(e) > len(heroes):
        rollers = list(dict.fromkeys(s for s, _ in heroes))
        for _ in e[len(heroes) :]:
            if unblocked_target is not None:
                target = unblocked_target(rollers)
            else:
                lowest = min(d for _, d in heroes)
                target = min(s for s, d in heroes if d == lowest)
            hit = Strike("enemy", (target,))
            enemy_hits.append(hit)
            sequence.append(hit)
    if solo:
        return sequence
    hero_hits.sort(key=lambda item: -item[0])
    return [*enemy_hits, *(hit for _, hit in hero_hits)]


def parse_roll(spec: str) -> tuple[int, int, int]:
    """``"d6+2"`` → (1 die, 6 sides, +2); ``"3"`` → (0, 0, 3) (a fixed value, DO L412)."""
    spec = spec.strip().lower()
    if "d" not in spec:
        return 0, 0, int(spec)
    dice, _, rest = spec.partition("d")
    sides, _, mod = rest.partition("+")
    return int(dice or 1), int(sides), int(mod or 0)


def max_face(spec: str) -> int:
    n, sides, mod = parse_roll(spec)
    return n * sides + mod
