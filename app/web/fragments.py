"""A viewer's page as named fragments, each one root element with a stable id.

The shell supplies status, prompts, seats and the seq marker; the game supplies its board
fragments as blocks named ``fragment_<id>`` in ``templates/games/<game>/board.html`` (a block
name cannot hold ``-``, so ``_`` in it stands for ``-`` in the id: ``fragment_dn_map`` renders
``id="dn-map"``). A game without templates gets one generic fragment per top-level key of
its view.

Fragments are made of *parts* (``app.web.parts``): a part is re-rendered only when the slice
of the view it depends on changed, the table's viewers share every render (``TableRenders``:
one board per distinct view per seq, one part cache), and a page's websocket sends the
outermost parts whose own HTML changed (``app.web.stream``), deciding on the renders'
versions, never by splitting and comparing HTML. ``split_parts`` and ``unmarked`` read the
earlier convention of parts marked in the HTML."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from jinja2 import Environment, Template, TemplateNotFound

from app.kernel import table as kernel
from app.kernel.game import campaign, has_bot
from app.kernel.history import UNDO_EVENT, undo_span
from app.kernel.types import GM_SEAT, Prompt, Viewer
from app.live.hub import Hub
from app.live.session import TableSession
from app.live.wire import prompt_shape
from app.store import StoredEvent
from app.web.boardview import page_view
from app.web.parts import LEGACY_PART, Node, PartCache, PartRender
from app.web.templating import json_attr, json_text, render_block, render_blocks

if TYPE_CHECKING:
    from app.kernel.types import Choice

SHELL_FRAGMENTS = ("status", "prompts", "seats", "seq")
GAME_BLOCK_PREFIX = "fragment_"
LOG_PAGE = 200
PART = LEGACY_PART
PART_MARK = re.compile(r"<!--/?part:[\w-]+-->")


def split_parts(html: str) -> tuple[str, dict[str, str]]:
    """(the fragment with each outermost part replaced by its mark, {part id: part HTML});
    a part's HTML keeps the marks of the parts inside it."""
    parts: dict[str, str] = {}

    def keep(found: re.Match[str]) -> str:
        parts[found.group(1)] = found.group(2).strip()
        return f"<!--part:{found.group(1)}-->"

    return PART.sub(keep, html), parts


def unmarked(html: str) -> str:
    """The HTML as sent to a browser: without the part marks."""
    return PART_MARK.sub("", html)


def seat_names(session: TableSession) -> dict[Any, str]:
    names: dict[Any, str] = {s.seat: s.name for s in session.seats}
    names[GM_SEAT] = "Game master"
    return names


def actor_name(session: TableSession, actor: str) -> str:
    kind, _, rest = actor.partition(":")
    if kind == "seat" and rest.isdigit():
        return seat_names(session).get(int(rest), f"seat {rest}")
    return {"gm": "Game master", "system": ""}.get(actor, actor)


def choice_dom_id(seat: Any, choice: Choice) -> str:
    """A prompt button's element id, made from the command it sends (not its position),
    so the same choice keeps its id across live updates and the page can give it back the
    focus (static/umbra.js)."""
    body = json.dumps([seat, choice.type, choice.args], sort_keys=True, separators=(",", ":"))
    return "choice-" + hashlib.sha256(body.encode()).hexdigest()[:12]


def viewer_prompts(hub: Hub, session: TableSession, viewer: Viewer) -> list[dict[str, Any]]:
    """This viewer's prompts, each choice with its stable element ``id`` and the board
    ``target`` it stands for (``Game.choice_target``): the per-viewer layer that makes the
    shared board clickable. A spectator has no prompts, so nothing on its board is wired.
    Each prompt's buttons are made once per seq for every page showing it."""
    out = []
    seen: set[str] = set()
    for prompt in hub.prompts_for(session, viewer):
        wire = prompt_buttons(session, prompt)
        ids = [c["id"] for c in wire["choices"]]
        if seen.isdisjoint(ids) and len(set(ids)) == len(ids):
            seen.update(ids)
            out.append(wire)
            continue
        choices = []
        for choice in wire["choices"]:  # the same command offered twice keeps distinct ids
            dom_id = choice["id"]
            while dom_id in seen:
                dom_id += "-2"
            seen.add(dom_id)
            choices.append(choice | {"id": dom_id})
        out.append(wire | {"choices": choices})
    return out


