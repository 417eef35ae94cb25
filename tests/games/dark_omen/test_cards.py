"""Card effects beyond the first small vocabulary, each a fact the rulebook states: shield
tokens (DO L339), direct damage (DO L384), attack-roll modifiers of gear, runes and a
boss's card (DO L404, L493), creature combat effects (DO L395, L417), max-HP wounds
(DO L195), cards that act only by night or day (DO L122, L504), and every gear and guild
bonus the content names read by the engine."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.dark_omen.content import load
from app.games.dark_omen.engine import new_ctx
from app.games.dark_omen.rules import days, stats
from app.games.dark_omen.state import Creature, State
from app.kernel.types import RuleError
from tests.games.dark_omen.harness import Rigged, arranged, choices, enemy, of, play, table

C = load()

KNOWN_BONUSES = {
    "damage",
    "armor",
    "attack",
    "direct",
    "kill_mp",
    "max_hp",
    "mp_per_round",
    "obstacle_mp",
    "range",
    "craft_bonus",
    "haggle",
}
CREATURE_OPS = {"dice", "attack", "damage", "direct", "armor", "wound"}


def equip(s: State, seat: int, gid: str, slot: str) -> None:
    h = s.heroes[seat]
    h.gear.append(gid)
    h.equipped[slot] = gid
    if C.gear[gid].get("charges") is not None:
        h.charges[gid] = int(C.gear[gid]["charges"])


def foe(s: State, card: str, **kw: Any) -> Creature:
    e = enemy(s, level=C.creatures[card]["level"], **kw)
    e.card = card
    return e


# -- the content names only what the engine reads ------------------------------------------------


def test_every_bonus_and_creature_effect_in_the_content_is_one_the_engine_reads() -> None:
    cards = [*C.gear.values(), *C.holographic.values(), *C.guilds.values()]
    for card in cards:
        assert set(card.get("bonus", {})) | set(card.get("night_bonus", {})) <= KNOWN_BONUSES, card["id"]
    for card in [*C.creatures.values(), *C.bosses.values()]:
        for effect in card.get("effects", []):
            assert effect["op"] in CREATURE_OPS and effect.get("when") in (None, "night", "day"), card["id"]
    used = {k for card in cards for k in (*card.get("bonus", {}), *card.get("night_bonus", {}))}
    assert used | {"direct"} == KNOWN_BONUSES  # direct sits on the weapon card itself
    assert {e["op"] for card in C.creatures.values() for e in card.get("effects", [])} == CREATURE_OPS
    assert any(card.get("direct") for card in C.gear.values())
    assert any(r["effect"].get("quantity") == "attack" for r in C.runes.values())


def test_shields_with_tokens_are_the_rulebooks() -> None:
    """DO L339: "some shields have multiple tokens on them"."""
    shields = [g for g in C.gear.values() if g["slot"] == "shield" and g.get("charges")]
    assert {g["level"] for g in shields} == {1, 2, 3, 4}
    assert all(g["ref"] == "DO L339" for g in shields)


# -- shield tokens -------------------------------------------------------------------------------


def test_a_raised_shield_token_takes_0_damage_from_one_attack_and_the_smith_restores_it() -> None:
    """DO L339: a token is spent to take 0 damage from an attack; repair restores it."""
    s = arranged(table(), gold=5)
    equip(s, 0, "g1_a8", "shield")
    enemy(s, dr="3")
    s, _ = play(s, 0, "attack", [4, 5], creature="e1")
    assert ("raise_shield", {}) in choices(s, 0)
    s, _ = play(s, 0, "raise_shield")
    with pytest.raises(RuleError):
        play(s, 0, "raise_shield")
    s, events = play(s, 0, "finalize", [3])
    (battle,) = of(events, "BattleEnded")
    assert battle["strikes"] == [{"by": "enemy", "seat": 0, "roll": 3, "damage": 0, "shielded": True}]
    assert s.heroes[0].hp == 15 and s.heroes[0].charges["g1_a8"] == 0
    s, _ = play(s, 0, "attack", [4, 5], creature="e1")
    assert "raise_shield" not in {t for t, _ in choices(s, 0)}
    s, _ = play(s, 0, "finalize", [3])
    assert s.heroes[0].hp == 13  # 3 less the shield's own armour
    s.heroes[0].at = "Hoglichten:market"
    s, _ = play(s, 0, "repair", gear="g1_a8")
    assert s.heroes[0].charges["g1_a8"] == 1 and s.heroes[0].gold == 4


# -- direct damage, attack modifiers ---------------------------------------------------------------


def test_direct_damage_on_a_weapon_ignores_the_enemys_armour() -> None:
    """DO L384: Oak Seax, d4 and 1 direct: a 2 against armour 5 still deals 1."""
    s = arranged(table())
    equip(s, 0, "g1_w3", "primary")
    enemy(s, armor=5, hp=10)
    s, _ = play(s, 0, "attack", [5, 2], creature="e1")
    s, events = play(s, 0, "finalize", [2])
    assert of(events, "BattleEnded")[0]["strikes"] == [{"by": "hero", "seat": 0, "roll": 2, "damage": 1}]


def test_a_creatures_direct_damage_passes_armour_and_a_wound_lowers_max_hp() -> None:
    """DO L384 (direct damage ignores armour), DO L195 (max HP reduced by creature damage)."""
    s = arranged(table(chapter=2))
    foe(s, "hollow_hag", dr="3")
    s, events = play(s, 0, "attack", [1, 1, 5, 2], creature="e1")
    s, events = play(s, 0, "finalize")
    assert [x["damage"] for x in of(events, "BattleEnded")[0]["strikes"]] == [4, 4]
    s = arranged(table(chapter=2))
    foe(s, "grave_wight", dr="2")
    s, _ = play(s, 0, "attack", [1, 1, 5, 2], creature="e1")
    s, _ = play(s, 0, "finalize")
    assert s.heroes[0].max_hp == 28 and s.heroes[0].hp == 11


def test_attack_modifiers_of_gear_runes_and_a_boss_card_add_to_each_die() -> None:
    """DO L404 (gear and rune effects that modify attack rolls), DO L493 (a boss's AR "+1")."""
    s = arranged(table(chapter=2))
    equip(s, 0, "g2_r4", "artifact")  # Torc of Loki: +1
    s.heroes[0].runes = ["fortune_raidho"]  # +1
    enemy(s)
    s, events = play(s, 0, "attack", [3, 6, 1, 1], creature="e1")
    assert of(events, "AttackRolled")[0]["dice"] == {"0": [5, 8]}
    assert ("boost", {"index": 1}) not in choices(s, 0)  # a boost never lifts past the face
    s = arranged(table(chapter=3))
    boss = enemy(s, level=3, hp=30)
    boss.kind, boss.card, boss.dice = "boss", "solveig", 3
    s, events = play(s, 0, "attack", [1, 1, 6, 5, 1], creature="e1")
    assert of(events, "AttackRolled")[0]["enemy"] == [7, 6, 2]


# -- night and day -----------------------------------------------------------------------------


def strike_damage(s: State, rolls: list[int], dr: list[int], by: str) -> list[int]:
    s, _ = play(s, 0, "attack", rolls, creature="e1")
    s, events = play(s, 0, "finalize", dr)
    return [x["damage"] for x in of(events, "BattleEnded")[0]["strikes"] if x["by"] == by]


def test_a_night_wisp_strikes_harder_by_night_only() -> None:
    """DO L122: the time of day matters to certain cards; rounds 3-4 are night (facts §3)."""
    s = arranged(table())
    foe(s, "night_wisp", dr="3")
    assert strike_damage(s, [1, 5], [], "enemy") == [3]
    s.round = 3
    assert strike_damage(s, [1, 5], [], "enemy") == [4]


def test_a_sun_hardened_wyrm_and_a_night_mare() -> None:
    """Iron Wyrm: +1 armour by day; Black Mara: one more attack die at night; the
    Underworld is always night (DO L504)."""
    s = arranged(table(chapter=3))
    foe(s, "iron_wyrm", armor=0, hp=30)
    bonus = stats.damage_bonus(s, C, 0)  # Visko's hero side
    # unarmed d4-1 rolls 2, less 1 armour by day
    assert strike_damage(s, [6, 6, 1, 1, 1], [3, 3], "hero") == [1 + bonus] * 2
    s.round = 3
    assert strike_damage(s, [6, 6, 1, 1, 1], [3, 3], "hero") == [2 + bonus] * 2
    s = arranged(table(chapter=3))
    foe(s, "black_mara", hp=30)
    s.round = 3
    s, events = play(s, 0, "attack", [6, 6, 1, 1, 1, 1], creature="e1")
    assert len(of(events, "AttackRolled")[0]["enemy"]) == 4


def test_gear_with_a_night_bonus() -> None:
    """Rusty Amulet: +1 damage by night (DO L122)."""
    s = arranged(table())
    equip(s, 0, "g1_c0", "accessory1")
    assert stats.damage_bonus(s, C, 0) == 0
    s.round = 4
    assert stats.damage_bonus(s, C, 0) == 1


# -- bonuses that were only named ---------------------------------------------------------------


def test_max_hp_gear_gives_back_a_wounds_loss_while_worn() -> None:
    """DO L195: max HP lowered by wounds; a ``max_hp`` item gives that much of it back."""
    s = arranged(table(), hp=20)
    s.heroes[0].max_hp = 22
    oak_belt = next(g for g, card in C.gear.items() if card.get("bonus") == {"max_hp": 2})
    equip(s, 0, oak_belt, "accessory1")
    assert stats.hp_cap(s, C, 0) == 24
    s.heroes[0].at = "Hoglichten:tavern"
    s.heroes[0].gold = 1
    s, _ = play(s, 0, "rest")
    s, _ = play(s, 0, "rest")
    assert s.heroes[0].hp == 24


def test_morale_gear_restores_mp_at_each_round_start() -> None:
    s = arranged(table(), mp=10)
    charm = next(g for g, card in C.gear.items() if card.get("bonus") == {"mp_per_round": 1})
    equip(s, 0, charm, "accessory1")
    s, _ = play(s, 0, "end_round")
    assert s.round == 2 and s.heroes[0].mp == 11


def test_a_druids_potions_restore_more_and_a_rogue_haggles_better() -> None:
    """Guild traits (DO L189-192): the Druid's brewing, the Rogue's haggling."""
    from tests.games.dark_omen.test_rules import holding

    druid = next(g for g in C.guilds.values() if g["bonus"].get("craft_bonus") == 1)
    s = arranged(table(chapter=2), mp=10)
    s.heroes[0].guild = druid["guild"]
    holding(s, 0, "herb_blue", "mushroom")
    s, _ = play(s, 0, "craft", recipe="fast_mp")
    assert s.heroes[0].mp == 15
    rogue = next(g for g in C.guilds.values() if "haggle" in g["bonus"])
    s = arranged(table(chapter=rogue["chapter"]), at="Hoglichten:market", mp=10)  # type: ignore[arg-type]
    s.heroes[0].guild = rogue["guild"]
    knack = rogue["bonus"]["haggle"]
    s, events = play(s, 0, "haggle", [4, 4], style="light")
    assert of(events, "DiscountSet")[0]["rolls"] == [[4 + knack, 4]] and s.heroes[0].discount > 0


# -- boss phases after each attack ---------------------------------------------------------------


def test_solveigs_hex_follows_each_attack_and_a_ward_counters_it() -> None:
    """DO L491: "Phase X is triggered after each attack"; DO L482: the card states how an
    ability is dodged or countered (Solveig's hex: a ward rune)."""
    s = arranged(table(seats=2, chapter=3))
    boss = enemy(s, level=3, hp=40, dr="1")
    boss.kind, boss.card, boss.dice, boss.name = "boss", "solveig", 3, "Solveig the witch"
    s.heroes[1].runes = [next(rid for rid, r in C.runes.items() if r["effect"]["op"] == "ward")]
    s, _ = play(s, 0, "attack", [6, 6, 1, 1, 1], creature="e1")
    s, events = play(s, 0, "finalize", [2, 2, 5, 6])
    hexed = [e for e in of(events, "HeroStats") if "hex" in e["why"]]
    assert [e["seat"] for e in hexed] == [0] and hexed[0]["hp"] == s.heroes[0].hp
    assert of(events, "RuneDiscarded")[0]["seat"] == 1 and s.heroes[1].hp == 15


# -- holographic rewards -------------------------------------------------------------------------


def test_every_holographic_card_is_a_boss_or_story_reward() -> None:
    """Facts §22 (decision): the 7 holographic cards are unique boss and story rewards."""
    given = [b["reward"] for b in C.bosses.values()] + [
        s["reward"] for s in C.story.values() if s.get("reward")
    ]
    assert sorted(given) == sorted(C.holographic)


def test_the_bosss_finisher_takes_its_trophy() -> None:
    s = arranged(table(seats=2))
    boss = enemy(s, hp=1, name="Vahva the cave bear")
    boss.kind, boss.card, boss.dice, boss.omen = "boss", "vahva", 1, True
    s, _ = play(s, 0, "attack", [6, 1], creature="e1")
    s, events = play(s, 0, "finalize", [4])
    assert "holo_0" in s.heroes[0].gear and s.heroes[0].equipped.get("artifact") == "holo_0"
    assert of(events, "GearGained")[0]["why"] == "the trophy of Vahva the cave bear"


def test_a_story_card_hands_its_holographic_reward_to_the_hero_with_least_gear() -> None:
    s = arranged(table(seats=2, mode="campaign"))
    s.chapter = 3
    equip(s, 0, "g1_w0", "primary")
    ctx = new_ctx(s.clone(), Rigged([]))
    days.begin_day(ctx, {"day": 1})
    assert "story_3_1" in ctx.s.story_read
    assert "holo_4" in ctx.s.heroes[1].gear and "holo_4" not in ctx.s.heroes[0].gear
