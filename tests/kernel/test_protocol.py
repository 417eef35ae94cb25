"""The ``Game`` protocol lists everything the platform reads or calls on a game, and
``GameBase`` gives a default for everything but the rules.

The platform's code (the kernel's replay, live, web, api, bench, and the page templates)
is read, not run: every attribute taken from a game there must be declared in ``Game``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from app.kernel.game import Game, GameBase, GamePresentation, GameRules
from app.kernel.registry import all_games
from tests.support.lanterns import LANTERNS
from tests.support.vigil import VIGIL

ROOT = Path(__file__).resolve().parents[2]
PLATFORM = [ROOT / "app" / part for part in ("kernel", "live", "web", "api", "bench")] + [
    ROOT / "app" / "main.py",
    ROOT / "app" / "cli.py",
]
RULES = {"initial_state", "setup", "evolve", "decide", "prompts", "view", "outcome"}
"""What every game writes itself; GameBase has no default for these."""
IDENTITY = {"name", "title"}
"""What every game names itself; GameBase declares them, with no value."""


PRESENTATION_READERS = {
    "app/kernel/table.py": "``describe``: a log line, with the platform's own lines",
    "app/kernel/conformance.py": "checks that no log line leaks a secret",
    "app/live/wire.py": "the log lines a frame carries",
    "app/live/session.py": "the log lines a frame carries",
}
"""The kernel and live modules that may read the presentation contract, and why: every
other module of theirs reads only the rules (issue 24: two contracts)."""


def members_of(contract: type) -> set[str]:
    methods = {n for n, v in vars(contract).items() if callable(v) and not n.startswith("_")}
    return methods | set(contract.__annotations__)


def protocol_members() -> set[str]:
    return members_of(GameRules) | members_of(GamePresentation)


def is_game_expr(node: ast.expr, games: set[str]) -> bool:
    """``game``, ``session.game``, ``self.game`` or a name bound to a game in this scope."""
    if isinstance(node, ast.Name):
        return node.id in games
    return isinstance(node, ast.Attribute) and node.attr == "game"


def game_names(scope: ast.AST) -> set[str]:
    """The names that hold a game in a function (or module): ``game`` unless annotated as
    something else, names annotated ``Game``, bound by ``get_game(…)`` / ``games.get(…)``,
    or loop variables over ``…games…``."""
    names = {"game"}
    for node in ast.walk(scope):
        if isinstance(node, ast.arg) and node.annotation is not None:
            text = ast.unparse(node.annotation)
            if "Game" in text:
                names.add(node.arg)
            elif node.arg == "game":
                names.discard("game")  # e.g. a game's *name* (``game: str``)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            value = ast.unparse(node.value)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if re.search(r"\bget_game\(|\bgames\.get\(|\bgames\[", value):
                names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif (
            isinstance(node, ast.For | ast.comprehension)
            and "games" in ast.unparse(node.iter)
            and isinstance(node.target, ast.Name)
        ):
            names.add(node.target.id)
    return names


def attributes_used(tree: ast.Module) -> dict[str, int]:
    """Each attribute read from a game in this module, with the line of its first use."""
    used: dict[str, int] = {}
    scopes: list[ast.AST] = [tree]
    scopes += [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    for scope in scopes:
        games = game_names(scope)
        body = scope.body if isinstance(scope, ast.Module) else [scope]
        for stmt in body:
            if isinstance(scope, ast.Module) and isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                continue  # functions are scopes of their own
            for node in ast.walk(stmt):
                if isinstance(node, ast.Attribute) and is_game_expr(node.value, games):
                    used.setdefault(node.attr, node.lineno)
                elif (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "getattr"
                    and len(node.args) >= 2
                    and isinstance(node.args[1], ast.Constant)
                    and isinstance(node.args[1].value, str)
                ):
                    target = node.args[0]
                    if isinstance(target, ast.Call) and ast.unparse(target.func) == "type":
                        target = target.args[0]
                    if is_game_expr(target, games):
                        used.setdefault(node.args[1].value, node.lineno)
    return used


def template_attributes(text: str) -> set[str]:
    """Attributes read from ``game``/``chosen`` (or a loop variable over ``games``)."""
    names = {"game", "chosen"} | set(re.findall(r"\bfor (\w+) in games\b", text))
    pattern = r"\b(" + "|".join(sorted(names)) + r")\.([a-z_]+)\b"
    return {attr for _, attr in re.findall(pattern, text)}


def platform_uses() -> dict[str, str]:
    """attribute -> where the platform first reads it from a game."""
    uses: dict[str, str] = {}
    files = [p for base in PLATFORM for p in ([base] if base.is_file() else sorted(base.rglob("*.py")))]
    for path in files:
        tree = ast.parse(path.read_text(), filename=str(path))
        for attr, line in attributes_used(tree).items():
            uses.setdefault(attr, f"{path.relative_to(ROOT)}:{line}")
    templates = ROOT / "templates"
    for path in sorted(templates.rglob("*.html")):
        if path.parent != templates and path.parent.name != "games":
            continue  # a game's own templates may read what its own game object offers
        for attr in template_attributes(path.read_text()):
            uses.setdefault(attr, str(path.relative_to(ROOT)))
    return uses


def test_the_scan_sees_what_the_platform_is_known_to_call() -> None:
    """The scan itself works: calls known to be in the platform are found."""
    uses = platform_uses()
    known = {"undoable", "bot_choice", "evolve_all", "log_mark", "opening_event", "event_types", "chapters"}
    known |= {"prompts", "upcast", "describe_options", "summary", "title", "min_seats"}
    assert known <= set(uses), sorted(known - set(uses))
    assert "replace" not in uses  # ``game.replace`` in the bench is a game's *name* (a str)


def test_everything_the_platform_calls_on_a_game_is_in_the_protocol() -> None:
    members = protocol_members()
    missing = {attr: where for attr, where in platform_uses().items() if attr not in members}
    assert not missing, f"declare these in app.kernel.game.Game (and GameBase if optional): {missing}"


def test_the_platform_reads_every_member_of_the_protocol() -> None:
    """No dead weight in the contract (issue 24): a member nothing reads goes."""
    unread = protocol_members() - set(platform_uses())
    assert not unread, f"nothing in the platform reads these; drop them from Game and GameBase: {unread}"


def test_gamebase_gives_a_default_for_all_but_the_rules() -> None:
    members = protocol_members()
    optional = members - RULES - IDENTITY
    base = {n for n in dir(GameBase) if not n.startswith("_")} | set(GameBase.__annotations__)
    assert optional <= base, sorted(optional - base)
    assert not RULES & {n for n, v in vars(GameBase).items() if callable(v)}
    # …and everything GameBase offers a game is part of the contract, not a private extra.
    offered = {n for n, v in vars(GameBase).items() if not n.startswith("_")} | set(GameBase.__annotations__)
    assert offered <= members, sorted(offered - members)


def test_every_game_satisfies_the_protocol() -> None:
    for game in [*all_games().values(), LANTERNS, VIGIL]:
        assert isinstance(game, Game), game.name
        missing = [m for m in protocol_members() if not hasattr(game, m)]
        assert not missing, (game.name, missing)


def test_chapters_default_to_none_and_a_campaign_lists_them() -> None:
    from app.kernel.game import campaign

    state = LANTERNS.initial_state()
    assert LANTERNS.chapters(state) == [] and campaign(LANTERNS, state) is None
    vigil = VIGIL.initial_state()
    for event in VIGIL.setup({"nights": 2}, [], None):  # type: ignore[arg-type]
        vigil = VIGIL.evolve(vigil, event)
    chapters = VIGIL.chapters(vigil)
    assert [(c.index, c.title, c.outcome, c.current) for c in chapters] == [
        (0, "Night 1", None, True),
        (1, "Night 2", None, False),
    ]
    assert chapters[0].to_json() == {
        "index": 0,
        "title": "Night 1",
        "outcome": None,
        "current": True,
        "detail": "",
    }


def test_the_two_contracts_split_the_protocol() -> None:
    """``Game`` is its rules and its presentation, with nothing in both."""
    assert not members_of(GameRules) & members_of(GamePresentation)
    assert protocol_members() >= {"decide", "prompts", "describe", "page_extras"}
    assert {GameRules, GamePresentation} <= set(Game.__mro__)


def test_the_kernel_and_live_layers_read_only_the_rules_contract() -> None:
    """Presentation (log lines, pages, the lobby's words) is the web layer's; the kernel and
    the live layer read it only where a log line is written or checked."""
    presentation = members_of(GamePresentation)
    read = {}
    for base in (ROOT / "app" / "kernel", ROOT / "app" / "live"):
        for path in sorted(base.rglob("*.py")):
            name = str(path.relative_to(ROOT))
            if name in PRESENTATION_READERS:
                continue
            used = set(attributes_used(ast.parse(path.read_text(), filename=name))) & presentation
            if used:
                read[name] = sorted(used)
    assert not read, f"these read the presentation contract: {read}"
