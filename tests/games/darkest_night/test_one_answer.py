"""Questions with one meaningful answer are not asked (issue 11, "play that respects people's
time"); the same questions are asked as soon as two answers differ. Each skip is said in the
log (an ``Automatic`` event)."""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.state import Blight, Item, State
from tests.games.darkest_night.harness import Table, run_steps

NO_TACTICS = {"seer": ["seer.dowse", "seer.prophecy_of_fortune", "seer.far_sight"]}
"""The Seer with no fight tactic: one way to attack (a fight with no tactic)."""


def quiet(s: State) -> None:
    s.decks["event"].cards = []
    s.decks["event"].discard = []


def seer_at_village(sparks: int = 0, **blight_types: str) -> Any:
    def change(s: State) -> None:
        seer = s.heroes["seer"]
        seer.location, seer.sparks, seer.secrecy = "Village", sparks, 5
        s.blights["Village"] = [Blight(blight_id, kind) for blight_id, kind in blight_types.items()]

    return change


def automatic_lines(t: Table, events: list[Any]) -> list[str]:
    return [e.data["what"] for e in events if e.type == "Automatic"]


# -- an attack with one way to fight (DN 12.1, 12.3) -------------------------------------


def test_an_attack_with_one_way_to_fight_is_not_asked_again() -> None:
    """DN 12.1: attacking, the hero must fight; with no tactic to choose, the attack action
    is the whole decision: the fight is rolled at once and the log says so."""
    t = Table.start(powers=NO_TACTICS)
    t.edit(quiet).edit(seer_at_village(b90="Skeletons"))
    t.begin_turn("seer")
    events = t.act("attack", blight="b90", dice=[6])
    assert "Seer fights with no tactic" in automatic_lines(t, events)
    assert "CombatStarted" in t.types(events) and "DiceRolled" in t.types(events)
    assert t.state.blights["Village"] == []  # the 6 beat the Skeletons' might
    assert t.hero("seer").secrecy == 4  # the attack's secrecy either way (DN 12.1)
    assert t.decision is None or t.decision.kind != "combat"


def test_an_attack_with_sparks_still_asks_before_the_roll() -> None:
    """DN 4.2: skipping the fight-or-yield question keeps the spark decision: the roll waits."""
    t = Table.start(powers=NO_TACTICS)
    t.edit(quiet).edit(seer_at_village(sparks=1, b90="Skeletons"))
    t.begin_turn("seer")
    t.act("attack", blight="b90")
    assert t.decision.kind == "roll"
    assert [c.args for c in t.choices() if c.type == "roll_dice"] == [{}, {"sparks": 1}]


def test_an_attack_with_a_tactic_asks_which_way_and_offers_no_yield() -> None:
    """DN 12.1: with a tactic the way to fight is a real choice and is asked; yielding, not
    resisting a foe (DN 12.3), is never an answer to the hero's own attack."""
    t = Table.start(powers={"crusader": ["crusader.wrath", "crusader.holy_strike", "crusader.faith"]})
    t.edit(quiet)
    t.edit(
        lambda s: (
            setattr(s.heroes["crusader"], "location", "Village"),
            setattr(s.heroes["crusader"], "sparks", 0),
        )
    )
    t.edit(lambda s: s.blights.__setitem__("Village", [Blight("b90", "Skeletons")]))
    t.begin_turn("crusader")
    t.act("attack", blight="b90")
    assert t.decision.kind == "combat"
    types = [c.type for c in t.choices() if c.type in ("resolve_combat", "yield")]
    assert len(types) >= 2 and set(types) == {"resolve_combat"}


def test_attacking_the_necromancer_with_one_way_rolls_at_once() -> None:
    """DN 12.2, 12.1: the hero's own attack on the Necromancer is a fight; with no tactic,
    the attack action is the whole decision."""
    t = Table.start(powers=NO_TACTICS)
    t.edit(quiet).edit(seer_at_village())
    t.edit(lambda s: setattr(s, "necromancer", "Village"))
    t.begin_turn("seer")
    events = t.act("attack_necromancer", dice=[1])
    assert "Seer fights with no tactic" in automatic_lines(t, events)
    # The failed fight's wound (DN 12.2): a grace or death, so the grace (DN 13.1).
    assert "Seer spends 1 grace to survive the wound" in automatic_lines(t, events)


def test_a_monster_that_attacks_the_hero_is_still_asked_with_yield() -> None:
    """DN 12.3: facing a foe (not attacking), pulling punches is a real answer: the question
    with one way to roll and yield is asked."""
    t = Table.start(powers=NO_TACTICS)
    t.edit(quiet).edit(seer_at_village())
    t.begin_turn("seer")
    run_steps(
        t,
        [{"op": "fight", "hero": "seer", "foe": "Scout", "strength": 0, "awareness": 5, "fail": []}],
    )
    assert t.decision.kind == "combat"
    assert [c.type for c in t.choices() if c.type in ("resolve_combat", "yield")] == [
        "resolve_combat",
        "yield",
    ]


# -- Bottled Magic on a fight already won (DN 15.0) --------------------------------------


