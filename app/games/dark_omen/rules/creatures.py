"""Enemies on the map (DO L359-398, L474-493): creatures placed face down (a level, no card
yet) or known; the card drawn at the first attack (DO L367-369), a token flipped first
(DO L476); barrow and omen guards; bosses scaled to the party, with stages and phases
(DO L479-493); damage and the kill: blood of the beast, morale for all involved, a freed
location, a barrow's artifact, a boss's trophy (DO L420-422, facts §22).
"""

from __future__ import annotations

from typing import Any

from app.games.dark_omen.board import distance, neighbours
from app.games.dark_omen.engine import DoCtx
from app.games.dark_omen.rules.heroes import change, d6, gain_gear, give_artifact
from app.games.dark_omen.rules.runes import ward
from app.games.dark_omen.rules.stats import kill_mp
from app.games.dark_omen.state import Creature


def place_creature(
    ctx: DoCtx, space: int, lvl: int, *, kind: str, omen: bool = False, hoard: bool = False
) -> str:
    """A creature of ``lvl`` on ``space``; one from the Gear Hoard shuts it until it falls
    (DO L532)."""
    cid = f"c{ctx.s.next_creature}"
    extra = {"hoard": True} if hoard else {}
    ctx.emit(
        "CreaturePlaced", id=cid, space=space, level=lvl, kind=kind, omen=omen, dice=lvl, hp=None, **extra
    )
    return cid


def place_guard(ctx: DoCtx, space: Any, guard: str, *, barrow: bool, no_flee: bool = False) -> str:
    card = ctx.c.guards[guard]
    cid = f"c{ctx.s.next_creature}"
    ctx.emit(
        "CreaturePlaced",
        id=cid,
        space=space,
        level=card["level"],
        kind="guard",
        omen=False,
        dice=card["level"],
        card=guard,
        name=card["name"],
        hp=card["hp"],
        armor=card["armor"],
        dr=card["dr"],
        barrow=barrow,
        no_flee=no_flee,
    )
    return cid


def place_creature_tokens(
    ctx: DoCtx, spaces: list[int], lvl: int, token_levels: list[int] | None = None
) -> None:
    """ "Shuffle and place L2 and L3 creatures": face-down creature tokens of the levels the
    omen names, their level seen only when a hero engages (DO L475-476). Decision: an omen
    naming no levels takes the chapter's level or, from chapter 2, one lower; all are drawn
    from the 40 tokens."""
    s, c = ctx.s, ctx.c
    on_map = {x.token.split(".")[0] for x in s.creatures if x.token}
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


def reveal(ctx: DoCtx, target: Creature) -> None:
    """The first attack draws a random creature card of its level (DO L367-369, L476)."""
    if target.card is not None:
        return
    if target.token and not target.flipped:  # flip the token first (DO L476)
        ctx.emit("CreatureTokenFlipped", creature=target.id, token=target.token, level=target.level)
    cid = ctx.rng.choice(ctx.c.creatures_of(target.level))
    card = ctx.c.creatures[cid]
    ctx.emit(
        "CreatureRevealed",
        creature=target.id,
        card=cid,
        name=card["name"],
        hp=card["hp"],
        armor=card["armor"],
        dr=card["dr"],
    )


def hurt_creature(ctx: DoCtx, target: Creature, damage: int, seat: int, announce: bool = True) -> None:
    hp = int(target.hp) - damage
    armor = None
    stage = target.stage
    if stage and not target.staged and hp < stage["below_hp"]:
        armor = int(target.armor) + stage["armor"]
    ctx.emit("CreatureHurt", creature=target.id, hp=hp, by=seat, damage=damage, armor=armor)
    if announce and hp <= 0:
        creature_slain(ctx, target, seat)


def creature_slain(ctx: DoCtx, target: Creature, seat: int) -> None:
    """The finisher takes a blood of the beast; everyone involved +2 MP (+1 in the State of
    Resistance, DO L41, L421-422). A creature guarding a location frees it (DO L302). A
    boss's finisher takes its holographic trophy (facts §22)."""
    s, c = ctx.s, ctx.c
    involved = [m for m in target.involved if s.heroes[m].alive] or [seat]
    ctx.emit("CreatureSlain", creature=target.id, by=seat, space=target.space, kind=target.kind)
    if s.heroes[seat].alive:
        change(ctx, seat, "blood of the beast", blood=1)
    for m in involved:
        change(ctx, m, "a kill", mp=kill_mp(s, c, m))
    loc = s.locations.get(target.space) if isinstance(target.space, int) else None
    if loc is not None and not loc.open:
        ctx.emit("LocationUnlocked", space=target.space, why="freed from a creature")
    if target.barrow and s.heroes[seat].alive:
        give_artifact(ctx, seat)
        ctx.emit("BarrowGone", space=target.space)
    if target.kind == "boss" and s.heroes[seat].alive:
        trophy = c.bosses[target.card].get("reward")
        if trophy and not any(trophy in h.gear for h in s.heroes):
            gain_gear(ctx, seat, trophy, f"the trophy of {target.name}")


def boss_phases(ctx: DoCtx, trigger: str) -> None:
    """Each boss's phases with this trigger, in its card's order (DO L481-491): the ability
    (a roar hurting heroes in reach, no armour; a hex rolled per hero, dodged as the card
    says), then the movement (a step toward the nearest hero)."""
    s, c = ctx.s, ctx.c
    for boss in [x for x in s.creatures if x.kind == "boss"]:
        card = c.bosses[boss.card]
        for phase in card["phases"]:
            if phase.get("trigger", "round_start") != trigger or boss not in s.creatures:
                continue
            targets = [h for h in s.heroes if h.alive and isinstance(h.at, int)]
            if not targets or not isinstance(boss.space, int):
                continue
            in_reach = [h for h in targets if distance(h.at, boss.space) <= phase.get("reach", 0)]  # type: ignore[arg-type]
            if phase["op"] == "boss_roar":
                for h in in_reach:
                    change(ctx, h.seat, f"{boss.name}'s roar", hp=-phase["n"])
            elif phase["op"] == "boss_hex":
                for h in in_reach:
                    roll = d6(ctx)
                    if roll < phase["hit_on"]:
                        continue
                    if phase.get("dodge") == "ward" and ward(ctx, h.seat):
                        continue  # a ward rune counters the hex, as the card states (DO L482)
                    change(ctx, h.seat, f"{boss.name}'s hex (rolled {roll})", hp=-phase["n"])
            elif phase["op"] == "boss_move":
                nearest = min(targets, key=lambda h: (distance(h.at, boss.space), h.seat))  # type: ignore[arg-type]
                if nearest.at != boss.space:
                    step = min(neighbours(boss.space), key=lambda sp: (distance(sp, nearest.at), sp))  # type: ignore[arg-type]
                    ctx.emit("CreatureMoved", creature=boss.id, to=step, why="the boss moves")
