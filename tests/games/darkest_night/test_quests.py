"""Quests (DN 16.0): the deck of 45 with the facts' numbers, placement (DN 16.1), completing
(DN 16.2) and expiring (DN 16.3), with the rulebook's own examples."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.games.darkest_night.content import load
from app.games.darkest_night.state import Blight, Item, Placed, State
from tests.games.darkest_night.harness import Table, run_steps
from tests.games.darkest_night.test_content import walk_ops

QUESTS = (
    "Skeletal Patrols 1/4, The Lovers 2/4, Opportunists 1/3, Night Terrors 1/4, Demagoguery 1/2, "
    "Thieves' Den 1/4, Foul Water 3/3, Dark Tower 2/6, Unearthly Mists 1/3, Adjudication 5/4, "
    "Green No More 2/4, Evil Chant 1/5, Zombie Horde 3/5, Heirloom 1/3, Tricksters 2/4, Warlock's "
    "Lair 1/5, Tribute 1/5, Ancient Curse 2/5, Dark Seed 1/5, Without a Trace 1/5, Nightmares 1/2, "
    "Resupply 2/5, Door to Darkness 1/5, Broken Seal 8/5, The Dark Orb 2/6, Angry Guardian 1/4, "
    "Collaborators 1/4, Fugue 1/6, Weeping Well 3/5, The Mourners 4/6, Conflux 2/5, Rogue Reaper "
    "1/5, Counter Intelligence 2/4, Trapped Children 2/5, Ghoul Infestation 2/5, Spawning Shades "
    "3/5, Broken Graves 1/3, Closed Inn 2/4, Dire Spiders 2/5, Making Waves 3/3, Besieged 1/4, "
    "Black Smoke 1/5, Ill Weather 5/4, Masquerade 2/3, Secret Convoy 1/4"
)
"""The facts' "Quest deck (45) — name: progress needed / time to expire" (shared/facts/
darkest-night.md), copied word for word: the tests read nothing outside the repository."""

HERO_FREE = {
    "darkness",
    "clues",
    "keys",
    "create_blight",
    "create_blight_of",
    "move_necromancer",
    "each_hero",
    "heroes_at",
    "advance_quests",
    "place_quest",
    "draw_quest",
}
"""Ops an expired quest may use at the top level: it has no hero (DN 16.3)."""


def facts() -> dict[str, tuple[int, int]]:
    out = {}
    for item in QUESTS.split(", "):
        name, numbers = item.rsplit(" ", 1)
        progress, time = numbers.split("/")
        out[name] = (int(progress), int(time))
    return out


# -- positions ---------------------------------------------------------------------------


def quiet(s: State) -> None:
    """No events to draw and no blights anywhere: only the quest acts."""
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


def quest(card: str, location: str, progress: int = 0, time: int = 0, quest_id: str = "q1"):  # noqa: ANN201
    """A quest card on the map, as ``QuestPlaced`` leaves it (events.py)."""

    def change(s: State) -> None:
        s.decks["quest"].cards = [c for c in s.decks["quest"].cards if c != card]
        s.quests.append(Placed(quest_id, card, location, progress=progress, time=time))

    return change


def table_with(*changes: Any, heroes: tuple[str, ...] = ("prince", "valkyrie", "seer", "crusader")) -> Table:
    t = Table.start(heroes=heroes)
    t.edit(quiet)
    for change in changes:
        t.edit(change)
    return t


def play_round(t: Table, necromancer_die: int) -> None:
    """Every hero takes a turn in the Monastery doing nothing; then the Necromancer's turn."""
    heroes = [h.id for h in t.state.living() if h.turns_left > 0]
    for i, hero in enumerate(heroes):
        t.begin_turn(hero)
        t.act("end_action", dice=[necromancer_die] if i == len(heroes) - 1 else [])


# -- the deck ----------------------------------------------------------------------------


def test_the_quest_deck_has_45_cards_with_the_facts_numbers() -> None:
    """DN 2.0: 45 quest cards; names, progress and time from the facts."""
    c = load()
    assert len(c.quests) == 45
    got = {q.name: (q.data["progress"], q.data["time"]) for q in c.quests.values()}
    assert got == facts()
    assert c.quests["tribute"].data["time"] == 5  # the Extended Example


