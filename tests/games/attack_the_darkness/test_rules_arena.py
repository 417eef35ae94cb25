"""Arena mode as played (AtD L287-297): sequential turns with no monster phase, teams,
no class abilities or equipment, opponents as bosses, the Arena forms of stun,
immobilize and domination, every attack answered by a defence window, the last team
standing."""

from __future__ import annotations

import pytest

from app.kernel.types import RuleError
from tests.games.attack_the_darkness.harness import Table, types
from tests.games.attack_the_darkness.positions import (
    afflict,
    damage_to,
    declare,
    equip,
    fold,
    hero,
    kinds,
    of_type,
    offered,
    playable,
    targets,
    view,
    waiting,
    wound,
)


def arena(seats: int = 2, **options: object) -> tuple[Table, list[int]]:
    """An Arena table past the cuts and the placing (AtD L290), the hands emptied; returns
    the seats in initiative order."""
    classes = ["champion", "samurai", "assassin", "psion"][:seats]
    t = Table(seats, classes=classes, mode="arena", **options)
    while waiting(t) == "cut":
        seat = view(t)["waiting"]["seats"][0]
        t.send(seat, "cut", seat=seat, depth=1)
    while waiting(t) == "place_token":
        seat = view(t)["waiting"]["seats"][0]
        t.send(seat, "token", **offered(t, "token", seat)[0])
    order = view(t)["order"]
    for seat in order:
        t.hand(seat)
    return t, order


def stand(t: Table, seat: int, square: tuple[int, int]) -> None:
    """``seat``'s character now stands on ``square`` (a move it made earlier)."""
    fold(t, "Moved", who=f"c{seat}", to=list(square), why="card")


def test_players_take_sequential_turns_in_initiative_order_with_no_monster_phase() -> None:
    """AtD L290: "There are no phases in PVP games. Instead, players take sequential player
    turns" in initiative order."""
    t, (first, second) = arena()
    assert view(t)["waiting"]["seats"] == [first]
    with pytest.raises(RuleError):
        t.send(second, "end_turn", discard=False)
    events = t.send(first, "end_turn", discard=False)
    assert [d["seat"] for d in of_type(events, "TurnBegan")] == [second]
    events = t.send(second, "end_turn", discard=False)
    assert types(events).count("RoundBegan") == 1
    assert [d["seat"] for d in of_type(events, "TurnBegan")] == [first]
    assert view(t)["monsters"] == [] and view(t)["line"] == []


def test_teammates_are_allies_and_only_opponents_are_targets() -> None:
    """AtD L288: "PVP games should have between 2 and 4 teams, with each team comprising 1-3
    players": a teammate beside the player is no target, an opponent is."""
    t, order = arena(4)
    me = order[0]
    team = {c["seat"]: c["team"] for c in view(t)["characters"]}
    assert sorted(team.values()) == [0, 0, 1, 1]
    mate = next(s for s in team if s != me and team[s] == team[me])
    foe_seat = next(s for s in team if team[s] != team[me])
    stand(t, me, (5, 1))
    stand(t, mate, (5, 2))
    stand(t, foe_seat, (6, 1))
    (jab,) = t.hand(me, "jab")
    declare(t, me, jab)
    assert targets(t, me) == {f"c{foe_seat}"}


def test_no_class_ability_and_no_equipment_in_the_arena() -> None:
    """AtD L289: "advancement cards and equipment cards are not used in PVP games.
    Characters playing in PVP games cannot use the special abilities of their class card"."""
    t, (first, _) = arena()
    equip(t, first, "healing_draught")
    assert kinds(t, first) == {"speed", "end_turn"}


def test_every_attack_on_a_player_opens_a_defence_window() -> None:
    """AtD L151: defense cards are played during an enemy's turn, here the opponent's; facts
    file §20: facing a human opponent the window always opens, so a pause tells nothing."""
    t, (first, second) = arena()
    stand(t, first, (5, 1))
    stand(t, second, (6, 1))
    (jab,) = t.hand(first, "jab")
    declare(t, first, jab)
    t.send(first, "target", who=f"c{second}")
    assert waiting(t) == "defend" and offered(t, "pass", second) == [{}]
    assert kinds(t, second) == {"pass"}
    events = t.send(second, "pass")
    assert damage_to(events, f"c{second}") == [2]


def test_opponents_count_as_bosses_for_card_effects() -> None:
    """AtD L289: "for the purpose of any card effects, opposing players are treated as having
    the "Boss" type": Disembowel deals 8 against a boss instead of 3."""
    t, (first, second) = arena()
    stand(t, first, (5, 1))
    stand(t, second, (6, 1))
    disembowel, p1, p2 = t.hand(first, "disembowel", "pious", "pious")
    declare(t, first, disembowel, p1, p2)
    t.send(first, "target", who=f"c{second}")
    events = t.send(second, "pass")
    assert damage_to(events, f"c{second}") == [8]


def test_a_stunned_player_still_acts_after_discarding_one_of_each() -> None:
    """AtD L292: "Stuns do not incapacitate characters. However, players whose character is
    stunned must discard 1 AC and 1 RC at the end of their start step"."""
    t, (first, second) = arena()
    afflict(t, f"c{second}", "stunned", rounds=1, by=first)
    events = t.send(first, "end_turn", discard=False)
    seen = types(events)
    stunned = [d for d in of_type(events, "CardsDiscarded") if d["why"] == "stunned"]
    assert [(d["seat"], len(d["cards"])) for d in stunned] == [(second, 2)]
    assert seen.index("CardsDrawn", seen.index("TurnBegan")) < seen.index("CardsDiscarded")
    me = hero(t, second)
    assert (me["hand_actions"], me["hand_resources"]) == (2, 2)
    assert waiting(t) == "act" and view(t)["waiting"]["seats"] == [second]


def test_an_immobilized_player_has_no_speed_move_and_pays_double_for_maneuvers() -> None:
    """AtD L293: "Immobilization prevents characters from using their free movement at speed
    during their turn. Resource costs of all maneuver cards are doubled when immobilized,
    though 0-cost cards are unaffected"."""
    t, (first, _) = arena()
    afflict(t, f"c{first}", "immobilized", rounds=1)
    t.hand(first, "feint", "footwork", "pious")
    assert "speed" not in kinds(t, first)
    assert playable(t, first) == {"footwork"}  # Feint costs 2 red now
    assert "AtD L140, L143" in hero(t, first)["unplayable"]["feint"]
    t.card(first, "pious")
    assert playable(t, first) == {"feint", "footwork"}


def test_domination_has_no_effect_on_a_player() -> None:
    """AtD L294: "Dominate has no effect on characters"."""
    t, (first, second) = arena()
    stand(t, second, (0, 5))
    guide, e1, e2, e3 = t.hand(first, "spirit_guide", "elemental", "elemental", "elemental")
    declare(t, first, guide, e1, e2, e3)
    events = t.send(first, "target", who=f"c{second}")
    assert "StatusSet" not in types(events)
    assert hero(t, second)["statuses"] == {}


def test_the_last_team_standing_wins() -> None:
    """AtD L234: "two or more players fight each other"; facts file §15: the last team with
    a conscious character wins."""
    t, (first, second) = arena()
    stand(t, first, (5, 1))
    stand(t, second, (6, 1))
    wound(t, second, hero(t, second)["hp"] - 2)
    (jab,) = t.hand(first, "jab")
    declare(t, first, jab)
    t.send(first, "target", who=f"c{second}")
    events = t.send(second, "pass")
    assert "KnockedOut" in types(events)
    (ended,) = of_type(events, "GameEnded")
    assert ended["result"] == "win" and ended["winners"] == [first]
