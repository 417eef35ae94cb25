"""Heroes as data: the Druid, Rogue, Mesmer, Shaman and Bard (DN 3.2, 14.0), the rulebook's
examples of their powers (DN 4.1, 14.1, 16.1, 16.2, 17.3, 20.6) and the ops they added."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from app.games.darkest_night.content import CONTENT, load
from app.games.darkest_night.state import Blight, Placed, Power, State
from tests.games.darkest_night.harness import Table, run_steps

HEROES = {"druid": (5, 6), "rogue": (4, 7), "mesmer": (4, 6), "shaman": (5, 7), "bard": (4, 4)}
"""Default grace and secrecy (shared facts)."""

RULEBOOK_POWERS = {
    "druid": {"Wolf Form", "Vines"},
    "rogue": {"Eavesdrop"},
    "mesmer": {"Consume Dreams", "Pilfer Secrets"},
    "shaman": {"Balance"},
    "bard": {"Eucatastrophe"},
}
"""The power names the rulebook itself mentions."""

FOUR = ["druid", "rogue", "mesmer", "shaman"]
DRUID_BASICS = ["druid.animal_companion", "druid.camouflage", "druid.visions"]


def no_events(s: State) -> None:
    s.decks["event"].cards = []
    s.decks["event"].discard = []


def no_blights(s: State) -> None:
    s.blights = {loc: [] for loc in s.blights}


def at(hero: str, location: str, **fields: Any):  # noqa: ANN201
    def change(s: State) -> None:
        s.heroes[hero].location = location
        for key, value in fields.items():
            setattr(s.heroes[hero], key, value)

    return change


def give(hero: str, *powers: str, active: bool = False):  # noqa: ANN201
    """Put powers from the hero's deck in front of the hero (a stated position)."""

    def change(s: State) -> None:
        for power in powers:
            s.heroes[hero].powers.append(Power(power, active=active))
            if power in s.heroes[hero].deck:
                s.heroes[hero].deck.remove(power)

    return change


def table(**powers: list[str]) -> Table:
    t = Table.start(heroes=FOUR, powers=powers or None)
    t.edit(no_events)
    t.edit(no_blights)
    return t


def rolls(t: Table, events: list[Any]) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == "DiceRolled"]


def choice(t: Table, type_: str, **args: Any) -> Any:
    found = [c for c in t.choices() if c.type == type_ and all(c.args.get(k) == v for k, v in args.items())]
    assert found, f"{type_} {args} not offered: {[(c.type, c.args) for c in t.choices()]}"
    return found[0]


def monster_at(t: Table, location: str, blight: str = "Skeletons") -> None:
    """A monster blight there: a hero ending a turn there faces its monster (DN 11.2)."""
    t.edit(lambda s: s.blights.__setitem__(location, [Blight("b90", blight)]))


# -- every hero ---------------------------------------------------------------------------


@pytest.mark.parametrize("hero", sorted(HEROES))
def test_hero_loads_with_thirteen_powers_five_starting(hero: str) -> None:
    spec = load().heroes[hero]
    assert (spec.grace, spec.secrecy) == HEROES[hero]
    assert len(spec.powers) == 13
    assert sum(p.starting for p in spec.powers) == 5
    raw = tomllib.loads((CONTENT / "heroes" / f"{hero}.toml").read_text())
    sources = {p["name"]: p["source"] for p in raw["power"]}
    assert set(sources.values()) <= {"rulebook", "authored"}
    assert {n for n, s in sources.items() if s == "rulebook"} == RULEBOOK_POWERS[hero]


def test_heroes_take_the_table_with_their_defaults() -> None:
    t = Table.start(heroes=["druid", "rogue", "mesmer", "bard"])
    for hero in ("druid", "rogue", "mesmer", "bard"):
        assert (t.hero(hero).grace, t.hero(hero).secrecy) == HEROES[hero]
        assert len(t.hero(hero).powers) == 3
        assert len(t.hero(hero).deck) == 10
    t = Table.start(heroes=["shaman", "rogue", "mesmer", "bard"])
    assert (t.hero("shaman").grace, t.hero("shaman").secrecy) == (5, 7)


