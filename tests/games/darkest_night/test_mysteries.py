"""Mysteries (DN 17.0): the deck of 45, discovering (DN 17.2) and pursuing them (DN 17.3),
with the rulebook's examples (Defiled Shrine, Contemplation) and the variants that remove
cards (DN 20.6, 20.7)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.games.darkest_night.content import LOCATIONS, MONASTERY, load
from app.games.darkest_night.state import Item, Placed, State
from tests.games.darkest_night.harness import Table, run_steps
from tests.games.darkest_night.test_content import walk_ops

HOOKS = {"epiphany", "revelation"}
"""The moments ``permanent_hook`` is called for (cards.py)."""


def quiet(s: State) -> None:
    s.decks["event"].cards = []
    s.decks["event"].discard = []
    for location in s.blights:
        s.blights[location] = []


def put(hero: str, location: str, **fields: Any):  # noqa: ANN201
    def change(s: State) -> None:
        s.heroes[hero].location = location
        for key, value in fields.items():
            setattr(s.heroes[hero], key, value)

    return change


def mystery(card: str, location: str, keys: tuple[int, ...] = ()):  # noqa: ANN201
    """A mystery card on the map, as ``MysteryPlaced`` leaves it (id ``m<card>``)."""

    def change(s: State) -> None:
        s.decks["mystery"].cards = [c for c in s.decks["mystery"].cards if c != card]
        s.mysteries.append(Placed(f"m{card}", card, location, keys=list(keys)))

    return change


def table_with(*changes: Any) -> Table:
    t = Table.start()
    t.edit(quiet)
    for change in changes:
        t.edit(change)
    return t


# -- the deck ----------------------------------------------------------------------------


def test_the_mystery_deck_has_45_cards() -> None:
    """DN 2.0: 45 mystery cards, with the rulebook's named ones among them."""
    c = load()
    assert len(c.mysteries) == 45
    assert len({m.name for m in c.mysteries.values()}) == 45
    assert c.mysteries["defiled_shrine"].name == "Defiled Shrine"
    assert c.mysteries["contemplation"].name == "Contemplation"
    assert c.mysteries["common_knowledge"].name == "Common Knowledge"
    assert c.mysteries["by_starlight"].name == "By Starlight"


def test_every_mystery_is_written_whole() -> None:
    c = load()
    places = {"Random", *[loc for loc in LOCATIONS if loc != MONASTERY]}
    for m in c.mysteries.values():
        d = m.data
        assert re.fullmatch(r"[a-z_]+", m.id), m.id
        assert m.text, m.id
        assert d["location"] in places, m.id
        assert int(d.get("clues", 0)) >= 0, m.id
        assert d.get("clues") or d.get("action") or d.get("permanent"), m.id
        if d.get("action"):
            assert d.get("action_text"), m.id
        permanent = d.get("permanent")
        if permanent:
            assert permanent.get("hook") in HOOKS or (permanent.get("action") and d.get("action")), m.id
        ops = [step["op"] for step in d.get("action", ())]
        paid_keys = {
            offer["key"]
            for step in d.get("action", ())
            if step["op"] == "mystery_pay"
            for offer in step["offers"]
            if offer.get("key") is not None
        }
        for index, key in enumerate(d.get("keys", ())):
            assert key.get("text") and key.get("do"), (m.id, index)
            if "min" in key:
                assert 1 <= key["min"] <= 6, (m.id, index)
                assert {"mystery_fight", "mystery_roll"} & set(ops), (m.id, index)
            else:
                assert index in paid_keys, (m.id, index)
        kinds = [s["kind"] for s in steps_in(d) if s["op"] == "gain_item"]
        assert all(k in c.items for k in kinds), m.id


def steps_in(node: Any) -> list[dict[str, Any]]:
    out = []
    if isinstance(node, dict):
        if "op" in node:
            out.append(node)
        for value in node.values():
            out += steps_in(value)
    elif isinstance(node, list):
        for value in node:
            out += steps_in(value)
    return out


def test_mystery_ops_exist() -> None:
    from app.games.darkest_night.engine import RULES

    assert {op for m in load().mysteries.values() for op in walk_ops(m.data)} <= set(RULES.steps)


def test_variants_remove_their_mysteries() -> None:
    """DN 20.6: without quests, no Common Knowledge; DN 20.7: without the darkness deck,
    no By Starlight; DN 20.5: without mysteries, no mystery deck."""
    assert "common_knowledge" not in Table.start(options={"no_quests": True}).state.decks["mystery"].cards
    no_dark = Table.start(options={"no_darkness_deck": True}).state.decks["mystery"].cards
    assert "by_starlight" not in no_dark and len(no_dark) == 44
    assert Table.start(options={"no_mysteries": True}).state.decks["mystery"].cards == []


