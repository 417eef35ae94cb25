"""The round (DN 6.0): heroes take turns in any order the players choose, each turn in four
steps (start, event, action, end), then the Necromancer takes a turn; after every step, the
end of the game by the Holy Ritual (DN 18.2) and Hidden Relics appearing (DN 20.4)."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from app.games.darkest_night.content import LOCATIONS, MONASTERY
from app.games.darkest_night.decisions import NextHero
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.autopass import AUTO_PASS, auto_answer
from app.games.darkest_night.rules.cards import village_arrow
from app.games.darkest_night.rules.common import automatic, end_game, gain, hero_name
from app.games.darkest_night.rules.items import keys_held, relic_cost
from app.games.darkest_night.rules.powers import default_secrecy
from app.games.darkest_night.rules.wounds import settle_pending
from app.games.darkest_night.state import Hero, State
from app.kernel.types import Choice

SETTLED_KINDS = frozenset({"wound", "roll", "after_roll"})
"""Questions an "any time" use may answer before they are answered (``settle_pending``)."""

TURN_STEPS = ("turn_start", "turn_event", "turn_action", "turn_end", "turn_close")


def schedule(ctx: Ctx) -> None:
    """The agenda ran dry: decide what the round does next."""
    s = ctx.s
    if s.phase == "turn" and s.current is not None:
        ctx.then([{"op": "turn_close", "hero": s.current}])
        return
    if s.phase == "heroes":
        waiting = [h for h in s.living() if h.turns_left > 0]
        if len(waiting) == 1:
            # One hero still to act: who goes next has one answer (DN 6.0).
            hero = waiting[0]
            automatic(ctx, hero.id, f"{hero_name(ctx, hero.id)} is the last hero to act this round")
            start_turn(ctx, hero)
            return
        if waiting:
            seats = sorted({h.seat for h in waiting})
            ctx.ask(NextHero(seat=seats[0] if len(seats) == 1 else "any", seats=seats))
            return
        ctx.emit("NecromancerTurnStarted", round=s.round)
        ctx.then([{"op": name} for name in NECROMANCER_STEPS])
        return
    if s.phase == "necromancer":
        ctx.then([{"op": "start_round"}])
        return
    raise RuntimeError(f"nothing scheduled in phase {s.phase}")


NECROMANCER_STEPS = (
    "necromancer_overflow",
    "necromancer_darkness",
    "quest_timers",
    "necromancer_move",
    "necromancer_blight",
    "necromancer_done",
)


@step("start_round")
def start_round(ctx: Ctx, _: Step) -> None:
    """A new round: every hero's turn tracker to the sun side (DN 6.0); a player whose
    hero died picks a replacement now (DN 13.1)."""
    s = ctx.s
    ctx.emit("RoundStarted", round=s.round + 1)
    for seat_heroes in replacements_due(s):
        ctx.later([{"op": "replace_hero", "seat": seat_heroes[0], "fallen": seat_heroes[1]}])


def replacements_due(s: State) -> list[tuple[int, str]]:
    due = []
    for hero_id in s.fallen:
        hero = s.heroes[hero_id]
        if not hero.flags.get("replaced"):
            due.append((hero.seat, hero_id))
    return due


def next_hero_choices(s: State, d: NextHero) -> list[Choice]:
    out = []
    for hero in s.living():
        if hero.turns_left > 0:
            key = (hero.id, hero.lost_turn, hero.location, hero.turns_per_round, hero.turns_left)
            choice = _TURN_CHOICES.get(key)
            if choice is None:
                choice = _TURN_CHOICES[key] = turn_choice(s, hero)
            out.append(choice)
    return out


_TURN_CHOICES: dict[tuple[str, bool, str, int, int], Choice] = {}
"""``turn_choice`` by all it reads of the hero (its name comes from the content): made
once (a choice is only ever read)."""


def turn_choice(s: State, hero: Hero) -> Choice:
    """The choice of ``hero`` to take the next turn (DN 6.0)."""
    label = f"{hero_name(s, hero.id)} takes a turn"
    detail = "loses this turn (DN 13.3)" if hero.lost_turn else f"at the {hero.location}"
    if hero.turns_per_round > 1:
        detail += f"; turn {hero.turns_per_round - hero.turns_left + 1} of {hero.turns_per_round}"
    return Choice("take_turn", {"hero": hero.id}, label, detail)


@decision(NextHero, next_hero_choices)
def resolve_next_hero(ctx: Ctx, d: NextHero, _type: str, args: dict[str, Any]) -> None:
    """The players choose which hero goes next (DN 6.0)."""
    start_turn(ctx, ctx.s.heroes[args["hero"]])


def start_turn(ctx: Ctx, hero: Hero) -> None:
    """The hero's turn, or none if it was lost (DN 13.3)."""
    if hero.lost_turn:
        # Skip every part of the turn, good and bad (DN 13.3).
        ctx.emit("TurnSkipped", hero=hero.id, lost_turn_used=True)
        return
    ctx.emit("TurnStarted", hero=hero.id, round=ctx.s.round)
    ctx.then([{"op": name, "hero": hero.id} for name in TURN_STEPS])


