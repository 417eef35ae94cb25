"""Encounters, advancement and campaigns (AtD L238, L249-250, L253, L283-286): tile counts
grow by one per encounter and carry across dungeons, advancements add their danger and
widen later draws, each dungeon of a campaign is a chapter."""

from __future__ import annotations

from app.games.attack_the_darkness import ATTACK_THE_DARKNESS as GAME
from app.games.attack_the_darkness.rules.populating import danger_level
from tests.games.attack_the_darkness.harness import Table, types


def test_tiles_grow_per_encounter_and_danger_counts_advancements() -> None:
    t = Table(3, classes=["champion", "templar", "samurai"], dungeon="random", campaign=2)
    assert t.state.tiles_next == 7 and len(t.state.tiles) == 1  # the stairs, then 6 to place
    t.craft([(0, 0, "v")], {0: (0, 0), 1: (1, 0), 2: (2, 0)})
    t.run({"op": "encounter_over", "result": "win", "team": None})
    assert t.state.tiles_next == 8 and t.state.decision.kind == "clear_room"
    t.state.tiles_next = 9
    t.state.tiles = [
        {"x": 3 * k, "y": 0, "o": "v", "stairs": k == 0, "card": None, "flipped": True} for k in range(9)
    ]
    toughness = [i for i, c in t.state.cards.items() if c == "toughness"]
    for seat in range(3):
        t.state.chars[seat].advancements = [toughness[seat]]
    assert danger_level(t.state) == 3 * 9 + 3  # players × tiles + advancement danger (AtD L253)


def test_advancement_draws_three_plus_one_per_held() -> None:
    t = Table(2, classes=["champion", "templar"], dungeon="random")
    events = t.run({"op": "advance_seat", "seat": 0})
    drawn = next(e for e in events if e.type == "AdvancementsDrawn")
    assert drawn.data["n"] == 3 and t.state.decision.kind == "advance"
    choice = t.choices(0)[0]
    events = t.send(0, choice[0], **choice[1])
    assert "AdvancementKept" in types(events) and len(t.state.chars[0].advancements) == 1
    assert len(t.state.adv_deck) == 35  # the others return, reshuffled (AtD L284)
    events = t.run({"op": "advance_seat", "seat": 0})
    assert next(e for e in events if e.type == "AdvancementsDrawn").data["n"] == 4  # AtD L285


def test_advancement_only_after_every_second_success() -> None:
    t = Table(1, classes=["champion"], dungeon="random")
    t.craft([(0, 0, "v")], {0: (0, 0)})
    t.state.in_encounter, t.state.successes = False, 2  # the room of the second success cleared
    events = t.run({"op": "after_clearing"})
    assert "AdvancementsDrawn" in types(events)
    t2 = Table(1, classes=["champion"], dungeon="random")
    t2.craft([(0, 0, "v")], {0: (0, 0)})
    t2.state.in_encounter, t2.state.successes = False, 3
    events = t2.run({"op": "after_clearing"})
    assert "AdvancementsDrawn" not in types(events)


def test_a_campaign_is_chapters_and_heals_between_dungeons() -> None:
    t = Table(1, classes=["champion"], dungeon="tavern_cellar", campaign=2)
    chapters = GAME.chapters(t.state)
    # The platform writes "(1 of 2)" after a chapter's title (kernel.campaign), so the title has none.
    assert [c.title for c in chapters] == ["The Tavern Cellar", "The Tavern Cellar"]
    assert chapters[0].current and chapters[1].outcome is None
    t.state.chars[0].hp = 3
    t.state.encounter = 1
    events = t.run({"op": "next_encounter"})
    assert "DungeonEnded" in types(events) and t.state.decision.kind == "ready"
    assert GAME.chapters(t.state)[0].outcome is not None
    t.send(0, "ready", seat=0)
    assert t.state.chars[0].hp == t.state.chars[0].max_hp  # full health between dungeons (AtD L238)
    assert t.state.dungeon_index == 1 and GAME.chapters(t.state)[1].current