# -- discovering (DN 17.2) ----------------------------------------------------------------


def test_a_random_mystery_with_a_die_of_5_goes_to_the_swamp() -> None:
    """DN 17.2 example: a Random mystery rolls on the Village's arrows: 5 is the Swamp; its
    clues are gained at once."""
    t = table_with(lambda s: setattr(s.decks["mystery"], "cards", ["defiled_shrine", "torn_map"]))
    t.begin_turn("prince")
    lines = run_steps(t, [{"op": "draw_mystery", "hero": "prince"}], dice=[5])
    assert [(m.card, m.location) for m in t.state.mysteries] == [("defiled_shrine", "Swamp")]
    assert "A mystery appears in the Swamp: Defiled Shrine." in lines
    assert t.state.clues == load().mysteries["defiled_shrine"].data["clues"]


def test_a_mystery_with_a_place_goes_there() -> None:
    t = table_with(lambda s: setattr(s.decks["mystery"], "cards", ["contemplation"]))
    t.begin_turn("prince")
    run_steps(t, [{"op": "draw_mystery", "hero": "prince"}])
    assert [(m.card, m.location) for m in t.state.mysteries] == [("contemplation", "Swamp")]


def test_a_mystery_of_clues_alone_leaves_at_once() -> None:
    t = table_with(lambda s: setattr(s.decks["mystery"], "cards", ["scholars_notes"]))
    t.begin_turn("prince")
    run_steps(t, [{"op": "draw_mystery", "hero": "prince"}], dice=[1])
    assert t.state.clues == 3 and t.state.mysteries == []
    assert "scholars_notes" in t.state.decks["mystery"].discard


# -- pursuing (DN 17.3) ---------------------------------------------------------------------


def test_defiled_shrine_example() -> None:
    """DN 17.3: a fight roll with a tactic (the Mesmer's Consume Dreams: 3 dice; here the
    Prince's Strategy, 2 dice, and a spark) rolls 2, 3, 5: the 4+ reward (1 clue) and the
    5+ reward (a Treasure Chest) from the same die; keys 0 and 1 are covered. Another roll
    can only earn the 6+ reward: a 6 gives 3 clues, and with every key covered it leaves."""
    t = table_with(put("prince", "Village", sparks=1), mystery("defiled_shrine", "Village"))
    t.begin_turn("prince")
    t.act("mystery_action", mystery="mdefiled_shrine")
    combat = [c for c in t.choices() if c.type == "resolve_combat"]
    assert {c.args["approach"] for c in combat} == {"fight"}
    strategy = next(c for c in combat if c.args["tactic"] == "prince.strategy")
    assert strategy.detail.startswith("2 dice vs 4")
    t.act("resolve_combat", **strategy.args)
    events = t.act("roll_dice", sparks=1, dice=[2, 3, 5])
    lines = t.log(events)
    assert "The heroes gain 1 clue, now 1." in lines
    assert "Prince gains a Treasure Chest." in lines
    assert t.state.clues == 1
    assert [i.kind for i in t.hero("prince").items] == ["treasure_chest"]
    assert t.state.mysteries[0].keys == [0, 1]

    t.act("end_action")
    t.edit(put("valkyrie", "Village"))
    t.begin_turn("valkyrie")
    t.act("mystery_action", mystery="mdefiled_shrine")
    plain = next(c for c in t.choices() if c.type == "resolve_combat" and c.args["tactic"] is None)
    assert plain.detail.startswith("1 die vs 6")  # only the 6+ reward is left
    t.act("resolve_combat", **plain.args, dice=[5])
    assert t.state.clues == 1 and t.state.mysteries[0].keys == [0, 1]
    t.act("end_action")
    t.edit(put("seer", "Village"))
    t.begin_turn("seer")
    t.act("mystery_action", mystery="mdefiled_shrine")
    t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[6])
    assert t.state.clues == 4
    t.act("end_action")
    assert t.state.mysteries == [] and "defiled_shrine" in t.state.decks["mystery"].discard


def test_pulling_punches_earns_nothing() -> None:
    """DN 12.3: yielding rolls no dice, so no die reaches a key (even after an earlier 6)."""
    t = table_with(put("prince", "Village"), mystery("defiled_shrine", "Village"))
    t.edit(
        lambda s: setattr(s, "last_roll", {"hero": "prince", "purpose": "fight", "faces": [6], "kept": [6]})
    )
    t.begin_turn("prince")
    t.act("mystery_action", mystery="mdefiled_shrine")
    t.act("yield")
    assert t.state.mysteries[0].keys == [] and t.state.clues == 0


