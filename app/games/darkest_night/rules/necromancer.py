"""The Necromancer's turn (DN 6.0, 9.0, 10.0, 11.1, 16.3) and the Necromancer player (DN 20.3)."""

from __future__ import annotations

from collections import deque
from functools import cache
from types import SimpleNamespace
from typing import Any

from app.games.darkest_night.content import LOCATIONS, MONASTERY, load
from app.games.darkest_night.decisions import NecromancerMove, SkullToken
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.common import (
    DARKNESS_LIMIT,
    blight_effect_active,
    blight_param_total,
    create_blight,
    draw,
    hero_name,
    raise_darkness,
    roll_dice,
)
from app.games.darkest_night.state import State
from app.kernel.types import Choice, Unavailable


def neighbours(ctx_or_state: Any, location: str) -> tuple[str, ...]:
    """Where the Necromancer may step from ``location``: never into the Monastery, so
    Mountains and Forest connect only through the Village (DN 10.0)."""
    return tuple(x for x in load().locations[location].adjacent if x != MONASTERY)


@cache
def distances(origin: str) -> dict[str, int]:
    """The Necromancer's steps from ``origin`` to every location he may enter (DN 10.0): the
    board never changes, so once per origin; callers share the dict and must not change it."""
    dist = {origin: 0}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for nxt in neighbours(None, here):
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def first_steps(origin: str, target: str, gate: bool) -> list[str]:
    """The next locations on every shortest route from ``origin`` to ``target``."""
    if origin == target:
        return [origin]
    if gate:  # a Gate makes every location adjacent (DN 11.2)
        return [target]
    to_target = distances(target)
    best = min(to_target[n] for n in neighbours(None, origin))
    return [n for n in neighbours(None, origin) if to_target[n] == best]


@step("necromancer_overflow")
def necromancer_overflow(ctx: Ctx, _: Step) -> None:
    """With 5 heroes, darkness already at 30 creates an extra Monastery blight (DN 20.2.1)."""
    if ctx.s.options["heroes"] == 5 and ctx.s.darkness >= DARKNESS_LIMIT:
        create_blight(ctx, MONASTERY, why="five heroes and darkness at 30 (DN 20.2.1)")


@step("necromancer_darkness")
def necromancer_darkness(ctx: Ctx, _: Step) -> None:
    """Raise the darkness by 1 (DN 9.0), and 1 more per Desecration (DN 11.2)."""
    raise_darkness(ctx, 1, "the Necromancer's turn (DN 9.0)")
    extra = blight_param_total(ctx, "necromancer_darkness", None)
    if extra:
        raise_darkness(ctx, extra, "Desecration")
    ctx.then([{"op": "darkness_card_hook", "hook": "necromancer_turn"}])


@step("necromancer_move")
def necromancer_move(ctx: Ctx, _: Step) -> None:
    """Roll once: compare with every hero's secrecy, then chase or follow the arrow (DN 10.0)."""
    faces = roll_dice(ctx, 1)
    ctx.emit("DiceRolled", purpose="necromancer", hero=None, faces=faces, target=None, dice=1)
    ctx.then([{"op": "necromancer_after_roll", "roll": faces[0]}])


@step("necromancer_after_roll", "roll")
def necromancer_after_roll(ctx: Ctx, st: Step) -> None:
    """A Skull Token may move him anywhere instead, after the roll (items, DN 15.0)."""
    holders = [h for h in ctx.s.living() if any(i.kind == "skull_token" and not i.locked for i in h.items)]
    if holders and not blight_effect_active(ctx, "items_disabled", None):
        seats = sorted({h.seat for h in holders})
        ctx.ask(SkullToken(seat=seats[0] if len(seats) == 1 else "any", seats=seats, roll=st["roll"]))
        return
    ctx.then([{"op": "necromancer_detect", "roll": st["roll"]}])


def skull_choices(s: State, d: SkullToken) -> list[Choice]:
    out = [Choice("let_necromancer_move", {}, f"Let him move by his roll of {d.roll}")]
    for hero in s.living():
        for item in hero.items:
            if item.kind == "skull_token" and not item.locked:
                for loc in LOCATIONS:
                    if loc != MONASTERY:
                        out.append(
                            Choice(
                                "use_skull_token",
                                {"hero": hero.id, "item": item.id, "to": loc},
                                f"{hero_name(s, hero.id)}: Skull Token, send him to the {loc}",
                            )
                        )
                break
    return out


@decision(SkullToken, skull_choices)
def resolve_skull(ctx: Ctx, d: SkullToken, type_: str, args: dict[str, Any]) -> None:
    if type_ == "let_necromancer_move":
        ctx.then([{"op": "necromancer_detect", "roll": d.roll}])
        return
    ctx.emit("ItemUsed", hero=args["hero"], item=args["item"], kind="skull_token")
    move_necromancer(ctx, args["to"], "a Skull Token")