def prompt_buttons(session: TableSession, prompt: Prompt) -> dict[str, Any]:
    """A prompt as its buttons: ``prompt_json``'s shape with each choice's element id and board
    target, and each command without the ``command_id`` and ``seq`` the JSON wire carries (the
    page sends its current seq with the click, ``static/umbra.js``, and the server derives the
    id from it, ``routes.act``): a button is then the same HTML at every seq its choice is
    offered, so a seat whose choices did not change is sent no prompts frame (issue 10). Made
    here rather than from ``prompt_json``, whose command ids (a hash per choice) a page never
    sends. Once per seq for every page showing one of the game's prompts (``TableSession.derived``)."""

    renders = renders_of(session)
    if renders.wirings_seq != session.seq:  # keep what the last seq offered, not every command ever
        renders.wirings_seq, renders.wirings_before, renders.wirings = session.seq, renders.wirings, {}
    wirings, before = renders.wirings, renders.wirings_before

    def button(choice: Choice) -> dict[str, Any]:
        target = None if choice.type == kernel.UNDO else session.game.choice_target(session.state, choice)
        command = {"seat": prompt.seat, "type": choice.type, "args": choice.args}
        # The button's hx-vals and element id are functions of its command alone: made once
        # for as long as the table offers that command (most choices stand for several seqs),
        # from one JSON text of its arguments, not two JSON texts and a hash per seq.
        key = (type(prompt.seat), prompt.seat, choice.type, json_text(choice.args))
        wiring = wirings.get(key) or before.get(key)
        if wiring is None:
            wiring = (json_attr({"command": json_text(command)}), choice_dom_id(prompt.seat, choice))
        wirings[key] = wiring
        args = choice.args
        return {
            "label": choice.label,
            "detail": choice.detail,
            "command": command,
            "vals": wiring[0],
            "id": wiring[1],
            "target": target,
            # A command of one boolean ``on`` is a setting switched on or off: a checkbox
            # (``templates/table.html``), told here once rather than at each render.
            "switch": len(args) == 1 and type(args.get("on")) is bool,
        }

    def make() -> dict[str, Any]:
        shape = prompt_shape(prompt, [button(choice) for choice in prompt.choices])
        # The step of a turn it belongs to, for a first game's guide (issue 28).
        return shape | {"step": session.game.guide_step(session.state, prompt)}

    if not session.is_game_prompt(prompt):
        return make()  # a prompt made for one request: not kept
    return session.derived(("buttons", id(prompt)), make)  # type: ignore[no-any-return]


def context(
    hub: Hub, session: TableSession, viewer: Viewer, view: dict[str, Any] | None = None
) -> dict[str, Any]:
    prompts = viewer_prompts(hub, session, viewer)
    names = seat_names(session)
    held = sorted(s for s in viewer.seats if isinstance(s, int))
    out = {
        "my_names": [names[s] for s in held if s in names],
        "chat_seat": held[0] if held else (GM_SEAT if viewer.is_gm else None),
        "table": session.record,
        "table_id": session.id,
        "game": session.game,
        "seats": session.seats,
        "names": names,
        "viewer": viewer,
        "view": page_view(session, viewer) if view is None else view,
        "prompts": prompts,
        "waiting_for": session.derived("waiting_for", lambda: hub.waiting_for(session)),
        "waiting_any": session.derived("waiting_any", lambda: hub.waiting_for_any_one(session)),
        "outcome": session.outcome,
        "seq": session.seq,
        "has_bot": has_bot(session.game),
        "campaign": session.derived("campaign", lambda: campaign(session.game, session.state)),
    }
    return out


