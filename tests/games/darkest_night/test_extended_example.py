"""The rulebook's Extended Example of Play: the Seer's, the Crusader's and the
Necromancer's turns, from its stated position with its dice. (The Prince's and the
Valkyrie's turns, which need their event cards, are in test_events.py.)"""

from __future__ import annotations

from app.games.darkest_night.state import Blight, Item, Power, State
from tests.games.darkest_night.harness import Table, run_steps


def position(s: State) -> None:
    """The board as the example describes it."""
    s.decks["event"].cards = []
    s.decks["event"].discard = []
    s.heroes["prince"].location, s.heroes["prince"].secrecy = "Village", 4
    s.heroes["valkyrie"].location, s.heroes["valkyrie"].secrecy = "Swamp", 3
    seer = s.heroes["seer"]
    seer.location, seer.grace, seer.secrecy = "Monastery", 1, 5
    seer.default_grace, seer.default_secrecy = 4, 6
    crusader = s.heroes["crusader"]
    crusader.location, crusader.grace, crusader.secrecy = "Castle", 3, 2
    crusader.items.append(Item("i90", "holy_relic"))
    s.necromancer = "Castle"
    for location in s.blights:
        s.blights[location] = []
    s.blights["Castle"] = [Blight("b90", "Skeletons"), Blight("b91", "Shroud")]
    s.blights["Village"] = [Blight("b92", "Unholy Aura")]


def table() -> Table:
    t = Table.start(
        powers={
            "crusader": ["crusader.wrath", "crusader.holy_strike", "crusader.faith"],
            "prince": ["prince.inspire", "prince.loyalty", "prince.strategy"],
        }
    )
    return t.edit(position)


def test_the_seers_turn() -> None:
    """She prays, rolling 3 and 6: grace 1 → 3 (default 4); a whole turn in the Monastery
    raises her secrecy 5 → 6 (default 6)."""
    t = table()
    t.begin_turn("seer")
    t.act("pray", dice=[3, 6])
    assert t.hero("seer").grace == 3
    t.act("end_action")
    assert t.hero("seer").secrecy == 6


def test_the_crusaders_turn() -> None:
    t = table()
    t.edit(lambda s: s.decks["map"].cards.insert(0, "map104"))  # its Castle result: a supply cache
    deck = list(t.hero("crusader").deck)
    events = t.begin_turn("crusader")
    # Start: -1 secrecy for the Necromancer, -1 for the relic: 2 → 0 (DN 10.0, 15.2).
    assert t.hero("crusader").secrecy == 0
    # Event step: no event; the Necromancer attacks (DN 7.2).
    assert "NecromancerAttacked" in t.types(events)
    wrath = next(c for c in t.choices() if c.args.get("tactic") == "crusader.wrath")
    assert wrath.detail.startswith("4 dice vs 7, spend 1 grace")
    # Alone with the relic, there is no one to hand it to: it adds its +1 and the dice are
    # rolled at once (DN 15.2; issue 11: no question with one meaningful answer).
    events = t.act("resolve_combat", **wrath.args, dice=[2, 3, 5, 6])
    assert t.hero("crusader").grace == 2
    assert t.state.last_roll["relic"] is True
    # The relic turns the 6 into a 7: he wins; the Shroud protects the Skeletons, so the
    # Necromancer sacrifices the Shroud (DN 12.2).
    assert [b.type for b in t.state.blights["Castle"]] == ["Skeletons"]
    assert t.state.result is None
    # Action: search, rolling a 2 against the Castle's 2: a supply cache.
    assert t.decision.kind == "action"
    t.act("search", dice=[2])
    assert t.decision.kind == "supply_cache" and t.decision.drawn == deck[:2]
    kept, other = deck[0], deck[1]
    t.act("keep_power", power=kept)
    crusader = t.hero("crusader")
    assert crusader.power(kept) is not None and crusader.deck[-1] == other
    # End: a Skeleton (4 strength) attacks; he fights with no tactic, rolls 3, the relic makes it 4.
    t.act("end_action")
    assert t.decision.kind == "combat" and t.decision.step["foe"]["name"] == "Skeletons"
    plain = next(c for c in t.choices() if c.args.get("approach") == "fight" and c.args.get("tactic") is None)
    events = t.act("resolve_combat", **plain.args, dice=[3])  # alone with the relic: rolled at once
    assert any("wins against Skeletons" in line for line in t.log(events))
    assert not t.hero("crusader").dead and [b.type for b in t.state.blights["Castle"]] == ["Skeletons"]


def test_the_necromancers_turn() -> None:
    """Darkness +1; he rolls 4: the Seer (Monastery) and the Prince (secrecy 4) are not
    detected, the Valkyrie (3) and the Crusader (0) are; the Crusader is nearest, in his own
    location, so he stays; then an Evil Presence is created in the Castle."""
    t = table()
    t.edit(
        lambda s: (
            setattr(s.heroes["crusader"], "secrecy", 0),
            s.decks["map"].cards.insert(0, "map139"),
            setattr(s, "darkness", 7),
        )
    )
    lines = run_steps(
        t,
        [{"op": "necromancer_darkness"}, {"op": "necromancer_move"}, {"op": "necromancer_blight"}],
        dice=[4],
        phase="necromancer",
    )
    assert t.state.darkness == 8
    assert "The Necromancer detects Valkyrie, Crusader." in lines
    assert t.state.necromancer == "Castle"
    assert [b.type for b in t.state.blights["Castle"]] == ["Skeletons", "Shroud", "Evil Presence"]


def test_inspire_on_the_valkyrie() -> None:
    """The Prince activates Inspire on the Valkyrie (DN 14.1); she may add 3 dice to a
    roll, which deactivates it (Extended Example: Skewer 2 + Inspire 3 − Unholy Aura 1 = 4)."""
    t = table()
    t.edit(
        lambda s: (
            setattr(s.heroes["valkyrie"], "location", "Village"),
            s.heroes["valkyrie"].powers.append(Power("valkyrie.skewer"))
            if s.heroes["valkyrie"].power("valkyrie.skewer") is None
            else None,
        )
    )
    t.begin_turn("prince")
    t.act("power_action", power="prince.inspire", target="hero:valkyrie")
    assert t.hero("prince").power("prince.inspire").active
    t.act("end_action")
    t.begin_turn("valkyrie")
    # "She uses her Skewer tactic": free and with more dice than none, it is taken at once.
    events = t.act("attack", blight="b92")
    assert "Valkyrie fights with Skewer" in [e.data["what"] for e in events if e.type == "Automatic"]
    assert t.decision.step["dice"] == 1  # Skewer's 2, −1 for the Unholy Aura
    # With Inspire used nothing more can be added: the 4 dice are rolled (issue 11).
    events = t.act("use_boost", power="prince.inspire", dice=[1, 1, 1, 1])
    assert t.state.last_roll["dice"] == 4
    valkyrie = t.hero("valkyrie")
    assert not t.hero("prince").power("prince.inspire").active
    assert valkyrie.grace == 4 and valkyrie.secrecy == 2  # the Aura's defense, and the attack
    assert any("rolls 1, 1, 1, 1" in line for line in t.log(events))
