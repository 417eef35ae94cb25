"""A day (DO L123-143, L172-181): the day-start order (the tracker; on days 1, 3, 6 the rune
throw, then the loot refill; the story card; the omen and its setup; the Obstacle Throw
unless the omen set the tabs); the omen's mission checked after every step, paid at once,
failed at day end; the darkness meter; what heroes do for the omen (tending its props,
handing in blood of the beast) and meditation while it is active (DO L286-289).
"""

from __future__ import annotations

from typing import Any

from app.games.dark_omen.board import SECTORS, obstacle_throw
from app.games.dark_omen.content import Content
from app.games.dark_omen.engine import RULES, DoCtx, action
from app.games.dark_omen.rules.campaign import days_in_chapter, lose_campaign, quick
from app.games.dark_omen.rules.creatures import place_creature_tokens
from app.games.dark_omen.rules.death import out_of_characters
from app.games.dark_omen.rules.heroes import ch, change, d6, give_holographic, spend_ap
from app.games.dark_omen.rules.loot import refill_loot
from app.games.dark_omen.rules.omens import (
    day_rules,
    may_meditate,
    mission_met,
    place_guards,
    place_named,
    setup_props,
    task_label,
    tasks_here,
    tend,
    unlock_locations,
)
from app.games.dark_omen.rules.runes import rune_throw
from app.games.dark_omen.state import DAYS_PER_CHAPTER, METER_MAX, Hero, State
from app.kernel.types import Choice

RUNE_DAYS = (1, 3, 6)
"""Rune throws on days 1, 3 and 6 (DO L150)."""


FIRST_GAME_OMENS = {1: "attack_at_dawn", 2: "demonic_weather", 3: "fire_devil"}
"""The suggested first omens (DO L131)."""


@RULES.step("begin_day", "day")
def begin_day(ctx: DoCtx, st: dict[str, Any]) -> None:
    """The day-start order (DO L174-181): the tracker; runes on days 1, 3, 6 and then the
    loot refill; the story card; the omen and its setup; the Obstacle Throw unless the omen
    set the tabs."""
    s, c = ctx.s, ctx.c
    day = st["day"]
    ctx.emit("DayBegan", chapter=s.chapter, day=day)
    if day in RUNE_DAYS:
        rune_throw(ctx)
        refill_loot(ctx)
    if not quick(s):
        for sid, card in c.story.items():
            if card["chapter"] == s.chapter and card["day"] == day and sid not in s.story_read:
                ctx.emit("StoryRead", story=sid, name=card["name"], text=card["text"])
                reward(ctx, [card["effect"]], card["name"])
                if card.get("reward"):
                    give_holographic(ctx, card["reward"], card["name"])
    tabs = None
    if day == DAYS_PER_CHAPTER or day in s.omen_days:
        tabs = draw_omen(ctx, day)
    if tabs is not None:
        ctx.emit(
            "LayersTurned",
            white=(tabs["white"] - 1) % SECTORS,
            clear=(tabs["clear"] - 1) % SECTORS,
            rolls=[],
            why="the omen sets the tabs",
        )
    else:
        rolls = [d6(ctx), d6(ctx)]
        ctx.emit(
            "LayersTurned",
            white=obstacle_throw(s.layers["white"], rolls[0]),
            clear=obstacle_throw(s.layers["clear"], rolls[1]),
            rolls=rolls,
            why="the Obstacle Throw",
        )
    ctx.then([{"op": "begin_round", "round": 1}])


def draw_omen(ctx: DoCtx, day: int) -> dict[str, int] | None:
    """A random omen of the chapter's level, the boss omen on day 6 (DO L125, L134);
    dropped loot still lying goes (DO L245); the omen's own setup."""
    s, c = ctx.s, ctx.c
    lvl = s.chapter or 1
    if s.dropped:
        ctx.emit("LootCleared", spaces=sorted(s.dropped), why="the next omen")
    if day == DAYS_PER_CHAPTER:
        oid = c.boss_omen(lvl)
    elif s.options.get("difficulty") == "first_game" and lvl == 1 and day in FIRST_GAME_OMENS:
        oid = FIRST_GAME_OMENS[day]
    elif story_omen(ctx, day) is not None:
        oid = str(story_omen(ctx, day))
    else:
        pool = [o for o in c.omens_of(lvl) if o not in s.omens_seen] or c.omens_of(lvl)
        oid = ctx.rng.choice(sorted(pool))
    return set_up_omen(ctx, oid)


def story_omen(ctx: DoCtx, day: int) -> str | None:
    """The omen a story card of this day names (DO L131: "determined by the Story card")."""
    if quick(ctx.s):
        return None
    for card in ctx.c.story.values():
        if card["chapter"] == ctx.s.chapter and card["day"] == day and card.get("omen"):
            return str(card["omen"])
    return None


