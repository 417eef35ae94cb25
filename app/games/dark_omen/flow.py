"""The campaign's structure (DO L108-181, facts §3, §21): chapters of six days of four
rounds; the day-start order; the simultaneous round and its barrier; omens, the boss on
day 6, the darkness meter; between chapters; winning and losing."""

from __future__ import annotations

from typing import Any

from app.games.dark_omen import omens, stats
from app.games.dark_omen.actions import seat_choices
from app.games.dark_omen.board import SECTORS, obstacle_throw, ring_sector, space_id
from app.games.dark_omen.content import load
from app.games.dark_omen.decisions import Act, NextChapter
from app.games.dark_omen.engine import RULES, DoCtx
from app.games.dark_omen.resolve import (
    apply_runes,
    cast_runes,
    change,
    d6,
    gain_gear,
    give_holographic,
    resolve_action,
    second_wind,
    vortex_hit,
)
from app.games.dark_omen.resolve import (
    boss_phases as boss_phases_now,
)
from app.games.dark_omen.state import AP_PER_ROUND, DAYS_PER_CHAPTER, METER_MAX, ROUNDS_PER_DAY, State
from app.kernel.types import Choice

DIFFICULTIES = {
    "light": [1, 2, 4],
    "rough": [1, 2, 3],
    "stressful": [1, 2, 3, 5],
    "pain": [1, 2, 3, 4, 5],
    "first_game": [1, 2, 3],
}
"""Omen days by difficulty (DO L125-131); day 6 always holds the boss omen."""
FIRST_GAME_OMENS = {1: "attack_at_dawn", 2: "demonic_weather", 3: "fire_devil"}
"""The suggested first omens (DO L131)."""
RUNE_DAYS = (1, 3, 6)
"""Rune throws on days 1, 3 and 6 (DO L150)."""
GUILDS = ("Architect", "Druid", "Ranger", "Rogue", "Shifter", "Warrior")
RUNEHENGE_SPACES = ((10, 46, 48, 84), (28, 64, 66, 102))
"""Quick Start: heroes start around a runehenge (DO L554)."""


def quick(s: State) -> bool:
    return s.options.get("mode", "campaign") != "campaign"


def days_in_chapter(s: State) -> int:
    return 1 if s.options.get("mode") == "quick_omen" else DAYS_PER_CHAPTER


# -- chapter ------------------------------------------------------------------------------------


