"""The rules reference on the web (issue 28): a page per game at ``/games/<game>/rules``,
organised like its rulebook, every entry anchored by its citation, with the index of
terms; and the side panel's fragment, ``/games/<game>/rules/entry?ref=DN 14.3.2``, which a
table page opens without leaving or reloading the table (``static/umbra.js`` turns every
citation on the page into a link to it). Game-neutral: the entries are the game's data
(``Game.rules_reference``); JSON at ``/api/games/<game>/rules``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse

from app.kernel.game import Game
from app.kernel.reference import RulesReference
from app.kernel.registry import get_game
from app.web.routes import message_page, page
from app.web.templating import render_block

router = APIRouter(include_in_schema=False)
api = APIRouter(tags=["games"])

MAX_REF = 40
"""A citation is a few characters; a longer ``ref`` is refused before any lookup."""


def _reference(name: str) -> tuple[Game, RulesReference] | None:
    game = get_game(name)
    reference = game.rules_reference() if game is not None else None
    return (game, reference) if game is not None and reference is not None else None


@router.get("/games/{name}/rules", response_class=HTMLResponse)
async def rules_page(request: Request, name: str) -> HTMLResponse:
    found = _reference(name)
    if found is None:
        return message_page(request, 404, "No such rules", f"There is no rules reference for {name!r} here.")
    game, reference = found
    return page(request, "rules.html", game=game, reference=reference)


@router.get("/games/{name}/rules/go", response_model=None)
async def rules_go(request: Request, name: str, ref: str = "") -> RedirectResponse | HTMLResponse:
    """A citation's link without script: to its entry on the rules page."""
    found = _reference(name)
    entry = found[1].resolve(ref) if found is not None and len(ref) <= MAX_REF else None
    if found is None or entry is None:
        return message_page(
            request, 404, "No such rule", f"No entry of the rules reference covers {ref[:MAX_REF]!r}."
        )
    return RedirectResponse(f"/games/{name}/rules#{entry.anchor}", status_code=303)


@router.get("/games/{name}/rules/entry", response_class=HTMLResponse)
async def rules_entry(request: Request, name: str, ref: str = "") -> HTMLResponse:
    """The side panel's body: the entry covering ``ref`` (or, without one, the chapters'
    list), with a link to its place on the rules page."""
    found = _reference(name)
    template = request.app.state.templates.get_template("rules.html")
    if found is None:
        ctx: dict[str, Any] = {"missing": f"There is no rules reference for {name[:40]!r} here."}
        return HTMLResponse(render_block(template, "panel", ctx), status_code=404)
    game, reference = found
    entry = reference.resolve(ref) if ref and len(ref) <= MAX_REF else None
    if ref and entry is None:
        ctx = {"game": game, "reference": reference, "missing": f"No entry covers {ref[:MAX_REF]!r}."}
        return HTMLResponse(render_block(template, "panel", ctx), status_code=404)
    ctx = {"game": game, "reference": reference, "entry": entry, "cited": ref}
    return HTMLResponse(render_block(template, "panel", ctx))


@api.get("/api/games/{name}/rules")
async def rules_json(name: str) -> Any:
    """The game's rules reference as JSON: chapters of entries, terms and first-game guides."""
    found = _reference(name)
    if found is None:
        return JSONResponse(
            {"error": {"code": "no_rules", "message": f"there is no rules reference for {name[:40]!r}"}},
            status_code=404,
        )
    return found[1].to_json()