def test_every_quest_is_written_whole() -> None:
    c = load()
    for q in c.quests.values():
        assert re.fullmatch(r"[a-z_]+", q.id), q.id
        assert q.text and q.data["action_text"], q.id
        for part in ("action", "completed", "expired"):
            assert q.data[part], (q.id, part)
        for step in q.data["expired"]:
            assert step["op"] in HERO_FREE, (q.id, step)
            assert step.get("where", "$location") != "here", (q.id, step)
        for step in q.data["action"]:
            if step["op"] == "quest_fight":
                foe = c.foes.get(step.get("foe", q.name))
                stats = [
                    step.get("strength", foe and foe.strength),
                    step.get("awareness", foe and foe.awareness),
                ]
                allowed = step.get("allow", ["fight", "elude"])
                assert any(s for s, a in zip(stats, ["fight", "elude"], strict=True) if a in allowed), q.id
        kinds = [s["kind"] for s in walk_ops_steps(q.data) if s["op"] == "gain_item"]
        assert all(k in c.items for k in kinds), q.id
        types = [s["type"] for s in walk_ops_steps(q.data) if s["op"] == "create_blight_of"]
        assert all(b in c.blights for b in types), q.id


def walk_ops_steps(node: Any) -> list[dict[str, Any]]:
    out = []
    if isinstance(node, dict):
        if "op" in node:
            out.append(node)
        for value in node.values():
            out += walk_ops_steps(value)
    elif isinstance(node, list):
        for value in node:
            out += walk_ops_steps(value)
    return out


def test_quest_ops_exist() -> None:
    from app.games.darkest_night.engine import RULES

    assert {op for q in load().quests.values() for op in walk_ops(q.data)} <= set(RULES.steps)


# -- placing (DN 16.1) -----------------------------------------------------------------------


def test_a_die_of_3_places_the_quest_in_the_forest() -> None:
    """DN 16.1 example: the Village's arrow for a 3 is the Forest."""
    t = table_with(lambda s: setattr(s.decks["quest"], "cards", ["zombie_horde", "tribute"]))
    t.begin_turn("prince")
    lines = run_steps(t, [{"op": "draw_quest", "hero": "prince"}], dice=[3])
    assert [(q.card, q.location, q.progress, q.time) for q in t.state.quests] == [
        ("zombie_horde", "Forest", 0, 0)
    ]
    assert any("A quest appears in the Forest: Zombie Horde" in line for line in lines)


def test_with_two_dice_the_placer_chooses() -> None:
    """DN 16.1: with more dice the placer chooses any one result."""
    t = table_with(
        put("prince", "Monastery", sparks=1), lambda s: setattr(s.decks["quest"], "cards", ["tribute"])
    )
    t.begin_turn("prince")
    run_steps(t, [{"op": "draw_quest", "hero": "prince"}])
    t.act("roll_dice", sparks=1, dice=[3, 5])
    assert {c.args["location"] for c in t.choices() if c.type == "place_quest"} == {"Forest", "Swamp"}
    t.act("place_quest", location="Swamp")
    assert t.state.quests[0].location == "Swamp"


# -- completing (DN 16.2) ------------------------------------------------------------------


def test_zombie_horde_druid_example() -> None:
    """DN 16.2: Zombie Horde in the Village with 1 token; a hero there eludes with 4 dice
    (here the Prince: 1 die, Loyalty +1, 2 sparks), rolls 5, 3, 1, 1: two successes, two
    tokens, 3 in all: completed, and the reward is a supply cache."""
    t = table_with(put("prince", "Village", sparks=2), quest("zombie_horde", "Village", progress=1))
    t.begin_turn("prince")
    action = next(c for c in t.choices() if c.type == "quest_action")
    assert action.label == "Quest: Zombie Horde" and action.detail.endswith("(1/3)")
    t.act("quest_action", quest="q1")
    # an elude roll only, against the horde's awareness 3
    assert {c.args.get("approach") for c in t.choices() if c.type == "resolve_combat"} == {"elude"}
    t.act("resolve_combat", approach="elude", tactic=None, option=0)
    events = t.act("roll_dice", sparks=2, dice=[5, 3, 1, 1])
    assert t.state.last_roll["dice"] == 4
    lines = t.log(events)
    assert "Prince advances a quest to 3." in lines
    assert "Prince completes the quest Zombie Horde!" in lines
    assert t.state.quests == [] and "zombie_horde" in t.state.decks["quest"].discard
    assert t.decision.kind == "supply_cache" and len(t.decision.drawn) == 2
    keep = t.decision.drawn[0]
    t.act("keep_power", power=keep)
    assert keep in [p.id for p in t.hero("prince").powers]