@lru_cache(maxsize=64)
def _game_template(env: Environment, game_name: str) -> Template | None:
    try:
        return env.get_template(f"games/{game_name}/board.html")
    except TemplateNotFound:
        return None


def fragment_id(block: str) -> str:
    """The element id a game's ``fragment_<id>`` block renders (``_`` in the name is ``-``)."""
    return block.removeprefix(GAME_BLOCK_PREFIX).replace("_", "-")


BoardHeld = tuple[int, ...]
"""A page's board as it holds it: the versions of its fragments (``HtmlStream.board``)."""


@dataclass(eq=False)
class TableRenders:
    """What the table's pages share: the part renders (``PartCache``) and, at the current
    seq, the board of each distinct view (viewers whose views are equal share one)."""

    parts: PartCache = field(default_factory=PartCache)
    seq: int = -1
    boards: list[tuple[dict[str, Any], dict[str, Node]]] = field(default_factory=list)
    html: dict[int, dict[str, str]] = field(default_factory=dict)
    """Per board (by ``id`` of its nodes' dict): its fragments' HTML, made when a page asks."""
    log: dict[tuple[int, str], list[tuple[Any, str]]] = field(default_factory=dict)
    """Per (seq, actor shown): each distinct visible event and its log line (``log_entries``)."""
    shells: dict[Viewer, dict[str, tuple[tuple[Any, ...], Node]]] = field(default_factory=dict)
    """Per viewer, per shell fragment: what of the context it last read (``SHELL_READS``) and
    the node it made (``shell_nodes``)."""
    wirings: dict[tuple[Any, ...], tuple[str, str]] = field(default_factory=dict)
    """Per command a prompt button sends at ``wirings_seq`` (seat, type, JSON of its args): its
    hx-vals and its element id (``prompt_buttons``), kept across seqs while the table offers it."""
    wirings_before: dict[tuple[Any, ...], tuple[str, str]] = field(default_factory=dict)
    """``wirings`` of the seq before: what a seq did not offer again is dropped."""
    wirings_seq: int = -1
    seq_node: tuple[int, Node] | None = None
    """The seq marker of the seq it shows."""
    sent: dict[int, str] = field(default_factory=dict)
    """At the current seq: the HTML of each part a page was sent whole, by its version, made
    once for every page it goes to (``node_html``)."""
    board_diffs: dict[tuple[BoardHeld, BoardHeld], tuple[list[str], dict[str, tuple[int, int]]]] = field(
        default_factory=dict
    )
    """At the current seq: per (board a page held, board now), the frames and what the page
    holds after them (``HtmlStream._board_changes``)."""


_RENDERS: WeakKeyDictionary[TableSession, TableRenders] = WeakKeyDictionary()
LOG_LINES_KEPT = 48
"""Recent log lines kept per table: a commit's lines, for every viewer who sees them alike."""


def renders_of(session: TableSession) -> TableRenders:
    renders = _RENDERS.get(session)
    if renders is None:
        renders = _RENDERS[session] = TableRenders()
    return renders


def forget_renders(session: TableSession) -> None:
    """Drop a table's shared renders (the next page is rendered from nothing: tests compare
    a page assembled from live updates with such a fresh render)."""
    _RENDERS.pop(session, None)


def render_nodes(
    template: Template, blocks: list[tuple[str, str]], ctx: dict[str, Any], cache: PartCache | None
) -> dict[str, Node]:
    """Render the named ``blocks`` of ``template`` (element id, block name), reusing every part
    whose slice ``cache`` already holds a render for."""
    render = PartRender(cache)
    outputs = render_blocks(template, [name for _, name in blocks], ctx | {"_parts": render})
    # One block at a time: ``fragment`` takes the parts the block just made.
    return {part_id: render.fragment(part_id, out) for (part_id, _), out in zip(blocks, outputs, strict=True)}


