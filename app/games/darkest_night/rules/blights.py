"""Blights (DN 11.0): creating them from the map deck or the Necromancer player's hand
(DN 11.1, 20.3.3), their effects at the start and end of turns and on entering and leaving
(DN 11.2), which of them may be attacked (DN 8.0, 11.2) and destroying them (DN 11.3)."""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.content import MONASTERY, load
from app.games.darkest_night.decisions import ChooseBlightType, OrderEffects, PlayMapCard
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.common import (
    automatic,
    blight_destination,
    blight_effect_active,
    blight_param_total,
    darkness_rule,
    discard,
    draw,
    every_blight,
    hero_name,
    lose,
    place_blight,
    stock_of,
    type_of,
)
from app.games.darkest_night.rules.items import can_receive, relic_count_this_turn
from app.games.darkest_night.rules.powers import bonus_mods, spec
from app.games.darkest_night.state import Hero, State
from app.kernel.types import Choice

MAX_MAP_TRIES = 3


@step("create_blight_at", "location", "type", "why")
def create_blight_at(ctx: Ctx, st: Step) -> None:
    """Create a blight now: check where it goes, then draw map cards until one names a
    blight still in the stock; after 3 misses, any blight of the players' choice (DN 11.1).
    A Necromancer player plays from his hand instead (DN 20.3.3)."""
    location = blight_destination(ctx, st["location"])
    if location is None:
        return
    if st.get("type"):
        place_blight(ctx, location, st["type"], st["why"])
        return
    if ctx.s.necromancer_seat is not None:
        ctx.then([{"op": "necromancer_plays_blight", "location": location, "why": st["why"]}])
        return
    for _ in range(MAX_MAP_TRIES):
        card = draw(ctx, "map", reason=f"a blight for the {location}")
        if card is None:
            return  # no map cards at all: the instruction is ignored (DN 19.1)
        maybe_increased_quest(ctx, card)
        blight_type = ctx.c.map_cards[card].blights[location]
        discard(ctx, "map", card)
        if stock_of(ctx, blight_type) > 0:
            place_blight(ctx, location, blight_type, st["why"])
            return
        ctx.emit("BlightUnavailable", type=blight_type, card=card)
    ask_blight_type(ctx, location, st["why"])


def ask_blight_type(ctx: Ctx, location: str, why: str) -> None:
    options = [b for b in ctx.c.blights if stock_of(ctx, b) > 0]
    if options:
        seats = sorted({h.seat for h in ctx.s.living()})
        ctx.ask(
            ChooseBlightType(
                seat=seats[0] if len(seats) == 1 else "any",
                seats=seats,
                location=location,
                why=why,
                options=options,
            )
        )


def maybe_increased_quest(ctx: Ctx, card: str) -> None:
    """Increased Quests: the first map card of each Necromancer turn with a quest symbol
    brings a quest there (DN 20.1.6)."""
    s = ctx.s
    if not s.options.get("increased_quests") or s.options.get("no_quests") or s.phase != "necromancer":
        return
    if s.quest_symbol_checked:
        return
    quest_location = ctx.c.map_cards[card].quest
    ctx.emit("QuestSymbolChecked", card=card, location=quest_location or None)
    if quest_location:
        ctx.later([{"op": "place_quest", "location": quest_location, "why": "Increased Quests (DN 20.1.6)"}])


def blight_type_choices(s: State, d: ChooseBlightType) -> list[Choice]:
    return [
        Choice(
            "choose_blight_type",
            {"type": t},
            f"Create {t} in the {d.location}",
            "three map cards in a row named blights out of stock (DN 11.1)",
        )
        for t in d.options
    ]


@decision(ChooseBlightType, blight_type_choices)
def resolve_blight_type(ctx: Ctx, d: ChooseBlightType, _t: str, args: dict[str, Any]) -> None:
    ctx.then([{"op": "create_blight_at", "location": d.location, "why": d.why, "type": args["type"]}])


