"""Heroes as data (DN 14.0): the trickiest powers of the Nymph, Priest, Ranger, Scholar,
Scout, Tamer, Wind Dancer and Wizard."""

from __future__ import annotations

import pytest

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.engine import Ctx
from app.games.darkest_night.hero_rates import party_for, play_party, play_party_state
from app.games.darkest_night.rules.powers import default_grace
from tests.games.darkest_night.test_heroes_c import (
    again,
    at,
    blights,
    choice,
    combat_detail,
    event_foe,
    fight_with,
    give,
    hero_table,
    offered,
    roll,
)

# -- the Nymph --------------------------------------------------------------------------------


def test_nymph_wild_places_helps_only_in_the_forest_and_the_swamp() -> None:
    t = hero_table("nymph")
    t.edit(at("nymph", "Forest"))
    t.begin_turn("nymph")
    event_foe(t, "nymph")
    assert combat_detail(t, "nymph.water_step", "elude").startswith("3 dice")
    assert combat_detail(t, "nymph.thornlash").startswith("2 dice")
    t2 = hero_table("nymph")
    t2.edit(at("nymph", "Village"))
    t2.begin_turn("nymph")
    event_foe(t2, "nymph")
    assert combat_detail(t2, "nymph.water_step", "elude").startswith("2 dice")


def test_nymph_water_step_gains_secrecy_on_two_successes() -> None:
    t = hero_table("nymph")
    t.edit(at("nymph", "Village", secrecy=4))
    t.begin_turn("nymph")
    event_foe(t, "nymph")
    fight_with(t, "nymph.water_step", [4, 5], "elude")
    assert t.hero("nymph").secrecy == 5
    event_foe(t, "nymph")
    fight_with(t, "nymph.water_step", [4, 1], "elude")
    assert t.hero("nymph").secrecy == 5


def test_nymph_sacred_grove_costs_secrecy_and_lets_heroes_pray() -> None:
    t = hero_table("nymph")
    t.edit(give("nymph", "nymph.sacred_grove"))
    t.edit(at("nymph", "Swamp", grace=2, secrecy=3))
    t.begin_turn("nymph")
    t.act("power_action", power="nymph.sacred_grove", target="loc:Swamp")
    assert t.hero("nymph").secrecy == 2
    t.act("end_action")
    again(t, "nymph")
    roll(t, "pray", [3, 4])
    assert t.hero("nymph").grace == 4


# -- the Priest -------------------------------------------------------------------------------


def test_priest_blessing_of_piety_heals_its_target_at_the_end_of_each_turn() -> None:
    t = hero_table("priest")
    t.edit(give("priest", "priest.blessing_of_piety"))
    t.edit(at("seer", "Monastery", grace=1))
    t.begin_turn("priest")
    t.act("power_action", power="priest.blessing_of_piety", target="hero:seer")
    t.act("end_action")
    assert t.hero("seer").grace == 1
    t.edit(at("seer", "Village"))
    t.begin_turn("seer")
    t.act("end_action")
    assert t.hero("seer").grace == 2
    assert t.hero("priest").grace == 6


def test_priest_blessing_of_faith_raises_default_grace_and_prayer() -> None:
    t = hero_table("priest", ["priest.censure", "priest.calm", "priest.blessing_of_faith"])
    t.begin_turn("priest")
    t.act("power_action", power="priest.blessing_of_faith", target="hero:mesmer")
    reader = Ctx.reader(t.state)
    assert default_grace(reader, t.hero("mesmer")) == 5
    t.act("end_action")
    t.edit(at("mesmer", "Monastery", grace=1))
    t.begin_turn("mesmer")
    events = t.act("pray", dice=[1, 1, 1])
    assert [e.data["dice"] for e in events if e.type == "DiceRolled"] == [3]


def test_priest_miracle_lowers_the_darkness_for_two_grace() -> None:
    t = hero_table("priest")
    t.edit(give("priest", "priest.miracle"))
    t.edit(lambda s: setattr(s, "darkness", 7))
    t.begin_turn("priest")
    t.act("power_action", power="priest.miracle")
    priest = t.hero("priest")
    assert t.state.darkness == 5 and priest.grace == 4 and priest.power("priest.miracle").exhausted


