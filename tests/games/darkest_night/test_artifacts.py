"""Artifacts (DN 14.4, 15.0, 15.1): powers that are also items."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from app.games.darkest_night.content import CONTENT, LOCATIONS, load
from app.games.darkest_night.engine import Ctx
from app.games.darkest_night.rules.dice import roll_dice_count
from app.games.darkest_night.rules.powers import carried_powers, dice_bonus, tactics
from app.games.darkest_night.state import Blight, Item, Placed, State
from tests.games.darkest_night.harness import Table, run_steps

# -- the deck ------------------------------------------------------------------------------


def test_the_deck_has_57_artifacts() -> None:
    c = load()
    assert len(c.artifacts) == 57
    t = Table.start()
    assert len(t.state.decks["artifact"].cards) == 57


def test_every_artifact_is_a_power_with_an_effect() -> None:
    with (CONTENT / "artifacts.toml").open("rb") as f:
        raw = tomllib.load(f)["artifact"]
    assert len({r["name"] for r in raw}) == 57
    for r in raw:
        assert r["id"].startswith("artifact."), r["id"]
        assert r["source"] == "authored", r["id"]
        assert r["text"], r["id"]
    for art in load().artifacts.values():
        assert art.artifact
        assert art.bonus or art.tactic or art.action or art.any_time, art.id
        assert art.id in load().powers()


# -- found, carried, given (DN 8.0, 14.4, 15.1) ----------------------------------------------


def map_card(location: str, result: str) -> str:
    return next(m.id for m in load().map_cards.values() if m.search.get(location) == result)


def map_on_top(s: State, card: str) -> None:
    s.decks["map"].cards = [card] + [m for m in s.decks["map"].cards if m != card]
    s.decks["map"].discard = [m for m in s.decks["map"].discard if m != card]


def artifact_at_castle(card: str):
    """The Valkyrie and the Prince in an empty Castle; the next map card shows an artifact
    there and the artifact deck has ``card`` on top."""

    def change(s: State) -> None:
        s.decks["event"].cards, s.decks["event"].discard = [], []
        for loc in LOCATIONS:
            s.blights[loc] = []
        for hero in ("valkyrie", "prince"):
            s.heroes[hero].location = "Castle"
        map_on_top(s, map_card("Castle", "artifact"))
        s.decks["artifact"].cards = [card] + [a for a in s.decks["artifact"].cards if a != card]

    return change


def search_for_artifact(t: Table, hero: str) -> Item:
    t.begin_turn(hero)
    dice = roll_dice_count(Ctx.reader(t.state), t.hero(hero), "search", 1, {})
    t.act("search", dice=[6] + [1] * (dice - 1))  # one success: one map card
    items = [i for i in t.hero(hero).items if i.kind == "artifact"]
    assert len(items) == 1
    return items[0]


def find_artifact(t: Table, hero: str) -> Item:
    """The hero's turn, and the search result "artifact" taken (``find_artifact``, DN 8.0)."""
    t.begin_turn(hero)
    waiting = t.decision
    run_steps(t, [{"op": "find_artifact", "hero": hero}])
    t.edit(lambda s: setattr(s, "decision", waiting))
    items = [i for i in t.hero(hero).items if i.kind == "artifact"]
    assert len(items) == 1
    return items[0]


def test_searching_finds_an_artifact() -> None:
    """DN 8.0, 14.4: a map card's artifact result draws an artifact card."""
    t = Table.start()
    t.edit(artifact_at_castle("artifact.sword_of_dawn"))
    item = search_for_artifact(t, "valkyrie")
    assert item.data["card"] == "artifact.sword_of_dawn"


def test_a_found_artifact_is_carried_and_gives_its_power() -> None:
    t = Table.start()
    t.edit(artifact_at_castle("artifact.sword_of_dawn"))
    ctx = Ctx.reader(t.state)
    before = dict(dice_bonus(ctx, t.hero("valkyrie"), "fight"))
    item = find_artifact(t, "valkyrie")
    assert item.data["card"] == "artifact.sword_of_dawn"
    assert "artifact.sword_of_dawn" not in t.state.decks["artifact"].cards
    ctx = Ctx.reader(t.state)
    valkyrie = t.hero("valkyrie")
    assert "artifact.sword_of_dawn" in [p.id for p in carried_powers(valkyrie)]
    assert dict(dice_bonus(ctx, valkyrie, "fight")).get("Sword of Dawn") == 1
    assert "Sword of Dawn" not in before
    assert any(p.id == "artifact.sword_of_dawn" for p, _ in tactics(ctx, valkyrie, "fight", "event"))


