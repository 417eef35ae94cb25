"""Items (DN 15.0–15.2), actions and their refusals (DN 8.0), losing turns (DN 13.3),
reshuffling (DN 19.1) and both victories (DN 18.1, 18.2)."""

from __future__ import annotations

import pytest

from app.games.darkest_night.state import Blight, Item, State
from app.kernel.types import RuleError
from tests.games.darkest_night.harness import Table, run_steps


def quiet(s: State) -> None:
    s.decks["event"].cards = []
    s.decks["event"].discard = []


def gives(t: Table, giver: str) -> set[tuple[str, str]]:
    return {
        (c.args["item"], c.args["to"])
        for c in t.choices()
        if c.type == "give_item" and c.args["hero"] == giver
    }


def test_items_pass_only_between_heroes_at_one_place() -> None:
    """DN 15.1: give any item to a hero at the same location, at any time, for free."""
    t = Table.start()
    t.edit(
        lambda s: (
            s.heroes["prince"].items.append(Item("i90", "charm")),
            setattr(s.heroes["valkyrie"], "location", "Village"),
        )
    )
    assert gives(t, "prince") == {("i90", "seer"), ("i90", "crusader")}
    t.act("give_item", hero="prince", item="i90", to="seer")
    assert t.hero("seer").item("i90") is not None


def test_one_holy_relic_each_and_receiving_one_costs_secrecy() -> None:
    """DN 15.2: one relic per hero; a relic handed over costs the receiver 1 secrecy."""
    t = Table.start()
    t.edit(
        lambda s: (
            s.heroes["prince"].items.append(Item("i90", "holy_relic")),
            s.heroes["seer"].items.append(Item("i91", "holy_relic")),
        )
    )
    assert ("i90", "seer") not in gives(t, "prince")
    secrecy = t.hero("valkyrie").secrecy
    t.act("give_item", hero="prince", item="i90", to="valkyrie")
    assert t.hero("valkyrie").secrecy == secrecy - 1


def test_storing_and_taking_at_the_monastery() -> None:
    """DN 15.1: store an item at the Monastery, or take one stored there; no secrecy loss
    for picking up a stored relic (DN 15.2)."""
    t = Table.start()
    t.edit(lambda s: s.heroes["prince"].items.append(Item("i90", "holy_relic")))
    t.act("store_item", hero="prince", item="i90")
    assert [i.id for i in t.state.stored] == ["i90"]
    secrecy = t.hero("seer").secrecy
    t.act("take_stored_item", hero="seer", item="i90")
    assert t.hero("seer").secrecy == secrecy and t.hero("seer").relics() == 1


def test_the_holy_ritual_wins() -> None:
    """DN 18.2: three Holy Relics at the Monastery at once: the heroes win."""
    t = Table.start()
    t.edit(quiet)
    t.edit(
        lambda s: (
            s.stored.extend([Item("i90", "holy_relic"), Item("i91", "holy_relic")]),
            s.heroes["prince"].items.append(Item("i92", "holy_relic")),
            setattr(s.heroes["prince"], "location", "Village"),
        )
    )
    t.begin_turn("prince")
    t.act("travel", to="Monastery")
    assert t.state.result is not None and t.state.result["result"] == "win"
    assert "Holy Ritual" in t.state.result["reason"]


def test_slaying_the_necromancer_needs_a_relic_and_no_blights() -> None:
    """DN 12.2, 18.1."""
    t = Table.start()
    t.edit(quiet)
    t.edit(
        lambda s: (
            s.heroes["crusader"].items.append(Item("i90", "holy_relic")),
            setattr(s.heroes["crusader"], "location", "Castle"),
            setattr(s, "necromancer", "Castle"),
            s.blights.__setitem__("Castle", []),
        )
    )
    t.begin_turn("crusader")
    t.act("attack_necromancer")
    plain = next(c for c in t.choices() if c.type == "resolve_combat" and c.args["tactic"] is None)
    t.act("resolve_combat", **plain.args, dice=[6])  # alone with the relic: rolled at once
    assert t.state.result == {
        "result": "win",
        "reason": "Crusader slew the Necromancer with a Holy Relic (DN 18.1).",
    }


def test_beating_him_without_a_relic_does_nothing() -> None:
    t = Table.start()
    t.edit(quiet)
    t.edit(
        lambda s: (
            setattr(s.heroes["crusader"], "location", "Castle"),
            setattr(s, "necromancer", "Castle"),
            s.blights.__setitem__("Castle", []),
        )
    )
    t.begin_turn("crusader")
    t.act("attack_necromancer")
    plain = next(c for c in t.choices() if c.type == "resolve_combat" and c.args["tactic"] is None)
    t.act("resolve_combat", **plain.args, dice=[6])
    assert t.state.result is None


def test_the_pall_protects_him() -> None:
    """DN 20.1.5: a won fight removes a pall card instead of anything else."""
    t = Table.start(options={"pall_of_suffering": True})
    t.edit(quiet)
    t.edit(
        lambda s: (
            s.heroes["crusader"].items.append(Item("i90", "holy_relic")),
            s.pall.append("tribute"),
            setattr(s.heroes["crusader"], "location", "Castle"),
            setattr(s, "necromancer", "Castle"),
            s.blights.__setitem__("Castle", []),
        )
    )
    t.begin_turn("crusader")
    t.act("attack_necromancer")
    plain = next(c for c in t.choices() if c.type == "resolve_combat" and c.args["tactic"] is None)
    t.act("resolve_combat", **plain.args, dice=[6])  # alone with the relic: rolled at once
    assert t.state.result is None and t.state.pall == []


