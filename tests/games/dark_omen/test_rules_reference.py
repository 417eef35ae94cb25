"""Dark Omen's rules at hand (issue 28): the reference follows the rulebook's lines (one entry
per stretch of lines, anchored at its first), the first-game guide names the step a seat's
prompt belongs to (``guide.py``) and every step it can name has a guide, and the round greys
out what no hero may do yet with the rule that says so."""

from __future__ import annotations

from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.decisions import NextChapter
from app.games.dark_omen.guide import STEPS
from app.games.dark_omen.state import Omen, State
from app.kernel.reference import RulesReference
from app.kernel.types import Prompt
from tests.games.dark_omen.harness import arranged, enemy, play, table
from tests.games.dark_omen.positions import face_down, holding, offered

RULEBOOK_LINES = 554
"""The rulebook's last line (``/work/shared/rules/dark-omen.txt``: its Quick Start ends there)."""


def reference() -> RulesReference:
    found = DARK_OMEN.rules_reference()
    assert found is not None
    return found


def prompt_of(s: State, seat: int = 0) -> Prompt:
    """The seat's required prompt."""
    return next(p for p in DARK_OMEN.prompts(s) if p.seat == seat and p.required)


def step_of(s: State, seat: int = 0) -> str | None:
    return DARK_OMEN.guide_step(s, prompt_of(s, seat))


def dawn(s: State) -> State:
    """The first round of the day, before anyone spent an AP."""
    s.round = 1
    return spent(s, 0)


def spent(s: State, ap: int = 1) -> State:
    """The heroes are past the day's dawn: some AP of the round spent."""
    for h in s.heroes:
        h.ap = ap
    return s


# -- the reference ---------------------------------------------------------------------------


def test_entries_follow_the_rulebooks_lines_without_overlapping() -> None:
    entries = reference().entries
    assert len(entries) >= 140
    lines = [e.lines for e in entries]
    assert all(span is not None for span in lines)
    assert lines == sorted(lines), "entries in the rulebook's order"
    for entry, following in zip(entries, entries[1:], strict=False):
        assert entry.lines is not None and following.lines is not None
        assert entry.lines[0] <= entry.lines[1] < following.lines[0], (entry.ref, following.ref)
    assert all(e.ref == f"DO L{e.lines[0]}" for e in entries if e.lines), "anchored at the first line"
    assert entries[-1].lines is not None and entries[-1].lines[1] == RULEBOOK_LINES


def test_a_line_resolves_to_the_entry_holding_it() -> None:
    found = reference().resolve("DO L289")
    assert found is not None and found.ref == "DO L288" and found.title == "Meditation"
    ranged = reference().resolve("DO L312-313")
    assert ranged is not None and ranged.title == "Runehenges"
    assert reference().resolve("DO L5") is None  # the table of contents explains no rule


def test_every_term_of_an_entry_is_in_the_index() -> None:
    names = {t.name for t in reference().terms}
    assert len(names) >= 12
    assert {"AP", "MP", "darkness meter", "Obstacle Throw", "boost"} <= names
    assert all(set(e.terms) <= names for e in reference().entries)


# -- the first game's guide ------------------------------------------------------------------


def test_every_step_the_guide_can_name_has_a_guide_and_no_guide_is_idle() -> None:
    assert set(STEPS) == set(reference().guides)
    for guide in reference().guides.values():
        assert guide.text.count(". ") + guide.text.count("! ") == 1, f"two sentences: {guide.step}"


def test_the_days_dawn_then_the_round() -> None:
    s = table(seats=2)
    assert step_of(s, 0) == step_of(s, 1) == "new_day"
    s = spent(arranged(s))
    assert step_of(s) == "act"
    s.round = 3
    assert step_of(s) == "night"
    s.omen = None
    assert step_of(s) == "free_day"
    s.omen = Omen("a_call_for_aid", status="success")
    assert step_of(s) == "free_day"  # settled: the rest of the day is free
    s.omen = Omen("boss_vahva")
    assert step_of(s) == "boss"
    assert step_of(dawn(s)) == "boss"  # a boss day's dawn is the boss's


def test_what_the_hero_stands_on_names_the_step() -> None:
    s = spent(arranged(table()))
    face_down(s, 10, "herb_blue")
    assert step_of(s) == "loot"
    enemy(s, space=10)
    assert step_of(s) == "fight"  # an enemy in reach comes before the loot
    for place, step in (("gate", "town"), ("market", "market"), ("tavern", "tavern"), ("healer", "healer")):
        at_town = spent(arranged(table(), at=f"Hoglichten:{place}", gold=5))
        assert step_of(at_town) == step


def test_a_battle_and_a_team_attack_name_their_steps() -> None:
    s = spent(arranged(table(seats=2)))
    enemy(s, space=10, hp=30)
    s, _ = play(s, 0, "propose_team", creature="e1")
    assert step_of(s, 0) == "team_lead"
    assert step_of(s, 1) == "team_invite"
    s, _ = play(s, 1, "join_team", leader=0)
    assert step_of(s, 1) == "team_wait"
    s, _ = play(s, 0, "launch_team", rolls=[3, 3, 2])
    assert step_of(s, 0) == step_of(s, 1) == "battle"


def test_a_fallen_hero_and_the_next_chapter() -> None:
    s = arranged(table(seats=2), hp=2)
    enemy(s, dr="5")
    s, _ = play(s, 0, "attack", [1, 6], creature="e1")
    s, _ = play(s, 0, "finalize", [5])
    assert not s.heroes[0].alive
    s, _ = play(s, 1, "end_round")
    assert step_of(s, 0) == "new_character"
    between = arranged(table())
    between.decision = NextChapter(seat="any", seats=[0], chapter=2)
    assert step_of(between) == "next_chapter"


def test_optional_prompts_have_no_step() -> None:
    s = spent(arranged(table(seats=2)))
    holding(s, 0, "herb_blue")  # something to drop once the round is over
    s, _ = play(s, 0, "end_round")
    free = [p for p in DARK_OMEN.prompts(s) if p.seat == 0]
    assert free and all(not p.required for p in free)
    assert all(DARK_OMEN.guide_step(s, p) is None for p in free)


# -- greyed out, with the rule ---------------------------------------------------------------


def greyed(s: State, seat: int = 0) -> dict[str, str]:
    return {u.type: u.rule for u in prompt_of(s, seat).unavailable}


def test_barrows_are_greyed_out_in_chapter_1_and_open_after() -> None:
    assert greyed(spent(arranged(table())))["search_barrow"] == "DO L315"
    later = spent(arranged(table(chapter=2)))
    assert "search_barrow" not in greyed(later) and offered(later, 0, "search_barrow")


def test_meditation_is_greyed_out_without_an_active_omen() -> None:
    s = spent(arranged(table()))
    assert offered(s, 0, "meditate") and "meditate" not in greyed(s)
    s.omen = None
    assert not offered(s, 0, "meditate") and greyed(s)["meditate"] == "DO L289"
    s.omen = Omen("a_call_for_aid", status="success")
    assert greyed(s)["meditate"] == "DO L289"


def test_every_greyed_out_rule_has_an_entry() -> None:
    s = spent(arranged(table()))
    s.omen = None
    rules = greyed(s).values()
    assert rules and all(reference().resolve(r) is not None for r in rules)
