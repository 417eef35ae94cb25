"""A viewer's page as named fragments, each one root element with a stable id.

The shell supplies status, prompts, seats and the seq marker; the game supplies its board
fragments as blocks named ``fragment_<id>`` in ``templates/games/<game>/board.html`` (a block
name cannot hold ``-``, so ``_`` in it stands for ``-`` in the id: ``fragment_dn_map`` renders
``id="dn-map"``). A game without templates gets one generic fragment per top-level key of
its view. After each commit only fragments whose HTML changed are sent (see ``stream``).

A fragment may hold *parts*: smaller pieces marked ``<!--part:ID-->…<!--/part:ID-->``, each
one root element with ``id="ID"``. When only parts changed, only those parts are sent, so
a hero's secrecy moving re-sends that hero's panel, not every hero (``split_parts``).
Parts may hold parts of their own; the marks are stripped from everything sent."""

from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from jinja2 import Environment, Template, TemplateNotFound

from app.kernel import table as kernel
from app.kernel.game import campaign, has_bot
from app.kernel.types import GM_SEAT, Viewer
from app.live.hub import Hub, prompt_json
from app.live.session import TableSession
from app.store import StoredEvent
from app.web.templating import render_block

if TYPE_CHECKING:
    from app.kernel.types import Choice

SHELL_FRAGMENTS = ("status", "prompts", "seats", "seq")
GAME_BLOCK_PREFIX = "fragment_"
LOG_PAGE = 200
PART = re.compile(r"<!--part:([\w-]+)-->(.*?)<!--/part:\1-->", re.S)
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
    shared board clickable. A spectator has no prompts, so nothing on its board is wired."""
    out = []
    seen: set[str] = set()
    game = session.game
    for prompt in hub.prompts_for(session, viewer):
        wire = prompt_json(session, prompt)
        for choice, sent in zip(prompt.choices, wire["choices"], strict=True):
            dom_id = choice_dom_id(prompt.seat, choice)
            while dom_id in seen:  # the same command offered twice keeps distinct ids
                dom_id += "-2"
            seen.add(dom_id)
            target = game.choice_target(session.state, choice) if choice.type != kernel.UNDO else None
            sent |= {"id": dom_id, "target": target}
        out.append(wire)
    return out


def context(
    hub: Hub, session: TableSession, viewer: Viewer, view: dict[str, Any] | None = None
) -> dict[str, Any]:
    prompts = viewer_prompts(hub, session, viewer)
    names = seat_names(session)
    held = sorted(s for s in viewer.seats if isinstance(s, int))
    return {
        "my_names": [names[s] for s in held if s in names],
        "chat_seat": held[0] if held else (GM_SEAT if viewer.is_gm else None),
        "table": session.record,
        "table_id": session.id,
        "game": session.game,
        "seats": session.seats,
        "names": names,
        "viewer": viewer,
        "view": session.game.view(session.state, viewer) if view is None else view,
        "prompts": prompts,
        "waiting_for": hub.waiting_for(session),
        "outcome": session.outcome,
        "seq": session.seq,
        "has_bot": has_bot(session.game),
        "campaign": campaign(session.game, session.state),
    }


@lru_cache(maxsize=64)
def _game_template(env: Environment, game_name: str) -> Template | None:
    try:
        return env.get_template(f"games/{game_name}/board.html")
    except TemplateNotFound:
        return None


def fragment_id(block: str) -> str:
    """The element id a game's ``fragment_<id>`` block renders (``_`` in the name is ``-``)."""
    return block.removeprefix(GAME_BLOCK_PREFIX).replace("_", "-")


def board_fragments(env: Environment, ctx: dict[str, Any]) -> dict[str, str]:
    """The game's board fragments. A board template sees only ``view`` and ``game``, so
    its HTML is a pure function of the viewer's view (and ``shared_board`` can reuse it)."""
    board_ctx = {"view": ctx["view"], "game": ctx["game"]}
    template = _game_template(env, ctx["game"].name)
    if template is None:
        generic = env.get_template("games/_generic.html")
        return {
            f"view-{key}": render_block(generic, "entry", board_ctx | {"key": key, "value": value})
            for key, value in ctx["view"].items()
        }
    return {
        fragment_id(name): render_block(template, name, board_ctx)
        for name in template.blocks
        if name.startswith(GAME_BLOCK_PREFIX)
    }


_SHARED_BOARDS: WeakKeyDictionary[TableSession, tuple[int, dict[str, dict[str, str]]]] = WeakKeyDictionary()


def shared_board(env: Environment, session: TableSession, ctx: dict[str, Any]) -> dict[str, str]:
    """``board_fragments``, rendered once per seq for all the table's viewers who see the
    same view (every spectator; players whose views hide nothing from each other)."""
    key = json.dumps(ctx["view"], sort_keys=True, separators=(",", ":"), default=str)
    seq, renders = _SHARED_BOARDS.get(session, (-1, {}))
    if seq != session.seq:  # a new seq: older renders will not be asked for again
        renders = {}
        _SHARED_BOARDS[session] = (session.seq, renders)
    if key not in renders:
        renders[key] = board_fragments(env, ctx)
    return renders[key]


def shell_fragments(env: Environment, ctx: dict[str, Any]) -> dict[str, str]:
    shell = env.get_template("table.html")
    return {name: render_block(shell, f"frag_{name}", ctx) for name in SHELL_FRAGMENTS}


def all_fragments(
    env: Environment, session: TableSession, ctx: dict[str, Any]
) -> tuple[dict[str, str], dict[str, str]]:
    """(shell fragments, board fragments), each in page order, with their part marks."""
    return shell_fragments(env, ctx), shared_board(env, session, ctx)


def board_html(env: Environment, ctx: dict[str, Any], session: TableSession | None = None) -> dict[str, str]:
    """The board fragments for a whole page, as sent: without part marks. With the
    ``session`` (a page at the table's current seq) the render live updates made is reused."""
    board = shared_board(env, session, ctx) if session is not None else board_fragments(env, ctx)
    return {key: unmarked(html) for key, html in board.items()}


def log_entries(
    env: Environment, hub: Hub, session: TableSession, events: list[StoredEvent], viewer: Viewer
) -> list[str]:
    """One ``<li>`` per event this viewer may see, oldest first."""
    template = env.get_template("table.html")
    out = []
    previous_command: str | None = None
    for stored in events:
        first_of_command = stored.command_id is None or stored.command_id != previous_command
        previous_command = stored.command_id
        visible = kernel.event_for_viewer(session.game, stored.event, viewer)
        if visible is None:
            continue
        text = kernel.describe(session.game, visible)
        if not text:
            continue  # bookkeeping events (a game may leave them unnarrated)
        entry = {
            "seq": stored.seq,
            "type": visible.type,
            "is_chat": visible.type == kernel.PLATFORM_PREFIX + kernel.CHAT,
            "mark": session.game.log_mark(visible),
            # Who acted leads the first line of each command (and chat and undo), not every line.
            "actor": actor_name(session, stored.actor) if first_of_command else "",
            "text": text,
            "at": stored.at,
        }
        out.append(render_block(template, "log_entry", {"entry": entry}))
    return out
