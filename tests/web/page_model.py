"""A browser's table page as the websocket keeps it up to date, for tests: the page's HTML
parsed into elements, and each frame applied as htmx's ws extension applies it (every
top-level element of a frame replaces the element with its id; ``hx-swap-oob=
"afterbegin:#log-entries"`` puts its children first in the log)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
ID = re.compile(r'\sid="([^"]*)"')
SEQ = re.compile(r'id="seq"[^>]*data-seq="(\d+)"')


@dataclass(eq=False)
class Element:
    tag: str
    start: str
    """The start tag as written (attributes and all)."""
    children: list[Element | str] = field(default_factory=list)
    closed: bool = True
    """Has an end tag (a void or self-closed element has none)."""

    @property
    def id(self) -> str | None:
        found = ID.search(self.start)
        return found.group(1) if found else None

    def html(self) -> str:
        inner = "".join(c if isinstance(c, str) else c.html() for c in self.children)
        return self.start + inner + (f"</{self.tag}>" if self.closed else "")

    def elements(self) -> list[Element]:
        return [c for c in self.children if isinstance(c, Element)]

    def find(self, element_id: str) -> tuple[Element, int] | None:
        """(the parent, the index) of the element with this id, searched depth first."""
        for index, child in enumerate(self.children):
            if isinstance(child, Element):
                if child.id == element_id:
                    return self, index
                found = child.find(element_id)
                if found:
                    return found
        return None

    def by_id(self, element_id: str) -> Element:
        found = self.find(element_id)
        assert found is not None, f"no #{element_id}"
        parent, index = found
        element = parent.children[index]
        assert isinstance(element, Element)
        return element


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.root = Element("#root", "", closed=False)
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, self.get_starttag_text() or "", closed=tag not in VOID)
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Element(tag, self.get_starttag_text() or "", closed=False))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return
        raise AssertionError(f"</{tag}> closes nothing")

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)

    def handle_entityref(self, name: str) -> None:
        self.stack[-1].children.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.stack[-1].children.append(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        self.stack[-1].children.append(f"<!--{data}-->")

    def handle_decl(self, decl: str) -> None:
        self.stack[-1].children.append(f"<!{decl}>")


def parse(html: str) -> Element:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    assert len(builder.stack) == 1, f"unclosed <{builder.stack[-1].tag}>"
    return builder.root


class Page:
    """One browser's page: its HTML as first served, then every frame applied in turn."""

    LIVE = ("seq", "status", "prompts", "seats")

    def __init__(self, html: str) -> None:
        self.root = parse(html)
        self.frames = 0
        self.seqs: list[int] = []

    @property
    def seq(self) -> int:
        found = SEQ.search(self.root.by_id("seq").start)
        assert found
        return int(found.group(1))

    def apply(self, frame: str) -> None:
        """Swap in a frame's elements; each must name an element the page has (a browser
        drops one that names nothing, and its content would be lost)."""
        self.frames += 1
        for element in parse(frame).elements():
            if 'hx-swap-oob="afterbegin:#log-entries"' in element.start:
                self.root.by_id("log-entries").children[:0] = element.children
                continue
            assert element.id, f"a frame's element without an id: {element.start}"
            found = self.root.find(element.id)
            assert found is not None, f"#{element.id} is not on the page"
            parent, index = found
            parent.children[index] = element
        if SEQ.search(frame):
            self.seqs.append(self.seq)

    def live_html(self) -> dict[str, str]:
        """Every element the websocket keeps up to date: the shell's, the board's (each child
        of the board), and the log's lines."""
        out = {key: self.root.by_id(key).html() for key in self.LIVE}
        board = next(e for e in _walk(self.root) if e.tag == "main")
        for element in board.elements():
            out[element.id or element.start] = element.html()
        return out

    def log_seqs(self) -> list[int]:
        lines = self.root.by_id("log-entries").elements()
        return [int(re.search(r'data-seq="(\d+)"', li.start).group(1)) for li in lines]  # type: ignore[union-attr]

    def log_lines(self) -> list[str]:
        return [li.html() for li in self.root.by_id("log-entries").elements()]


def _walk(element: Element) -> list[Element]:
    out = []
    for child in element.elements():
        out.append(child)
        out.extend(_walk(child))
    return out
