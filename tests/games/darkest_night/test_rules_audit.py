"""The rules a strict audit caught the engine getting wrong (issue 11), one test per rule."""

from __future__ import annotations

from app.games.darkest_night.content import load
from app.games.darkest_night.state import Blight, Item, State
from tests.games.darkest_night.harness import Table, run_steps


def quiet(s: State) -> None:
    s.decks["event"].cards = []
    s.decks["event"].discard = []


def blights_at(location: str, *types: str):  # noqa: ANN201
    def change(s: State) -> None:
        s.blights[location] = [Blight(f"b{80 + i}", t) for i, t in enumerate(types)]

    return change


def at(hero: str, location: str):  # noqa: ANN201
    return lambda s: setattr(s.heroes[hero], "location", location)


def event_steps(card: str, hero: str) -> list[dict]:
    return [dict(e) | {"hero": hero} for e in load().events[card].effects]


# -- 1. Void counts as 2 for events (DN 7.0 with the Void's text) ------------------------


def test_void_and_skeletons_bring_a_flying_demon() -> None:
    """DN 7.0, Void ("counts as 2 blights here"): Void + Skeletons are 3 blights, so the
    Demon is a Flying Demon."""
    t = Table.start()
    t.edit(quiet).edit(at("prince", "Village")).edit(blights_at("Village", "Void", "Skeletons"))
    t.begin_turn("prince")
    run_steps(t, event_steps("demon", "prince"))
    assert t.decision.kind == "combat"
    assert t.decision.step["foe"]["name"] == "Flying Demon"


def test_a_lone_void_costs_three_secrecy_at_the_watchers() -> None:
    """DN 7.0, Void: a lone Void is 2 blights here, so Watchers cost 3 secrecy."""
    t = Table.start()
    t.edit(quiet).edit(at("prince", "Village")).edit(blights_at("Village", "Void"))
    t.edit(lambda s: setattr(s.heroes["prince"], "secrecy", 5))
    t.begin_turn("prince")
    run_steps(t, event_steps("watchers", "prince"))
    assert t.hero("prince").secrecy == 2


def test_darkness_cards_count_a_void_as_two() -> None:
    """DN 9.0 darkness cards and the Void: "blights here" and board counts see 2 for a Void."""
    from app.games.darkest_night.engine import Ctx
    from app.games.darkest_night.rules.darkness_effects import board_count, hero_stat

    t = Table.start()
    t.edit(at("prince", "Village")).edit(blights_at("Village", "Void"))
    t.edit(lambda s: setattr(s, "necromancer", "Village"))
    ctx = Ctx.reader(t.state)
    assert hero_stat(ctx, t.hero("prince"), "blights_here") == 2
    assert board_count(ctx, "blights_at_necromancer") == 2
    assert board_count(ctx, "most_blights") >= 2


# -- 2. "Any time" before a roll's effects resolve (DN 14.3.2) ---------------------------


def test_shield_maiden_at_the_wound_prompt_spares_the_wound() -> None:
    """DN 14.3.2: an any-time power used after the roll but before its effects resolve
    changes what resolves: Shield Maiden at the wound prompt means no wound, no grace spent."""
    t = Table.start(
        powers={"valkyrie": ["valkyrie.skewer", "valkyrie.winged_leap", "valkyrie.shield_maiden"]}
    )
    t.edit(quiet).edit(at("valkyrie", "Village"))
    t.begin_turn("valkyrie")
    run_steps(
        t,
        [
            {
                "op": "fight",
                "hero": "valkyrie",
                "foe": "Ghoul",
                "strength": 4,
                "awareness": 3,
                "fail": [{"op": "wound", "why": "the Ghoul"}],
            }
        ],
    )
    t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[1])
    assert t.decision.kind == "wound"
    grace = t.hero("valkyrie").grace
    events = t.act("use_power", hero="valkyrie", power="valkyrie.shield_maiden")
    assert "WoundPrevented" in t.types(events)
    assert t.decision is None or t.decision.kind != "wound"
    assert t.hero("valkyrie").grace == grace and not t.hero("valkyrie").dead


