"""Clearing the room (AtD L276-282): every conscious player revives, rests or explores;
discards and draws (AtD L277), rests heal half the lost HP (AtD L279), explorers flip
tiles or dig greedily (AtD L280-281) and resolve mysteries; then the map is cleared and,
after every second success, advancement (AtD L284)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import ClearRoom, Explore, KeepEquipment
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.rules.drawing import draw_n, draw_up, shuffle_deck
from app.games.attack_the_darkness.rules.encounter_map import reshuffle_dungeon
from app.games.attack_the_darkness.rules.health import damage, heal
from app.games.attack_the_darkness.rules.query import ckey
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import Choice

C = load()
step = RULES.step


def half_up(n: int) -> int:
    return (n + 1) // 2


@step("clear_room")
def clear_room(ctx: Ctx, st: Step) -> None:
    s = ctx.s
    seats = [i for i in s.order if s.chars[i].hp > 0]
    ctx.ask(ClearRoom(seat="any", seats=seats, chosen={}))


def clear_choices(s: State, d: ClearRoom) -> list[Choice]:
    out = []
    down = [i for i, ch in enumerate(s.chars) if ch.hp <= 0]
    for seat in d.asked:
        for discard in (False, True):
            tail = ", discarding the hand first" if discard else ""
            out.append(
                Choice(
                    "rest",
                    {"seat": seat, "discard": discard, "reshuffle": True},
                    f"{s.names[seat]} rests (reshuffle){tail}",
                )
            )
            out.append(
                Choice(
                    "rest",
                    {"seat": seat, "discard": discard, "reshuffle": False},
                    f"{s.names[seat]} rests{tail}",
                )
            )
            if any(not t.stairs and not t.flipped for t in s.tiles):
                out.append(
                    Choice("explore", {"seat": seat, "discard": discard}, f"{s.names[seat]} explores{tail}")
                )
            for other in down:
                out.append(
                    Choice(
                        "revive",
                        {"seat": seat, "discard": discard, "target": other},
                        f"{s.names[seat]} revives {s.names[other]}{tail}",
                    )
                )
    return out


@RULES.decision(ClearRoom, clear_choices)
def resolve_clear(ctx: Ctx, d: ClearRoom, type_: str, args: dict[str, Any]) -> None:
    """A revive resolves at once and brings its target in; once all have chosen, rests
    then explores resolve in marching order (facts file §20)."""
    s = ctx.s
    seat = args["seat"]
    chosen = dict(d.chosen)
    chosen[str(seat)] = {
        "action": type_,
        "discard": bool(args["discard"]),
        "reshuffle": bool(args.get("reshuffle")),
    }
    ctx.emit("RoomChoice", seat=seat, action=type_, target=args.get("target"))
    left = [x for x in d.asked if x != seat]
    if type_ == "revive":
        target = args["target"]
        heal(ctx, ckey(target), half_up(s.chars[target].max_hp))
        left.append(target)
    if left:
        ctx.ask(d.replace(seats=left, chosen=chosen))
        return
    steps: list[Step] = []
    for x in s.order:
        pick = chosen.get(str(x))
        if pick is None:
            continue
        steps.append({"op": "room_draw", "seat": x, "discard": pick["discard"]})
    for x in s.order:
        pick = chosen.get(str(x))
        if pick and pick["action"] == "rest":
            steps.append({"op": "rest", "seat": x, "reshuffle": pick["reshuffle"]})
    resters = [x for x in s.order if (chosen.get(str(x)) or {}).get("action") == "rest"]
    if len(resters) > 1:
        steps.append({"op": "trades", "seats": resters})
    for x in s.order:
        pick = chosen.get(str(x))
        if pick and pick["action"] == "explore":
            steps.append({"op": "explore", "seat": x, "missed": False})
    steps.append({"op": "after_clearing"})
    ctx.then(steps)


@step("room_draw", "seat", "discard")
def room_draw(ctx: Ctx, st: Step) -> None:
    """Each player may discard and draw as in an end step (AtD L277)."""
    ch = ctx.s.chars[st["seat"]]
    if st["discard"] and (ch.hand_a or ch.hand_r):
        ctx.emit("HandDiscarded", seat=st["seat"], cards=ch.hand_a + ch.hand_r)
    draw_up(ctx, st["seat"])


@step("rest", "seat", "reshuffle")
def rest(ctx: Ctx, st: Step) -> None:
    """Regain half the lost HP rounded up; may reshuffle the discards; draw an extra AC and
    RC (AtD L279)."""
    s = ctx.s
    seat = st["seat"]
    ch = s.chars[seat]
    heal(ctx, ckey(seat), half_up(ch.max_hp - ch.hp))
    if st["reshuffle"]:
        shuffle_deck(ctx, seat, "actions")
        shuffle_deck(ctx, seat, "resources")
    draw_n(ctx, seat, 1, 1)


@step("explore", "seat", "missed")
def explore(ctx: Ctx, st: Step) -> None:
    ctx.ask(Explore(seat=st["seat"], missed=st["missed"]))


def explore_choices(s: State, d: Explore) -> list[Choice]:
    out = [
        Choice("flip", {"tile": k}, f"Flip map tile {k}")
        for k, t in enumerate(s.tiles)
        if not t.stairs and not t.flipped
    ]
    if d.missed and not out and (s.dungeon_deck or s.dungeon_discard):
        out.append(Choice("dig", {}, "Dig greedily"))
    return [*out, Choice("stop", {}, "Stop exploring")]


@RULES.decision(Explore, explore_choices)
def resolve_explore(ctx: Ctx, d: Explore, type_: str, args: dict[str, Any]) -> None:
    s = ctx.s
    seat = int(d.seat)
    if type_ == "stop":
        return
    if type_ == "flip":
        tile = s.tiles[args["tile"]]
        inst = tile.card
        ctx.emit("TileFlipped", seat=seat, tile=args["tile"], card=inst, id=s.cards[inst])
        if not found(ctx, seat, inst, "tile"):
            ctx.ask(Explore(seat=seat, missed=True))
        return
    # Dig greedily: flip the dungeon deck until equipment or a mystery; monsters seed the
    # next encounter at half their danger (AtD L281).
    seeded = 0
    while True:
        if not s.dungeon_deck:
            if not s.dungeon_discard:
                break
            reshuffle_dungeon(ctx)
        inst = s.dungeon_deck[0]
        card = s.cards[inst]
        if C.dungeon_kind(card) == "monster":
            ctx.emit("DungeonCardRevealed", card=inst, id=card, source="deck", to="seed")
            mon = C.monsters[card]
            if not mon.boss_set or mon.boss_part == 1:
                seeded += mon.danger
            continue
        ctx.emit("DungeonCardRevealed", card=inst, id=card, source="deck", to="dug")
        if seeded:
            ctx.emit("SeedAdded", danger=seeded)
        found(ctx, seat, inst, "dig")
        return
    if seeded:
        ctx.emit("SeedAdded", danger=seeded)


def found(ctx: Ctx, seat: int, inst: str, where: str) -> bool:
    """Equipment may be kept; a mystery is resolved (AtD L280)."""
    s = ctx.s
    card = s.cards[inst]
    kind = C.dungeon_kind(card)
    if kind == "equipment":
        ctx.ask(KeepEquipment(seat=seat, card=inst))
        return True
    if kind == "mystery":
        ctx.emit("MysteryResolved", seat=seat, card=inst, id=card, name=C.mysteries[card].name)
        for e in C.mysteries[card].effects:
            mystery_effect(ctx, seat, e)
        return True
    return False


def mystery_effect(ctx: Ctx, seat: int, e: dict[str, Any]) -> None:
    s = ctx.s
    op, n = e["op"], int(e["n"])
    if op == "lose_hp":
        damage(ctx, ckey(seat), n, 0, source="mystery")
    elif op == "heal_party":
        for i in range(len(s.chars)):
            if s.chars[i].hp > 0:
                heal(ctx, ckey(i), n)
    elif op == "draw":
        draw_n(ctx, seat, n, n)
    elif op == "advancement":
        ctx.then([{"op": "advance_seat", "seat": seat}])
    elif op == "find_equipment":
        for inst in list(s.dungeon_deck):
            if C.dungeon_kind(s.cards[inst]) == "equipment":
                ctx.emit("DungeonCardRevealed", card=inst, id=s.cards[inst], source="deck", to="dug")
                ctx.ask(KeepEquipment(seat=seat, card=inst))
                return
    elif op == "ambush":
        # The next N monster cards seed the next encounter at full danger (facts file §21).
        got, danger = 0, 0
        for inst in list(s.dungeon_deck):
            if got >= n:
                break
            card = s.cards[inst]
            if C.dungeon_kind(card) == "monster" and not C.monsters[card].boss_set:
                ctx.emit("DungeonCardRevealed", card=inst, id=card, source="deck", to="seed")
                got += 1
                danger += 2 * C.monsters[card].danger
        if danger:
            ctx.emit("SeedAdded", danger=danger)


@step("after_clearing")
def after_clearing(ctx: Ctx, st: Step) -> None:
    """Map tiles go to the discard; after every second success, advancement (AtD L284);
    then the next encounter, or the dungeon ends (AtD L237)."""
    s = ctx.s
    ctx.emit("MapCleared")
    steps: list[Step] = []
    if not s.arena and s.successes % 2 == 0:
        steps += [{"op": "advance_seat", "seat": seat} for seat in s.order]
    steps.append({"op": "next_encounter"})
    ctx.then(steps)