@step("necromancer_detect", "roll")
def necromancer_detect(ctx: Ctx, st: Step) -> None:
    """Detected: heroes outside the Monastery whose secrecy is below the roll ("heroes win
    ties"); chase the closest, ties at random (DN 10.0); a Necromancer player chooses
    (DN 20.3.2)."""
    roll = st["roll"]
    s = ctx.s
    detected = [h for h in s.living() if h.location != MONASTERY and roll > h.secrecy]
    ctx.emit("HeroesDetected", roll=roll, heroes=[h.id for h in detected])
    gate = blight_effect_active(ctx, "necromancer_all_adjacent", None) > 0
    if s.necromancer_seat is not None:
        targets = necromancer_player_targets(s, detected, gate)
        if len(targets) > 1:
            ctx.ask(NecromancerMove(seat=s.necromancer_seat, targets=targets, roll=roll))
            return
        if targets:
            move_necromancer(ctx, targets[0], "the Necromancer's choice")
        return
    if detected:
        dist = distances(s.necromancer)
        if gate:
            dist = {loc: (0 if loc == s.necromancer else 1) for loc in LOCATIONS}
        nearest = min(dist[h.location] for h in detected)
        closest = sorted({h.location for h in detected if dist[h.location] == nearest})
        target = closest[0] if len(closest) == 1 else ctx.rng.choice(closest)
        options = first_steps(s.necromancer, target, gate)
        destination = options[0] if len(options) == 1 else ctx.rng.choice(sorted(options))
        move_necromancer(ctx, destination, f"chasing a hero in the {target}")
        return
    arrow = ctx.c.locations[s.necromancer].necromancer[roll - 1]
    move_necromancer(ctx, arrow, f"following the arrow for {roll}")


def necromancer_player_targets(s: State, detected: list[Any], gate: bool) -> list[str]:
    here = s.necromancer
    if detected:
        if gate:
            return sorted({h.location for h in detected})
        options: set[str] = set()
        for hero in detected:
            options.update(first_steps(here, hero.location, False))
        return sorted(options)
    occupied = {h.location for h in s.living()}
    reach = [x for x in LOCATIONS if x not in (MONASTERY, here)] if gate else list(neighbours(None, here))
    free = sorted(x for x in reach if x not in occupied)
    return free or [here]


def necromancer_move_choices(s: State, d: NecromancerMove) -> list[Choice]:
    return [
        Choice("move_necromancer", {"to": t}, f"Move to the {t}" if t != s.necromancer else "Stay")
        for t in d.targets
    ]


def necromancer_move_unavailable(s: State, d: NecromancerMove) -> list[Unavailable]:
    """Each destination the Necromancer player is not offered, with why (DN 20.3.2): a
    detected hero is chased by a shortest route (a Gate: straight to a detected hero's
    location); with none detected he moves to a location without heroes, adjacent unless
    a Gate, and must move if he can; never into the Monastery (DN 10.0). Each keeps its
    location in its ``type``, so a refused command is never given another's reason."""
    here = s.necromancer
    detected = [h for h in s.living() if h.location != MONASTERY and d.roll > h.secrecy]
    view: Any = SimpleNamespace(s=s, c=load())
    gate = blight_effect_active(view, "necromancer_all_adjacent", None) > 0
    occupied = {h.location for h in s.living()}
    adjacent = set(neighbours(None, here))
    hunted = " or ".join(f"the {loc}" for loc in sorted({h.location for h in detected}))
    out: list[Unavailable] = []
    for loc in LOCATIONS:
        if loc in d.targets:
            continue
        label, rule = ("Stay" if loc == here else f"Move to the {loc}"), "DN 20.3.2"
        if loc == MONASTERY:
            reason, rule = "he may never enter the Monastery", "DN 10.0"
        elif detected and loc == here:
            reason = f"he must move toward a hero he detected ({hunted})"
        elif detected and gate:
            reason = f"with a Gate he goes straight to a hero he detected ({hunted})"
        elif detected and loc not in adjacent:
            reason = f"not adjacent to the {here}"
        elif detected:
            reason = f"not on a shortest route to a hero he detected ({hunted})"
        elif loc == here:
            reason = "he detected no hero, so he must move while a location without heroes is in reach"
        elif loc in occupied:
            reason = "a hero is there: detecting none, he may not move onto a hero"
        elif not gate and loc not in adjacent:
            reason = f"not adjacent to the {here}"
        else:
            reason = "not in reach"
        out.append(Unavailable(f"move_necromancer:{loc}", label, reason, rule))
    return out


@decision(NecromancerMove, necromancer_move_choices, unavailable=necromancer_move_unavailable)
def resolve_necromancer_move(ctx: Ctx, d: NecromancerMove, _t: str, args: dict[str, Any]) -> None:
    move_necromancer(ctx, args["to"], "the Necromancer's choice (DN 20.3.2)")


def move_necromancer(ctx: Ctx, to: str, why: str) -> None:
    if to == MONASTERY:  # he may never enter it (DN 10.0)
        return
    ctx.emit("NecromancerMoved", **{"from": ctx.s.necromancer}, to=to, why=why)


@step("necromancer_blight")
def necromancer_blight(ctx: Ctx, _: Step) -> None:
    """Create a blight at his location (DN 11.1); darkness cards may add more."""
    ctx.then([{"op": "darkness_card_hook", "hook": "after_blight"}])
    create_blight(ctx, ctx.s.necromancer, why="the Necromancer's turn (DN 11.1)")


@step("necromancer_done")
def necromancer_done(ctx: Ctx, _: Step) -> None:
    """The Necromancer's turn is over (DN 6.0)."""
    ctx.emit("NecromancerTurnEnded", round=ctx.s.round)


@step("draw_necromancer_hand")
def draw_necromancer_hand(ctx: Ctx, _: Step) -> None:
    """The Necromancer player draws 4 map cards, hidden from the heroes (DN 20.3.1)."""
    cards = []
    for _n in range(4):
        card = draw(ctx, "map", reason="the Necromancer's hand", private_seat=ctx.s.necromancer_seat)
        if card is None:
            break
        cards.append(card)
    if cards:
        ctx.emit("HandDrawn", cards=cards, seat=ctx.s.necromancer_seat)