def test_a_failed_quest_roll_costs_nothing_unless_noted() -> None:
    """DN 16.2: failing has no effect unless the card says so."""
    t = table_with(put("prince", "Village"), quest("zombie_horde", "Village", progress=1))
    before = (t.hero("prince").grace, t.hero("prince").secrecy)
    t.begin_turn("prince")
    t.act("quest_action", quest="q1")
    t.act("resolve_combat", approach="elude", tactic=None, option=0, dice=[2, 1])
    assert t.state.quests[0].progress == 1
    assert (t.hero("prince").grace, t.hero("prince").secrecy) == before


def test_a_quest_that_notes_a_penalty_for_failing() -> None:
    """Rogue Reaper: losing the fight is a wound (spend 1 grace or die, DN 13.1)."""
    t = table_with(put("valkyrie", "Ruins"), quest("rogue_reaper", "Ruins"))
    t.begin_turn("valkyrie")
    t.act("quest_action", quest="q1")
    assert {c.args.get("approach") for c in t.choices() if c.type == "resolve_combat"} == {"fight"}
    t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[5])
    assert t.decision.kind == "wound"


def test_a_roll_quest_counts_each_success() -> None:
    """Foul Water: 2 dice against 4, a token per success."""
    t = table_with(put("seer", "Castle"), quest("foul_water", "Castle"))
    t.begin_turn("seer")
    events = t.act("quest_action", quest="q1", dice=[4, 2])
    assert "Seer advances a quest to 1." in t.log(events)
    assert t.state.quests[0].progress == 1


def test_a_quest_completes_only_at_its_number() -> None:
    """DN 16.2: completed when the tokens equal or exceed its number, not before: Foul
    Water needs 3; two successes leave it at 2."""
    t = table_with(put("seer", "Castle"), quest("foul_water", "Castle"))
    t.begin_turn("seer")
    t.act("quest_action", quest="q1", dice=[4, 6])
    assert [(q.card, q.progress) for q in t.state.quests] == [("foul_water", 2)]


def test_tribute_can_be_paid_with_an_item() -> None:
    """Tribute: pay 2 secrecy, 1 grace or an item (DN 16.2: some quests cost resources)."""
    t = table_with(
        put("prince", "Village", grace=4, secrecy=3),
        lambda s: s.heroes["prince"].items.append(Item("i90", "charm")),
        quest("tribute", "Village"),
    )
    t.begin_turn("prince")
    t.act("quest_action", quest="q1")
    labels = [c.label for c in t.choices() if c.type in ("pay", "stop_paying")]
    assert labels == ["Spend 2 secrecy", "Spend 1 grace", "Discard your Charm", "Pay nothing"]
    way = next(c for c in t.choices() if c.label == "Discard your Charm")
    events = t.act("pay", **way.args)
    assert "Prince completes the quest Tribute!" in t.log(events)
    assert t.hero("prince").items == [] and t.hero("prince").grace == 4
    assert t.hero("prince").secrecy == 5  # the reward: 2 secrecy up to 7


def test_you_cannot_spend_what_you_do_not_have() -> None:
    """DN 4.1: Door to Darkness needs 2 grace; with 1 the action achieves nothing."""
    t = table_with(put("prince", "Forest", grace=1), quest("door_to_darkness", "Forest"))
    t.begin_turn("prince")
    t.act("quest_action", quest="q1")
    assert t.state.quests[0].progress == 0 and t.hero("prince").grace == 1


