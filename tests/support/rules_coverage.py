"""What a game's code cites of its rules, for the rules reference's tests (issue 28): every
citation in the game's Python, content and templates, where each is, and the checks that
each resolves to an entry and each entry is cited."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from app.kernel.game import Game
from app.kernel.reference import RulesReference

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("*.py", "*.toml", "*.html", "*.js")


def game_folders(game: Game) -> list[Path]:
    """The game's package and its templates (and static files, if any)."""
    package = ROOT / "app" / "games" / game.name
    return [
        p
        for p in (package, ROOT / "templates" / "games" / game.name, ROOT / "static" / "games" / game.name)
        if p.exists()
    ]


def citations(game: Game, reference: RulesReference) -> dict[str, list[str]]:
    """Each citation of the game's rules in its code, content and templates (the reference
    file itself aside), with where it is (``path:line``)."""
    found: dict[str, list[str]] = defaultdict(list)
    for folder in game_folders(game):
        for pattern in SOURCES:
            for path in sorted(folder.rglob(pattern)):
                if path.name == "rules_reference.toml":
                    continue
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    for ref in reference.citations(line):
                        found[ref].append(f"{path.relative_to(ROOT)}:{number}")
    return dict(found)


def unresolved(game: Game, reference: RulesReference) -> dict[str, list[str]]:
    """Citations no entry covers."""
    return {ref: where for ref, where in citations(game, reference).items() if reference.resolve(ref) is None}


def uncited(game: Game, reference: RulesReference) -> list[str]:
    """Entries no citation of the code, no guide, term or log line leads to."""
    cited = {id(e) for ref in citations(game, reference) if (e := reference.resolve(ref)) is not None}
    for ref in [
        *(g.ref for g in reference.guides.values()),
        *(t.ref for t in reference.terms),
        *reference.log.values(),
    ]:
        entry = reference.resolve(ref)
        if entry is not None:
            cited.add(id(entry))
    return [e.ref for e in reference.entries if id(e) not in cited]