def test_a_wound_prompt_offers_no_grace_that_was_spent_meanwhile() -> None:
    """DN 13.1, 4.1: the wound prompt lists what is possible now: with no grace left it
    offers only death (the rules no longer offer spending grace the hero lacks). (The
    Valkyrie's Shield Maiden beside him is why the wound is asked at all, DN 14.3.2.)"""
    t = Table.start()
    t.edit(quiet).edit(at("prince", "Village")).edit(at("valkyrie", "Village"))
    t.begin_turn("prince")
    run_steps(t, [{"op": "wound", "hero": "prince", "why": "a test"}])
    assert t.decision.kind == "wound"
    t.edit(lambda s: setattr(s.heroes["prince"], "grace", 0))
    assert [c.type for c in t.choices() if c.type in ("spend_grace", "accept_death")] == ["accept_death"]


# -- 3. Psion Stone is attached once (DN 15.0) -------------------------------------------


def test_a_psion_stone_is_attached_once() -> None:
    """DN 15.0: a basic item is used once; the Psion Stone, once attached, is no longer an
    item to attach again (it stays with the power)."""
    t = Table.start(
        powers={"valkyrie": ["valkyrie.skewer", "valkyrie.winged_leap", "valkyrie.shield_maiden"]}
    )
    t.edit(quiet).edit(lambda s: s.heroes["valkyrie"].items.append(Item("i90", "psion_stone")))
    t.begin_turn("valkyrie")
    t.act("use_item", hero="valkyrie", item="i90", power="valkyrie.skewer")
    assert t.hero("valkyrie").power("valkyrie.skewer").data.get("psion")
    assert t.hero("valkyrie").item("i90") is None
    assert not any(c.type == "use_item" and c.args.get("item") == "i90" for c in t.choices())
    assert not any(c.args.get("item") == "i90" for c in t.choices() if c.type == "give_item")


# -- 4. An item used is locked for the turn (DN 15.1, 15.2) ------------------------------


def test_a_relic_that_added_to_a_fight_cannot_be_given_away_that_turn() -> None:
    """DN 15.1, 15.2: the Holy Relic's +1 is using it: it is locked until its carrier's
    next turn; refusing the +1 keeps it free to hand on."""
    t = Table.start()
    t.edit(quiet).edit(lambda s: s.heroes["prince"].items.append(Item("i90", "holy_relic")))
    t.begin_turn("prince")
    run_steps(
        t,
        [{"op": "fight", "hero": "prince", "foe": "Ghoul", "strength": 4, "awareness": 3, "fail": []}],
    )
    t.act("resolve_combat", approach="fight", tactic=None, option=0)
    assert t.decision.kind == "roll" and t.decision.step["relic"]
    t.act("roll_dice", dice=[3])
    assert t.hero("prince").item("i90").locked
    assert not any(c.type == "give_item" and c.args["item"] == "i90" for c in t.choices())


def test_a_refused_relic_stays_free_to_give() -> None:
    """DN 15.2: refuse the benefit before the roll, and the relic may still be traded."""
    t = Table.start()
    t.edit(quiet).edit(lambda s: s.heroes["prince"].items.append(Item("i90", "holy_relic")))
    t.begin_turn("prince")
    run_steps(
        t,
        [{"op": "fight", "hero": "prince", "foe": "Ghoul", "strength": 4, "awareness": 3, "fail": []}],
    )
    t.act("resolve_combat", approach="fight", tactic=None, option=0)
    t.act("refuse_relic", dice=[5])  # nothing more to add: the roll follows
    assert not t.hero("prince").item("i90").locked
    assert any(c.type == "give_item" and c.args["item"] == "i90" for c in t.choices())


# -- 5. A dying hero's items (DN 13.1, 15.1, 15.2) ---------------------------------------


def test_the_players_choose_who_takes_each_item_of_a_fallen_hero() -> None:
    """DN 13.1, 15.1: the fallen hero's items go to heroes at that location, the players
    choosing who takes each one."""
    t = Table.start()
    t.edit(quiet)
    t.edit(
        lambda s: (
            s.heroes["prince"].items.extend([Item("i90", "charm"), Item("i91", "waystone")]),
            setattr(s.heroes["prince"], "grace", 0),
        )
    )
    t.begin_turn("prince")
    run_steps(t, [{"op": "wound", "hero": "prince", "why": "a test"}])
    # The Valkyrie's Shield Maiden here could still spare him (DN 14.3.2): he lets it kill.
    t.act("accept_death")
    assert t.decision.kind == "fallen_item"
    assert {c.args["to"] for c in t.choices() if c.type == "take_fallen_item"} == {
        "valkyrie",
        "seer",
        "crusader",
    }
    t.act("take_fallen_item", item="i90", to="seer")
    t.act("take_fallen_item", item="i91", to="crusader")
    assert t.hero("seer").item("i90") is not None
    assert t.hero("crusader").item("i91") is not None


