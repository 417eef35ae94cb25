"""Play that respects people's time (issue 11): never ask what has one meaningful answer,
say in the log what was done, and a seat's "auto-pass when I have nothing to do"."""

from __future__ import annotations

from app.games.darkest_night.clicks import breakdown, measure
from app.games.darkest_night.state import Blight, Item, Power, State
from tests.games.darkest_night.harness import Table, run_steps


def quiet(s: State) -> None:
    s.decks["event"].cards = []
    s.decks["event"].discard = []


def automatic_lines(t: Table, events: list) -> list[str]:  # noqa: ANN001
    return [line for e in events if e.type == "Automatic" for line in t.log([e])]


def test_the_action_step_ends_by_itself_when_no_free_action_is_left() -> None:
    """DN 8.0: after the one action, only free actions remain; with none, "End your action
    step" is not asked, and the log says the step ended."""
    t = Table.start()
    t.edit(quiet)
    t.begin_turn("prince")
    events = t.act("hide")
    assert t.decision.kind == "next_hero"
    assert "ActionStepEnded" in t.types(events)
    assert automatic_lines(t, events) == [
        "Prince has no free action left: the action step ends"
        " (done for you: there was nothing else to choose)."
    ]


def test_the_action_step_stays_open_for_a_free_action() -> None:
    """DN 8.0: a free action still possible keeps the step open (a real choice)."""
    t = Table.start(heroes=("rogue", "prince", "seer", "crusader"))
    t.edit(quiet).edit(lambda s: s.heroes["rogue"].powers.append(Power("rogue.diversion")))
    t.begin_turn("rogue")
    t.act("hide")
    assert t.decision.kind == "action" and t.decision.taken
    assert {c.type for c in t.choices() if c.type in ("power_action", "end_action")} == {
        "power_action",
        "end_action",
    }


def test_the_last_hero_of_the_round_is_not_asked_who_goes_next() -> None:
    """DN 6.0: the players choose who goes next; with one hero left there is no choice."""
    t = Table.start()
    t.edit(quiet)
    for hero in ("prince", "valkyrie", "seer"):
        t.begin_turn(hero)
        events = t.act("hide")
    assert t.state.current == "crusader" and t.decision.kind == "action"
    assert any("Crusader is the last hero to act this round" in line for line in automatic_lines(t, events))


def test_the_order_of_effects_is_not_asked_when_one_does_nothing() -> None:
    """DN 14.3.1: the affected player orders simultaneous effects; when one of them does
    nothing (a loss of secrecy at 0 secrecy) the order cannot matter and is not asked."""
    t = Table.start()
    t.edit(quiet)
    t.edit(
        lambda s: (
            setattr(s.heroes["prince"], "location", "Village"),
            setattr(s.heroes["prince"], "secrecy", 0),
            s.blights.__setitem__("Village", [Blight("b90", "Spies"), Blight("b91", "Skeletons")]),
        )
    )
    t.begin_turn("prince")
    events = t.act("meditate")
    assert t.decision.kind == "combat"  # the Skeletons' monster, without "choose what comes first"
    assert any("Spies: lose 1 secrecy: nothing to lose" in line for line in automatic_lines(t, events))


def test_order_is_asked_when_it_can_matter() -> None:
    """DN 14.3.1: a loss and a fight whose order could matter are still the player's choice
    (two monster fights of different blights)."""
    t = Table.start()
    t.edit(quiet)
    t.edit(
        lambda s: (
            setattr(s.heroes["prince"], "location", "Village"),
            s.blights.__setitem__("Village", [Blight("b90", "Skeletons"), Blight("b91", "Zombies")]),
        )
    )
    t.begin_turn("prince")
    t.act("hide")
    assert t.decision.kind == "order_effects"