def test_priest_last_rites_spares_the_current_hero_a_wound() -> None:
    """Any time (DN 14.3.2): a hero at the Priest's location suffers no wound this turn."""
    t = hero_table("priest")
    t.edit(give("priest", "priest.last_rites"))
    t.edit(at("priest", "Village"))
    t.edit(at("seer", "Village", grace=0))
    t.begin_turn("seer")
    t.act("use_power", hero="priest", power="priest.last_rites")
    from tests.games.darkest_night.harness import run_steps

    run_steps(t, [{"op": "wound", "hero": "seer", "why": "a test"}])
    assert not t.hero("seer").dead


def test_priest_intercession_gives_grace_to_another_hero_here() -> None:
    t = hero_table("priest")
    t.edit(give("priest", "priest.intercession"))
    t.edit(at("crusader", "Monastery", grace=1))
    t.begin_turn("crusader")
    t.act("use_power", hero="priest", power="priest.intercession")
    assert {c.args.get("target") for c in t.choices() if c.type == "pick_hero"} == {
        "seer",
        "mesmer",
        "crusader",
    }
    t.act("pick_hero", target="crusader")
    assert t.hero("crusader").grace == 3 and t.hero("priest").grace == 5


# -- the Ranger -------------------------------------------------------------------------------


def test_ranger_living_off_the_land_outside_the_monastery_only() -> None:
    t = hero_table("ranger")
    t.edit(give("ranger", "ranger.living_off_the_land"))
    t.edit(at("ranger", "Forest", secrecy=2))
    t.begin_turn("ranger")
    t.act("end_action")
    assert t.hero("ranger").secrecy == 3
    t2 = hero_table("ranger")
    t2.edit(give("ranger", "ranger.living_off_the_land"))
    t2.edit(at("ranger", "Monastery", secrecy=2))
    t2.begin_turn("ranger")
    t2.act("end_action")
    assert t2.hero("ranger").secrecy == 3  # only the Monastery's rest (DN 19.2), not both


def test_ranger_pathfinder_moves_twice_and_gains_secrecy() -> None:
    t = hero_table("ranger", ["ranger.longbow", "ranger.woodcraft", "ranger.pathfinder"])
    t.edit(at("ranger", "Monastery", secrecy=4))
    t.begin_turn("ranger")
    t.act("power_action", power="ranger.pathfinder", to="Forest")
    t.act("move_to", to="Ruins")
    ranger = t.hero("ranger")
    assert (ranger.location, ranger.secrecy) == ("Ruins", 5)


def test_ranger_piercing_shot_only_against_blights_and_the_necromancer() -> None:
    t = hero_table("ranger")
    t.edit(give("ranger", "ranger.piercing_shot"))
    t.edit(at("ranger", "Village"))
    t.edit(blights("Village", "Zombies"))
    t.begin_turn("ranger")
    assert choice(t, "attack", blight="b90").detail.startswith(
        "fight: 3 dice vs might 5 (Piercing Shot 3 dice)"
    )
    t2 = hero_table("ranger")
    t2.edit(give("ranger", "ranger.piercing_shot"))
    t2.edit(at("ranger", "Village"))
    t2.begin_turn("ranger")
    event_foe(t2, "ranger")
    assert not offered(t2, "resolve_combat", tactic="ranger.piercing_shot")


# -- the Scholar ------------------------------------------------------------------------------


def test_scholar_counterspell_is_a_free_action_that_stops_the_monsters() -> None:
    """DN 8.0: a free action comes besides the one action; with blights ignored, no monster
    comes at the end of the turn (DN 11.2)."""
    t = hero_table("scholar")
    t.edit(give("scholar", "scholar.counterspell"))
    t.edit(at("scholar", "Village"))
    t.edit(blights("Village", "Skeletons"))
    t.begin_turn("scholar")
    t.act("power_action", power="scholar.counterspell")
    assert t.hero("scholar").power("scholar.counterspell").exhausted
    assert offered(t, "hide")  # the one action is still to come
    t.act("hide")
    t.act("end_action")
    assert t.decision.kind == "next_hero"


