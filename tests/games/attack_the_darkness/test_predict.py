"""The outcome a card will have on each target, said before the click (issue 13 "Playing a
card"; ``predict.py``): checked against the rulebook's numbers and against what the engine
then does, for the seat choosing only, never in the view."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness import ATTACK_THE_DARKNESS as GAME
from app.games.attack_the_darkness.predict import page_extras
from app.kernel.types import SPECTATOR, Viewer
from tests.games.attack_the_darkness.harness import Table, types

ROW = [(0, 0, "h"), (4, 0, "h"), (8, 0, "h")]
SEAT0 = Viewer("seat", frozenset({0}))


def said(t: Table, seat: int = 0) -> dict[str, str]:
    """What the seat's page says of each target: data-target → text."""
    found = page_extras(t.state, Viewer("seat", frozenset({seat})))["predict"]
    return {line["target"]: line["text"] for line in found["lines"]}


def damaged(events: list[Any]) -> dict[str, Any]:
    return next(e.data for e in events if e.type == "Damaged")


def test_the_reaching_hack_kills_the_zombie() -> None:
    """AtD L186-194: Zelda's Reaching Hack! deals 4 to the Zombie 2 squares away, which dies
    (Zombies are not Minions, facts file §18; they have no defence against it)."""
    t = Table(1, classes=["champion"])
    t.craft(ROW, {0: (4, 1)})
    zombie = t.monster("zombies", (6, 1))
    reaching, hearty, hack, spare = t.hand(0, "reaching", "hearty", "hack", "hack")
    t.send(0, "play", card=hack)
    t.send(0, "add", rc=reaching)
    t.send(0, "add", rc=hearty)
    t.send(0, "done")
    t.send(0, "discard", card=spare)
    found = page_extras(t.state, SEAT0)["predict"]
    assert found["card"] == "Hack! with Reaching, Hearty"
    line = found["lines"][0]
    assert line["label"] == "Target Zombies! #1" and line["target"] == f"combatant:{zombie}"
    assert line["text"] == "Zombies! #1: 4 damage → Zombies! #1 dies (2 HP)"
    events = t.send(0, "target", who=zombie)
    assert damaged(events)["amount"] == 4 and "MonsterDied" in types(events)


def test_defences_are_subtracted_as_the_monster_card_says() -> None:
    """AtD L216-217, L220: the Aura Knight saves 1 against every attack; the Kobold
    Crossbows save 2 once a round, and melee defences cover reach."""
    t = Table(1, classes=["champion"])
    t.craft(ROW, {0: (0, 1)})
    knight = t.monster("aura_knight", (1, 1))
    kobold = t.monster("kobold_crossbows", (1, 0))
    t.state.monsters[knight].defended = 3
    hack, spare, hearty = t.hand(0, "hack", "feint", "hearty")
    t.send(0, "play", card=hack)
    t.send(0, "add", rc=hearty)
    t.send(0, "done")
    t.send(0, "discard", card=spare)
    lines = said(t)
    assert lines[f"combatant:{knight}"] == (
        "Aura Knight #1: 4 damage − 1 save (its defence, against every attack) = 3 → 2 of 5 HP left"
    )
    assert lines[f"combatant:{kobold}"] == (
        "Kobold Crossbows #2: 4 damage − 2 save (its defence, 1 of 1 this round) = 2 → 2 of 4 HP left"
    )
    events = t.send(0, "target", who=kobold)
    assert damaged(events)["amount"] == 2 and damaged(events)["saved"] == 2
    assert t.state.monsters[kobold].hp == 2


def test_multipliers_add_before_applying_and_a_spent_defence_saves_nothing() -> None:
    """AtD L179-180: ×2 and ×3 on a 2-damage Jab make ×5, 10 damage; the Ogre has no defence
    left this round."""
    t = Table(1, classes=["magician"])
    t.craft(ROW, {0: (0, 1)})
    ogre = t.monster("ogre", (1, 1), hp=30)
    t.state.monsters[ogre].defended = 99
    jab, howling, unleashed, spare1, spare2 = t.hand(0, "jab", "howling", "unleashed", "spark", "punch")
    t.send(0, "play", card=jab)
    t.send(0, "add", rc=howling)
    t.send(0, "add", rc=unleashed)
    t.send(0, "done")
    t.send(0, "discard", card=spare1)
    t.send(0, "discard", card=spare2)
    assert said(t)[f"combatant:{ogre}"].startswith("Ogre #1: 2 × 5 = 10 damage → 20 of ")
    assert damaged(t.send(0, "target", who=ogre))["amount"] == 10


