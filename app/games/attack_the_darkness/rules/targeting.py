"""Action targets (AtD L88-98, L156-162): a target meets the part's side, distance and line
of sight; one target at a time up to the card's number, none required (AtD L157); an area
is a 3×2 box, every square within the distance and one in sight (AtD L159-162). An Arena
opponent first gets a defence window, then distance and sight are checked again (facts
file §20)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import ActionCard, Part, load
from app.games.attack_the_darkness.decisions import Area, Target
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.grid import Square, area_boxes, chebyshev
from app.games.attack_the_darkness.rules.defence import open_defence_window
from app.games.attack_the_darkness.rules.effects import apply_effects, play_parts
from app.games.attack_the_darkness.rules.query import (
    alive,
    can_see,
    ckey,
    combatants,
    is_enemy,
    own_turn_parts,
    pos,
    target_ok,
    who_name,
)
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import Choice

C = load()
step = RULES.step


def reach_bonus(s: State) -> int:
    if s.play is None:
        return 0
    return sum(C.resources[s.cards[r]].modifier("reach") for r in s.play.rcs)


def legal_targets(s: State, actor: str, part: Part, exclude: list[str] = ()) -> list[str]:  # type: ignore[assignment]
    extra = reach_bonus(s)
    return [who for who in combatants(s) if who not in exclude and target_ok(s, actor, part, who, extra)]


def area_ok(s: State, actor: str, part: Part, anchor: Square, orient: str, reach: int | None = None) -> bool:
    """Every square of the 3×2 box meets the distance; one open square is in LOS
    (AtD L159-162). **Decision:** a melee or reach box may hold the caster's square.
    ``reach`` overrides the reach bonus of the card being played (a hand's best, before
    paying)."""
    a = pos(s, actor)
    if a is None:
        return False
    box = area_boxes(anchor, orient)
    bonus = reach_bonus(s) if reach is None else reach
    extra = bonus if part.type == "attack" else 0
    for sq in box:
        d = chebyshev(a, sq)
        if part.distance == "ranged" and d < 2:
            return False
        if part.distance in ("melee", "reach") and d > (1 if part.distance == "melee" else 2) + extra:
            return False
    open_sq = s.open_squares()
    return any(sq in open_sq and can_see(s, a, sq) for sq in box)


def area_members(s: State, anchor: Square, orient: str, part: Part) -> list[str]:
    """Everything inside is targeted (AtD L161): attack areas skip unconscious characters,
    recovery areas heal (and wake) them (facts file §2)."""
    box = set(area_boxes(anchor, orient))
    out = []
    for who in combatants(s):
        p = pos(s, who)
        if p in box and (alive(s, who) or part.type == "recovery"):
            out.append(who)
    return out


def legal_areas(s: State, actor: str, part: Part, reach: int | None = None) -> list[tuple[Square, str]]:
    """Placements that meet the rules and hold at least one combatant (an empty one does
    nothing: not offered)."""
    a = pos(s, actor)
    if a is None:
        return []
    spots = {pos(s, w) for w in combatants(s) if alive(s, w) or part.type == "recovery"}
    anchors: set[tuple[Square, str]] = set()
    for sq in spots:
        if sq is None:
            continue
        for o, (w, h) in (("h", (3, 2)), ("v", (2, 3))):
            for i in range(w):
                for j in range(h):
                    anchors.add(((sq[0] - i, sq[1] - j), o))
    return sorted(x for x in anchors if area_ok(s, actor, part, x[0], x[1], reach))


def hand_reach(s: State, seat: int) -> int:
    """The most reach the resource cards in hand could add to an attack (AtD L126)."""
    return sum(C.resources[s.cards[r]].modifier("reach") for r in s.chars[seat].hand_r)


def attack_hits_nothing(s: State, seat: int, card: ActionCard) -> bool:
    """True when playing ``card`` now can only be wasted: every action type it resolves on
    its player's turn is an attack on enemies (or an area) and no enemy is in range and in
    sight, even with every reach the hand could pay for; and no part draws. Playing it is
    legal (AtD L157: "There is no minimum number of available targets required"), so the
    player is asked to confirm before paying."""
    me = ckey(seat)
    parts = [card.parts[i] for i in own_turn_parts(card)]
    if not parts or any(
        p.type != "attack" or p.side not in ("enemy", "area") or p.effect("draw") for p in parts
    ):
        return False
    reach = hand_reach(s, seat)
    for part in parts:
        if part.side == "area":
            for anchor, orient in legal_areas(s, me, part, reach):
                if any(is_enemy(s, me, w) for w in area_members(s, anchor, orient, part)):
                    return False
        elif any(
            is_enemy(s, me, who) and target_ok(s, me, part, who, reach) for who in combatants(s) if who != me
        ):
            return False
    return True


@step("choose_target", "seat", "part", "left", "chosen")
def choose_target(ctx: Ctx, st: Step) -> None:
    s = ctx.s
    if s.play is None or st["left"] <= 0:
        return
    part = play_parts(s)[st["part"]]
    if legal_targets(s, ckey(st["seat"]), part, st["chosen"]):
        ctx.ask(Target(seat=st["seat"], part=st["part"], left=st["left"], chosen=list(st["chosen"])))


def target_choices(s: State, d: Target) -> list[Any]:
    part = play_parts(s)[d.part]
    out = [
        Choice("target", {"who": who}, f"Target {who_name(s, who)}")
        for who in legal_targets(s, ckey(int(d.seat)), part, d.chosen)
    ]
    return [*out, Choice("done", {}, "No more targets")]


@RULES.decision(Target, target_choices)
def resolve_target(ctx: Ctx, d: Target, type_: str, args: dict[str, Any]) -> None:
    if type_ == "done":
        return
    who = args["who"]
    ctx.then(
        [
            {"op": "affect", "seat": d.seat, "part": d.part, "who": who, "defended": False},
            {
                "op": "choose_target",
                "seat": d.seat,
                "part": d.part,
                "left": d.left - 1,
                "chosen": [*d.chosen, who],
            },
        ]
    )


def area_choices(s: State, d: Area) -> list[Any]:
    part = play_parts(s)[d.part]
    out = []
    for (x, y), o in legal_areas(s, ckey(int(d.seat)), part):
        names = ", ".join(who_name(s, w) for w in area_members(s, (x, y), o, part))
        out.append(
            Choice(
                "area",
                {"x": x, "y": y, "o": o},
                f"Area at {x},{y} {'across' if o == 'h' else 'down'}: {names}",
            )
        )
    return [*out, Choice("skip", {}, "Do not place the area")]


@RULES.decision(Area, area_choices)
def resolve_area(ctx: Ctx, d: Area, type_: str, args: dict[str, Any]) -> None:
    if type_ == "skip":
        return
    s = ctx.s
    part = play_parts(s)[d.part]
    members = area_members(s, (args["x"], args["y"]), args["o"], part)
    ctx.emit("AreaPlaced", seat=d.seat, x=args["x"], y=args["y"], o=args["o"], hits=members)
    ctx.then([{"op": "affect", "seat": d.seat, "part": d.part, "who": w, "defended": True} for w in members])


@step("affect", "seat", "part", "who", "defended")
def affect(ctx: Ctx, st: Step) -> None:
    """A part's effects on one target. An Arena opponent first gets a defence window (and
    its team mates theirs, AtD L158); then distance and LOS are checked again (facts file
    §20)."""
    s = ctx.s
    seat, who = st["seat"], st["who"]
    if s.play is None or not (alive(s, who) or who.startswith("c")):
        return
    part = play_parts(s)[st["part"]]
    me = ckey(seat)
    if (
        not st["defended"]
        and who.startswith("c")
        and part.type == "attack"
        and is_enemy(s, me, who)
        and s.chars[int(who[1:])].hp > 0
    ):
        open_defence_window(ctx, me, who, dict(st) | {"defended": True})
        return
    if part.side != "area" and not target_ok(s, me, part, who, reach_bonus(s)):
        ctx.emit("Missed", attacker=me, target=who)
        return
    apply_effects(ctx, seat, part, who)