def test_a_holy_relic_adds_to_the_best_die() -> None:
    """DN 15.2: the relic's +1 to the highest die counts in a mystery's fight roll: a 5
    becomes 6 and earns all three rewards."""
    t = table_with(
        put("crusader", "Village"),
        lambda s: s.heroes["crusader"].items.append(Item("i91", "holy_relic")),
        mystery("defiled_shrine", "Village"),
    )
    t.begin_turn("crusader")
    t.act("mystery_action", mystery="mdefiled_shrine")
    t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[5])  # alone: rolled at once
    assert t.state.clues == 4
    assert any(e.type == "MysteryKeyed" and e.data["key"] == 2 for e in t.events)


def test_an_elude_roll_mystery() -> None:
    """Haunted Crypt: an elude roll; its best die takes the rewards it reaches."""
    t = table_with(put("prince", "Ruins"), mystery("haunted_crypt", "Ruins"))
    t.edit(lambda s: setattr(s, "necromancer", "Castle"))
    t.begin_turn("prince")
    t.act("mystery_action", mystery="mhaunted_crypt")
    assert {c.args["approach"] for c in t.choices() if c.type == "resolve_combat"} == {"elude"}
    t.act("resolve_combat", approach="elude", tactic=None, option=0, dice=[5, 2])  # Loyalty: 2 dice
    assert t.state.clues == 1
    assert [i.kind for i in t.hero("prince").items] == ["skull_token"]
    assert t.state.mysteries[0].keys == [0, 1]


def test_a_search_roll_mystery() -> None:
    """Forgotten Library: a search roll; 6 takes all three rewards, and it leaves."""
    t = table_with(put("seer", "Forest"), mystery("forgotten_library", "Forest"))
    t.begin_turn("seer")
    t.act("mystery_action", mystery="mforgotten_library", dice=[6])
    assert t.state.clues == 3
    assert [i.kind for i in t.hero("seer").items] == ["tome_of_retraining"]
    t.act("end_action")
    assert t.state.mysteries == []


def test_contemplation_gives_3_clues_for_an_epiphany_in_the_swamp() -> None:
    """DN 17.3: Contemplation in the Swamp: a hero who gains an epiphany there (here by
    searching) also gains 3 clues, every time."""
    c = load()
    card = next(m.id for m in c.map_cards.values() if m.search["Swamp"] == "epiphany")
    t = table_with(put("seer", "Swamp"), mystery("contemplation", "Swamp"))
    t.edit(lambda s: setattr(s, "necromancer", "Castle"))
    t.edit(
        lambda s: setattr(s.decks["map"], "cards", [card, *[x for x in s.decks["map"].cards if x != card]])
    )
    t.begin_turn("seer")
    t.act("search", dice=[5])
    assert t.decision.kind == "epiphany"
    power = t.choices()[0].args["power"]
    t.act("take_power", power=power)
    t.act("end_action")  # (the engine runs the epiphany hook late: see find_epiphany)
    assert t.state.clues == 3
    # permanent: it stays, and triggers again
    run_steps(t, [{"op": "find_epiphany", "hero": "seer"}])
    t.act("take_power", **next(c.args for c in t.choices() if c.type == "take_power"))
    assert t.state.clues == 6 and [m.card for m in t.state.mysteries] == ["contemplation"]


def test_contemplation_does_nothing_elsewhere() -> None:
    t = table_with(put("seer", "Forest"), mystery("contemplation", "Swamp"))
    t.begin_turn("seer")
    run_steps(t, [{"op": "find_epiphany", "hero": "seer"}])
    t.act("take_power", **next(c.args for c in t.choices() if c.type == "take_power"))
    assert t.state.clues == 0


def test_common_knowledge_counts_the_quests() -> None:
    """Common Knowledge: 1 clue per quest in play, and every quest gains a time token."""
    t = table_with(
        put("prince", "Castle"),
        mystery("common_knowledge", "Castle"),
        lambda s: s.quests.extend(
            [Placed("q1", "zombie_horde", "Swamp"), Placed("q2", "dark_tower", "Forest")]
        ),
    )
    t.begin_turn("prince")
    t.act("mystery_action", mystery="mcommon_knowledge")
    assert t.state.clues == 2
    assert [q.time for q in t.state.quests] == [1, 1]
    assert [m.card for m in t.state.mysteries] == ["common_knowledge"]  # permanent


