"""The ``part`` tag's machinery (``app.web.parts``) on small templates: a part's template text is
squeezed onto one line when the template is compiled, and a table's part cache keeps, from one
seq to the next, the renders the pages of the previous seq hold (the parts inside a reused
render included, though nobody asked for them)."""

from __future__ import annotations

from typing import Any

from jinja2 import DictLoader, Environment

from app.web.parts import Node, PartCache, PartExtension, PartRender

PANEL = """{% part "panel", (title, rows) %}
<section id="panel">
  <h2>{{ title }}</h2>
  {% if title == "never" %}<p>hidden</p>{% endif %}
  <ul>
    {% for row in rows %}
    {% part "row-" ~ row.id, row %}
    <li id="row-{{ row.id }}">
      {{ row.text }}
    </li>
    {% endpart %}
    {% endfor %}
  </ul>
  <p class="note">{{ note }}</p>
</section>
{% endpart %}"""

KEEPS = """{% part "kept", text %}
<form id="kept">
  <textarea>
  {{ text }}
  </textarea>
</form>
{% endpart %}"""


SCOPED = """{% set label = "outer" %}
{% part "box", label %}<div id="box">{% set label = "inner" %}{{ label }}</div>{% endpart %}
<p id="after">{{ label }}</p>"""


def environment() -> Environment:
    return Environment(
        loader=DictLoader({"panel.html": PANEL, "keeps.html": KEEPS, "scoped.html": SCOPED}),
        extensions=[PartExtension],
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(env: Environment, name: str, cache: PartCache | None, **context: Any) -> Node:
    parts = PartRender(cache)
    output = env.get_template(name).render(context | {"_parts": parts})
    return parts.fragment(context.get("root", "panel"), output)


def rows(*texts: str) -> list[dict[str, Any]]:
    return [{"id": n, "text": text} for n, text in enumerate(texts)]


def test_a_parts_template_text_is_one_line_once_compiled_and_shows_as_written() -> None:
    env = environment()
    node = render(env, "panel.html", None, title="Heroes", rows=rows("Ann", "Bo"), note="a\n  b")
    html = node.html()
    assert "\n" not in html
    assert html.startswith('<section id="panel"> <h2>Heroes</h2>')
    assert "<ul> <!--part:row-0--><!--part:row-1--> </ul>" in node.frame
    # Squeezed in the compiled template, so not searched again at each render.
    assert '<section id="panel"> <h2>' in env.compile(PANEL, raw=True)
    assert '<li id="row-0"> Ann </li>' in html
    # A value's own line breaks are squeezed when the part renders, as before.
    assert '<p class="note">a b</p>' in html


def test_a_template_with_a_textarea_keeps_its_blanks() -> None:
    node = render(environment(), "keeps.html", None, root="kept", text="x")
    assert node.frame == '<form id="kept">\n  <textarea>\n  x\n  </textarea>\n</form>'


def test_the_cache_keeps_what_the_last_seqs_pages_hold_and_drops_the_rest() -> None:
    env = environment()
    cache = PartCache()
    cache.begin(1)
    first = render(env, "panel.html", cache, title="Heroes", rows=rows("Ann", "Bo"), note="")
    ann, bo = first.children["row-0"], first.children["row-1"]
    cache.begin(2)  # the same panel again: reused whole, its rows not asked for
    assert render(env, "panel.html", cache, title="Heroes", rows=rows("Ann", "Bo"), note="") is first
    cache.begin(3)  # one row changed: the panel re-renders, the other row is the seq-1 render
    third = render(env, "panel.html", cache, title="Heroes", rows=rows("Ann", "Cy"), note="")
    assert third is not first
    assert third.children["row-0"] is ann
    assert third.children["row-1"] is not bo
    cache.begin(4)  # what only seq 2's pages held is gone; what seq 3's hold is kept
    assert cache.find("row-1", {"id": 1, "text": "Bo"}) is None
    assert cache.find("panel", ("Heroes", rows("Ann", "Bo"))) is None
    assert cache.find("row-0", {"id": 0, "text": "Ann"}) is ann
    assert cache.find("panel", ("Heroes", rows("Ann", "Cy"))) is third


def test_a_parts_body_renders_in_a_scope_of_its_own_and_only_when_its_slice_is_new() -> None:
    """A part's body is rendered in place (not as a caller macro), yet what it sets stays
    inside it, as in a macro: the page reads the same whether the body ran or was reused."""
    env = environment()
    cache = PartCache()
    cache.begin(1)
    first = render(env, "scoped.html", cache, root="page")
    assert first.html() == '<div id="box">inner</div><p id="after">outer</p>'
    assert cache.renders == 1
    cache.begin(2)
    again = render(env, "scoped.html", cache, root="page")
    assert cache.renders == 1  # reused: its body did not run
    assert again.children["box"] is first.children["box"]
    assert again.html() == first.html()
    # Outside a page (no part render in the context) the body is simply rendered.
    assert env.get_template("scoped.html").render() == '<div id="box">inner</div><p id="after">outer</p>'