def test_scholar_thoroughness_searches_with_two_dice_and_find_weakness() -> None:
    t = hero_table(
        "scholar", ["scholar.ancient_sword", "scholar.research_materials", "scholar.find_weakness"]
    )
    t.edit(give("scholar", "scholar.thoroughness"))
    t.edit(at("scholar", "Village"))
    t.begin_turn("scholar")
    events = t.act("power_action", power="scholar.thoroughness", dice=[1, 1, 1])  # 2 + Research Materials
    (rolled,) = [e.data for e in events if e.type == "DiceRolled"]
    assert rolled["dice"] == 3 and rolled["successes"] == 0
    t2 = hero_table(
        "scholar", ["scholar.ancient_sword", "scholar.research_materials", "scholar.find_weakness"]
    )
    t2.edit(at("scholar", "Village"))
    t2.edit(blights("Village", "Zombies"))
    t2.begin_turn("scholar")
    # Ancient Sword's 3 dice against a blight (with Find Weakness) outdo its 2 and no tactic
    attack = choice(t2, "attack", blight="b90").detail
    assert (
        attack.startswith("fight: 4 dice vs might 5 (Ancient Sword 3 dice") and "with Ancient Sword" in attack
    )


# -- the Scout --------------------------------------------------------------------------------


def test_scout_evade_gains_secrecy_up_to_seven() -> None:
    t = hero_table("scout")
    t.edit(at("scout", "Village", secrecy=6))
    t.begin_turn("scout")
    event_foe(t, "scout")
    fight_with(t, "scout.evade", [4, 4], "elude")
    assert t.hero("scout").secrecy == 7


def test_scout_spyglass_takes_the_search_result_without_a_roll() -> None:
    t = hero_table("scout")
    t.edit(give("scout", "scout.spyglass"))
    t.edit(at("scout", "Village"))
    t.edit(lambda s: s.decks["map"].cards.insert(0, "map101"))  # the Village: a Psion Stone
    t.begin_turn("scout")
    t.act("power_action", power="scout.spyglass")
    assert [i.kind for i in t.hero("scout").items] == ["psion_stone"]
    assert not offered(t, "power_action", power="scout.spyglass")


# -- the Tamer --------------------------------------------------------------------------------


def test_tamer_companions_send_each_other_away() -> None:
    """Like the Druid's Forms (DN 14.1): calling one Companion ends the others."""
    t = hero_table("tamer", ["tamer.war_hound", "tamer.owl_companion", "tamer.bear_companion"])
    t.edit(at("tamer", "Village"))
    t.begin_turn("tamer")
    t.act("power_action", power="tamer.bear_companion")
    event_foe(t, "tamer")
    assert combat_detail(t, "tamer.war_hound").startswith("3 dice")
    fight_with(t, "tamer.war_hound", [6, 1, 1])
    again(t, "tamer")
    t.act("power_action", power="tamer.owl_companion")
    tamer = t.hero("tamer")
    assert tamer.power("tamer.owl_companion").active and not tamer.power("tamer.bear_companion").active
    t.act("end_action")
    again(t, "tamer")
    leave = choice(t, "power_action", power="tamer.owl_companion")
    assert "deactivate" in leave.label
    t.act("power_action", power="tamer.owl_companion")
    assert not t.hero("tamer").power("tamer.owl_companion").active


def test_tamer_raven_companion_and_feral_roar() -> None:
    t = hero_table("tamer")
    t.edit(give("tamer", "tamer.raven_companion", active=True))
    t.edit(give("tamer", "tamer.feral_roar"))
    t.edit(at("tamer", "Village", secrecy=3, grace=5))
    t.begin_turn("tamer")
    event_foe(t, "tamer")
    fight_with(t, "tamer.feral_roar", [4, 1, 1])
    assert t.hero("tamer").grace == 4
    again(t, "tamer")
    before = t.hero("tamer").secrecy
    t.act("end_action")
    assert t.hero("tamer").secrecy == before + 1


# -- the Wind Dancer --------------------------------------------------------------------------


def test_wind_dancer_whirlwind_fights_or_eludes_with_four_dice() -> None:
    t = hero_table(
        "wind_dancer", ["wind_dancer.gale_strike", "wind_dancer.zephyr_step", "wind_dancer.whirlwind"]
    )
    t.edit(at("wind_dancer", "Village"))
    t.begin_turn("wind_dancer")
    event_foe(t, "wind_dancer")
    assert combat_detail(t, "wind_dancer.whirlwind").startswith("4 dice")
    assert combat_detail(t, "wind_dancer.whirlwind", "elude").startswith("4 dice")
    fight_with(t, "wind_dancer.whirlwind", [1, 1, 1, 6], "elude")
    assert t.hero("wind_dancer").power("wind_dancer.whirlwind").exhausted


