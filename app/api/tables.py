"""REST routes for games and tables (the paths clients and tests rely on)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Body, Request, Response
from fastapi.encoders import jsonable_encoder

from app.api.deps import HubDep
from app.api.encoding import Encoded
from app.api.models import (
    BotIn,
    CommandIn,
    CommandOut,
    GameOut,
    SeatReissued,
    SeatReissueIn,
    TableCreate,
    TableCreated,
    TableSummary,
    ViewOut,
)
from app.api.ratelimit import RateLimit
from app.http.links import created_links, invite_url
from app.http.tokens import request_tokens
from app.kernel.registry import all_games
from app.kernel.types import Command, RuleError, Viewer
from app.live.hub import AuthError, CreatedTable, Hub
from app.live.session import TableSession

router = APIRouter(prefix="/api", tags=["tables"])

ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "Missing or unrecognised token"},
    403: {"description": "The token does not hold that seat"},
    404: {"description": "Unknown table"},
    409: {"description": "The command no longer fits the current state"},
    413: {"description": "The body (or an import's log) is too large"},
    422: {"description": "Malformed body, or a command the rules forbid (the message names the rule)"},
    429: {"description": "Too many requests of this kind from your address (see Retry-After)"},
    503: {"description": "The database is away for a moment: nothing was done; retry (see Retry-After)"},
}


READ_YOUR_WRITES_SECONDS = 2.0
"""How long ``GET /view?after=SEQ`` waits for this process to reach SEQ."""


def created_payload(request: Request, created: CreatedTable) -> TableCreated:
    return TableCreated(**created_links(request, created))


@router.get("/games", response_model=list[GameOut])
async def list_games() -> list[dict[str, Any]]:
    """The registered games, with their options schema and seat limits."""
    return [
        {
            "name": g.name,
            "title": g.title,
            "summary": getattr(g, "summary", ""),
            "min_seats": g.min_seats,
            "max_seats": g.max_seats,
            "engine_version": g.engine_version,
            "options": [o.to_json() for o in g.options],
        }
        for g in all_games().values()
    ]


@router.post("/tables", response_model=TableCreated, status_code=201, responses=ERRORS)
async def create_table(body: TableCreate, request: Request, hub: HubDep) -> TableCreated:
    """Create a table: one secret invite link per seat, a game-master link, a public
    watch link. A ``seed`` is accepted only when the server runs in test mode."""
    created = await hub.create_table(
        body.game, body.options, [s.name for s in body.seats], seed=body.seed, name=body.name
    )
    return created_payload(request, created)


@router.post("/tables/import", response_model=TableCreated, status_code=201, responses=ERRORS)
async def import_table(
    request: Request,
    hub: HubDep,
    body: Any = Body(...),  # noqa: B008
) -> TableCreated:
    """A new table from a signed export (``GET /export``), checked whole and replayed: a
    log that was edited, forged or signed by a server with another secret key is refused
    (422 ``bad_signature``). New links are made. Rate-limited per client address (429)
    and capped in bytes and events (413)."""
    limiter: RateLimit = request.app.state.import_limit
    limiter.take(request.client.host if request.client else "?", "imports")
    return created_payload(request, await hub.import_log(body))


@router.get("/tables/{table_id}", response_model=TableSummary, responses=ERRORS)
async def table_summary(table_id: str, hub: HubDep) -> dict[str, Any]:
    return summary_payload(hub, await hub.session(table_id))


@router.post("/tables/{table_id}/seats/{seat}/bot", response_model=TableSummary, responses=ERRORS)
async def seat_bot(table_id: str, seat: int, body: BotIn, request: Request, hub: HubDep) -> dict[str, Any]:
    """Hand a seat to the game's bot (``{"on": true}``) or take it back (``false``), with the
    game-master token or the seat's own. A seat a person has joined can be handed over only
    by that person (409 otherwise). Answers with the table summary."""
    viewer = await hub.viewer(table_id, request_tokens(request, table_id), required=True)
    return summary_payload(hub, await hub.set_bot(table_id, seat, body.on, viewer))


@router.post(
    "/tables/{table_id}/seats/{seat}/reissue", response_model=SeatReissued, status_code=201, responses=ERRORS
)
async def reissue_seat(
    table_id: str, seat: int, request: Request, hub: HubDep, body: SeatReissueIn | None = None
) -> SeatReissued:
    """Hand a seat to a new player (game-master token): a new invite link for the seat,
    shown only in this answer; the seat's old invite link and the device that held the seat
    are revoked (a request with either gets 403 ``seat_reissued``). ``{"name": "…"}``
    renames the seat (its name on the platform: players panel, log, links). The game's own
    state is not changed; a bot playing the seat plays on until the new player joins."""
    viewer = await hub.viewer(table_id, request_tokens(request, table_id), required=True)
    done = await hub.reissue_seat(table_id, seat, viewer, body.name if body else None)
    return SeatReissued(
        seat=done.seat,
        name=done.name,
        token=done.invite_token,
        url=invite_url(request, table_id, done.invite_token),
        revoked=done.revoked,
    )


def summary_payload(hub: Hub, session: TableSession) -> dict[str, Any]:
    return {
        "table_id": session.id,
        "game": session.game.name,
        "name": session.record.name,
        "status": "finished" if session.outcome else "running",
        "seq": session.seq,
        "seats": [
            {"seat": s.seat, "name": s.name, "joined": s.session_hash is not None, "bot": s.bot}
            for s in session.seats
        ],
        "waiting_for": hub.waiting_for(session),
        "outcome": session.outcome.to_json() if session.outcome else None,
    }


@router.get("/tables/{table_id}/view", response_model=ViewOut, responses=ERRORS)
async def table_view(table_id: str, request: Request, hub: HubDep, after: str | None = None) -> Response:
    """What this viewer may see now, and what it may do: each legal command ready to send.
    No token: the spectator's view. ``?after=SEQ`` (the seq a command was answered with):
    never a view older than that, whichever worker answers (it waits up to 2 s to catch up;
    409 ``seq_not_reached`` if the table has no such seq)."""
    return await view_response(hub, request, table_id)


async def view_response(hub: Hub, request: Request, table_id: str) -> Response:
    """``GET /view``'s answer (also served by ``app.api.fastpath``). With ``?after=SEQ`` the
    answer is never older than SEQ (read your writes: with several workers, the one that
    answers may not have heard of the commit SEQ yet), waiting at most
    ``READ_YOUR_WRITES_SECONDS``; a SEQ the table has not reached by then is 409."""
    after = after_param(request)
    session = await hub.session(table_id)
    viewer = await hub.viewer(table_id, request_tokens(request, table_id))
    if after is not None and not await session.reach(after, READ_YOUR_WRITES_SECONDS):
        raise RuleError(
            "seq_not_reached",
            f"the table is at seq {session.seq}: seq {after} has not been committed "
            f"(waited {READ_YOUR_WRITES_SECONDS:g} s); ask with the seq a command or a frame gave you",
            status=409,
        )
    # Encoded (and gzipped) once per seq for every request of an equal viewer: a client
    # may ask more than once at a seq (each seat's client, a retry, a second tab).
    key = ("view_body", viewer)
    encoded: Encoded = session.derived(key, lambda: Encoded(view_body(hub, session, viewer)))
    return encoded.response(request)


def view_body(hub: Hub, session: TableSession, viewer: Viewer) -> bytes:
    """``json_bytes(hub.view_payload(...))``, with the view's JSON (most of it) encoded once
    per seq for every viewer who sees the same view (``Game.view_key``), the rest spliced
    around it: the same bytes."""
    payload = hub.view_payload(session, viewer)
    view_key = ("view_json", session.game.view_key(session.state, viewer))
    view = session.derived(view_key, lambda: _json_text(payload["view"]))
    rest = _json_text({k: v for k, v in payload.items() if k not in ("seq", "view")})
    if view is None or rest is None or list(payload)[:2] != ["seq", "view"]:
        return json_bytes(payload)  # a value plain JSON lacks: the long way
    return f'{{"seq":{int(payload["seq"])},"view":{view},{rest[1:]}'.encode()


def _json_text(value: Any) -> str | None:
    """``value`` as ``json_bytes`` writes it, or None if plain JSON cannot."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return None


