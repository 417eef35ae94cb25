"""The tavern's games of chance, as pure scoring (DO L342-358, facts §13).

Draugr Dice: the lowest sum of five dice wins, 3s counting 0; ties go to the most 1s, then
the most 2s…; five 6s win at once ("Shooting the Moon"); the house rolls 4 dice once.
Hard Life: as close to 18 as possible without passing it; the house starts with 2 dice and
draws on 15 or less (stopping when tied at 15 with the best player), stops on 16+.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.games.dark_omen.content import Content
from app.games.dark_omen.engine import DoCtx, action
from app.games.dark_omen.rules.heroes import ap_left, ch, change, d6, spend_ap
from app.games.dark_omen.state import Hero, Question, State
from app.kernel.types import Choice


def draugr_score(dice: list[int]) -> int:
    """The sum with 3s counting zero (DO L344)."""
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


def gamble_invitations(s: State, seat: int) -> list[Choice]:
    """Players at the same place may join a game of chance (DO L342)."""
    h = s.heroes[seat]
    out = []
    for host, table in s.gambles.items():
        if seat in table.invited:
            name = s.names[int(host)]
            if ap_left(h) >= 1 and h.mp >= 1 and h.gold >= 1 and h.at == s.heroes[int(host)].at:
                out.append(
                    ch("join_gamble", seat, f"Join {name}'s game (1 AP, 1 MP, 1 gold)", host=int(host))
                )
            out.append(ch("decline_gamble", seat, f"Decline {name}'s game", host=int(host)))
    return out


def game_choices(seat: int) -> list[Choice]:
    """The two games a tavern or a village offers (DO L341-358)."""
    return [
        ch("gamble", seat, "Gamble: Draugr Dice", game="draugr"),
        ch("gamble", seat, "Gamble: Hard Life", game="hard_life"),
    ]


def host_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """The host starts the game once the others have answered (DO L342)."""
    table = s.gambles[str(h.seat)]
    return [ch("start_gamble", h.seat, f"Start the game ({len(table.players)} player(s))")]


def hard_life_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Hard Life: another die, or stand on the sum (DO L349-353)."""
    p = h.pending
    assert isinstance(p, Question)
    return [ch("draw_die", h.seat, "Roll another die"), ch("stand", h.seat, f"Stand on {sum(p.dice)}")]


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


@action("gamble")
def do_gamble(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Open a game at this table: the others here are asked to join; alone, it starts."""
    pay_to_gamble(ctx, seat)
    invited = gamblers_here(ctx, seat)
    ctx.emit("GambleOpened", seat=seat, game=args["game"], invited=invited)
    if not invited:
        start_gamble(ctx, seat)


@action("join_gamble")
def do_join_gamble(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    pay_to_gamble(ctx, seat)
    ctx.emit("GambleAnswered", seat=seat, host=args["host"], join=True)


@action("decline_gamble")
def do_decline_gamble(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit("GambleAnswered", seat=seat, host=args["host"], join=False)


@action("start_gamble")
def do_start_gamble(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    start_gamble(ctx, seat)


def start_gamble(ctx: DoCtx, host: int) -> None:
    """Everyone antes 1 gold, the house 2; turns go in seat order from the host; in Hard
    Life the house first rolls two dice and sets them aside (DO L344, L351-352)."""
    table = ctx.s.gambles[str(host)]
    players = sorted(table.players, key=lambda p: (p - host) % len(ctx.s.heroes))
    house = [d6(ctx), d6(ctx)] if table.game == "hard_life" else []
    ctx.emit("GambleStarted", host=host, players=players, ante=len(players) + 2, house=house)
    next_gambler(ctx, host)


def next_gambler(ctx: DoCtx, host: int) -> None:
    """The next player's turn, or the house's when all have played."""
    table = ctx.s.gambles[str(host)]
    left = [p for p in table.players if str(p) not in table.scores]
    if not left:
        finish_gamble(ctx, host)
        return
    seat = left[0]
    if table.game == "draugr":
        ctx.emit(
            "PendingRoll", seat=seat, kind="draugr", dice=[d6(ctx) for _ in range(5)], rolls_left=2, host=host
        )
        p = ctx.s.heroes[seat].pending
        assert isinstance(p, Question) and p.dice is not None
        if shoots_the_moon(p.dice):
            end_turn(ctx, seat)
    else:
        dice = [d6(ctx) for _ in range(3)]
        ctx.emit("PendingRoll", seat=seat, kind="hard_life", dice=dice, host=host)
        if sum(dice) == 18:  # DO L358: half the ante, rounded down, from the supply
            change(ctx, seat, "an 18 on three dice (DO L358)", gold=table.ante // 2)


def end_turn(ctx: DoCtx, seat: int) -> None:
    p = ctx.s.heroes[seat].pending
    assert isinstance(p, Question)
    host = p.host
    ctx.emit("GambleTurnEnded", seat=seat, host=host, dice=p.dice)
    ctx.emit("PendingCleared", seat=seat)
    table = ctx.s.gambles[str(host)]
    if table.game == "draugr" and shoots_the_moon(p.dice):
        finish_gamble(ctx, host)  # Shooting the Moon: no further play (DO L346)
    else:
        next_gambler(ctx, host)


def finish_gamble(ctx: DoCtx, host: int) -> None:
    """The house plays last; the winners split the ante, rounded up from the supply; a
    house win returns it to the supply (DO L347-348, L355-357)."""
    table = ctx.s.gambles[str(host)]
    scores = {int(k): v for k, v in table.scores.items()}
    if table.game == "draugr":
        moon = [p for p, dice in scores.items() if shoots_the_moon(dice)]
        house = [] if moon else [d6(ctx) for _ in range(4)]
        winners = moon[:1] if moon else draugr_winners(scores, house)
        push: list[int] = []
    else:
        totals = {p: sum(dice) for p, dice in scores.items()}
        standing = [t for t in totals.values() if t <= 18]
        house = hard_life_house(table.house, max(standing) if standing else None, lambda: d6(ctx))
        result = hard_life_result(totals, sum(house))
        winners = result or None
        push = [p for p, t in totals.items() if t == sum(house)] if result == [] else []
    ctx.emit(
        "GambleEnded",
        host=host,
        game=table.game,
        scores=table.scores,
        house=house,
        winners=winners or [],
        push=push,
    )
    for seat in table.players:
        if ctx.s.heroes[seat].pending is not None:
            ctx.emit("PendingCleared", seat=seat)
    if winners:
        share = -(-table.ante // len(winners))
        for seat in winners:
            change(ctx, seat, f"the ante ({table.game.replace('_', ' ')})", gold=share)
    for seat in push:  # a push: the tied players take their gold back (facts §13)
        change(ctx, seat, "a push: the stake back", gold=1)


@action("draw_die")
def do_draw_die(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Hard Life: one more die; 19 or more loses at once (DO L351)."""
    p = ctx.s.heroes[seat].pending
    assert isinstance(p, Question)
    dice = [*p.dice, d6(ctx)]
    ctx.emit("PendingRoll", seat=seat, kind="hard_life", dice=dice, host=p.host)
    if sum(dice) > 18:
        end_turn(ctx, seat)
