"""A game's rules reference (issue 28): every rule the table applies, in our own words,
one entry per rule we cite, organised like the game's rulebook, with an index of terms and
the short guide a first game shows beside the prompts.

A game keeps it as data (``content/rules_reference.toml``) and hands it to the platform
with ``Game.rules_reference()``; the web layer renders the page, the side panel and the
links, knowing nothing of any game's rules. A citation such as ``DN 14.3.2`` (a numbered
section) or ``AtD L151`` / ``DO L211–212`` (rulebook lines) resolves to the entry that
covers it: the entry of that section or its nearest parent section, or the entry whose
lines hold the line.

The file::

    prefix = "DN"                     # how the game's citations start
    rulebook = "Darkest Night (2nd edition)"

    [[chapter]]
    title = "12 Combat"

    [[chapter.entry]]
    ref = "DN 12.1"                   # its anchor, as the code cites it
    lines = [147, 151]                # line rulebooks only: the lines it covers
    title = "Fighting and eluding"
    text = "…in our own words…"
    terms = ["fight", "elude"]

    [[term]]
    name = "grace"
    text = "…"
    ref = "DN 4.1"

    [[guide]]
    step = "event"                    # Game.guide_step's name for a step of a turn
    text = "Two sentences: what the step is for, and the usual choice."
    ref = "DN 7.0"

    [log]
    HeroMoved = "DN 8.1"             # the rule each kind of log line applies
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

SECTION = re.compile(r"(\d+(?:\.\d+)*)$")
LINES = re.compile(r"L(\d+)(?:\s*[–-]\s*L?(\d+))?$")


@dataclass(frozen=True, slots=True)
class Entry:
    """One rule, in our words."""

    ref: str
    title: str
    text: str
    chapter: str
    lines: tuple[int, int] | None = None
    terms: tuple[str, ...] = ()

    @property
    def anchor(self) -> str:
        """The entry's id on the rules page: ``DN-14.3.2``, ``AtD-L151``."""
        return re.sub(r"[^A-Za-z0-9.]+", "-", self.ref).strip("-")

    def to_json(self) -> dict[str, Any]:
        return {
            "ref": self.ref,
            "anchor": self.anchor,
            "title": self.title,
            "text": self.text,
            "chapter": self.chapter,
            "lines": list(self.lines) if self.lines else None,
            "terms": list(self.terms),
        }


@dataclass(frozen=True, slots=True)
class Term:
    """A word of the game (grace, the darkness meter…), with the rule that says most."""

    name: str
    text: str
    ref: str

    @property
    def anchor(self) -> str:
        return "term-" + re.sub(r"[^A-Za-z0-9]+", "-", self.name.lower()).strip("-")


@dataclass(frozen=True, slots=True)
class Guide:
    """What a step of a turn is for, in two sentences, for a player's first game."""

    step: str
    text: str
    ref: str


@dataclass(frozen=True)
class RulesReference:
    prefix: str
    rulebook: str
    chapters: tuple[tuple[str, tuple[Entry, ...]], ...]
    terms: tuple[Term, ...] = ()
    guides: dict[str, Guide] = field(default_factory=dict)
    log: dict[str, str] = field(default_factory=dict)
    """Event type → the rule its log line applies."""

    @cached_property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(e for _, entries in self.chapters for e in entries)

    @cached_property
    def _by_ref(self) -> dict[str, Entry]:
        return {normal(e.ref): e for e in self.entries}

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """A citation of this game anywhere in a text (``DN 14.3.2``, ``AtD L151–152``)."""
        return citation_pattern(self.prefix)

    def resolve(self, ref: str) -> Entry | None:
        """The entry covering the citation ``ref``, or None."""
        ref = normal(ref)
        if not ref.startswith(self.prefix + " "):
            return None
        body = ref[len(self.prefix) + 1 :]
        if (lines := LINES.match(body)) is not None:
            line = int(lines.group(1))
            return next((e for e in self.entries if e.lines and e.lines[0] <= line <= e.lines[1]), None)
        if SECTION.match(body) is None:
            return None
        parts = body.split(".")
        while len(parts) > 1 and parts[-1] == "0":
            parts.pop()  # "14.0" is section 14
        while parts:
            key = ".".join(parts)
            for candidate in (key, key + ".0"):
                found = self._by_ref.get(f"{self.prefix} {candidate}")
                if found is not None:
                    return found
            parts.pop()  # the nearest parent section that has an entry
        return None

    def citations(self, text: str) -> list[str]:
        """Every citation of this game in ``text``, in order."""
        return [m.group(0) for m in self.pattern.finditer(text)]

    def to_json(self) -> dict[str, Any]:
        return {
            "prefix": self.prefix,
            "rulebook": self.rulebook,
            "chapters": [{"title": t, "entries": [e.to_json() for e in es]} for t, es in self.chapters],
            "terms": [{"name": t.name, "text": t.text, "ref": t.ref, "anchor": t.anchor} for t in self.terms],
            "guides": {s: {"text": g.text, "ref": g.ref} for s, g in self.guides.items()},
        }


def citation_pattern(prefix: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(prefix)} (?:L\d+(?:\s?[–-]\s?L?\d+)?|\d+(?:\.\d+)*)(?![\w.]*\d)")


def normal(ref: str) -> str:
    return re.sub(r"\s+", " ", ref.strip())


def load(path: Path) -> RulesReference:
    """Read a ``rules_reference.toml`` (see the module's docstring); a malformed file fails
    loudly with its path."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    try:
        prefix = data["prefix"]
        chapters = tuple(
            (
                chapter["title"],
                tuple(
                    Entry(
                        ref=normal(e["ref"]),
                        title=e["title"],
                        text=e["text"].strip(),
                        chapter=chapter["title"],
                        lines=tuple(e["lines"]) if "lines" in e else None,  # type: ignore[arg-type]
                        terms=tuple(e.get("terms", ())),
                    )
                    for e in chapter.get("entry", ())
                ),
            )
            for chapter in data.get("chapter", ())
        )
        terms = tuple(Term(t["name"], t["text"].strip(), normal(t["ref"])) for t in data.get("term", ()))
        guides = {
            g["step"]: Guide(g["step"], g["text"].strip(), normal(g["ref"])) for g in data.get("guide", ())
        }
        log = {k: normal(v) for k, v in data.get("log", {}).items()}
        return RulesReference(prefix, data.get("rulebook", prefix), chapters, terms, guides, log)
    except (KeyError, TypeError) as err:
        raise ValueError(f"{path}: malformed rules reference ({err!r})") from err
