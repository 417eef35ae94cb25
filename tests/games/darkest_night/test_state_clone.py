"""The engine never changes a state a caller holds (``evolve`` and ``decide`` are pure).

``State.clone`` is the full structural copy (it shares nothing mutable); ``State.fork``,
the engine's successor, shares the fallen heroes (and values only ever replaced whole)
with the state it came from, and the appliers copy a fallen hero before writing it
(``State.hero_w``). These tests prove the invariant the engine relies on: along seeded
random games, every state a command started from, and every state an event was applied
to, is exactly as it was afterwards — and playing with shared parts gives the very
events a fully private copy gives (no rule reads a part that changed under it)."""

from __future__ import annotations

import functools
import pickle
import random
from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night import game as dn_game
from app.games.darkest_night.engine import RULES, Ctx
from app.games.darkest_night.rules.round import check_victory
from app.games.darkest_night.state import Deck, DecksOnRead, Hero, Item, Placed, Power, State, copy_data
from app.kernel import table as kernel
from app.kernel.conformance import random_playout
from app.kernel.flow import Rules
from app.kernel.game import validate_options
from app.kernel.rng import rng_for
from app.kernel.types import GAME_MASTER, GM_SEAT, Choice, Command, Event, SeatInfo, Viewer


def mutable_ids(value: Any, seen: dict[int, str], path: str) -> None:
    """Every list, dict and non-frozen dataclass reachable from ``value``, by id (a frozen
    dataclass, such as a typed decision, is a value shared whole: not looked into)."""
    if is_dataclass(value) and value.__dataclass_params__.frozen:
        return
    if isinstance(value, list | dict) or (is_dataclass(value) and not value.__dataclass_params__.frozen):
        seen[id(value)] = path
    if isinstance(value, dict):
        for k, v in value.items():
            mutable_ids(v, seen, f"{path}[{k!r}]")
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            mutable_ids(v, seen, f"{path}[{i}]")
    elif is_dataclass(value):
        for f in fields(value):
            mutable_ids(getattr(value, f.name), seen, f"{path}.{f.name}")


def fingerprint(state: State) -> str:
    """Every value of the state, nested records included (a dataclass repr is deep)."""
    return repr(state)


def assert_independent(state: State) -> None:
    copy = state.clone()
    assert copy == state
    assert repr(copy) == repr(state)  # same values of the same types (1 == True, but not in a repr)
    ours: dict[int, str] = {}
    theirs: dict[int, str] = {}
    mutable_ids(state, ours, "state")
    mutable_ids(copy, theirs, "copy")
    shared = ours.keys() & theirs.keys()
    assert not shared, f"the clone shares {sorted(ours[i] for i in shared)[:5]}"


def play(
    seed: int, options: dict[str, Any], seats: int, *, private: bool = False, max_commands: int = 3000
) -> tuple[list[Event], set[str]]:
    """One seeded random game (the conformance run's picks), every command decided and
    folded. After each command the state it started from, and after each event of the fold
    the state it was applied to, must be unchanged. ``private`` plays with ``fork`` made a
    full ``clone`` (nothing shared), to compare. The events, and the event types applied."""
    game = DARKEST_NIGHT
    picker = random.Random(seed)
    table_seed = f"fork-{seed}"
    infos = [SeatInfo(i, f"Player {i + 1}") for i in range(seats)]
    log = game.setup(validate_options(game, options), infos, rng_for(table_seed, 1))
    state = kernel.replay(game, log)
    applied: set[str] = set()
    for _ in range(max_commands):
        if game.outcome(state) is not None:
            break
        prompts = [p for p in game.prompts(state) if p.choices]
        optional = [p for p in prompts if not p.required]
        pool = optional if optional and picker.random() < 0.2 else [p for p in prompts if p.required]
        prompt = picker.choice(pool)
        choice = picker.choice(prompt.choices)
        actor = GAME_MASTER if prompt.seat == GM_SEAT else Viewer("seat", frozenset({prompt.seat}))
        before = fingerprint(state)
        command = Command(prompt.seat, choice.type, choice.args)
        events = kernel.decide(game, state, command, actor, rng_for(table_seed, len(log) + 1))
        assert fingerprint(state) == before, f"deciding {command} changed the state it read"
        folded = kernel.fold_all(game, state, events)  # the state decide reached (fast path)
        assert fingerprint(state) == before
        # The fold one event at a time, as replay does: no event changes the state it is applied to.
        step = state
        for event in events:
            was = fingerprint(step)
            after = game.evolve(step, event)
            assert fingerprint(step) == was, f"{event.type} changed the state it was applied to"
            applied.add(event.type)
            step = after
        assert step == folded and repr(step) == repr(folded)
        state = folded
        log.extend(events)
    assert game.outcome(state) is not None, "the game did not end"
    assert kernel.replay(game, log) == state
    return log, applied