def test_eucatastrophe_is_removed_without_quests() -> None:
    """DN 20.6: without quests, the Bard's Eucatastrophe leaves the game."""
    assert load().powers()["bard.eucatastrophe"].requires_quests
    t = Table.start(heroes=["bard", "rogue", "mesmer", "shaman"], options={"no_quests": True})
    assert "bard.eucatastrophe" not in t.hero("bard").deck
    assert len(t.hero("bard").deck) == 9
    t = Table.start(heroes=["bard", "rogue", "mesmer", "shaman"])
    assert "bard.eucatastrophe" in t.hero("bard").deck


# -- the Druid (DN 14.1, 16.2) ------------------------------------------------------------------


def test_wolf_form_gives_a_die_on_fight_and_elude_rolls() -> None:
    """DN 14.1: the Druid uses Wolf Form as his action; while it is active he rolls 1 extra
    die on fight and elude rolls."""
    t = table(druid=DRUID_BASICS)
    t.edit(give("druid", "druid.wolf_form"))
    t.edit(at("druid", "Village"))
    monster_at(t, "Village")
    t.begin_turn("druid")
    t.act("power_action", power="druid.wolf_form")
    assert t.hero("druid").power("druid.wolf_form").active
    t.act("end_action")
    assert t.decision.kind == "combat"  # a Skeleton (4/4) at the end of the turn
    assert choice(t, "resolve_combat", approach="fight", tactic=None).detail.startswith("2 dice vs 4")
    assert choice(t, "resolve_combat", approach="elude", tactic=None).detail.startswith("2 dice vs 4")
    camouflage = choice(t, "resolve_combat", approach="elude", tactic="druid.camouflage")
    assert camouflage.detail.startswith("3 dice vs 4")
    events = t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[4, 1])
    (roll,) = rolls(t, events)
    assert roll["dice"] == 2 and ["Wolf Form", 1] in roll["sources"]
    assert roll["successes"] == 1


def test_wolf_form_lasts_until_a_card_ends_it() -> None:
    """DN 14.1: Wolf Form stays active turn after turn; using its action again he may leave it."""
    t = table(druid=DRUID_BASICS)
    t.edit(give("druid", "druid.wolf_form", active=True))
    t.begin_turn("druid")
    leave = choice(t, "power_action", power="druid.wolf_form")
    assert "deactivate" in leave.label
    t.act("power_action", power="druid.wolf_form")
    assert not t.hero("druid").power("druid.wolf_form").active


def test_another_form_ends_wolf_form() -> None:
    """DN 14.1: using another of his Form cards deactivates Wolf Form."""
    t = table(druid=[*DRUID_BASICS[:2], "druid.sprite_form"])
    t.edit(give("druid", "druid.wolf_form", active=True))
    t.edit(at("druid", "Village"))
    t.begin_turn("druid")
    t.act("power_action", power="druid.sprite_form")
    assert t.hero("druid").power("druid.sprite_form").active
    assert not t.hero("druid").power("druid.wolf_form").active


def test_vines_eludes_with_four_dice_and_is_exhausted() -> None:
    """DN 16.2: the Druid makes an elude roll with his Vines tactic, 4 dice, rolling 5, 3, 1
    and 1, and exhausts Vines as its card says."""
    t = table(druid=DRUID_BASICS)
    t.edit(give("druid", "druid.vines"))
    t.edit(at("druid", "Village"))
    t.begin_turn("druid")
    run_steps(t, [{"op": "fight", "hero": "druid", "foe": "Zombie Horde", "strength": 5, "awareness": 3}])
    assert choice(t, "resolve_combat", approach="fight", tactic="druid.vines").detail.startswith("4 dice")
    vines = choice(t, "resolve_combat", approach="elude", tactic="druid.vines")
    assert vines.detail.startswith("4 dice vs 3")
    events = t.act("resolve_combat", **vines.args, dice=[5, 3, 1, 1])
    (roll,) = rolls(t, events)
    assert roll["dice"] == 4 and roll["successes"] == 2
    assert t.hero("druid").power("druid.vines").exhausted


