"""The Jinja2 environment. Autoescaping is on everywhere: player-chosen names are text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, Template, select_autoescape
from markupsafe import Markup

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"


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


def make_environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html", "svg"], default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["attrjson"] = _tojson_attr
    env.filters["jsonstr"] = lambda v: json.dumps(v, separators=(",", ":"), sort_keys=True)
    env.filters["pretty"] = lambda v: json.dumps(v, indent=1, sort_keys=True, ensure_ascii=False)
    return env


def render_block(template: Template, block: str, context: dict[str, Any]) -> str:
    """Render one named block of a template (a fragment) with ``context``."""
    ctx = template.new_context(context)
    return "".join(template.blocks[block](ctx))
