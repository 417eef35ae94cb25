"""The strong bot's hooks (issue 27): the worlds it imagines never show it what its seat may
not see (deck orders, power decks, the Necromancer player's hand, DN 20.3.1), its reading
of the board rises and falls with the heroes' chances, and it searches only the questions
that matter."""

from __future__ import annotations

import random

import pytest

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.bot import choose
from app.games.darkest_night.bot.standing import heroes_chance, search_budget
from app.games.darkest_night.content import MONASTERY
from app.games.darkest_night.decisions import PeekDarkness
from app.games.darkest_night.state import Blight, Item, State
from app.kernel import conformance, playout
from app.kernel.flow.memo import known_answers, reading
from app.kernel.game import has_search
from app.kernel.search import search_choice
from app.kernel.types import Budget, Prompt, Viewer
from tests.games.darkest_night.harness import Table

EXACT = Budget(iterations=12, depth=8, seconds=None)
"""A small search without a time cap: the same rng gives the same decision."""

NECRO_OPTIONS = {"necromancer_player": True}


def states_of_a_bot_game(options: dict[str, object], seats: int, seed: str, every: int) -> list[State]:
    """Every ``every``-th state of a seeded game the heuristic bot plays in every seat."""
    table = playout.set_up(DARKEST_NIGHT, options, [f"Bot {i}" for i in range(seats)], seed)
    rng = random.Random(seed)
    kept: list[State] = []

    def pick(state: State, prompts: list[Prompt]) -> tuple[Prompt, object]:
        if table.commands % every == 0:
            kept.append(state)
        prompt = next(p for p in prompts if p.required)
        return prompt, choose(state, prompt, rng)

    playout.play(table, pick, max_commands=400)  # type: ignore[arg-type]
    return kept


def seat_prompts(state: State, seat: int) -> list[Prompt]:
    return [p for p in DARKEST_NIGHT.prompts(state) if p.seat == seat and p.required and len(p.choices) > 1]


def test_darkest_night_has_the_strong_bot() -> None:
    assert has_search(DARKEST_NIGHT)


@pytest.mark.parametrize(("options", "seats"), [({}, 1), (NECRO_OPTIONS, 2)])
def test_the_strong_bot_never_peeks_in_any_seat(options: dict[str, object], seats: int) -> None:
    """Hero seats and the Necromancer player's seat, at points all through a game: a twin
    the seat cannot tell from the table gives the same world and the same decision."""
    checked: set[int] = set()
    for n, state in enumerate(states_of_a_bot_game(options, seats, f"peek-{seats}", every=17)):
        for seat in range(seats):
            if seat_prompts(state, seat):
                conformance.check_no_peeking(DARKEST_NIGHT, state, seat, n, EXACT, twins=3)
                checked.add(seat)
    assert checked == set(range(seats))


def bot_state(options: dict[str, object] | None = None, seats: int = 1, at: int = 3) -> State:
    return states_of_a_bot_game(options or {}, seats, "worlds", every=40)[at]


def test_a_world_keeps_what_the_seat_sees_and_redraws_every_deck() -> None:
    state = bot_state()
    before = DARKEST_NIGHT.view(state, Viewer("gm", frozenset({"gm"})))
    world = DARKEST_NIGHT.determinize(state, 0, random.Random(1))
    seat = Viewer("seat", frozenset({0}))
    assert DARKEST_NIGHT.view(world, seat) == DARKEST_NIGHT.view(state, seat)
    for name, deck in state.decks.items():
        assert sorted(world.decks[name].cards) == sorted(deck.cards)
        assert world.decks[name].discard == deck.discard
    assert any(world.decks[n].cards != d.cards for n, d in state.decks.items() if len(d.cards) > 2)
    for hero_id, hero in state.heroes.items():
        assert sorted(world.heroes[hero_id].deck) == sorted(hero.deck)
    assert any(world.heroes[h].deck != hero.deck for h, hero in state.heroes.items() if len(hero.deck) > 2)
    assert DARKEST_NIGHT.view(state, Viewer("gm", frozenset({"gm"}))) == before  # the table is untouched