def test_identical_effects_are_resolved_in_any_order() -> None:
    """DN 14.3.1: two identical monster fights: the order cannot change anything."""
    from app.games.darkest_night.rules.blights import order_cannot_matter

    fight = {"op": "combat", "hero": "prince", "foe": {"name": "Skeleton"}}
    assert order_cannot_matter([{"steps": [fight]}, {"steps": [dict(fight)]}])
    assert order_cannot_matter(
        [{"steps": [{"op": "lose_secrecy", "n": 1}]}, {"steps": [{"op": "exhaust_power", "n": 1}]}]
    )
    assert not order_cannot_matter([{"steps": [fight]}, {"steps": [{"op": "lose_secrecy", "n": 1}]}])


def test_a_prayer_with_full_grace_is_rolled_at_once() -> None:
    """DN 8.0: praying gains grace up to default; at full grace no spark can change what the
    roll does, so the roll is not held for one."""
    t = Table.start()
    t.edit(quiet).edit(lambda s: setattr(s.heroes["prince"], "sparks", 2))
    t.begin_turn("prince")
    events = t.act("pray", dice=[2, 2])
    assert "DiceRolled" in t.types(events)
    assert any("no die added could change this roll" in line for line in automatic_lines(t, events))
    assert t.hero("prince").sparks == 2


def test_a_prayer_with_grace_to_gain_offers_the_spark() -> None:
    """DN 4.2: a spark before a roll that can still do more is a real choice."""
    t = Table.start()
    t.edit(quiet).edit(
        lambda s: (setattr(s.heroes["prince"], "sparks", 2), setattr(s.heroes["prince"], "grace", 1))
    )
    t.begin_turn("prince")
    t.act("pray")
    assert t.decision.kind == "roll"
    t.act("roll_dice", sparks=2, dice=[3, 3, 3, 3])
    assert t.state.last_roll["dice"] == 4 and t.hero("prince").sparks == 0


def test_any_number_of_sparks_is_one_click_with_its_odds() -> None:
    """DN 4.2: spend 1 or 2 sparks and roll at once, each answer showing its dice and odds;
    rolling as it stands spends none."""
    t = Table.start()
    t.edit(quiet).edit(
        lambda s: (setattr(s.heroes["prince"], "sparks", 2), setattr(s.heroes["prince"], "grace", 1))
    )
    t.begin_turn("prince")
    t.act("pray")
    rolls = [(c.args, c.label, c.detail) for c in t.choices() if c.type == "roll_dice"]
    assert rolls[0][:2] == ({}, "Roll 2 dice needing 3+") and "89%" in rolls[0][2]
    assert rolls[1] == (
        {"sparks": 1},
        "Spend 1 spark: roll 3 dice needing 3+",
        "+1 die — 96%; 1 spark left (DN 4.2)",
    )
    assert rolls[2] == (
        {"sparks": 2},
        "Spend 2 sparks: roll 4 dice needing 3+",
        "+2 dice — 99%; 0 sparks left (DN 4.2)",
    )
    events = t.act("roll_dice", sparks=1, dice=[1, 1, 3])
    assert t.state.last_roll["dice"] == 3 and t.hero("prince").sparks == 1
    assert "sources" in t.state.last_roll and ["spark", 1] in t.state.last_roll["sources"]
    assert "DiceRolled" in t.types(events)


# -- auto-pass -------------------------------------------------------------------------


def test_auto_pass_is_offered_any_time_and_rolls_without_extras() -> None:
    """A seat that auto-passes is not asked before a roll: it rolls as it stands, keeping
    its sparks; the log says so. Turning it off asks again."""
    t = Table.start()
    t.edit(quiet).edit(
        lambda s: (setattr(s.heroes["prince"], "sparks", 2), setattr(s.heroes["prince"], "grace", 1))
    )
    t.act("set_auto_pass", on=True, seat=0)
    assert t.state.options["auto_pass_seats"] == [0]
    t.begin_turn("prince")
    events = t.act("pray", dice=[3, 1])
    assert t.state.last_roll["dice"] == 2 and t.hero("prince").sparks == 2
    assert any("auto-passes: roll 2 dice needing 3+" in line for line in automatic_lines(t, events))
    t.act("set_auto_pass", on=False, seat=0)
    assert t.state.options["auto_pass_seats"] == []


