"""Heroes as data (DN 2.0, 3.2, 14.0): all 29 heroes, and the trickiest powers of the
Acolyte, Alchemist, Channeler, Conjurer, Enchanter, Exorcist, Mercenary and Monk (the
sixteen heroes added last are tested here and in ``test_heroes_d.py``)."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from app.games.darkest_night.content import CONTENT, load
from app.games.darkest_night.engine import RULES
from app.games.darkest_night.rules.powers import default_grace
from app.games.darkest_night.state import Blight, Item, Power, State
from app.kernel.flow.content import walk_ops
from tests.games.darkest_night.harness import Table, run_steps

DEFAULTS = {  # grace / secrecy of every hero (shared/facts, "Hero defaults"; DN 2.0: 29 heroes)
    "acolyte": (3, 7),
    "alchemist": (3, 6),
    "bard": (4, 4),
    "channeler": (4, 6),
    "conjurer": (3, 5),
    "crusader": (5, 4),
    "druid": (5, 6),
    "enchanter": (3, 5),
    "exorcist": (3, 6),
    "knight": (5, 6),
    "mercenary": (5, 4),
    "mesmer": (4, 6),
    "monk": (4, 6),
    "nymph": (5, 6),
    "paragon": (3, 4),
    "priest": (6, 6),
    "prince": (4, 3),
    "ranger": (5, 7),
    "rogue": (4, 7),
    "scholar": (4, 6),
    "scout": (4, 7),
    "seer": (4, 6),
    "shaman": (5, 7),
    "tamer": (5, 5),
    "tinker": (4, 6),
    "valkyrie": (5, 5),
    "wayfarer": (5, 5),
    "wind_dancer": (4, 6),
    "wizard": (3, 5),
}
NEW = [
    "acolyte",
    "alchemist",
    "channeler",
    "conjurer",
    "enchanter",
    "exorcist",
    "mercenary",
    "monk",
    "nymph",
    "priest",
    "ranger",
    "scholar",
    "scout",
    "tamer",
    "wind_dancer",
    "wizard",
]
FIRST_EDITION_NAMES = {  # shared/facts, "Also in first edition": their ten power names each
    "acolyte": "Blinding Black, Call to Death, Dark Veil, Death Mask, Fade to Black, False Life, "
    "False Orders, Final Rest, Forbidden Arts, Leech Life",
    "priest": "Benediction, Blessing of Faith, Blessing of Piety, Blessing of Strength, "
    "Blessing of Wisdom, Calm, Censure, Intercession, Miracle, Sanctuary",
    "scholar": "Ancient Charm, Ancient Defense, Ancient Sword, Counterspell, Find Weakness, Foresight, "
    "Forgotten Sanctuary, Preparation, Research Materials, Thoroughness",
    "wizard": "Arcane Energy, Divination, Fiendfire, Invisibility, Lightning Strike, Rune of Clairvoyance, "
    "Rune of Interference, Rune of Misdirection, Rune of Nullification, Teleport",
}
OTHERS = ["seer", "mesmer", "crusader"]


# -- helpers (shared with test_heroes_d.py) --------------------------------------------------


def quiet(s: State) -> None:
    """No events to draw and no blights anywhere: a stated position to build on."""
    s.decks["event"].cards = []
    s.decks["event"].discard = []
    s.blights = {loc: [] for loc in s.blights}


def at(hero: str, location: str, **fields: Any) -> Callable[[State], None]:
    def change(s: State) -> None:
        s.heroes[hero].location = location
        for key, value in fields.items():
            setattr(s.heroes[hero], key, value)

    return change


def give(hero: str, *powers: str, active: bool = False, target: str | None = None) -> Callable[[State], None]:
    """Put powers from the hero's deck in front of the hero."""

    def change(s: State) -> None:
        for power in powers:
            s.heroes[hero].deck = [p for p in s.heroes[hero].deck if p != power]
            s.heroes[hero].powers.append(Power(power, active=active, target=target))

    return change


