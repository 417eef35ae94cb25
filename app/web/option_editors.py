"""A game's editor of a lobby option (issue 13: Attack the Darkness's deck builder), reached
through two game-neutral routes: nothing here names a game.

- ``POST /lobby/editor`` (the lobby form, plus ``editor_option`` and ``editor_slot``, the
  seat's place in the form): the editor's HTML for that seat, rendered from
  ``templates/games/<game>/option_<option>.html`` with ``Game.option_editor``'s context.
- ``POST /api/games/{game}/options/{option}/check`` (JSON ``{"value", "seat", "seats",
  "options"}``): ``Game.check_option``'s answer, every rule the text breaks; a bad request
  gets a precise JSON error (code and reason) and the server stays the arbiter when the
  table is made.

Only options whose ``OptionSpec.editor`` is set have an editor (``per_seat_text`` ones)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from jinja2 import TemplateNotFound
from markupsafe import escape

from app.kernel.game import Game, validate_options
from app.kernel.options import check_per_seat_text, is_whole
from app.kernel.registry import get_game
from app.kernel.types import OptionSpec, RuleError
from app.web.assets import static_url
from app.web.routes import form_data, options_from_form, seat_names_from_form

router = APIRouter(include_in_schema=False)


def editor_spec(game: Game, name: str) -> OptionSpec:
    """The option ``name`` of ``game`` that has an editor, or a precise refusal."""
    spec = next((s for s in game.options if s.name == name), None)
    if spec is None:
        raise RuleError("unknown_option", f"{game.title} has no option {name!r}", status=404)
    if not spec.editor or spec.kind != "per_seat_text":
        raise RuleError("no_editor", f"option {name} ({spec.label}) has no editor", status=404)
    return spec


@router.post("/lobby/editor", response_class=HTMLResponse)
async def lobby_editor(request: Request) -> HTMLResponse:
    """The editor of one seat's option, drawn in the lobby beside the form (its data and
    script come with it: the page itself runs no inline script)."""
    form = await form_data(request)
    game = get_game((form.get("game") or [""])[-1])
    if game is None:
        raise RuleError("unknown_game", "pick a game from the lobby's list", status=404)
    spec = editor_spec(game, (form.get("editor_option") or [""])[-1])
    slot_text = (form.get("editor_slot") or [""])[-1]
    inputs = list(form.get("seat", []))
    if not slot_text.isdigit() or int(slot_text) >= game.max_seats:
        raise RuleError("bad_seat", f"editor_slot must be a seat from 0 to {game.max_seats - 1}")
    slot = int(slot_text)
    inputs += [""] * (slot + 1 - len(inputs))
    if not inputs[slot].strip():  # the seat edited is about to be named: count it already
        inputs[slot] = f"Seat {slot + 1}"
    form = form | {"seat": inputs}
    names = seat_names_from_form(form)
    seat = sum(1 for name in inputs[:slot] if name.strip())
    names += [f"Seat {i + 1}" for i in range(len(names), game.min_seats)]
    try:
        options = validate_options(game, options_from_form(game, form), len(names))
        context = game.option_editor(spec.name, options, seat, names)
        error = "" if context is not None else f"{game.title} has no editor for {spec.label}"
    except RuleError as err:
        options, context, error = {}, None, err.message
    shared = {k: v for k, v in options.items() if k != spec.name}
    env = request.app.state.templates
    page = {
        "game": game,
        "spec": spec,
        "slot": slot,
        "seat": seat,
        "seats": len(names),
        "editor": context,
        "error": error,
        "check_url": f"/api/games/{game.name}/options/{spec.name}/check",
        "check_base": {"seat": seat, "seats": len(names), "options": shared},
        "static_url": static_url,
    }
    if context is None:
        return HTMLResponse(f'<p class="summary-error" role="alert">{escape(error)}</p>')
    try:
        template = env.get_template(f"games/{game.name}/option_{spec.name}.html")
    except TemplateNotFound as err:
        raise RuleError("no_editor", f"option {spec.name} has no editor page", status=404) from err
    return HTMLResponse(template.render(page))


@router.post("/api/games/{game_name}/options/{option}/check")
async def check_option(request: Request, game_name: str, option: str) -> JSONResponse:
    """Every rule one seat's text of an option breaks, as the game's editor shows it."""
    game = get_game(game_name)
    if game is None:
        raise RuleError("unknown_game", f"there is no game {game_name!r}", status=404)
    spec = editor_spec(game, option)
    try:
        body = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError) as err:
        raise RuleError("bad_request", "the body must be a JSON object") from err
    if not isinstance(body, dict):
        raise RuleError("bad_request", "the body must be a JSON object")
    unknown = sorted(set(body) - {"value", "seat", "seats", "options"})
    if unknown:
        raise RuleError(
            "bad_request", f"unknown field {', '.join(unknown)}: send value, seat, seats and options"
        )
    seat, value, options = body.get("seat", 0), body.get("value"), body.get("options", {})
    if not is_whole(seat) or not 0 <= seat < game.max_seats:
        raise RuleError("bad_seat", f"seat must be a whole number from 0 to {game.max_seats - 1}")
    seats = body.get("seats", max(seat + 1, game.min_seats))
    fewest = max(seat + 1, game.min_seats)
    if not is_whole(seats) or not fewest <= seats <= game.max_seats:
        raise RuleError("bad_seat", f"seats must be a whole number from {fewest} to {game.max_seats}")
    if not isinstance(value, str):
        raise RuleError("bad_option", f"value must be the text of option {option}")
    (text,) = check_per_seat_text(spec, [value], None)
    if not isinstance(options, dict):
        raise RuleError("bad_option", "options must be a JSON object of the table's other options")
    if option in options:
        raise RuleError("bad_option", f"options must not hold {option}: send its text as value")
    valid = validate_options(game, options, seats)
    answer: dict[str, Any] = game.check_option(option, text or "", valid, seat, seats)
    return JSONResponse({"option": option, "seat": seat, **answer})
