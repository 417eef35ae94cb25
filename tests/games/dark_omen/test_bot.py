"""The heuristic bot plays any seat with legal choices to the end: a Quick Start chapter
(it wins some) and a whole campaign across chapter boundaries; it fights a boss from range,
reads no face-down token and buys a ranged weapon first; and the engine bench runs."""

from __future__ import annotations

import argparse
import json
import random

import pytest

from app.bench.engine import run_engine
from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.bench import play_with_bots
from app.games.dark_omen.bot import tactics
from app.games.dark_omen.state import State
from app.kernel import table as kernel
from app.kernel.types import Choice, Event
from tests.games.dark_omen.harness import arranged, enemy, table


def test_the_bot_plays_quick_start_chapters_and_wins_some() -> None:
    results = []
    for seed in range(3):
        state, commands = play_with_bots({"mode": "quick_chapter", "chapter": 1}, 2, seed)
        outcome = DARK_OMEN.outcome(state)
        assert outcome is not None and commands < 60_000
        results.append(outcome.result)
    assert "win" in results


def test_the_bot_plays_a_whole_campaign_across_chapters() -> None:
    """Across chapter boundaries the log replays to the same state (through JSON, as stored)
    and no viewer's feed or view shows a face-down token."""
    log: list[Event] = []
    state, _ = play_with_bots({"difficulty": "light"}, 2, 2, log=log, check=True)
    stored = [Event(**e) for e in json.loads(json.dumps([e.to_json() for e in log]))]
    assert kernel.replay(DARK_OMEN, stored) == state
    assert DARK_OMEN.outcome(state) is not None
    assert len(state.results) >= 2  # at least one chapter boundary crossed
    assert all(h.guild for h in state.heroes)  # one guild each from chapter 2 (DO L189)
    assert len({h.guild for h in state.heroes}) == len(state.heroes)
    chapters = DARK_OMEN.chapters(state)
    assert [c.outcome.result for c in chapters if c.outcome] == state.results


def test_umbra_bench_engine_dark_omen(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_engine("dark_omen", argparse.Namespace(quick=True, smoke=True)) == 0
    out = capsys.readouterr().out
    assert "commands/s" in out and "games/s" in out and "won" in out


def boss_day(ranged: tuple[bool, bool] = (True, True)) -> State:
    """Chapter 3's boss day, two heroes on 10 and 11 (an open edge between at layers 0), the
    boss on 12, each hero with a bow (range 2) or a hammer."""
    s = arranged(table(seats=2, chapter=3), hp=25, mp=20)
    s.day, s.round = 6, 1
    for h, bow in zip(s.heroes, ranged, strict=True):
        weapon = "g3_w5" if bow else "g3_w4"
        h.gear, h.equipped = [weapon], {"primary": weapon}
    s.heroes[1].at = 11
    boss = enemy(s, space=12, level=3, hp=23, armor=1, dr="d6+1", cid="b1", name="Solveig the witch")
    boss.kind, boss.card, boss.dice = "boss", "solveig", 3
    return s


def pick(s: State, seat: int) -> Choice | None:
    prompt = next(p for p in DARK_OMEN.prompts(s) if p.seat == seat and p.required)
    return DARK_OMEN.bot_choice(s, prompt, random.Random(0))


def test_a_ranged_hero_shoots_the_boss_from_afar() -> None:
    """DO L363: from range the boss's dice cannot hurt the shooter."""
    s = boss_day()
    shot = pick(s, 0)
    assert shot is not None and shot.type == "attack" and shot.args["creature"] == "b1"
    assert s.heroes[0].at != s.creatures[0].space


def test_the_hero_the_boss_rushed_waits_for_the_other_shot() -> None:
    """The boss rushes onto whoever shot it (DO L363-365): the other ranged hero shoots next
    (1 AP a shot) while the one it stands on waits; alone, it steps out to shoot again."""
    s = boss_day()
    s.creatures[0].space = 10
    assert pick(s, 0) is None
    assert pick(s, 1).type == "attack"
    s.heroes[1].done = True
    step = pick(s, 0)
    assert step is not None and step.type == "move"
    assert step.args["to"] in tactics.firing_spaces(s, 0, 10)


def test_a_melee_hero_keeps_out_of_a_boss_fight_it_cannot_bear() -> None:
    s = boss_day(ranged=(False, True))
    s.creatures[0].space, s.heroes[0].hp = 10, 9
    choice = pick(s, 0)
    assert choice is not None and choice.type != "attack"


def test_the_bot_reads_no_face_down_creature_level() -> None:
    """DO L476: a face-down token shows no level; the heuristic judges it by the levels its
    omen may place, so two tables differing only in that level get the same answer."""
    s = arranged(table(seats=1, chapter=3), hp=13, mp=20)
    s.heroes[0].gear, s.heroes[0].equipped = ["g3_w4"], {"primary": "g3_w4"}
    weak, strong = s.clone(), s.clone()
    for state, level in ((weak, 2), (strong, 3)):
        foe = enemy(state, space=10, level=level, cid="c9")
        foe.card, foe.name, foe.hp, foe.dr, foe.token, foe.omen = (
            None,
            None,
            None,
            None,
            f"ct0{level}.c9",
            True,
        )
        foe.dice = level
    assert pick(weak, 0) == pick(strong, 0)


def test_the_bot_buys_a_ranged_weapon_first() -> None:
    """At a market with gold for a bow, it buys the bow before anything else."""
    s = arranged(table(seats=1, chapter=2), gold=8, mp=20)
    s.heroes[0].at = "Hoglichten:market"
    s.heroes[0].gear, s.heroes[0].equipped = ["g2_w0"], {"primary": "g2_w0"}
    choice = pick(s, 0)
    assert choice is not None and (choice.type, choice.args) == ("buy", {"gear": "g2_w5"})