def current_hero(ctx: Ctx, st: Step) -> Hero:
    return ctx.s.heroes[st["hero"]]


@step("turn_start", "hero")
def turn_start(ctx: Ctx, st: Step) -> None:
    """Start of turn (DN 6.0): unlock items used since this hero's last turn (DN 15.1),
    then the start-of-turn effects (see ``blights.start_of_turn_effects``)."""
    hero = current_hero(ctx, st)
    ctx.emit("TurnStepReached", hero=hero.id, step="start")
    if any(i.locked for i in hero.items):
        ctx.emit("ItemsUnlocked", hero=hero.id)
    ctx.then([{"op": "start_of_turn_effects", "hero": hero.id}])


@step("turn_event", "hero")
def turn_event(ctx: Ctx, st: Step) -> None:
    """Event step (DN 7.0): none in the Monastery (DN 7.3); with zero secrecy and the
    Necromancer here, he attacks instead (DN 7.2)."""
    hero = current_hero(ctx, st)
    ctx.emit("TurnStepReached", hero=hero.id, step="event")
    if hero.location == MONASTERY:
        return
    if ctx.s.necromancer == hero.location and hero.secrecy == 0:
        ctx.emit("NecromancerAttacked", hero=hero.id, location=hero.location)
        ctx.then([{"op": "battle_necromancer", "hero": hero.id, "attack": False}])
        return
    ctx.then([{"op": "draw_event", "hero": hero.id}])


@step("turn_action", "hero")
def turn_action(ctx: Ctx, st: Step) -> None:
    hero = current_hero(ctx, st)
    ctx.emit("TurnStepReached", hero=hero.id, step="action")
    ctx.then([{"op": "action_step", "hero": hero.id}])


@step("turn_end", "hero")
def turn_end(ctx: Ctx, st: Step) -> None:
    """End of turn (DN 6.0): blights' end-of-turn effects and their monsters (DN 11.2);
    a whole turn in the Monastery gives 1 secrecy up to default (DN 19.2)."""
    hero = current_hero(ctx, st)
    ctx.emit("TurnStepReached", hero=hero.id, step="end")
    ctx.then([{"op": "end_of_turn_effects", "hero": hero.id}])


@step("monastery_rest", "hero")
def monastery_rest(ctx: Ctx, st: Step) -> None:
    hero = current_hero(ctx, st)
    if hero.dead or hero.location != MONASTERY or hero.left_monastery:
        return
    gain(ctx, hero, "secrecy", 1, "a whole turn in the Monastery (DN 19.2)", cap=default_secrecy(ctx, hero))


