"""Combat (DN 12.0–12.3), wounds and death (DN 13.1–13.5)."""

from __future__ import annotations

from app.games.darkest_night.state import Blight, Item, State
from tests.games.darkest_night.harness import Table, run_steps


def no_events(s: State) -> None:
    s.decks["event"].cards = []
    s.decks["event"].discard = []


def at(hero: str, location: str, **fields: object):  # noqa: ANN201
    def change(s: State) -> None:
        s.heroes[hero].location = location
        for key, value in fields.items():
            setattr(s.heroes[hero], key, value)

    return change


def start_combat(t: Table, hero: str, foe: dict, win=(), fail=()) -> None:  # noqa: ANN001
    """A combat now, during the hero's turn (as an event card would bring)."""
    run_steps(
        t,
        [
            {
                "op": "fight",
                "hero": hero,
                "foe": foe["name"],
                "strength": foe["strength"],
                "awareness": foe["awareness"],
                "win": list(win),
                "fail": list(fail),
            }
        ],
    )


def test_skewer_against_a_ghoul_fails() -> None:
    """DN 12.0: the Valkyrie fights a Ghoul (4/3) with Skewer's 2 dice, rolls 2 and 3: fails."""
    t = Table.start(powers={"valkyrie": ["valkyrie.skewer", "valkyrie.winged_leap", "valkyrie.battle_cry"]})
    t.edit(no_events)
    t.begin_turn("valkyrie")
    start_combat(
        t, "valkyrie", {"name": "Ghoul", "strength": 4, "awareness": 3}, fail=[{"op": "lose_grace", "n": 1}]
    )
    choice = next(c for c in t.choices() if c.args.get("tactic") == "valkyrie.skewer")
    assert choice.detail.startswith("2 dice vs 4")
    events = t.act("resolve_combat", **choice.args, dice=[2, 3])
    assert any("loses against Ghoul" in line for line in t.log(events))
    assert t.hero("valkyrie").grace == 4


def test_a_scout_cannot_be_fought() -> None:
    """DN 12.0: a dash means that option is impossible: a Scout can only be eluded."""
    t = Table.start()
    t.begin_turn("valkyrie")
    start_combat(t, "valkyrie", {"name": "Scout", "strength": None, "awareness": 5})
    approaches = {c.args.get("approach") for c in t.choices() if c.type == "resolve_combat"}
    assert approaches == {"elude"}


def test_pulling_punches_loses_without_rolling() -> None:
    """DN 12.3: a hero may accept the loss without rolling."""
    t = Table.start()
    t.edit(no_events)
    t.edit(at("valkyrie", "Village"))
    t.begin_turn("valkyrie")
    start_combat(
        t,
        "valkyrie",
        {"name": "Scout", "strength": None, "awareness": 5},
        fail=[{"op": "lose_secrecy", "n": 1}],
    )
    t.act("yield")
    assert t.hero("valkyrie").secrecy == 4


def test_a_wound_costs_a_grace_or_a_life() -> None:
    """DN 13.1: spend 1 grace to negate a wound."""
    t = Table.start()
    t.begin_turn("valkyrie")
    start_combat(t, "valkyrie", {"name": "Dread", "strength": 5, "awareness": 5}, fail=[{"op": "wound"}])
    t.act("yield")
    assert t.decision.kind == "wound"
    t.act("spend_grace")
    assert t.hero("valkyrie").grace == 4 and not t.hero("valkyrie").dead


