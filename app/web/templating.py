"""The Jinja2 environment. Autoescaping is on everywhere: player-chosen names are text."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    Template,
    TemplateNotFound,
    select_autoescape,
)
from jinja2.loaders import split_template_path
from markupsafe import Markup

from app.kernel.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"


def _tojson_attr(value: Any) -> Markup:
    """JSON safe inside a single- or double-quoted HTML attribute."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    return Markup(
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("'", "&#39;")
        .replace('"', "&quot;")
    )


@lru_cache(maxsize=32)
def game_stylesheets(game_name: str) -> tuple[str, ...]:
    """A game's CSS, found by convention: every ``static/games/<game>/*.css``, in name
    order, linked on that game's pages. The game declares nothing but the folder."""
    folder = STATIC / "games" / game_name
    if not game_name.isidentifier() or not folder.is_dir():
        return ()
    return tuple(f"/static/games/{game_name}/{css.name}" for css in sorted(folder.glob("*.css")))


class GameRootLoader(BaseLoader):
    """``games/<game>/<file>`` from the folder a game names as its ``template_root`` (a
    test-only game keeps its board outside the product's ``templates/games/``); a game
    without one is left to ``templates/`` (the next loader)."""

    def get_source(self, environment: Environment, template: str) -> tuple[str, str, Any]:
        prefix, name, rest = (template.split("/", 2) + ["", ""])[:3]
        game = get_game(name) if prefix == "games" and name.isidentifier() and rest else None
        root = game.template_root if game is not None else None
        if root is None:
            raise TemplateNotFound(template)
        path = Path(root).joinpath(*split_template_path(rest))  # refuses "..", as FileSystemLoader
        if not path.is_file():
            raise TemplateNotFound(template)
        mtime = path.stat().st_mtime
        return path.read_text(encoding="utf-8"), str(path), lambda: path.stat().st_mtime == mtime


def make_environment() -> Environment:
    env = Environment(
        loader=ChoiceLoader([GameRootLoader(), FileSystemLoader(TEMPLATES)]),
        autoescape=select_autoescape(["html", "svg"], default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["attrjson"] = _tojson_attr
    env.filters["jsonstr"] = lambda v: json.dumps(v, separators=(",", ":"), sort_keys=True)
    env.globals["game_stylesheets"] = game_stylesheets
    env.filters["pretty"] = lambda v: json.dumps(v, indent=1, sort_keys=True, ensure_ascii=False)
    return env


def render_block(template: Template, block: str, context: dict[str, Any]) -> str:
    """Render one named block of a template (a fragment) with ``context``."""
    ctx = template.new_context(context)
    return "".join(template.blocks[block](ctx))