def board_nodes(env: Environment, ctx: dict[str, Any], cache: PartCache | None = None) -> dict[str, Node]:
    """The game's board fragments as part trees. A board template sees only ``view`` and
    ``game``, so its HTML is a pure function of the viewer's view (and viewers share it)."""
    board_ctx = {"view": ctx["view"], "game": ctx["game"]}
    template = _game_template(env, ctx["game"].name)
    if template is None:
        generic = env.get_template("games/_generic.html")
        render = PartRender(cache)
        return {
            f"view-{key}": render.fragment(
                f"view-{key}",
                render_block(generic, "entry", board_ctx | {"key": key, "value": value, "_parts": render}),
            )
            for key, value in ctx["view"].items()
        }
    blocks = [(fragment_id(name), name) for name in template.blocks if name.startswith(GAME_BLOCK_PREFIX)]
    return render_nodes(template, blocks, board_ctx, cache)


def board_fragments(env: Environment, ctx: dict[str, Any]) -> dict[str, str]:
    """The board fragments' HTML, rendered from nothing (no render of any part reused)."""
    return {key: node.html() for key, node in board_nodes(env, ctx).items()}


def shared_board_nodes(env: Environment, session: TableSession, ctx: dict[str, Any]) -> dict[str, Node]:
    """``board_nodes`` at the table's current seq: once for every viewer whose view is equal
    (every spectator; players whose views hide nothing from each other), and otherwise
    reusing each part whose slice of the view has not changed."""
    renders = renders_of(session)
    renders.parts.begin(session.seq)
    if renders.seq != session.seq:  # a new seq: older boards will not be asked for again
        renders.seq, renders.boards, renders.html, renders.sent = session.seq, [], {}, {}
        renders.board_diffs = {}
    view = ctx["view"]
    for seen, board in renders.boards:
        if seen is view or seen == view:  # the same dict for viewers of one ``view_key``
            return board
    board = board_nodes(env, ctx, renders.parts)
    renders.boards.append((view, board))
    return board


def node_html(session: TableSession, node: Node) -> str:
    """``node.html()``, made once per seq for every page of the table sent that part."""
    sent = renders_of(session).sent
    html = sent.get(node.version)
    if html is None:
        html = sent[node.version] = node.html()
    return html


def shared_board(env: Environment, session: TableSession, ctx: dict[str, Any]) -> dict[str, str]:
    """The HTML of ``shared_board_nodes``: the very same dict for viewers who share a view."""
    board = shared_board_nodes(env, session, ctx)
    renders = renders_of(session)
    html = renders.html.get(id(board))
    if html is None:
        html = renders.html[id(board)] = {key: node.html() for key, node in board.items()}
    return html


SHELL_SEQ = "seq"
SHELL_READS = {
    "status": ("outcome", "waiting_for", "waiting_any", "names", "campaign", "viewer"),
    "prompts": ("prompts", "outcome", "names", "table_id", "viewer"),
    "seats": ("seats", "waiting_for", "outcome", "has_bot", "table_id", "viewer"),
}
"""What of the context each shell fragment but the seq marker reads (``templates/table.html``),
with what ``shell_keys`` makes of them: neither reads the view nor the seq, and a test holds
each to its list."""


