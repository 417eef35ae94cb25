"""Dungeons and campaigns (AtD L236-243, L265): a dungeon begins (shuffled decks, a sample
dungeon's set-aside cards, every card gathered again in a campaign, AtD L238), an
encounter ends won or lost (checked before every step), the next encounter or dungeon,
and every player's "ready" between the dungeons of a campaign."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import Ready
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.rules.arena import arena_over
from app.games.attack_the_darkness.rules.drawing import bump
from app.games.attack_the_darkness.rules.encounter_map import reshuffle_dungeon
from app.games.attack_the_darkness.rules.query import dominated
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import Choice

C = load()
step = RULES.step


@step("begin_dungeon", "index")
def begin_dungeon(ctx: Ctx, st: Step) -> None:
    """A dungeon: shuffled decks (AtD L243); a sample dungeon sets cards aside (AtD L437-466)."""
    s = ctx.s
    reserved: list[str] = []
    if s.dungeon != "random":
        wanted = list(C.dungeons[s.dungeon].set_aside)
        for inst in [*s.dungeon_deck, *s.dungeon_discard]:
            if s.cards[inst] in wanted:
                wanted.remove(s.cards[inst])
                reserved.append(inst)
    ctx.emit("DungeonBegan", index=st["index"], reserved=reserved, name=s.dungeon_names[st["index"]])
    if s.dungeon_discard or st["index"] > 0:
        reshuffle_dungeon(ctx)
    for seat in range(len(s.names)):
        if st["index"] > 0:
            ch = s.chars[seat]
            shown = ch.hand_a + ch.disc_a + [e.card for e in ch.in_play]
            acts = ch.actions + [bump(c) for c in shown]
            ress = ch.resources + [bump(c) for c in ch.hand_r + ch.disc_r]
            ctx.rng.shuffle(acts)
            ctx.rng.shuffle(ress)
            ctx.emit("DecksRestored", seat=seat, actions=acts, resources=ress, n=len(acts) + len(ress))
    ctx.then([{"op": "begin_encounter", "index": 0}])


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
        teams = {s.teams[i] for i, ch in enumerate(s.chars) if ch.hp > 0}
        if len(teams) <= 1:
            winner = next(iter(teams), None)
            s.decision, s.agenda = None, [{"op": "encounter_over", "result": "arena", "team": winner}]
        return
    if all(ch.hp <= 0 for ch in s.chars):
        s.decision, s.agenda = None, [{"op": "encounter_over", "result": "loss", "team": None}]
    elif not any(not dominated(s, m) for m in s.monsters):
        s.decision, s.agenda = None, [{"op": "encounter_over", "result": "win", "team": None}]


@step("encounter_over", "result", "team")
def encounter_over(ctx: Ctx, st: Step) -> None:
    s = ctx.s
    while s.play is not None:  # a play cut short by the end, and any it interrupted
        ctx.emit("PlayFinished", seat=s.play.seat, until=0, on=None)
    result = st["result"]
    if result in ("arena", "arena_time"):
        arena_over(ctx, result, st["team"])
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


def ready_choices(s: State, d: Ready) -> list[Choice]:
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