def fight_with_bottled_magic(t: Table, win: list[dict[str, Any]] | None = None) -> None:
    t.edit(quiet).edit(seer_at_village())
    t.edit(lambda s: s.heroes["seer"].items.append(Item("i90", "bottled_magic")))
    t.begin_turn("seer")
    fight = {"op": "fight", "hero": "seer", "foe": "Ghoul", "strength": 4, "awareness": 3, "fail": []}
    run_steps(t, [fight | ({"win": win} if win is not None else {})])


def test_bottled_magic_is_not_offered_on_a_fight_already_won() -> None:
    """DN 15.0: three more dice cannot change a won fight whose successes count for nothing:
    the roll is kept, the item stays, and the log says so."""
    t = Table.start(powers=NO_TACTICS)
    fight_with_bottled_magic(t)
    events = t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[5])
    assert "Seer keeps the roll" in automatic_lines(t, events)
    assert t.decision is None or t.decision.kind != "after_roll"
    assert t.hero("seer").item("i90") is not None


def test_bottled_magic_is_offered_on_a_fight_lost() -> None:
    t = Table.start(powers=NO_TACTICS)
    fight_with_bottled_magic(t)
    t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[2])
    assert t.decision.kind == "after_roll"
    assert [c.type for c in t.choices() if c.type in ("accept_roll", "use_roll_item")] == [
        "accept_roll",
        "use_roll_item",
    ]


def test_bottled_magic_is_offered_on_a_won_fight_whose_successes_count() -> None:
    """DN 16.2: a win that scales with its successes (a quest's progress) gains from more dice."""
    t = Table.start(powers=NO_TACTICS)
    fight_with_bottled_magic(t, win=[{"op": "gain_secrecy", "n": "$successes"}])
    t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[5])
    assert t.decision.kind == "after_roll"


def test_a_charm_is_not_offered_on_a_fight_already_won() -> None:
    """DN 15.0: rerolling a won fight whose successes count for nothing could only lose it:
    the roll is kept, the Charm stays, and the log says why."""
    t = Table.start(powers=NO_TACTICS)
    t.edit(quiet).edit(seer_at_village())
    t.edit(lambda s: s.heroes["seer"].items.append(Item("i90", "charm")))
    t.begin_turn("seer")
    run_steps(t, [{"op": "fight", "hero": "seer", "foe": "Ghoul", "strength": 4, "awareness": 3, "fail": []}])
    events = t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[5])
    assert t.decision is None or t.decision.kind != "after_roll"
    (kept,) = [e.data for e in events if e.type == "Automatic" and e.data["what"] == "Seer keeps the roll"]
    assert kept["why"] == "the fight is won: a reroll could only lose it"
    assert t.hero("seer").item("i90") is not None


def test_a_charm_is_offered_on_a_fight_lost() -> None:
    t = Table.start(powers=NO_TACTICS)
    t.edit(quiet).edit(seer_at_village())
    t.edit(lambda s: s.heroes["seer"].items.append(Item("i90", "charm")))
    t.begin_turn("seer")
    run_steps(t, [{"op": "fight", "hero": "seer", "foe": "Ghoul", "strength": 4, "awareness": 3, "fail": []}])
    t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[2])
    assert t.decision.kind == "after_roll"


# -- a free tactic outdoes no tactic (DN 12.0, 12.1) --------------------------------------


def valkyrie_attacks(powers: list[str], **options: Any) -> Table:
    t = Table.start(powers={"valkyrie": powers}, options=options or None)
    t.edit(quiet).edit(
        lambda s: (
            setattr(s.heroes["valkyrie"], "location", "Village"),
            setattr(s.heroes["valkyrie"], "sparks", 0),
        )
    )
    t.edit(lambda s: s.blights.__setitem__("Village", [Blight("b90", "Skeletons")]))
    return t


def test_an_attack_with_a_free_tactic_is_fought_with_it() -> None:
    """DN 12.0: Skewer (fight with 2 dice, no cost, no exhaustion) beside no tactic: fewer
    dice for nothing is no answer, so the attack is fought with Skewer at once; the attack's
    button says so, with its odds; the log says why."""
    t = valkyrie_attacks(["valkyrie.skewer", "valkyrie.winged_leap", "valkyrie.shield_maiden"])
    t.begin_turn("valkyrie")
    attack = next(c for c in t.choices() if c.type == "attack")
    assert attack.detail.startswith("fight: 2 dice vs might 5 (Skewer 2 dice) — 56% with Skewer")
    events = t.act("attack", blight="b90", dice=[5, 1])
    (fought,) = [e.data for e in events if e.type == "Automatic" and "fights" in e.data["what"]]
    assert fought == {
        "hero": "valkyrie",
        "what": "Valkyrie fights with Skewer",
        "why": "Skewer costs nothing and rolls more dice than no tactic, DN 12.0",
    }
    assert t.state.last_roll["sources"] == [["Skewer", 2]] and t.state.blights["Village"] == []