def test_sprite_form_ignores_blights_unless_the_necromancer_is_there() -> None:
    t = table(druid=[*DRUID_BASICS[:2], "druid.sprite_form"])
    t.edit(at("druid", "Village"))
    monster_at(t, "Village")
    t.begin_turn("druid")
    t.act("power_action", power="druid.sprite_form")
    events = t.act("end_action")
    assert t.decision.kind == "next_hero"  # no Skeleton came
    assert not any(e.type == "CombatStarted" for e in events)
    # Next time, with the Necromancer here, the blights bite.
    t2 = table(druid=[*DRUID_BASICS[:2], "druid.sprite_form"])
    t2.edit(at("druid", "Village", secrecy=6))
    t2.edit(lambda s: setattr(s, "necromancer", "Village"))
    monster_at(t2, "Village")
    t2.begin_turn("druid")
    t2.act("power_action", power="druid.sprite_form")
    t2.act("end_action")
    assert t2.decision.kind == "combat"
    # In Sprite Form he fights with 1 fewer die (never fewer than 1, DN 5.0).
    assert choice(t2, "resolve_combat", approach="fight", tactic="druid.animal_companion").detail.startswith(
        "1 die"
    )


def test_celerity_leaves_forms_moves_and_takes_a_form() -> None:
    """The op ``druid_take_form``: leave every Form, then take one that is not exhausted."""
    t = table(druid=DRUID_BASICS)
    t.edit(give("druid", "druid.celerity", "druid.tree_form"))
    t.edit(give("druid", "druid.wolf_form", active=True))
    t.edit(give("druid", "druid.raven_form"))
    t.edit(lambda s: setattr(s.heroes["druid"].power("druid.raven_form"), "exhausted", True))
    t.begin_turn("druid")
    t.act("power_action", power="druid.celerity", to="Village")
    assert t.hero("druid").location == "Village"
    assert not t.hero("druid").power("druid.wolf_form").active
    offered = {c.args.get("power") for c in t.choices() if c.type == "take_form"}
    assert offered == {"druid.tree_form", "druid.wolf_form"}  # Raven Form is exhausted
    assert any(c.type == "no_form" for c in t.choices())
    t.act("take_form", power="druid.tree_form")
    assert t.hero("druid").power("druid.tree_form").active
    assert not t.hero("druid").power("druid.wolf_form").active


def test_celerity_may_take_no_form() -> None:
    t = table(druid=DRUID_BASICS)
    t.edit(give("druid", "druid.celerity"))
    t.edit(give("druid", "druid.sprite_form", active=True))
    t.begin_turn("druid")
    t.act("power_action", power="druid.celerity", to="Forest")
    t.act("no_form")
    assert not t.hero("druid").power("druid.sprite_form").active
    assert t.hero("druid").location == "Forest"


def test_tree_form_mends_at_the_start_of_each_turn() -> None:
    t = table(druid=DRUID_BASICS)
    t.edit(give("druid", "druid.tree_form", active=True))
    t.edit(at("druid", "Village", grace=2))
    t.begin_turn("druid")
    assert t.hero("druid").grace == 4


# -- the Rogue (DN 4.1) -----------------------------------------------------------------------


def test_eavesdrop_needs_secrecy_to_spend() -> None:
    """DN 4.1: Eavesdrop spends 1 secrecy to search with 2 dice; at zero secrecy the Rogue
    cannot use it until he gains some."""
    t = table(rogue=["rogue.eavesdrop", "rogue.ambush", "rogue.contacts"])
    t.edit(at("rogue", "Village", secrecy=0))
    t.begin_turn("rogue")
    assert not [c for c in t.choices() if c.args.get("power") == "rogue.eavesdrop"]
    t.act("use_power", hero="rogue", power="rogue.contacts")  # any time: +1 secrecy
    assert t.hero("rogue").secrecy == 1
    choice(t, "power_action", power="rogue.eavesdrop")