def test_no_hero_ends_with_two_relics_from_a_fallen_hero() -> None:
    """DN 15.2: a hero who carries a relic cannot take a fallen hero's relic; it goes to
    one who can, or waits for the next hero to arrive."""
    t = Table.start()
    t.edit(quiet)
    t.edit(
        lambda s: (
            s.heroes["prince"].items.append(Item("i90", "holy_relic")),
            setattr(s.heroes["prince"], "grace", 0),
            setattr(s.heroes["prince"], "location", "Village"),
            setattr(s.heroes["seer"], "location", "Village"),
            s.heroes["seer"].items.append(Item("i91", "holy_relic")),
        )
    )
    t.begin_turn("prince")
    run_steps(t, [{"op": "wound", "hero": "prince", "why": "a test"}])
    assert t.hero("seer").relics() == 1
    assert [i.id for i in t.state.orphaned.get("Village", [])] == ["i90"]
    # The seer cannot pick it up either while carrying a relic; a relic-less hero can.
    t.edit(lambda s: setattr(s.heroes["valkyrie"], "location", "Mountains"))
    from app.games.darkest_night.engine import Ctx
    from app.games.darkest_night.rules.blights import on_enter

    ctx = Ctx.reader(t.state.clone())
    on_enter(ctx, ctx.s.heroes["seer"], "Village")
    assert not any(e.type == "ItemGiven" for e in ctx.events)
    ctx = Ctx.reader(t.state.clone())
    on_enter(ctx, ctx.s.heroes["valkyrie"], "Village")
    assert [e.data["to"] for e in ctx.events if e.type == "ItemGiven"] == ["valkyrie"]


# -- 6. Without mysteries keys are items (DN 20.5) ---------------------------------------


def test_without_mysteries_a_mystery_or_revelation_gives_a_key_item() -> None:
    """DN 20.5: mystery and revelation symbols are keys, and keys are items carried."""
    t = Table.start(options={"no_mysteries": True})
    t.edit(quiet).edit(at("prince", "Village"))
    t.begin_turn("prince")
    run_steps(t, [{"op": "find_mystery", "hero": "prince", "kind": "mystery", "why": "searching"}])
    run_steps(t, [{"op": "find_revelation", "hero": "prince", "kind": "revelation", "why": "searching"}])
    assert [i.kind for i in t.hero("prince").items] == ["key", "key"]
    assert t.state.clues == 0


def test_without_mysteries_a_mystery_search_result_is_available() -> None:
    """DN 20.5: a Mystery result is not replaced by another card: it is a key."""
    from app.games.darkest_night.engine import Ctx
    from app.games.darkest_night.rules.search import result_available

    t = Table.start(options={"no_mysteries": True})
    assert result_available(Ctx.reader(t.state), t.hero("prince"), "mystery")


def test_keys_are_traded_and_spent_for_a_relic() -> None:
    """DN 20.5, 15.1: keys are items: given to a hero here, and 3 carried keys retrieve a relic."""
    t = Table.start(options={"no_mysteries": True})
    t.edit(quiet)
    t.edit(
        lambda s: (
            s.heroes["prince"].items.extend([Item("i90", "key"), Item("i91", "key")]),
            s.heroes["seer"].items.append(Item("i92", "key")),
        )
    )
    t.act("give_item", hero="seer", item="i92", to="prince")
    assert [i.kind for i in t.hero("prince").items] == ["key", "key", "key"]
    t.edit(at("prince", "Village")).edit(lambda s: s.relics.__setitem__("Village", "undiscovered"))
    t.begin_turn("prince")
    t.act("retrieve_relic")
    assert [i.kind for i in t.hero("prince").items] == ["holy_relic"]


def test_clues_without_mysteries_become_carried_keys() -> None:
    """DN 20.5: a die per clue, a key item per 5–6."""
    t = Table.start(options={"no_quests": True, "no_mysteries": True})
    run_steps(t, [{"op": "clues", "hero": "prince", "n": 4}], dice=[6, 5, 1, 2])
    assert [i.kind for i in t.hero("prince").items] == ["key", "key"]


