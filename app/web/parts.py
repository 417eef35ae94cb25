"""Parts: pieces of a page re-rendered only when the data they show changed (DESIGN.md, "Web").

A template marks a part with the ``part`` tag, naming the element id the part renders and
the *slice* of its context the part depends on::

    {% part "dn-loc-" ~ name|lower, (here, figures, view.necromancer == name) %}
      <svg id="dn-loc-{{ name|lower }}" …>…</svg>
    {% endpart %}

While a page is rendered, each part's slice is compared (``==``) with the slices it was
last rendered for at this table; on a match its earlier render is reused and its body is
not run at all. A part's slice must cover everything its body reads, the parts inside it
included (a part holding parts re-runs its own body, and the inner parts with unchanged
slices are reused). Slices are compared, never copied: they are pieces of a view, and a
view is never changed after it is made (engines are pure; a new state is a new value).

A render is a tree of ``Node``: each node holds its *frame* (its HTML with each inner
part replaced by the mark ``<!--part:ID-->``) and its inner nodes. A page's websocket
compares what it holds with a new tree by node version and frame hash (``app.web.stream``),
so after a commit it is sent the outermost parts whose own HTML changed, and nothing is
rendered whole to be diffed.

A template that marks its pieces in its output instead (``<!--part:ID-->…<!--/part:ID-->``,
the earlier convention) still works: its fragment is rendered for each new view and split
into nodes (``legacy_node``)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from jinja2 import Environment, nodes
from jinja2.ext import Extension
from jinja2.lexer import TOKEN_BLOCK_BEGIN, TOKEN_BLOCK_END, TOKEN_DATA, TOKEN_NAME, Token, TokenStream
from jinja2.parser import Parser
from markupsafe import Markup

MARK = re.compile(r"<!--part:([\w-]+)-->")
INDENT = re.compile(r"[ \t]*\n\s*")
LEADING_BLANKS = re.compile(r"^[ \t]+")
KEEPS_WHITESPACE = ("<pre", "<textarea")
LEGACY_PART = re.compile(r"<!--part:([\w-]+)-->(.*?)<!--/part:\1-->", re.S)
RENDERS_KEPT = 8
"""Renders kept per part id: one per distinct slice the table's viewers see at one seq (a
spectator, each seat with secrets of its own, the game master)."""
MADE_FILTER = "_part_made"
"""The filter a part's rendered body goes through (``PartExtension.parse``)."""

_versions = itertools.count(1)
_NO_NODES: frozenset[Any] = frozenset()


def mark(part_id: str) -> str:
    return f"<!--part:{part_id}-->"


@lru_cache(maxsize=4096)
def _mark_markup(part_id: str) -> Markup:
    """``mark`` as the markup a ``part`` tag outputs: made once per id, not at each tag."""
    return Markup(mark(part_id))


def squeezed(html: str) -> str:
    """The HTML on one line, without the template's indentation: a line break and the blanks
    around it become one space, which a browser lays out the same (a part's bytes go to
    every page on every change; a ``<pre>`` or ``<textarea>`` keeps its blanks). One line
    per part also keeps a frame's own elements the only ones that start a line."""
    if "\n" not in html or any(tag in html for tag in KEEPS_WHITESPACE):
        return html
    return INDENT.sub(" ", html)


@dataclass(eq=False, slots=True)
class Node:
    """One part as rendered: immutable once made, so its ``version`` names its HTML."""

    id: str
    frame: str
    """Its HTML with each inner part as ``<!--part:ID-->``."""
    children: dict[str, Node]
    frame_hash: int = 0
    version: int = 0
    inner: frozenset[Node] = _NO_NODES
    """Every node inside it, at any depth: fixed with its children, so what a page holding
    this node holds is known without walking it (``PartCache.begin``)."""

    def __post_init__(self) -> None:
        self.frame_hash = hash(self.frame)
        self.version = next(_versions)
        if self.children:
            kids = self.children.values()
            self.inner = frozenset(kids).union(*(kid.inner for kid in kids))

    def html(self) -> str:
        """Its HTML as a browser gets it (inner parts expanded, no marks). Built on demand,
        not kept: a render keeps each byte once, in the frame that holds it."""
        if not self.children:
            return self.frame
        return MARK.sub(lambda found: self.children[found.group(1)].html(), self.frame)

    def walk(self) -> list[Node]:
        """This node and every node inside it, outermost first."""
        out, stack = [], [self]
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(node.children.values()))
        return out


