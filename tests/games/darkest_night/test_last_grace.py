"""Issue 26, item 1: a hero at 0 grace is not killed before anyone may save him (DN 13.1,
DN 14.3.2). "No question with one answer" counts the "any time" uses of every seat: the
Crusader's Martyr, the Valkyrie's Shield Maiden; with none, death is still not asked."""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.state import Item, Power, State
from tests.games.darkest_night.harness import Table, run_steps

CRUSADER = ["crusader.wrath", "crusader.holy_strike", "crusader.faith"]
VALKYRIE_WITH_SHIELD_MAIDEN = ["valkyrie.skewer", "valkyrie.winged_leap", "valkyrie.shield_maiden"]
VALKYRIE_WITHOUT = ["valkyrie.skewer", "valkyrie.winged_leap", "valkyrie.battle_cry"]
SEER_WITHOUT = ["seer.dowse", "seer.prophecy_of_fortune", "seer.far_sight"]
"""None of these has an "any time" use (DN 14.3.2)."""
GHOUL_FIGHT = {
    "op": "fight",
    "hero": "crusader",
    "foe": "Ghoul",
    "strength": 4,
    "awareness": 3,
    "fail": [{"op": "wound", "why": "the Ghoul"}],
}


def quiet(s: State) -> None:
    s.decks["event"].cards = []
    s.decks["event"].discard = []


def at_village_crusader_graceless(s: State) -> None:
    """The issue's position: the Crusader at 0 grace, the Valkyrie beside him."""
    quiet(s)
    s.heroes["crusader"].location = "Village"
    s.heroes["crusader"].grace = 0
    s.heroes["valkyrie"].location = "Village"


def give(hero: str, power: str) -> Any:
    """A power drawn later in the game (Martyr is not a starting power)."""

    def change(s: State) -> None:
        s.heroes[hero].deck = [p for p in s.heroes[hero].deck if p != power]
        s.heroes[hero].powers.append(Power(power))

    return change


def crusader_fails_against_the_ghoul(martyr: bool = True, shield_maiden: bool = True) -> Table:
    """The issue's table (two seats: the Crusader's player and the Valkyrie's), the Crusader's
    fight against a Ghoul lost with a 1 against 4+."""
    powers: dict[str, Any] = {
        "crusader": CRUSADER,
        "valkyrie": VALKYRIE_WITH_SHIELD_MAIDEN if shield_maiden else VALKYRIE_WITHOUT,
        "seer": SEER_WITHOUT,
    }
    t = Table.start(heroes=["crusader", "valkyrie", "seer", "prince"], powers=powers, seats=2)
    t.edit(at_village_crusader_graceless)
    if martyr:
        t.edit(give("crusader", "crusader.martyr"))
    t.begin_turn("crusader")
    run_steps(t, [GHOUL_FIGHT])
    t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[1])
    return t


def test_a_graceless_hero_holding_martyr_is_asked_before_the_wound_kills_him() -> None:
    """DN 14.3.2, 13.1: after the lost roll, before the wound resolves, the table waits: the
    Crusader's player sees death as the wound's only answer and Martyr among what he may
    do at any time; Martyr's grace is then spent to survive (death the only other answer)."""
    t = crusader_fails_against_the_ghoul(shield_maiden=False)
    crusader = t.hero("crusader")
    assert not crusader.dead and t.decision.kind == "wound"
    offered = {c.type for c in t.choices(crusader.seat)}
    assert {"accept_death", "use_power"} <= offered and "spend_grace" not in offered
    events = t.act("use_power", hero="crusader", power="crusader.martyr")
    assert "HeroDied" not in t.types(events)
    assert "Crusader spends 1 grace to survive the wound" in [
        e.data["what"] for e in events if e.type == "Automatic"
    ]
    assert t.decision is None or t.decision.kind != "wound"
    assert not t.hero("crusader").dead and t.hero("crusader").grace == 0
    assert t.state.darkness == 0


def test_the_valkyries_shield_maiden_spares_a_graceless_hero_from_another_seat() -> None:
    """DN 14.3.2: the Valkyrie's player (another seat) may use Shield Maiden on the hero
    taking his turn at her location: the wound is prevented, nobody dies."""
    t = crusader_fails_against_the_ghoul(martyr=False)
    valkyrie = t.hero("valkyrie")
    assert valkyrie.seat != t.hero("crusader").seat
    assert t.decision.kind == "wound" and t.decision.asked == [t.hero("crusader").seat]
    events = t.act("use_power", hero="valkyrie", power="valkyrie.shield_maiden")
    assert "WoundPrevented" in t.types(events) and "HeroDied" not in t.types(events)
    assert not t.hero("crusader").dead
    assert t.decision is None or t.decision.kind != "wound"


def test_a_graceless_hero_may_still_let_the_wound_kill_him() -> None:
    """DN 13.1: the any-time powers are a choice, not an obligation."""
    t = crusader_fails_against_the_ghoul()
    events = t.act("accept_death")
    assert "HeroDied" in t.types(events) and t.hero("crusader").dead
    assert t.state.darkness == 1


def test_with_nothing_to_use_at_any_time_the_wound_kills_without_a_question() -> None:
    """DN 13.1: no grace and no power or item anyone may use: death has one answer and is
    not asked (the log says the hero dies)."""
    t = Table.start(
        heroes=["crusader", "valkyrie", "seer", "prince"],
        powers={"crusader": CRUSADER, "valkyrie": VALKYRIE_WITHOUT, "seer": SEER_WITHOUT},
        seats=2,
    )
    t.edit(at_village_crusader_graceless)
    t.begin_turn("crusader")
    run_steps(t, [GHOUL_FIGHT])
    assert not any(c.type in ("use_power", "use_item") for c in t.choices())
    events = t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[1])
    assert "HeroDied" in t.types(events) and t.hero("crusader").dead
    assert any("Crusader dies" in line for line in t.log(events))


def test_a_wound_left_with_no_rescue_after_an_any_time_use_kills_at_once() -> None:
    """DN 14.3.2, 13.1: the Crusader uses his Waystone to leave the Valkyrie's location:
    her Shield Maiden no longer reaches him, nothing else can save him, and the wound waits
    no longer."""
    t = crusader_fails_against_the_ghoul(martyr=False)
    t.edit(lambda s: s.heroes["crusader"].items.append(Item("i90", "waystone")))
    assert t.decision.kind == "wound"
    events = t.act("use_item", hero="crusader", item="i90", to="Castle")
    assert "HeroDied" in t.types(events) and t.hero("crusader").dead


def test_a_shield_maiden_elsewhere_does_not_hold_up_death() -> None:
    """DN 13.1: a use that cannot save the hero (Shield Maiden guards only the hero at the
    Valkyrie's location) is no reason to ask: the wound kills without a question."""
    t = Table.start(
        heroes=["crusader", "valkyrie", "seer", "prince"],
        powers={"crusader": CRUSADER, "valkyrie": VALKYRIE_WITH_SHIELD_MAIDEN, "seer": SEER_WITHOUT},
        seats=2,
    )
    t.edit(at_village_crusader_graceless).edit(lambda s: setattr(s.heroes["valkyrie"], "location", "Castle"))
    t.begin_turn("crusader")
    run_steps(t, [GHOUL_FIGHT])
    assert any(c.type == "use_power" for c in t.choices())  # she may still use it, uselessly
    events = t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[1])
    assert "HeroDied" in t.types(events) and t.hero("crusader").dead