def test_an_artifact_can_be_given_to_a_hero_here() -> None:
    """DN 15.1: items pass freely between heroes at the same location; the power goes too."""
    t = Table.start()
    t.edit(artifact_at_castle("artifact.sword_of_dawn"))
    item = find_artifact(t, "valkyrie")
    offered = [c for c in t.choices() if c.type == "give_item"]
    assert {c.args["to"] for c in offered if c.args["item"] == item.id} == {"prince"}
    t.act("give_item", hero="valkyrie", item=item.id, to="prince")
    assert not any(i.kind == "artifact" for i in t.hero("valkyrie").items)
    assert [i.id for i in t.hero("prince").items if i.kind == "artifact"] == [item.id]
    ctx = Ctx.reader(t.state)
    assert dict(dice_bonus(ctx, t.hero("prince"), "fight")).get("Sword of Dawn") == 1
    assert "Sword of Dawn" not in dict(dice_bonus(ctx, t.hero("valkyrie"), "fight"))


def test_an_artifact_is_not_offered_to_a_hero_elsewhere() -> None:
    t = Table.start()
    t.edit(artifact_at_castle("artifact.sword_of_dawn"))
    t.edit(lambda s: setattr(s.heroes["prince"], "location", "Village"))
    item = find_artifact(t, "valkyrie")
    assert not [c for c in t.choices() if c.type == "give_item" and c.args["item"] == item.id]


def test_an_exhausted_artifact_stays_exhausted_when_traded() -> None:
    """DN 15.1: a used item is locked until its carrier's next turn; an exhausted artifact
    can then be traded and stays exhausted until its new carrier can refresh their powers."""
    t = Table.start()
    t.edit(artifact_at_castle("artifact.veil_of_night"))
    item = find_artifact(t, "valkyrie")
    secrecy = t.hero("valkyrie").secrecy
    t.act("use_power", hero="valkyrie", power="artifact.veil_of_night")
    assert t.hero("valkyrie").secrecy == max(secrecy, min(7, secrecy + 2))
    assert t.hero("valkyrie").item(item.id).data["exhausted"] is True
    assert not [c for c in t.choices() if c.type == "give_item" and c.args["item"] == item.id]
    t.act("end_action")
    for i, hero in enumerate(("prince", "seer", "crusader")):
        t.begin_turn(hero)
        t.act("end_action", dice=[4] if i == 2 else ())
    t.begin_turn("valkyrie")
    assert t.hero("valkyrie").item(item.id).data["exhausted"] is True
    t.act("give_item", hero="valkyrie", item=item.id, to="prince")
    assert t.hero("prince").item(item.id).data["exhausted"] is True
    uses = [c for c in t.choices() if c.type == "use_power" and c.args["power"] == "artifact.veil_of_night"]
    assert not uses
    t.act("end_action")
    t.begin_turn("prince")
    t.act("hide")  # refreshes the prince's powers, the artifact among them (DN 8.0, 14.2)
    assert t.hero("prince").item(item.id).data["exhausted"] is False


# -- artifacts' own effects --------------------------------------------------------------------


def carrying(hero: str, card: str, location: str = "Castle"):
    def change(s: State) -> None:
        s.decks["event"].cards, s.decks["event"].discard = [], []
        for loc in LOCATIONS:
            s.blights[loc] = []
        s.heroes[hero].location = location
        s.heroes[hero].items.append(
            Item("i99", "artifact", data={"card": card, "exhausted": False, "active": False, "target": None})
        )
        s.next_item = 100

    return change


def test_key_of_thresholds_goes_anywhere() -> None:
    t = Table.start()
    t.edit(carrying("valkyrie", "artifact.key_of_thresholds"))
    t.begin_turn("valkyrie")
    t.act("power_action", power="artifact.key_of_thresholds")
    option = next(c for c in t.choices() if c.label == "Go to the Ruins")
    t.act("choose_option", **option.args)
    assert t.hero("valkyrie").location == "Ruins"
    assert t.hero("valkyrie").item("i99").data["exhausted"] is True


