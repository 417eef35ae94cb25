"""HTML pages: lobby, seat, watch, game master and replay. Every button on a table page is
a legal command taken from ``prompts``; the page stays live over the websocket."""

from __future__ import annotations

import json
import re
import secrets
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from app.http.commands import CommandIn
from app.http.errors import RETRY_AFTER_SECONDS, describe_validation
from app.http.links import created_links
from app.http.streams import add_stream
from app.http.tokens import cookie_name, cookie_tokens
from app.kernel import table as kernel
from app.kernel.game import Game, has_bot, validate_options
from app.kernel.history import BOT_STRENGTHS, COMMAND_ID
from app.kernel.options import active_options
from app.kernel.registry import all_games, get_game
from app.kernel.types import SPECTATOR, Command, RuleError, Viewer
from app.live.auth import token_hash
from app.live.hub import AuthError, Hub, NotFound
from app.live.session import TableSession
from app.live.tables import CreatedTable
from app.live.wire import choice_command_id
from app.store import StoredEvent
from app.web import fragments
from app.web.boardview import board_view
from app.web.stream import HtmlStream
from app.web.templating import make_environment, render_block

router = APIRouter(include_in_schema=False)
SMALL_NUMBER = re.compile(r"^-?[0-9]{1,6}$")
PAGE_SEQ = re.compile(r"^[0-9]{1,9}$")
"""The seq a page sends with a button's click (its ``#seq``)."""
"""A number a form may carry (a seat, an option): anything longer is refused, not parsed."""
COOKIE_MAX_AGE = 60 * 60 * 24 * 365


def install(app: FastAPI) -> None:
    app.state.templates = make_environment()
    app.state.html_error = html_error
    add_stream(app, "html", HtmlStream)
    app.include_router(router)
    from app.web import option_editors  # imports this module's lobby form readers

    app.include_router(option_editors.router)


def html_error(request: Request, outage: bool) -> HTMLResponse:
    """A failed browser request, as the page can show it: a flash for htmx (the page retries
    a 503 by itself), else a whole page. Never a bare text/plain 500."""
    status = 503 if outage else 500
    message = (
        "The server is reconnecting to its database; nothing was done yet. Retrying…"
        if outage
        else "The server failed on this request (it has been logged); nothing was done."
    )
    if "hx-request" in request.headers:
        response = flash(request, message, status)
    else:
        title = "Back in a moment" if outage else "Something went wrong"
        response = message_page(request, status, title, message)
    if outage:
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def hub_of(request: Request) -> Hub:
    return request.app.state.hub


