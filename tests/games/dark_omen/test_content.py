"""The decks at the rulebook's counts (DO L56-60) and every stated fact kept."""

from __future__ import annotations

from collections import Counter

from app.games.dark_omen.content import CONTENT, load
from app.games.dark_omen.engine import RULES
from app.kernel.flow.content import bad_sources

C = load()


def test_the_decks_have_the_rulebooks_counts() -> None:
    """DO L56-57: 8 characters, 74 creatures, 12 guards, 141 gear, 7 holographic, 18 guild
    cards, 16 runes of each house, 36 omens, 4 bosses, 12 story cards; 64 loot (DO L60)."""
    assert len(C.characters) == 8
    assert len(C.creatures) == 74
    assert Counter(c["level"] for c in C.creatures.values()) == {1: 20, 2: 19, 3: 18, 4: 17}
    assert len(C.guards) == 12
    assert len(C.gear) == 141
    assert len(C.holographic) == 7
    assert len(C.guilds) == 18
    assert Counter(r["house"] for r in C.runes.values()) == dict.fromkeys(
        ("Sun", "Moon", "Fortune", "Hope"), 16
    )
    assert len({r["rune"] for r in C.runes.values()}) == 16
    assert len(C.omens) == 36
    assert len(C.bosses) == 4
    assert len(C.story) == 12
    assert len(C.loot) == 64
    assert sum(C.tokens["creature_tokens"].values()) == 40
    assert Counter(C.creature_tokens.values()) == dict.fromkeys(range(1, 5), 10)


def test_every_entry_says_where_it_comes_from() -> None:
    """Every card and token; not the rules reference (``rules_reference.toml``), whose chapters,
    terms and guides state no fact of the game's own: all of it is our words on the rulebook's."""
    cards = [label for label in bad_sources(CONTENT) if not label.startswith("rules_reference.toml:")]
    assert cards == []


def test_the_facts_the_rulebook_states_are_kept() -> None:
    assert C.characters["visko"]["attribute"] == "Attunement"  # DO L186
    assert "Nyrkki" in {c["name"] for c in C.characters.values()}  # DO L204
    names = {c["name"] for c in C.creatures.values()}
    assert {"Groll", "Varulv"} <= names  # DO L478
    assert C.zombie["hp"] == 8 and C.zombie["armor"] == 0  # DO L201
    assert {b["name"] for b in C.bosses.values()} == {
        "Vahva the cave bear",
        "Jörthnur the earth serpent",
        "Solveig the witch",
        "Guardian of Darkness",
    }  # DO L54
    runes = {r["name"]: r for r in C.runes.values()}
    assert runes["Ningus Sorrow"]["ignored_by"] == "Attunement"  # DO L162
    assert runes["Ningus Sorrow"]["effect"] == {"op": "modify", "quantity": "damage", "n": -1}
    assert runes["Tryors Wrath"]["effect"]["per_level"] is True
    assert runes["Decayed Water"]["ignored_by"] == "Attunement"  # DO L186
    omens = {o["name"] for o in C.omens.values()}
    assert {"Attack at Dawn", "Demonic Weather", "Fire Devil", "A Call for Aid"} <= omens  # DO L131, L142
    assert Counter(o["level"] for o in C.omens.values() if o["mission"] != "boss") == dict.fromkeys(
        range(1, 5), 8
    )
    assert {g["guild"] for g in C.guilds.values()} == {
        "Architect",
        "Druid",
        "Ranger",
        "Rogue",
        "Shifter",
        "Warrior",
    }
    assert {g["tier"] for g in C.guilds.values()} == {"Apprentice", "Journeyman", "Master"}
    assert C.story["story_1_1"]["name"] == "Prologue"  # DO L104
    assert {g["name"] for g in C.guards.values()} >= {"Screeching Specter", "Draugr Champion"}  # DO L320
    assert "Angry Chicken" in {g["name"] for g in C.gear.values()}  # DO L257


def test_gear_is_sorted_by_level_and_type() -> None:
    """DO L94: weapons, armour, accessories, artifacts, each of a level 1–4."""
    assert {g["type"] for g in C.gear.values()} == {"weapon", "armor", "accessory", "artifact"}
    assert {g["level"] for g in C.gear.values()} == {1, 2, 3, 4}
    for level in range(1, 5):
        assert C.artifacts(level)
        assert all(C.gear[g]["level"] <= level for g in C.shop(level))


def test_the_loot_mix_matches_the_faces_the_rulebook_shows() -> None:
    """DO L80 lists the faces; the mix is authored (facts §22)."""
    mix = Counter(C.loot.values())
    assert mix["herb_blue"] == mix["herb_yellow"] == mix["herb_purple"] == 5
    assert mix["chicken"] == 1 and mix["creature"] == 2 and mix["trap"] == 2


def test_omen_effects_use_known_ops() -> None:
    ops = {e["op"] for o in C.omens.values() for e in o["success"] + o["failure"]}
    assert ops <= {"gain_gold", "lose_gold", "gain_mp", "lose_mp", "gain_hp", "lose_hp"}
    assert {"begin_chapter", "begin_day", "begin_round", "act"} <= set(RULES.steps)


def test_story_cards_name_omens_of_their_chapter() -> None:
    """DO L135: the omen of a day may be set by the story card."""
    named = [s for s in C.story.values() if s.get("omen")]
    assert named
    for card in named:
        assert C.omens[card["omen"]]["level"] == card["chapter"]
        assert card["day"] in range(1, 6)
