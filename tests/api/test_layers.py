"""The JSON API and the HTML pages do not import each other (not even lazily, inside a
function): what both need lives in ``app.http``, which imports neither."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"


def imported_modules(folder: Path) -> dict[str, set[str]]:
    """Every module each file under ``folder`` imports, wherever the import stands."""
    found: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
        found[str(path)] = names
    return found


def offenders(folder: Path, forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{path} imports {name}"
        for path, names in imported_modules(folder).items()
        for name in sorted(names)
        if name == "app" or any(name == f or name.startswith(f + ".") for f in forbidden)
    ]


def test_the_api_imports_no_page_code() -> None:
    assert offenders(APP / "api", ("app.web",)) == []


def test_the_pages_import_no_api_code() -> None:
    assert offenders(APP / "web", ("app.api",)) == []


def test_the_shared_layer_imports_neither() -> None:
    assert offenders(APP / "http", ("app.api", "app.web")) == []


def test_the_check_sees_a_lazy_import(tmp_path: Path) -> None:
    (tmp_path / "ws.py").write_text("def stream():\n    from app.web.stream import HtmlStream\n")
    (tmp_path / "deps.py").write_text("import app.web.routes\n")
    assert len(offenders(tmp_path, ("app.web",))) == 3  # app.web.stream, …HtmlStream, app.web.routes