def test_the_necromancer_players_hand_is_redrawn_for_the_heroes_and_kept_for_him() -> None:
    """DN 20.3.1: the heroes know only how many map cards he holds."""
    state = bot_state(NECRO_OPTIONS, seats=2, at=2)
    assert state.hand and state.necromancer_seat == 1
    pool = sorted(state.hand + state.decks["map"].cards)
    hands = set()
    for n in range(6):
        world = DARKEST_NIGHT.determinize(state, 0, random.Random(n))
        assert len(world.hand) == len(state.hand)
        assert sorted(world.hand + world.decks["map"].cards) == pool
        hands.add(tuple(world.hand))
        his = DARKEST_NIGHT.determinize(state, 1, random.Random(n))
        assert his.hand == state.hand
        assert sorted(his.decks["map"].cards) == sorted(state.decks["map"].cards)
    assert len(hands) > 1


def test_a_peeked_darkness_card_stays_on_top_for_the_hero_looking_at_it() -> None:
    """By Starlight: the hero sees the top darkness card while he decides (a world that
    hid it would ask him about a card that is not there)."""
    t = Table.start()
    top = t.state.decks["darkness"].cards[0]
    t.edit(lambda s: setattr(s, "decision", PeekDarkness(seat=0, hero="prince", card=top, alone=False)))
    for n in range(5):
        world = DARKEST_NIGHT.determinize(t.state, 0, random.Random(n))
        assert world.decks["darkness"].cards[0] == top


def test_a_world_shares_no_remembered_answer_with_the_table() -> None:
    """The kernel remembers answers about one published state by identity
    (``app.kernel.flow.memo``): a world is a new state, so nothing worked out about the
    table is read back about it, and its own prompts are listed afresh — the same ones,
    since the seat sees the same table."""
    state = bot_state(at=5)
    prompts = DARKEST_NIGHT.prompts(state)
    with reading(state):
        assert known_answers(state) is not None
    world = DARKEST_NIGHT.determinize(state, 0, random.Random(2))
    assert world is not state
    assert known_answers(world) is None
    assert DARKEST_NIGHT.prompts(world) == prompts


def test_the_same_rng_gives_the_same_decision() -> None:
    state = next(s for s in states_of_a_bot_game({}, 1, "same", every=11)[3:] if seat_prompts(s, 0))
    prompt = seat_prompts(state, 0)[0]
    first, second = (search_choice(DARKEST_NIGHT, state, prompt, random.Random(4), EXACT) for _ in range(2))
    assert first == second


# -- the value ------------------------------------------------------------------------------


def midgame() -> State:
    """Round 5 of a plain table: heroes about, a few blights, no relic yet."""
    t = Table.start()

    def change(s: State) -> None:
        s.round, s.darkness, s.clues = 5, 6, 3
        for hero in s.heroes.values():
            hero.location = "Village"
        s.blights = {loc: [Blight(f"b{loc}", "Spies")] if loc != MONASTERY else [] for loc in s.blights}

    return t.edit(change).state


def changed(state: State, change: object) -> State:
    new = state.clone()
    change(new)  # type: ignore[operator]
    return new


def test_the_value_is_one_for_a_win_and_nothing_for_a_loss() -> None:
    won = changed(midgame(), lambda s: setattr(s, "result", {"result": "win", "reason": ""}))
    lost = changed(midgame(), lambda s: setattr(s, "result", {"result": "loss", "reason": ""}))
    assert DARKEST_NIGHT.value(won, 0) == 1.0
    assert DARKEST_NIGHT.value(lost, 0) == 0.0
    assert 0.0 < DARKEST_NIGHT.value(midgame(), 0) < 1.0


def test_the_necromancer_player_values_what_the_heroes_lose() -> None:
    state = changed(midgame(), lambda s: setattr(s, "necromancer_seat", 1))
    assert DARKEST_NIGHT.value(state, 1) == pytest.approx(1.0 - DARKEST_NIGHT.value(state, 0))