def test_broken_seal_takes_repeated_payments() -> None:
    """Broken Seal: one token for each grace, secrecy or clue spent, as often as you like;
    you cannot spend clues the heroes do not have (DN 4.1)."""
    t = table_with(put("valkyrie", "Swamp", grace=5, secrecy=5), quest("broken_seal", "Swamp"))
    t.edit(lambda s: setattr(s, "clues", 1))
    t.begin_turn("valkyrie")
    t.act("quest_action", quest="q1")
    pay = {c.label: c.args for c in t.choices() if c.type == "pay"}
    assert set(pay) == {"Spend 1 grace", "Spend 1 secrecy", "Spend 1 clue"}
    t.act("pay", **pay["Spend 1 clue"])
    assert t.state.clues == 0 and t.state.quests[0].progress == 1
    pay = {c.label: c.args for c in t.choices() if c.type == "pay"}
    assert set(pay) == {"Spend 1 grace", "Spend 1 secrecy"}
    t.act("pay", **pay["Spend 1 secrecy"])
    t.act("pay", **pay["Spend 1 grace"])
    t.act("stop_paying")
    assert t.state.quests[0].progress == 3
    assert (t.hero("valkyrie").grace, t.hero("valkyrie").secrecy) == (4, 4)
    assert t.decision.kind == "next_hero"  # the quest action was the turn's action


def test_completing_broken_seal() -> None:
    """The last token completes it: the darkness falls by 2 (it may go below 0, DN 20.1.3)
    and the hero gains 2 grace with no limit."""
    t = table_with(put("valkyrie", "Swamp", grace=5, secrecy=5), quest("broken_seal", "Swamp", progress=7))
    t.begin_turn("valkyrie")
    t.act("quest_action", quest="q1")
    events = t.act("pay", **next(c.args for c in t.choices() if c.label == "Spend 1 secrecy"))
    assert "Valkyrie completes the quest Broken Seal!" in t.log(events)
    assert t.state.quests == [] and t.state.darkness == -2
    assert (t.hero("valkyrie").grace, t.hero("valkyrie").secrecy) == (7, 4)


def test_stopping_a_repeated_payment() -> None:
    t = table_with(put("valkyrie", "Swamp", secrecy=5), quest("making_waves", "Swamp"))
    t.begin_turn("valkyrie")
    t.act("quest_action", quest="q1")
    assert next(c.label for c in t.choices() if c.type == "stop_paying") == "Pay nothing"
    t.act("pay", way=0)
    assert next(c.label for c in t.choices() if c.type == "stop_paying") == "Stop paying"
    t.act("stop_paying")
    assert t.state.quests[0].progress == 1 and t.hero("valkyrie").secrecy == 4
    assert t.decision.kind == "next_hero"  # the quest action was the turn's action


def test_a_reward_without_pieces_becomes_a_green_item() -> None:
    """DN 16.2: a reward that cannot be taken for want of pieces: any green-backed item."""
    t = table_with(put("prince", "Village", sparks=2), quest("zombie_horde", "Village", progress=2))
    t.edit(lambda s: setattr(s.heroes["prince"], "deck", []))
    t.begin_turn("prince")
    t.act("quest_action", quest="q1")
    t.act("resolve_combat", approach="elude", tactic=None, option=0)
    t.act("roll_dice", dice=[6, 1])
    assert t.decision.kind == "green_item"
    t.act("take_item", kind="charm")
    assert [i.kind for i in t.hero("prince").items] == ["charm"]


def test_adjudication_lets_the_hero_destroy_a_blight_there() -> None:
    """Adjudication's reward: 2 grace (no limit) and a blight of the hero's choice there destroyed."""
    t = table_with(
        put("crusader", "Castle", grace=5),
        quest("adjudication", "Castle", progress=4),
        lambda s: s.blights["Castle"].extend([Blight("b90", "Spies"), Blight("b91", "Confusion")]),
    )
    t.begin_turn("crusader")
    t.act("quest_action", quest="q1", dice=[4, 1, 1])
    assert t.decision.kind == "destroy_blight_at" and t.hero("crusader").grace == 7
    assert [c.label for c in t.choices() if c.type == "destroy"] == [
        "Destroy the Spies",
        "Destroy the Confusion",
    ]
    t.act("destroy", blight="b91")
    assert [b.type for b in t.state.blights["Castle"]] == ["Spies"]


# -- expiring (DN 16.3) ----------------------------------------------------------------------


