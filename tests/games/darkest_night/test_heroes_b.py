"""Heroes as data (DN 14.0): the Knight, Paragon, Tinker and Wayfarer, and the rulebook's
own examples of the Prince, Valkyrie, Seer and Crusader (DN 14.1, the Extended Example)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from app.games.darkest_night.content import CardDef, load
from app.games.darkest_night.engine import Ctx
from app.games.darkest_night.rules.powers import boosts
from app.games.darkest_night.state import Blight, Item, Placed, Power, State
from tests.games.darkest_night.harness import Table, run_steps

HEROES = {  # grace / secrecy (shared/facts) and the power the rulebook names that needs quests
    "knight": (5, 6, "knight.oath_of_service"),
    "paragon": (3, 4, "paragon.man_of_the_hour"),
    "tinker": (4, 6, "tinker.stabilizing_gadget"),
    "wayfarer": (5, 5, "wayfarer.good_samaritan"),
}
REVIEWED = {"prince": (4, 3), "valkyrie": (5, 5), "seer": (4, 6), "crusader": (5, 4)}
OATHS = ["oath_of_purging", "oath_of_valor", "oath_of_defense", "oath_of_vengeance", "oath_of_service"]


# -- helpers ---------------------------------------------------------------------------------


def no_events(s: State) -> None:
    s.decks["event"].cards = []
    s.decks["event"].discard = []


def clear_blights(s: State) -> None:
    for location in s.blights:
        s.blights[location] = []


def quiet(s: State) -> None:
    no_events(s)
    clear_blights(s)


def at(hero: str, location: str, **fields: Any) -> Callable[[State], None]:
    def change(s: State) -> None:
        s.heroes[hero].location = location
        for key, value in fields.items():
            setattr(s.heroes[hero], key, value)

    return change


def give(
    hero: str, *powers: str, active: bool = False, data: dict[str, Any] | None = None
) -> Callable[[State], None]:
    def change(s: State) -> None:
        for power in powers:
            s.heroes[hero].deck = [p for p in s.heroes[hero].deck if p != power]
            s.heroes[hero].powers.append(Power(power, active=active, data=dict(data or {})))

    return change


def knight_table(*powers: str, others: Sequence[str] = ("prince", "valkyrie", "seer")) -> Table:
    t = Table.start(
        heroes=["knight", *others],
        powers={"knight": ["knight.charge", "knight.hard_ride", "knight.sprint"]},
    )
    t.edit(quiet)
    t.edit(give("knight", *powers))
    return t


def with_dice(t: Table, type_: str, dice: Sequence[int], **args: Any) -> list[str]:
    """Send a command that leads to a roll, whether the roll happens at once or waits for a
    "roll" decision (the player rolls when ready)."""
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


def tactic(t: Table, power: str | None, approach: str = "fight") -> dict[str, Any]:
    return next(
        c.args
        for c in t.choices()
        if c.type == "resolve_combat" and c.args["tactic"] == power and c.args["approach"] == approach
    )


def detail(t: Table, power: str | None, approach: str = "fight") -> str:
    args = tactic(t, power, approach)
    return next(c.detail for c in t.choices() if c.type == "resolve_combat" and c.args == args)


def attack_detail(t: Table, type_: str = "attack", **args: Any) -> str:
    """The attack's own button: its fight as it will be made (a free tactic that outdoes
    none is taken without asking, DN 12.0), dice, sources and odds."""
    return next(c.detail for c in t.choices() if c.type == type_ and c.args == args)


def again(t: Table, hero: str) -> list[str]:
    """Give the hero another turn this round (to reach a start-of-turn moment)."""
    t.edit(lambda s: setattr(s.heroes[hero], "turns_left", 1))
    return t.log(t.begin_turn(hero))


def end_turn(t: Table) -> list[str]:
    return t.log(t.act("end_action"))


def place_quest(monkeypatch: pytest.MonkeyPatch, t: Table, location: str, progress: int = 2) -> str:
    """A quest card of our own in play at ``location`` (progress needed, time 5)."""
    card = CardDef(
        "hb_test_quest",
        "Test Quest",
        "a test quest",
        data={
            "progress": progress,
            "time": 5,
            "action_text": "Help: 2 progress.",
            "action": [{"op": "quest_progress", "n": 2}],
            "completed": [{"op": "gain_spark", "n": 1}],
            "expired": [],
        },
    )
    monkeypatch.setitem(load().quests, card.id, card)
    t.edit(lambda s: s.quests.append(Placed("q99", card.id, location)))
    return "q99"


# -- the decks -------------------------------------------------------------------------------


@pytest.mark.parametrize("hero_id", sorted(HEROES) + sorted(REVIEWED))
def test_each_hero_has_13_powers_5_starting(hero_id: str) -> None:
    hero = load().heroes[hero_id]
    grace, secrecy = (HEROES.get(hero_id) or REVIEWED[hero_id])[:2]
    assert (hero.grace, hero.secrecy) == (grace, secrecy)
    assert len(hero.powers) == 13 and sum(p.starting for p in hero.powers) == 5
    assert all(p.text and p.id.startswith(hero_id + ".") for p in hero.powers)


@pytest.mark.parametrize("hero_id", sorted(HEROES))
def test_the_rulebooks_quest_power_is_marked(hero_id: str) -> None:
    """DN 20.6: these powers are removed without quests; only they are marked."""
    named = HEROES[hero_id][2]
    powers = load().heroes[hero_id].powers
    assert [p.id for p in powers if p.requires_quests] == [named]
    assert not next(p for p in powers if p.id == named).starting


def test_without_quests_the_oath_of_service_is_removed() -> None:
    t = Table.start(heroes=["knight", "paragon", "tinker", "wayfarer"], options={"no_quests": True})
    for hero_id, (_, _, named) in HEROES.items():
        hero = t.hero(hero_id)
        assert named not in hero.deck and hero.power(named) is None
        assert len(hero.deck) + len(hero.powers) == 12


def test_every_hero_can_be_started_and_plays_a_turn() -> None:
    t = Table.start(heroes=["knight", "paragon", "tinker", "wayfarer"])
    t.edit(no_events)
    for hero in ("knight", "paragon", "tinker", "wayfarer"):
        t.begin_turn(hero)
        # The action step then ends by itself; after the last hero the Necromancer moves.
        with_dice(t, "pray", [1, 1, 1] if hero == "wayfarer" else [1, 1])
    assert t.state.round == 2


# -- the rulebook's examples (DN 14.1, Extended Example) --------------------------------------


def test_inspire_on_the_crusader_adds_three_dice_once() -> None:
    """DN 14.1: the Prince activates Inspire on the Crusader, who may add 3 dice to a roll;
    using it deactivates Inspire."""
    t = Table.start()
    t.edit(no_events)
    t.begin_turn("prince")
    t.act("power_action", power="prince.inspire", target="hero:crusader")
    inspire = t.hero("prince").power("prince.inspire")
    assert inspire.active and inspire.target == "hero:crusader"
    t.act("end_action")
    t.edit(lambda s: setattr(s.heroes["crusader"], "grace", 1))
    t.begin_turn("crusader")
    t.act("pray")
    assert t.decision.kind == "roll" and t.decision.step["dice"] == 3  # 2 + Faith's 1
    # With Inspire used nothing more can be added: the 6 dice are rolled (issue 11).
    lines = t.log(t.act("use_boost", power="prince.inspire", dice=[1, 1, 1, 1, 3, 4]))
    assert t.state.last_roll["dice"] == 6
    assert any("rolls 1, 1, 1, 1, 3, 4" in line for line in lines), lines
    assert t.hero("crusader").grace == 3
    assert not t.hero("prince").power("prince.inspire").active


def test_inspire_again_moves_it() -> None:
    """DN 14.1: activating Inspire on another hero moves it; the Crusader loses it."""
    t = Table.start()
    t.edit(no_events)
    t.edit(lambda s: setattr(s.heroes["prince"].power("prince.inspire"), "active", True))
    t.edit(lambda s: setattr(s.heroes["prince"].power("prince.inspire"), "target", "hero:crusader"))
    t.begin_turn("prince")
    t.act("power_action", power="prince.inspire", target="hero:valkyrie")
    assert t.hero("prince").power("prince.inspire").target == "hero:valkyrie"
    reader = Ctx.reader(t.state)
    assert boosts(reader, t.hero("valkyrie"), "fight") and not boosts(reader, t.hero("crusader"), "fight")


def test_dowse_searches_without_rolling_until_the_seer_hides() -> None:
    """DN 14.1: Dowse exhausts to take the search result without a roll; it cannot be used
    again until she refreshes it by hiding."""
    t = Table.start(powers={"seer": ["seer.dowse", "seer.premonition", "seer.destiny"]})
    t.edit(quiet)
    t.edit(at("seer", "Village"))
    t.edit(lambda s: s.decks["map"].cards.insert(0, "map101"))  # the Village: a Psion Stone
    t.begin_turn("seer")
    lines = t.log(t.act("power_action", power="seer.dowse"))  # no dice rigged: none rolled
    assert any("Psion Stone" in line for line in lines), lines
    assert [i.kind for i in t.hero("seer").items] == ["psion_stone"]
    assert t.hero("seer").power("seer.dowse").exhausted
    end_turn(t)
    again(t, "seer")
    assert not any(c.args.get("power") == "seer.dowse" for c in t.choices())
    t.act("hide")
    assert not t.hero("seer").power("seer.dowse").exhausted
    end_turn(t)
    again(t, "seer")
    assert any(c.args.get("power") == "seer.dowse" for c in t.choices())


def test_wrath_beats_the_necromancer_with_the_relic() -> None:
    """Extended Example: the Crusader (secrecy 0) is attacked by the Necromancer; Wrath spends
    1 grace to fight with 4 dice: 2, 3, 5, 6, and the Holy Relic makes the 6 a 7."""
    t = Table.start()

    def position(s: State) -> None:
        no_events(s)
        s.necromancer = "Castle"
        s.blights["Castle"] = [Blight("b90", "Skeletons"), Blight("b91", "Shroud")]
        crusader = s.heroes["crusader"]
        crusader.location, crusader.secrecy, crusader.grace = "Castle", 2, 3
        crusader.items.append(Item("i90", "holy_relic"))

    t.edit(position)
    t.begin_turn("crusader")
    assert t.hero("crusader").secrecy == 0 and t.decision.kind == "combat"
    assert detail(t, "crusader.wrath").startswith("4 dice vs 7, spend 1 grace")
    with_dice(t, "resolve_combat", [2, 3, 5, 6], **tactic(t, "crusader.wrath"))
    assert t.hero("crusader").grace == 2
    assert [b.type for b in t.state.blights["Castle"]] == ["Skeletons"]  # he sacrificed the Shroud


def test_skewer_fights_with_two_dice() -> None:
    """DN 12.0, Extended Example: Skewer lets the Valkyrie fight with 2 dice."""
    t = Table.start(
        powers={"valkyrie": ["valkyrie.skewer", "valkyrie.winged_leap", "valkyrie.shield_maiden"]}
    )
    t.edit(quiet)
    t.edit(at("valkyrie", "Village"))
    t.edit(lambda s: s.blights["Village"].append(Blight("b90", "Skeletons")))
    t.begin_turn("valkyrie")
    assert attack_detail(t, blight="b90").startswith(
        "fight: 2 dice vs might 5 (Skewer 2 dice) — 56% with Skewer"
    )
    lines = with_dice(t, "attack", [2, 5], blight="b90")  # Skewer, free, outdoes no tactic
    assert any("rolls 2, 5" in line for line in lines), lines
    assert t.state.blights["Village"] == []


def test_consecration_attacks_with_three_dice() -> None:
    t = Table.start(powers={"crusader": ["crusader.wrath", "crusader.faith", "crusader.consecration"]})
    t.edit(quiet)
    t.edit(at("crusader", "Village"))
    t.edit(lambda s: s.blights["Village"].append(Blight("b90", "Skeletons")))
    t.begin_turn("crusader")
    # Consecration is itself the attack, one way to fight: not asked again (DN 12.1, issue 11)
    lines = with_dice(t, "power_action", [1, 2, 3], power="crusader.consecration")
    done = "Crusader fights with Consecration (done for you: the only way to make this attack, DN 12.1)."
    assert done in lines
    assert t.state.last_roll["dice"] == 3
    t.act("spend_grace")  # the Skeletons' defense is a wound
    crusader = t.hero("crusader")
    assert crusader.power("crusader.consecration").exhausted
    assert crusader.secrecy == 3 and crusader.grace == 4  # the attack's secrecy, Skeletons' wound


# -- the Knight's Oaths ----------------------------------------------------------------------


def test_oath_of_purging_fulfilled_by_destroying_a_blight() -> None:
    t = knight_table("knight.oath_of_purging")
    t.edit(at("knight", "Village", grace=3))
    t.edit(lambda s: s.blights["Village"].append(Blight("b90", "Shroud")))
    t.begin_turn("knight")
    t.act("power_action", power="knight.oath_of_purging")
    assert t.hero("knight").power("knight.oath_of_purging").active
    end_turn(t)
    again(t, "knight")
    assert attack_detail(t, blight="b90").startswith("fight: 4 dice vs might 5")  # Charge 2 + the Oath's 2
    with_dice(t, "attack", [1, 1, 1, 6], blight="b90")  # Charge, free, outdoes no tactic
    knight = t.hero("knight")
    assert t.state.blights["Village"] == []
    assert knight.grace == 4 and not knight.power("knight.oath_of_purging").active


def test_oath_of_purging_cannot_be_sworn_in_the_monastery_and_breaks_there() -> None:
    t = knight_table("knight.oath_of_purging")
    t.begin_turn("knight")
    assert not any(c.args.get("power") == "knight.oath_of_purging" for c in t.choices())
    t.edit(lambda s: setattr(s.heroes["knight"].power("knight.oath_of_purging"), "active", True))
    lines = end_turn(t)
    knight = t.hero("knight")
    assert knight.grace == 4 and not knight.power("knight.oath_of_purging").active, lines


def test_one_oath_at_a_time() -> None:
    t = knight_table("knight.oath_of_purging", "knight.oath_of_valor")
    t.edit(at("knight", "Village"))
    t.edit(lambda s: s.blights["Village"].append(Blight("b90", "Shroud")))
    t.edit(lambda s: setattr(s.heroes["knight"].power("knight.oath_of_purging"), "active", True))
    t.begin_turn("knight")
    t.act("power_action", power="knight.oath_of_valor")
    knight = t.hero("knight")
    assert knight.power("knight.oath_of_valor").active
    assert not knight.power("knight.oath_of_purging").active


def test_oath_of_valor_broken_away_from_blights() -> None:
    t = knight_table("knight.oath_of_valor")
    t.edit(at("knight", "Village"))
    t.begin_turn("knight")
    assert not any(c.args.get("power") == "knight.oath_of_valor" for c in t.choices())  # no blight
    t.edit(lambda s: setattr(s.heroes["knight"].power("knight.oath_of_valor"), "active", True))
    end_turn(t)
    knight = t.hero("knight")
    assert knight.grace == 4 and not knight.power("knight.oath_of_valor").active


def test_oath_of_valor_fulfilled_takes_an_oath_from_the_deck() -> None:
    t = knight_table("knight.oath_of_valor")
    t.edit(at("knight", "Village"))
    t.edit(lambda s: s.blights["Village"].append(Blight("b90", "Shroud")))
    t.edit(lambda s: setattr(s.heroes["knight"].power("knight.oath_of_valor"), "active", True))
    t.begin_turn("knight")
    assert attack_detail(t, blight="b90").startswith("fight: 3 dice vs might 5")  # Charge 2 + Valor 1
    with_dice(t, "attack", [6, 1, 1], blight="b90")
    assert not t.hero("knight").power("knight.oath_of_valor").active
    assert t.decision.kind == "hb_seek_oath"
    offered = {c.args.get("power") for c in t.choices() if c.type == "take_oath"}
    assert offered == {f"knight.{o}" for o in OATHS if o != "oath_of_valor"}
    t.act("take_oath", power="knight.oath_of_defense")
    knight = t.hero("knight")
    assert knight.power("knight.oath_of_defense") is not None and "knight.oath_of_defense" not in knight.deck
    assert knight.grace == 5  # not broken: the turn ends with no blight here, but the Oath is over
    end_turn(t)
    assert t.hero("knight").grace == 5


def test_oath_of_defense() -> None:
    t = knight_table("knight.oath_of_defense")
    t.edit(at("knight", "Village", grace=3))
    t.edit(lambda s: s.blights["Village"].append(Blight("b90", "Shroud")))
    t.begin_turn("knight")
    t.act("power_action", power="knight.oath_of_defense")
    oath = t.hero("knight").power("knight.oath_of_defense")
    assert oath.active and oath.data["oath_place"] == "Village"
    end_turn(t)
    again(t, "knight")
    assert t.hero("knight").grace == 4  # +1 at the start of the turn
    t.edit(lambda s: s.blights["Village"].clear())  # the blight is gone
    end_turn(t)
    knight = t.hero("knight")
    assert knight.grace == 5 and not knight.power("knight.oath_of_defense").active
    assert "oath_place" not in knight.power("knight.oath_of_defense").data


def test_oath_of_defense_broken_by_leaving() -> None:
    t = knight_table("knight.oath_of_defense")
    t.edit(at("knight", "Village"))
    t.edit(lambda s: s.blights["Village"].append(Blight("b90", "Shroud")))
    t.begin_turn("knight")
    t.act("power_action", power="knight.oath_of_defense")
    end_turn(t)
    again(t, "knight")
    t.act("travel", to="Forest")
    end_turn(t)
    knight = t.hero("knight")
    assert knight.grace == 0 and not knight.power("knight.oath_of_defense").active


def test_oath_of_vengeance() -> None:
    """Fulfilled when the Necromancer sacrifices a blight to the Knight (DN 12.2)."""
    t = knight_table("knight.oath_of_vengeance")
    t.edit(at("knight", "Castle", grace=3))
    t.edit(lambda s: s.heroes["knight"].items.append(Item("i90", "holy_relic")))
    t.edit(
        lambda s: (setattr(s, "necromancer", "Castle"), s.blights["Castle"].append(Blight("b90", "Spies")))
    )
    t.edit(lambda s: setattr(s.heroes["knight"].power("knight.oath_of_vengeance"), "active", True))
    t.begin_turn("knight")
    # Charge 2 + Vengeance 2, the relic's +1 to the highest die (DN 12.2, 15.2)
    assert attack_detail(t, "attack_necromancer").startswith("fight only: 4 dice vs 7")
    with_dice(t, "attack_necromancer", [6, 1, 1, 1])  # the relic: 7
    assert t.state.blights["Castle"] == [] and t.state.result is None
    knight = t.hero("knight")
    assert knight.grace == 4 and knight.sparks == 1
    assert not knight.power("knight.oath_of_vengeance").active


def test_oath_of_vengeance_broken_far_from_the_necromancer() -> None:
    t = knight_table("knight.oath_of_vengeance")
    t.edit(at("knight", "Mountains"))
    t.edit(lambda s: setattr(s, "necromancer", "Ruins"))  # not adjacent to the Mountains
    t.edit(lambda s: setattr(s.heroes["knight"].power("knight.oath_of_vengeance"), "active", True))
    t.begin_turn("knight")
    end_turn(t)
    assert t.hero("knight").grace == 4
    assert not t.hero("knight").power("knight.oath_of_vengeance").active


def test_oath_of_service_fulfilled(monkeypatch: pytest.MonkeyPatch) -> None:
    t = knight_table("knight.oath_of_service", "knight.oath_of_purging")
    t.edit(at("knight", "Village"))
    quest = place_quest(monkeypatch, t, "Village")
    t.edit(lambda s: setattr(s.heroes["knight"].power("knight.oath_of_purging"), "active", True))
    t.begin_turn("knight")
    t.act("power_action", power="knight.oath_of_service")
    knight = t.hero("knight")
    assert knight.power("knight.oath_of_service").active
    assert knight.power("knight.oath_of_service").data["oath_quest"] == quest
    assert not knight.power("knight.oath_of_purging").active
    end_turn(t)
    again(t, "knight")
    assert t.hero("knight").sparks == 1  # at the quest's location
    t.act("quest_action", quest=quest)
    assert t.state.quests == [] and t.hero("knight").sparks == 2  # the quest's reward
    end_turn(t)
    knight = t.hero("knight")
    assert knight.grace == 7 and not knight.power("knight.oath_of_service").active


def test_oath_of_service_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    t = knight_table("knight.oath_of_service")
    t.edit(at("knight", "Village"))
    place_quest(monkeypatch, t, "Village")
    t.begin_turn("knight")
    t.act("power_action", power="knight.oath_of_service")
    end_turn(t)
    t.edit(lambda s: s.quests.clear())  # it left play between his turns
    again(t, "knight")
    knight = t.hero("knight")
    assert knight.grace == 4 and not knight.power("knight.oath_of_service").active


def test_oath_of_service_needs_a_quest_here() -> None:
    t = knight_table("knight.oath_of_service", "knight.oath_of_valor")
    t.edit(at("knight", "Village"))
    t.edit(lambda s: s.blights["Village"].append(Blight("b90", "Skeletons")))
    t.edit(lambda s: setattr(s.heroes["knight"].power("knight.oath_of_valor"), "active", True))
    t.begin_turn("knight")
    t.act("power_action", power="knight.oath_of_service")
    knight = t.hero("knight")
    assert not knight.power("knight.oath_of_service").active and knight.power("knight.oath_of_valor").active


def test_oathkeeper_gives_a_spark_while_sworn() -> None:
    t = knight_table("knight.oathkeeper", "knight.oath_of_vengeance")
    t.edit(at("knight", "Village"))  # next to the Necromancer (the Ruins): the Oath holds
    t.begin_turn("knight")
    assert t.hero("knight").sparks == 0
    t.act("power_action", power="knight.oath_of_vengeance")
    end_turn(t)
    again(t, "knight")
    assert t.hero("knight").sparks == 1


def test_hard_ride_moves_twice_without_secrecy() -> None:
    t = knight_table()
    t.edit(lambda s: setattr(s.heroes["knight"], "secrecy", 2))
    t.begin_turn("knight")
    t.act("power_action", power="knight.hard_ride", to="Village")
    assert t.decision.kind == "hb_move"
    t.act("move_to", to="Swamp")
    assert t.hero("knight").location == "Swamp" and t.hero("knight").secrecy == 2


# -- the Paragon, Tinker and Wayfarer --------------------------------------------------------


def leader_table(hero: str, *powers: str) -> Table:
    t = Table.start(heroes=[hero, "prince", "valkyrie", "seer"])
    t.edit(quiet)
    t.edit(give(hero, *powers))
    return t


def test_words_of_comfort_heals_another_hero() -> None:
    t = leader_table("paragon", "paragon.words_of_comfort")
    t.edit(lambda s: setattr(s.heroes["seer"], "grace", 1))
    t.begin_turn("paragon")
    t.act("power_action", power="paragon.words_of_comfort", target="hero:seer")
    assert t.hero("seer").grace == 3 and t.hero("paragon").grace == 3


def test_exemplar_gives_its_target_a_fight_die() -> None:
    t = leader_table("paragon")
    t.begin_turn("paragon")
    t.act("power_action", power="paragon.exemplar", target="hero:valkyrie")
    end_turn(t)
    t.edit(at("valkyrie", "Village"))
    t.edit(lambda s: s.blights["Village"].append(Blight("b90", "Skeletons")))
    t.begin_turn("valkyrie")
    assert "Exemplar +1" in attack_detail(t, blight="b90")
    assert attack_detail(t, blight="b90").startswith("fight: 3 dice")  # Skewer 2, Exemplar 1


def test_take_the_blow_any_time() -> None:
    t = leader_table("paragon", "paragon.take_the_blow")
    t.edit(lambda s: setattr(s.heroes["prince"], "grace", 0))
    t.begin_turn("prince")
    t.act("use_power", hero="paragon", power="paragon.take_the_blow")
    assert t.decision.kind == "hb_pick_hero"
    assert {c.args.get("target") for c in t.choices() if c.type == "pick_hero"} == {
        "prince",
        "valkyrie",
        "seer",
    }
    t.act("pick_hero", target="prince")
    assert t.hero("prince").grace == 1 and t.hero("paragon").grace == 2
    assert t.decision.kind == "action" and t.decision.hero == "prince"  # back where it was


def test_man_of_the_hour(monkeypatch: pytest.MonkeyPatch) -> None:
    t = leader_table("paragon", "paragon.man_of_the_hour")
    t.edit(at("paragon", "Village"))
    t.edit(at("seer", "Village"))
    quest = place_quest(monkeypatch, t, "Village", progress=3)
    t.begin_turn("paragon")
    t.act("power_action", power="paragon.man_of_the_hour")
    assert next(q for q in t.state.quests if q.id == quest).progress == 1
    assert t.hero("paragon").sparks == 1 and t.hero("seer").sparks == 1 and t.hero("prince").sparks == 0
    assert t.hero("paragon").power("paragon.man_of_the_hour").exhausted


def test_stabilizing_gadget_removes_time(monkeypatch: pytest.MonkeyPatch) -> None:
    t = leader_table("tinker", "tinker.stabilizing_gadget")
    t.edit(at("tinker", "Swamp"))
    quest = place_quest(monkeypatch, t, "Swamp")
    t.edit(lambda s: setattr(s.quests[0], "time", 3))
    t.begin_turn("tinker")
    t.act("power_action", power="tinker.stabilizing_gadget")
    assert next(q for q in t.state.quests if q.id == quest).time == 1


def test_tinkers_kit_and_scrap_for_parts() -> None:
    t = leader_table("tinker", "tinker.scrap_for_parts")
    t.begin_turn("tinker")
    t.act("power_action", power="tinker.tinkers_kit")
    tinker = t.hero("tinker")
    assert [i.kind for i in tinker.items] == ["charm"] and tinker.power("tinker.tinkers_kit").exhausted
    stock = t.state.item_stock["charm"]
    end_turn(t)
    again(t, "tinker")
    t.act("power_action", power="tinker.scrap_for_parts")
    t.act("scrap_item", item=tinker.items[0].id)
    tinker = t.hero("tinker")
    assert tinker.items == [] and tinker.sparks == 2 and not tinker.power("tinker.tinkers_kit").exhausted
    assert t.state.item_stock["charm"] == stock + 1


def test_long_road_and_good_samaritan(monkeypatch: pytest.MonkeyPatch) -> None:
    t = leader_table("wayfarer", "wayfarer.good_samaritan")
    t.edit(lambda s: setattr(s.heroes["wayfarer"], "secrecy", 3))
    quest = place_quest(monkeypatch, t, "Swamp", progress=1)
    t.begin_turn("wayfarer")
    t.act("power_action", power="wayfarer.long_road", to="Village")
    t.act("move_to", to="Castle")
    wayfarer = t.hero("wayfarer")
    assert wayfarer.location == "Castle" and wayfarer.secrecy == 4
    end_turn(t)
    again(t, "wayfarer")
    t.act("power_action", power="wayfarer.good_samaritan", to="Swamp")
    wayfarer = t.hero("wayfarer")
    assert wayfarer.location == "Swamp" and wayfarer.secrecy == 5
    assert all(q.id != quest for q in t.state.quests) and wayfarer.sparks == 1  # completed: its reward


def test_shortcut_goes_anywhere_or_nowhere() -> None:
    t = leader_table("wayfarer", "wayfarer.shortcut")
    t.begin_turn("wayfarer")
    t.act("power_action", power="wayfarer.shortcut")
    assert {c.args.get("to") for c in t.choices() if c.type == "move_to"} == {
        "Mountains",
        "Castle",
        "Village",
        "Swamp",
        "Forest",
        "Ruins",
    }
    t.act("move_to", to="Ruins")
    assert t.hero("wayfarer").location == "Ruins"


# -- the reviewed powers ---------------------------------------------------------------------


def test_ride_of_the_slain_moves_and_may_attack() -> None:
    t = Table.start(
        powers={"valkyrie": ["valkyrie.skewer", "valkyrie.battle_cry", "valkyrie.ride_of_the_slain"]}
    )
    t.edit(quiet)
    t.edit(lambda s: s.blights["Village"].append(Blight("b90", "Skeletons")))
    t.begin_turn("valkyrie")
    t.act("power_action", power="valkyrie.ride_of_the_slain", to="Village")
    assert t.decision.kind == "hb_attack"
    with_dice(t, "attack_blight", [5, 1, 1], blight="b90")  # Skewer, free, outdoes no tactic
    assert t.state.last_roll["sources"] == [["Skewer", 2], ["Battle Cry", 1]]
    valkyrie = t.hero("valkyrie")
    assert t.state.blights["Village"] == [] and valkyrie.secrecy == 4
    assert valkyrie.power("valkyrie.ride_of_the_slain").exhausted


def test_shield_maiden_guards_the_hero_taking_their_turn_here() -> None:
    t = Table.start(powers={"valkyrie": ["valkyrie.skewer", "valkyrie.shield_maiden", "valkyrie.battle_cry"]})
    t.edit(quiet)
    t.edit(at("prince", "Village", grace=1))
    t.edit(at("valkyrie", "Village"))
    t.begin_turn("prince")
    t.act("use_power", hero="valkyrie", power="valkyrie.shield_maiden")
    assert t.hero("prince").flags.get("turn:safe_from_wounds")
    assert not t.hero("valkyrie").flags.get("turn:safe_from_wounds")
    run_steps(t, [{"op": "wound", "hero": "prince"}, {"op": "action_step", "hero": "prince"}])
    assert t.hero("prince").grace == 1 and not t.hero("prince").dead
    end_turn(t)
    assert not t.hero("prince").flags.get("turn:safe_from_wounds")  # it ends with the turn


def test_shield_maiden_does_not_reach_another_location() -> None:
    t = Table.start(powers={"valkyrie": ["valkyrie.skewer", "valkyrie.shield_maiden", "valkyrie.battle_cry"]})
    t.edit(quiet)
    t.edit(at("prince", "Village"))
    t.begin_turn("prince")
    t.act("use_power", hero="valkyrie", power="valkyrie.shield_maiden")
    assert not t.hero("prince").flags.get("turn:safe_from_wounds")


def test_prophecy_of_safety_reaches_anywhere_but_only_this_turn() -> None:
    t = Table.start()
    t.edit(quiet)
    t.edit(give("seer", "seer.prophecy_of_safety"))
    t.edit(at("prince", "Village"))
    t.begin_turn("prince")
    t.act("use_power", hero="seer", power="seer.prophecy_of_safety")
    assert t.hero("prince").flags.get("turn:safe_from_wounds")
    assert not t.hero("seer").flags.get("turn:safe_from_wounds")