def test_a_tactic_with_a_cost_keeps_the_question() -> None:
    """DN 12.0: Wrath (4 dice for 1 grace) beside Holy Strike (2 dice, free) is a real
    choice: asked (no tactic, outdone by Holy Strike, still listed)."""
    t = Table.start(powers={"crusader": ["crusader.wrath", "crusader.holy_strike", "crusader.faith"]})
    t.edit(quiet).edit(
        lambda s: (
            setattr(s.heroes["crusader"], "location", "Village"),
            setattr(s.heroes["crusader"], "sparks", 0),
        )
    )
    t.edit(lambda s: s.blights.__setitem__("Village", [Blight("b90", "Skeletons")]))
    t.begin_turn("crusader")
    t.act("attack", blight="b90")
    assert t.decision.kind == "combat"
    assert {c.args["tactic"] for c in t.choices() if c.type == "resolve_combat"} == {
        None,
        "crusader.wrath",
        "crusader.holy_strike",
    }


def test_a_dual_class_hero_is_asked_whether_to_spend_a_tactic() -> None:
    """DN 20.2.3: a dual-class hero may not use one tactic in two combats running: fighting
    with none keeps every tactic free for the next, a real choice."""
    from app.games.darkest_night.rules.powers import free_way

    t = valkyrie_attacks(["valkyrie.skewer", "valkyrie.winged_leap", "valkyrie.shield_maiden"])
    valkyrie = t.hero("valkyrie")
    skewer = ("fight", "valkyrie.skewer", {"approach": "fight", "dice": 2})
    assert free_way(valkyrie, skewer)
    t.edit(lambda s: setattr(s.heroes["valkyrie"], "turns_per_round", 2))
    assert not free_way(t.hero("valkyrie"), skewer)


# -- the Holy Relic against 7 (DN 12.2, 15.2) ---------------------------------------------


def test_the_relics_plus_one_is_not_refused_against_seven() -> None:
    """DN 15.2, 12.2: refusing the relic's +1 keeps it free to hand on, but against the
    Necromancer's 7 it is the only way to a success: refused, the fight is a sure loss. It
    is taken without asking, and the log says why."""
    t = Table.start(powers=NO_TACTICS)
    t.edit(quiet).edit(seer_at_village())
    t.edit(
        lambda s: (
            setattr(s, "necromancer", "Village"),
            s.heroes["seer"].items.append(Item("i90", "holy_relic")),
        )
    )
    t.edit(lambda s: setattr(s.heroes["prince"], "location", "Village"))  # a hero who could take it
    t.begin_turn("seer")
    events = t.act("attack_necromancer", dice=[6])
    assert t.state.last_roll["relic"] and t.state.last_roll["successes"] == 1
    assert "Seer takes the Holy Relic's +1" in automatic_lines(t, events)


def test_the_relics_plus_one_may_be_refused_against_six() -> None:
    """DN 15.2: against a blight's might (6 at most) the roll may succeed without it:
    refusing it is a real choice."""
    t = Table.start(powers=NO_TACTICS)
    t.edit(quiet).edit(seer_at_village(b90="Shades"))
    t.edit(lambda s: s.heroes["seer"].items.append(Item("i90", "holy_relic")))
    t.edit(lambda s: setattr(s.heroes["prince"], "location", "Village"))
    t.begin_turn("seer")
    t.act("attack", blight="b90")
    assert t.decision.kind == "roll" and any(c.type == "refuse_relic" for c in t.choices())


# -- a wound with grace to spend (DN 13.1, 14.3.2) ---------------------------------------


def test_a_wound_whose_only_other_answer_is_death_spends_the_grace() -> None:
    """DN 13.1: spend 1 grace or die: with no one able to spare the wound, the grace is
    spent for the player, and the log says so."""
    t = Table.start(powers=NO_TACTICS)
    t.edit(quiet).edit(seer_at_village())
    t.begin_turn("seer")
    grace = t.hero("seer").grace
    run_steps(t, [{"op": "wound", "hero": "seer", "why": "a test"}])
    assert t.decision is None or t.decision.kind != "wound"
    assert t.hero("seer").grace == grace - 1 and not t.hero("seer").dead
    assert "Seer spends 1 grace to survive the wound" in automatic_lines(t, t.events)


def test_a_wound_that_shield_maiden_could_spare_is_asked() -> None:
    """DN 14.3.2: the Valkyrie beside the hero taking his turn may spare the wound (Shield
    Maiden) and save his grace: spending it is no longer the one sensible answer."""
    t = Table.start()
    t.edit(quiet)
    for hero in ("prince", "valkyrie"):
        t.edit(lambda s, hero=hero: setattr(s.heroes[hero], "location", "Village"))
    t.begin_turn("prince")
    run_steps(t, [{"op": "wound", "hero": "prince", "why": "a test"}])
    assert t.decision.kind == "wound"
    assert [c.type for c in t.choices() if c.type in ("spend_grace", "accept_death")] == [
        "spend_grace",
        "accept_death",
    ]
    assert any(c.type == "use_power" and c.args["power"] == "valkyrie.shield_maiden" for c in t.choices())