GAMES = [
    (1, {}, 1),
    (2, {"necromancer_player": True}, 2),
    (3, {"heroes": 2}, 2),
    (4, {"hidden_relics": True, "increased_quests": True}, 3),
    (5, {}, 4),
    (6, {"heroes": 5}, 1),
]


@functools.cache
def played(index: int) -> tuple[list[Event], set[str]]:
    seed, options, seats = GAMES[index]
    return play(seed, options, seats)


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_no_command_and_no_event_changes_the_state_it_started_from(index: int) -> None:
    log, applied = played(index)
    assert {"HeroDied", "HeroChanged", "RoundStarted", "TurnStarted"} <= applied
    assert len(log) > 200


def test_sharing_parts_plays_exactly_as_private_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule that held a shared part across an event it emitted would read the old part,
    and a rule that changed the state without an event would leave a stale answer in the
    command's memo (``Ctx.working``): every event of these games is the same when the
    successor shares nothing at all, nothing is remembered and the victory check runs
    before every step (``victory_check`` skips it while nothing happened)."""
    shared = [played(index)[0] for index in range(4)]
    monkeypatch.setattr(State, "fork", State.clone)
    monkeypatch.setattr(Ctx, "working", lambda self: self)
    monkeypatch.setattr(dn_game, "victory_check", lambda: check_victory)  # before every step
    private = [play(seed, options, seats)[0] for seed, options, seats in GAMES[:4]]
    assert [[e.to_json() for e in log] for log in shared] == [[e.to_json() for e in log] for log in private]


def test_the_games_apply_almost_every_event_type() -> None:
    """The random games above reach the appliers that matter (what they do not reach is
    covered by ``test_every_applier_leaves_a_shared_fallen_hero_alone``)."""
    applied: set[str] = set()
    for index in range(len(GAMES)):
        applied |= played(index)[1]
    assert len(applied & RULES.appliers.keys()) >= 30, sorted(RULES.appliers.keys() - applied)


def fallen_pair() -> tuple[State, State]:
    """A state with a fallen hero carrying an item and a power, and its fork."""
    state = State(started=True, phase="turn")
    state.heroes = {
        "seer": Hero("seer", 0, 0, 0, 5, 6, location="Castle", dead=True, turns_left=0),
        "prince": Hero("prince", 0, 4, 5, 5, 6, location="Castle"),
    }
    state.heroes["seer"].items = [Item("i1", "treasure_chest", data={"n": [1]})]
    state.heroes["seer"].powers = [Power("seer.vision", data={"k": [1]})]
    state.heroes["seer"].deck = ["seer.a", "seer.b"]
    state.heroes["seer"].flags = {"slot": 0, "x": [1]}
    state.item_stock = {"treasure_chest": 1}
    state.decks = {"artifact": Deck()}
    return state, state.fork()


FALLEN_EVENTS = [
    Event("HeroChanged", {"hero": "seer", "stat": "grace", "to": 3, "by": 3, "why": "t"}, 2),
    Event("HeroChanged", {"hero": "seer", "stat": "free_actions", "to": ["x"], "by": 0, "why": "t"}, 2),
    Event("HeroFlagged", {"hero": "seer", "flag": "x", "value": None}),
    Event("HeroFlagged", {"hero": "seer", "flag": "y", "value": 1}),
    Event("HeroMoved", {"hero": "seer", "from": "Monastery", "to": "Village"}),
    Event("ItemGiven", {"hero": "seer", "item": "i1", "from": "seer", "to": "orphaned:seer"}),
    Event("ItemGiven", {"hero": "seer", "item": "i1", "from": "seer", "to": "prince"}),
    Event("ItemUsed", {"hero": "seer", "item": "i1", "discard": False, "data": {"n": 2}}),
    Event("ItemUsed", {"hero": "seer", "item": "i1"}),
    Event("ItemLost", {"hero": "seer", "item": "i1"}),
    Event("ItemsUnlocked", {"hero": "seer"}),
    Event("ItemGained", {"hero": "seer", "item": "i9", "kind": "treasure_chest"}),
    Event("RelicRetrieved", {"hero": "seer", "location": "Castle", "item": "i8"}),
    Event("PowerChanged", {"hero": "seer", "power": "seer.vision", "exhausted": True, "data": {"k": 2}}),
    Event("PowerGained", {"hero": "seer", "power": "seer.c"}),
    Event("PowerReturned", {"hero": "seer", "power": "seer.vision"}),
    Event("PowerPutBack", {"hero": "seer", "power": "seer.c", "bottom": False}),
    Event("PowerDrawn", {"hero": "seer", "power": "seer.a"}),
    Event("PowerDeckShuffled", {"hero": "seer", "order": ["seer.b", "seer.a"]}),
    Event("PowersChosen", {"hero": "seer", "powers": ["seer.d"]}),
    Event("SecondaryClassChosen", {"hero": "seer", "secondary": "bard"}),
    Event("ArtifactChanged", {"hero": "seer", "item": "i1", "data": {"n": 3}}),
    Event("HeroDied", {"hero": "seer"}),
    Event("TurnStarted", {"hero": "seer"}),
    Event("TurnEnded", {"hero": "seer", "lost_turn_used": True}),
    Event("RoundStarted", {"round": 3}),
]


@pytest.mark.parametrize("event", FALLEN_EVENTS, ids=lambda e: f"{e.type}-{sorted(e.data)}")
def test_every_applier_leaves_a_shared_fallen_hero_alone(event: Event) -> None:
    old, new = fallen_pair()
    assert new.heroes["seer"] is old.heroes["seer"]  # shared until written
    was = fingerprint(old)
    RULES.apply(new, event)
    assert fingerprint(old) == was
    # the same event on a private clone changes the same things
    private = old.clone()
    RULES.apply(private, event)
    assert repr(private) == repr(new)


def test_an_applier_not_registered_copy_on_write_gets_a_private_state() -> None:
    """An applier written without ``copy_on_write=True`` may change a shared part in place:
    the state makes every part private before it runs (``own_all``)."""
    rules = Rules("fork_test")

    @rules.applies("Scribbled")
    def _scribble(s: State, d: dict[str, Any]) -> None:
        s.heroes["seer"].flags["scribbled"] = d["by"]  # in place, without hero_w
        s.heroes["seer"].items.clear()

    old, new = fallen_pair()
    was = fingerprint(old)
    rules.apply(new, Event("Scribbled", {"by": 1}))
    assert fingerprint(old) == was
    assert new.heroes["seer"].flags["scribbled"] == 1 and not new.heroes["seer"].items
    assert not new.shared_heroes


def test_the_fork_shares_only_fallen_heroes_unread_decks_and_values_replaced_whole() -> None:
    playout = random_playout(DARKEST_NIGHT, 7, seats=1, check_every=0)
    state = playout.state
    fork = state.fork()
    assert fork == state and repr(fork) == repr(state)
    assert type(fork.decks) is DecksOnRead
    assert all(dict.__getitem__(fork.decks, k) is d for k, d in state.decks.items())  # shared, unread
    fork.settle()
    assert type(fork.decks) is dict and fork == state
    fork = state.fork()
    ours: dict[int, str] = {}
    theirs: dict[int, str] = {}
    mutable_ids(state, ours, "state")
    mutable_ids(fork, theirs, "fork")
    shared = {ours[i] for i in ours.keys() & theirs.keys()}
    fallen = {f"state.heroes[{h!r}]" for h, hero in state.heroes.items() if hero.dead}
    # A living hero's lists are its own; the power and item records in them are shared
    # until an applier writes one (``Hero.power_w``, ``item_w``).
    records = {
        f"state.heroes[{h!r}].{part}["
        for h, hero in state.heroes.items()
        if not hero.dead
        for part in ("powers", "items")
    }
    allowed = ("state.options", "state.result", "state.last_roll", "state.agenda[", *fallen, *records)
    assert all(path.startswith(allowed) for path in shared), sorted(shared)[:5]
    assert fork.shared_heroes == {h for h, hero in state.heroes.items() if hero.dead}


@pytest.mark.parametrize("seed", [1, 2])
def test_the_clone_equals_and_shares_nothing_mutable_along_a_game(seed: int) -> None:
    playout = random_playout(DARKEST_NIGHT, seed, options={"necromancer_player": seed == 2}, check_every=0)
    state = DARKEST_NIGHT.initial_state()
    assert_independent(state)
    for number, event in enumerate(playout.events):
        state = kernel.fold(DARKEST_NIGHT, state, event)
        if number % 23 == 1:
            assert_independent(state)
    assert state == playout.state


def test_the_clone_copies_nested_data_and_shares_frozen_values() -> None:
    state = State(decision={"kind": "travel", "seat": 0, "offers": [{"to": "Village"}]})  # type: ignore[arg-type]
    state.agenda = [{"op": "x", "steps": [{"op": "y"}]}]
    state.heroes = {}
    state.darkness_active = {"card": {"left": [1, 2]}}
    copy = state.clone()
    copy.decision["offers"][0]["to"] = "Swamp"  # type: ignore[index]
    copy.agenda[0]["steps"][0]["op"] = "z"
    copy.darkness_active["card"]["left"].append(3)
    assert state.decision == {"kind": "travel", "seat": 0, "offers": [{"to": "Village"}]}
    assert state.agenda == [{"op": "x", "steps": [{"op": "y"}]}]
    assert state.darkness_active == {"card": {"left": [1, 2]}}
    frozen = (1, "a", None)
    assert copy_data(frozen) is frozen
    choice = Choice("travel", {"to": "Village"}, "Travel")
    assert copy_data(choice) is choice  # a frozen value (a typed decision) is shared
    power = Power("p", data={"n": [1]})
    assert copy_data(power) == power and copy_data(power) is not power


def test_a_forked_state_copies_each_deck_the_first_time_it_is_read() -> None:
    """A rule holds a deck across the reshuffle it emits and reads the new order through
    it (``draw``): whatever way a deck is read, it is the fork's own from then on."""
    state = State(decks={"map": Deck(["a", "b"], ["c"]), "quest": Deck(["q"]), "event": Deck(["e"])})
    fork = state.fork()
    held = fork.decks["map"]
    assert held == state.decks["map"] and held is not state.decks["map"]
    assert fork.decks["map"] is held  # copied once
    held.cards.remove("a")
    RULES.apply(fork, Event("DeckShuffled", {"deck": "map", "order": ["c", "b"], "with_discards": True}))
    assert held.cards == ["c", "b"] and held.discard == []  # the applier changed the deck the rule holds
    assert fork.decks.get("quest") is fork.decks["quest"] is not state.decks["quest"]
    assert fork.decks.get("nothing") is None
    assert [d.cards for d in fork.decks.values()] == [["c", "b"], ["q"], ["e"]]
    assert all(d is not state.decks[k] for k, d in fork.decks.items())
    RULES.apply(fork, Event("DeckShuffled", {"deck": "new", "order": ["n"]}))  # setdefault
    assert fork.decks["new"].cards == ["n"]
    assert state == State(decks={"map": Deck(["a", "b"], ["c"]), "quest": Deck(["q"]), "event": Deck(["e"])})
    settled = fork.settle()
    assert type(settled.decks) is dict and settled.decks["map"] is held
    assert pickle.loads(pickle.dumps(settled)) == settled