def test_auto_pass_answers_the_pending_question_when_turned_on() -> None:
    """Turning auto-pass on while a roll waits rolls it."""
    t = Table.start()
    t.edit(quiet).edit(
        lambda s: (setattr(s.heroes["prince"], "sparks", 1), setattr(s.heroes["prince"], "grace", 1))
    )
    t.begin_turn("prince")
    t.act("pray")
    assert t.decision.kind == "roll"
    events = t.act("set_auto_pass", on=True, seat=0, dice=[3, 3])
    assert "DiceRolled" in t.types(events)


def test_auto_pass_keeps_real_decisions() -> None:
    """Fight or elude, a wound and the action itself are always asked."""
    t = Table.start()
    t.edit(quiet).edit(lambda s: s.heroes["prince"].items.append(Item("i90", "charm")))
    t.act("set_auto_pass", on=True, seat=0)
    t.begin_turn("prince")
    assert t.decision.kind == "action"
    run_steps(
        t,
        [{"op": "fight", "hero": "prince", "foe": "Ghoul", "strength": 4, "awareness": 3, "fail": []}],
    )
    assert t.decision.kind == "combat"
    events = t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[1])
    # The Charm could reroll: with auto-pass the roll is kept.
    assert any("auto-passes: keep the roll" in line for line in automatic_lines(t, events))
    assert t.hero("prince").item("i90") is not None


def test_only_a_heros_player_may_set_auto_pass() -> None:
    """The toggle is offered to hero seats only; others are refused with a precise error."""
    import pytest

    from app.kernel.types import RuleError

    t = Table.start(seats=2, options={"necromancer_player": True})
    necromancer = next(seat for seat in (0, 1) if all(h.seat != seat for h in t.state.living()))
    hero_seat = 1 - necromancer
    assert any(c.type == "set_auto_pass" for c in t.choices(hero_seat))
    assert not any(c.type == "set_auto_pass" for c in t.choices(necromancer))
    with pytest.raises(RuleError):
        t.send("set_auto_pass", on=True, seat=necromancer)


def test_clicks_per_hero_turn_are_measured() -> None:
    """The bench's figure: required prompts answered per hero turn, and the share of them
    offering a single choice (none, now that such questions are not asked)."""
    figures = measure(games=1)
    assert figures.games == 1 and figures.hero_turns > 0
    # issue 26's target was 2.8; issue 27's bot fights more (its party clears the
    # Necromancer's blights and he attacks them: combat prompts 0.47 -> 0.71 per turn), not
    # the UI asking more: 2.68 -> 3.04 over 100 games (2.70 with auto-pass)
    assert 0 < figures.per_turn <= 3.1
    # a few still offer one choice (a wound with no grace to spend, a roll to keep): 0.4 %
    # over 100 games, before and after issue 27; this game's bot now meets one
    assert figures.single_choice <= 0.01 * figures.clicks
    assert figures.auto_skipped > 0


def test_clicks_are_broken_down_by_prompt_kind_and_choices() -> None:
    """Step 1 of finding one-answer questions: per kind, clicks per turn and how many choices
    its prompts offered; the counts add up to the clicks."""
    figures = measure(games=1)
    assert sum(figures.by_kind.values()) == figures.clicks
    for kind, sizes in figures.by_size.items():
        assert sum(sizes.values()) == figures.by_kind[kind]
        # one-choice questions are not asked, but for the few the 100-game bench still shows
        # (a wound with no grace to spend, DN 13.1; a roll to keep): 0.4 % before issue 27 too
        assert min(sizes) >= 2 or kind in ("wound", "after_roll", "roll")
    lines = breakdown(figures)
    assert len(lines) == len(figures.by_kind)
    top = max(figures.by_kind, key=lambda k: figures.by_kind[k])
    assert lines[0].split()[0] == top and "per turn" in lines[0]
