"""Omens beyond the four mission kinds (DO L133-143, L243, L302, L475-478): their texts, the
props standing for what the rulebook has no token for, the day's rule changes, and the
collect, clear and escort missions, played through the engine."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from app.games.dark_omen.board import neighbours
from app.games.dark_omen.content import load
from app.games.dark_omen.engine import new_ctx
from app.games.dark_omen.rules import days, omens
from app.games.dark_omen.state import State
from tests.games.dark_omen.harness import Rigged, arranged, choices, enemy, of, play, table

C = load()


def with_omen(s: State, oid: str, rolls: list[int] | None = None) -> tuple[State, list[Any]]:
    """The omen drawn and set up on this state (DO L135: after the normal setup)."""
    ctx = new_ctx(s.clone(), Rigged(rolls or []))
    days.set_up_omen(ctx, oid)
    return ctx.s, ctx.events


# -- the cards ----------------------------------------------------------------------------------


def test_every_omen_card_has_its_five_parts() -> None:
    """DO L133-142: story, setup, rules / mission, success, failure; texts authored."""
    for oid, omen in C.omens.items():
        assert omen["story"] and omen["text"], oid
        assert omen["mission"] in omens.MISSIONS, oid
        assert set(omen.get("rules", {})) <= set(omens.RULE_TEXTS), oid
        assert omen["success"] and omen["failure"], oid
        if omen["source"] == "rulebook":
            assert omen["text_source"] == "authored", oid
        for prop in omen.get("props", []):
            assert prop["kind"] in omens.TASKS and 1 <= prop["space"] <= 111, oid


def test_omens_use_every_mission_and_rule_and_stay_within_the_tokens() -> None:
    """Props stand in for the omen tokens of the box (DO L59: 9 fires, 4 graves, 24 omen
    loot); every mission and rule name is played by some card."""
    assert {o["mission"] for o in C.omens.values()} == set(omens.MISSIONS)
    assert {r for o in C.omens.values() for r in o.get("rules", {})} == set(omens.RULE_TEXTS)
    supply = {"fire": 9, "grave": 4, "relic": 24, "person": 1}
    for oid, omen in C.omens.items():
        kinds = Counter(p["kind"] for p in omen.get("props", []))
        assert all(kinds[k] <= supply[k] for k in kinds), oid
        if omen["mission"] in ("collect", "clear", "escort"):
            assert kinds, oid
        for cid in omen.get("named", []):
            assert C.creatures[cid]["level"] == omen["level"], oid
        assert len(omen.get("named", [])) <= len(omen.get("spaces", [])), oid
        side = C.board.side(omen["level"])
        for kind in omen.get("unlock", []):
            assert any(k == kind for k, _ in side.locations), oid


def test_the_named_omens_keep_their_names() -> None:
    """DO L131, L142."""
    names = {o["name"]: o for o in C.omens.values()}
    assert names["A Call for Aid"]["mission"] == "escort"
    assert names["Attack at Dawn"]["level"] == names["Fire Devil"]["level"] == 1


# -- setup -----------------------------------------------------------------------------------------


def test_named_creatures_need_no_flip_and_tokens_take_the_levels_named() -> None:
    """DO L475-478: "3 Grolls" are known at once; "L2 and L3 creatures" are face-down
    tokens of those levels."""
    s = arranged(table(chapter=3))
    s, events = with_omen(s, "l3_silent_herd")
    placed = of(events, "CreaturePlaced")
    assert [p.get("card") for p in placed[:2]] == ["pale_troll", "grave_jotun"]
    assert "token" in placed[2] and placed[2]["level"] in (2, 3)
    s, events = with_omen(arranged(table(chapter=3)), "l3_frozen_mill")
    levels = [p["level"] for p in of(events, "CreaturePlaced")]
    assert len(levels) == 3 and set(levels) <= {2, 3}


def test_an_omen_flips_location_tokens_without_the_price() -> None:
    """DO L302: "Some Omens … will have you flip the location tokens without paying"."""
    s = arranged(table(chapter=3))
    shut = [sp for sp, loc in s.locations.items() if loc.kind == "runehenge" and not loc.open]
    assert shut
    s, events = with_omen(s, "l3_screaming_hall")
    assert sorted(e["space"] for e in of(events, "LocationUnlocked")) == sorted(shut)
    assert all(s.locations[sp].open for sp in shut)


def test_the_omen_is_read_aloud_with_its_rules() -> None:
    s, events = with_omen(arranged(table()), "demonic_weather")
    (drawn,) = of(events, "OmenDrawn")
    assert drawn["story"] and drawn["text"]
    assert drawn["rules"] == ["Crossing a black line costs 2 MP more today"]


# -- the day's rules ----------------------------------------------------------------------------


def wall_step() -> tuple[int, int]:
    side = C.board.side(1)
    return next((a, b) for a in range(1, 112) for b in neighbours(a) if side.edge(a, b).kind == "wall")


def test_a_storm_makes_black_lines_dearer_all_day() -> None:
    """Demonic Weather: +2 MP per obstacle (DO L240 plus the card), even once the omen is
    won: its rules last the day (DO L135)."""
    here, wall = wall_step()
    s, _ = with_omen(arranged(table(), at=here), "demonic_weather")
    s.omen.status = "success"
    s, _ = play(s, 0, "move", to=wall)
    assert (s.heroes[0].at, s.heroes[0].mp) == (wall, 15 - 6)


def test_fury_adds_to_every_enemy_damage_roll() -> None:
    """Attack at Dawn: enemies strike 1 harder (DO L412 plus the card)."""
    s, _ = with_omen(arranged(table()), "attack_at_dawn")
    s.creatures = [x for x in s.creatures if not x.omen]
    enemy(s, dr="3")
    s, _ = play(s, 0, "attack", rolls=[2, 5], creature="e1")
    s, events = play(s, 0, "finalize")
    assert of(events, "BattleEnded")[0]["strikes"][0]["damage"] == 4 and s.heroes[0].hp == 11


def test_fire_scorches_who_steps_in_and_a_doused_fire_does_not() -> None:
    """Fire Devil: stepping into a fire costs 1 HP; 1 AP douses it."""
    s, _ = with_omen(arranged(table(), at=36), "fire_devil")
    s, events = play(s, 0, "move", to=35)
    assert s.heroes[0].hp == 14
    assert ("tend", {"prop": "fire_devil.1"}) in choices(s, 0)
    s, _ = play(s, 0, "tend", prop="fire_devil.1")
    assert s.heroes[0].ap == 2 and not any(p.space == 35 for p in s.props)
    s, _ = play(s, 0, "move", to=36)
    s, _ = play(s, 0, "move", to=35)
    assert s.heroes[0].hp == 14


def test_chill_bites_at_night_out_on_the_map_but_not_at_a_campfire() -> None:
    """Frozen Herd: 1 HP at each night round's start (night: rounds 3-4, facts §3)."""
    s, _ = with_omen(arranged(table(seats=2)), "l2_frozen_herd")
    s.heroes[1].at = "Hoglichten:tavern"
    s.round = 2
    s.campfires = []
    s, _ = play(s, 0, "end_round")
    s, events = play(s, 1, "end_round")
    assert s.round == 3 and s.heroes[0].hp == 14 and s.heroes[1].hp == 15


