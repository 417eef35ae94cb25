"""The darkness deck (DN 9.0, 9.1, 20.1.1, 20.2.1, 20.6, 20.7) and its cards' effects."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence

import pytest

from app.games.darkest_night.content import CONTENT, LOCATIONS, load
from app.games.darkest_night.engine import Ctx
from app.games.darkest_night.rules.dice import roll_dice_count
from app.games.darkest_night.state import Blight, State
from tests.games.darkest_night.harness import Table, run_steps

REQUIRED = ("last_gasp", "creeping_shadows", "dying_land", "eclipse", "well_of_misery")
HOOKS = {"necromancer_turn", "after_blight"}


# -- helpers ------------------------------------------------------------------------------


def quiet(s: State) -> None:
    """No events to draw (DN 19.1: an empty deck gives nothing) and no blights anywhere, so
    a test's turns do only what it states."""
    s.decks["event"].cards = []
    s.decks["event"].discard = []
    for loc in LOCATIONS:
        s.blights[loc] = []


def in_play(*cards: str):
    def change(s: State) -> None:
        for card in cards:
            if card in s.decks["darkness"].cards:
                s.decks["darkness"].cards.remove(card)
            s.darkness_cards.append(card)

    return change


def deck_on_top(*cards: str):
    def change(s: State) -> None:
        rest = [c for c in s.decks["darkness"].cards if c not in cards]
        s.decks["darkness"].cards = [*cards, *rest]

    return change


def finish_round(t: Table, dice: Sequence[int] = (4,)) -> None:
    """Every hero (waiting in the Monastery) takes an empty turn; the last end of turn runs
    the Necromancer's turn, whose movement roll is ``dice`` (4 keeps him in the Ruins)."""
    waiting = [h.id for h in t.state.living() if h.turns_left > 0]
    for i, hero in enumerate(waiting):
        t.begin_turn(hero)
        t.act("end_action", dice=dice if i == len(waiting) - 1 else ())
    assert t.decision and t.decision.kind == "next_hero", t.decision


def set_darkness(n: int):
    def change(s: State) -> None:
        s.darkness = n
        s.blights["Ruins"] = []

    return change


# -- the deck ------------------------------------------------------------------------------


def test_the_deck_has_44_cards_with_the_rulebook_names() -> None:
    c = load()
    assert len(c.darkness) == 44
    assert set(REQUIRED) <= set(c.darkness)
    assert c.darkness["last_gasp"].name == "Last Gasp"
    assert c.darkness["creeping_shadows"].name == "Creeping Shadows"
    t = Table.start()
    assert len(t.state.decks["darkness"].cards) == 44


def test_every_card_does_something_at_a_known_moment() -> None:
    for card in load().darkness.values():
        data = card.data
        assert data.get("rule") or data.get("hooks") or data.get("on_draw"), card.id
        assert set(data.get("hooks", {})) <= HOOKS, card.id
        assert card.text, card.id
    with (CONTENT / "darkness.toml").open("rb") as f:
        raw = tomllib.load(f)["darkness"]
    assert all(r["source"] in ("rulebook", "authored") for r in raw)
    assert len({r["name"] for r in raw}) == 44


def test_well_of_misery_is_removed_without_quests() -> None:
    """DN 20.6."""
    t = Table.start(options={"no_quests": True})
    assert "well_of_misery" not in t.state.decks["darkness"].cards
    assert len(t.state.decks["darkness"].cards) == 43


# -- thresholds (DN 9.0, 20.1.1, 20.7) --------------------------------------------------------


