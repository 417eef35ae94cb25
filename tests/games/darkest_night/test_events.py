"""The Event Deck (DN 7.0): 75 cards whose names, fates and copies are the facts', and the
rulebook's own examples played on a test table with rigged dice (DN 7.0, 12.0, the
Extended Example); one test per op that events.toml added (rules/event_effects.py)."""

from __future__ import annotations

import random
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest

from app.games.darkest_night.content import CONTENT, load
from app.games.darkest_night.engine import RULES, Ctx
from app.games.darkest_night.rules.cards import RENEWAL
from app.games.darkest_night.state import Blight, Placed, State
from tests.games.darkest_night.harness import Table

# shared/facts/darkest-night.md, "Event deck (75 cards)": names by fate value.
FATES = {
    0: ["Renewal"],
    1: [
        "A Time for Heroes",
        "Cultist",
        "Desperate Bargain",
        "Forbidden Treasure",
        "Guarded Trove",
        "Respite",
        "Shadow Sight",
        "Twist of Fate",
    ],
    2: ["Fissure", "Grim Tidings", "Latent Spell", "Looters", "Sloppy Search", "Upheaval", "Vile Beast"],
    3: [
        "Altar",
        "Barghest",
        "Call to Action",
        "Dark Champion",
        "Dark Discharge",
        "Dead Servant",
        "Demon",
        "Haunt",
        "Horde",
        "Metamorphosis",
        "Mind Leech",
        "Rescue",
        "Sleeping Pollen",
        "Startling News",
        "Test of Faith",
    ],
    4: [
        "Aurora",
        "Black Banner",
        "Close Call",
        "Deterioration",
        "Dust Storm",
        "Electrical Storm",
        "Lich",
        "Panic",
        "Patrols",
        "Runed Golem",
        "Shambling Horror",
        "Vengeful Spirit",
        "Vile Messenger",
        "Watchers",
    ],
    5: [
        "Betrayal",
        "Dilemma",
        "Evil Day",
        "Host of Haunts",
        "Setback",
        "Tracker",
        "Twilight",
        "Unfriendly Eyes",
        "Urgent Plea",
    ],
    6: [
        "Anathema",
        "Blink",
        "Dark Scrying",
        "Dark Tempest",
        "Jinx",
        "Mind Blast",
        "Raid",
        "Ritual",
        "Temptation",
        "Unsubtle Messenger",
    ],
    7: ["Midnight"],
}
UNKNOWN_FATE = "Dream Eater"
COPIES = {
    "Dead Servant": 3,
    "Horde": 3,
    "Demon": 2,
    "Grim Tidings": 2,
    "Panic": 2,
    "Startling News": 2,
    "Vile Beast": 2,
}
QUEST_CARDS = {"call_to_action", "urgent_plea"}


def walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every step (a table with an ``op``) anywhere inside an effect list."""
    if isinstance(node, dict):
        if "op" in node:
            yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list | tuple):
        for value in node:
            yield from walk(value)


# -- (a) the deck is the facts' deck -------------------------------------------------------


def test_the_deck_has_75_cards_with_the_facts_names_fates_and_copies() -> None:
    events = load().events
    by_name = {e.name: e for e in events.values()}
    with (CONTENT / "events.toml").open("rb") as f:
        sources = {raw["id"]: raw.get("source") for raw in tomllib.load(f)["event"]}
    named = {name for names in FATES.values() for name in names} | {UNKNOWN_FATE}
    assert set(by_name) == named
    for fate, names in FATES.items():
        for name in names:
            assert by_name[name].fate == fate, name
            assert by_name[name].copies == COPIES.get(name, 1), name
            assert sources[by_name[name].id] in ("rulebook", "authored"), name
    dream_eater = by_name[UNKNOWN_FATE]
    assert sources["dream_eater"] == "authored" and 1 <= dream_eater.fate <= 6
    assert dream_eater.copies == 1
    assert sum(e.copies for e in events.values()) == 75  # DN 2.0


def test_renewal_is_left_to_the_engine() -> None:
    renewal = load().events[RENEWAL]
    assert renewal.name == "Renewal" and renewal.effects == () and renewal.fate == 0  # DN 7.1


def test_every_card_has_text_ids_and_known_foes() -> None:
    c = load()
    for card in c.events.values():
        assert card.text.strip(), card.id
        assert card.id == card.id.lower() and " " not in card.id
        for st in walk(list(card.effects)):
            assert st["op"] in RULES.steps, (card.id, st["op"])
            if st["op"] == "fight":
                assert st["foe"] in c.foes, (card.id, st["foe"])
            if st["op"] == "gain_item":
                assert st["kind"] in c.items, (card.id, st["kind"])


def test_quest_cards_are_marked_and_removed_without_quests() -> None:
    events = load().events
    drawing = {e.id for e in events.values() if any(s["op"] == "draw_quest" for s in walk(list(e.effects)))}
    marked = {e.id for e in events.values() if e.data.get("quest")}
    assert drawing == marked == QUEST_CARDS
    table = Table.start()
    assert len(table.state.decks["event"].cards) == 75
    cards = table.state.decks["event"].cards
    assert {c for c in cards if c.startswith("dead_servant")} == {f"dead_servant#{n}" for n in (1, 2, 3)}
    assert "rescue" in cards and len(set(cards)) == 75
    without = Table.start(options={"no_quests": True})
    cards = without.state.decks["event"].cards
    assert len(cards) == 75 - len(QUEST_CARDS)  # DN 20.6
    assert not {c.split("#")[0] for c in cards} & QUEST_CARDS


# -- (b) the rulebook's examples ------------------------------------------------------------


def meet(
    card: str, hero: str = "prince", location: str = "Village", dice: tuple[int, ...] = (), **stats: Any
) -> tuple[Table, list[Any]]:
    """A fresh table where ``hero`` meets ``card`` (see ``meet_on``)."""
    return meet_on(Table.start(), card, hero, location, dice, **stats)


def meet_on(
    table: Table,
    card: str,
    hero: str = "prince",
    location: str = "Village",
    dice: tuple[int, ...] = (),
    **stats: Any,
) -> tuple[Table, list[Any]]:
    """``hero`` stands at ``location`` (no blights anywhere, the Necromancer in the Ruins)
    with ``card`` on top of the Event Deck, and begins a turn."""

    def position(s: State) -> None:
        s.blights = {loc: [] for loc in s.blights}
        s.necromancer = "Ruins"
        s.heroes[hero].location = location
        for field, value in stats.items():
            setattr(s.heroes[hero], field, value)
        deck = s.decks["event"].cards
        deck.remove(card)
        deck.insert(0, card)

    table.edit(position)
    return table, table.begin_turn(hero, dice=dice)


def revealed(events: list[Any]) -> list[str]:
    return [e.data["card"] for e in events if e.type == "EventRevealed"]


@pytest.mark.parametrize(
    ("secrecy", "foe", "strength", "awareness"),
    [
        (7, "Scout", None, 5),
        (5, "Scout", None, 5),
        (4, "Archer", 4, 4),
        (3, "Archer", 4, 4),
        (2, "Dread", 5, 5),
        (0, "Dread", 5, 5),
    ],
)
def test_dead_servant_by_secrecy(secrecy: int, foe: str, strength: int | None, awareness: int) -> None:
    """DN 7.0: secrecy 5+ a Scout, 3–4 an Archer, 2 or less a Dread; a Scout cannot be
    fought (DN 12.0)."""
    table, events = meet("dead_servant#2", secrecy=secrecy)
    assert revealed(events) == ["dead_servant"]
    d = table.decision
    assert d.kind == "combat"
    assert d.step["foe"] == {"name": foe, "strength": strength, "awareness": awareness}
    approaches = {c.args.get("approach") for c in table.choices() if c.type == "resolve_combat"}
    assert approaches == ({"elude"} if foe == "Scout" else {"fight", "elude"})


def test_failing_the_scout_loses_a_secrecy() -> None:
    """DN 12.0: letting the Scout see you costs 1 secrecy."""
    table, _ = meet("dead_servant#1", secrecy=5)
    table.act("yield")
    assert table.hero("prince").secrecy == 4
    assert table.decision.kind == "action"


def test_extended_example_prince_eludes_the_archer() -> None:
    """Extended Example: the Prince (secrecy 4, Loyalty: +1 elude die) draws Dead Servant,
    eludes the Archer with 2 dice rolling 3 and 4, wins, and nothing else happens."""
    table, _ = meet("dead_servant#1", secrecy=4)
    assert table.hero("prince").power("prince.loyalty") is not None
    before = table.state.clone()
    events = table.act("resolve_combat", approach="elude", tactic=None, option=0, dice=[3, 4])
    rolled = [e.data for e in events if e.type == "DiceRolled"]
    assert rolled[0]["faces"] == [3, 4] and rolled[0]["successes"] == 1
    assert [e.data["won"] for e in events if e.type == "CombatEnded"] == [True]
    prince = table.hero("prince")
    assert (prince.grace, prince.secrecy, prince.location) == (4, 4, "Village")
    assert table.state.darkness == before.darkness
    assert table.state.blights == before.blights
    assert table.state.necromancer == "Ruins"
    assert not prince.lost_turn
    assert "dead_servant#1" in table.state.decks["event"].discard  # discarded after resolving (DN 7.0)
    assert table.decision.kind == "action"


def test_extended_example_valkyrie_fails_the_rescue() -> None:
    """Extended Example: the Valkyrie meets Rescue (5/4) with an Unholy Aura here (−1 fight
    die), eludes rolling a 2, fails, and the darkness rises by 1."""
    table = Table.start()

    def position(s: State) -> None:
        s.blights = {loc: [] for loc in s.blights}
        s.blights["Castle"] = [Blight("b90", "Unholy Aura")]
        s.necromancer = "Ruins"
        s.heroes["valkyrie"].location = "Castle"
        s.decks["event"].cards.remove("rescue")
        s.decks["event"].cards.insert(0, "rescue")

    table.edit(position)
    darkness = table.state.darkness
    table.begin_turn("valkyrie")
    assert table.decision.step["foe"] == {"name": "Rescue", "strength": 5, "awareness": 4}
    skewer = next(c for c in table.choices() if c.args.get("tactic") == "valkyrie.skewer")
    assert skewer.detail.startswith("1 die vs 5")  # Skewer's 2 dice, less 1 for the Unholy Aura
    events = table.act("resolve_combat", approach="elude", tactic=None, option=0, dice=[2])
    assert [e.data["won"] for e in events if e.type == "CombatEnded"] == [False]
    assert table.state.darkness == darkness + 1
    assert table.hero("valkyrie").grace == 5
    assert table.decision.kind == "action"


@pytest.mark.parametrize(
    ("secrecy", "foe", "stats"),
    [
        (6, "Small Horde", (4, 3)),
        (4, "Small Horde", (4, 3)),
        (3, "Large Horde", (5, 4)),
        (2, "Large Horde", (5, 4)),
        (1, "Giant Horde", (6, 5)),
        (0, "Giant Horde", (6, 5)),
    ],
)
def test_horde_by_secrecy(secrecy: int, foe: str, stats: tuple[int, int]) -> None:
    table, _ = meet("horde#3", secrecy=secrecy)
    assert table.decision.step["foe"] == {"name": foe, "strength": stats[0], "awareness": stats[1]}


@pytest.mark.parametrize(
    ("darkness", "foe", "stats"),
    [
        (0, "Ghoul", (4, 3)),
        (9, "Ghoul", (4, 3)),
        (10, "Revenant", (5, 4)),
        (19, "Revenant", (5, 4)),
        (20, "Slayer", (6, 5)),
        (29, "Slayer", (6, 5)),
    ],
)
def test_dark_champion_by_darkness(darkness: int, foe: str, stats: tuple[int, int]) -> None:
    table = Table.start()
    table.edit(lambda s: setattr(s, "darkness", darkness))
    table.edit(lambda s: setattr(s, "darkness_thresholds_reached", 2))
    table, _ = meet_on(table, "dark_champion")
    assert table.decision.step["foe"] == {"name": foe, "strength": stats[0], "awareness": stats[1]}
    grace = table.state.heroes[table.state.current].grace
    events = table.act("yield")
    # Failing the champion is a wound: with no one to spare it, the grace is spent (DN 13.1).
    assert any(e.type == "Automatic" and "spends 1 grace to survive" in e.data["what"] for e in events)
    assert table.state.heroes[table.state.current].grace == grace - 1


# -- (c) the ops events.toml added -----------------------------------------------------------


def test_necromancer_approach_moves_him_one_step_toward_the_hero() -> None:
    """Unfriendly Eyes: lose 2 secrecy and the Necromancer moves one step toward you: from
    the Ruins to the Mountains his shortest way is through the Village (DN 10.0)."""
    table, events = meet("unfriendly_eyes", location="Mountains", secrecy=3)
    moved = [e.data for e in events if e.type == "NecromancerMoved"]
    assert [(m["from"], m["to"]) for m in moved] == [("Ruins", "Village")]
    assert table.state.necromancer == "Village"
    assert table.hero("prince").secrecy == 1


def test_necromancer_approach_stays_when_he_is_here_or_the_hero_is_in_the_monastery() -> None:
    table = Table.start()
    state = table.state.clone()
    state.necromancer = "Village"
    for location in ("Village", "Monastery"):
        state.heroes["prince"].location = location
        ctx = Ctx(state, random.Random(0), load())
        RULES.rule_for("necromancer_approach")(ctx, {"op": "necromancer_approach", "hero": "prince"})
        assert ctx.s.agenda == [] and ctx.events == []


def test_necromancer_approach_with_a_gate_goes_straight_to_the_hero() -> None:
    """A Gate makes every location adjacent for him (DN 11.2)."""
    table = Table.start()
    state = table.state.clone()
    state.blights = {loc: [] for loc in state.blights}
    state.blights["Castle"] = [Blight("b90", "Gate")]
    state.necromancer = "Ruins"
    state.heroes["prince"].location = "Mountains"
    ctx = Ctx(state, random.Random(0), load())
    RULES.rule_for("necromancer_approach")(ctx, {"op": "necromancer_approach", "hero": "prince"})
    assert [(s["op"], s["to"]) for s in ctx.s.agenda] == [("move_necromancer", "Mountains")]


@pytest.mark.parametrize(("face", "to"), [(1, "Mountains"), (3, "Forest"), (5, "Swamp"), (6, "Village")])
def test_move_hero_random_follows_the_village_arrows(face: int, to: str) -> None:
    """Upheaval: a die and the Village's arrows, as a quest is placed (DN 16.1)."""
    table, events = meet("upheaval", location="Village", dice=(face,))
    assert table.hero("prince").location == to
    moves = [e.data for e in events if e.type == "HeroMoved"]
    assert moves == ([] if to == "Village" else [moves[0]])
    if moves:
        assert (moves[0]["from"], moves[0]["to"]) == ("Village", to)


