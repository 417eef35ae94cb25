"""Attack the Darkness content: counts, sources, known ops, the rulebook's stated facts and
the legality of every sample deck (facts file §1, §16-§19)."""

from __future__ import annotations

from collections import Counter

import pytest

from app.games.attack_the_darkness.content import CONTENT, EFFECT_OPS, load
from app.games.attack_the_darkness.decks import sample_deck, validate_deck
from app.games.attack_the_darkness.engine import RULES
from app.kernel.flow.content import bad_sources, entries, missing_ops

C = load()
BANNED = {
    "bind", "blinding", "condemning", "coup_de_grace", "disembowel", "guileful", "justice", "necromancy",
    "nerve_pinch", "pact", "possession", "quell", "spirit_guide", "spurn", "unleashed", "vorpal_strike",
}  # fmt: skip


def test_every_entry_names_its_source_and_only_known_ops() -> None:
    """Every card, token and map says where its facts come from; the rules reference
    (``rules_reference.toml``, issue 28) is our own words throughout, not content."""
    assert [label for label in bad_sources(CONTENT) if not label.startswith("rules_reference.toml:")] == []
    assert missing_ops(RULES, [e.data for e in entries(CONTENT)], also=EFFECT_OPS) == set()


def test_counts() -> None:
    """80 dungeon cards (AtD L44), 36 advancements (AtD L45), 7 classes (AtD L59-66), the
    named player cards (facts file §21: 154 names), 5 sample dungeons of 18 encounters."""
    assert sum(C.dungeon_copies.values()) == 80
    assert sum(C.advancement_copies.values()) == 36
    assert len(C.classes) == 7
    assert len(C.actions) + len(C.resources) == 154
    assert len(C.dungeons) == 5
    assert sum(len(d.encounters) for d in C.dungeons.values()) == 18
    kinds = Counter(C.dungeon_kind(card) for card, n in C.dungeon_copies.items() for _ in range(n))
    assert kinds == {"monster": 44, "equipment": 22, "mystery": 14}


def test_stated_facts_match_the_rulebook() -> None:
    hack = C.actions["hack"]
    assert hack.cost.label() == "1 red" and hack.condition == {"discard": 1}  # AtD L187
    assert hack.parts[0].type == "attack" and hack.parts[0].distance == "melee"
    assert hack.parts[0].effects[0] == {"op": "damage", "n": 4, "vs_minion": 6}
    feint = C.actions["feint"]
    assert feint.cost.total == 1 and set(feint.types) == {"defense", "maneuver"} and feint.on_own_turn
    assert [e["n"] for p in feint.parts for e in p.effects] == [2, 2]  # 2 Save, 2 Move (AtD L187)
    assert set(C.actions["kata"].types) == {"attack", "maneuver"}  # AtD L155
    assert set(C.actions["deadly_turnabout"].types) == {"attack", "defense"}
    fireball = C.actions["fireball"].parts[0]
    assert (fireball.type, fireball.distance, fireball.targets) == ("attack", "ranged", "area")  # AtD L162
    assert C.actions["siphoning"].cost.is_x  # AtD L178
    assert {c for _, c in C.actions["precise_shot"].cost.parts} == {"B", "Y"}  # Mana and Focus, AtD L144
    assert C.resources["hearty"].resources == ((2, "S"),) and C.resources["hearty"].modifier("split")
    assert C.resources["reaching"].resources == ((1, "S"),) and C.resources["reaching"].modifier("reach") == 1
    assert C.resources["envenomed"].attack_only and C.resources["envenomed"].resources == ((1, "FM"),)
    assert C.resources["prepared"].classes == "PCTS" and C.resources["prepared"].modifier("double_discards")
    assert C.resources["disciplined"].resources == ((1, "FS"),)
    assert C.classes["champion"].speed == 2 and C.classes["champion"].resources == "S"  # AtD L186-188
    assert C.classes["templar"].cores == ("holy", "pious")  # AtD L320
    kobolds = C.monsters["kobold_crossbows"]  # AtD L220
    assert (kobolds.number, kobolds.hp, kobolds.danger) == (2, 4, 5)
    assert kobolds.attacks == {"count": 1, "distance": "ranged", "damage": 2}
    assert kobolds.maneuver == {"count": 1, "move": 4, "mode": "walk"}
    assert kobolds.defenses == {"count": 1, "distances": ["melee", "ranged"], "save": 2}
    knight = C.monsters["aura_knight"]
    assert (knight.number, knight.hp, knight.danger, knight.defenses["count"], knight.defenses["save"]) == (
        1, 5, 3, "INF", 1,
    )  # fmt: skip
    assert (C.monsters["zombies"].number, C.monsters["zombies"].danger) == (6, 3)  # AtD L260
    assert C.monsters["demon"].danger + C.monsters["chesherak"].danger + C.monsters["minotaur"].danger == 18
    assert sum(1 for m in C.monsters.values() if m.boss_set == "salt_dragon") == 3  # AtD L222
    assert sum(1 for m in C.monsters.values() if m.boss_set == "high_order_master") == 2  # AtD L228
    assert C.dungeon_copies["vampire"] == 2  # AtD L444
    assert C.equipment["battle_axe"].slots == 1 and C.equipment["battle_axe"].uses == "round"  # AtD L208
    assert C.advancements["deep_reserves"].bonus("hand_rc") == 1 and C.advancements["deep_reserves"].stacks
    banned = {c.id for c in C.actions.values() if c.arena_banned} | {
        c.id for c in C.resources.values() if c.arena_banned
    }
    assert banned == BANNED  # AtD L297
    tavern = C.dungeons["tavern_cellar"]
    assert set(tavern.removed) == {"grimalkin", "high_order_master", "salt_dragon", "trap_door", "wendigo"}
    assert [len(tiles) for _, tiles in tavern.encounters] == [7, 8]
    assert C.dungeons["cave"].set_aside == ("salt_dragon_1", "salt_dragon_2", "salt_dragon_3")


@pytest.mark.parametrize("cls", sorted(C.classes))
def test_every_sample_deck_is_legal(cls: str) -> None:
    """The seven completed sample decks (AtD L328-436) and their Arena versions (facts §17)."""
    res, act = sample_deck(C, cls)
    validate_deck(C, cls, res, act)
    res, act = sample_deck(C, cls, arena=True)
    validate_deck(C, cls, res, act, arena=True)
