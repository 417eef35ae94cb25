"""The campaign (DO L108-131, L181, L188-192, L543-554, facts §3, §20): chapters of six days;
the chapter's setup, a Quick Start's gear; the chapter's end, winning and losing; between
chapters every seat ready (joining a guild before chapter 2); the save point a chapter
restarts from after a wipe (DO L114).
"""

from __future__ import annotations

from typing import Any

from app.games.dark_omen.board import SECTORS, space_id
from app.games.dark_omen.decisions import NextChapter
from app.games.dark_omen.engine import RULES, DoCtx
from app.games.dark_omen.rules.heroes import change, d6, gain_gear
from app.games.dark_omen.rules.stats import ability
from app.games.dark_omen.state import DAYS_PER_CHAPTER, METER_MAX, State
from app.kernel.types import GM_SEAT, Choice

DIFFICULTIES = {
    "light": [1, 2, 4],
    "rough": [1, 2, 3],
    "stressful": [1, 2, 3, 5],
    "pain": [1, 2, 3, 4, 5],
    "first_game": [1, 2, 3],
}
"""Omen days by difficulty (DO L125-131); day 6 always holds the boss omen."""


GUILDS = ("Architect", "Druid", "Ranger", "Rogue", "Shifter", "Warrior")


RUNEHENGE_SPACES = ((10, 46, 48, 84), (28, 64, 66, 102))
"""Quick Start: heroes start around a runehenge (DO L554)."""


def quick(s: State) -> bool:
    return s.options.get("mode", "campaign") != "campaign"


def days_in_chapter(s: State) -> int:
    return 1 if s.options.get("mode") == "quick_omen" else DAYS_PER_CHAPTER


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
        bonus = ability(s, c, h.seat)
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


def lose_campaign(ctx: DoCtx, reason: str) -> None:
    """The chapter being played is lost with the campaign."""
    chapter = ctx.s.chapter
    if chapter is not None:
        ctx.emit(
            "ChapterEnded", chapter=chapter, result="loss", reason=f"Chapter {chapter} was lost: {reason}"
        )
    ctx.emit("CampaignEnded", result="loss", reason=reason)


def restartable(state: State) -> bool:
    """A chapter is being played and a hero has fallen since it began."""
    saved = state.save_point
    return state.chapter is not None and saved is not None and len(state.fallen) > len(saved.fallen)


def restart_choices(state: State, seat: Any) -> list[Choice]:
    if seat != GM_SEAT or not restartable(state):
        return []
    return [Choice("restart_chapter", {}, f"Restart chapter {state.chapter} from its start")]


def restart_chapter(ctx: DoCtx, seat: Any, command_type: str, args: dict[str, Any]) -> None:
    """The game master's recorded restart of the chapter being played, from its start
    (the rulebook's save point, DO L114), offered once a hero has fallen in it."""
    chapter = ctx.s.chapter
    ctx.emit("ChapterRestarted", chapter=chapter)
    ctx.s.decision, ctx.s.agenda = None, [{"op": "begin_chapter", "chapter": chapter}]


RESTART = RULES.window(
    "game_master",
    ["restart_chapter"],
    restart_choices,
    restart_chapter,
    title="Game master",
    sets_aside=False,
    closed=("no_wipe", "a chapter is restarted after a hero fell in it (DO L114)"),
)
"""The game master's restart, beside whatever the table waits on (it replaces it)."""


def chapter_detail(state: State) -> str:
    """The day and the darkness meter, for "your tables" (issue 15): a campaign's standing
    at a glance (the meter at 0 loses it, DO L42); between chapters, the meter it carries
    into the next one."""
    meter = f"darkness meter {state.meter} of {METER_MAX}"
    if state.chapter is None:
        return meter
    day = f"day {state.day} of {DAYS_PER_CHAPTER}" if state.day else "setting up"
    return f"{day} \u00b7 {meter}"
