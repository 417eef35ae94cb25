"""After the fight: the end of an encounter, clearing the room (AtD L276-282), character
advancement (AtD L283-286), the end of a dungeon and campaigns (AtD L237-238, L250), Arena
initiative (AtD L290) and the checks that end an encounter or the game."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness import query as q
from app.games.attack_the_darkness.decisions import (
    Advance,
    ClearRoom,
    Cut,
    Explore,
    KeepEquipment,
    Ready,
    Trade,
)
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.rules import (
    C,
    damage,
    draw_n,
    draw_up,
    heal,
    reshuffle_dungeon,
    shuffle_deck,
    who_name,
)
from app.kernel.flow import Step
from app.kernel.types import Choice

step = RULES.step


def half_up(n: int) -> int:
    return (n + 1) // 2


# -- the end of an encounter --------------------------------------------------------------------------


def check_end(ctx: Ctx) -> None:
    """Before every step: the encounter is won the moment no hostile monster remains, lost
    when every character is unconscious (AtD L265); in Arena the last team standing wins
    (facts file §15)."""
    s = ctx.s
    if not s.in_encounter or s.result is not None or s.round == 0:
        return
    if s.agenda and s.agenda[0].get("op") in ("encounter_over",):
        return
    if s.arena:
        teams = {s.teams[i] for i, ch in enumerate(s.chars) if ch["hp"] > 0}
        if len(teams) <= 1:
            winner = next(iter(teams), None)
            s.decision, s.agenda = None, [{"op": "encounter_over", "result": "arena", "team": winner}]
        return
    if all(ch["hp"] <= 0 for ch in s.chars):
        s.decision, s.agenda = None, [{"op": "encounter_over", "result": "loss", "team": None}]
    elif not any(not q.dominated(s, m) for m in s.monsters):
        s.decision, s.agenda = None, [{"op": "encounter_over", "result": "win", "team": None}]


@step("encounter_over", "result", "team")
def encounter_over(ctx: Ctx, st: Step) -> None:
    s = ctx.s
    while s.play is not None:  # a play cut short by the end, and any it interrupted
        ctx.emit("PlayFinished", seat=s.play["seat"], until=0, on=None)
    result = st["result"]
    if result == "arena_time":
        hp: dict[int, int] = {}
        for i, ch in enumerate(s.chars):
            hp[s.teams[i]] = hp.get(s.teams[i], 0) + ch["hp"]
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
    if result == "arena":
        ctx.emit("EncounterEnded", result="win", tiles_next=s.tiles_next)
        team = st["team"]
        winners = [i for i, t in enumerate(s.teams) if t == team]
        names = ", ".join(s.names[i] for i in winners) or "nobody"
        ctx.emit(
            "GameEnded",
            result="win" if winners else "draw",
            reason=f"last team standing: {names}",
            winners=winners,
        )
        return
    ctx.emit("EncounterEnded", result=result, tiles_next=s.tiles_next + (1 if result == "win" else 0))
    if result == "loss":
        ctx.emit("DungeonEnded", result="loss", next=None, name=s.dungeon_names[s.dungeon_index])
        ctx.emit(
            "GameEnded",
            result="loss",
            reason="every character fell unconscious: the characters are dead (AtD L265)",
        )
        return
    ctx.then([{"op": "clear_room"}])


# -- clearing the room (AtD L276-282) -------------------------------------------------------------


@step("clear_room")
def clear_room(ctx: Ctx, st: Step) -> None:
    s = ctx.s
    seats = [i for i in s.order if s.chars[i]["hp"] > 0]
    ctx.ask(ClearRoom(seat="any", seats=seats, chosen={}))


def clear_choices(s: Any, d: ClearRoom) -> list[Choice]:
    out = []
    down = [i for i, ch in enumerate(s.chars) if ch["hp"] <= 0]
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
            if any(not t["stairs"] and not t["flipped"] for t in s.tiles):
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
        heal(ctx, q.ckey(target), half_up(s.chars[target]["max_hp"]))
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
    if st["discard"] and (ch["hand_a"] or ch["hand_r"]):
        ctx.emit("HandDiscarded", seat=st["seat"], cards=ch["hand_a"] + ch["hand_r"])
    draw_up(ctx, st["seat"])


@step("rest", "seat", "reshuffle")
def rest(ctx: Ctx, st: Step) -> None:
    """Regain half the lost HP rounded up; may reshuffle the discards; draw an extra AC and
    RC (AtD L279)."""
    s = ctx.s
    seat = st["seat"]
    ch = s.chars[seat]
    heal(ctx, q.ckey(seat), half_up(ch["max_hp"] - ch["hp"]))
    if st["reshuffle"]:
        shuffle_deck(ctx, seat, "actions")
        shuffle_deck(ctx, seat, "resources")
    draw_n(ctx, seat, 1, 1)


# -- trades between resting players (AtD L207, L279) ----------------------------------------------


@step("trades", "seats")
def trades(ctx: Ctx, st: Step) -> None:
    """Once the rests are done, resting players may trade or make gifts of equipment
    between themselves (AtD L279); the trades stay open until each of them is done (facts
    file §20)."""
    seats = list(st["seats"])
    ctx.ask(Trade(seat="any", seats=seats, traders=seats))


def slots_used(s: Any, items: list[str]) -> int:
    return sum(C.equipment[s.cards[e]].slots for e in items)


def trade_fits(s: Any, seat: int, other: int, give: str | None, take: str | None) -> bool:
    """Both keep to their 2 slots after the exchange (AtD L206)."""
    mine = [e for e in s.chars[seat]["equipment"] if e != give] + ([take] if take else [])
    theirs = [e for e in s.chars[other]["equipment"] if e != take] + ([give] if give else [])
    return slots_used(s, mine) <= 2 and slots_used(s, theirs) <= 2


def item_name(s: Any, item: str | None) -> str:
    return C.equipment[s.cards[item]].name if item else "nothing"


def trade_choices(s: Any, d: Trade) -> list[Choice]:
    if d.offer is not None:
        o = d.offer
        what = f"{s.names[o['seat']]} gives {item_name(s, o['give'])} for {item_name(s, o['take'])}"
        return [Choice("accept", {}, f"Accept: {what}"), Choice("decline", {}, f"Decline: {what}")]
    out = []
    for seat in d.asked:
        for other in d.traders:
            if other == seat:
                continue
            gives = [*s.chars[seat]["equipment"], None]
            takes = [*s.chars[other]["equipment"], None]
            for give in gives:
                for take in takes:
                    if (give is None and take is None) or not trade_fits(s, seat, other, give, take):
                        continue
                    label = (
                        f"{s.names[seat]} offers {s.names[other]} {item_name(s, give)} "
                        f"for {item_name(s, take)}"
                    )
                    out.append(
                        Choice("propose", {"seat": seat, "to": other, "give": give, "take": take}, label)
                    )
        out.append(Choice("done", {"seat": seat}, f"{s.names[seat]} is done trading"))
    return out


@RULES.decision(Trade, trade_choices)
def resolve_trade(ctx: Ctx, d: Trade, type_: str, args: dict[str, Any]) -> None:
    """A proposal goes to the other resting player, who accepts (the items change hands at
    once) or declines; ``done`` leaves the trading; it ends when fewer than two remain."""
    traders = list(d.traders)
    if type_ == "propose":
        offer = {"seat": args["seat"], "to": args["to"], "give": args["give"], "take": args["take"]}
        ctx.emit("TradeProposed", **offer)
        ctx.ask(Trade(seat=offer["to"], traders=traders, offer=offer))
        return
    if type_ == "accept":
        assert d.offer is not None
        ctx.emit("EquipmentTraded", **d.offer)
    elif type_ == "decline":
        assert d.offer is not None
        ctx.emit("TradeDeclined", **d.offer)
    else:
        seat = args["seat"]
        ctx.emit("TradingDone", seat=seat)
        traders.remove(seat)
    if len(traders) > 1:
        ctx.ask(Trade(seat="any", seats=traders, traders=traders))


@step("explore", "seat", "missed")
def explore(ctx: Ctx, st: Step) -> None:
    ctx.ask(Explore(seat=st["seat"], missed=st["missed"]))


def explore_choices(s: Any, d: Explore) -> list[Choice]:
    out = [
        Choice("flip", {"tile": k}, f"Flip map tile {k}")
        for k, t in enumerate(s.tiles)
        if not t["stairs"] and not t["flipped"]
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
        inst = tile["card"]
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
        damage(ctx, q.ckey(seat), n, 0, source="mystery")
    elif op == "heal_party":
        for i in range(len(s.chars)):
            if s.chars[i]["hp"] > 0:
                heal(ctx, q.ckey(i), n)
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


def keep_choices(s: Any, d: KeepEquipment) -> list[Choice]:
    seat = int(d.seat)
    ch = s.chars[seat]
    item = C.equipment[s.cards[d.card]]
    used = sum(C.equipment[s.cards[e]].slots for e in ch["equipment"])
    out = []
    if used + item.slots <= 2:
        out.append(Choice("keep", {"drop": []}, f"Keep {item.name}"))
    else:
        for e in ch["equipment"]:
            if used - C.equipment[s.cards[e]].slots + item.slots <= 2:
                out.append(
                    Choice(
                        "keep", {"drop": [e]}, f"Keep {item.name}, dropping {C.equipment[s.cards[e]].name}"
                    )
                )
        if not out and item.slots <= 2:
            out.append(
                Choice("keep", {"drop": list(ch["equipment"])}, f"Keep {item.name}, dropping everything")
            )
    return [*out, Choice("leave", {}, f"Leave {item.name}")]


@RULES.decision(KeepEquipment, keep_choices)
def resolve_keep(ctx: Ctx, d: KeepEquipment, type_: str, args: dict[str, Any]) -> None:
    s = ctx.s
    if type_ == "keep":
        ctx.emit("EquipmentKept", seat=d.seat, card=d.card, id=s.cards[d.card], dropped=list(args["drop"]))
    else:
        ctx.emit("EquipmentLeft", seat=d.seat, card=d.card)


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


@step("advance_seat", "seat")
def advance_seat(ctx: Ctx, st: Step) -> None:
    """Draw 3 + 1 per advancement held, keep 1 (AtD L284-285); capped at the cards left."""
    s = ctx.s
    seat = st["seat"]
    n = min(3 + len(s.chars[seat]["advancements"]), len(s.adv_deck))
    if n <= 0:
        return
    ctx.emit("AdvancementsDrawn", seat=seat, n=n, cards=s.adv_deck[:n])
    ctx.ask(Advance(seat=seat))


def advance_choices(s: Any, d: Advance) -> list[Choice]:
    seat = int(d.seat)
    held = {s.cards[a] for a in s.chars[seat]["advancements"]}
    out = []
    seen: set[str] = set()
    drawn = s.adv_draw.get(str(seat), [])
    for inst in drawn:
        adv = C.advancements[s.cards[inst]]
        if adv.id in seen or (adv.id in held and not adv.stacks):
            continue
        seen.add(adv.id)
        out.append(Choice("keep", {"card": inst}, f"Keep {adv.name} (danger {adv.danger})"))
    if not out and drawn:
        out.append(Choice("keep", {"card": drawn[0]}, f"Keep {C.advancements[s.cards[drawn[0]]].name}"))
    return out


@RULES.decision(Advance, advance_choices)
def resolve_advance(ctx: Ctx, d: Advance, _t: str, args: dict[str, Any]) -> None:
    s = ctx.s
    adv = C.advancements[s.cards[args["card"]]]
    ctx.emit("AdvancementKept", seat=d.seat, card=args["card"], id=adv.id, effects=list(adv.effects))
    pile = list(s.adv_deck)
    ctx.rng.shuffle(pile)
    ctx.emit("DeckShuffled", deck="advancement", order=pile, n=len(pile))


@step("next_encounter")
def next_encounter(ctx: Ctx, st: Step) -> None:
    s = ctx.s
    if s.encounter + 1 < s.encounters:
        ctx.then([{"op": "begin_encounter", "index": s.encounter + 1}])
        return
    last = s.dungeon_index + 1 >= len(s.dungeon_names)
    name = s.dungeon_names[s.dungeon_index]
    ctx.emit("DungeonEnded", result="win", next=None if last else s.dungeon_index + 1, name=name)
    if last:
        reason = (
            f"{name} is cleared"
            if len(s.dungeon_names) == 1
            else f"the campaign of {len(s.dungeon_names)} dungeons is won"
        )
        ctx.emit("GameEnded", result="win", reason=reason, winners=list(range(len(s.names))))
        return
    ctx.ask(Ready(seat="any", seats=list(range(len(s.names))), next_dungeon=s.dungeon_index))


def ready_choices(s: Any, d: Ready) -> list[Choice]:
    return [
        Choice("ready", {"seat": seat}, f"{s.names[seat]} is ready for {s.dungeon_names[d.next_dungeon]}")
        for seat in d.asked
    ]


@RULES.decision(Ready, ready_choices)
def resolve_ready(ctx: Ctx, d: Ready, _t: str, args: dict[str, Any]) -> None:
    ctx.emit("ReadyForDungeon", seat=args["seat"])
    left = [x for x in d.asked if x != args["seat"]]
    if left:
        ctx.ask(d.replace(seats=left))
    else:
        ctx.then([{"op": "begin_dungeon", "index": d.next_dungeon}])


# -- Arena initiative (AtD L288-290) -------------------------------------------------------------


CUT_DEPTHS = (1, 5, 10, 15, 20)


@step("arena_initiative")
def arena_initiative(ctx: Ctx, st: Step) -> None:
    ctx.ask(Cut(seat="any", seats=list(range(len(ctx.s.names)))))


def _cards(count: int) -> str:
    return "card" if count == 1 else "cards"


def cut_choices(s: Any, d: Cut) -> list[Choice]:
    return [
        Choice("cut", {"seat": seat, "depth": k}, f"{s.names[seat]} cuts {k} {_cards(k)} deep")
        for seat in d.asked
        for k in CUT_DEPTHS
        if k <= len(s.chars[seat]["actions"])
    ]


@RULES.decision(Cut, cut_choices)
def resolve_cut(ctx: Ctx, d: Cut, _t: str, args: dict[str, Any]) -> None:
    """Every player cuts; lowest resource cost first (X counts 1, AtD L177), ties cut again
    (AtD L290); then the decks are reshuffled and players placed by initiative."""
    s = ctx.s
    seat = args["seat"]
    deck = s.chars[seat]["actions"]
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


def schedule(ctx: Ctx) -> None:
    """The round structure: while an encounter runs, the next round (AtD L264)."""
    if ctx.s.in_encounter:
        ctx.later([{"op": "round"}])
        return
    raise RuntimeError("attack_the_darkness: nothing scheduled outside an encounter without a decision")


__all__ = ["check_end", "schedule", "who_name"]