# -- 7. Attacking the Necromancer costs 1 secrecy (DN 8.0) -------------------------------


def test_attacking_the_necromancer_costs_a_secrecy_either_way() -> None:
    """DN 8.0: attack the Necromancer "in the same way as a blight": succeed or fail,
    lose 1 secrecy."""
    t = Table.start()
    t.edit(quiet).edit(at("prince", "Village"))
    t.edit(lambda s: (setattr(s, "necromancer", "Village"), setattr(s.heroes["prince"], "secrecy", 4)))
    t.edit(lambda s: s.blights.__setitem__("Village", [Blight("b90", "Skeletons")]))
    t.begin_turn("prince")
    # Start of turn with him here already cost 1 (DN 10.0).
    before = t.hero("prince").secrecy
    t.act("attack_necromancer", dice=[6, 6])  # Strategy's 2 dice, no relic: no 7
    t.act("spend_grace")  # the failed fight's wound (DN 12.2) comes first
    assert t.hero("prince").secrecy == before - 1


def test_being_attacked_by_the_necromancer_costs_no_secrecy() -> None:
    """DN 7.2: when he attacks a hero caught with no secrecy, it is not the hero's attack."""
    t = Table.start()
    t.edit(at("prince", "Village"))
    t.edit(lambda s: (setattr(s, "necromancer", "Village"), setattr(s.heroes["prince"], "secrecy", 1)))
    t.begin_turn("prince")  # the Necromancer here: secrecy 1 → 0, then he attacks
    assert t.decision.kind == "combat"
    t.act("resolve_combat", approach="elude", tactic=None, option=0, dice=[6, 6])
    assert t.hero("prince").secrecy == 0 and t.hero("prince").grace == t.hero("prince").default_grace


# -- 8. 42 item tokens plus 4 Holy Relic tokens (DN 2.0) ---------------------------------


def test_42_item_tokens_plus_4_holy_relics() -> None:
    """DN 2.0: "42 Item Tokens" and, listed apart, "4 Holy Relic Tokens"."""
    items = load().items
    assert items["holy_relic"].tokens == 4
    assert sum(i.tokens for kind, i in items.items() if kind != "holy_relic") == 42


def test_refusing_the_relic_is_asked_only_when_it_could_be_handed_on() -> None:
    """DN 15.2: refusing the +1 serves to give or store the relic this turn; alone away from
    the Monastery there is no one to give it to, so the fight is rolled with it at once."""
    t = Table.start()
    t.edit(quiet).edit(at("prince", "Village"))
    t.edit(lambda s: s.heroes["prince"].items.append(Item("i90", "holy_relic")))
    t.begin_turn("prince")
    run_steps(
        t,
        [{"op": "fight", "hero": "prince", "foe": "Ghoul", "strength": 4, "awareness": 3, "fail": []}],
    )
    events = t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[3])
    assert "DiceRolled" in t.types(events) and t.state.last_roll["relic"]
    assert t.hero("prince").item("i90").locked


def test_a_charm_given_away_after_the_roll_stays_within_reach() -> None:
    """DN 14.3.2, 15.1: after the roll, before its effects, the Charm is given to another
    hero here, who may give it back at any time: the roll still waits, "Keep the roll" its
    one listed answer; kept, it resolves."""
    t = Table.start()
    t.edit(quiet).edit(lambda s: s.heroes["prince"].items.append(Item("i90", "charm")))
    t.begin_turn("prince")
    run_steps(
        t,
        [
            {
                "op": "fight",
                "hero": "prince",
                "foe": "Ghoul",
                "strength": 4,
                "awareness": 3,
                "fail": [{"op": "lose_grace", "n": 1}],
            }
        ],
    )
    t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[1])
    assert t.decision.kind == "after_roll"
    grace = t.hero("prince").grace
    t.act("give_item", hero="prince", item="i90", to="seer")
    assert t.decision.kind == "after_roll"
    assert [c.type for c in t.choices() if c.type in ("accept_roll", "use_roll_item")] == ["accept_roll"]
    assert any(
        c.type == "give_item" and c.args == {"hero": "seer", "item": "i90", "to": "prince"}
        for c in t.choices()
    )
    t.act("accept_roll")
    assert t.decision.kind != "after_roll" and t.hero("prince").grace == grace - 1