def test_silence_forbids_meditation() -> None:
    s, _ = with_omen(arranged(table(chapter=2)), "l2_shrouded_shrine")
    assert "meditate" not in {t for t, _ in choices(s, 0)}
    s, _ = with_omen(arranged(table(chapter=2)), "l2_ashen_market")
    assert "meditate" in {t for t, _ in choices(s, 0)}


# -- the new missions -------------------------------------------------------------------------------


def test_collecting_the_omen_loot_succeeds_when_every_piece_is_held() -> None:
    """DO L243: an omen requires specific loot tokens; success pays at once (DO L136)."""
    s, _ = with_omen(arranged(table(seats=2), at=108), "l1_hungry_ferry")
    s.heroes[1].at = 70
    s, events = play(s, 0, "tend", prop="l1_hungry_ferry.1")
    assert not of(events, "OmenEnded")
    s, _ = play(s, 0, "move", to=107)
    assert next(p for p in s.props if p.id == "l1_hungry_ferry.1").space == 107  # it goes along
    s, events = play(s, 1, "tend", prop="l1_hungry_ferry.2")
    assert of(events, "OmenEnded") == [{"omen": "l1_hungry_ferry", "status": "success"}]


def test_a_race_for_the_same_omen_loot_is_lost_by_the_second() -> None:
    """Facts §21: the first commit wins; the loser's command costs nothing (a 422 from the
    game, told as a lost race, 409 ``taken``, by the platform: tests/api/test_strict_commands)."""
    from app.games.dark_omen import DARK_OMEN
    from app.kernel import table as kernel
    from app.kernel.types import Command, RuleError, Viewer

    s, _ = with_omen(arranged(table(seats=2), at=108), "l1_hungry_ferry")
    s, _ = play(s, 0, "tend", prop="l1_hungry_ferry.1")
    with pytest.raises(RuleError) as err:
        kernel.decide(
            DARK_OMEN,
            s,
            Command(1, "tend", {"prop": "l1_hungry_ferry.1"}),
            Viewer("seat", frozenset({1})),
            Rigged([]),
        )
    assert err.value.code == "not_offered" and err.value.status == 422
    assert s.heroes[1].ap == 0