def test_search_with_rolls_the_given_dice() -> None:
    """The op ``search_with`` (Eavesdrop): a search with 2 dice vs the location's difficulty,
    a map card per success (DN 8.0)."""
    t = table(rogue=["rogue.eavesdrop", "rogue.ambush", "rogue.contacts"])
    t.edit(at("rogue", "Castle", secrecy=3))
    t.edit(lambda s: s.decks["map"].cards.insert(0, "map104"))  # the Castle: a supply cache
    t.begin_turn("rogue")
    events = t.act("power_action", power="rogue.eavesdrop", dice=[1, 2])
    (roll,) = rolls(t, events)
    assert roll["purpose"] == "search" and roll["dice"] == 2 and roll["target"] == 2  # DN Extended Example
    assert roll["successes"] == 1
    assert t.hero("rogue").secrecy == 2
    assert any(e.type == "SearchSucceeded" for e in events)


def test_eavesdrop_is_not_offered_in_the_monastery() -> None:
    t = table(rogue=["rogue.eavesdrop", "rogue.ambush", "rogue.contacts"])
    t.begin_turn("rogue")
    assert not [c for c in t.choices() if c.args.get("power") == "rogue.eavesdrop"]


# -- the Mesmer (DN 17.3, 20.5) ---------------------------------------------------------------


def test_consume_dreams_fights_with_three_dice() -> None:
    """DN 17.3: the Mesmer uses his Consume Dreams tactic to fight with 3 dice, rolling 2, 3
    and 5."""
    t = table(mesmer=["mesmer.consume_dreams", "mesmer.pilfer_secrets", "mesmer.glamour"])
    t.edit(at("mesmer", "Village"))
    t.begin_turn("mesmer")
    run_steps(t, [{"op": "fight", "hero": "mesmer", "foe": "Defiled Shrine", "strength": 4, "awareness": 0}])
    consume = choice(t, "resolve_combat", approach="fight", tactic="mesmer.consume_dreams")
    assert consume.detail.startswith("3 dice vs 4")
    events = t.act("resolve_combat", **consume.args, dice=[2, 3, 5])
    (roll,) = rolls(t, events)
    assert roll["dice"] == 3 and roll["faces"] == [2, 3, 5] and roll["successes"] == 1
    assert not t.hero("mesmer").power("mesmer.consume_dreams").exhausted


def test_pilfer_secrets_gains_a_clue_per_blight_here() -> None:
    t = table(mesmer=["mesmer.consume_dreams", "mesmer.pilfer_secrets", "mesmer.glamour"])
    t.edit(at("mesmer", "Swamp"))
    t.edit(lambda s: s.blights.__setitem__("Swamp", [Blight("b90", "Taint"), Blight("b91", "Spies")]))
    t.begin_turn("mesmer")
    clues = t.state.clues
    t.act("power_action", power="mesmer.pilfer_secrets")
    assert t.state.clues == clues + 2
    assert t.hero("mesmer").power("mesmer.pilfer_secrets").exhausted


# -- the Shaman (DN 16.1) -----------------------------------------------------------------------


def test_balance_adds_a_die_to_rolls_for_events() -> None:
    """DN 16.1: Balance applies to the rolls an event card calls for; not to other combats."""
    t = table(shaman=["shaman.balance", "shaman.equilibrium", "shaman.spirit_strike"])
    t.edit(at("shaman", "Village"))
    t.begin_turn("shaman")
    run_steps(t, [{"op": "fight", "hero": "shaman", "foe": "Ghoul", "strength": 4, "awareness": 3}])
    assert choice(t, "resolve_combat", approach="elude", tactic=None).detail.startswith("2 dice vs 3")
    strike = choice(t, "resolve_combat", approach="fight", tactic="shaman.spirit_strike")
    assert strike.detail.startswith("3 dice vs 4")
    events = t.act("resolve_combat", **strike.args, dice=[1, 2, 4])
    (roll,) = rolls(t, events)
    assert roll["dice"] == 3 and ["Balance", 1] in roll["sources"]
    # A blight's monster is no event: no extra die.
    t2 = table(shaman=["shaman.balance", "shaman.equilibrium", "shaman.spirit_strike"])
    t2.edit(at("shaman", "Village"))
    monster_at(t2, "Village")
    t2.begin_turn("shaman")
    t2.act("end_action")
    assert choice(t2, "resolve_combat", approach="fight", tactic=None).detail.startswith("1 die vs 4")


