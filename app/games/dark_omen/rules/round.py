"""The round (DO L209-238, facts §21): every seat with AP left acts at once (``Act``), each
answer one action of one seat, resolved in the order the commands arrive; a seat with a
sub-question open (a battle's boost window, a runehenge, a gamble, a barrow, a new
character) is offered only its answers; a seat done with the round keeps its 0-AP actions
until the round ends. The round's start (AP reset, the Underworld, gear, the omen's chill,
the boss's phases) and end.
"""

from __future__ import annotations

from typing import Any

from app.games.dark_omen.content import Content, load
from app.games.dark_omen.decisions import Act
from app.games.dark_omen.engine import ACTIONS, RULES, DoCtx, action
from app.games.dark_omen.rules.barrows import barrow_choices, keep_choices
from app.games.dark_omen.rules.battle import (
    attack_choices,
    battle_choices,
    decline_invitations,
    invitation_choices,
    joined_leader,
    member_choices,
    team_choices,
)
from app.games.dark_omen.rules.campaign import lose_campaign
from app.games.dark_omen.rules.creatures import boss_phases
from app.games.dark_omen.rules.days import blood_choices, omen_choices
from app.games.dark_omen.rules.death import belongings_choices, new_character_choices, out_of_characters
from app.games.dark_omen.rules.gambling import gamble_invitations, hard_life_choices, host_choices
from app.games.dark_omen.rules.heroes import ap_left, ch, change, level, name_of
from app.games.dark_omen.rules.locations import campfire_choices, location_choices, turn_choices
from app.games.dark_omen.rules.loot import (
    drop_choices,
    exchange_choices,
    flip_choices,
    pick_up_choices,
    throw_choices,
    use_choices,
)
from app.games.dark_omen.rules.market import equip_choices, town_choices, trade_choices
from app.games.dark_omen.rules.movement import move_choices
from app.games.dark_omen.rules.omens import chill, may_meditate, rule
from app.games.dark_omen.rules.potions import craft_choices
from app.games.dark_omen.rules.runes import second_wind
from app.games.dark_omen.rules.stats import gear_bonus
from app.games.dark_omen.rules.underworld import camp_choices, underworld_round
from app.games.dark_omen.state import AP_PER_ROUND, ROUNDS_PER_DAY, Hero, State
from app.kernel.types import Choice, Unavailable


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
    boss_phases(ctx, "round_start")
    second_wind(ctx)


def gear_round(ctx: DoCtx) -> None:
    """Gear restoring morale each round (``mp_per_round``) works at the round's start."""
    s = ctx.s
    for h in s.heroes:
        n = gear_bonus(s, ctx.c, h.seat, "mp_per_round") if h.alive else 0
        if n:
            change(ctx, h.seat, "gear restoring morale", mp=n)


def omen_round(ctx: DoCtx) -> None:
    """The omen's chill: at a night round's start, heroes out on the map lose HP unless at a
    campfire (the omen's rules, DO L135)."""
    s = ctx.s
    n = chill(s, ctx.c)
    if not n:
        return
    for h in s.heroes:
        if h.alive and isinstance(h.at, int) and h.at not in s.campfires:
            change(ctx, h.seat, f"the omen's chill ({ctx.c.omens[s.omen.id]['name']})", hp=-n)  # type: ignore[union-attr]


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


def schedule(ctx: DoCtx) -> None:
    if ctx.s.chapter is None:
        raise RuntimeError("dark_omen: nothing scheduled between chapters without a decision")
    ctx.later([{"op": "act"}])


def act_choices(s: State, d: Act) -> list[Choice]:
    c = load()
    return [choice for seat in d.asked for choice in seat_choices(s, c, int(seat))]


def act_seat_choices(s: State, d: Act, seat: int) -> list[Choice]:
    """One seat's choices in the round (every seat acts at once, DO L211)."""
    return seat_choices(s, load(), int(seat))


SILENCED = Unavailable("meditate", "Meditate", "the omen forbids meditation today", "DO L135")
NO_OMEN = Unavailable("meditate", "Meditate", "no omen is active, and meditation needs one", "DO L289")
NO_BARROWS = Unavailable("search_barrow", "Search for a barrow", "no barrows before chapter 2", "DO L315")


def act_unavailable(s: State, d: Act) -> list[Unavailable]:
    """Actions closed to every hero for now, each greyed out with the rule that closes it
    (issue 28: "why can't I…?"): meditation without an active omen (DO L289) or on an omen's
    day of silence (DO L135), and barrows before chapter 2 (DO L315)."""
    c = load()
    out: list[Unavailable] = []
    if not may_meditate(s, c):
        active = s.omen is not None and s.omen.status == "active"
        out.append(SILENCED if active and rule(s, c, "silence") else NO_OMEN)
    if level(s) < 2:
        out.append(NO_BARROWS)
    return out


@RULES.decision(Act, act_choices, seat_choices=act_seat_choices, unavailable=act_unavailable)
def resolve_act(ctx: DoCtx, d: Act, type_: str, args: dict[str, Any]) -> None:
    resolve_action(ctx, args["hero"], type_, args)
    second_wind(ctx)