def test_two_cards_at_10_and_20_and_no_card_twice_for_a_threshold() -> None:
    """DN 9.0: 10+ and 20+ draw a card; falling and rising again draws no extra card."""
    t = Table.start()
    t.edit(quiet).edit(deck_on_top("last_gasp", "fading_lore")).edit(set_darkness(9))
    finish_round(t)
    assert t.state.darkness == 10
    assert t.state.darkness_cards == ["last_gasp"]

    waiting = t.decision
    run_steps(t, [{"op": "darkness", "n": -2, "why": "a test"}])  # e.g. a hero's power
    t.edit(lambda s: setattr(s, "decision", waiting))
    assert t.state.darkness == 8
    t.edit(set_darkness(9))
    finish_round(t)
    assert t.state.darkness == 10
    assert t.state.darkness_cards == ["last_gasp"]  # the 10 threshold was already reached

    t.edit(set_darkness(19))
    finish_round(t)
    assert t.state.darkness == 20
    assert t.state.darkness_cards == ["last_gasp", "fading_lore"]


def test_three_cards_come_at_7_14_and_21() -> None:
    """DN 20.1.1: with 3 darkness cards the thresholds are 7, 14 and 21."""
    t = Table.start(options={"darkness_cards": 3})
    t.edit(quiet).edit(deck_on_top("last_gasp", "fading_lore", "profane_hunger"))
    for start, drawn in ((5, 0), (6, 1), (12, 1), (13, 2), (19, 2), (20, 3)):
        t.edit(set_darkness(start))
        finish_round(t)
        assert len(t.state.darkness_cards) == drawn, (start, t.state.darkness_cards)
    assert t.state.darkness_cards == ["last_gasp", "fading_lore", "profane_hunger"]


def test_without_the_deck_dying_land_at_10_and_creeping_shadows_at_20() -> None:
    """DN 20.7."""
    t = Table.start(options={"no_darkness_deck": True})
    assert t.state.decks["darkness"].cards == ["dying_land", "creeping_shadows"]
    t.edit(quiet).edit(set_darkness(9))
    finish_round(t)
    assert t.state.darkness_cards == ["dying_land"]
    t.edit(set_darkness(19))
    finish_round(t)
    assert t.state.darkness_cards == ["dying_land", "creeping_shadows"]


def test_eclipse_is_never_the_setup_card_of_five_heroes() -> None:
    """DN 20.2.1: drawing Eclipse at setup, another card is drawn instead."""
    t = Table.start()
    t.edit(deck_on_top("eclipse", "last_gasp"))
    run_steps(t, [{"op": "draw_darkness_card", "setup": True}])
    assert t.state.darkness_cards == ["last_gasp"]
    assert "eclipse" in t.state.decks["darkness"].cards


# -- the rulebook's cards ------------------------------------------------------------------------


@pytest.mark.parametrize("last_gasp", [True, False])
def test_last_gasp_destroying_a_taint_costs_its_defense(last_gasp: bool) -> None:
    """DN 9.1 example: whoever destroys a blight suffers its defense (Taint: lose 1 grace)."""
    t = Table.start()

    def position(s: State) -> None:
        quiet(s)
        s.heroes["valkyrie"].location = "Castle"
        s.blights["Castle"] = [Blight("b90", "Taint")]
        if last_gasp:
            in_play("last_gasp")(s)

    t.edit(position)
    grace = t.hero("valkyrie").grace
    t.begin_turn("valkyrie")
    # Skewer (2 dice, free) is the one way worth taking: the attack is fought with it at once.
    dice = roll_dice_count(Ctx.reader(t.state), t.hero("valkyrie"), "fight", 2, {"vs": "attack"})
    t.act("attack", blight="b90", dice=[6] * dice)
    assert t.state.last_roll["sources"][0] == ["Skewer", 2]
    assert not t.state.blights["Castle"]
    assert t.hero("valkyrie").grace == grace - (1 if last_gasp else 0)


def test_creeping_shadows_makes_a_second_blight_where_he_stands() -> None:
    """DN 20.1.6 example: a second blight in his location, from a second map card."""
    t = Table.start()
    t.edit(quiet).edit(in_play("creeping_shadows"))
    finish_round(t, dice=[4])  # from the Ruins, 4 keeps him there
    assert t.state.necromancer == "Ruins"
    assert len(t.state.blights["Ruins"]) == 2
    assert sum(len(b) for b in t.state.blights.values()) == 2