def blights(location: str, *types: str) -> Callable[[State], None]:
    def change(s: State) -> None:
        s.blights[location] = [Blight(f"b9{i}", kind) for i, kind in enumerate(types)]

    return change


def hero_table(hero: str, starting: Sequence[str] | None = None, others: Sequence[str] = OTHERS) -> Table:
    """A quiet table with ``hero`` first (its first 3 starting powers unless named)."""
    t = Table.start(heroes=[hero, *others], powers={hero: list(starting)} if starting else None)
    t.edit(quiet)
    return t


def choice(t: Table, type_: str, **args: Any) -> Any:
    found = [c for c in t.choices() if c.type == type_ and all(c.args.get(k) == v for k, v in args.items())]
    assert found, f"{type_} {args} not offered: {[(c.type, c.args) for c in t.choices()]}"
    return found[0]


def offered(t: Table, type_: str, **args: Any) -> bool:
    return any(c.type == type_ and all(c.args.get(k) == v for k, v in args.items()) for c in t.choices())


def combat_detail(t: Table, power: str | None, approach: str = "fight") -> str:
    return choice(t, "resolve_combat", approach=approach, tactic=power).detail


def roll(t: Table, type_: str, dice: Sequence[int], **args: Any) -> list[str]:
    """Send a command that leads to a roll, whether it rolls at once or waits for a "roll"
    decision (sparks or boosts to add first)."""
    try:
        events = t.act(type_, dice=dice, **args)
    except AssertionError as error:
        if "left unrolled" not in str(error):
            raise
        events = t.act(type_, **args)
    lines = t.log(events)
    if t.decision and t.decision.kind == "roll":
        lines += t.log(t.act("roll_dice", dice=dice))
    return lines


def fight_with(t: Table, power: str | None, dice: Sequence[int], approach: str = "fight") -> list[str]:
    args = choice(t, "resolve_combat", approach=approach, tactic=power).args
    return roll(t, "resolve_combat", dice, **args)


def event_foe(t: Table, hero: str, strength: int = 4, awareness: int = 4) -> None:
    """A foe an event brings (DN 12.0), at the hero's location."""
    run_steps(
        t, [{"op": "fight", "hero": hero, "foe": "Archer", "strength": strength, "awareness": awareness}]
    )


def again(t: Table, hero: str) -> list[str]:
    """Give the hero another turn this round (to reach its start-of-turn moment)."""
    t.edit(lambda s: setattr(s.heroes[hero], "turns_left", 1))
    return t.log(t.begin_turn(hero))


# -- all 29 heroes (DN 2.0, 3.2) --------------------------------------------------------------


def test_twenty_nine_heroes_with_their_defaults() -> None:
    """DN 2.0: 29 hero sheets and 377 power cards, 13 per hero; grace and secrecy as the facts
    give them."""
    heroes = load().heroes
    assert len(heroes) == 29
    assert {h: (spec.grace, spec.secrecy) for h, spec in heroes.items()} == DEFAULTS
    assert sum(len(h.powers) for h in heroes.values()) == 377


@pytest.mark.parametrize("hero_id", NEW)
def test_each_new_hero_has_13_authored_powers_5_starting(hero_id: str) -> None:
    """DN 3.2: 13 powers, 5 of them starting powers; no power of these heroes is named by the
    rulebook, so every one is authored (DESIGN.md, "Content")."""
    hero = load().heroes[hero_id]
    assert len(hero.powers) == 13 and sum(p.starting for p in hero.powers) == 5
    assert len({p.name for p in hero.powers}) == 13
    assert all(p.text and p.id.startswith(hero_id + ".") for p in hero.powers)
    raw = tomllib.loads((CONTENT / "heroes" / f"{hero_id}.toml").read_text())
    assert raw["source"] == "rulebook"  # the hero's name and numbers are facts
    assert {p["source"] for p in raw["power"]} == {"authored"}
    assert not any(p.requires_quests for p in hero.powers)
    named = set(walk_ops([[p.action, p.any_time, p.tactic, p.bonus, p.active] for p in hero.powers]))
    assert named <= set(RULES.steps) | {"dice", "boost", "default_grace", "default_secrecy", "can_pray", "on"}