@step("necromancer_plays_blight", "location", "redrawn", "why")
def necromancer_plays_blight(ctx: Ctx, st: Step) -> None:
    """The Necromancer player plays a map card for the blight (DN 20.3.3)."""
    s = ctx.s
    if not s.hand:
        ctx.then([{"op": "draw_necromancer_hand"}, dict(st)])
        return
    legal = [c for c in s.hand if stock_of(ctx, ctx.c.map_cards[c].blights[st["location"]]) > 0]
    if not legal:
        if st.get("redrawn"):
            options = [b for b in ctx.c.blights if stock_of(ctx, b) > 0]
            seats = sorted({h.seat for h in s.living()})
            ctx.ask(
                ChooseBlightType(
                    seat=seats[0] if len(seats) == 1 else "any",
                    seats=seats,
                    location=st["location"],
                    why=st["why"],
                    options=options,
                )
            )
            return
        ctx.emit("HandDiscarded", cards=list(s.hand))
        ctx.then([{"op": "draw_necromancer_hand"}, dict(st) | {"redrawn": True}])
        return
    ctx.ask(PlayMapCard(seat=s.necromancer_seat, location=st["location"], why=st["why"]))


def play_card_choices(s: State, d: PlayMapCard) -> list[Choice]:
    content = load()
    out = []
    for card in s.hand:
        blight_type = content.map_cards[card].blights[d.location]
        in_play = sum(1 for bs in s.blights.values() for b in bs if b.type == blight_type)
        if content.blights[blight_type].tokens - in_play > 0:
            out.append(
                Choice(
                    "play_map_card",
                    {"card": card},
                    f"Play {blight_type} in the {d.location}",
                    content.blights[blight_type].text,
                )
            )
    return out


@decision(PlayMapCard, play_card_choices)
def resolve_play_card(ctx: Ctx, d: PlayMapCard, _t: str, args: dict[str, Any]) -> None:
    card = args["card"]
    ctx.emit("HandCardPlayed", card=card, location=d.location)
    maybe_increased_quest(ctx, card)
    discard(ctx, "map", card)
    ctx.then(
        [
            {
                "op": "create_blight_at",
                "location": d.location,
                "why": d.why,
                "type": ctx.c.map_cards[card].blights[d.location],
            }
        ]
    )


# -- effects on heroes (DN 11.2) --------------------------------------------------------


def hook_groups(ctx: Ctx, hero: Hero, hook: str) -> list[dict[str, Any]]:
    """Power effects that happen at this moment, one group each (labelled by the power)."""
    groups = []
    for mod in bonus_mods(ctx, hero):
        if mod["op"] == "on" and mod.get("hook") == hook:
            steps = [dict(e) | {"hero": hero.id, "power": mod["power"]} for e in mod.get("effects", ())]
            groups.append({"label": spec(ctx, mod["power"]).name, "steps": steps})
    return groups


@step("start_of_turn_effects", "hero")
def start_of_turn_effects(ctx: Ctx, st: Step) -> None:
    """Start of turn (DN 6.0): the Necromancer here costs 1 secrecy (DN 10.0), each Holy
    Relic carried 1 (DN 15.2), Oblivion a power (DN 11.2), and powers' start-of-turn
    effects; the player orders simultaneous effects (DN 14.3.1)."""
    hero = ctx.s.heroes[st["hero"]]
    groups: list[dict[str, Any]] = []
    if ctx.s.necromancer == hero.location and not is_monastery(hero.location):
        groups.append(
            {
                "label": "The Necromancer is here: lose 1 secrecy",
                "loss": True,
                "steps": [
                    {
                        "op": "lose_secrecy",
                        "hero": hero.id,
                        "n": 1,
                        "why": "the Necromancer is here (DN 10.0)",
                    }
                ],
            }
        )
    relics = relic_count_this_turn(ctx.s, hero)
    if relics:
        groups.append(
            {
                "label": "Carrying a Holy Relic: lose 1 secrecy",
                "loss": True,
                "steps": [
                    {
                        "op": "lose_secrecy",
                        "hero": hero.id,
                        "n": relics,
                        "why": "carrying a Holy Relic (DN 15.2)",
                    }
                ],
            }
        )
    for _ in range(blight_effect_active(ctx, "start_turn_exhaust_power", hero.location, hero=hero)):
        groups.append(
            {
                "label": "Oblivion: exhaust a power",
                "steps": [{"op": "exhaust_power", "hero": hero.id, "n": 1, "why": "Oblivion"}],
            }
        )
    groups += hook_groups(ctx, hero, "turn_start")
    ctx.then(
        [
            {"op": "simultaneous", "hero": hero.id, "groups": groups},
            {"op": "darkness_card_hook", "hook": "turn_start", "hero": hero.id},
        ]
    )


