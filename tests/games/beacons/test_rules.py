"""Beacons' rules, one test per rule (BC n in tests/support/beacons/game.py), played
through the kernel's command path on the stepwise engine."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.kernel import table as kernel
from app.kernel.options import validate_options
from app.kernel.registry import unregister
from app.kernel.types import GAME_MASTER, SPECTATOR, Command, Event, RuleError, SeatInfo, Viewer
from tests.support.beacons.game import (
    BEACONS,
    CORNERS,
    Act,
    BeaconsState,
    LightSquare,
    NextWatch,
    Ready,
    card_reach,
)

unregister(BEACONS.name)  # importing the package registers it: only tests that serve it keep it


class Table:
    """One table in memory: its log, its state, a seeded rng per command."""

    def __init__(self, seats: int = 2, seed: int = 1, **options: Any) -> None:
        infos = [SeatInfo(i, f"P{i + 1}") for i in range(seats)]
        self.events = BEACONS.setup(validate_options(BEACONS, options), infos, random.Random(seed))
        self.state: BeaconsState = kernel.replay(BEACONS, self.events)
        self.seed = seed

    def send(self, seat: int, type_: str, **args: Any) -> list[Event]:
        rng = random.Random(self.seed * 1000 + len(self.events))
        actor = Viewer("seat", frozenset({seat}))
        events = kernel.decide(BEACONS, self.state, Command(seat, type_, args), actor, rng)
        self.state = kernel.fold_all(BEACONS, self.state, events)
        self.events.extend(events)
        return events

    def watch(self, seat: int) -> None:
        """Make ``seat`` the keeper on watch (answering "who is next" when asked)."""
        d = self.state.decision
        if isinstance(d, NextWatch):
            self.send(seat, "take_watch", keeper=seat)
        assert isinstance(self.state.decision, Act) and self.state.decision.seat == seat

    def types(self, events: list[Event]) -> list[str]:
        return [e.type for e in events]


def test_setup_deals_two_hidden_cards_and_places_keepers_in_corners() -> None:
    """BC 1: corners, 1 spark, 2 cards from a shuffled deck of 12; a chapter starts."""
    t = Table(seats=3, colour=["jade"])
    s = t.state
    assert s.positions == list(CORNERS[:3]) and s.sparks == [1, 1, 1]
    assert [len(h) for h in s.hands] == [2, 2, 2] and len(s.deck) == 6
    assert s.colours == ["jade", "amber", "azure"]
    assert BEACONS.log_mark(next(e for e in t.events if e.type == "NightBegan")) == "chapter"
    assert t.events[-1].type == "Waiting"
    assert all(1 <= card_reach(c) <= 3 for hand in s.hands for c in hand)


def test_several_seats_are_asked_who_keeps_the_next_watch() -> None:
    """BC 2: every keeper still to watch is asked at once; the first answer decides."""
    t = Table(seats=3)
    d = t.state.decision
    assert isinstance(d, NextWatch) and d.asked == [0, 1, 2]
    prompts = BEACONS.prompts(t.state)
    required = {p.seat: p for p in prompts if p.required}
    assert set(required) == {0, 1, 2}
    assert [c.args for c in required[1].choices] == [{"keeper": 1}]  # only its own choice
    with pytest.raises(RuleError) as err:
        t.send(0, "take_watch", keeper=1)
    assert err.value.code == "not_offered"
    t.send(1, "take_watch", keeper=1)
    assert isinstance(t.state.decision, Act) and t.state.decision.seat == 1
    t.send(1, "wait")
    assert t.state.decision == NextWatch(seat="any", seats=[0, 2])
    t.send(2, "take_watch", keeper=2)
    t.send(2, "wait")
    assert t.state.decision == Act(seat=0)  # the last keeper is not asked, just on watch


def test_a_keeper_moves_orthogonally_and_not_onto_another() -> None:
    """BC 3: a move is one square up, down, left or right, onto a free square."""
    t = Table(seats=2)
    t.watch(0)
    moves = {c.args["to"] for c in BEACONS.prompts(t.state)[0].choices if c.type == "move"}
    assert moves == {"1-0", "0-1"}
    with pytest.raises(RuleError):
        t.send(0, "move", to="1-1")
    events = t.send(0, "move", to="1-0")
    assert events[0] == Event("KeeperMoved", {"seat": 0, "to": "1-0", "from": "0-0"})
    assert t.state.positions == ["1-0", "4-4"]
    assert BEACONS.undoable(events)  # no chance in a move


def test_lighting_is_a_two_step_question_with_back() -> None:
    """BC 3: raise a card (needs a spark), then pick a square within its reach; "back"
    lowers the card and asks the watch again."""
    t = Table(seats=2)
    t.watch(0)
    card = t.state.hands[0][0]
    raised = t.send(0, "raise", card=card)
    assert t.state.decision == LightSquare(seat=0, card=card)
    assert not BEACONS.undoable(raised)  # the card is revealed
    squares = [c.args["square"] for c in BEACONS.prompts(t.state)[0].choices if c.type == "light"]
    reach = card_reach(card)
    assert squares and all(sum(map(int, sq.split("-"))) <= reach for sq in squares)
    assert len(squares) == len([(r, c) for r in range(5) for c in range(5) if r + c <= reach])
    t.send(0, "back")
    assert t.state.decision == Act(seat=0) and card in t.state.hands[0]
    t.send(0, "raise", card=card)
    lit = t.send(0, "light", square=squares[-1])
    assert t.state.lit == [squares[-1]] and t.state.sparks == [0, 1] and card not in t.state.hands[0]
    assert BEACONS.undoable(lit)
    assert t.types(lit)[:1] == ["BeaconLit"]


def test_raising_needs_a_spark_and_resting_gains_one() -> None:
    """BC 3: no spark, no lantern; rest gives a spark, up to 3."""
    t = Table(seats=1)
    t.state.sparks[0] = 0
    t.watch(0)
    types = {c.type for c in BEACONS.prompts(t.state)[0].choices}
    assert "raise" not in types and "rest" in types
    t.send(0, "rest")
    assert t.state.sparks == [1]


def test_drawing_takes_the_deck_top_and_is_hidden_from_others() -> None:
    """BC 1/3: a drawn card is the next of the deck, seen only by its keeper."""
    t = Table(seats=2)
    t.watch(0)
    top = t.state.deck[0]
    events = t.send(0, "draw")
    assert top in t.state.hands[0] and not BEACONS.undoable(events)
    drawn = events[0]
    assert BEACONS.event_view(drawn, Viewer("seat", frozenset({0}))).data["card"] == top  # type: ignore[union-attr]
    for viewer in (SPECTATOR, Viewer("seat", frozenset({1}))):
        assert top not in json.dumps(BEACONS.event_view(drawn, viewer).to_json())  # type: ignore[union-attr]
    assert BEACONS.event_view(drawn, GAME_MASTER) == drawn


def test_hands_and_the_deck_are_secrets() -> None:
    """BC 1: a hand is its keeper's alone; nobody sees the deck's order."""
    t = Table(seats=2)
    secrets = BEACONS.secrets(t.state)
    assert {s.value for s in secrets} == {*t.state.hands[0], *t.state.hands[1], *t.state.deck}
    other = BEACONS.view(t.state, Viewer("seat", frozenset({1})))
    assert "hand" not in other["keepers"][0] and other["keepers"][0]["cards"] == 2
    own = BEACONS.view(t.state, Viewer("seat", frozenset({0})))
    assert [c["card"] for c in own["keepers"][0]["hand"]] == t.state.hands[0]
    opening = next(e for e in t.events if e.type == "NightBegan")
    assert "deck" not in BEACONS.event_view(opening, SPECTATOR).data  # type: ignore[union-attr]


def test_dusk_rolls_a_die_when_every_keeper_has_watched() -> None:
    """BC 4: after the last watch, a die; 1–3 grows the darkness."""
    t = Table(seats=1)
    t.watch(0)
    events = t.send(0, "wait")
    dusk = next(e for e in events if e.type == "DuskFell")
    assert 1 <= dusk.data["roll"] <= 6
    assert dusk.data["darkness"] == (1 if dusk.data["roll"] <= 3 else 0)
    assert not BEACONS.undoable(events) and BEACONS.log_mark(dusk) == "round"


def test_three_beacons_win_the_night_and_the_table_waits_between_nights() -> None:
    """BC 5/6: the third beacon ends the night won; every keeper is asked to be ready."""
    t = Table(seats=2, campaign="campaign", nights=2)
    t.state.lit = ["2-2", "3-3"]
    t.state.sparks = [2, 2]
    t.watch(0)
    card = t.state.hands[0][0]
    t.send(0, "raise", card=card)
    events = t.send(0, "light", square="0-0")
    ended = next(e for e in events if e.type == "NightEnded")
    assert ended.data == {"night": 0, "result": "win"}
    assert t.state.decision == Ready(seat="any", seats=[0, 1], next_night=1)
    assert BEACONS.outcome(t.state) is None
    chapters = BEACONS.chapters(t.state)
    assert [(c.title, c.outcome.result if c.outcome else None, c.current) for c in chapters] == [
        ("Night 1", "win", False),
        ("Night 2", None, False),
    ]
    assert [p.seat for p in BEACONS.prompts(t.state)] == [0, 1]  # no "any time" between nights
    t.send(1, "ready", keeper=1)
    assert t.state.decision == Ready(seat="any", seats=[0], next_night=1)
    with pytest.raises(RuleError):
        t.send(1, "ready", keeper=1)
    began = t.send(0, "ready", keeper=0)
    assert "NightBegan" in t.types(began) and t.state.night == 1
    assert BEACONS.chapters(t.state)[1].current


def test_darkness_four_loses_the_night_and_the_campaign_ends() -> None:
    """BC 5/8: darkness 4 loses a night; the last night ends the campaign."""
    t = Table(seats=1, campaign="single")
    assert t.state.nights == 1
    for _ in range(200):
        if t.state.result is not None:
            break
        t.send(0, "wait")
    assert t.state.results == ["loss"] and t.state.darkness == 4
    outcome = BEACONS.outcome(t.state)
    assert outcome is not None and outcome.result == "loss" and "1 of 1" in outcome.reason
    assert BEACONS.prompts(t.state) == []
    with pytest.raises(RuleError):
        t.send(0, "wait")


def test_a_spark_may_be_passed_at_any_time_and_the_question_is_asked_again() -> None:
    """BC 7: an "any time" window: passing a spark interrupts even another keeper's
    pending question, which is then asked again."""
    t = Table(seats=2)
    t.watch(0)
    card = t.state.hands[0][0]
    t.send(0, "raise", card=card)  # its spark is held by the raised lantern: 0 may not pass it
    optional = [p for p in BEACONS.prompts(t.state) if not p.required]
    assert {p.seat for p in optional} == {1} and optional[0].choices[0].args == {"to": 0}
    events = t.send(1, "pass_spark", to=0)
    assert events[0] == Event("SparkPassed", {"from": 1, "to": 0})
    assert t.state.sparks == [2, 0]  # 0's raised lantern holds one of them
    assert t.state.decision == LightSquare(seat=0, card=card)
    assert BEACONS.undoable(events)
    with pytest.raises(RuleError) as err:
        t.send(1, "pass_spark", to=0)  # none left
    assert err.value.code == "not_a_choice" and "(BC 7)" in err.value.message


def test_only_the_asked_seat_may_answer() -> None:
    t = Table(seats=2)
    t.watch(0)
    with pytest.raises(RuleError) as err:
        t.send(1, "wait")
    assert err.value.code == "not_your_decision"
    with pytest.raises(RuleError):
        t.send(0, "move", to="4-4")


def test_choice_targets_name_squares() -> None:
    t = Table(seats=1)
    t.watch(0)
    targets = {BEACONS.choice_target(t.state, c) for c in BEACONS.prompts(t.state)[0].choices}
    assert {"square:1-0", "square:0-1"} <= targets
    assert None in targets  # rest, wait, raise stand for no square


def test_the_bot_lights_when_it_can_and_ignores_optional_prompts() -> None:
    t = Table(seats=2)
    t.watch(0)
    rng = random.Random(3)
    prompt = next(p for p in BEACONS.prompts(t.state) if p.required)
    assert BEACONS.bot_choice(t.state, prompt, rng).type == "raise"  # type: ignore[union-attr]
    t.send(0, "raise", card=t.state.hands[0][0])
    prompt = next(p for p in BEACONS.prompts(t.state) if p.required)
    assert BEACONS.bot_choice(t.state, prompt, rng).type == "light"  # type: ignore[union-attr]
    optional = next(p for p in BEACONS.prompts(t.state) if not p.required)
    assert BEACONS.bot_choice(t.state, optional, rng) is None


def test_options_per_seat_colours_are_distinct_and_nights_depend_on_length() -> None:
    with pytest.raises(RuleError):
        validate_options(BEACONS, {"colour": ["jade", "jade"]})
    with pytest.raises(RuleError):
        validate_options(BEACONS, {"campaign": "single", "nights": 3})
    assert validate_options(BEACONS, {"campaign": "campaign", "nights": 3})["nights"] == 3


def test_the_log_replays_to_the_same_table_waiting_on_the_same_question() -> None:
    """Every command ends with Waiting; a stored log rebuilds the state, decision and all."""
    t = Table(seats=2)
    t.watch(0)
    t.send(0, "raise", card=t.state.hands[0][0])
    stored = [Event(**json.loads(json.dumps(e.to_json()))) for e in t.events]
    assert kernel.replay(BEACONS, stored) == t.state
    waiting = t.events[-1]
    assert waiting.type == "Waiting" and waiting.data["decision"]["kind"] == "light_square"


def test_a_clone_shares_nothing_the_rules_change() -> None:
    t = Table(seats=2)
    before = kernel.replay(BEACONS, t.events)
    copy = t.state.clone()
    copy.hands[0].append("x")
    copy.positions[0] = "2-2"
    copy.agenda.append({"op": "dusk"})
    copy.lit.append("1-1")
    copy.sparks[1] = 3
    assert t.state == before
