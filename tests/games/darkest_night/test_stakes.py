"""Stakes before the roll (issue 11): each fight, elude, attack, search and prayer prompt
says what success and failure do and lists every modifier with its source."""

from __future__ import annotations

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.state import Blight, Item, State
from tests.games.darkest_night.harness import Table, run_steps


def quiet(s: State) -> None:
    s.decks["event"].cards = []
    s.decks["event"].discard = []


def title(t: Table) -> str:
    return next(p.title for p in DARKEST_NIGHT.prompts(t.state) if p.required)


def detail(t: Table, type_: str, **args: object) -> str:
    return next(
        c.detail for c in t.choices() if c.type == type_ and all(c.args.get(k) == v for k, v in args.items())
    )


def shaman_in_the_village(*blights: str) -> Table:
    t = Table.start(
        heroes=("shaman", "prince", "seer", "crusader"),
        powers={"shaman": ["shaman.spirit_strike", "shaman.ghost_step", "shaman.healing_totem"]},
    )
    t.edit(quiet)
    t.edit(
        lambda s: (
            setattr(s.heroes["shaman"], "location", "Village"),
            s.blights.__setitem__("Village", [Blight(f"b{90 + i}", b) for i, b in enumerate(blights)]),
        )
    )
    return t


def test_an_elude_lists_its_tactic_and_each_blight_with_the_stakes() -> None:
    """DN 12.0, 11.2: Ghost Step's 2 dice, −1 for Evil Presence: 1 die vs 6; the event's
    failure (a wound) is said before the roll."""
    t = shaman_in_the_village("Evil Presence")
    t.begin_turn("shaman")
    run_steps(
        t,
        [
            {
                "op": "fight",
                "hero": "shaman",
                "foe": "Ghoul",
                "strength": 4,
                "awareness": 6,
                "fail": [{"op": "wound"}],
            }
        ],
    )
    text = detail(t, "resolve_combat", approach="elude", tactic="shaman.ghost_step")
    assert text.startswith("1 die vs 6 (Ghost Step 2 dice, Evil Presence −1)"), text
    assert "fail: a wound" in text and "to win" in text
    assert "accept the loss: a wound" in detail(t, "yield")
    assert title(t) == "Shaman: Fight or elude the Ghoul"


def test_a_secrecy_loss_is_named_as_the_failure() -> None:
    """DN 7.0: a Scout (elude only) costs 1 secrecy on failure; the title says Elude."""
    t = shaman_in_the_village()
    t.begin_turn("shaman")
    run_steps(
        t,
        [
            {
                "op": "fight",
                "hero": "shaman",
                "foe": "Scout",
                "strength": 0,
                "awareness": 5,
                "fail": [{"op": "lose_secrecy", "n": 1}],
            }
        ],
    )
    assert "fail: −1 secrecy" in detail(t, "resolve_combat", approach="elude", tactic=None)
    assert title(t) == "Shaman: Elude the Scout"


def test_attacking_the_necromancer_shows_its_odds_as_every_roll_does() -> None:
    """DN 12.2, 15.2: the attack's button states the fight as other rolls do: its dice with
    their sources, the Holy Relic's +1, and the odds ("vs 7" alone told nothing); without a
    relic, 0% and why."""
    t = shaman_in_the_village()
    t.edit(lambda s: setattr(s, "necromancer", "Village"))
    t.begin_turn("shaman")
    offer = detail(t, "attack_necromancer")
    assert offer.startswith(
        "fight only: 2 dice vs 7 (Spirit Strike 2 dice) — 0% with Spirit Strike: "
        "only a Holy Relic's +1 reaches 7;"
    ), offer
    t.edit(lambda s: s.heroes["shaman"].items.append(Item("i90", "holy_relic")))
    offer = detail(t, "attack_necromancer")
    assert offer.startswith(
        "fight only: 2 dice vs 7 (Spirit Strike 2 dice, Holy Relic +1 to the highest die) "
        "— 31% with Spirit Strike;"
    ), offer


def test_attacking_the_necromancer_is_titled_fight_and_says_what_is_at_stake() -> None:
    """DN 8.0, 12.2: attacking him allows no elude; the prompt says so and names the wound
    and the secrecy lost either way."""
    t = shaman_in_the_village()
    t.edit(lambda s: setattr(s, "necromancer", "Village"))
    # An artifact's tactic (using it locks it, DN 15.1) beside Spirit Strike: a real choice.
    warhammer = {"card": "artifact.warhammer_of_kings", "exhausted": False, "active": False, "target": None}
    t.edit(lambda s: s.heroes["shaman"].items.append(Item("i99", "artifact", data=warhammer)))
    t.begin_turn("shaman")
    offer = detail(t, "attack_necromancer")
    assert "fail: a wound" in offer and "−1 secrecy either way" in offer
    t.act("attack_necromancer")
    assert title(t) == "Shaman: Fight the Necromancer"
    text = detail(t, "resolve_combat", approach="fight", tactic=None)
    assert "fail: a wound; −1 secrecy" in text.replace("a wound, −1 secrecy", "a wound; −1 secrecy")


def test_attacking_a_blight_names_its_defense_and_the_secrecy() -> None:
    """DN 8.0, 11.2: attack a Skeletons blight: win destroys it, failing suffers its defense."""
    t = shaman_in_the_village("Skeletons", "Unholy Aura")
    t.begin_turn("shaman")
    text = detail(t, "attack", blight="b90")
    assert "vs might" in text and "Unholy Aura −1" in text
    assert "win: it is destroyed; fail: a wound; −1 secrecy either way" in text


def test_search_and_pray_say_what_they_give_and_what_failing_means() -> None:
    """DN 8.0: a search rolls vs the location's difficulty for map cards; praying gives grace."""
    t = shaman_in_the_village()
    t.begin_turn("shaman")
    search = detail(t, "search")
    assert search.startswith("1 die vs ") and "a map card per success" in search
    assert "fail: nothing found" in search
    t2 = Table.start()
    t2.edit(quiet)
    t2.begin_turn("prince")
    pray = detail(t2, "pray")
    assert pray.startswith("2 dice vs 3 (2 dice)") and "+1 grace per success" in pray
    assert "fail: no grace" in pray


def test_the_roll_prompt_repeats_the_modifiers_and_the_stakes() -> None:
    """DN 4.2, 5.0: before rolling (a spark to spend), the prompt lists the dice's sources
    and what winning and failing do."""
    t = shaman_in_the_village("Evil Presence")
    t.edit(lambda s: setattr(s.heroes["shaman"], "sparks", 1))
    t.begin_turn("shaman")
    run_steps(
        t,
        [
            {
                "op": "fight",
                "hero": "shaman",
                "foe": "Ghoul",
                "strength": 4,
                "awareness": 3,
                "fail": [{"op": "lose_grace", "n": 1}],
            }
        ],
    )
    t.act("resolve_combat", approach="elude", tactic="shaman.ghost_step", option=0)
    assert t.decision.kind == "roll"
    text = detail(t, "roll_dice")
    assert text.startswith("Ghost Step 2 dice, Evil Presence −1"), text
    assert "win: you slip past; fail: −1 grace" in text
