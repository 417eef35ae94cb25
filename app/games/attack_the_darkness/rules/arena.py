"""Arena mode (AtD L287-297): initiative by cutting the action deck (lowest printed cost
first, ties cut again, AtD L290), the Arena's first round once everyone is placed, and
its end: the last team standing, or the authored 30-round limit."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import Cut
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.rules.drawing import shuffle_deck
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import Choice

C = load()
step = RULES.step


ARENA_ROUNDS = 30
"""**Decision (authored, not in the rulebook):** an Arena game ends after 30 rounds; the
team with the most HP left wins, a tie is a draw, so every game ends."""


CUT_DEPTHS = (1, 5, 10, 15, 20)


@step("arena_initiative")
def arena_initiative(ctx: Ctx, st: Step) -> None:
    ctx.ask(Cut(seat="any", seats=list(range(len(ctx.s.names)))))


def _cards(count: int) -> str:
    return "card" if count == 1 else "cards"


def cut_choices(s: State, d: Cut) -> list[Choice]:
    return [
        Choice("cut", {"seat": seat, "depth": k}, f"{s.names[seat]} cuts {k} {_cards(k)} deep")
        for seat in d.asked
        for k in CUT_DEPTHS
        if k <= len(s.chars[seat].actions)
    ]


@RULES.decision(Cut, cut_choices)
def resolve_cut(ctx: Ctx, d: Cut, _t: str, args: dict[str, Any]) -> None:
    """Every player cuts; lowest resource cost first (X counts 1, AtD L177), ties cut again
    (AtD L290); then the decks are reshuffled and players placed by initiative."""
    s = ctx.s
    seat = args["seat"]
    deck = s.chars[seat].actions
    card = C.actions[s.cards[deck[args["depth"] - 1]]]
    ctx.emit("InitiativeCut", seat=seat, id=card.id, name=card.name, cost=card.cost.total)
    left = [x for x in d.asked if x != seat]
    if left:
        ctx.ask(d.replace(seats=left))
        return
    keys = {int(k): tuple(v) for k, v in s.cuts.items()}
    tied = sorted(x for x in keys if sum(1 for y in keys.values() if y == keys[x]) > 1)
    for x in range(len(s.names)):
        shuffle_deck(ctx, x, "actions")
    if tied:
        ctx.emit("InitiativeTied", seats=tied)
        ctx.ask(Cut(seat="any", seats=tied))
        return
    order = sorted(keys, key=lambda x: keys[x])
    ctx.emit("InitiativeSet", order=order)
    # players place themselves in initiative order (AtD L290), each in its team's corner
    ctx.then([*({"op": "place_token", "seat": x} for x in order), {"op": "arena_begin"}])


@step("arena_begin")
def arena_begin(ctx: Ctx, st: Step) -> None:
    """Everyone placed: the Arena's first round (AtD L290)."""
    s = ctx.s
    ctx.emit("DangerSet", danger=0, players=len(s.names), tiles=0)
    ctx.then([{"op": "round"}])


def arena_over(ctx: Ctx, result: str, team: int | None) -> None:
    """The Arena's end: the last team standing wins (``arena``, facts file §15), or after
    ``ARENA_ROUNDS`` the team with the most HP left (``arena_time``; a tie is a draw)."""
    s = ctx.s
    if result == "arena_time":
        hp: dict[int, int] = {}
        for i, ch in enumerate(s.chars):
            hp[s.teams[i]] = hp.get(s.teams[i], 0) + ch.hp
        top = max(hp.values())
        best = [t for t, v in hp.items() if v == top]
        ctx.emit("EncounterEnded", result="win", tiles_next=s.tiles_next)
        if len(best) > 1:
            ctx.emit(
                "GameEnded", result="draw", reason="time: the Arena's leading teams have equal HP", winners=[]
            )
            return
        winners = [i for i, t in enumerate(s.teams) if t == best[0]]
        names = ", ".join(s.names[i] for i in winners)
        ctx.emit("GameEnded", result="win", reason=f"time: {names} keep the most HP", winners=winners)
        return
    ctx.emit("EncounterEnded", result="win", tiles_next=s.tiles_next)
    winners = [i for i, t in enumerate(s.teams) if t == team]
    names = ", ".join(s.names[i] for i in winners) or "nobody"
    ctx.emit(
        "GameEnded",
        result="win" if winners else "draw",
        reason=f"last team standing: {names}",
        winners=winners,
    )