def set_up_omen(ctx: DoCtx, oid: str) -> dict[str, int] | None:
    """The omen read aloud (story, mission, the day's rules) and its setup after the normal
    setup (DO L133-143): location tokens it flips, its props, its creatures or boss; the
    tabs it sets, if any (DO L167)."""
    s, c = ctx.s, ctx.c
    lvl = s.chapter or 1
    omen = c.omens[oid]
    ctx.emit(
        "OmenDrawn",
        omen=oid,
        name=omen["name"],
        mission=omen["mission"],
        story=omen["story"],
        text=omen["text"],
        rules=day_rules(omen),
    )
    unlock_locations(ctx, omen)
    setup_props(ctx, omen)
    if omen["mission"] == "hunt":
        place_creature_tokens(ctx, place_named(ctx, omen), lvl, omen.get("token_levels"))
        place_guards(ctx, omen)
    elif omen["mission"] == "boss":
        boss = c.bosses[omen["boss"]]
        cid = f"c{s.next_creature}"
        hp = -(-boss["hp"] * (1 + len(s.heroes)) // 5)  # decision: the card's HP is for 4 heroes
        ctx.emit(
            "CreaturePlaced",
            id=cid,
            space=omen["space"],
            level=lvl,
            kind="boss",
            omen=True,
            dice=boss["ar_dice"],
            card=boss["id"],
            name=boss["name"],
            hp=hp,
            armor=boss["armor"],
            dr=boss["dr"],
            stage=boss["stage"],
        )
    tabs = omen.get("tabs")
    return dict(tabs) if tabs else None


def reward(ctx: DoCtx, effects: list[dict[str, Any]], why: str) -> None:
    """ "All players" each receive it; "the group" shares it, one at a time in seat order
    (DO L139-141)."""
    living = [h.seat for h in ctx.s.heroes if h.alive]
    if not living:
        return
    for effect in effects:
        stat = {
            "gain_gold": "gold",
            "lose_gold": "gold",
            "gain_mp": "mp",
            "lose_mp": "mp",
            "gain_hp": "hp",
            "lose_hp": "hp",
        }[effect["op"]]
        sign = -1 if effect["op"].startswith("lose") else 1
        if effect.get("who", "all") == "all":
            for seat in living:
                change(ctx, seat, why, **{stat: sign * effect["n"]})
        else:
            share = [
                effect["n"] // len(living) + (1 if i < effect["n"] % len(living) else 0)
                for i in range(len(living))
            ]
            for seat, n in zip(living, share, strict=True):
                if n:
                    change(ctx, seat, why, **{stat: sign * n})


def move_meter(ctx: DoCtx, by: int, why: str) -> None:
    s = ctx.s
    to = max(0, min(METER_MAX, s.meter + by))
    if quick(s):
        to = max(1, to)  # a Quick Start's meter cannot lose (facts §20)
    if to != s.meter:
        ctx.emit("MeterMoved", to=to, by=to - s.meter, why=why)


@RULES.step("end_day")
def end_day(ctx: DoCtx, st: dict[str, Any]) -> None:
    """An unfinished omen fails at day end (DO L136); after day 6 the chapter ends."""
    s, c = ctx.s, ctx.c
    last = s.day >= days_in_chapter(s)
    if s.omen is not None and s.omen.status == "active":
        omen = c.omens[s.omen.id]
        ctx.emit("OmenEnded", omen=s.omen.id, status="failure")
        reward(ctx, omen["failure"], f"{omen['name']} failed")
        move_meter(ctx, int(omen.get("meter_failure", -1)), f"{omen['name']} failed")
    result = "win" if s.omen is not None and s.omen.status == "success" else "loss"
    ctx.emit("DayEnded", day=s.day)
    if s.result is not None:
        return
    if last:
        ctx.then([{"op": "end_chapter", "result": result}])
    else:
        ctx.then([{"op": "begin_day", "day": s.day + 1}])


def check(ctx: DoCtx) -> None:
    """After every step: an omen's mission met pays at once (DO L136); a fully dark meter
    loses the campaign (DO L42)."""
    s, c = ctx.s, ctx.c
    if s.result is not None or s.chapter is None:
        return
    if s.meter <= 0 and not quick(s):
        lose_campaign(ctx, "Edaia is consumed by the darkness (DO L42)")
        return
    if out_of_characters(s):
        lose_campaign(ctx, "a player needs a new character and none is left (DO L202)")
        return
    if s.omen is None or s.omen.status != "active":
        return
    omen = c.omens[s.omen.id]
    if mission_met(s, c, omen):
        ctx.emit("OmenEnded", omen=s.omen.id, status="success")
        reward(ctx, omen["success"], f"{omen['name']} succeeded")
        move_meter(ctx, int(omen.get("meter_success", 1)), f"{omen['name']} succeeded")


def blood_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Blood of the beast handed in for an omen that gathers it (DO L422), at 0 AP."""
    if s.omen and s.omen.status == "active" and h.blood > 0:
        omen = c.omens[s.omen.id]
        if omen["mission"] == "gather":
            return [ch("offer_blood", h.seat, "Hand in a blood of the beast for the omen")]
    return []


def omen_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """1 AP each: meditation while an omen is active (DO L288-289), and tending the omen's
    props on the hero's space (DO L141-143)."""
    out: list[Choice] = []
    if may_meditate(s, c):
        out.append(ch("meditate", h.seat, "Meditate (+1 MP, 1 AP)"))
    for prop in tasks_here(s, h.at):
        out.append(ch("tend", h.seat, task_label(prop), prop=prop.id))
    return out


@action("meditate")
def do_meditate(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 AP: +1 MP, only while an omen is active (DO L286-289)."""
    spend_ap(ctx, seat, 1, "meditation")
    change(ctx, seat, "meditation", mp=1)


@action("tend")
def do_tend(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 AP for an omen's prop on your space: douse a fire, lay a grave to rest, take the
    omen's loot, lead the one calling for aid (DO L141-143, L243)."""
    tend(ctx, seat, args["prop"])


@action("offer_blood")
def do_offer_blood(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit("BloodOffered", seat=seat, n=1)