def test_without_creeping_shadows_one_blight() -> None:
    t = Table.start()
    t.edit(quiet)
    finish_round(t, dice=[4])
    assert len(t.state.blights["Ruins"]) == 1


def test_creeping_shadows_second_map_card_brings_no_quest() -> None:
    """DN 20.1.6: with Increased Quests only the turn's first map card can bring a quest."""
    c = load()
    with_quests = [m for m in c.map_cards.values() if m.quest]
    t = Table.start(options={"increased_quests": True})

    def position(s: State) -> None:
        quiet(s)
        in_play("creeping_shadows")(s)
        top = [with_quests[0].id, with_quests[1].id]
        s.decks["map"].cards = top + [x for x in s.decks["map"].cards if x not in top]
        s.decks["map"].discard = [x for x in s.decks["map"].discard if x not in top]

    t.edit(position)
    before = len(t.events)
    finish_round(t, dice=[4])
    quest_draws = [
        e for e in t.events[before:] if e.type in ("CardDrawn", "DeckEmpty") and e.data.get("deck") == "quest"
    ]
    assert len(quest_draws) == 1
    assert len(t.state.blights["Ruins"]) == 2


# -- authored cards ----------------------------------------------------------------------------


def hook(t: Table, name: str, dice: Sequence[int] = ()) -> list[str]:
    return run_steps(t, [{"op": "darkness_card_hook", "hook": name}], dice=dice, phase="necromancer")


def spread(s: State) -> None:
    """Prince in the Ruins with the Necromancer, the Valkyrie next door in the Swamp, the Seer
    in the Castle, the Crusader at home."""
    quiet(s)
    places = {"prince": "Ruins", "valkyrie": "Swamp", "seer": "Castle", "crusader": "Monastery"}
    for hero, loc in places.items():
        s.heroes[hero].location = loc
    s.necromancer = "Ruins"


def test_dying_land_costs_grace_where_blights_gather() -> None:
    t = Table.start()

    def position(s: State) -> None:
        spread(s)
        in_play("dying_land")(s)
        s.blights["Ruins"] = [Blight("b80", "Taint"), Blight("b81", "Spies")]
        s.blights["Swamp"] = [Blight("b82", "Spies")]

    t.edit(position)
    grace = {h: t.hero(h).grace for h in t.state.heroes}
    hook(t, "after_blight")
    assert t.hero("prince").grace == grace["prince"] - 1
    assert t.hero("valkyrie").grace == grace["valkyrie"]


def test_eclipse_takes_secrecy_outside_the_monastery() -> None:
    t = Table.start()
    t.edit(spread).edit(in_play("eclipse"))
    secrecy = {h: t.hero(h).secrecy for h in t.state.heroes}
    hook(t, "necromancer_turn")
    assert t.hero("crusader").secrecy == secrecy["crusader"]
    for hero in ("prince", "valkyrie", "seer"):
        assert t.hero(hero).secrecy == secrecy[hero] - 1


def test_well_of_misery_ages_quests_near_him() -> None:
    from app.games.darkest_night.state import Placed

    c = load()
    if not c.quests:
        pytest.skip("no quest cards yet")
    card = next(q for q in c.quests.values() if int(q.data.get("time", 5)) >= 3)
    t = Table.start()

    def position(s: State) -> None:
        spread(s)
        in_play("well_of_misery")(s)
        s.quests = [Placed("q1", card.id, "Swamp"), Placed("q2", card.id, "Mountains")]

    t.edit(position)
    hook(t, "after_blight")
    times = {q.id: q.time for q in t.state.quests}
    assert times == {"q1": 1, "q2": 0}