def test_reading_states_leaves_no_garbage_for_the_collector() -> None:
    """States are freed as soon as no one holds them (the reader of a published state is
    not kept in its memo: that cycle kept every state read until a collection)."""
    import gc

    log = played(0)[0]
    gc.collect()
    gc.disable()
    try:
        state = kernel.replay(DARKEST_NIGHT, log[:400])
        for event in log[400:600]:
            state = kernel.fold(DARKEST_NIGHT, state, event)
            DARKEST_NIGHT.prompts(state)
        for number in range(20):  # and deciding
            if DARKEST_NIGHT.outcome(state) is not None:
                break
            prompt = next(p for p in DARKEST_NIGHT.prompts(state) if p.required)
            command = Command(prompt.seat, prompt.choices[0].type, prompt.choices[0].args)
            actor = GAME_MASTER if prompt.seat == GM_SEAT else Viewer("seat", frozenset({prompt.seat}))
            events = kernel.decide(DARKEST_NIGHT, state, command, actor, rng_for("gc", number))
            state = kernel.fold_all(DARKEST_NIGHT, state, events)
        assert gc.collect() == 0, "reading or deciding left reference cycles behind"
    finally:
        gc.enable()


@pytest.mark.parametrize("kind", [Hero, Power, Item, Placed, Deck], ids=lambda k: k.__name__)
def test_each_record_clone_copies_every_field(kind: type) -> None:
    """The records' clones set their slots one by one: a field added to a record and
    forgotten in its ``clone`` fails here."""
    values: dict[str, Any] = {}
    for number, f in enumerate(fields(kind)):
        annotation = str(f.type)
        if annotation == "list[Power]":
            values[f.name] = [Power(f"p{number}", data={"n": [number]})]
        elif annotation == "list[Item]":
            values[f.name] = [Item(f"i{number}", "token", data={"n": [number]})]
        elif annotation.startswith("list"):
            values[f.name] = [f"v{number}"]
        elif annotation.startswith("dict"):
            values[f.name] = {"k": [number]}
        else:
            values[f.name] = number
    record = kind(**values)
    copy = record.clone()
    assert copy == record and repr(copy) == repr(record)
    for f in fields(kind):
        value = getattr(record, f.name)
        if isinstance(value, list | dict):
            assert getattr(copy, f.name) is not value, f.name


