"""The Jinja2 environment. Autoescaping is on everywhere: player-chosen names are text."""

from __future__ import annotations

import json
from collections import ChainMap
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from types import BuiltinFunctionType, FunctionType, MethodType
from typing import Any

from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    Template,
    TemplateNotFound,
    pass_environment,
    select_autoescape,
)
from jinja2.filters import do_max, do_min
from jinja2.loaders import split_template_path
from jinja2.runtime import Context, Macro, new_context
from markupsafe import Markup

from app.kernel.registry import get_game
from app.web.assets import static_url
from app.web.parts import PartExtension

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"


def json_text(value: Any) -> str:
    """Compact JSON with sorted keys (the ``jsonstr`` filter)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def json_attr(value: Any) -> Markup:
    """JSON safe inside a single- or double-quoted HTML attribute (the ``attrjson`` filter)."""
    text = json_text(value)
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
    return tuple(static_url(f"games/{game_name}/{css.name}") for css in sorted(folder.glob("*.css")))


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


_DICT_ATTRIBUTES = frozenset(dir(dict))
_ALWAYS_PLAIN = (Macro, BuiltinFunctionType)
"""Callables that never take Jinja's context, environment or eval context as first argument."""


class ViewContext(Context):
    """Jinja's context with a short way for a template's calls: a macro (each ``part`` tag's
    body is one), a builtin or a function without a ``pass_*`` mark is called directly,
    without ``Context.call``'s two look-ups of that mark per call (a part tag made several
    such calls; a live update, thousands). Everything else goes the long way, unchanged."""

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805  (Jinja's own signature)
        kind = type(__obj)
        if kind is FunctionType or kind is MethodType:
            if hasattr(__obj, "jinja_pass_arg"):  # a bound method looks on its function
                return super().call(__obj, *args, **kwargs)
        elif not isinstance(__obj, _ALWAYS_PLAIN):
            return super().call(__obj, *args, **kwargs)
        if kwargs:
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception"
            )


class ViewEnvironment(Environment):
    """Jinja with a fast path for the views' plain dicts: ``view.board`` looks the key up
    directly. Jinja's own ``getattr`` tries the attribute first, so on a dict every
    ``x.key`` raised and caught an AttributeError (a tenth of the CPU of a live update).
    Same answers as Jinja's: a dict's own methods (``items``, ``keys``…) still win over
    keys of the same name, and a missing key is undefined."""

    context_class = ViewContext

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


def _numeric_extreme(builtin: Callable[..., Any], jinja_filter: Callable[..., Any]) -> Callable[..., Any]:
    """Jinja's ``min`` / ``max`` filter, with the builtin called straight on a list of plain
    numbers (the boards' ``[value, 12]|min``, thousands per live update): Jinja's key function
    per item (case folding, for strings) changes nothing there. Anything else goes to Jinja's."""

    @pass_environment
    def extreme(
        environment: Environment, value: Any, case_sensitive: bool = False, attribute: Any = None
    ) -> Any:
        if attribute is None and type(value) is list and value and all(type(v) in _NUMBERS for v in value):
            return builtin(value)
        return jinja_filter(environment, value, case_sensitive, attribute)

    return extreme


_NUMBERS = (int, float)


def make_environment() -> Environment:
    env = ViewEnvironment(
        loader=ChoiceLoader([GameRootLoader(), FileSystemLoader(TEMPLATES)]),
        extensions=[PartExtension],
        # Read once per process: checking every template file's mtime on each import (each
        # board fragment imports its macros) was a stat call per fragment per viewer.
        auto_reload=False,
        autoescape=select_autoescape(["html", "svg"], default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # Never async: Jinja's filters with an async twin (select, list, join, map…) are registered
    # as their plain selves, without the wrapper that picks one at every call.
    for name, function in list(env.filters.items()):
        if getattr(function, "jinja_async_variant", False):
            env.filters[name] = function.__wrapped__
    env.filters["min"] = _numeric_extreme(min, do_min)
    env.filters["max"] = _numeric_extreme(max, do_max)
    env.filters["attrjson"] = json_attr
    env.filters["jsonstr"] = json_text
    env.globals["game_stylesheets"] = game_stylesheets
    env.globals["static_url"] = static_url
    env.filters["pretty"] = lambda v: json.dumps(v, indent=1, sort_keys=True, ensure_ascii=False)
    return env


def block_context(template: Template, context: dict[str, Any]) -> Context:
    """``template.new_context(context)``, with the template's globals laid under ``context`` by
    dict updates: Jinja copies its ``ChainMap`` of globals key by key, a Python call per key,
    for every fragment and log line rendered."""
    parent: dict[str, Any] = {}
    layers = template.globals.maps if isinstance(template.globals, ChainMap) else [template.globals]
    for layer in reversed(layers):
        parent.update(layer)
    parent.update(context)
    return new_context(
        template.environment, template.name, template.blocks, parent, shared=True, globals=template.globals
    )


def render_block(template: Template, block: str, context: dict[str, Any]) -> str:
    """Render one named block of a template (a fragment) with ``context``."""
    return "".join(template.blocks[block](block_context(template, context)))


def render_blocks(template: Template, blocks: list[str], context: dict[str, Any]) -> Iterator[str]:
    """Render several named blocks of a template in one context (made once, not per block:
    a block's own ``set`` stays inside the block), one at a time as they are asked for."""
    ctx = block_context(template, context)
    for block in blocks:
        yield "".join(template.blocks[block](ctx))