def monastery_blights(n: int) -> object:
    return lambda s: s.blights.__setitem__(MONASTERY, [Blight(f"m{i}", "Spies") for i in range(n)])


def relic_for(hero: str) -> object:
    return lambda s: s.heroes[hero].items.append(Item("r1", "holy_relic"))


@pytest.mark.parametrize(
    ("worse", "better"),
    [
        (monastery_blights(3), monastery_blights(1)),  # DN 18.3: the Monastery nears its fall
        (lambda s: setattr(s, "darkness", 24), lambda s: setattr(s, "darkness", 8)),  # DN 9.0
        (lambda s: setattr(s, "clues", 1), lambda s: setattr(s, "clues", 8)),  # DN 8.0: toward a relic
        (lambda s: None, relic_for("prince")),  # DN 18.1: a relic in hand
        (lambda s: s.fallen.append("rogue"), lambda s: None),  # DN 13.1: a hero fell
    ],
)
def test_the_value_rises_with_the_heroes_chances(worse: object, better: object) -> None:
    assert heroes_chance(changed(midgame(), better)) > heroes_chance(changed(midgame(), worse))


def test_a_clean_shot_at_the_necromancer_is_worth_more_than_one_through_his_guards() -> None:
    """DN 18.1: he dies only where no blight stands."""
    base = changed(midgame(), relic_for("prince"))

    def at_him(guards: int) -> object:
        def change(s: State) -> None:
            s.necromancer = "Village"
            s.blights["Village"] = [Blight(f"g{i}", "Spies") for i in range(guards)]

        return change

    assert heroes_chance(changed(base, at_him(0))) > heroes_chance(changed(base, at_him(3)))


# -- the budget ----------------------------------------------------------------------------


def test_the_search_thinks_about_actions_and_lets_the_heuristic_pick_whose_turn() -> None:
    t = Table.start()
    assert t.state.decision is not None and t.state.decision.kind == "next_hero"
    prompt = next(p for p in DARKEST_NIGHT.prompts(t.state) if p.required)
    assert search_budget(t.state, prompt) is None
    t.begin_turn("prince")
    while t.state.decision is not None and t.state.decision.kind != "action":
        choice = choose(
            t.state, next(p for p in DARKEST_NIGHT.prompts(t.state) if p.required), random.Random(0)
        )
        t.act(choice.type, **choice.args)
    prompt = next(p for p in DARKEST_NIGHT.prompts(t.state) if p.required)
    budget = search_budget(t.state, prompt)
    assert budget is not None and budget.seconds is not None and budget.seconds <= 0.8


def action_states(every: int = 7) -> list[State]:
    from app.games.darkest_night.decisions import Action

    states = states_of_a_bot_game({}, 1, "candidates", every=every)
    return [s for s in states if isinstance(s.decision, Action) and len(seat_prompts(s, 0)[0].choices) > 4]


def test_the_search_weighs_the_planners_few_best_actions() -> None:
    from app.games.darkest_night.bot.candidates import CANDIDATES, search_candidates
    from app.games.darkest_night.bot.planner import Planner

    states = action_states()
    assert states
    for state in states[:5]:
        prompt = seat_prompts(state, 0)[0]
        picked = search_candidates(state, prompt, random.Random(2))
        assert len(picked) == CANDIDATES
        world = DARKEST_NIGHT.determinize(state, 0, random.Random(2))
        planner = Planner(world, world.heroes[state.decision.hero])  # type: ignore[union-attr]
        worst_picked = min(planner.score(c) for c in picked)
        assert all(planner.score(c) <= worst_picked for c in prompt.choices if c not in picked)


def test_paired_search_over_the_candidates_never_peeks() -> None:
    paired = Budget(iterations=12, depth=8, seconds=None, paired=True)
    for n, state in enumerate(action_states(every=11)[:3]):
        conformance.check_no_peeking(DARKEST_NIGHT, state, 0, n, paired, twins=3)