def after_param(request: Request) -> int | None:
    """``?after=SEQ`` of ``GET /view``: a whole number (a negative one asks for nothing)."""
    raw = request.query_params.get("after")
    if raw is None or raw == "":
        return None
    try:
        after = int(raw)
    except ValueError:
        message = f"after must be a whole number (a seq), not {raw[:40]!r}"
        raise RuleError("invalid_request", message) from None
    return after if after > 0 else None


def json_response(payload: dict[str, Any]) -> Response:
    """``payload`` as the JSON FastAPI would send for it through the route's response model,
    without the model's validation and copy (the hot path: the payloads are built here and
    already have the model's shape); ``jsonable_encoder`` only for a value plain JSON lacks."""
    return Response(json_bytes(payload), media_type="application/json")


def json_bytes(payload: dict[str, Any]) -> bytes:
    """``json_response``'s body."""
    try:
        content = json.dumps(payload, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError):
        content = json.dumps(jsonable_encoder(payload), ensure_ascii=False, separators=(",", ":"))
    return content.encode()


@router.post("/tables/{table_id}/commands", response_model=CommandOut, responses=ERRORS)
async def post_command(table_id: str, body: CommandIn, request: Request, hub: HubDep) -> Response:
    """Send one command as a seat the bearer token holds. A retried ``command_id`` returns
    the first result and appends nothing."""
    return await command_response(hub, request, table_id, body)


