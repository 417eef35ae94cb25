"""Your tables (``/tables``): every table this browser holds a seat or the game-master
link for, so a group that closed the tab after chapter 2 finds its campaign next week
without the invite mail.

The page is a shell; ``static/tables.js`` sends the table ids this browser remembered
(``localStorage``) to ``POST /tables/rows`` and shows the rows it gets back. The rows are
``app.http.mine``'s answer (the one ``app.api.mine`` serves) rendered here, so the JSON
API and the page never disagree.
"""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import ValidationError

from app.http.errors import describe_validation
from app.http.mine import MAX_LINKS, MineIn, my_tables
from app.web.templating import render_block

router = APIRouter(include_in_schema=False)


def ago(when: datetime | None, now: datetime | None = None) -> str:
    """A time as people say it: "just now", "5 minutes ago", "3 days ago"."""
    if when is None:
        return "no move yet"
    now = now or datetime.now(UTC)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    seconds = max(0, int((now - when).total_seconds()))
    for size, unit in ((86400 * 7, "week"), (86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = seconds // size
            return f"{count} {unit}{'' if count == 1 else 's'} ago"
    return "just now"


@router.get("/tables", response_class=HTMLResponse)
async def your_tables(request: Request) -> HTMLResponse:
    template = request.app.state.templates.get_template("tables.html")
    return HTMLResponse(template.render(request=request, max_links=MAX_LINKS))


@router.post("/tables/rows", response_class=HTMLResponse)
async def rows(request: Request) -> HTMLResponse:
    """The rows of "your tables" for the JSON body ``{"links": [{"table_id"}, …]}``."""
    template = request.app.state.templates.get_template("tables.html")
    try:
        body = MineIn.model_validate_json(await request.body())
    except ValidationError as exc:
        error = "This browser's list of tables could not be read: " + describe_validation(exc.errors())
        return HTMLResponse(render_block(template, "rows", {"error": error, "tables": []}), status_code=422)
    tables = await my_tables(request.app.state.hub, request, body.links)
    now = datetime.now(UTC)
    for entry in tables:
        entry["last_move"] = ago(entry.get("last_move_at"), now)
    # Yours to move first, then running tables by their last move, then finished ones.
    tables.sort(key=lambda t: t.get("last_move_at") or datetime.min.replace(tzinfo=UTC), reverse=True)
    tables.sort(key=lambda t: (t["status"] != "ok", not t.get("your_move"), bool(t.get("outcome"))))
    return HTMLResponse(render_block(template, "rows", {"tables": tables, "error": ""}))