def seat_choices(s: State, c: Content, seat: int) -> list[Choice]:
    h = s.heroes[seat]
    if not h.alive:
        return new_character_choices(s, c, seat) if h.pending else []
    if h.pending is not None:
        return pending_choices(s, c, h)
    leader = joined_leader(s, seat)
    if leader is not None:
        return member_choices(s, h, leader) + committed_free_choices(s, c, h)
    out = invitation_choices(s, seat) + gamble_invitations(s, seat)
    if h.must_attack is not None:
        target = s.creature(h.must_attack)
        if target is not None and ap_left(h) >= 1:
            return out + [
                ch("attack", seat, f"Fight the {name_of(target)} (surprise attack)", creature=target.id)
            ]
    out += free_choices(s, c, h)
    if ap_left(h) >= 1:
        out += ap_choices(s, c, h)
    out.append(ch("end_round", seat, "End my round"))
    return out


def pending_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """The answers to the seat's open sub-question, and nothing else."""
    p = h.pending
    assert p is not None
    match p.kind:
        case "battle":
            return battle_choices(s, c, h)
        case "team":
            return team_choices(s, c, h)
        case "runehenge":
            return turn_choices(s, c, h)
        case "draugr" | "barrow":
            return keep_choices(s, c, h)
        case "hard_life":
            return hard_life_choices(s, c, h)
        case "gamble_host":
            return host_choices(s, c, h)
    return []


FREE_CHOICES = (
    pick_up_choices,
    belongings_choices,
    use_choices,
    drop_choices,
    craft_choices,
    equip_choices,
    exchange_choices,
    trade_choices,
    blood_choices,
    campfire_choices,
    camp_choices,
    throw_choices,
)
"""Every topic's 0-AP actions (DO L222-224, L231-233, L259-261), in the order a prompt
lists them."""

AP_CHOICES = (
    move_choices,
    flip_choices,
    attack_choices,
    omen_choices,
    town_choices,
    location_choices,
    barrow_choices,
)
"""Every topic's actions costing AP (DO L216-238), in the order a prompt lists them."""


def free_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """0-AP actions (DO L222-224, L231-233)."""
    return [choice for choices in FREE_CHOICES for choice in choices(s, c, h)]


def committed_free_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """A team member's 0-AP actions while it waits for the launch (facts §21): the same a
    seat done with the round keeps, and equipping only while it costs nothing (DO L386)."""
    engaged = h.engaged or any(x.space == h.at for x in s.creatures)
    return [
        choice
        for choice in free_choices(s, c, h)
        if choice.type in FREE_ACTIONS and not (choice.type == "equip" and engaged)
    ]


LEAVING = frozenset({"move", "maze"})
"""The commands that take a hero off its space."""


def ap_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    out = [choice for choices in AP_CHOICES for choice in choices(s, c, h)]
    if cannot_flee(s, h):
        out = [choice for choice in out if choice.type not in LEAVING]
    return out


def cannot_flee(s: State, h: Hero) -> bool:
    """DO L325: the guardian of a barrow's pitch black darkness "needs to be fought until
    the end - you cannot flee this fight": a hero on its space may not walk away."""
    return any(x.no_flee and x.space == h.at for x in s.creatures)


@action("end_round")
def do_end_round(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Forfeit the rest of the round's AP (DO L211); team attacks still asking this seat
    hear a no."""
    decline_invitations(ctx, seat)
    ctx.emit("RoundPassed", seat=seat)


def resolve_action(ctx: DoCtx, seat: int, type_: str, args: dict[str, Any]) -> None:
    handler = ACTIONS[type_]
    handler(ctx, seat, args)


def free_seat(state: State, seat: int) -> bool:
    """A living hero done with the round and answering nothing."""
    if not 0 <= seat < len(state.heroes) or not isinstance(state.decision, Act):
        return False
    h = state.heroes[seat]
    return h.alive and h.done and h.pending is None and h.must_attack is None


FREE_ACTIONS = frozenset(
    {
        "take",
        "drop",
        "drink",
        "craft",
        "equip",
        "give",
        "give_gold",
        "buy",
        "redeem",
        "sell",
        "sell_token",
        "haggle",
        "offer_blood",
        "take_belongings",
    }
)
"""The 0-AP actions open to a seat done with the round (bread would bring it back: not)."""


def free_window(state: State, seat: Any) -> list[Choice]:
    """A seat done with the round may still take its 0-AP actions, as it sends them."""
    if not isinstance(seat, int) or not free_seat(state, seat) or seat in state.decision.asked:  # type: ignore[union-attr]  (an Act: free_seat)
        return []
    return [strip(c) for c in free_choices(state, load(), state.heroes[seat]) if c.type in FREE_ACTIONS]


def resolve_free(ctx: DoCtx, seat: Any, command_type: str, args: dict[str, Any]) -> None:
    resolve_action(ctx, seat, command_type, args)


def strip(choice: Choice) -> Choice:
    """A choice as sent by its seat: ``hero`` is the seat itself, not an argument."""
    args = {k: v for k, v in choice.args.items() if k != "hero"}
    return Choice(choice.type, args, choice.label, choice.detail)


FREE = RULES.window(
    "free",
    FREE_ACTIONS,
    free_window,
    resolve_free,
    title="Free actions (0 AP) until the round ends",
    sets_aside=False,
)
"""A 0-AP action of a seat done with the round: open until the round ends, beside the round's
question (facts §21: trade, craft, potions, exchanges, unengaged equipping, dropping)."""