def test_by_quests_with_no_quest_in_play() -> None:
    """Grim Tidings: with no quest in play, lose 1 secrecy instead."""
    table, _ = meet("grim_tidings#1", secrecy=4)
    assert table.state.quests == []
    assert table.hero("prince").secrecy == 3


def test_by_quests_picks_the_case_for_the_number_of_quests() -> None:
    table = Table.start()
    cases = [
        {"max": 0, "do": [{"op": "lose_secrecy", "n": 1}]},
        {"min": 1, "max": 1, "do": [{"op": "advance_quests", "n": 1}]},
        {"min": 2, "do": [{"op": "darkness", "n": 1}]},
    ]
    for count, op in [(0, "lose_secrecy"), (1, "advance_quests"), (3, "darkness")]:
        state = table.state.clone()
        state.quests = [Placed(f"q{i}", "some_quest", "Village") for i in range(count)]
        ctx = Ctx(state, random.Random(0), load())
        RULES.rule_for("by_quests")(ctx, {"op": "by_quests", "hero": "prince", "cases": cases})
        assert [(s["op"], s["hero"]) for s in ctx.s.agenda] == [(op, "prince")]


# -- a few authored cards, played -------------------------------------------------------------


def test_ritual_can_only_be_fought() -> None:
    table, _ = meet("ritual")
    approaches = {c.args.get("approach") for c in table.choices() if c.type == "resolve_combat"}
    assert approaches == {"fight"}
    darkness = table.state.darkness
    table.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[1])
    assert table.state.darkness == darkness + 2