@step("end_of_turn_effects", "hero")
def end_of_turn_effects(ctx: Ctx, st: Step) -> None:
    """End of turn (DN 6.0): Spies cost 1 secrecy, each monster blight here brings a
    monster to face (DN 11.2), powers' end-of-turn effects; the player orders them
    (DN 14.3.1); then a whole turn in the Monastery rests (DN 19.2)."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead:
        return
    groups: list[dict[str, Any]] = []
    spies = blight_param_total(ctx, "end_turn_lose_secrecy", hero.location, hero=hero)
    if spies:
        groups.append(
            {
                "label": f"Spies: lose {spies} secrecy",
                "loss": True,
                "steps": [{"op": "lose_secrecy", "hero": hero.id, "n": spies, "why": "Spies"}],
            }
        )
    if not hero.flags.get("ignore_blights"):
        for blight in ctx.s.blights.get(hero.location, []):
            spec = ctx.c.blights[blight.type]
            if spec.monster is None:
                continue
            foe = {
                "name": spec.monster.name,
                "strength": spec.monster.strength,
                "awareness": spec.monster.awareness,
            }
            groups.append(
                {
                    "label": f"Face a monster of the {blight.type}",
                    "steps": [
                        {
                            "op": "combat",
                            "hero": hero.id,
                            "vs": "monster",
                            "foe": foe,
                            "fail": list(spec.monster_fail),
                            "win": [],
                            "why": f"a monster of the {blight.type}",
                        }
                    ],
                }
            )
    groups += hook_groups(ctx, hero, "turn_end")
    ctx.then(
        [{"op": "simultaneous", "hero": hero.id, "groups": groups}, {"op": "monastery_rest", "hero": hero.id}]
    )


@step("simultaneous", "groups", "hero")
def simultaneous(ctx: Ctx, st: Step) -> None:
    """Effects that happen at the same time: the affected player chooses their order
    (DN 14.3.1). Losses alone commute, so they are not asked about."""
    groups = st["groups"]
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead or not groups:
        return
    live = [g for g in groups if not does_nothing(hero, g)]
    if len(groups) == 1 or all(g.get("loss") for g in groups):
        ctx.then([x for g in groups for x in g["steps"]])
        return
    if len(live) <= 1 or order_cannot_matter(live):
        # One effect does something, or they commute: the order changes nothing (DN 14.3.1).
        inert = [g["label"] for g in groups if g not in live]
        what = f"{hero_name(ctx, hero.id)}: the order of these effects changes nothing"
        if inert:
            what += f" ({'; '.join(inert)}: nothing to lose)"
        automatic(ctx, hero.id, what)
        ctx.then([x for g in live for x in g["steps"]])
        return
    ctx.ask(OrderEffects(seat=hero.seat, hero=hero.id, groups=live))


LOSSES = {"lose_secrecy": "secrecy", "lose_grace": "grace", "lose_spark": "sparks"}
"""Steps that only take a resource away (never below zero, DN 4.1)."""
COMMUTING = frozenset({*LOSSES, "exhaust_power"})
"""Steps whose order among themselves changes nothing: losses and forced exhaustion
(DN 13.2, 13.4) neither give nor depend on what the others take."""


def does_nothing(hero: Hero, group: dict[str, Any]) -> bool:
    """A group of losses of resources the hero has none of does nothing (DN 4.1: losses
    beyond zero are ignored)."""
    steps = group["steps"]
    return bool(steps) and all(
        x["op"] in LOSSES and getattr(hero, LOSSES[x["op"]]) == 0 and x.get("hero", hero.id) == hero.id
        for x in steps
    )


def order_cannot_matter(groups: list[dict[str, Any]]) -> bool:
    """Every group only loses resources or exhausts powers, or all groups are the same."""
    if all(x["op"] in COMMUTING for g in groups for x in g["steps"]):
        return True
    first = groups[0]["steps"]
    return all(g["steps"] == first for g in groups[1:])


def order_choices(s: State, d: OrderEffects) -> list[Choice]:
    return [
        Choice("resolve_first", {"effect": i}, g["label"], "then the others (DN 14.3.1)")
        for i, g in enumerate(d.groups)
    ]


@decision(OrderEffects, order_choices)
def resolve_order(ctx: Ctx, d: OrderEffects, _t: str, args: dict[str, Any]) -> None:
    chosen = d.groups[args["effect"]]
    rest = [g for i, g in enumerate(d.groups) if i != args["effect"]]
    ctx.then([*chosen["steps"], {"op": "simultaneous", "hero": d.hero, "groups": rest}])


def on_leave(ctx: Ctx, hero: Hero, origin: str) -> None:
    """Webs: leaving loses a turn; Flux Cage: leaving loses 1 secrecy (DN 11.2)."""
    if blight_effect_active(ctx, "leave_lose_turn", origin, hero=hero):
        ctx.then([{"op": "lose_turn", "hero": hero.id, "why": "leaving Webs"}])
    flux = blight_param_total(ctx, "enter_leave_lose_secrecy", origin, hero=hero)
    if flux:
        lose(ctx, hero, "secrecy", flux, "leaving a Flux Cage")


def on_enter(ctx: Ctx, hero: Hero, destination: str) -> None:
    """Curse and Flux Cage: entering loses 1 secrecy (DN 4.1 example); items left by a
    fallen hero go to the next hero to arrive (DN 15.1)."""
    loss = blight_param_total(ctx, "enter_lose_secrecy", destination, hero=hero)
    loss += blight_param_total(ctx, "enter_leave_lose_secrecy", destination, hero=hero)
    if loss:
        lose(ctx, hero, "secrecy", loss, "entering a cursed place")
    for item in list(ctx.s.orphaned.get(destination, [])):
        if not can_receive(hero, item):
            continue  # no second Holy Relic (DN 15.2): it waits for another hero
        ctx.emit(
            "ItemGiven",
            item=item.id,
            **{"from": f"orphaned:{destination}"},
            to=hero.id,
            why="left by a fallen hero (DN 15.1)",
            kind=item.kind,  # names the item in the log
        )


def move_hero(ctx: Ctx, hero: Hero, destination: str, why: str) -> None:
    origin = hero.location
    if origin == destination:
        return
    on_leave(ctx, hero, origin)
    ctx.emit("HeroMoved", hero=hero.id, **{"from": origin}, to=destination, why=why)
    on_enter(ctx, hero, destination)


def is_protected(ctx: Ctx, location: str, blight_id: str) -> str | None:
    """Why a blight cannot be attacked: a Shroud protects the other blights at its location,
    a Nexus those everywhere else (DN 11.2)."""
    protecting = ctx.c.protecting_blights  # the content's index: most blights protect nothing
    if protecting.keys().isdisjoint(map(type_of, every_blight(ctx.s.blights.values()))):
        return None  # no Shroud, no Nexus on the map (asked in C, for each blight a prompt offers)
    for loc, blights in ctx.s.blights.items():
        for other in blights:
            effect = protecting.get(other.type)
            if effect is None or other.id == blight_id:
                continue
            if effect == "protects_here" and loc == location:
                return "a Shroud here protects the other blights (Shroud)"
            if effect == "protects_elsewhere" and loc != location:
                return f"the Nexus in the {loc} protects blights elsewhere (Nexus)"
    return None


def blight_might(ctx: Ctx, blight_type: str) -> int:
    """Might, +1 with darkness 25 or more (DN 9.0)."""
    return ctx.c.blights[blight_type].might + (1 if ctx.s.darkness >= 25 else 0)


def attackable(ctx: Ctx, hero: Hero) -> tuple[list[tuple[str, str, int]], list[str]]:
    """(blight id, type, might) that may be attacked here, and why others may not."""
    ok, blocked = [], []
    for blight in ctx.s.blights.get(hero.location, []):
        why = is_protected(ctx, hero.location, blight.id)
        if why:
            blocked.append(f"{blight.type}: {why}")
        else:
            ok.append((blight.id, blight.type, blight_might(ctx, blight.type)))
    return ok, blocked


@step("destroy_blight", "blight", "hero", "why")
def destroy_blight(ctx: Ctx, st: Step) -> None:
    """Return the blight to the stock; with Last Gasp, its destroyer suffers its defense."""
    found = ctx.s.find_blight(st["blight"])
    if found is None:
        return
    location, blight = found
    ctx.emit(
        "BlightDestroyed",
        location=location,
        blight=blight.id,
        type=blight.type,
        hero=st.get("hero"),
        why=st.get("why", ""),
    )
    if st.get("hero") and darkness_rule(ctx, "last_gasp"):
        ctx.then(
            [dict(e) | {"why": "Last Gasp"} for e in ctx.c.blights[blight.type].defense], hero=st["hero"]
        )
    ctx.then(
        [{"op": "power_hook", "hook": "blight_destroyed", "hero": st.get("hero")}] if st.get("hero") else []
    )


def is_monastery(location: str) -> bool:
    return location == MONASTERY
