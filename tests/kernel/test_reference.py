"""A game's rules reference (app/kernel/reference.py, issue 28): read from its TOML, every
citation of the code resolves to the entry covering it (a section's nearest parent, or the
entry whose rulebook lines hold a line), and citations are found in any text."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.kernel.reference import Entry, RulesReference, citation_pattern, load
from tests.support.lanterns import LANTERNS


def sections() -> RulesReference:
    entries = tuple(Entry(ref, ref, "text", "c") for ref in ("DN 12.0", "DN 14", "DN 14.3", "DN 14.3.2"))
    return RulesReference("DN", "Darkest Night", (("c", entries),))


def lines() -> RulesReference:
    entries = (
        Entry("DO L200", "Rounds", "t", "c", (198, 212)),
        Entry("DO L386", "Gear", "t", "c", (380, 390)),
    )
    return RulesReference("DO", "Dark Omen", (("c", entries),))


@pytest.mark.parametrize(
    ("ref", "entry"),
    [
        ("DN 14.3.2", "DN 14.3.2"),
        ("DN 14.3.1", "DN 14.3"),  # the nearest parent with an entry
        ("DN 14.0", "DN 14"),
        ("DN 14.1", "DN 14"),
        ("DN 12", "DN 12.0"),
        ("DN 12.3", "DN 12.0"),
        ("DN  14.3.2 ", "DN 14.3.2"),
        ("DN 13.1", None),
        ("DO 14", None),
        ("DN L14", None),
    ],
)
def test_a_section_resolves_to_itself_or_its_nearest_parent(ref: str, entry: str | None) -> None:
    found = sections().resolve(ref)
    assert (found.ref if found else None) == entry


@pytest.mark.parametrize(
    ("ref", "entry"),
    [
        ("DO L211", "DO L200"),
        ("DO L211–212", "DO L200"),
        ("DO L198", "DO L200"),
        ("DO L386", "DO L386"),
        ("DO L213", None),
    ],
)
def test_a_line_resolves_to_the_entry_whose_lines_hold_it(ref: str, entry: str | None) -> None:
    found = lines().resolve(ref)
    assert (found.ref if found else None) == entry


def test_citations_are_found_in_any_text() -> None:
    text = "a used item is locked (DN 15.1); see DN 14.3.2, DN 5.0. Not DNA 4 nor DN-3."
    assert citation_pattern("DN").findall(text) == ["DN 15.1", "DN 14.3.2", "DN 5.0"]
    assert citation_pattern("DO").findall("you ended the round (DO L211–212) and DO L5.") == [
        "DO L211–212",
        "DO L5",
    ]


def test_anchors_are_ids() -> None:
    assert Entry("DN 14.3.2", "t", "x", "c").anchor == "DN-14.3.2"
    assert Entry("AtD L151", "t", "x", "c").anchor == "AtD-L151"


def test_the_test_game_reads_its_reference() -> None:
    reference = LANTERNS.rules_reference()
    assert reference.prefix == "LR"
    assert [e.ref for e in reference.entries] == ["LR 1", "LR 2.1", "LR 2.2"]
    assert reference.guides["turn"].ref == "LR 2.1"
    assert reference.log == {"CardPlayed": "LR 2.2", "DieRolled": "LR 2.2"}
    assert reference.resolve("LR 2.1.4").title == "Taking turns"


def test_a_malformed_reference_says_which_file(tmp_path: Path) -> None:
    path = tmp_path / "rules_reference.toml"
    path.write_text('prefix = "X"\n[[chapter]]\ntitle = "1"\n[[chapter.entry]]\nref = "X 1"\n')
    with pytest.raises(ValueError, match="rules_reference.toml: malformed"):
        load(path)
