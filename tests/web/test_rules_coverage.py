"""Kept true by tests (issue 28): every rule reference in a game's code, content and
templates resolves to an entry of its rules reference, every entry is cited by a rule, a
prompt, a page, a guide, a term or a log line, and every first-game guide, term and log
rule points at an entry."""

from __future__ import annotations

import pytest

from app.kernel.registry import all_games
from tests.support.rules_coverage import citations, uncited, unresolved

GAMES = sorted(
    n for n, g in all_games().items() if type(g).__module__.startswith("app.games.") and g.rules_reference()
)
"""The product games with a rules reference (each gets one; ``test_every_game_has_one``)."""


@pytest.mark.parametrize("name", GAMES)
def test_every_citation_resolves_to_an_entry(name: str) -> None:
    game = all_games()[name]
    reference = game.rules_reference()
    assert reference is not None
    assert citations(game, reference), f"{name}'s code cites no {reference.prefix} rule"
    missing = unresolved(game, reference)
    assert not missing, f"{len(missing)} citations of {name} have no entry: " + "; ".join(
        f"{ref} ({where[0]})" for ref, where in sorted(missing.items())
    )


@pytest.mark.parametrize("name", GAMES)
def test_every_entry_is_cited(name: str) -> None:
    reference = all_games()[name].rules_reference()
    assert reference is not None
    assert not uncited(all_games()[name], reference)


@pytest.mark.parametrize("name", GAMES)
def test_guides_terms_and_log_rules_point_at_entries(name: str) -> None:
    game = all_games()[name]
    reference = game.rules_reference()
    assert reference is not None
    pointers = [
        *(g.ref for g in reference.guides.values()),
        *(t.ref for t in reference.terms),
        *reference.log.values(),
    ]
    assert all(reference.resolve(ref) is not None for ref in pointers)
    assert reference.guides, f"{name} has no first-game guide"
    assert len(reference.terms) >= 8, f"{name}'s index of terms is thin"
    known = set(game.event_types())
    assert set(reference.log) <= known, f"log rules for unknown events: {set(reference.log) - known}"
