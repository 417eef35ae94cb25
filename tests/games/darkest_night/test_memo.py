"""The answers the engine remembers about a state are the answers it would work out again.

A command's private state keeps a memo of answers (a hero's lasting modifiers, dice
bonuses, blight dice, whether artifacts work) that survives the events of
``engine.MEMO_SURVIVES`` (they change no hero and no blight) and events that change
nothing; any other event forgets it. These tests play seeded random games in which, after
every event a command emits, every remembered answer is worked out afresh (no memo) and
compared: a wrong entry in ``MEMO_SURVIVES``, or a memo'd answer that reads more than the
heroes and the blights, fails here. They also check the small caches of answers that
depend on the content alone (``chance``, a power's modifiers, hero names)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night import game as dn_game
from app.games.darkest_night.content import load
from app.games.darkest_night.describe import hero_label
from app.games.darkest_night.engine import MEMO_SURVIVES, RULES, Ctx
from app.games.darkest_night.rules.common import hero_name
from app.games.darkest_night.rules.dice import _chance, chance
from app.games.darkest_night.rules.powers import (
    artifacts_work,
    bonus_mods,
    dice_bonus,
    list_bonus_mods,
    owned_mods,
)
from app.games.darkest_night.rules.stakes import BLIGHT_DICE, blight_dice_sources
from app.games.darkest_night.state import State
from app.kernel import table as kernel
from app.kernel.game import validate_options
from app.kernel.rng import rng_for
from app.kernel.types import GAME_MASTER, GM_SEAT, Choice, Command, SeatInfo, Viewer


def play(seed: int, seats: int, commands: int) -> tuple[State, int]:
    """Up to ``commands`` random legal commands of a seeded game (sometimes an "any time"
    one, as the conformance run picks them): the last state and the commands played."""
    picker = random.Random(seed)
    game = DARKEST_NIGHT
    opening = game.setup(
        validate_options(game, {}), [SeatInfo(i, f"P{i}") for i in range(seats)], rng_for(f"memo-{seed}", 1)
    )
    state, count = kernel.replay(game, opening), len(opening)
    for played in range(commands):
        if game.outcome(state) is not None:
            return state, played
        prompts = [p for p in game.prompts(state) if p.choices]
        optional = [p for p in prompts if not p.required]
        pool = optional if optional and picker.random() < 0.2 else [p for p in prompts if p.required]
        prompt = picker.choice(pool)
        choice = picker.choice(prompt.choices)
        actor = GAME_MASTER if prompt.seat == GM_SEAT else Viewer("seat", frozenset({prompt.seat}))
        events = kernel.decide(
            game,
            state,
            Command(prompt.seat, choice.type, choice.args),
            actor,
            rng_for(f"memo-{seed}", count + 1),
        )
        state, count = kernel.fold_all(game, state, events), count + len(events)
    return state, commands


def fresh_answer(ctx: Ctx, key: Any) -> Any:
    """The answer a memo key stands for, worked out on the same state with no memo."""
    plain = Ctx(ctx.s, ctx.rng, ctx.c)  # memo None: nothing remembered
    if key == "artifacts_work":
        return artifacts_work(plain)
    if key == "monastery_relics":
        from app.games.darkest_night.rules.round import monastery_relics

        return monastery_relics(plain)
    kind, *rest = key
    if kind == "bonus_mods":
        return bonus_mods(plain, ctx.s.heroes[rest[0]])
    if kind == "dice_bonus":
        hero_id, location, roll, vs = rest
        hero = ctx.s.heroes[hero_id]
        assert hero.location == location
        return dice_bonus(plain, hero, roll, {"vs": vs})
    if kind == "blight_dice_sources":
        effect, location = rest
        holder = next(h for h in ctx.s.heroes.values() if h.location == location)
        roll = next(r for r, e in BLIGHT_DICE.items() if e == effect)
        return blight_dice_sources(plain, holder, roll)
    raise AssertionError(f"a memo key this test does not know: {key!r}")


class CheckingCtx(Ctx):
    """A command's context that, after every event it emits, checks each remembered
    answer against a fresh one."""

    checked = 0

    def emit(self, type_: str, **data: Any) -> None:
        super().emit(type_, **data)
        for key, known in list((self.memo or {}).items()):
            if (
                isinstance(key, tuple)
                and key[0] == "blight_dice_sources"
                and not any(h.location == key[2] for h in self.s.heroes.values())
            ):
                continue  # no hero stands there any more: nothing to ask it for
            if isinstance(key, tuple) and key[0] in ("bonus_mods", "dice_bonus"):
                hero = self.s.heroes.get(key[1])
                if hero is None or (key[0] == "dice_bonus" and hero.location != key[2]):
                    continue  # asked again, the key would differ: the entry is never read
            assert fresh_answer(self, key) == known, f"after {type_}: {key!r} is stale"
            CheckingCtx.checked += 1


@pytest.mark.parametrize("seed", [3, 11])
def test_every_remembered_answer_holds_after_every_event(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dn_game, "Ctx", CheckingCtx)
    CheckingCtx.checked = 0
    _, played = play(seed, 2, 400)
    assert played > 100
    assert CheckingCtx.checked > 200  # the memo was used, and kept across events


def test_the_events_that_keep_the_memo_change_no_hero_and_no_blight() -> None:
    """Each applier of ``MEMO_SURVIVES`` is registered, and none of them is one that
    writes a hero (through ``hero_w``) or the blights."""
    import inspect

    for event_type in MEMO_SURVIVES:
        applier = RULES.appliers[event_type]
        source = inspect.getsource(applier)
        assert "hero" not in source and "blight" not in source and "stored" not in source, event_type


def test_chance_is_the_formula_for_every_roll_asked() -> None:
    for dice, target, relic, terror, need in itertools.product(
        range(0, 7), range(1, 9), (False, True), (False, True), (1, 2)
    ):
        expected = _chance(dice, target, relic, terror, need)
        assert chance(dice, target, relic=relic, terror=terror, need=need) == expected
        assert chance(dice, target, relic=relic, terror=terror, need=need) == expected  # remembered


def test_a_powers_modifiers_are_made_once_per_owner_and_name_them() -> None:
    content = load()
    definition = next(p for p in content.all_powers.values() if p.bonus)
    mods = owned_mods(definition, "bonus", "seer")
    assert owned_mods(definition, "bonus", "seer") is mods
    assert mods == tuple(m | {"power": definition.id, "owner": "seer"} for m in definition.bonus)
    assert owned_mods(definition, "bonus", "prince") != mods


def test_hero_names_are_the_labels() -> None:
    for hero_id in [*load().heroes, "prince~2"]:
        assert hero_name(None, hero_id) == hero_label(hero_id)  # type: ignore[arg-type]
    assert hero_name(None, "") == "Someone"  # type: ignore[arg-type]


def test_bonus_mods_without_memo_equal_the_listing() -> None:
    state, _ = play(5, 1, 150)
    ctx = Ctx(state, None, load())  # type: ignore[arg-type]
    for hero in state.living():
        assert bonus_mods(ctx, hero) == list_bonus_mods(ctx, hero)


def answers_hold(state: State, answers: dict[Any, Any]) -> int:
    """Check every answer remembered about ``state`` against a fresh one: how many."""
    plain = Ctx(state, None, load())  # type: ignore[arg-type]
    checked = 0
    for key, known in answers.items():
        if (
            isinstance(key, tuple)
            and key[0] == "blight_dice_sources"
            and not any(h.location == key[2] for h in state.heroes.values())
        ):
            continue  # no hero stands there: nothing to ask it for
        assert fresh_answer(plain, key) == known, f"{key!r} is stale"
        checked += 1
    return checked


def test_answers_handed_from_state_to_state_hold() -> None:
    """A command starts from the answers about the state it was forked from (those its
    prompts worked out, ``Ctx.knowing``) and hands those its rules worked out since its
    last change to the state it made (``memo.hand_on``): each is the answer worked out
    afresh on that published state, after its prompts are listed and before."""
    from app.kernel.flow import memo

    game = DARKEST_NIGHT
    checked = 0
    for seed in (4, 9):
        picker = random.Random(seed)
        opening = game.setup(
            validate_options(game, {}), [SeatInfo(i, f"P{i}") for i in range(2)], rng_for(f"hand-{seed}", 1)
        )
        state, count = kernel.replay(game, opening), len(opening)
        for _ in range(300):
            if game.outcome(state) is not None:
                break
            checked += answers_hold(state, memo.known_answers(state) or {})  # handed on
            prompts = [p for p in game.prompts(state) if p.choices]
            checked += answers_hold(state, memo.known_answers(state) or {})  # and listed
            optional = [p for p in prompts if not p.required]
            pool = optional if optional and picker.random() < 0.2 else [p for p in prompts if p.required]
            prompt = picker.choice(pool)
            choice = picker.choice(prompt.choices)
            actor = GAME_MASTER if prompt.seat == GM_SEAT else Viewer("seat", frozenset({prompt.seat}))
            command = Command(prompt.seat, choice.type, choice.args)
            events = kernel.decide(game, state, command, actor, rng_for(f"hand-{seed}", count + 1))
            state, count = kernel.fold_all(game, state, events), count + len(events)
    assert checked > 500  # answers were handed on and listed


def test_any_time_offers_listed_once_are_those_of_the_fork_a_command_checks() -> None:
    """An "any time" command is routed by the offers its state's prompts listed
    (``FlowGame.window_choices``), not listed again on the command's fork: they are the
    offers worked out afresh on the published state, and on its fork with the pending
    decision and agenda set aside (as ``Ctx.interrupt`` leaves it)."""
    from app.games.darkest_night.rules.any_time import ANY_TIME, anytime_choices
    from app.kernel.flow.memo import reading

    checked = 0
    for seed in (6, 8):
        state, _ = play(seed, 2, 150)
        with reading(state):
            DARKEST_NIGHT.prompts(state)
            for seat in range(2):
                listed = DARKEST_NIGHT.window_choices(state, ANY_TIME, seat)
                assert DARKEST_NIGHT.window_choices(state, ANY_TIME, seat) is listed  # remembered
                fork = state.fork()
                fork.decision, fork.agenda = None, []
                assert listed == anytime_choices(state, seat) == anytime_choices(fork, seat)
                checked += len(listed)
    assert checked > 2


def test_the_events_that_keep_the_memo_write_nothing_its_answers_read() -> None:
    """Each applier of ``MEMO_KEPT_BY`` writes no hero's location, flags, powers, items or
    death and no blight (what the memo's answers read), and ``HeroChanged`` sets only a
    stat of ``HERO_STATS``, none of which is one of those."""
    import inspect
    import re

    from app.games.darkest_night import events
    from app.games.darkest_night.engine import MEMO_KEPT_BY

    parts = r"\.(location|flags|powers|items|dead|stored)"
    writes = re.compile(parts + r"\s*(=[^=]|\[|\.(append|extend|remove|pop|clear))")
    for event_type in MEMO_KEPT_BY:
        source = inspect.getsource(RULES.appliers[event_type])
        assert not writes.search(source) and "blight" not in source, event_type
    for setter in events.HERO_STATS.values():
        source = inspect.getsource(setter)
        assert not writes.search(source) and "blight" not in source, setter.__name__
    assert {"location", "flags", "powers", "items", "dead"}.isdisjoint(events.HERO_STATS)


def test_the_choices_made_once_stay_as_made_along_games() -> None:
    """The action step's fixed choices and refusals, each place's travel choice and the
    auto-pass toggle are made once and offered in every prompt: playing games (any-time
    commands too, which hand a choice's own arguments to the rules) changes none of them."""
    from app.games.darkest_night.content import LOCATIONS
    from app.games.darkest_night.rules import actions, autopass

    shared = [
        actions.HIDE,
        actions.TAKE_NO_ACTION,
        actions.END_ACTION_STEP,
        actions.NO_SEARCH_HERE,
        actions.NO_PRAYER_HERE,
        actions.NO_BLIGHT_HERE,
        autopass.AUTO_PASS_ON,
        autopass.AUTO_PASS_OFF,
        *(actions.travel_choice(location) for location in LOCATIONS),
        *(actions.meditate_choice(sparks) for sparks in range(4)),
    ]
    made = repr(shared)
    for seed in (2, 13):
        play(seed, 2, 300)
    assert repr(shared) == made
    first = LOCATIONS[0]
    assert actions.travel_choice(first) is shared[8]  # one per place
    fresh = Choice("travel", {"to": first}, f"Travel to the {first}", "+1 secrecy (up to 5, DN 8.0)")
    assert shared[8] == fresh


def test_the_choices_kept_by_what_they_read_are_those_made_afresh() -> None:
    """The choice of a hero, of starting powers and of the hero taking the next turn are
    kept by what they read (``setup._HERO_CHOICES``, ``_POWERS_CHOICES``,
    ``round._TURN_CHOICES``): along games, every kept one equals the one made afresh."""
    from app.games.darkest_night.rules import round as dn_round
    from app.games.darkest_night.rules import setup as dn_setup

    for seed in (3, 10):
        play(seed, 2, 300)
    content = load()
    assert dn_setup._HERO_CHOICES and dn_setup._POWERS_CHOICES and dn_round._TURN_CHOICES
    for (hero_id, replacing), choice in dn_setup._HERO_CHOICES.items():
        label, detail = dn_setup.hero_text(content, hero_id, replacing)
        assert choice == Choice("choose_hero", {"hero": hero_id}, label, detail)
    for (starting, count), choices in dn_setup._POWERS_CHOICES.items():
        assert list(choices) == dn_setup.list_powers_choices(list(starting), count)
    for (hero_id, lost_turn, location, per_round, left), choice in dn_round._TURN_CHOICES.items():
        hero = dn_round.Hero(hero_id, 0, 1, 1, 1, 1, location=location, lost_turn=lost_turn)
        hero.turns_per_round, hero.turns_left = per_round, left
        assert choice == dn_round.turn_choice(State(), hero)


def test_the_choices_made_once_per_number_are_those_made_afresh() -> None:
    from app.games.darkest_night.rules import actions

    for sparks in range(4):
        detail = f"gain a spark ({sparks}/3)" if sparks < 3 else "you already have 3 sparks"
        assert actions.meditate_choice(sparks) == Choice("meditate", {}, "Meditate", detail)


def test_a_yield_made_once_per_loss_is_the_one_made_afresh() -> None:
    from app.games.darkest_night.rules import combat

    for seed in (4, 14):
        play(seed, 1, 200)
    assert combat.yield_choice.cache_info().currsize > 0
    for fail in ("a wound", "lose 1 secrecy"):
        detail = f"accept the loss: {fail} (pulling punches, DN 12.3)"
        made = Choice("yield", {}, "Yield without rolling", detail)
        assert combat.yield_choice(fail) == made


def test_nothing_to_add_to_a_roll_is_a_roll_with_one_choice() -> None:
    """``dice.nothing_to_add`` (asked before a roll, without labelling its choices) says
    whether ``roll_choices`` lists rolling alone: on every roll asked along games, with
    and without sparks, and with the relic's +1 to refuse or not."""
    from dataclasses import replace

    from app.games.darkest_night.decisions import Roll
    from app.games.darkest_night.rules.dice import nothing_to_add, roll_choices

    game = DARKEST_NIGHT
    compared = 0
    for seed in (2, 6, 9):
        picker = random.Random(seed)
        opening = game.setup(validate_options(game, {}), [SeatInfo(0, "P0")], rng_for(f"roll-{seed}", 1))
        state, count = kernel.replay(game, opening), len(opening)
        for _ in range(500):
            if game.outcome(state) is not None:
                break
            if isinstance(state.decision, Roll):
                for sparks in (0, 2):
                    for relic in (False, True):
                        probe = state.clone()
                        hero = probe.heroes[state.decision.step["hero"]]
                        hero.sparks = sparks
                        d = replace(state.decision, step=state.decision.step | {"relic": relic})
                        ctx = Ctx(probe, None, load())  # type: ignore[arg-type]
                        assert nothing_to_add(ctx, hero, d.step) == (len(roll_choices(probe, d)) == 1)
                        compared += 1
            prompts = [p for p in game.prompts(state) if p.choices and p.required]
            choice = picker.choice(picker.choice(prompts).choices)
            command = Command(prompts[0].seat, choice.type, choice.args)
            events = kernel.decide(
                game, state, command, Viewer("seat", frozenset({0})), rng_for(f"roll-{seed}", count + 1)
            )
            state, count = kernel.fold_all(game, state, events), count + len(events)
    assert compared >= 8


def test_the_prompt_titles_kept_by_kind_and_hero_are_those_made_afresh() -> None:
    """``prompt_title`` keeps the title of every kind but a combat by kind and hero: along
    games, each prompt's title is the one worked out from the decision itself."""
    from app.games.darkest_night.decisions import decision_hero, decision_title
    from app.games.darkest_night.view import TITLES

    compared = 0
    for seed in (1, 5):
        game = DARKEST_NIGHT
        picker = random.Random(seed)
        opening = game.setup(validate_options(game, {}), [SeatInfo(0, "P0")], rng_for(f"title-{seed}", 1))
        state, count = kernel.replay(game, opening), len(opening)
        for _ in range(300):
            if game.outcome(state) is not None:
                break
            d = state.decision
            prompts = [p for p in game.prompts(state) if p.choices and p.required]
            if d is not None and prompts:
                title = decision_title(d) or TITLES.get(d.kind, d.kind)
                hero = decision_hero(d)
                assert prompts[0].title == (f"{hero_name(state, hero)}: {title}" if hero else title)
                compared += 1
            choice = picker.choice(picker.choice(prompts).choices)
            command = Command(prompts[0].seat, choice.type, choice.args)
            seat = Viewer("seat", frozenset({0}))
            events = kernel.decide(game, state, command, seat, rng_for(f"title-{seed}", count + 1))
            state, count = kernel.fold_all(game, state, events), count + len(events)
    assert compared > 100 and len(dn_game._TITLES_BY_HERO) > 5


def states_along(seed: int, commands: int) -> Any:
    """Every published state of a seeded random game (as ``play`` picks), in turn."""
    picker = random.Random(seed)
    game = DARKEST_NIGHT
    opening = game.setup(validate_options(game, {}), [SeatInfo(0, "P0")], rng_for(f"along-{seed}", 1))
    state, count = kernel.replay(game, opening), len(opening)
    for _ in range(commands):
        if game.outcome(state) is not None:
            return
        yield state
        prompts = [p for p in game.prompts(state) if p.choices]
        optional = [p for p in prompts if not p.required]
        pool = optional if optional and picker.random() < 0.2 else [p for p in prompts if p.required]
        prompt = picker.choice(pool)
        choice = picker.choice(prompt.choices)
        events = kernel.decide(
            game,
            state,
            Command(prompt.seat, choice.type, choice.args),
            Viewer("seat", frozenset({0})),
            rng_for(f"along-{seed}", count + 1),
        )
        state, count = kernel.fold_all(game, state, events), count + len(events)


def plain_protection(s: State, location: str, blight_id: str) -> str | None:
    """``blights.is_protected`` as written before the content's index of protecting blights."""
    for loc, blights in s.blights.items():
        for other in blights:
            if other.id == blight_id:
                continue
            effect = load().blights[other.type].effect
            if effect == "protects_here" and loc == location:
                return "a Shroud here protects the other blights (Shroud)"
            if effect == "protects_elsewhere" and loc != location:
                return f"the Nexus in the {loc} protects blights elsewhere (Nexus)"
    return None


def plain_blight_count(s: State, effect: str, location: str | None) -> int:
    """``common.blight_effect_active`` (no hero) as a plain loop over the content."""
    count = 0
    for loc, blights in s.blights.items():
        for blight in blights:
            spec = load().blights[blight.type]
            if spec.effect == effect and (spec.color == "red" or loc == location):
                count += 1
    return count


@pytest.mark.parametrize("seed", [5, 17])
def test_the_blight_and_relic_counts_made_quickly_are_the_plain_ones(seed: int) -> None:
    """The answers the rules make through the content's index of protecting blights and by
    mapping over types (``is_protected``, ``count_monastery_relics``; ``blight_effect_active``
    too) equal plain loops over the content, on every state of random games (blights of
    every kind come and go; relics are put where they count)."""
    from app.games.darkest_night.rules.blights import is_protected
    from app.games.darkest_night.rules.common import blight_effect_active
    from app.games.darkest_night.rules.round import count_monastery_relics
    from app.games.darkest_night.state import Item

    content = load()
    assert content.protecting_blights == {
        name: b.effect for name, b in content.blights.items() if b.effect.startswith("protects_")
    }
    assert content.protecting_blights  # the Shroud and the Nexus
    effects = sorted({b.effect for b in content.blights.values()})
    protected = counted = 0
    for state in states_along(seed, 400):
        ctx = Ctx.reader(state)
        for location, blights in state.blights.items():
            for blight in blights:
                answer = is_protected(ctx, location, blight.id)
                assert answer == plain_protection(state, location, blight.id)
                protected += answer is not None
        for effect in effects:
            for location in [None, *state.blights]:
                fresh = plain_blight_count(state, effect, location)
                assert blight_effect_active(ctx, effect, location) == fresh
                counted += 1
        relics = state.clone()
        relics.stored.append(Item("i900", "holy_relic"))
        for hero in relics.heroes.values():
            hero.items.append(Item(f"i9{hero.id}", "holy_relic"))
        expected = sum(1 for i in relics.stored if i.kind == "holy_relic") + sum(
            1 for h in relics.heroes_at("Monastery") for i in h.items if i.kind == "holy_relic"
        )
        assert count_monastery_relics(relics) == expected
    assert counted and protected  # the games had blights, some of them protected
