"""The content is whole: every op the data names exists, every deck has its rulebook size,
every subdeck its count and blights (DN 2.0, 3.3)."""

from __future__ import annotations

import pytest

from app.games.darkest_night.content import CONTENT, LOCATIONS, load
from app.games.darkest_night.engine import RULES
from app.games.darkest_night.rules.powers import ROLL_GROUPS
from app.kernel.flow.content import bad_sources, walk_ops

SUBDECKS = {  # DN 3.3: card count and blight types (with might)
    "simplicity": (
        16,
        "Crows 5, Enigma 4, Evil Presence 4, Nexus 3, Omen 6, Shades 5, Shroud 5, Skeletons 5, "
        "Taint 5, Unholy Aura 4, Webs 5, Zombies 5",
    ),
    "hunted": (
        20,
        "Confusion 4, Corruption 5, Crows 5, Dark Fog 5, Desecration 4, Flux Cage 6, Gate 5, Omen 6, "
        "Revenants 5, Specters 4, Spies 5, Stigma 5, Terror 4, Void 7, Webs 5, Wraiths 4",
    ),
    "overrun": (
        20,
        "Crows 5, Curse 5, Decay 5, Lich 5, Oblivion 4, Revenants 5, Shades 5, Shroud 5, Skeletons 5, "
        "Specters 4, Stigma 5, Taint 5, Terror 4, Vampire 6, Wraiths 4, Zombies 5",
    ),
    "entropy": (
        20,
        "Confusion 4, Corruption 5, Curse 5, Dark Fog 5, Decay 5, Desecration 4, Enigma 4, Gate 5, "
        "Nexus 3, Oblivion 4, Omen 6, Shades 5, Shroud 5, Skeletons 5, Spies 5, Stigma 5, Taint 5, "
        "Vampire 6, Void 7, Zombies 5",
    ),
    "spiritual_warfare": (
        20,
        "Confusion, Corruption, Crows, Dark Fog, Decay, Desecration, Enigma, Evil Presence, "
        "Flux Cage, Gate, Nexus, Oblivion, Omen, Shroud, Spies, Stigma, Taint, Unholy Aura, "
        "Void, Webs",
    ),
    "classic": (
        20,
        "Confusion, Corruption, Curse, Dark Fog, Desecration, Evil Presence, Lich, Shades, Shroud, "
        "Skeletons, Spies, Taint, Unholy Aura, Vampire, Zombies",
    ),
}


def test_board() -> None:
    c = load()
    assert list(c.locations) == list(LOCATIONS)
    assert c.locations["Castle"].search == 2  # the Extended Example
    for loc in c.locations.values():
        for other in loc.adjacent:
            assert loc.name in c.locations[other].adjacent, (loc.name, other)
        assert all(x in c.locations for x in loc.necromancer)
        assert "Monastery" not in loc.necromancer


def test_blights_and_tokens() -> None:
    c = load()
    assert len(c.blights) == 30
    assert sum(b.tokens for b in c.blights.values()) == 81  # DN 2.0


@pytest.mark.parametrize("subdeck", sorted(SUBDECKS))
def test_subdecks_match_the_rulebook(subdeck: str) -> None:
    c = load()
    count, listed = SUBDECKS[subdeck]
    cards = [m for m in c.map_cards.values() if subdeck in m.subdecks]
    assert len(cards) == count
    blights = {b for m in cards for loc, b in m.blights.items() if loc != "Monastery"}
    names = {item.rsplit(" ", 1)[0] if item[-1].isdigit() else item for item in listed.split(", ")}
    assert blights == names
    for item in listed.split(", "):
        if item[-1].isdigit():
            name, might = item.rsplit(" ", 1)
            assert c.blights[name].might == int(might), name


def test_map_deck() -> None:
    c = load()
    assert len(c.map_cards) == 50
    for card in c.map_cards.values():
        assert set(card.blights) == set(LOCATIONS)
        assert set(card.search) == set(LOCATIONS) - {"Monastery"}
        assert all(b in c.blights for b in card.blights.values())


MODIFIER_OPS = {"dice", "boost", "default_grace", "default_secrecy", "can_pray", "on"}


def test_every_named_effect_exists() -> None:
    c = load()
    missing = set()
    for card in [*c.events.values(), *c.quests.values(), *c.mysteries.values(), *c.darkness.values()]:
        missing |= {op for op in walk_ops([card.effects, card.data]) if op not in RULES.steps}
    for blight in c.blights.values():
        missing |= {op for op in walk_ops([blight.defense, blight.monster_fail]) if op not in RULES.steps}
    for power in c.powers().values():
        for mod in [*power.bonus, *power.active, *power.inactive]:
            assert mod["op"] in MODIFIER_OPS, (power.id, mod)
            if mod["op"] in ("dice", "boost"):
                assert mod.get("roll", "any") in {r for g in ROLL_GROUPS.values() for r in g}, (power.id, mod)
            missing |= {op for op in walk_ops(mod.get("effects", [])) if op not in RULES.steps}
        named = walk_ops([power.action, power.any_time, power.tactic])
        missing |= {op for op in named if op not in RULES.steps}
    assert not missing, f"ops named in the content but not implemented: {sorted(missing)}"


def test_every_entry_says_where_it_comes_from() -> None:
    """DESIGN.md, "Content": every entry is ``source = "rulebook"`` or ``"authored"``."""
    assert bad_sources(CONTENT) == []


def test_heroes_have_full_power_decks() -> None:
    c = load()
    assert len(c.heroes) == 29  # DN 2.0: 29 hero sheets, 377 power cards (13 each)
    for hero in c.heroes.values():
        assert len(hero.powers) == 13, hero.id
        assert sum(p.starting for p in hero.powers) == 5, hero.id
        assert len({p.id for p in hero.powers}) == 13
        assert all(p.id.startswith(hero.id + ".") for p in hero.powers)


def test_items() -> None:
    """DN 2.0, 15.0: 12 kinds of item on 42 item tokens plus 4 Holy Relic tokens; and the
    key, an item without a token, playing without mysteries (DN 20.5)."""
    items = {kind: i for kind, i in load().items.items() if kind != "key"}
    assert len(items) == 12
    assert sum(i.tokens for i in items.values()) == 42 + 4
    assert load().items["key"].tokens == 0
    assert {i.name for i in items.values()} == {
        "Bottled Magic",
        "Charm",
        "Soothing Lyre",
        "Vanishing Dust",
        "Tome of Retraining",
        "Holy Relic",
        "Cursed Ashes",
        "Skull Token",
        "Waystone",
        "Psion Stone",
        "Treasure Chest",
        "Artifact",
    }


def test_decks_have_their_rulebook_sizes() -> None:
    """DN 2.0: 75 events, 45 quests, 45 mysteries, 44 darkness cards, 57 artifacts."""
    c = load()
    assert sum(e.copies for e in c.events.values()) == 75
    assert (len(c.quests), len(c.mysteries), len(c.darkness), len(c.artifacts)) == (45, 45, 44, 57)