def test_zombie_horde_in_the_swamp_expires_on_the_fifth_necromancer_turn() -> None:
    """DN 16.3 example: on the fifth Necromancer turn after it appears it gains its fifth
    token, expires, and a Zombies blight is created in the Swamp."""
    t = table_with(quest("zombie_horde", "Swamp"))
    for turn in range(1, 5):
        play_round(t, necromancer_die=3)
        assert [(q.card, q.time) for q in t.state.quests] == [("zombie_horde", turn)]
    before = len(t.events)
    play_round(t, necromancer_die=3)
    lines = t.log(t.events[before:])
    assert t.state.quests == []
    assert "The quest Zombie Horde in the Swamp expires." in lines
    placed = [e.data for e in t.events[before:] if e.type == "BlightPlaced"]
    assert placed[0]["type"] == "Zombies" and placed[0]["location"] == "Swamp"
    assert "Zombies" in [b.type for b in t.state.blights["Swamp"]]


def test_tribute_expires_into_a_blight_from_the_map() -> None:
    """Extended Example: Tribute in the Village with 4 markers gets its fifth on the
    Necromancer's turn and expires; the map card's Village blight (Zombies) is created."""
    t = table_with(quest("tribute", "Village", time=4))
    card = next(m.id for m in load().map_cards.values() if m.blights["Village"] == "Zombies")
    t.edit(
        lambda s: setattr(s.decks["map"], "cards", [card, *[c for c in s.decks["map"].cards if c != card]])
    )
    before = len(t.events)
    play_round(t, necromancer_die=6)
    lines = t.log(t.events[before:])
    assert "The quest Tribute in the Village expires." in lines
    placed = [e.data for e in t.events[before:] if e.type == "BlightPlaced"]
    assert (placed[0]["location"], placed[0]["type"]) == ("Village", "Zombies")
    assert "tribute" in t.state.decks["quest"].discard


@pytest.mark.parametrize("card", sorted(load().quests))
def test_every_quest_expires_without_a_hero(card: str) -> None:
    """Each penalty runs on the Necromancer's turn, where there is no hero (DN 16.3)."""
    location = "Castle"
    t = table_with(put("prince", location), quest(card, location, time=load().quests[card].data["time"] - 1))
    t.edit(lambda s: setattr(s, "clues", 3))
    run_steps(t, [{"op": "quest_timers"}], phase="necromancer")
    assert t.state.quests == []
    assert any(e.type == "QuestExpired" for e in t.events)


def test_the_pall_keeps_expired_quests() -> None:
    """DN 20.1.5: an expired quest goes to the Necromancer's pall."""
    t = Table.start(options={"pall_of_suffering": True})
    t.edit(quiet)
    t.edit(lambda s: setattr(s, "quests", []))
    t.edit(quest("evil_chant", "Ruins", time=4))
    run_steps(t, [{"op": "quest_timers"}], phase="necromancer")
    assert t.state.pall == ["evil_chant"]


def test_without_quests_the_deck_is_empty() -> None:
    """DN 20.6: no quests; Common Knowledge leaves the mystery deck."""
    t = Table.start(options={"no_quests": True})
    assert t.state.decks["quest"].cards == []
    assert "common_knowledge" not in t.state.decks["mystery"].cards


def test_zombie_horde_with_the_druids_vines() -> None:
    """DN 16.2 as written: the Druid eludes with Vines (4 dice), rolls 5, 3, 1, 1, adds 2
    tokens to the 1 already there, exhausts Vines and takes a supply cache."""
    if "druid" not in load().heroes:
        pytest.skip("no Druid yet")
    from app.games.darkest_night.state import Power

    t = Table.start(heroes=("druid", "prince", "seer", "crusader"))
    t.edit(quiet)
    t.edit(put("druid", "Village"))
    t.edit(lambda s: s.heroes["druid"].powers.append(Power("druid.vines")))
    t.edit(quest("zombie_horde", "Village", progress=1))
    t.begin_turn("druid")
    t.act("quest_action", quest="q1")
    vines = next(c for c in t.choices() if c.type == "resolve_combat" and c.args["tactic"] == "druid.vines")
    assert vines.args["approach"] == "elude" and vines.detail.startswith("4 dice vs 3")
    t.act("resolve_combat", **vines.args, dice=[5, 3, 1, 1])
    assert t.state.quests == [] and t.decision.kind == "supply_cache"
    assert t.hero("druid").power("druid.vines").exhausted