@pytest.mark.parametrize("hero_id", NEW)
def test_each_new_hero_starts_with_a_fight_and_an_elude_tactic(hero_id: str) -> None:
    """DN 12.0: the first three starting powers (what the bot and the quick setup take)
    give a way to fight and a way to elude with more than 1 die."""
    starting = [p for p in load().heroes[hero_id].powers if p.starting][:3]
    approaches = {o["approach"] for p in starting for o in p.tactic}
    assert {"fight", "elude"} <= approaches | ({"fight", "elude"} if "either" in approaches else set())


@pytest.mark.parametrize("hero_id", sorted(FIRST_EDITION_NAMES))
def test_first_edition_names_are_kept(hero_id: str) -> None:
    """shared/facts: where a hero existed in the first edition, its ten power names."""
    names = {p.name for p in load().heroes[hero_id].powers}
    assert set(FIRST_EDITION_NAMES[hero_id].split(", ")) <= names


@pytest.mark.parametrize("hero_id", NEW)
def test_each_new_hero_plays_a_turn(hero_id: str) -> None:
    """Chosen in the setup (DN 3.2), in the Monastery at its defaults with 3 powers and a deck
    of 10, it can pray and end its turn."""
    t = hero_table(hero_id)
    hero = t.hero(hero_id)
    assert (hero.grace, hero.secrecy, hero.location) == (*DEFAULTS[hero_id], "Monastery")
    assert len(hero.powers) == 3 and len(hero.deck) == 10
    t.begin_turn(hero_id)
    roll(t, "pray", [1, 1])
    t.act("end_action")
    assert t.decision.kind == "next_hero"


def test_the_new_heroes_are_offered_after_the_first_thirteen() -> None:
    """The thirteen heroes that came first keep their places at the head of the list (each in
    file order), so a table whose players take the first offer seats what it always did."""
    heroes = list(load().heroes)
    assert heroes[:13] == sorted(set(DEFAULTS) - set(NEW))
    assert heroes[13:] == NEW
    t = Table.start(heroes=["bard", "crusader", "druid", "knight"])
    assert [h for h in t.state.heroes] == ["bard", "crusader", "druid", "knight"]


def test_a_new_hero_is_offered_as_a_replacement() -> None:
    """DN 13.1: a player whose hero died picks one that has not appeared; the new heroes are
    among those offered."""
    from app.games.darkest_night.decisions import ChooseHero
    from app.games.darkest_night.rules.setup import choose_hero_choices

    t = hero_table("acolyte")
    offer = choose_hero_choices(
        t.state, ChooseHero(seat=0, slot=0, replacing="acolyte", dual=False, secondary_of=None)
    )
    names = {c.args["hero"] for c in offer}
    assert set(NEW) - {"acolyte"} <= names and "acolyte" not in names and "seer" not in names


# -- the Acolyte ------------------------------------------------------------------------------


def test_acolyte_final_rest_destroys_a_blight_for_two_grace() -> None:
    """Final Rest spends 2 grace to destroy a blight without a roll; a Shroud guards the other
    blights here (DN 11.2), so only the Shroud can go; 1 secrecy is lost as in an attack."""
    t = hero_table("acolyte")
    t.edit(give("acolyte", "acolyte.final_rest"))
    t.edit(at("acolyte", "Village", grace=3))
    t.edit(blights("Village", "Skeletons", "Shroud"))
    t.begin_turn("acolyte")
    t.act("power_action", power="acolyte.final_rest")
    acolyte = t.hero("acolyte")
    assert [b.type for b in t.state.blights["Village"]] == ["Skeletons"]
    assert (acolyte.grace, acolyte.secrecy) == (1, 6)
    assert acolyte.power("acolyte.final_rest").exhausted


