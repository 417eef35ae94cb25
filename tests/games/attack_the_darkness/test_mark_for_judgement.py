"""The Inquisitor's Mark for Judgement (content/classes.toml, issue 26): its text says "draw 1
and gain 1 speed move", so its effects draw a card and then offer a move up to the
character's speed, besides the turn's own speed move (AtD L82)."""

from __future__ import annotations

from tests.games.attack_the_darkness.harness import Table
from tests.games.attack_the_darkness.positions import FAR, ROW, craft, hand, of_type, squares, waiting


def test_mark_for_judgement_draws_one_and_gives_a_speed_move() -> None:
    t = Table(1, classes=["inquisitor"])
    craft(t, ROW, {0: (0, 1)}, ("ogre", FAR))
    t.send(0, "speed", to=[3, 1])  # the turn's own speed move is spent first
    before = len(hand(t))
    events = t.send(0, "ability")
    assert len(hand(t)) == before + 1 and of_type(events, "AbilityUsed")
    assert waiting(t) == "move_to"
    reach = squares(t, "move")
    assert (6, 1) in reach and (7, 1) not in reach  # speed 3 from 3,1
    t.send(0, "move", to=[6, 1])
    assert waiting(t) == "act"
    assert t.state.chars[0].pos == (6, 1)