def test_retrieving_a_relic_costs_ten_clues() -> None:
    """DN 8.0: spend 10 clues for the undiscovered relic here."""
    t = Table.start()
    t.edit(quiet)
    t.edit(
        lambda s: (
            setattr(s.heroes["prince"], "location", "Forest"),
            setattr(s, "clues", 9),
            s.blights.__setitem__("Forest", []),
        )
    )
    t.begin_turn("prince")
    with pytest.raises(RuleError, match="costs 10 clues; you have 9"):
        t.send("retrieve_relic")
    t.edit(lambda s: setattr(s, "clues", 12))
    t.act("retrieve_relic")
    assert t.state.clues == 2 and t.hero("prince").relics() == 1 and "Forest" not in t.state.relics


def test_the_first_relic_costs_seventeen_with_five_heroes() -> None:
    """DN 20.2.1."""
    t = Table.start(heroes=["prince", "valkyrie", "seer", "crusader", "prince"][:4], options={"heroes": 4})
    from app.games.darkest_night.rules.items import relic_cost

    assert relic_cost(t.state) == ("clues", 10)
    t.edit(lambda s: s.options.__setitem__("heroes", 5))
    assert relic_cost(t.state) == ("clues", 17)
    t.edit(lambda s: setattr(s, "relics_retrieved", 1))
    assert relic_cost(t.state) == ("clues", 10)
    t.edit(lambda s: s.options.__setitem__("no_mysteries", True))
    assert relic_cost(t.state) == ("keys", 3)


def test_refusals_name_the_rule() -> None:
    """Standard actions the rules forbid are refused with the reason and the rule."""
    t = Table.start()
    t.begin_turn("prince")
    with pytest.raises(RuleError, match=r"the Monastery cannot be searched \(DN 19.2\)"):
        t.send("search")
    unavailable = {
        u.type: u
        for p in __import__("app.games.darkest_night", fromlist=["x"]).DARKEST_NIGHT.prompts(t.state)
        for u in p.unavailable
    }
    assert unavailable["search"].rule == "DN 19.2"
    with pytest.raises(RuleError, match=r"not one of the choices offered now; expected one of \{\"to\": "):
        t.send("travel", to="Ruins")  # not adjacent to the Monastery
    with pytest.raises(RuleError):
        t.send("take_turn", hero="seer")


def test_hide_refreshes_and_hides() -> None:
    """DN 8.0: refresh all powers, then +1 secrecy up to 5."""
    t = Table.start()
    t.edit(quiet)
    t.edit(
        lambda s: (
            setattr(s.heroes["prince"], "location", "Village"),
            setattr(s.heroes["prince"], "secrecy", 2),
            setattr(s.heroes["prince"].powers[0], "exhausted", True),
        )
    )
    t.begin_turn("prince")
    t.act("hide")
    assert t.hero("prince").secrecy == 3 and not t.hero("prince").powers[0].exhausted


def test_a_lost_turn_skips_everything() -> None:
    """DN 13.3: skip the whole turn, good and bad: no event, no secrecy lost to the
    Necromancer, and the hero stands up again."""
    t = Table.start()
    t.edit(
        lambda s: (
            setattr(s.heroes["prince"], "location", "Ruins"),
            setattr(s.heroes["prince"], "lost_turn", True),
            setattr(s, "necromancer", "Ruins"),
        )
    )
    secrecy = t.hero("prince").secrecy
    events = t.begin_turn("prince")
    assert t.types(events)[0] == "TurnSkipped"
    assert t.hero("prince").secrecy == secrecy and not t.hero("prince").lost_turn
    assert t.hero("prince").turns_left == 0


def test_leaving_webs_loses_a_turn() -> None:
    t = Table.start()
    t.edit(quiet)
    t.edit(
        lambda s: (
            setattr(s.heroes["prince"], "location", "Village"),
            s.blights.__setitem__("Village", [Blight("b90", "Webs")]),
        )
    )
    t.begin_turn("prince")
    t.act("travel", to="Castle")
    assert t.hero("prince").lost_turn


def test_decks_reshuffle_their_discards() -> None:
    """DN 19.1: an empty deck is rebuilt from its discards; with none, nothing is drawn."""
    t = Table.start()
    t.edit(
        lambda s: (
            setattr(s.decks["map"], "discard", list(s.decks["map"].cards)),
            setattr(s.decks["map"], "cards", []),
            setattr(s, "necromancer", "Castle"),
            s.blights.__setitem__("Castle", []),
        )
    )
    lines = run_steps(t, [{"op": "necromancer_blight"}], phase="necromancer")
    assert "The map deck is shuffled." in lines
    assert len(t.state.blights["Castle"]) == 1
    t.edit(lambda s: (setattr(s.decks["map"], "discard", []), setattr(s.decks["map"], "cards", [])))
    lines = run_steps(t, [{"op": "necromancer_blight"}], phase="necromancer")
    assert any("empty" in line for line in lines)
    assert len(t.state.blights["Castle"]) == 1 and t.decision is None