def test_acolyte_final_rest_needs_the_grace_and_a_blight() -> None:
    """DN 4.1: you cannot spend what you do not have."""
    t = hero_table("acolyte")
    t.edit(give("acolyte", "acolyte.final_rest"))
    t.edit(at("acolyte", "Village", grace=1))
    t.edit(blights("Village", "Skeletons"))
    t.begin_turn("acolyte")
    assert not offered(t, "power_action", power="acolyte.final_rest")
    t2 = hero_table("acolyte")
    t2.edit(give("acolyte", "acolyte.final_rest"))
    t2.edit(at("acolyte", "Village"))
    t2.begin_turn("acolyte")
    assert not offered(t2, "power_action", power="acolyte.final_rest")


def test_acolyte_death_mask_offsets_the_necromancer_at_turn_start() -> None:
    """DN 10.0: the Necromancer here costs 1 secrecy at the start of the turn; Death Mask wins
    it back (up to 7)."""
    t = hero_table("acolyte", ["acolyte.call_to_death", "acolyte.blinding_black", "acolyte.death_mask"])
    t.edit(at("acolyte", "Village", secrecy=4))
    t.edit(lambda s: setattr(s, "necromancer", "Village"))
    t.begin_turn("acolyte")
    assert t.hero("acolyte").secrecy == 4
    t2 = hero_table("acolyte", ["acolyte.call_to_death", "acolyte.blinding_black", "acolyte.death_mask"])
    t2.edit(at("acolyte", "Village", secrecy=4))
    t2.begin_turn("acolyte")  # the Necromancer is elsewhere: nothing either way
    assert t2.hero("acolyte").secrecy == 4


def test_acolyte_call_to_death_has_a_third_die_only_against_monsters() -> None:
    t = hero_table("acolyte")
    t.edit(at("acolyte", "Village"))
    t.begin_turn("acolyte")
    event_foe(t, "acolyte")
    details = [c.detail[:6] for c in t.choices() if c.args.get("tactic") == "acolyte.call_to_death"]
    assert details == ["2 dice"]
    t2 = hero_table("acolyte")
    t2.edit(at("acolyte", "Village"))
    t2.edit(blights("Village", "Skeletons"))
    t2.begin_turn("acolyte")
    t2.act("end_action")  # a Skeleton at the end of the turn (DN 11.2)
    details = sorted(c.detail[:6] for c in t2.choices() if c.args.get("tactic") == "acolyte.call_to_death")
    assert details == ["2 dice", "3 dice"]


def test_acolyte_forbidden_arts_costs_grace_win_or_lose() -> None:
    t = hero_table("acolyte")
    t.edit(give("acolyte", "acolyte.forbidden_arts"))
    t.edit(at("acolyte", "Village", grace=3))
    t.begin_turn("acolyte")
    event_foe(t, "acolyte")
    assert combat_detail(t, "acolyte.forbidden_arts").startswith("4 dice vs 4")
    fight_with(t, "acolyte.forbidden_arts", [6, 1, 1, 1])
    acolyte = t.hero("acolyte")
    assert acolyte.grace == 2 and acolyte.power("acolyte.forbidden_arts").exhausted


def test_acolyte_false_orders_sends_the_necromancer_next_door() -> None:
    t = hero_table("acolyte")
    t.edit(give("acolyte", "acolyte.false_orders"))
    t.edit(at("acolyte", "Village", secrecy=5))
    t.edit(lambda s: setattr(s, "necromancer", "Ruins"))
    t.begin_turn("acolyte")
    t.act("power_action", power="acolyte.false_orders")
    labels = {c.label: c.args["option"] for c in t.choices() if c.type == "choose_option"}
    assert set(labels) == {"Drive him to the Village", "Drive him to the Forest", "Drive him to the Swamp"}
    t.act("choose_option", option=labels["Drive him to the Forest"])
    assert t.state.necromancer == "Forest" and t.hero("acolyte").secrecy == 4