def page(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    template = request.app.state.templates.get_template(name)
    return HTMLResponse(template.render(request=request, **ctx), status_code=status)


def message_page(request: Request, status: int, title: str, message: str) -> HTMLResponse:
    return page(request, "message.html", status, title=title, message=message)


def flash(
    request: Request, message: str = "", status: int = 200, kind: str = "error", seq: int | None = None
) -> HTMLResponse:
    """The ``#flash`` answer to a button. ``seq``: the table's seq when a command was refused;
    the page clears the message with its first update past it (static/umbra.js), so a
    "someone moved first" refusal stays until the next move, then goes."""
    template = request.app.state.templates.get_template("table.html")
    ctx = {"message": message, "kind": kind, "flash_seq": seq}
    return HTMLResponse(render_block(template, "flash", ctx), status_code=status)


SEAT_MOVED_NOTICE = (
    "This seat was opened on another device, or the game master handed it to a new player, so "
    "this device no longer controls it: you are watching the game as a spectator. Open your "
    "invite link again to take the seat back (after a hand-over only the new link works)."
)


BOT_PACES = (
    (0.0, "at once"),
    (0.5, "quickly (0.5 s a move)"),
    (1.5, "at a pace to follow (1.5 s a move)"),
    (3.0, "slowly (3 s a move)"),
)
"""The bot paces the game master's page offers (any 0–10 s may be set through the API)."""


def pace_choices(current: float | None) -> list[tuple[float, str]]:
    """The pace menu, with the table's current pace in it even if it is not one of ours."""
    choices = list(BOT_PACES)
    if current is not None and all(current != seconds for seconds, _ in choices):
        choices.append((current, f"{current:g} s a move"))
        choices.sort()
    return choices


def watch_url(table_id: str) -> str:
    """Where a device whose seat moved elsewhere goes: the live spectator page, saying why."""
    return f"/t/{table_id}/watch?seat_moved=1"


async def form_data(request: Request) -> dict[str, list[str]]:
    body = await request.body()
    try:
        return parse_qs(body.decode(), keep_blank_values=True)
    except UnicodeDecodeError:
        return {}


# -- lobby ------------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, game: str | None = None) -> HTMLResponse:
    games = all_games()
    chosen = games.get(game or "") or next(iter(games.values()), None)
    return page(request, "lobby.html", games=games, chosen=chosen, form={})


@router.get("/lobby/form", response_class=HTMLResponse)
async def lobby_form(request: Request, game: str = "") -> HTMLResponse:
    chosen = get_game(game)
    if chosen is None:
        return flash(request, f"there is no game {game!r}", 404)
    template = request.app.state.templates.get_template("lobby.html")
    return HTMLResponse(render_block(template, "game_form", {"chosen": chosen, "form": {}}))


def options_from_form(game: Game, form: dict[str, list[str]]) -> dict[str, Any]:
    """The options the lobby's form sends, read by their schema alone (any game): a field
    left empty is left to its default, and an option that does not apply (its
    ``depends_on`` unmet, its field hidden) is not sent at all."""
    options: dict[str, Any] = {}
    for spec in game.options:
        raw = form.get(f"opt_{spec.name}")
        if spec.kind == "bool":
            options[spec.name] = bool(raw) and raw[-1] in ("on", "true", "1")
        elif spec.kind == "seats":
            chosen = list(raw or [])
            while chosen and chosen[-1] == "":
                chosen.pop()  # the selects past the count were left alone
            if not chosen:
                continue  # all left to the game
            if "" in chosen or not all(SMALL_NUMBER.match(v) for v in chosen):
                missing = (chosen.index("") + 1) if "" in chosen else 0
                raise RuleError(
                    "bad_option",
                    f"{spec.label}: choose a seat for number {missing}, or leave them all to the game"
                    if missing
                    else f"{spec.label}: pick seats from the list",
                )
            options[spec.name] = [int(v) for v in chosen]
        elif spec.kind == "per_seat":
            picks = per_seat_picks(raw or [], form.get("seat", []))
            if any(p is not None for p in picks):
                options[spec.name] = picks
        elif spec.kind == "per_seat_text":
            texts = per_seat_picks([text.strip() for text in raw or []], form.get("seat", []))
            if any(t is not None for t in texts):
                options[spec.name] = texts
        elif raw is None or raw[-1] == "":
            continue
        elif spec.kind == "int":
            if not SMALL_NUMBER.match(raw[-1].strip()):
                raise RuleError("bad_option", f"{spec.label} must be a whole number")
            options[spec.name] = int(raw[-1].strip())
        else:
            options[spec.name] = raw[-1]
    values = {spec.name: options.get(spec.name, spec.default) for spec in game.options}
    applies = active_options(game.options, values)
    return {name: value for name, value in options.items() if name in applies}


def per_seat_picks(picks: list[str], seat_inputs: list[str]) -> list[str | None]:
    """A ``per_seat`` option's selects, one beside each seat's name field: the picks of the
    seats that will exist (a seat left unnamed is not created, so its pick goes too), an
    empty select being the game's pick (None)."""
    named = zip(picks, seat_inputs, strict=False)
    out: list[str | None] = [pick or None for pick, name in named if name.strip()]
    while out and out[-1] is None:
        out.pop()
    return out


def seat_names_from_form(form: dict[str, list[str]]) -> list[str]:
    """The players named in the lobby form, in order; empty seats are not created."""
    return [n.strip() for n in form.get("seat", []) if n.strip()]


@router.post("/lobby/summary", response_class=HTMLResponse)
async def lobby_summary(request: Request) -> HTMLResponse:
    """What the chosen options add up to (a game's difficulty rating, who plays what), or
    why they cannot make a table; refreshed as the lobby form changes."""
    form = await form_data(request)
    game = get_game((form.get("game") or [""])[-1])
    if game is None:
        return HTMLResponse("")  # the lobby offers only installed games
    names = seat_names_from_form(form)
    names += [f"Seat {i + 1}" for i in range(len(names), game.min_seats)]
    try:
        options = validate_options(game, options_from_form(game, form), len(names))
        lines, error = game.describe_options(options, names), ""
    except RuleError as err:
        lines, error = [], err.message
    template = request.app.state.templates.get_template("lobby.html")
    return HTMLResponse(
        render_block(template, "option_summary", {"summary_lines": lines, "summary_error": error})
    )


@router.post("/lobby", response_class=HTMLResponse)
async def lobby_create(request: Request) -> HTMLResponse:
    form = await form_data(request)
    games = all_games()
    game = games.get((form.get("game") or [""])[-1])
    if game is None:
        return message_page(request, 422, "Unknown game", "Pick a game from the list.")
    names = seat_names_from_form(form)
    try:
        created = await hub_of(request).create_table(
            game.name,
            options_from_form(game, form),
            names,
            name=(form.get("name") or [""])[-1],
        )
    except RuleError as err:
        return page(request, "lobby.html", 422, games=games, chosen=game, error=err.message, form=form)
    tokens = [token for _seat, _name, token in created.seat_tokens] + [created.gm_token]
    response = RedirectResponse(f"/lobby/created/{created.table_id}", status_code=303)
    response.set_cookie(
        created_cookie_name(created.table_id),
        ".".join(tokens),
        max_age=CREATED_COOKIE_MAX_AGE,
        path=f"/lobby/created/{created.table_id}",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https" or request.app.state.settings.public_url.startswith("https://"),
    )
    return response


CREATED_COOKIE_PREFIX = "umbra_created_"
CREATED_COOKIE_MAX_AGE = 60 * 60
"""How long the "table is ready" page can be reloaded: long enough to copy every link."""


def created_cookie_name(table_id: str) -> str:
    return CREATED_COOKIE_PREFIX + table_id


@router.get("/lobby", response_class=HTMLResponse)
async def lobby_again(request: Request, game: str | None = None) -> HTMLResponse:
    """``GET /lobby`` (a bookmark, a reload after a refused form) is the lobby page itself."""
    return await lobby(request, game)


@router.get("/lobby/created/{table_id}", response_class=HTMLResponse)
async def lobby_created(request: Request, table_id: str) -> HTMLResponse:
    """The "table is ready" page, reached by the lobby's POST-redirect-GET (issue 11):
    reloading it shows the same table again and never creates a second one.

    Where the links come from: the server keeps only hashes of the tokens, so the POST hands
    the new tokens to this page in a short-lived cookie (an hour), ``HttpOnly`` (no script
    reads it), ``SameSite=Strict`` and scoped to this one path, never in the URL: a URL lands
    in access logs, proxies' logs, the browser's history and ``Referer`` headers, while a
    cookie reaches only this server and only this page. The cookie is checked against the
    stored hashes (the game-master token must open the table; a seat token is shown only
    while it is still that seat's invite), so a forged or stale cookie shows nothing it
    should not. The page is ``no-store``: no cache keeps a copy of the links."""
    hub = hub_of(request)
    try:
        session = await hub.session(table_id)
    except NotFound as exc:
        return message_page(request, 404, "No such table", str(exc))
    raw = request.cookies.get(created_cookie_name(table_id), "")
    tokens = [t for t in raw.split(".") if t]
    if not tokens or token_hash(tokens[-1]) != session.record.gm_token_hash:
        return message_page(
            request,
            410,
            "These links are no longer shown",
            "A table's links are shown to the browser that created it, for an hour. Open the "
            "game-master link to manage the table, or ask its creator for your seat's link.",
        )
    gm_token, seat_tokens = tokens[-1], tokens[:-1]
    seats = list(zip(session.seats, seat_tokens, strict=False))
    created = CreatedTable(
        table_id=table_id,
        gm_token=gm_token,
        seat_tokens=[(s.seat, s.name, t) for s, t in seats if token_hash(t) == s.token_hash],
    )
    game = get_game(session.record.game)
    links = created_links(request, created)
    bots = {s.seat for s in session.seats if s.bot}
    roles, summary = seat_roles(game, session.record.options, [s.name for s in session.seats])
    for link in links["seats"]:
        link["bot"] = link["seat"] in bots  # a reload shows the bot switches as they are now
        link["roles"] = roles.get(link["seat"], [])
    response = page(request, "created.html", game=game, created=links, has_bot=has_bot(game), summary=summary)
    response.headers["Cache-Control"] = "no-store"
    return response


def seat_roles(
    game: Game | None, options: dict[str, Any], names: list[str]
) -> tuple[dict[int, list[str]], list[str]]:
    """What the game says of a table's options (``describe_options``: who controls which
    hero, who plays the Necromancer), each line that begins with a player's name put by
    that seat (without the name), the rest apart: the ready page marks each seat's role."""
    if game is None:
        return {}, []
    try:
        lines = game.describe_options(options, names)
    except RuleError:
        return {}, []
    by_seat: dict[int, list[str]] = {}
    rest: list[str] = []
    for line in lines:
        named = [seat for seat, name in enumerate(names) if line.startswith(name + " ")]
        if not named:
            rest.append(line)
            continue
        seat = max(named, key=lambda s: len(names[s]))  # "Al B plays…" is Al B's, not Al's
        by_seat.setdefault(seat, []).append(line[len(names[seat]) + 1 :])
    return by_seat, rest


# -- joining ----------------------------------------------------------------------------


def with_token(request: Request, response: Response, table_id: str, token: str, drop: set[str]) -> Response:
    tokens = [t for t in cookie_tokens(request, table_id) if t not in drop and t != token]
    tokens.append(token)
    response.set_cookie(
        cookie_name(table_id),
        ".".join(tokens[-16:]),
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        # Secure behind a TLS-terminating proxy too, where this hop may be plain http.
        secure=request.url.scheme == "https" or request.app.state.settings.public_url.startswith("https://"),
    )
    return response


@router.get("/t/{table_id}/join/{token}")
async def join_seat(request: Request, table_id: str, token: str) -> Response:
    """An invite link: this device takes the seat over (the device before loses it)."""
    hub = hub_of(request)
    try:
        await hub.session(table_id)
        seat, device_token = await hub.claim_seat(table_id, token)
    except NotFound as exc:
        return message_page(request, 404, "No such table", str(exc))
    except AuthError as exc:
        return message_page(request, exc.status, "This link does not open a seat", exc.message)
    # Forget tokens this browser held for tables' seats it no longer holds.
    session = await hub.session(table_id)
    stale = {t for t in cookie_tokens(request, table_id) if not _opens(session, t)}
    response = RedirectResponse(f"/t/{table_id}?seat={seat}", status_code=303)
    return with_token(request, response, table_id, device_token, stale)


@router.get("/t/{table_id}/gm/join/{token}")
async def join_gm(request: Request, table_id: str, token: str) -> Response:
    hub = hub_of(request)
    try:
        viewer = await hub.viewer(table_id, [token])
    except NotFound as exc:
        return message_page(request, 404, "No such table", str(exc))
    except AuthError as exc:
        return message_page(request, exc.status, "This link does not open the table", exc.message)
    if not viewer.is_gm:
        return message_page(request, 403, "Not a game-master link", "Use the game-master link.")
    response = RedirectResponse(f"/t/{table_id}/gm", status_code=303)
    return with_token(request, response, table_id, token, set())


def _opens(session: TableSession, token: str) -> bool:
    digest = token_hash(token)
    return digest == session.record.gm_token_hash or any(
        digest in (s.token_hash, s.session_hash) for s in session.seats
    )


# -- table pages ------------------------------------------------------------------------


async def table_page(request: Request, table_id: str, mode: str, notice: str = "") -> HTMLResponse:
    hub = hub_of(request)
    try:
        session = await hub.session(table_id)
    except NotFound as exc:
        return message_page(request, 404, "No such table", str(exc))
    viewer: Viewer = SPECTATOR
    if mode != "watch":
        viewer = await hub.viewer(table_id, cookie_tokens(request, table_id), lenient=True)
    if mode == "seat" and viewer.role != "seat" and not viewer.is_gm:
        return page(request, "noseat.html", 403, table_id=table_id)
    if mode == "gm" and not viewer.is_gm:
        return message_page(request, 403, "Game master only", "Open the game-master link first.")
    if mode == "seat" and viewer.is_gm:
        mode = "gm"
    env = request.app.state.templates
    ctx = fragments.context(hub, session, viewer)
    shell, board = fragments.shell_fragments(env, ctx, session), fragments.board_html(env, ctx, session)
    log_from = max(0, session.seq - fragments.LOG_PAGE)
    recent = await session.events_between(log_from, session.seq)
    log = list(reversed(fragments.log_entries(env, hub, session, recent, viewer)))
    log_as = "watch" if mode == "watch" else "seat"
    gm_bots = mode == "gm" and ctx["has_bot"]
    pace = await hub.bots.pace(session) if gm_bots else None
    return page(
        request,
        "table.html",
        bot_pace=pace,
        pace_choices=pace_choices(pace),
        bot_strength=await hub.bots.strength(session) if gm_bots else None,
        reference=session.game.rules_reference(),
        strength_choices=list(BOT_STRENGTHS.items()),
        pace_error="",
        mode=mode,
        shell=shell,
        board=board,
        log=log,
        log_from=log_from,
        log_as=log_as,
        message=notice,
        kind="notice",
        **ctx,
    )


@router.get("/t/{table_id}/log", response_class=HTMLResponse)
async def earlier_log(request: Request, table_id: str, before: int, view: str = "seat") -> HTMLResponse:
    """The log page before seq ``before`` (the "Show earlier entries" button): its lines
    go to the end of the log, and the button moves on to the page before, if any. A
    page watching as a spectator asks with ``view=watch`` and sees what spectators see."""
    hub = hub_of(request)
    try:
        session = await hub.session(table_id)
    except NotFound as exc:
        return flash(request, str(exc), 404)
    view = "watch" if view == "watch" else "seat"
    viewer: Viewer = SPECTATOR
    if view == "seat":
        viewer = await hub.viewer(table_id, cookie_tokens(request, table_id), lenient=True)
    env = request.app.state.templates
    before = max(0, min(before, session.seq))
    log_from = max(0, before - fragments.LOG_PAGE)
    events = await session.events_between(log_from, before)
    entries = "".join(reversed(fragments.log_entries(env, hub, session, events, viewer)))
    button = env.get_template("log_more.html").render(table_id=table_id, log_from=log_from, log_as=view)
    return HTMLResponse(f'{button}<div hx-swap-oob="beforeend:#log-entries">{entries}</div>')


@router.get("/t/{table_id}", response_class=HTMLResponse)
async def seat_page(request: Request, table_id: str) -> HTMLResponse:
    return await table_page(request, table_id, "seat")


@router.get("/t/{table_id}/watch", response_class=HTMLResponse)
async def watch_page(request: Request, table_id: str, seat_moved: str = "") -> HTMLResponse:
    """The spectator page; ``seat_moved=1`` is where a seat's page goes once the seat was
    opened on another device or handed to a new player (README: it drops to watching)."""
    return await table_page(request, table_id, "watch", SEAT_MOVED_NOTICE if seat_moved else "")


@router.get("/t/{table_id}/gm", response_class=HTMLResponse)
async def gm_page(request: Request, table_id: str) -> HTMLResponse:
    return await table_page(request, table_id, "gm")


# -- acting -----------------------------------------------------------------------------


@router.post("/t/{table_id}/act", response_class=HTMLResponse)
async def act(request: Request, table_id: str) -> HTMLResponse:
    """A button press: one command from this viewer's prompts, sent as JSON in ``command``.

    A page's button carries its command without ``command_id`` and ``seq`` (so it stays the
    same HTML while its choice is offered); the page sends its current seq beside it
    (``seq``, static/umbra.js) and the command id is derived from that seq and the command
    (``wire.choice_command_id``): a double click, a retry or a second tab at the same seq is
    one command, and a click from a page the table has moved past is refused as stale."""
    form = await form_data(request)
    raw = (form.get("command") or [""])[-1]
    clicked_at: int | None = None  # the page's seq at the click, when the id is made here
    try:
        sent = json.loads(raw)
        if isinstance(sent, dict) and "command_id" not in sent:
            page_seq = (form.get("seq") or [""])[-1]
            if not PAGE_SEQ.fullmatch(page_seq):
                return flash(
                    request, "That command is malformed: seq: the page's seq is missing or not a number", 422
                )
            clicked_at = int(page_seq)
            sent = sent | {"command_id": "page", "seq": clicked_at}
        body = CommandIn.model_validate(sent)
    except (ValueError, ValidationError) as exc:
        detail = describe_validation(exc.errors()) if isinstance(exc, ValidationError) else str(exc)
        return flash(request, f"That command is malformed: {detail}", 422)
    command_id = body.command_id
    if clicked_at is not None:
        try:
            session = await hub_of(request).session(table_id)
        except NotFound as exc:
            return flash(request, str(exc), 404)
        command_id = choice_command_id(session, clicked_at, body.seat, body.type, body.args)
    return await submit(request, table_id, Command(body.seat, body.type, body.args), command_id, body.seq)


@router.post("/t/{table_id}/chat", response_class=HTMLResponse)
async def chat(request: Request, table_id: str) -> HTMLResponse:
    """A chat line. The page makes a ``command_id`` per message and keeps it while it
    retries (after a 503), so a message that did land is not posted twice."""
    form = await form_data(request)
    text = (form.get("text") or [""])[-1]
    seat_raw = (form.get("seat") or [""])[-1]
    seat: Any = int(seat_raw) if SMALL_NUMBER.match(seat_raw) else seat_raw
    posted = (form.get("command_id") or [""])[-1]
    command_id = posted if COMMAND_ID.fullmatch(posted) else "chat-" + secrets.token_hex(8)
    return await submit(request, table_id, Command(seat, kernel.CHAT, {"text": text}), command_id, None)


async def submit(
    request: Request, table_id: str, command: Command, command_id: str, client_seq: int | None
) -> HTMLResponse:
    hub = hub_of(request)
    viewer: Viewer = SPECTATOR
    try:
        session = await hub.session(table_id)
        viewer = await hub.viewer(table_id, cookie_tokens(request, table_id), lenient=True)
        if not viewer.holds(command.seat):
            raise AuthError(
                403, "seat_not_held", "this page does not hold that seat (was it opened on another device?)"
            )
        await session.submit(command, viewer, command_id=command_id, client_seq=client_seq)
    except NotFound as exc:
        return flash(request, str(exc), 404)
    except AuthError as exc:
        response = flash(request, exc.message, exc.status)
        if viewer is SPECTATOR and isinstance(command.seat, int):
            # This browser holds no seat here any more (it moved to another device, or to a
            # new player): its click leads to the live spectator page instead.
            response.headers["HX-Redirect"] = watch_url(table_id)
        return response
    except RuleError as exc:
        return flash(request, refusal(exc), exc.status, seq=session.seq)
    return flash(request, "")  # a database outage: errors.install's handler answers html_error


def refusal(err: RuleError) -> str:
    """A refused command as its page says it: a click chosen on a state the table has left
    (someone else moved first) is said without seq numbers (no event numbers for players)."""
    cause = err.__cause__
    if err.code == "stale" and isinstance(cause, RuleError):
        return (
            "the table has moved on since this page was drawn (someone moved first), so that was "
            f"not done: {cause.message}"
        )
    return err.message


@router.post("/t/{table_id}/seats/{seat}/bot", response_class=HTMLResponse)
async def seat_bot(request: Request, table_id: str, seat: int) -> HTMLResponse:
    """The "Let the bot play" switch (form: ``on`` 1/0). From the game-master page it is
    authorised by the cookie and answers in ``#flash`` (the players panel updates live); the
    table-ready page sends the game-master ``token`` it shows and gets the switch back."""
    form = await form_data(request)
    on = (form.get("on") or [""])[-1] in ("1", "true", "on")
    token = (form.get("token") or [""])[-1]
    hub = hub_of(request)
    error, status = "", 200
    try:
        tokens = [token] if token else cookie_tokens(request, table_id)
        viewer = await hub.viewer(table_id, tokens, required=True, lenient=not token)
        await hub.set_bot(table_id, seat, on, viewer)
    except NotFound as exc:
        error, status = str(exc), 404
    except (AuthError, RuleError) as exc:
        error, status = exc.message, exc.status
    if (form.get("reply") or [""])[-1] != "toggle":
        return flash(request, error, status)
    session = hub.sessions.get(table_id)
    record = next((s for s in session.seats if s.seat == seat), None) if session else None
    template = request.app.state.templates.get_template("bot_toggle.html")
    html = template.render(
        table_id=table_id,
        bot_seat=seat,
        bot_name=record.name if record else f"seat {seat}",
        bot_on=record.bot if record else False,
        bot_token=token or None,
        bot_error=error,
    )
    return HTMLResponse(html, status_code=status)


# -- replay -----------------------------------------------------------------------------


async def replay_context(request: Request, session: TableSession, seq: int) -> dict[str, Any]:
    hub = hub_of(request)
    env = request.app.state.templates
    seq = max(0, min(seq, session.seq))
    state = await session.state_at(seq)
    view = board_view(session.game, state, SPECTATOR)
    ctx = fragments.context(hub, session, SPECTATOR, view=view) | {"seq": seq, "prompts": []}
    ctx["outcome"] = session.game.outcome(state)
    board = fragments.board_html(env, ctx)
    log_from = max(0, seq - fragments.LOG_PAGE)
    events = await session.events_between(log_from, seq)
    log = list(reversed(fragments.log_entries(env, hub, session, events, SPECTATOR)))
    current = events[-1] if events else None
    following = await session.events_between(seq, seq + 1)
    # Describe the event at ``seq`` itself: the newest log line is an earlier event when
    # the one at ``seq`` is hidden from spectators.
    visible = kernel.event_for_viewer(session.game, current.event, SPECTATOR) if current else None
    text = kernel.describe(session.game, visible, session.game.log_context(state)) if visible else ""
    actor = fragments.actor_name(session, current.actor) if current else ""
    return ctx | {
        "board": board,
        "log": log,
        "last_seq": session.seq,
        "current": current,
        "current_actor": fragments.leading_actor(actor, text),
        "current_text": text,
        "current_hidden": current is not None and visible is None,
        # Between two events of one command the board is half-done (a piece moved, its
        # consequences not yet drawn): the frame says so, and the move buttons skip past it.
        "mid_move": current is not None and bool(following) and same_move(current, following[0]),
        "log_from": log_from,
        "log_as": "watch",
    }


def same_move(a: StoredEvent, b: StoredEvent) -> bool:
    """Do two consecutive events come from one command (or, without one, one setup)?"""
    return (a.command_id, a.actor) == (b.command_id, b.actor)


def move_ends(events: list[StoredEvent]) -> list[int]:
    """The seq of the last event of each command, in order: where a replay by moves stops."""
    return [
        e.seq
        for e, after in zip(events, events[1:] + [None], strict=True)
        if after is None or not same_move(e, after)
    ]


@router.get("/t/{table_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, table_id: str, seq: int | None = None) -> HTMLResponse:
    try:
        session = await hub_of(request).session(table_id)
    except NotFound as exc:
        return message_page(request, 404, "No such table", str(exc))
    ctx = await replay_context(request, session, session.seq if seq is None else seq)
    moves = move_ends(await session.events_between(0, session.seq))
    return page(request, "replay.html", moves=moves, **ctx)


@router.get("/t/{table_id}/replay/frame", response_class=HTMLResponse)
async def replay_frame(request: Request, table_id: str, seq: int = 0) -> HTMLResponse:
    try:
        session = await hub_of(request).session(table_id)
    except NotFound as exc:
        return flash(request, str(exc), 404)
    ctx = await replay_context(request, session, seq)
    template = request.app.state.templates.get_template("replay.html")
    return HTMLResponse(render_block(template, "frame", ctx | {"request": request}))