def test_by_starlight_looks_at_the_darkness_deck() -> None:
    """By Starlight: 5+ lets the hero put the top darkness card at the bottom."""
    darkness = list(load().darkness)
    if len(darkness) < 3:
        pytest.skip("no darkness deck yet")
    order = darkness[:3]
    t = table_with(
        put("prince", "Mountains"),
        mystery("by_starlight", "Mountains"),
        lambda s: setattr(s.decks["darkness"], "cards", list(order)),
    )
    t.begin_turn("prince")
    t.act("mystery_action", mystery="mby_starlight", dice=[5, 1])
    assert t.decision.kind == "peek_darkness" and t.state.clues == 1
    assert {c.type for c in t.choices() if c.type in ("leave_on_top", "put_at_bottom")} == {
        "leave_on_top",
        "put_at_bottom",
    }
    t.act("put_at_bottom")
    assert t.state.decks["darkness"].cards == [order[1], order[2], order[0]]
    assert t.state.mysteries[0].keys == [0, 1]


def test_a_keyed_payment() -> None:
    """Oracle Bones: each price buys its reward once; when both are taken it leaves."""
    t = table_with(put("prince", "Village", grace=4, sparks=1), mystery("oracle_bones", "Village"))
    t.begin_turn("prince")
    t.act("mystery_action", mystery="moracle_bones")
    labels = {c.label: c.args for c in t.choices() if c.type == "pay"}
    assert set(labels) == {"Spend 1 grace", "Spend 1 spark"}
    t.act("pay", **labels["Spend 1 spark"])
    assert t.state.clues == 2 and t.hero("prince").sparks == 0
    t.act("end_action")
    t.edit(put("valkyrie", "Village", grace=4))
    t.begin_turn("valkyrie")
    t.act("mystery_action", mystery="moracle_bones")  # only the grace price is left: paid at once
    assert t.state.clues == 4 and t.hero("valkyrie").grace == 3
    t.act("end_action")
    assert t.state.mysteries == []


def test_an_item_offering() -> None:
    """Sealed Vault: discard an item token for 3 clues; it leaves once its key is taken."""
    t = table_with(
        put("prince", "Castle"),
        lambda s: s.heroes["prince"].items.append(Item("i92", "waystone")),
        mystery("sealed_vault", "Castle"),
    )
    t.edit(lambda s: setattr(s, "necromancer", "Ruins"))
    t.begin_turn("prince")
    t.act("mystery_action", mystery="msealed_vault")
    assert t.state.clues == 3 and t.hero("prince").items == []
    t.act("end_action")
    assert t.state.mysteries == []


def test_a_permanent_action_stays() -> None:
    """Reading Room: spend 1 grace and 1 secrecy for 1 clue, again and again."""
    t = table_with(put("prince", "Village", grace=4, secrecy=3), mystery("reading_room", "Village"))
    t.begin_turn("prince")
    t.act("mystery_action", mystery="mreading_room")
    assert t.state.clues == 1 and (t.hero("prince").grace, t.hero("prince").secrecy) == (3, 2)
    t.act("end_action")
    assert [m.card for m in t.state.mysteries] == ["reading_room"]


def test_praying_at_the_sunken_chapel() -> None:
    """Sunken Chapel: pray as at the Monastery: 2 dice against 3, grace up to default."""
    t = table_with(put("seer", "Swamp", grace=1), mystery("sunken_chapel", "Swamp"))
    t.edit(lambda s: setattr(s, "necromancer", "Castle"))
    t.begin_turn("seer")
    t.act("mystery_action", mystery="msunken_chapel", dice=[3, 6])
    assert t.hero("seer").grace == 3


def test_defiled_shrine_with_the_mesmers_consume_dreams() -> None:
    """DN 17.3 as written: the Mesmer fights with Consume Dreams (3 dice): 2, 3, 5."""
    if "mesmer" not in load().heroes:
        pytest.skip("no Mesmer yet")
    t = Table.start(heroes=("mesmer", "prince", "seer", "crusader"), powers={"mesmer": None})
    t.edit(quiet)
    t.edit(put("mesmer", "Village"))
    t.edit(mystery("defiled_shrine", "Village"))
    if t.hero("mesmer").power("mesmer.consume_dreams") is None:
        pytest.skip("Consume Dreams is not among the Mesmer's first starting powers")
    t.begin_turn("mesmer")
    t.act("mystery_action", mystery="mdefiled_shrine")
    tactic = next(
        c for c in t.choices() if c.type == "resolve_combat" and c.args["tactic"] == "mesmer.consume_dreams"
    )
    assert tactic.detail.startswith("3 dice vs 4")
    t.act("resolve_combat", **tactic.args, dice=[2, 3, 5])
    assert t.state.clues == 1 and [i.kind for i in t.hero("mesmer").items] == ["treasure_chest"]
    assert t.state.mysteries[0].keys == [0, 1]