# -- the Alchemist ----------------------------------------------------------------------------


def test_alchemist_transmutation_turns_an_item_into_grace_and_a_spark() -> None:
    t = hero_table("alchemist")
    t.edit(give("alchemist", "alchemist.transmutation"))
    t.edit(at("alchemist", "Village", grace=1))
    t.edit(lambda s: s.heroes["alchemist"].items.append(Item("i90", "charm")))
    t.begin_turn("alchemist")
    t.act("power_action", power="alchemist.transmutation")
    t.act("scrap_item", item="i90")
    alchemist = t.hero("alchemist")
    assert (alchemist.grace, alchemist.sparks, alchemist.items) == (3, 1, [])


def test_alchemist_magnum_opus_makes_the_item_chosen() -> None:
    t = hero_table("alchemist")
    t.edit(give("alchemist", "alchemist.magnum_opus"))
    t.begin_turn("alchemist")
    t.act("power_action", power="alchemist.magnum_opus")
    assert [c.label for c in t.choices() if c.type == "choose_option"] == [
        "Make a Charm",
        "Make a Vanishing Dust",
        "Make a Soothing Lyre",
    ]
    t.act("choose_option", option=1)
    assert [i.kind for i in t.hero("alchemist").items] == ["vanishing_dust"]


def test_alchemist_elixir_heals_another_hero_up_to_their_default() -> None:
    t = hero_table("alchemist", ["alchemist.acid_flask", "alchemist.smoke_bomb", "alchemist.elixir"])
    t.edit(at("seer", "Monastery", grace=0))
    t.begin_turn("alchemist")
    t.act("power_action", power="alchemist.elixir", target="hero:seer")
    assert t.hero("seer").grace == 3
    assert t.hero("alchemist").power("alchemist.elixir").exhausted
    t2 = hero_table("alchemist", ["alchemist.acid_flask", "alchemist.smoke_bomb", "alchemist.elixir"])
    t2.edit(at("seer", "Monastery", grace=3))
    t2.begin_turn("alchemist")
    t2.act("power_action", power="alchemist.elixir", target="hero:seer")
    assert t2.hero("seer").grace == 4  # the Seer's default


def test_alchemist_acid_flask_adds_a_die_against_blights() -> None:
    t = hero_table("alchemist")
    t.edit(at("alchemist", "Village"))
    t.edit(blights("Village", "Zombies"))
    t.begin_turn("alchemist")
    # 3 dice against a blight outdo its 2 and no tactic: the attack is fought so (DN 12.0)
    attack = choice(t, "attack", blight="b90").detail
    assert attack.startswith("fight: 3 dice vs might 5 (Acid Flask 3 dice)") and "with Acid Flask" in attack
    roll(t, "attack", [1, 1, 6], blight="b90")
    assert t.state.last_roll["sources"] == [["Acid Flask", 3]] and t.state.blights["Village"] == []


# -- the Channeler ----------------------------------------------------------------------------


def test_channeler_attunement_gains_a_spark_each_turn_up_to_three() -> None:
    """DN 4.2: at most 3 sparks."""
    t = hero_table("channeler")
    t.edit(at("channeler", "Village", sparks=2))
    t.begin_turn("channeler")
    assert t.hero("channeler").sparks == 3
    t.act("end_action")
    again(t, "channeler")
    assert t.hero("channeler").sparks == 3


def test_channeler_overflow_spends_a_spark_and_is_not_offered_without_one() -> None:
    t = hero_table("channeler", ["channeler.spirit_lance", "channeler.phase_shift", "channeler.conduit"])
    t.edit(give("channeler", "channeler.overflow"))
    t.edit(at("channeler", "Village", sparks=0))
    t.begin_turn("channeler")
    event_foe(t, "channeler")
    assert not offered(t, "resolve_combat", tactic="channeler.overflow")
    t2 = hero_table("channeler", ["channeler.spirit_lance", "channeler.phase_shift", "channeler.conduit"])
    t2.edit(give("channeler", "channeler.overflow"))
    t2.edit(at("channeler", "Village", sparks=1))
    t2.begin_turn("channeler")
    event_foe(t2, "channeler")
    assert combat_detail(t2, "channeler.overflow").startswith("4 dice vs 4, spend 1 sparks")
    t2.act(
        "resolve_combat", **choice(t2, "resolve_combat", tactic="channeler.overflow").args, dice=[1, 2, 3, 4]
    )
    assert t2.hero("channeler").sparks == 0