def shell_keys(ctx: dict[str, Any]) -> dict[str, Any]:
    """The keys of the shell's parts (``templates/table.html``), each holding all its part
    reads, and the two facts of the viewer the status shows (``my_turn``, ``won_by_me``).
    Made here rather than in the template so that ``shell_nodes`` can look a key up among the
    table's renders before running the template (another viewer's render of an equal key)."""
    viewer, waiting, outcome, names = ctx["viewer"], ctx["waiting_for"], ctx["outcome"], ctx["names"]
    mine, is_gm, seats = viewer.seats, viewer.is_gm, ctx["seats"]
    has_bot, table_id = ctx["has_bot"], ctx["table_id"]
    my_turn = any(seat in mine for seat in waiting)
    some_won = outcome is not None and bool(outcome.winners) and len(outcome.winners) < len(names)
    won_by_me = any(seat in mine for seat in outcome.winners) if some_won else None
    return {
        "my_turn": my_turn,
        "won_by_me": won_by_me,
        "status_key": (
            outcome,
            waiting,
            ctx.get("waiting_any", False),
            names,
            my_turn,
            tuple(sorted(s for s in waiting if s in mine)) if my_turn else (),
            ctx["campaign"],
            won_by_me,
            viewer.role,
        ),
        "prompts_key": (ctx["prompts"], viewer.role, len(mine) > 1, outcome, names, table_id),
        "seats_key": (seats, waiting, mine, is_gm, has_bot, outcome, table_id),
        "seat_keys": {
            s.seat: (s, s.seat in waiting, s.seat in mine, is_gm, has_bot, outcome, table_id) for s in seats
        },
    }


def shell_nodes(
    env: Environment, ctx: dict[str, Any], session: TableSession | None = None
) -> dict[str, Node]:
    """The shell's fragments (status, prompts, players, seq marker) as part trees, reusing the
    table's renders of those whose key is unchanged (``shell_keys``).

    With the ``session``, a fragment whose key is the one of the viewer's last render (a
    spectator's or an idle seat's prompts while the turn moves on, everyone's players panel
    while only the prompts change) is given that very node again; one whose key another viewer
    rendered at the table is given that render; a players panel that differs from the
    viewer's last only in some players is its last frame around the players' renders. Only
    what none of these finds runs its template. The seq marker is made once per seq for every
    viewer."""
    template = env.get_template("table.html")
    keys = shell_keys(ctx)
    ctx = ctx | keys
    if session is None:
        return render_nodes(template, [(name, f"frag_{name}") for name in SHELL_FRAGMENTS], ctx, None)
    renders = renders_of(session)
    cache = renders.parts
    cache.begin(session.seq)
    held = renders.shells.setdefault(ctx["viewer"], {})
    stale = []
    for name in SHELL_READS:
        key = keys[f"{name}_key"]
        kept = held.get(name)
        if kept is not None and kept[0] == key:
            cache.touch(kept[1])
            continue
        node = cache.find(name, key)
        if node is None and name == "seats" and kept is not None:
            node = _seats_around(template, ctx, cache, kept)
        if node is None:
            stale.append((name, f"frag_{name}"))
        else:
            held[name] = (key, node)
    if stale:
        for name, node in render_nodes(template, stale, ctx, cache).items():
            held[name] = (keys[f"{name}_key"], node)
    if renders.seq_node is None or renders.seq_node[0] != ctx[SHELL_SEQ]:
        seq_node = render_nodes(template, [(SHELL_SEQ, f"frag_{SHELL_SEQ}")], ctx, cache)[SHELL_SEQ]
        renders.seq_node = (ctx[SHELL_SEQ], seq_node)
    else:
        cache.touch(renders.seq_node[1])
    return {name: renders.seq_node[1] if name == SHELL_SEQ else held[name][1] for name in SHELL_FRAGMENTS}


def _seats_around(
    template: Template, ctx: dict[str, Any], cache: PartCache, kept: tuple[tuple[Any, ...], Node]
) -> Node | None:
    """The players panel as the frame of the viewer's last one (``kept``: its key and node)
    around each player's part, found among the table's renders or rendered alone (block
    ``frag_seat``); None if the players are not the same seats in the same order (the frame
    names each player's part, and nothing else of the context)."""
    seats = ctx["seats"]
    if [s.seat for s in kept[0][0]] != [s.seat for s in seats]:
        return None
    seat_keys = ctx["seat_keys"]
    children: dict[str, Node] = {}
    for s in seats:
        part_id = f"seat-{s.seat}"
        node = cache.find(part_id, seat_keys[s.seat])
        if node is None:
            node = render_nodes(template, [(part_id, "frag_seat")], ctx | {"s": s}, cache)[part_id]
        children[part_id] = node
    node = Node("seats", kept[1].frame, children)
    cache.keep("seats", ctx["seats_key"], node)
    return node