def legacy_node(part_id: str, html: str) -> Node:
    """A fragment whose template marks its parts in the HTML (``<!--part:ID-->…<!--/part:ID-->``)."""
    children: dict[str, Node] = {}

    def keep(found: re.Match[str]) -> str:
        children[found.group(1)] = legacy_node(found.group(1), found.group(2).strip())
        return mark(found.group(1))

    return Node(part_id, LEGACY_PART.sub(keep, html), children)


@dataclass(eq=False, slots=True)
class _Kept:
    key: Any
    node: Node


@dataclass
class PartCache:
    """A table's part renders, shared by all its viewers. When the next seq begins, the
    renders kept are those the previous seq's pages hold: each asked for then, and each part
    inside one of those; so the cache holds about one page per distinct view."""

    seq: int = -1
    kept: dict[str, list[_Kept]] = field(default_factory=dict)
    renders: int = 0
    """Part bodies run (for tests and the profile: a reused part does not count)."""
    nodes: set[Node] = field(default_factory=set)
    """Every render kept (what ``kept`` holds, found without walking it)."""
    asked: set[Node] = field(default_factory=set)
    """The renders asked for (found, made or touched) at this seq."""

    def begin(self, seq: int) -> None:
        if seq == self.seq:
            return
        # Found once here for the whole seq, not at each reuse: a reused render's inner
        # parts are not asked for (their bodies are not run), yet its pages hold them. The
        # dead are found by a set difference, not by a walk over every render kept.
        asked = self.asked
        alive = asked.union(*(node.inner for node in asked)) if asked else asked
        dead = self.nodes - alive
        self.nodes -= dead
        for node in dead:
            entries = self.kept[node.id]
            entries[:] = [k for k in entries if k.node is not node]
            if not entries:
                del self.kept[node.id]
        self.asked = set()
        self.seq = seq

    def find(self, part_id: str, key: Any) -> Node | None:
        for kept in self.kept.get(part_id, ()):
            if kept.key == key:
                self.asked.add(kept.node)
                return kept.node
        return None

    def touch(self, node: Node) -> None:
        """Mark a render reused without being asked for (``fragments.shell_nodes``) as used
        at this seq, so the viewers asking for it next keep finding it."""
        if node in self.nodes:
            self.asked.add(node)

    def keep(self, part_id: str, key: Any, node: Node) -> None:
        entries = self.kept.setdefault(part_id, [])
        entries.insert(0, _Kept(key, node))
        self.nodes.add(node)
        self.asked.add(node)
        for dropped in entries[RENDERS_KEPT:]:
            self.nodes.discard(dropped.node)
        del entries[RENDERS_KEPT:]