def test_betrayal_brings_the_necromancer() -> None:
    table, _ = meet("betrayal", location="Castle", secrecy=4)
    assert table.state.necromancer == "Castle"
    assert table.hero("prince").secrecy == 3


def test_temptation_cannot_be_resisted_without_grace() -> None:
    """An option whose cost cannot be paid is not offered (DN 4.1): with 1 grace, give in."""
    table = Table.start()
    darkness = table.state.darkness
    table, _ = meet_on(table, "temptation", grace=1)
    assert table.state.darkness == darkness + 2
    assert table.hero("prince").sparks == 1
    assert table.hero("prince").grace == 1


def test_temptation_resisted_costs_2_grace() -> None:
    table = Table.start()
    darkness = table.state.darkness
    table, _ = meet_on(table, "temptation", grace=3)
    assert [c.label for c in table.choices() if c.type == "choose_option"] == ["Resist", "Give in"]
    table.act("choose_option", option=0)
    assert table.hero("prince").grace == 1
    assert table.state.darkness == darkness


def test_midnight_raises_the_darkness_and_creates_a_blight() -> None:
    table = Table.start()
    before = table.state.darkness
    table, _ = meet_on(table, "midnight")
    assert table.state.darkness == before + 2
    assert len(table.state.blights["Ruins"]) == 1