@step("turn_close", "hero")
def turn_close(ctx: Ctx, st: Step) -> None:
    hero = ctx.s.heroes[st["hero"]]
    if ctx.s.current != hero.id:
        return
    # "For the rest of the turn" marks end with the turn, on whoever carries them.
    for other in ctx.s.heroes.values():
        for flag in [f for f in other.flags if f.startswith("turn:")]:
            ctx.emit("HeroFlagged", hero=other.id, flag=flag, value=None)
    if hero.flags.get("ignore_blights"):
        ctx.emit("HeroFlagged", hero=hero.id, flag="ignore_blights", value=None)
    ctx.emit("TurnEnded", hero=hero.id)


def check_victory(ctx: Ctx) -> None:
    """After every step: a question an "any time" use made moot is dropped (DN 14.3.2, see
    ``wounds.settle_pending``), one a seat auto-passes is answered (``autopass``); the Holy
    Ritual, 3 Holy Relics at the Monastery at once (DN 18.2); with Hidden Relics, a relic
    appears whenever the clues could pay for one more (DN 20.4)."""
    s = ctx.s
    if s.result is not None:
        return
    if s.decision is not None:
        if s.decision.kind in SETTLED_KINDS:
            settle_pending(ctx)
        if s.decision is not None and s.options.get(AUTO_PASS):
            auto_answer(ctx)  # a seat that auto-passes is not asked what adds nothing
    if s.options.get("hidden_relics") and s.phase != "setup":
        reveal_hidden_relics(ctx)
    if monastery_relics(ctx) >= 3:
        end_game(
            ctx,
            "win",
            "Three Holy Relics gathered at the Monastery: the Holy Ritual breaks the "
            "Necromancer's power (DN 18.2).",
        )


def victory_check_is_idle(ctx: Ctx) -> bool:
    """Whether ``check_victory`` would do nothing, asked without its call (most checks): with
    no question pending and no hidden relic to reveal it is the Holy Ritual alone (DN 18.2).
    Kept beside ``check_victory``: a condition added there must be added here too."""
    s = ctx.s
    return (
        s.decision is None
        and s.result is None
        and not s.options.get("hidden_relics")
        and monastery_relics(ctx) < 3
    )


def monastery_relics(ctx: Ctx) -> int:
    """The Holy Relics stored at the Monastery or carried by the heroes there, kept in the
    context's memo (``Ctx.memo``: it reads the heroes and the stored items, which only
    events that forget the memo change; the victory check asks after most steps)."""
    memo = ctx.memo
    if memo is None:
        return count_monastery_relics(ctx.s)
    known = memo.get("monastery_relics")
    if known is None:
        known = memo["monastery_relics"] = count_monastery_relics(ctx.s)
    return known


def count_monastery_relics(s: State) -> int:
    relics = sum(map(HOLY_RELIC.__eq__, map(kind_of_item, s.stored))) if s.stored else 0
    for hero in s.heroes.values():  # s.heroes_at(MONASTERY), inlined
        if hero.items and hero.location == MONASTERY and not hero.dead:
            relics += sum(map(HOLY_RELIC.__eq__, map(kind_of_item, hero.items)))  # counted in C
    return relics


HOLY_RELIC = "holy_relic"
kind_of_item = attrgetter("kind")


def reveal_hidden_relics(ctx: Ctx) -> None:
    s = ctx.s
    resource, cost = relic_cost(s)
    have = keys_held(s) if resource == "keys" else s.clues
    left = 4 - s.relics_retrieved - len(s.relics)
    if left > 0 and len(s.relics) < have // cost:
        ctx.then([{"op": "place_hidden_relic"}])


@step("place_hidden_relic")
def place_hidden_relic(ctx: Ctx, _: Step) -> None:
    """Hidden Relics: a relic appears when the heroes could retrieve one (DN 20.4)."""
    free = [loc for loc in LOCATIONS if loc != MONASTERY and loc not in ctx.s.relics]
    if not free:
        return
    location = village_arrow(ctx, ctx.rng.randint(1, 6))
    if location in ctx.s.relics:
        location = ctx.rng.choice(free)
    ctx.emit("RelicPlaced", location=location)