def shell_fragments(
    env: Environment, ctx: dict[str, Any], session: TableSession | None = None
) -> dict[str, str]:
    return {key: node.html() for key, node in shell_nodes(env, ctx, session).items()}


def page_nodes(
    env: Environment, session: TableSession, ctx: dict[str, Any]
) -> tuple[dict[str, Node], dict[str, Node]]:
    """Every live fragment of a viewer's page, in page order: the shell's, then the board's."""
    return shell_nodes(env, ctx, session), shared_board_nodes(env, session, ctx)


def board_html(env: Environment, ctx: dict[str, Any], session: TableSession | None = None) -> dict[str, str]:
    """The board fragments for a whole page. With the ``session`` (a page at the table's
    current seq) the renders live updates made are reused."""
    return shared_board(env, session, ctx) if session is not None else board_fragments(env, ctx)


def log_entries(
    env: Environment, hub: Hub, session: TableSession, events: list[StoredEvent], viewer: Viewer
) -> list[str]:
    """One ``<li>`` per event this viewer may see, oldest first. A line is rendered once for
    every viewer who sees the event alike (the table keeps the recent lines)."""
    template = env.get_template("table.html")
    kept = renders_of(session).log
    # Names as the table stands now; a kept line keeps the names it was first told with.
    context = session.game.log_context(session.state)
    out = []
    previous_command: str | None = None
    for stored in events:
        first_of_command = stored.command_id is None or stored.command_id != previous_command
        previous_command = stored.command_id
        visible = kernel.event_for_viewer(session.game, stored.event, viewer)
        if visible is None:
            continue
        # Who acted leads the first line of each command (and chat and undo), not every line.
        actor = actor_name(session, stored.actor) if first_of_command else ""
        lines = kept.setdefault((stored.seq, actor), [])
        line = next((html for seen, html in lines if seen is visible or seen == visible), None)
        if line is None:
            line = log_line(template, session, stored, visible, actor, context)
            lines.append((visible, line))
            if len(kept) > LOG_LINES_KEPT:
                del kept[next(iter(kept))]
        if line:
            out.append(line)
    return out


def leading_actor(actor: str, text: str) -> str:
    """The actor a log line leads with, or "" when the line already starts with that name
    (never "Ann Ann's Champion discards a card", issue 26)."""
    if actor and (
        text.startswith(actor + " ") or text.startswith(actor + "'s") or text.startswith(actor + "’s")
    ):
        return ""
    return actor


def log_line(
    template: Template,
    session: TableSession,
    stored: StoredEvent,
    visible: Any,
    actor: str,
    context: Any = None,
) -> str:
    """The ``<li>`` of one visible event ("" for bookkeeping a game leaves unnarrated);
    ``context`` is the game's ``log_context`` for the names its lines use."""
    text = kernel.describe(session.game, visible, context)
    if not text:
        return ""
    actor = leading_actor(actor, text)
    reference = session.game.rules_reference()
    entry = {
        "seq": stored.seq,
        # The rule the line applies (issue 28): shown on request, static/rules.js.
        "rule": reference.log.get(visible.type) if reference is not None else None,
        "type": visible.type,
        "is_chat": visible.type == kernel.PLATFORM_PREFIX + kernel.CHAT,
        "mark": session.game.log_mark(visible),
        # An undo names the lines it took back; static/umbra.js strikes them through.
        "undone": undo_span(stored.seq, visible) if visible.type == UNDO_EVENT else None,
        "actor": actor,
        "text": text,
        "at": stored.at,
    }
    return render_block(template, "log_entry", {"entry": entry})