def test_mirror_of_misdirection_drives_the_necromancer_away() -> None:
    t = Table.start()
    t.edit(carrying("valkyrie", "artifact.mirror_of_misdirection"))
    t.begin_turn("valkyrie")
    t.act("power_action", power="artifact.mirror_of_misdirection")
    labels = sorted(c.label for c in t.choices() if c.type == "choose_option")
    assert labels == ["Drive him to the Forest", "Drive him to the Swamp", "Drive him to the Village"]
    option = next(c for c in t.choices() if c.label == "Drive him to the Forest")
    t.act("choose_option", **option.args)
    assert t.state.necromancer == "Forest"


def test_phylactery_shard_destroys_a_blight_without_a_roll() -> None:
    t = Table.start()
    t.edit(carrying("valkyrie", "artifact.phylactery_shard"))
    t.edit(lambda s: s.blights["Castle"].append(Blight("b90", "Spies")))
    grace = t.hero("valkyrie").grace
    t.begin_turn("valkyrie")
    t.act("power_action", power="artifact.phylactery_shard")
    assert not t.state.blights["Castle"]
    assert t.hero("valkyrie").grace == grace - 1


def test_seal_of_resolve_advances_a_quest_here_or_heals() -> None:
    c = load()
    t = Table.start()
    t.edit(carrying("valkyrie", "artifact.seal_of_resolve"))
    t.edit(lambda s: setattr(s.heroes["valkyrie"], "grace", 1))
    t.begin_turn("valkyrie")
    t.act("power_action", power="artifact.seal_of_resolve")
    assert t.hero("valkyrie").grace == 2
    if not c.quests:
        return
    card = next(q for q in c.quests.values() if int(q.data.get("progress", 1)) >= 3)
    t = Table.start()
    t.edit(carrying("valkyrie", "artifact.seal_of_resolve"))
    t.edit(lambda s: s.quests.append(Placed("q1", card.id, "Castle")))
    t.begin_turn("valkyrie")
    t.act("power_action", power="artifact.seal_of_resolve")  # the only quest here
    assert t.state.quests[0].progress == 1


def test_banner_of_hope_helps_every_hero_at_its_location() -> None:
    t = Table.start()
    t.edit(carrying("valkyrie", "artifact.banner_of_hope"))
    t.edit(lambda s: setattr(s.heroes["prince"], "location", "Castle"))
    t.begin_turn("valkyrie")
    t.act("power_action", power="artifact.banner_of_hope", target="loc:Castle")
    ctx = Ctx.reader(t.state)
    for hero in ("valkyrie", "prince"):
        assert dict(dice_bonus(ctx, t.hero(hero), "elude")).get("Banner of Hope") == 1
    assert "Banner of Hope" not in dict(dice_bonus(ctx, t.hero("seer"), "elude"))


def act_with_any_roll(t: Table, type_: str, **args: Any) -> None:
    """Send a command that may roll at once (an attack with one way to fight is not asked
    again, DN 12.1, issue 11): rig as many sixes as it rolls."""
    for n in range(12):
        try:
            t.act(type_, dice=[6] * n, **args)
            return
        except AssertionError as error:
            if "rolled more dice" not in str(error) and "left unrolled" not in str(error):
                raise
    raise AssertionError(f"{type_} rolled more than 11 dice")


@pytest.mark.parametrize("card", sorted(c for c, a in load().artifacts.items() if a.action))
def test_every_artifact_action_runs(card: str) -> None:
    """Each action artifact can be used from a busy position without error."""
    t = Table.start()
    t.edit(carrying("valkyrie", card, location="Ruins"))

    def busy(s: State) -> None:
        s.blights["Ruins"] = [Blight("b70", "Spies")]
        s.heroes["prince"].location = "Ruins"
        map_on_top(s, map_card("Ruins", "treasure_chest"))  # a search result without dice

    t.edit(busy)
    t.begin_turn("valkyrie")
    actions = [c for c in t.choices() if c.type == "power_action" and c.args["power"] == card]
    assert actions, card
    act_with_any_roll(t, "power_action", **actions[0].args)
    assert t.hero("valkyrie").item("i99").data["exhausted"] == bool(
        load().artifacts[card].action.get("exhaust")
    )