def living_pair() -> tuple[State, State]:
    """A state whose living hero carries items (one locked) and powers, and its fork."""
    state = State(started=True, phase="turn")
    prince = Hero("prince", 0, 4, 5, 5, 6, location="Castle")
    prince.items = [
        Item("i1", "treasure_chest", locked=True, data={"n": [1]}),
        Item("i2", "artifact", data={"card": "artifact.x", "exhausted": False}),
    ]
    prince.powers = [
        Power("seer.vision", data={"k": [1]}),
        Power("prince.b", active=True, target="hero:prince"),
    ]
    prince.deck = ["seer.a", "seer.b"]  # the fallen hero's events below apply to him
    state.heroes = {"prince": prince}
    state.item_stock = {"treasure_chest": 1}
    state.decks = {"artifact": Deck()}
    return state, state.fork()


LIVING_EVENTS = [
    Event(e.type, {k: ("prince" if v == "seer" else v) for k, v in e.data.items()}, e.v)
    for e in FALLEN_EVENTS
] + [
    Event("PowerChanged", {"hero": "prince", "power": "prince.b", "active": False, "target": None}),
    Event("ArtifactChanged", {"hero": "prince", "item": "i2", "data": {"card": "artifact.x", "used": True}}),
    Event("ItemUsed", {"hero": "prince", "item": "i2", "discard": False, "data": {"used": 1}}),
    Event("ItemGiven", {"hero": "prince", "item": "i2", "from": "prince", "to": "monastery"}),
    Event("PowerReturned", {"hero": "prince", "power": "prince.b"}),
]


@pytest.mark.parametrize("event", LIVING_EVENTS, ids=lambda e: f"{e.type}-{sorted(e.data)}")
def test_every_applier_leaves_a_living_heros_shared_records_alone(event: Event) -> None:
    """A fork's living hero has lists of its own holding the records of the state it came
    from (``Hero.clone(share_records=True)``): an applier writing a power or an item puts a
    private copy in its place (``power_w``, ``item_w``), so the old state never changes,
    and the fork ends as a fully private copy would."""
    old, new = living_pair()
    assert new.heroes["prince"] is not old.heroes["prince"]
    assert new.heroes["prince"].powers is not old.heroes["prince"].powers
    assert all(a is b for a, b in zip(new.heroes["prince"].items, old.heroes["prince"].items, strict=True))
    was = fingerprint(old)
    RULES.apply(new, event)
    assert fingerprint(old) == was
    private = old.clone()
    RULES.apply(private, event)
    assert repr(private) == repr(new)
