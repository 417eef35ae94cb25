"""What things are worth to the hero bot: powers, search results, clues, blights."""

from __future__ import annotations

from app.games.darkest_night.content import load
from app.games.darkest_night.state import State

POWER_VALUE: dict[str, float] = {
    # starting powers (DN 3.2): search and clue powers, fight tactics, then elude tactics
    "seer.dowse": 3,
    "seer.far_sight": 3,
    "seer.destiny": 2.5,
    "seer.prophecy_of_fortune": 2,
    "seer.premonition": 1.5,
    "mesmer.pilfer_secrets": 3,
    "mesmer.consume_dreams": 3,
    "mesmer.glamour": 2,
    "mesmer.puppet_strings": 1.5,
    "mesmer.trance": 1,
    "crusader.wrath": 3,
    "crusader.holy_strike": 2.5,
    "crusader.consecration": 2.5,
    "crusader.retreat": 1.5,
    "crusader.faith": 1,
    "valkyrie.battle_cry": 3,
    "valkyrie.skewer": 3,
    "valkyrie.winged_leap": 2,
    "valkyrie.ride_of_the_slain": 1.8,
    "valkyrie.shield_maiden": 1,
    "knight.oath_of_purging": 3,
    "knight.charge": 3,
    "knight.sprint": 2,
    "knight.oath_of_valor": 1.8,
    "knight.hard_ride": 1.5,
    "rogue.eavesdrop": 3,
    "rogue.ambush": 2.5,
    "rogue.vanish": 2,
    "rogue.lay_low": 1.5,
    "rogue.contacts": 0.5,
    "tinker.magnifying_goggles": 3,
    "tinker.clockwork_crossbow": 2.5,
    "tinker.spring_boots": 2,
    "tinker.tinkers_kit": 1.5,
    "tinker.spare_parts": 0.5,
    "shaman.spirit_strike": 2.5,
    "shaman.ghost_step": 2,
    "shaman.balance": 2,
    "shaman.healing_totem": 1.5,
    "shaman.equilibrium": 1,
    "wayfarer.quarterstaff": 2.5,
    "wayfarer.byways": 2,
    "wayfarer.make_camp": 2,
    "wayfarer.long_road": 2,
    "wayfarer.well_travelled": 1.5,
    "druid.animal_companion": 2.5,
    "druid.camouflage": 2,
    "druid.woodland_stride": 2,
    "druid.sprite_form": 1.5,
    "druid.visions": 0.5,
    "prince.strategy": 2.5,
    "prince.inspire": 2.5,
    "prince.loyalty": 2,
    "prince.royal_decree": 1.5,
    "prince.resistance": 1.5,
    "bard.flourish": 2.5,
    "bard.tumble": 2,
    "bard.ballad_of_valor": 2,
    "bard.rousing_tune": 1,
    "bard.song_of_shadows": 1,
    "paragon.steady_hand": 2.5,
    "paragon.cover_the_retreat": 2,
    "paragon.words_of_comfort": 2,
    "paragon.exemplar": 2,
    "paragon.rousing_speech": 1,
    # powers drawn later (supply cache, epiphany, DN 8.0): clues and fighting first
    "bard.bardic_lore": 3,
    "seer.visions_of_the_past": 3,
    "wayfarer.rumours_on_the_road": 2.5,
    "mesmer.memory_theft": 2.5,
    "shaman.spirit_sight": 2.5,
    "wayfarer.trail_sense": 2.5,
    "crusader.crusade": 3,
    "prince.rebellion": 3,
    "crusader.zeal": 2.5,
    "knight.consecrated_blade": 2.5,
    "valkyrie.chooser_of_the_slain": 2.5,
    "prince.heirs_resolve": 2.5,
    "crusader.smite": 2.5,
    "valkyrie.spear_of_dawn": 2.5,
    "knight.reckless_abandon": 2.5,
    "rogue.sap": 2,
    "druid.vines": 2,
    "druid.wolf_form": 2,
}
"""How much the bot wants a power (DN 14.0); unknown ones count 1.5."""

RESULT_VALUE = {
    "revelation": 30.0,
    "mystery": 16.0,
    "artifact": 5.0,
    "epiphany": 5.0,
    "supply_cache": 4.0,
    "forgotten_shrine": 4.0,
    "treasure_chest": 2.0,
}
"""What a search result is worth to the bot (DN 8.0, 17.2); a clue is worth 10."""

CLUE = 10.0
RELIC_SITES = ("Mountains", "Forest", "Ruins", "Swamp")


def power_value(power_id: str) -> float:
    return POWER_VALUE.get(power_id, 1.5)


def blight_type_harm(blight_type: str) -> float:
    spec = load().blights.get(blight_type)
    if spec is None:
        return 0.0
    return spec.might + (4 if spec.color == "red" else 2 if spec.color == "yellow" else 0)


def blight_harm(state: State, blight_id: str) -> float:
    """How much a blight hurts (DN 11.2): a Shroud or Nexus guards others, red ones act
    everywhere, monsters wound."""
    found = state.find_blight(blight_id)
    if found is None:
        return 0.0
    spec = load().blights[found[1].type]
    guard = 5 if spec.effect in ("protects_here", "protects_elsewhere") else 0
    return blight_type_harm(found[1].type) + guard
