"""Issue 26, item 1: a roll's "no question with one answer" shortcuts count what every seat
may do at any time (DN 14.3.2: "after making a die roll or drawing a card but before
resolving its effects"). After a roll, an item that acts on it may still come to the roller
by a trade (DN 15.1: a Charm given by a hero here, one taken from the Monastery); before a
roll an event card called for, a spark may still come from a power used at any time. The
roll then waits, its one listed answer beside those offers; with none, it goes on at once."""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.state import Item, State
from tests.games.darkest_night.harness import Table, run_steps

GHOUL_FIGHT = {
    "op": "fight",
    "hero": "crusader",
    "foe": "Ghoul",
    "strength": 4,
    "awareness": 3,
    "fail": [{"op": "lose_grace", "n": 1, "why": "the Ghoul"}],
}
CRUSADER_WITHOUT_TACTICS = ["crusader.faith", "crusader.retreat", "crusader.consecration"]
"""No fight tactic: the fight is fought with no tactic."""


def quiet(s: State) -> None:
    s.decks["event"].cards = []
    s.decks["event"].discard = []


def at(location: str, *heroes: str) -> Any:
    def change(s: State) -> None:
        for hero in heroes:
            s.heroes[hero].location = location

    return change


def charm_held_by(hero: str) -> Any:
    return lambda s: s.heroes[hero].items.append(Item("i90", "charm"))


def crusader_fights(t: Table, dice: list[int]) -> list[Any]:
    """Two players: the Crusader's (seat 0) and the Valkyrie's (seat 1); the Crusader's
    fight against a Ghoul, rolled with ``dice``."""
    t.begin_turn("crusader")
    run_steps(t, [GHOUL_FIGHT])
    return t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=dice)


def two_players(location: str = "Village") -> Table:
    t = Table.start(
        heroes=["crusader", "valkyrie", "seer", "prince"],
        powers={"crusader": CRUSADER_WITHOUT_TACTICS},
        seats=2,
    )
    t.edit(quiet).edit(at(location, "crusader", "valkyrie"))
    return t.edit(lambda s: setattr(s.heroes["crusader"], "sparks", 0))


def roll_answers(t: Table, seat: int = 0) -> list[str]:
    return [c.type for c in t.choices(seat) if c.type in ("accept_roll", "use_roll_item")]


def test_a_failed_roll_waits_while_a_hero_here_could_give_a_charm() -> None:
    """DN 14.3.2, 15.1: the Valkyrie's player may give her Charm to the Crusader after his
    roll, before its effects: the roll waits, "Keep the roll" the Crusader's one answer and
    the gift offered to the Valkyrie's seat; once given, the Charm is his to use."""
    t = two_players().edit(charm_held_by("valkyrie"))
    grace = t.hero("crusader").grace
    crusader_fights(t, [1])
    assert t.decision.kind == "after_roll" and t.hero("crusader").grace == grace
    assert roll_answers(t) == ["accept_roll"]
    gift = {"hero": "valkyrie", "item": "i90", "to": "crusader"}
    assert any(c.type == "give_item" and c.args == gift for c in t.choices(1))
    t.act("give_item", **gift)
    assert roll_answers(t) == ["accept_roll", "use_roll_item"]
    t.act("use_roll_item", item="i90", dice=[5])
    assert t.state.last_roll["faces"] == [5] and t.hero("crusader").grace == grace


def test_a_failed_roll_resolves_at_once_when_no_item_can_come() -> None:
    """With the Charm's holder elsewhere (a gift needs the same location, DN 15.1) no trade
    can bring it: the roll's effects follow at once, without a question."""
    t = two_players().edit(charm_held_by("valkyrie")).edit(at("Castle", "valkyrie"))
    grace = t.hero("crusader").grace
    crusader_fights(t, [1])
    assert t.decision is None or t.decision.kind != "after_roll"
    assert t.hero("crusader").grace == grace - 1


def test_a_roll_at_the_monastery_waits_for_a_stored_charm() -> None:
    """DN 15.1: at the Monastery the roller may take an item stored there at any time."""
    t = two_players("Monastery").edit(lambda s: s.stored.append(Item("i90", "charm")))
    crusader_fights(t, [1])
    assert t.decision.kind == "after_roll" and roll_answers(t) == ["accept_roll"]
    t.act("take_stored_item", hero="crusader", item="i90")
    assert roll_answers(t) == ["accept_roll", "use_roll_item"]


def test_a_won_fight_is_not_held_for_a_charm_that_could_only_lose_it() -> None:
    """DN 15.0: rerolling a won fight whose successes count for nothing can only lose it:
    neither the roller's Charm nor one a hero here could give holds the roll."""
    t = two_players().edit(charm_held_by("valkyrie")).edit(charm_held_by("crusader"))
    events = crusader_fights(t, [5])
    assert t.decision is None or t.decision.kind != "after_roll"
    assert "Crusader keeps the roll" in [e.data["what"] for e in events if e.type == "Automatic"]


# -- before a roll an event card calls for ----------------------------------------------


def druid_draws_fissure() -> Table:
    """The Druid, no spark, holding Visions (any time, exhaust: gain 1 spark), draws Fissure
    (roll 1 die needing 3+, or lose 1 grace) in the Village."""
    t = Table.start(
        heroes=["druid", "valkyrie", "seer", "prince"],
        powers={"druid": ["druid.animal_companion", "druid.camouflage", "druid.visions"]},
    )
    t.edit(quiet).edit(at("Village", "druid"))
    t.edit(lambda s: (setattr(s.heroes["druid"], "sparks", 0), s.decks["event"].cards.insert(0, "fissure")))
    t.begin_turn("druid")
    return t


def test_a_roll_an_event_calls_for_waits_while_visions_could_add_a_spark() -> None:
    """DN 14.3.2, 4.2: after the card is drawn, before the roll, Visions gives a spark to
    spend on it: the roll waits with rolling its one answer; used, the spark is offered."""
    t = druid_draws_fissure()
    assert t.decision.kind == "roll"
    assert [c.args for c in t.choices() if c.type == "roll_dice"] == [{}]
    t.act("use_power", hero="druid", power="druid.visions")
    assert [c.args for c in t.choices() if c.type == "roll_dice"] == [{}, {"sparks": 1}]
    t.act("roll_dice", sparks=1, dice=[1, 3])
    assert t.state.last_roll["successes"] == 1


def test_a_roll_right_after_its_question_is_not_held_again() -> None:
    """The fight's own question had Visions on offer beside it, with nothing drawn or rolled
    since: the roll that follows the answer is not held for it again."""
    t = Table.start(
        heroes=["druid", "valkyrie", "seer", "prince"],
        powers={"druid": ["druid.animal_companion", "druid.camouflage", "druid.visions"]},
    )
    t.edit(quiet).edit(at("Village", "druid")).edit(lambda s: setattr(s.heroes["druid"], "sparks", 0))
    t.begin_turn("druid")
    run_steps(t, [GHOUL_FIGHT | {"hero": "druid"}])
    assert any(c.type == "use_power" and c.args["power"] == "druid.visions" for c in t.choices())
    t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[4])
    assert t.state.last_roll["faces"] == [4]