def test_channeler_transference_gives_another_hero_grace_for_a_spark() -> None:
    """Any time (DN 14.3.2), even on another hero's turn."""
    t = hero_table("channeler", ["channeler.spirit_lance", "channeler.phase_shift", "channeler.conduit"])
    t.edit(give("channeler", "channeler.transference"))
    t.edit(at("channeler", "Village", sparks=1))
    t.edit(at("seer", "Village", grace=1))
    t.edit(at("mesmer", "Forest", grace=1))
    t.begin_turn("seer")
    t.act("use_power", hero="channeler", power="channeler.transference")
    picks = {c.args.get("target") for c in t.choices() if c.type == "pick_hero"}
    assert picks == {"seer"}  # another hero at the Channeler's location
    t.act("pick_hero", target="seer")
    assert t.hero("seer").grace == 2 and t.hero("channeler").sparks == 0


def test_channeler_arc_discharge_attacks_with_four_dice_then_drains_the_sparks() -> None:
    t = hero_table("channeler")
    t.edit(give("channeler", "channeler.arc_discharge"))
    t.edit(at("channeler", "Village", sparks=2, secrecy=5))
    t.edit(blights("Village", "Spies"))
    t.begin_turn("channeler")  # Attunement: 3 sparks
    # the power is itself the attack, one way to fight: not asked again (DN 12.1, issue 11)
    roll(t, "power_action", [5, 1, 1, 1], power="channeler.arc_discharge")
    assert t.state.last_roll["dice"] == 4
    channeler = t.hero("channeler")
    assert t.state.blights["Village"] == []
    assert (channeler.sparks, channeler.secrecy) == (0, 4)


# -- the Conjurer -----------------------------------------------------------------------------


def test_conjurer_illusory_double_eludes_the_necromancer_with_three_dice() -> None:
    """DN 12.2: the Necromancer attacks a hero at zero secrecy (awareness 6)."""
    t = hero_table("conjurer")
    t.edit(at("conjurer", "Village", secrecy=1))
    t.edit(lambda s: setattr(s, "necromancer", "Village"))
    t.begin_turn("conjurer")
    assert t.decision.kind == "combat"
    details = sorted(
        c.detail[:10]
        for c in t.choices()
        if c.args.get("tactic") == "conjurer.illusory_double" and c.args["approach"] == "elude"
    )
    assert details == ["2 dice vs ", "3 dice vs "]


def test_conjurer_displacement_moves_anywhere_or_stays() -> None:
    t = hero_table("conjurer")
    t.edit(give("conjurer", "conjurer.displacement"))
    t.begin_turn("conjurer")
    t.act("power_action", power="conjurer.displacement")
    targets = {c.args.get("to") for c in t.choices() if c.type == "move_to"}
    assert targets == {"Mountains", "Castle", "Village", "Swamp", "Forest", "Ruins"}
    assert offered(t, "stay")
    t.act("move_to", to="Ruins")
    assert t.hero("conjurer").location == "Ruins"


def test_conjurer_sanctuary_lets_heroes_pray_there() -> None:
    """DN 8.0: praying is for the Monastery only, unless a card says otherwise."""
    t = hero_table("conjurer")
    t.edit(give("conjurer", "conjurer.conjured_sanctuary"))
    t.edit(at("conjurer", "Forest", grace=1))
    t.begin_turn("conjurer")
    assert not offered(t, "pray")
    t.act("power_action", power="conjurer.conjured_sanctuary", target="loc:Forest")
    t.act("end_action")
    again(t, "conjurer")
    roll(t, "pray", [3, 3])
    assert t.hero("conjurer").grace == 3