def test_wind_dancer_ride_the_wind_may_stop_after_one_step() -> None:
    t = hero_table(
        "wind_dancer", ["wind_dancer.gale_strike", "wind_dancer.zephyr_step", "wind_dancer.ride_the_wind"]
    )
    t.edit(at("wind_dancer", "Monastery", secrecy=6))
    t.begin_turn("wind_dancer")
    t.act("power_action", power="wind_dancer.ride_the_wind", to="Village")
    t.act("stay")
    dancer = t.hero("wind_dancer")
    assert (dancer.location, dancer.secrecy) == ("Village", 6)  # above 5 already: no gain (DN 4.1)


# -- the Wizard -------------------------------------------------------------------------------


def test_wizard_rune_of_nullification_spares_heroes_who_start_there() -> None:
    t = hero_table("wizard")
    t.edit(give("wizard", "wizard.rune_of_nullification"))
    t.edit(at("wizard", "Village", secrecy=4))
    t.edit(at("seer", "Village"))
    t.edit(blights("Village", "Skeletons"))
    t.begin_turn("wizard")
    t.act("power_action", power="wizard.rune_of_nullification", target="loc:Village")
    assert t.hero("wizard").secrecy == 2
    t.act("end_action")
    assert t.decision.kind == "combat"  # the Wizard did not start his turn under the Rune
    fight_with(t, None, [6])
    t.begin_turn("seer")
    assert t.hero("seer").flags.get("ignore_blights")
    t.act("end_action")
    assert t.decision.kind == "next_hero"  # no Skeleton for the Seer


def test_wizard_fiendfire_and_lightning_strike() -> None:
    t = hero_table("wizard")
    t.edit(give("wizard", "wizard.fiendfire"))
    t.edit(at("wizard", "Village", grace=3))
    t.begin_turn("wizard")
    event_foe(t, "wizard")
    assert combat_detail(t, "wizard.fiendfire").startswith("5 dice")
    fight_with(t, "wizard.fiendfire", [6, 1, 1, 1, 1])
    assert t.hero("wizard").grace == 2
    event_foe(t, "wizard")
    fight_with(t, "wizard.lightning_strike", [1, 1, 1])
    wizard = t.hero("wizard")
    assert wizard.power("wizard.lightning_strike").exhausted and wizard.power("wizard.fiendfire").exhausted


def test_wizard_teleport_goes_anywhere() -> None:
    t = hero_table("wizard", ["wizard.lightning_strike", "wizard.invisibility", "wizard.teleport"])
    t.begin_turn("wizard")
    t.act("power_action", power="wizard.teleport")
    t.act("move_to", to="Swamp")
    wizard = t.hero("wizard")
    assert wizard.location == "Swamp" and wizard.power("wizard.teleport").exhausted


# -- the bot plays them -----------------------------------------------------------------------

PARTIES = [
    ["acolyte", "alchemist", "channeler", "conjurer"],
    ["enchanter", "exorcist", "mercenary", "monk"],
    ["nymph", "priest", "ranger", "scholar"],
    ["scout", "tamer", "wind_dancer", "wizard"],
]


@pytest.mark.parametrize("party", PARTIES, ids=lambda p: "+".join(p))
def test_the_bot_plays_a_party_of_new_heroes(party: list[str]) -> None:
    """The heuristic bot seats these heroes (DN 3.2) and plays them through the rounds: every
    prompt of their powers gets a legal answer (the kernel refuses any other)."""
    state = play_party_state(party, seed=PARTIES.index(party), max_commands=400)
    assert {h.kind for h in state.heroes.values()} >= set(party)
    assert state.round >= 4 or DARKEST_NIGHT.outcome(state) is not None


def test_hero_rates_seats_the_hero_beside_the_bots_party() -> None:
    assert party_for("wizard") == ["wizard", "seer", "mesmer", "crusader"]
    assert party_for("seer") == ["seer", "mesmer", "crusader", "valkyrie"]
    assert play_party(party_for("wizard"), seed=0) in ("win", "loss")
