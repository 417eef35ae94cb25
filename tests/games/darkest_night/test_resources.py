"""Heroic resources (DN 4.1, 4.2), dice (DN 5.0) and the rulebook's resource examples."""

from __future__ import annotations

from app.games.darkest_night.state import Blight, State
from tests.games.darkest_night.harness import Table


def no_events(s: State) -> None:
    s.decks["event"].cards = []
    s.decks["event"].discard = []


def test_entering_a_curse_at_one_secrecy() -> None:
    t = Table.start()
    t.edit(no_events)
    t.edit(
        lambda s: (setattr(s.heroes["seer"], "secrecy", 1), setattr(s.heroes["seer"], "location", "Village"))
    )
    t.edit(lambda s: s.blights["Forest"].append(Blight("b90", "Curse")))
    t.begin_turn("seer")
    events = t.act("travel", to="Forest")
    lines = t.log(events)
    assert any("loses 1 secrecy, now 0" in line for line in lines), lines
    # Travel's +1 secrecy (up to 5) comes after the move: back to 1.
    assert t.hero("seer").secrecy == 1


def test_travel_never_lowers_secrecy_above_five() -> None:
    """DN 4.1: a hero with 6 secrecy who travels stays at 6."""
    t = Table.start()
    t.edit(no_events)
    assert t.hero("seer").secrecy == 6
    t.begin_turn("seer")
    t.act("travel", to="Village")
    assert t.hero("seer").secrecy == 6


def test_prayer_gains_up_to_default() -> None:
    """DN 4.1: the Valkyrie (default 5) with 4 grace prays, rolling 5 and 3: grace 5, not 6."""
    t = Table.start()
    t.edit(lambda s: setattr(s.heroes["valkyrie"], "grace", 4))
    t.begin_turn("valkyrie")
    t.act("pray", dice=[5, 3])
    assert t.hero("valkyrie").grace == 5


def test_forgotten_shrine_has_no_limit() -> None:
    """DN 4.1: a forgotten shrine gives 2 grace with no limit: 4 → 6."""
    t = Table.start()
    t.edit(no_events)
    shrine_card = "map105"  # its Mountains result is a forgotten shrine
    t.edit(
        lambda s: (
            setattr(s.heroes["valkyrie"], "grace", 4),
            setattr(s.heroes["valkyrie"], "location", "Mountains"),
            s.decks["map"].cards.insert(0, shrine_card),
            s.blights.__setitem__("Mountains", []),
        )
    )
    t.begin_turn("valkyrie")
    t.act("search", dice=[6])
    assert t.hero("valkyrie").grace == 6


def test_sparks_cap_at_three() -> None:
    """DN 4.2: at most 3 sparks; meditating with 3 gains nothing."""
    t = Table.start()
    t.edit(lambda s: setattr(s.heroes["valkyrie"], "sparks", 3))
    t.begin_turn("valkyrie")
    t.act("meditate")
    assert t.hero("valkyrie").sparks == 3


def test_a_spark_adds_a_die_before_the_roll() -> None:
    """DN 4.2: spend a spark before a roll for 1 extra die."""
    t = Table.start()
    t.edit(lambda s: (setattr(s.heroes["valkyrie"], "sparks", 1), setattr(s.heroes["valkyrie"], "grace", 2)))
    t.begin_turn("valkyrie")
    t.act("pray")
    t.act("roll_dice", sparks=1, dice=[1, 2, 4])
    assert t.state.last_roll["dice"] == 3
    assert t.hero("valkyrie").sparks == 0 and t.hero("valkyrie").grace == 3


def test_at_least_one_die() -> None:
    """DN 5.0: whatever the penalties, at least one die is rolled."""
    t = Table.start()
    t.edit(no_events)
    t.edit(
        lambda s: (
            setattr(s.heroes["valkyrie"], "location", "Castle"),
            s.blights.__setitem__(
                "Castle",
                [Blight("b90", "Unholy Aura"), Blight("b91", "Unholy Aura"), Blight("b92", "Skeletons")],
            ),
        )
    )
    t.begin_turn("valkyrie")
    attack = next(c for c in t.choices() if c.type == "attack" and "Skeletons" in c.label)
    assert attack.detail.startswith("fight: 1 die")  # Skewer's 2, −2 for the two Auras
    t.act("attack", **attack.args, dice=[6])
    assert not any(b.type == "Skeletons" for b in t.state.blights["Castle"])


def test_taint_stops_grace_gains() -> None:
    """DN 4.1: all gains are negated where a Taint blight is."""
    t = Table.start()
    t.edit(no_events)
    shrine_card = "map105"
    t.edit(
        lambda s: (
            setattr(s.heroes["valkyrie"], "grace", 2),
            setattr(s.heroes["valkyrie"], "location", "Mountains"),
            s.decks["map"].cards.insert(0, shrine_card),
            s.blights.__setitem__("Mountains", [Blight("b90", "Taint")]),
        )
    )
    t.begin_turn("valkyrie")
    t.act("search", dice=[6])
    assert t.hero("valkyrie").grace == 2