async def command_response(hub: Hub, request: Request, table_id: str, body: CommandIn) -> Response:
    """``POST /commands``'s answer (also served by ``app.api.fastpath``)."""
    session = await hub.session(table_id)
    viewer = await hub.viewer(table_id, request_tokens(request, table_id), required=True)
    if not viewer.holds(body.seat):
        raise AuthError(403, "seat_not_held", f"your token does not hold seat {body.seat}")
    result = await session.submit(
        Command(body.seat, body.type, body.args),
        viewer,
        command_id=body.command_id,
        client_seq=body.seq,
    )
    events = hub.events_payload(session, result.events, viewer)
    for event in events:
        event.setdefault("text", None)  # as the response model has it
    # Gzipped here when worth it: the short way (``app.api.fastpath``) is past the gzip layer.
    return Encoded(json_bytes({"seq": result.seq, "events": events, "replayed": result.replayed})).response(
        request
    )


@router.get("/tables/{table_id}/events", responses=ERRORS)
async def table_events(
    table_id: str, request: Request, hub: HubDep, after: int = 0, limit: int = 1000
) -> dict[str, Any]:
    """The events after ``after`` as this viewer may see them (hidden parts redacted)."""
    session = await hub.session(table_id)
    viewer = await hub.viewer(table_id, request_tokens(request, table_id))
    limit = max(1, min(limit, 5000))
    upto = min(session.seq, max(after, 0) + limit)
    events = await session.events_between(max(after, 0), upto)
    return {"seq": session.seq, "events": hub.events_payload(session, events, viewer)}


@router.get("/tables/{table_id}/export", responses=ERRORS)
async def export_table(table_id: str, request: Request, hub: HubDep) -> dict[str, Any]:
    """The whole log as JSON (game-master token). The secret seed is not included."""
    await require_gm(hub, table_id, request)
    return await hub.export(table_id)


async def require_gm(hub: Hub, table_id: str, request: Request) -> None:
    viewer = await hub.viewer(table_id, request_tokens(request, table_id), required=True)
    if not viewer.is_gm:
        raise AuthError(403, "gm_only", "only the game master's token may do this")