@RULES.step("begin_chapter", "chapter")
def begin_chapter(ctx: DoCtx, st: dict[str, Any]) -> None:
    """Chapter setup (DO L62-105, L495-500): locations face down, omen tokens by
    difficulty, the heroes on Hoglichten's entrance (39) or, in a Quick Start, around a
    runehenge (DO L554); the Underworld's vortices on opposite middle-ring spaces."""
    s, c = ctx.s, ctx.c
    chapter = st["chapter"]
    side = c.board.side(chapter)
    difficulty = s.options.get("difficulty", "rough")
    omen_days = [1] if s.options.get("mode") == "quick_omen" else list(DIFFICULTIES[difficulty])
    vortices: list[int] = []
    if chapter == 4:
        first = ctx.rng.randrange(SECTORS)
        vortices = [space_id(1, first), space_id(1, first + SECTORS // 2 + 1)]
    on_map = sorted(s.loot.values())
    lying = sorted(t for tokens in s.dropped.values() for t in tokens)
    if on_map or lying:
        ctx.emit("LootReturned", tokens=on_map + lying, why="a new chapter")
    ctx.emit(
        "ChapterBegan",
        chapter=chapter,
        omen_days=omen_days,
        difficulty=difficulty,
        side=side.name,
        locations={str(space): kind for kind, space in side.locations},
        vortices=vortices,
    )
    if quick(s):
        ring = RUNEHENGE_SPACES[ctx.rng.randrange(2)]
        for h in s.heroes:
            ctx.emit("HeroPlaced", seat=h.seat, at=ring[ctx.rng.randrange(4)])
    else:
        for h in s.heroes:
            if h.alive:
                ctx.emit("HeroPlaced", seat=h.seat, at=39)
    for h in s.heroes:
        if not h.alive:
            continue
        bonus = stats.ability(s, c, h.seat)
        if "start_gold" in bonus:
            change(ctx, h.seat, "the character's ability", gold=bonus["start_gold"])
        if "max_hp" in bonus:
            change(ctx, h.seat, "the character's ability", hp=bonus["max_hp"])
        if quick(s) and chapter == st["chapter"] and not h.gear:
            quick_gear(ctx, h.seat, chapter)
    ctx.then([{"op": "begin_day", "day": 1}])


def quick_gear(ctx: DoCtx, seat: int, chapter: int) -> None:
    """Quick Start: a primary weapon of the chapter; a d6 of 5–6 adds one armour or shield
    (DO L547-549). For a random omen, half the party (every second seat) has gear one level
    lower (DO L550)."""
    c = ctx.c
    if ctx.s.options.get("mode") == "quick_omen" and seat % 2 == 1:
        chapter = max(1, chapter - 1)
    weapons = sorted(
        g for g, card in c.gear.items() if card["level"] == chapter and card["slot"] == "primary"
    )
    gain_gear(ctx, seat, ctx.rng.choice(weapons), "Quick Start")
    if d6(ctx) >= 5:
        armours = sorted(
            g for g, card in c.gear.items() if card["level"] == chapter and card["slot"] in ("body", "shield")
        )
        gain_gear(ctx, seat, ctx.rng.choice(armours), "Quick Start")


# -- day ------------------------------------------------------------------------------------------


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


def rune_throw(ctx: DoCtx) -> None:
    """Everyone discards their runes and casts 4 (DO L147-150); in a Quick Start, 4 random
    cards, one of each house (DO L551)."""
    s = ctx.s
    for h in s.heroes:
        if not h.alive:
            continue
        if quick(s):
            symbols = sorted({r["rune"] for r in ctx.c.runes.values()})
            drawn = ctx.rng.sample(symbols, 4)
            cards = [
                f"{house}_{sym.lower()}"
                for house, sym in zip(("sun", "moon", "fortune", "hope"), drawn, strict=True)
            ]
            ctx.emit("RunesCast", seat=h.seat, runes=cards)
            apply_runes(ctx, h.seat, cards)
        else:
            cast_runes(ctx, h.seat)


def refill_loot(ctx: DoCtx) -> None:
    """Empty loot spaces get a face-down token after a rune throw (DO L82, L176)."""
    s = ctx.s
    side = stats.side_of(s, ctx.c)
    empty = [sp for sp in side.loot if sp not in s.loot]
    count = min(len(empty), len(s.pile))
    if count:
        tokens = ctx.rng.sample(sorted(s.pile), count)
        named = [f"{token}.{s.deals + i + 1}" for i, token in enumerate(tokens)]
        ctx.emit("LootDealt", spaces=empty[:count], tokens=named)


def draw_omen(ctx: DoCtx, day: int) -> dict[str, int] | None:
    """A random omen of the chapter's level, the boss omen on day 6 (DO L125, L135);
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
        rules=omens.day_rules(omen),
    )
    omens.unlock_locations(ctx, omen)
    omens.setup_props(ctx, omen)
    if omen["mission"] == "hunt":
        place_creature_tokens(ctx, omens.place_named(ctx, omen), lvl, omen.get("token_levels"))
        omens.place_guards(ctx, omen)
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


def story_omen(ctx: DoCtx, day: int) -> str | None:
    """The omen a story card of this day names (DO L135: "determined by the Story card")."""
    if quick(ctx.s):
        return None
    for card in ctx.c.story.values():
        if card["chapter"] == ctx.s.chapter and card["day"] == day and card.get("omen"):
            return str(card["omen"])
    return None


def place_creature_tokens(
    ctx: DoCtx, spaces: list[int], lvl: int, token_levels: list[int] | None = None
) -> None:
    """ "Shuffle and place L2 and L3 creatures": face-down creature tokens of the levels the
    omen names, their level seen only when a hero engages (DO L475-476). Decision: an omen
    naming no levels takes the chapter's level or, from chapter 2, one lower; all are drawn
    from the 40 tokens."""
    s, c = ctx.s, ctx.c
    on_map = {x["token"].split(".")[0] for x in s.creatures if x.get("token")}
    levels = set(token_levels) if token_levels else {lvl, max(1, lvl - 1)}
    pool = sorted(t for t, level in c.creature_tokens.items() if level in levels and t not in on_map)
    drawn = ctx.rng.sample(pool, min(len(spaces), len(pool)))
    for space, token in zip(spaces, drawn, strict=False):
        cid = f"c{s.next_creature}"
        level = c.creature_tokens[token]
        ctx.emit(
            "CreaturePlaced",
            id=cid,
            space=space,
            level=level,
            kind="creature",
            omen=True,
            dice=level,
            hp=None,
            token=f"{token}.{cid}",
        )


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


# -- round -----------------------------------------------------------------------------------------


@RULES.step("begin_round", "round")
def begin_round(ctx: DoCtx, st: dict[str, Any]) -> None:
    """Round start, in this fixed order (facts §21): a dead hero's player needs a character
    (none left: the campaign is lost, DO L202); AP reset (less any debt); the Underworld's
    vortices, Hive and Frozen Sea (DO L498-501, L534-542); gear restoring morale; the
    omen's chill; the boss's phases (DO L481-489)."""
    s = ctx.s
    if out_of_characters(s):
        lose_campaign(ctx, "a player needs a new character and none is left (DO L202)")
        return
    limits = [
        max(0, AP_PER_ROUND - h.effects.get("ap_debt", 0)) if h.alive else AP_PER_ROUND for h in s.heroes
    ]
    ctx.emit(
        "RoundBegan",
        chapter=s.chapter,
        day=s.day,
        round=st["round"],
        ap_limits=limits,
        night=st["round"] >= 3 or s.chapter == 4,
    )
    if s.chapter == 4:
        underworld_round(ctx)
    gear_round(ctx)
    omen_round(ctx)
    boss_phases(ctx)
    second_wind(ctx)


def underworld_round(ctx: DoCtx) -> None:
    s, c = ctx.s, ctx.c
    for i, start in enumerate(list(s.vortices)):
        roll = [d6(ctx), d6(ctx)]
        ring, sector = ring_sector(start)
        step = 1 if i == 0 else -1
        path = [space_id(ring, sector + step * k) for k in range(1, sum(roll) + 1)]
        ctx.emit("VortexMoved", vortex=i, to=path[-1], roll=roll)
        for h in s.heroes:
            if h.alive and h.at in path:
                vortex_hit(ctx, h.seat)
    if not stats.hardcore(s):
        return
    side = stats.side_of(s, c)
    for h in s.heroes:
        if not h.alive or not isinstance(h.at, int) or h.at == 39:
            continue
        region = side.region(h.at)
        if region == "The Hive" and ctx.rng.randint(1, 4) == 4:
            for gid, n in sorted(h.charges.items()):
                if n > 0:
                    ctx.emit("ChargesSet", seat=h.seat, gear=gid, n=n - 1)
        if region == "The Frozen Sea" and h.at not in s.campfires:
            from app.games.dark_omen.actions import torch_charges

            if torch_charges(s, c, h) == 0:
                change(ctx, h.seat, "the Chilling Breeze", hp=-1)


def gear_round(ctx: DoCtx) -> None:
    """Gear restoring morale each round (``mp_per_round``) works at the round's start."""
    s = ctx.s
    for h in s.heroes:
        n = stats.gear_bonus(s, ctx.c, h.seat, "mp_per_round") if h.alive else 0
        if n:
            change(ctx, h.seat, "gear restoring morale", mp=n)


def omen_round(ctx: DoCtx) -> None:
    """The omen's chill: at a night round's start, heroes out on the map lose HP unless at a
    campfire (the omen's rules, DO L135)."""
    s = ctx.s
    n = omens.chill(s, ctx.c)
    if not n:
        return
    for h in s.heroes:
        if h.alive and isinstance(h.at, int) and h.at not in s.campfires:
            change(ctx, h.seat, f"the omen's chill ({ctx.c.omens[s.omen['id']]['name']})", hp=-n)  # type: ignore[index]


def boss_phases(ctx: DoCtx) -> None:
    """The boss's round-start phases, in its card's order (DO L481-489); phases "after each
    attack" run in the battle (DO L491, resolve.boss_phases)."""
    boss_phases_now(ctx, "round_start")


@RULES.step("act")
def act(ctx: DoCtx, st: dict[str, Any]) -> None:
    """Every seat not yet done acts at once; when none is left, the round ends (DO L211)."""
    waiting = [h.seat for h in ctx.s.heroes if not h.done]
    if waiting:
        ctx.ask(Act(seat="any", seats=waiting))
    else:
        ctx.then([{"op": "end_round"}])


@RULES.step("end_round")
def end_round(ctx: DoCtx, st: dict[str, Any]) -> None:
    s = ctx.s
    ctx.emit("RoundEnded", round=s.round)
    if s.round < ROUNDS_PER_DAY:
        ctx.then([{"op": "begin_round", "round": s.round + 1}])
    else:
        ctx.then([{"op": "end_day"}])


@RULES.step("end_day")
def end_day(ctx: DoCtx, st: dict[str, Any]) -> None:
    """An unfinished omen fails at day end (DO L138); after day 6 the chapter ends."""
    s, c = ctx.s, ctx.c
    last = s.day >= days_in_chapter(s)
    if s.omen is not None and s.omen["status"] == "active":
        omen = c.omens[s.omen["id"]]
        ctx.emit("OmenEnded", omen=s.omen["id"], status="failure")
        reward(ctx, omen["failure"], f"{omen['name']} failed")
        move_meter(ctx, int(omen.get("meter_failure", -1)), f"{omen['name']} failed")
    result = "win" if s.omen is not None and s.omen["status"] == "success" else "loss"
    ctx.emit("DayEnded", day=s.day)
    if s.result is not None:
        return
    if last:
        ctx.then([{"op": "end_chapter", "result": result}])
    else:
        ctx.then([{"op": "begin_day", "day": s.day + 1}])


@RULES.step("end_chapter", "result")
def end_chapter(ctx: DoCtx, st: dict[str, Any]) -> None:
    """The chapter ends after day 6; gear carries over, the level's cards go (DO L181).
    Campaign: won by beating the chapter-4 boss (facts §3); a Quick Start by its chapter's
    boss or its omen (facts §20)."""
    s = ctx.s
    chapter = s.chapter
    assert chapter is not None
    result = st["result"]
    said = "won" if result == "win" else "lost"
    ctx.emit("ChapterEnded", chapter=chapter, result=result, reason=f"Chapter {chapter} was {said}")
    if quick(s) or chapter >= s.last_chapter:
        if result == "win":
            ctx.emit(
                "CampaignEnded", result="win", reason=f"the darkness is driven back: chapter {chapter} won"
            )
        else:
            ctx.emit("CampaignEnded", result="loss", reason=f"chapter {chapter}'s final omen was lost")
        return
    ctx.ask(NextChapter(seat="any", seats=list(range(len(s.heroes))), chapter=chapter + 1))


def out_of_characters(s: State) -> bool:
    """More players need a character than remain (DO L202)."""
    taken = {h.character for h in s.heroes if h.alive} | set(s.fallen)
    left = [cid for cid in load().characters if cid not in taken]
    return len(left) < sum(1 for h in s.heroes if not h.alive)


def lose_campaign(ctx: DoCtx, reason: str) -> None:
    """The chapter being played is lost with the campaign."""
    chapter = ctx.s.chapter
    if chapter is not None:
        ctx.emit(
            "ChapterEnded", chapter=chapter, result="loss", reason=f"Chapter {chapter} was lost: {reason}"
        )
    ctx.emit("CampaignEnded", result="loss", reason=reason)


def schedule(ctx: DoCtx) -> None:
    if ctx.s.chapter is None:
        raise RuntimeError("dark_omen: nothing scheduled between chapters without a decision")
    ctx.later([{"op": "act"}])


def check(ctx: DoCtx) -> None:
    """After every step: an omen's mission met pays at once (DO L138); a fully dark meter
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
    if s.omen is None or s.omen["status"] != "active":
        return
    omen = c.omens[s.omen["id"]]
    if omens.mission_met(s, c, omen):
        ctx.emit("OmenEnded", omen=s.omen["id"], status="success")
        reward(ctx, omen["success"], f"{omen['name']} succeeded")
        move_meter(ctx, int(omen.get("meter_success", 1)), f"{omen['name']} succeeded")


# -- the decisions' choices and resolvers ------------------------------------------------------------


def act_choices(s: State, d: Act) -> list[Choice]:
    from app.games.dark_omen.content import load

    c = load()
    return [choice for seat in d.asked for choice in seat_choices(s, c, int(seat))]


def act_seat_choices(s: State, d: Act, seat: int) -> list[Choice]:
    """One seat's choices in the round (every seat acts at once, DO L211)."""
    from app.games.dark_omen.content import load

    return seat_choices(s, load(), int(seat))


@RULES.decision(Act, act_choices, seat_choices=act_seat_choices)
def resolve_act(ctx: DoCtx, d: Act, type_: str, args: dict[str, Any]) -> None:
    resolve_action(ctx, args["hero"], type_, args)
    second_wind(ctx)


def next_chapter_choices(s: State, d: NextChapter) -> list[Choice]:
    """Before chapter 2 each player joins a guild, one player per guild (DO L189-192)."""
    out = []
    taken = {h.guild for h in s.heroes if h.guild}
    for seat in d.asked:
        h = s.heroes[int(seat)]
        if d.chapter >= 2 and h.guild is None:
            for guild in GUILDS:
                if guild not in taken:
                    out.append(
                        Choice("ready", {"hero": seat, "guild": guild}, f"Join the {guild}s and be ready")
                    )
        else:
            out.append(Choice("ready", {"hero": seat}, f"Ready for chapter {d.chapter}"))
    return out


@RULES.decision(NextChapter, next_chapter_choices)
def resolve_next_chapter(ctx: DoCtx, d: NextChapter, type_: str, args: dict[str, Any]) -> None:
    seat = args["hero"]
    ctx.emit("ChapterReady", seat=seat, guild=args.get("guild"), chapter=d.chapter)
    left = [x for x in d.asked if x != seat]
    if left:
        ctx.ask(d.replace(seats=left))
    else:
        ctx.then([{"op": "begin_chapter", "chapter": d.chapter}])