def test_death_at_zero_grace() -> None:
    """DN 13.1: at zero grace a wound kills: the turn ends, darkness +1, items go to a hero
    at the same location, and the player picks a replacement next round with 1 lower
    defaults and 2 starting powers; it acts the round after."""
    t = Table.start()
    t.edit(
        lambda s: (
            setattr(s.heroes["valkyrie"], "grace", 0),
            s.heroes["valkyrie"].items.append(Item("i50", "charm")),
        )
    )
    darkness = t.state.darkness
    t.begin_turn("valkyrie")
    start_combat(t, "valkyrie", {"name": "Dread", "strength": 5, "awareness": 5}, fail=[{"op": "wound"}])
    t.act("yield")
    # Her own Shield Maiden could still spare her (DN 14.3.2): asked, she lets the wound kill.
    assert [c.type for c in t.choices() if c.type in ("spend_grace", "accept_death")] == ["accept_death"]
    t.act("accept_death")
    assert t.decision.kind == "fallen_item"  # the players choose who takes it (DN 15.1)
    t.act("take_fallen_item", item="i50", to="prince")
    valkyrie = t.hero("valkyrie")
    assert valkyrie.dead and not valkyrie.items
    assert t.state.darkness == darkness + 1
    assert any(i.id == "i50" for h in t.state.living() for i in h.items)
    assert t.state.current is None and t.decision.kind == "next_hero"
    for hero in ("prince", "seer", "crusader"):
        t.begin_turn(hero)
        # the last hero's turn ends the round: the Necromancer rolls for his movement
        t.act("end_action", dice=[1] if hero == "crusader" else [])
    # After the Necromancer's turn, the player picks a replacement hero (DN 13.1).
    assert t.decision.kind == "choose_hero" and t.decision.replacing == "valkyrie"
    from app.games.darkest_night.content import load

    heroes = [c.args["hero"] for c in t.choices() if c.type == "choose_hero"]
    fresh_heroes = sorted(set(load().heroes) - {"prince", "valkyrie", "seer", "crusader"})
    # one that has not appeared in this game, if possible (DN 13.1)
    assert sorted(heroes) == (fresh_heroes or ["valkyrie"])
    fresh = heroes[0]
    t.act("choose_hero", hero=fresh)
    assert t.decision.kind == "choose_powers" and t.decision.count == 2
    t.act("choose_powers", **next(c for c in t.choices() if c.type == "choose_powers").args)
    new = t.hero(fresh if fresh not in ("valkyrie",) else "valkyrie~2")
    spec = load().heroes[fresh]
    assert (new.default_grace, new.default_secrecy) == (spec.grace - 1, spec.secrecy - 1)
    assert len(new.powers) == 2 and new.turns_left == 0  # it does nothing this round
    assert fresh not in {c.args["hero"] for c in t.choices() if c.type == "take_turn"}


def test_the_necromancer_attacks_at_zero_secrecy() -> None:
    """DN 7.2: with zero secrecy and the Necromancer here, no event: he attacks."""
    t = Table.start()
    t.edit(at("crusader", "Castle", secrecy=1))
    t.edit(lambda s: setattr(s, "necromancer", "Castle"))
    events = t.begin_turn("crusader")
    assert t.hero("crusader").secrecy == 0  # lost 1 for the Necromancer being here (DN 10.0)
    assert "NecromancerAttacked" in t.types(events)
    assert t.decision.kind == "combat" and t.decision.step["foe"]["name"] == "Necromancer"


def test_no_events_in_the_monastery() -> None:
    """DN 7.3."""
    t = Table.start()
    events = t.begin_turn("prince")
    assert "EventRevealed" not in t.types(events) and t.decision.kind == "action"


def test_monster_blights_attack_at_the_end_of_the_turn() -> None:
    """DN 11.2: ending a turn with a monster blight here means a combat with its monster."""
    t = Table.start()
    t.edit(no_events)
    t.edit(at("prince", "Mountains"))
    t.edit(lambda s: s.blights.__setitem__("Mountains", [Blight("b90", "Shades")]))
    t.begin_turn("prince")
    t.act("end_action")
    assert t.decision.kind == "combat"
    assert t.decision.step["foe"] == {"name": "Shades", "strength": 3, "awareness": 5}


def test_attacking_a_blight_costs_secrecy_either_way() -> None:
    """DN 12.1: win destroys it; fail suffers its defense; lose 1 secrecy regardless."""
    t = Table.start()
    t.edit(no_events)
    t.edit(at("prince", "Village", secrecy=3, grace=4))
    t.edit(lambda s: s.blights.__setitem__("Village", [Blight("b90", "Unholy Aura")]))
    t.begin_turn("prince")
    # Strategy (2 dice, free) outdoes no tactic: the attack is fought with it (DN 12.0)
    events = t.act("attack", blight="b90", dice=[2])  # Strategy 2 − the Aura's 1 (DN 11.2)
    assert "Prince fights with Strategy" in [e.data["what"] for e in events if e.type == "Automatic"]
    prince = t.hero("prince")
    assert prince.grace == 3 and prince.secrecy == 2  # Unholy Aura's defense: lose 1 grace
    assert t.state.blights["Village"]


def test_shroud_protects_the_other_blights() -> None:
    """DN 11.2 / Extended Example: the Shroud protects the other blights at its location."""
    t = Table.start()
    t.edit(no_events)
    t.edit(at("prince", "Castle"))
    t.edit(lambda s: s.blights.__setitem__("Castle", [Blight("b90", "Skeletons"), Blight("b91", "Shroud")]))
    t.begin_turn("prince")
    attacks = [c.args["blight"] for c in t.choices() if c.type == "attack"]
    assert attacks == ["b91"]
    assert any(
        "Shroud" in u.reason
        for p in __import__("app.games.darkest_night", fromlist=["DARKEST_NIGHT"]).DARKEST_NIGHT.prompts(
            t.state
        )
        for u in p.unavailable
    )