def test_grave_tithe_is_paid_by_a_hero_or_raises_the_darkness() -> None:
    t = Table.start()
    t.edit(spread).edit(in_play("grave_tithe"))
    hook(t, "necromancer_turn")
    assert t.decision.kind == "card_choice"
    labels = [c.label for c in t.choices()]
    assert any("pays 1 grace" in label for label in labels)
    grace = t.hero("prince").grace
    refuse = next(c for c in t.choices() if c.label.startswith("Refuse"))
    darkness = t.state.darkness
    t.act("choose_option", **refuse.args)
    assert t.state.darkness == darkness + 1
    assert t.hero("prince").grace == grace


def test_withering_lowers_default_grace_once_per_hero() -> None:
    t = Table.start()
    defaults = {h: t.hero(h).default_grace for h in t.state.heroes}
    t.edit(spread).edit(in_play("withering"))
    run_steps(t, [dict(e) for e in load().darkness["withering"].data["on_draw"]])
    hook(t, "necromancer_turn")
    hook(t, "necromancer_turn")
    assert {h: t.hero(h).default_grace for h in t.state.heroes} == {h: d - 1 for h, d in defaults.items()}


def test_hunting_hour_steps_toward_an_exposed_hero() -> None:
    t = Table.start()

    def position(s: State) -> None:
        spread(s)
        in_play("hunting_hour")(s)
        s.heroes["prince"].location = "Monastery"
        s.heroes["valkyrie"].location = "Mountains"
        s.heroes["valkyrie"].secrecy = 1

    t.edit(position)
    hook(t, "necromancer_turn")
    assert t.state.necromancer == "Village"  # Ruins → Village → Mountains


def test_dark_ritual_is_active_until_a_hero_disrupts_it() -> None:
    t = Table.start()
    t.edit(spread).edit(in_play("dark_ritual"))
    run_steps(t, [dict(e) for e in load().darkness["dark_ritual"].data["on_draw"]])
    assert t.state.darkness_active["dark_ritual"] == "active"
    darkness = t.state.darkness
    hook(t, "necromancer_turn")
    assert t.state.darkness == darkness + 1
    hook(t, "after_blight")  # the Prince stands with the Necromancer
    assert t.state.darkness_active["dark_ritual"] == "broken"
    hook(t, "necromancer_turn")
    assert t.state.darkness == darkness + 1


def test_blighted_earth_fills_every_empty_location() -> None:
    t = Table.start()
    t.edit(quiet).edit(in_play("blighted_earth"))
    run_steps(t, [dict(e) for e in load().darkness["blighted_earth"].data["on_draw"]])
    for loc in LOCATIONS:
        assert len(t.state.blights[loc]) == (0 if loc == "Monastery" else 1), loc


def test_desolation_strikes_only_when_no_hero_is_near() -> None:
    t = Table.start()
    t.edit(quiet).edit(in_play("desolation"))  # every hero in the Monastery
    hook(t, "after_blight")
    assert len(t.state.blights["Ruins"]) == 1
    t.edit(spread)
    hook(t, "after_blight")
    assert len(t.state.blights["Ruins"]) == 0


@pytest.mark.parametrize("card", sorted(load().darkness))
def test_every_card_runs_in_play(card: str) -> None:
    """Each card's steps run from a busy position without error (decisions may wait)."""
    t = Table.start()

    def position(s: State) -> None:
        spread(s)
        in_play(card)(s)
        s.round = 12  # a multiple of 2, 3 and 4
        s.clues = 6
        s.darkness = 26
        s.heroes["valkyrie"].sparks = 2
        s.heroes["seer"].secrecy = 0
        s.blights["Ruins"] = [Blight("b70", "Skeletons"), Blight("b71", "Spies"), Blight("b72", "Taint")]
        s.blights["Monastery"] = [Blight("b73", "Spies")]

    t.edit(position)
    spec = load().darkness[card]
    steps = [dict(e) for e in spec.data.get("on_draw", ())]
    steps += [{"op": "darkness_card_hook", "hook": h} for h in ("necromancer_turn", "after_blight")]
    run_steps(t, steps, dice=[3] * 6, phase="necromancer")
    assert t.state.result is None or t.state.result["result"] == "loss"