class PartRender:
    """One render pass: each of the template's ``part`` tags calls ``reuse``, and ``made``
    when its body had to be rendered; the nodes they make at the top level are ``top`` (in
    page order)."""

    def __init__(self, cache: PartCache | None) -> None:
        self.cache = cache
        self._stack: list[dict[str, Node]] = [{}]
        self._open: list[tuple[str, Any]] = []
        """The parts whose bodies are being rendered, innermost last (id, key)."""
        self.reused = Markup()
        """The mark of the part ``reuse`` just found (what the template outputs for it)."""

    @property
    def top(self) -> dict[str, Node]:
        return self._stack[0]

    def reuse(self, part_id: str, key: Any) -> bool:
        """Whether the cache holds a render of ``part_id`` for ``key`` (then it is the part's
        node here). If not, the part's body is to be rendered and given to ``made``."""
        node = self.cache.find(part_id, key) if self.cache is not None else None
        if node is None:
            self._open.append((part_id, key))
            self._stack.append({})
            return False
        self._stack[-1][part_id] = node
        self.reused = _mark_markup(part_id)
        return True

    def made(self, html: str) -> Markup:
        """The body of the part ``reuse`` last opened, rendered: its node, kept for its key."""
        part_id, key = self._open.pop()
        node = Node(part_id, squeezed(str(html).strip()), self._stack.pop())
        if self.cache is not None:
            self.cache.keep(part_id, key, node)
            self.cache.renders += 1
        self._stack[-1][part_id] = node
        return _mark_markup(part_id)

    def fragment(self, part_id: str, output: str) -> Node:
        """The node of a rendered fragment: its one part, or (a fragment without a ``part``
        tag around it) a node of its HTML, split by any part marks in it."""
        top, self._stack[0] = self._stack[0], {}
        stripped = output.strip()
        if stripped == mark(part_id) and part_id in top:
            return top[part_id]
        if top:  # parts inside an untagged fragment
            return Node(part_id, stripped, top)
        return legacy_node(part_id, stripped)


class PartExtension(Extension):
    """``{% part ID, SLICE %}…{% endpart %}`` (see the module docstring)."""

    tags = {"part"}

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        environment.filters[MADE_FILTER] = self._made

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        """Squeeze a part's own template text when the template is compiled, not each time
        the part is rendered: a render of one then has no line break left for ``squeezed``
        to find but those its values (and macros of other templates) bring. A template with
        a ``<pre>`` or ``<textarea>`` is left as written (``squeezed`` decides at render)."""
        tokens = list(stream)
        if any(t.type == TOKEN_DATA and any(tag in t.value for tag in KEEPS_WHITESPACE) for t in tokens):
            yield from tokens
            return
        depth = 0
        previous = None
        for token in tokens:
            if token.type == TOKEN_NAME and previous == TOKEN_BLOCK_BEGIN:
                depth += {"part": 1, "endpart": -1}.get(token.value, 0)
            elif token.type == TOKEN_DATA and depth > 0:
                text = INDENT.sub(" ", token.value)
                if previous == TOKEN_BLOCK_END:  # a line's indent, its break trimmed after the tag
                    text = LEADING_BLANKS.sub(" ", text)
                if text != token.value:
                    token = Token(token.lineno, TOKEN_DATA, text)
            previous = token.type
            yield token

    def parse(self, parser: Parser) -> nodes.Node:
        """``{% if reused %}mark{% else %}{% filter made %}body{% endfilter %}{% endif %}``:
        the body renders in place, in a scope of its own (what it sets stays inside, as in a
        macro), without the caller macro a call block makes and calls for every tag met."""
        lineno = next(parser.stream).lineno
        part_id = parser.parse_expression()
        parser.stream.expect("comma")
        key = parser.parse_expression()
        body = parser.parse_statements(("name:endpart",), drop_needle=True)
        render = nodes.Name("_parts", "load")
        reused = self.call_method("_reuse", [render, part_id, key])
        mark = nodes.Getattr(render, "reused", "load")  # an attribute: no call per part
        made = nodes.FilterBlock(body, nodes.Filter(None, MADE_FILTER, [render], [], None, None))
        return nodes.If(reused, [nodes.Output([mark])], [], [made]).set_lineno(lineno)

    def _reuse(self, render: Any, part_id: str, key: Any) -> bool:
        if not isinstance(render, PartRender):  # rendered outside a page (a plain include)
            return False
        return render.reuse(part_id, key)

    @staticmethod
    def _made(html: str, render: Any) -> Any:
        if not isinstance(render, PartRender):
            return html
        return render.made(html)