# -- the Enchanter ----------------------------------------------------------------------------


def test_enchanter_enchanted_armor_raises_the_targets_default_grace() -> None:
    t = hero_table("enchanter")
    t.edit(give("enchanter", "enchanter.enchanted_armor"))
    t.begin_turn("enchanter")
    t.act("power_action", power="enchanter.enchanted_armor", target="hero:crusader")
    from app.games.darkest_night.engine import Ctx

    reader = Ctx.reader(t.state)
    assert default_grace(reader, t.hero("crusader")) == 6
    assert default_grace(reader, t.hero("enchanter")) == 3


def test_enchanter_greater_enchantment_adds_three_dice_once() -> None:
    t = hero_table("enchanter")
    t.edit(give("enchanter", "enchanter.greater_enchantment", active=True, target="hero:seer"))
    t.edit(at("seer", "Village"))
    t.begin_turn("seer")
    t.act("search")
    assert t.decision.kind == "roll"
    # With nothing more to add after the boost, the dice roll at once (issue 11: no question
    # with one answer), so the rigged faces go with the boost.
    events = t.act("use_boost", power="enchanter.greater_enchantment", dice=[1, 1, 1, 1])
    [rolled] = [e for e in events if e.type == "DiceRolled"]
    assert rolled.data["dice"] == 4
    assert not t.hero("enchanter").power("enchanter.greater_enchantment").active


def test_enchanter_charm_person_only_against_event_foes() -> None:
    t = hero_table("enchanter", ["enchanter.spellblade", "enchanter.glimmer", "enchanter.charm_person"])
    t.edit(at("enchanter", "Village"))
    t.begin_turn("enchanter")
    event_foe(t, "enchanter")
    assert combat_detail(t, "enchanter.charm_person", "elude").startswith("3 dice vs 4")
    t2 = hero_table("enchanter", ["enchanter.spellblade", "enchanter.glimmer", "enchanter.charm_person"])
    t2.edit(at("enchanter", "Village"))
    t2.edit(blights("Village", "Skeletons"))
    t2.begin_turn("enchanter")
    t2.act("end_action")
    assert t2.decision.kind == "combat"
    assert not offered(t2, "resolve_combat", tactic="enchanter.charm_person")


# -- the Exorcist -----------------------------------------------------------------------------


def test_exorcist_cleansing_flame_heals_on_a_destroyed_blight() -> None:
    t = hero_table("exorcist", ["exorcist.rebuke", "exorcist.sidestep", "exorcist.purifying_rite"])
    t.edit(give("exorcist", "exorcist.cleansing_flame"))
    t.edit(at("exorcist", "Village", grace=1))
    t.edit(blights("Village", "Zombies"))
    t.begin_turn("exorcist")
    attack = choice(t, "attack", blight="b90").detail
    assert attack.startswith("fight: 3 dice vs might 5") and "with Rebuke" in attack  # 2 + Purifying Rite
    roll(t, "attack", [5, 1, 1], blight="b90")
    assert t.state.blights["Village"] == [] and t.hero("exorcist").grace == 2


def test_exorcist_exorcism_and_abjure() -> None:
    t = hero_table("exorcist", ["exorcist.rebuke", "exorcist.sidestep", "exorcist.abjure"])
    t.edit(give("exorcist", "exorcist.exorcism"))
    t.edit(at("exorcist", "Castle", grace=3, secrecy=3))
    t.edit(blights("Castle", "Vampire"))
    t.edit(lambda s: setattr(s, "necromancer", "Castle"))
    t.begin_turn("exorcist")  # the Necromancer here: secrecy 2
    t.act("power_action", power="exorcist.exorcism")
    exorcist = t.hero("exorcist")
    assert t.state.blights["Castle"] == [] and (exorcist.grace, exorcist.secrecy) == (1, 1)
    t.act("end_action")
    t.edit(lambda s: setattr(s, "necromancer", "Swamp"))
    again(t, "exorcist")
    t.act("power_action", power="exorcist.abjure")
    t.act("choose_option", option=0)
    assert t.state.necromancer != "Swamp" and t.hero("exorcist").grace == 0


