"""The tavern's games of chance, as pure scoring (DO L342-358, facts §13).

Draugr Dice: the lowest sum of five dice wins, 3s counting 0; ties go to the most 1s, then
the most 2s…; five 6s win at once ("Shooting the Moon"); the house rolls 4 dice once.
Hard Life: as close to 18 as possible without passing it; the house starts with 2 dice and
draws on 15 or less (stopping when tied at 15 with the best player), stops on 16+.
"""

from __future__ import annotations

from collections.abc import Callable


def draugr_score(dice: list[int]) -> int:
    """The sum with 3s counting zero (DO L346)."""
    return sum(d for d in dice if d != 3)


def shoots_the_moon(dice: list[int]) -> bool:
    return len(dice) == 5 and all(d == 6 for d in dice)


def draugr_key(dice: list[int]) -> tuple[int, ...]:
    """Lower is better: the score, then fewer 1s lose to more 1s, then 2s… (DO L348)."""
    return (draugr_score(dice), *(-dice.count(face) for face in range(1, 7)))


def draugr_winners(players: dict[int, list[int]], house: list[int]) -> list[int] | None:
    """The seats that split the ante, or None when the house wins (DO L348)."""
    moon = [seat for seat, dice in players.items() if shoots_the_moon(dice)]
    if moon:
        return moon[:1]
    best = min(draugr_key(d) for d in players.values())
    if draugr_key(house) < best:
        return None
    return [seat for seat, dice in players.items() if draugr_key(dice) == best]


def hard_life_house(start: list[int], best_player: int | None, draw: Callable[[], int]) -> list[int]:
    """The house's dice: it wins as soon as it beats every player without passing 18, draws
    on 15 or less except when tied at 15 with the best player, stops on 16+ (DO L354-357)."""
    dice = list(start)
    while True:
        total = sum(dice)
        if total > 18:
            return dice
        if best_player is None or total > best_player:
            return dice
        if total >= 16 or (total == 15 and best_player == 15):
            return dice
        dice.append(draw())


def hard_life_result(players: dict[int, int], house: int) -> list[int] | None:
    """Seats that share the ante; None when the house wins; [] for a push (a house tie with
    the best player: decision, facts §13)."""
    standing = {seat: total for seat, total in players.items() if total <= 18}
    if not standing:
        return None
    best = max(standing.values())
    if house <= 18 and house > best:
        return None
    if house == best:
        return []
    return [seat for seat, total in standing.items() if total == best]