def test_equilibrium_trades_grace_for_secrecy() -> None:
    t = table(shaman=["shaman.balance", "shaman.equilibrium", "shaman.spirit_strike"])
    t.edit(at("shaman", "Village", grace=3, secrecy=2))
    t.begin_turn("shaman")
    t.act("power_action", power="shaman.equilibrium")
    t.act("choose_option", option=0)
    assert (t.hero("shaman").grace, t.hero("shaman").secrecy) == (2, 4)


# -- the Bard (DN 20.6) ---------------------------------------------------------------------------


def bard_table() -> Table:
    t = Table.start(
        heroes=["bard", "rogue", "mesmer", "shaman"],
        powers={"bard": ["bard.ballad_of_valor", "bard.song_of_shadows", "bard.flourish"]},
    )
    t.edit(no_events)
    t.edit(no_blights)
    return t


def test_eucatastrophe_advances_a_quest_here() -> None:
    """Eucatastrophe puts 2 progress tokens on a quest at the Bard's location (DN 16.2)."""
    cards = [q for q in load().quests.values() if int(q.data.get("progress", 1)) >= 5]
    if not cards:
        pytest.skip("no quest card needing 5 progress in the content yet")
    card = cards[0]
    t = bard_table()
    t.edit(give("bard", "bard.eucatastrophe"))
    t.edit(at("bard", "Village"))
    t.edit(lambda s: s.quests.append(Placed("q90", card.id, "Village")))
    t.begin_turn("bard")
    t.act("power_action", power="bard.eucatastrophe")
    assert next(q for q in t.state.quests if q.id == "q90").progress == 2
    assert t.hero("bard").power("bard.eucatastrophe").exhausted


def test_eucatastrophe_without_a_quest_gives_a_spark() -> None:
    t = bard_table()
    t.edit(give("bard", "bard.eucatastrophe"))
    t.edit(at("bard", "Village"))
    t.begin_turn("bard")
    t.act("power_action", power="bard.eucatastrophe")
    assert t.hero("bard").sparks == 1


def test_one_song_at_a_time_for_every_hero_there() -> None:
    t = bard_table()
    t.edit(at("bard", "Village"))
    t.edit(at("rogue", "Village"))
    t.edit(give("bard", "bard.song_of_shadows"))
    t.begin_turn("bard")
    t.act("power_action", power="bard.ballad_of_valor", target="loc:Village")
    t.act("end_action")
    t.act("take_turn", hero="rogue")
    monster_at(t, "Village")
    t.act("end_action")
    assert choice(t, "resolve_combat", approach="fight", tactic=None).detail.startswith("2 dice")
    assert choice(t, "resolve_combat", approach="elude", tactic=None).detail.startswith("1 die")


def test_singing_a_song_ends_the_other() -> None:
    t = bard_table()
    t.edit(at("bard", "Village"))
    t.edit(lambda s: setattr(s.heroes["bard"].power("bard.ballad_of_valor"), "active", True))
    t.edit(lambda s: setattr(s.heroes["bard"].power("bard.ballad_of_valor"), "target", "loc:Village"))
    t.begin_turn("bard")
    t.act("power_action", power="bard.song_of_shadows", target="loc:Village")
    assert t.hero("bard").power("bard.song_of_shadows").active
    assert not t.hero("bard").power("bard.ballad_of_valor").active