# -- the Mercenary ----------------------------------------------------------------------------


def test_mercenary_spoils_of_war_and_veteran() -> None:
    t = hero_table("mercenary", ["mercenary.broadsword", "mercenary.shield_wall", "mercenary.spoils_of_war"])
    t.edit(at("mercenary", "Village"))
    t.edit(blights("Village", "Skeletons"))
    t.begin_turn("mercenary")
    roll(t, "attack", [5, 1], blight="b90")  # Broadsword, free, outdoes no tactic (DN 12.0)
    assert t.hero("mercenary").sparks == 1
    t2 = hero_table("mercenary")
    t2.edit(at("mercenary", "Village"))
    t2.begin_turn("mercenary")
    event_foe(t2, "mercenary")
    assert combat_detail(t2, "mercenary.broadsword").startswith("3 dice")  # Veteran vs an event foe


def test_mercenary_cleave_costs_grace_below_two_successes() -> None:
    t = hero_table("mercenary")
    t.edit(give("mercenary", "mercenary.cleave"))
    t.edit(at("mercenary", "Village", grace=5))
    t.begin_turn("mercenary")
    event_foe(t, "mercenary")
    fight_with(t, "mercenary.cleave", [4, 1, 1, 1])  # Veteran adds a die
    assert t.hero("mercenary").grace == 4
    event_foe(t, "mercenary")
    fight_with(t, "mercenary.cleave", [4, 5, 1, 1])
    assert t.hero("mercenary").grace == 4


# -- the Monk ---------------------------------------------------------------------------------


def test_monk_mindfulness_prays_anywhere() -> None:
    t = hero_table("monk")
    t.edit(at("monk", "Ruins", grace=1))
    t.begin_turn("monk")
    assert not offered(t, "pray")
    t.act("end_action")
    t.edit(give("monk", "monk.mindfulness"))
    again(t, "monk")
    roll(t, "pray", [3, 6])
    assert t.hero("monk").grace == 3


def test_monk_flurry_of_blows_earns_a_spark_and_ki_strike_tires() -> None:
    t = hero_table("monk", ["monk.flurry_of_blows", "monk.deflect", "monk.ki_strike"])
    t.edit(at("monk", "Village"))
    t.begin_turn("monk")
    event_foe(t, "monk")
    fight_with(t, "monk.flurry_of_blows", [4, 6])
    assert t.hero("monk").sparks == 1
    event_foe(t, "monk")
    fight_with(t, "monk.ki_strike", [1, 2, 3])
    assert t.hero("monk").power("monk.ki_strike").exhausted


def test_the_bot_takes_a_sure_kill_when_it_can_spare_the_grace() -> None:
    """The bot's planner values Exorcism as an attack that cannot fail (DN 12.1), less its
    cost in grace; without grace to spare, it would rather not."""
    import random

    from app.games.darkest_night.bot.planner import choose_action

    t = hero_table("exorcist")
    t.edit(give("exorcist", "exorcist.exorcism"))
    t.edit(at("exorcist", "Castle", grace=5, secrecy=5))
    t.edit(blights("Castle", "Vampire", "Lich", "Zombies"))
    t.edit(lambda s: setattr(s, "necromancer", "Castle"))
    t.begin_turn("exorcist")
    picked = choose_action(t.state, t.choices(), random.Random(0))
    assert picked.args.get("power") == "exorcist.exorcism"
    t.edit(lambda s: setattr(s.heroes["exorcist"], "grace", 2))
    picked = choose_action(t.state, t.choices(), random.Random(0))
    assert picked.args.get("power") != "exorcist.exorcism"
