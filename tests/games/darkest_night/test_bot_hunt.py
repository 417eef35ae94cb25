"""The hunt (``bot/hunt.py``, DN 18.1): once a relic is in hand, the party picks one
battlefield, the bearer waits there to be found and the others clear its blights."""

from __future__ import annotations

from app.games.darkest_night.bot.hero import choose_fallen_item_taker
from app.games.darkest_night.bot.hunt import HOLD, battlefield
from app.games.darkest_night.bot.planner import goal_location
from app.games.darkest_night.decisions import FallenItem
from app.games.darkest_night.state import Blight, Item, State
from app.kernel.types import Choice
from tests.games.darkest_night.harness import Table
from tests.games.darkest_night.test_bot import clear_blights, hero_action_prompt, hero_choice


def with_bearer(location: str, necromancer: str, **blights: int) -> Table:
    """A table where the Crusader carries a relic at ``location`` (secrecy 1, grace 4), the
    Necromancer stands at ``necromancer`` and ``blights`` gives the count per location."""
    t = Table.start()

    def change(s: State) -> None:
        clear_blights(s)
        for where, count in blights.items():
            s.blights[where] = [Blight(f"b{where[:3]}{i}", "Taint") for i in range(count)]
        s.necromancer = necromancer
        crusader = s.heroes["crusader"]
        crusader.location, crusader.secrecy, crusader.grace = location, 1, 4
        crusader.items.append(Item("i99", "holy_relic"))
        s.relics_retrieved = 1

    t.edit(change)
    return t


def test_the_bearer_holds_where_the_necromancer_found_him_among_few_blights() -> None:
    """DN 10.0, 18.1: he stays while he detects the bearer there; up to HOLD blights are
    worth fighting through."""
    t = with_bearer("Mountains", "Mountains", Mountains=HOLD, Castle=0)
    assert battlefield(t.state, t.state.heroes["crusader"]) == "Mountains"


def test_too_many_blights_move_the_battlefield_to_a_clear_place() -> None:
    """DN 11.1, 18.1: with more than HOLD blights where he stands, the party meets at a place
    with fewer near the bearer (the Necromancer follows the hero he detects, DN 10.0); with
    no better place, it stays."""
    crowded = {loc: HOLD + 1 for loc in ("Castle", "Village", "Swamp", "Forest", "Ruins")}
    t = with_bearer("Mountains", "Mountains", Mountains=HOLD + 1, **crowded)
    assert battlefield(t.state, t.state.heroes["crusader"]) == "Mountains"
    t = with_bearer("Mountains", "Mountains", Mountains=HOLD + 1, **crowded | {"Castle": 0})
    assert battlefield(t.state, t.state.heroes["crusader"]) == "Castle"


def test_the_waiting_bearer_does_not_hide_from_the_necromancer() -> None:
    """DN 10.0, 15.2: the Necromancer detects a hero whose secrecy is below his roll; hiding
    (DN 8.0) would keep him away, so the bearer at the battlefield waits or meditates."""
    t = with_bearer("Mountains", "Ruins")
    t.edit(lambda s: setattr(s.heroes["crusader"], "sparks", 3))
    prompt = hero_action_prompt(t, "crusader")
    assert {"hide", "end_action"} <= {c.type for c in prompt.choices}
    assert hero_choice(t, prompt).type == "end_action"


def test_the_others_gather_at_the_battlefield_and_clear_its_blights() -> None:
    """DN 12.1, 18.1: a hero without the relic goes toward the bearer's battlefield, and
    once there attacks its blights."""
    t = with_bearer("Mountains", "Mountains", Mountains=1)
    t.edit(lambda s: setattr(s.heroes["valkyrie"], "location", "Monastery"))
    prompt = hero_action_prompt(t, "valkyrie")
    choice = hero_choice(t, prompt)
    assert choice.type == "travel" and choice.args["to"] == "Mountains"
    assert goal_location(t.state, t.state.heroes["valkyrie"]) == "Mountains"

    t = with_bearer("Mountains", "Mountains", Mountains=1)
    t.edit(lambda s: setattr(s.heroes["valkyrie"], "location", "Mountains"))
    prompt = hero_action_prompt(t, "valkyrie")
    assert hero_choice(t, prompt).type == "attack"


def test_a_bearer_without_grace_stays_beside_the_party() -> None:
    """DN 13.1, 15.1: alone, a bearer at 0 grace makes for the Monastery to pray; beside
    another hero, who takes up the relic if he falls, he holds the battlefield."""
    t = with_bearer("Mountains", "Ruins")
    t.edit(lambda s: setattr(s.heroes["crusader"], "grace", 0))
    assert goal_location(t.state, t.state.heroes["crusader"]) == "Monastery"
    t.edit(lambda s: setattr(s.heroes["valkyrie"], "location", "Mountains"))
    assert goal_location(t.state, t.state.heroes["crusader"]) == "Mountains"


def test_a_fallen_bearers_relic_goes_to_the_best_necromancer_fighter() -> None:
    """DN 15.1, 18.1: the players choose who takes a fallen hero's items; the relic goes to
    the hero likeliest to slay the Necromancer (the Crusader's Wrath rolls 4 dice)."""
    t = with_bearer("Mountains", "Ruins")
    heirs = ["valkyrie", "crusader", "prince"]

    def change(s: State) -> None:
        relic = s.heroes["crusader"].items.pop()
        s.heroes["seer"].items.append(relic)
        s.decision = FallenItem(seat=0, hero="seer", item=relic.id, to=heirs)

    t.edit(change)
    choices = [Choice("take_fallen_item", {"item": "i99", "to": hero}, hero) for hero in heirs]
    assert choose_fallen_item_taker(t.state, choices).args["to"] == "crusader"


def test_the_bearer_clears_a_guard_before_he_fights_the_necromancer() -> None:
    """DN 12.2, 18.1: beaten with a blight beside him, the Necromancer only sacrifices it;
    the bearer, last in the round, attacks a blight still standing, and the Necromancer once
    none is left."""
    t = with_bearer("Village", "Village", Village=1)
    prompt = hero_action_prompt(t, "crusader")
    assert {"attack", "attack_necromancer"} <= {c.type for c in prompt.choices}
    assert hero_choice(t, prompt).type == "attack"
    t = with_bearer("Village", "Village")
    assert hero_choice(t, hero_action_prompt(t, "crusader")).type == "attack_necromancer"