def test_clearing_every_grave_succeeds_and_pays_at_once() -> None:
    """Broken Barrow: lay each grave to rest, 1 AP each (facts §7: a location action)."""
    s, _ = with_omen(arranged(table(chapter=2)), "l2_broken_barrow")
    graves = [(p.id, p.space) for p in s.props]
    assert [sp for _, sp in graves] == [62, 64, 25]
    for i, (pid, space) in enumerate(graves):
        s.heroes[0].at = space
        s, events = play(s, 0, "tend", prop=pid)
        assert bool(of(events, "OmenEnded")) == (i == len(graves) - 1)
    assert s.heroes[0].ap == 3 and s.omen.status == "success"


def test_a_call_for_aid_leads_the_hunter_home() -> None:
    """A Call for Aid (DO L142): lead the one calling for aid to Hoglichten's gate."""
    s, _ = with_omen(arranged(table(), at=41), "a_call_for_aid")
    s, _ = play(s, 0, "tend", prop="a_call_for_aid.1")
    assert s.props[0].carried_by == 0
    s.heroes[0].at = 40
    s.props[0].space = 40
    s.layers = {"white": 0, "clear": 0}
    step = next(a for t, a in choices(s, 0) if t == "move" and a["to"] == 39)
    s, events = play(s, 0, "move", **{k: v for k, v in step.items() if k != "hero"})
    assert of(events, "OmenEnded") == [{"omen": "a_call_for_aid", "status": "success"}]


def test_the_escorted_falls_where_the_hero_falls_and_the_props_leave_with_the_day() -> None:
    """DO L141: the omen's setup is removed before the next omen."""
    s, _ = with_omen(arranged(table(), at=41, hp=1), "a_call_for_aid")
    s, _ = play(s, 0, "tend", prop="a_call_for_aid.1")
    enemy(s, space=41, dr="3")
    s, _ = play(s, 0, "attack", rolls=[1, 6], creature="e1")
    s, _ = play(s, 0, "finalize", rolls=[3])
    assert not s.heroes[0].alive and s.props[0].carried_by is None and s.props[0].space == 41
    s2 = arranged(table())
    s2, _ = with_omen(s2, "fire_devil")
    s2.round = 4
    s2, _ = play(s2, 0, "end_round")
    assert s2.day == 2 and all(not p["id"].startswith("fire_devil") for p in s2.props)


def test_the_omen_guards_stand_in_hunts_and_must_fall_too() -> None:
    """The 4 omen guards of the 12 guard cards (DO L56, facts §22) each guard one hunt."""
    omen_guards = {
        g for g, card in C.guards.items() if card["name"] not in ("Screeching Specter", "Draugr Champion")
    }
    placed = {e["guard"]: o for o in C.omens.values() for e in o.get("guards", [])}
    assert set(placed) == omen_guards
    assert all(placed[g]["mission"] == "hunt" and placed[g]["level"] == C.guards[g]["level"] for g in placed)
    s, events = with_omen(arranged(table()), "l1_weeping_ford")
    guard = next(x for x in s.creatures if x.kind == "guard")
    assert guard.name == "Gate Warden" and guard.space == 5 and guard.omen
    s.creatures = [guard]
    assert not omens.hunt_met(s, C, C.omens["l1_weeping_ford"])
    s.creatures = []
    assert omens.hunt_met(s, C, C.omens["l1_weeping_ford"])


def test_a_witch_on_space_42() -> None:
    """DO L143: "if an Omen asks you to 'Place a Witch on space 42' … use the generic tokens"."""
    s, events = with_omen(arranged(table(chapter=3)), "l3_drowned_market")
    assert of(events, "PropPlaced") == [
        {"id": "l3_drowned_market.1", "kind": "person", "name": "Witch", "space": 42}
    ]