def test_a_push_is_said_to_come_after_the_damage() -> None:
    """Force Push: 1 damage, then a push of up to 3 squares if the target still stands."""
    t = Table(1, classes=["magician"])
    t.craft(ROW, {0: (0, 1)})
    ogre = t.monster("ogre", (3, 1), hp=30)
    t.state.monsters[ogre].defended = 99
    push, mana = t.hand(0, "force_push", "magical")
    t.send(0, "play", card=push)
    t.send(0, "add", rc=mana)
    t.send(0, "done")
    text = said(t)[f"combatant:{ogre}"]
    assert text.startswith("Ogre #1: 1 damage → 29 of ") and text.endswith("; then pushed up to 3 squares")


def test_an_arena_opponent_may_still_defend() -> None:
    """AtD L151, L289: an opponent answers an attack with a Defense card first, so the
    outcome is said as a condition, never as certain."""
    t = Table(2, classes=["champion", "samurai"], mode="arena")
    t.craft(ROW, {0: (0, 1), 1: (1, 1)})
    hack, spare, hearty = t.hand(0, "hack", "feint", "hearty")
    t.send(0, "play", card=hack)
    t.send(0, "add", rc=hearty)
    t.send(0, "done")
    t.send(0, "discard", card=spare)
    text = said(t)["combatant:c1"]
    assert text.startswith("P2: 4 damage")
    assert text.endswith("if P2 does not defend first (a Defense card raises the save, AtD L151)")


def test_only_the_seat_choosing_is_told_and_the_view_is_unchanged() -> None:
    t = Table(2, classes=["champion", "samurai"])
    t.craft(ROW, {0: (0, 1), 1: (0, 0)})
    kobold = t.monster("kobold_crossbows", (1, 1))
    hack, spare, hearty = t.hand(0, "hack", "feint", "hearty")
    assert page_extras(t.state, SEAT0) == {}  # no target asked yet
    t.send(0, "play", card=hack)
    t.send(0, "add", rc=hearty)
    t.send(0, "done")
    t.send(0, "discard", card=spare)
    assert f"combatant:{kobold}" in said(t)
    assert page_extras(t.state, Viewer("seat", frozenset({1}))) == {}
    assert page_extras(t.state, SPECTATOR) == {}
    assert "predict" not in GAME.view(t.state, SEAT0)
    assert GAME.page_extras(t.state, SEAT0) == page_extras(t.state, SEAT0)


def test_an_area_says_what_each_monster_in_it_takes() -> None:
    """AtD L159-162: a Fireball's 3×2 area hits everyone in it; each choice lists them."""
    t = Table(1, classes=["magician"])
    t.craft(ROW, {0: (0, 1)})
    ogre = t.monster("ogre", (4, 1), hp=30)
    kobold = t.monster("kobold_crossbows", (5, 1))
    t.state.monsters[ogre].defended = 99
    fireball, *mana = t.hand(0, "fireball", "magical", "magical", "magical")
    t.send(0, "play", card=fireball)
    for rc in mana:
        t.send(0, "add", rc=rc)
    t.send(0, "done")
    found = page_extras(t.state, SEAT0)["predict"]
    both = [line for line in found["lines"] if "Ogre #1" in line["text"] and "Kobold" in line["text"]]
    assert both, found["lines"]
    line = both[0]
    assert line["target"] and line["target"].startswith("square:")
    assert "Ogre #1: 3 damage → 27 of " in line["text"]
    assert (
        "Kobold Crossbows #2: 3 damage − 2 save (its defence, 1 of 1 this round) = 1 → 3 of 4 HP left"
        in line["text"]
    )
    area = next(c for c in GAME.prompts(t.state)[0].choices if c.label == line["label"])
    events = t.send(0, area.type, **area.args)
    assert {e.data["who"]: e.data["amount"] for e in events if e.type == "Damaged"} == {ogre: 3, kobold: 1}


def test_a_heal_is_capped_at_the_allys_most_hp() -> None:
    """AtD L69: heals cap at max HP; Cure heals an ally within reach by 3."""
    t = Table(2, classes=["templar", "champion"])
    t.craft(ROW, {0: (0, 1), 1: (1, 1)})
    t.monster("ogre", (11, 2))  # a monster still stands: the encounter goes on
    t.state.chars[1].hp = t.state.chars[1].max_hp - 2
    cure, pay = t.hand(0, "cure", "holy")
    t.send(0, "play", card=cure)
    t.send(0, "add", rc=pay)
    t.send(0, "done")
    top = t.state.chars[1].max_hp
    assert said(t)["combatant:c1"] == f"P2: heal 3: P2 {top - 2} → {top} HP"
