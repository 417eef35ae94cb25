"""Wire formats: what a viewer is sent about a table (its view, its prompts with each
choice as a ready-to-send command, and the log as that viewer may see it). Pure functions
of a session and a viewer; the JSON API, the websocket and the HTML pages all use them."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from app.kernel import table as kernel
from app.kernel.types import Choice, Prompt, Viewer
from app.live.session import TableSession
from app.store import StoredEvent


def prompts_for(session: TableSession, viewer: Viewer) -> list[Prompt]:
    """The game's prompts for this viewer's seats, and "undo" where it is allowed: made once
    per seq for every page, socket and ``GET /view`` of an equal viewer (never changed)."""
    return session.kept_prompts(("prompts_for", viewer), lambda: _prompts_for(session, viewer))


def _prompts_for(session: TableSession, viewer: Viewer) -> list[Prompt]:
    if session.outcome is not None:
        return []
    prompts = [p for p in session.game_prompts() if viewer.holds(p.seat)]
    for seat in sorted(s for s in viewer.seats if isinstance(s, int)):
        command = session.undoable_command(seat)
        if command:
            context = session.game.log_context(session.state)
            detail = "; ".join(t for e in command if (t := kernel.describe(session.game, e.event, context)))
            prompts.append(
                Prompt(
                    seat,
                    "Take it back?",
                    (Choice(kernel.UNDO, {}, "Undo your last action", detail[:200]),),
                    required=False,
                )
            )
    return prompts


def waiting_for(session: TableSession) -> list[Any]:
    """Whose decision the table waits on (public)."""
    if session.outcome is not None:
        return []
    seen: list[Any] = []
    for p in session.game_prompts():
        if p.required and p.seat not in seen:
            seen.append(p.seat)
    return seen


def waiting_for_any_one(session: TableSession) -> bool:
    """Whether the table waits for any one of several seats, not each (``Prompt.any_one``:
    one question put to them all, the first answer settling it)."""
    required = [p for p in session.game_prompts() if p.required]
    return len({p.seat for p in required}) > 1 and all(p.any_one for p in required)


def view_payload(session: TableSession, viewer: Viewer) -> dict[str, Any]:
    return {
        "seq": session.seq,
        "view": session.view_for(viewer),
        "prompts": [prompt_json(session, p) for p in prompts_for(session, viewer)],
        "waiting_for": waiting_for(session),
        "outcome": session.outcome.to_json() if session.outcome else None,
    }


def seat_state(session: TableSession, viewer: Viewer) -> dict[str, Any]:
    """What a viewer needs to act without asking first (``GET /view``): its prompts, each
    choice a ready-to-send command, whom the table waits on, and the outcome."""
    return {
        "prompts": [prompt_json(session, p) for p in prompts_for(session, viewer)],
        "waiting_for": waiting_for(session),
        "outcome": session.outcome.to_json() if session.outcome else None,
    }


def events_frame(session: TableSession, events: list[StoredEvent], viewer: Viewer) -> dict[str, Any]:
    """A websocket frame of committed events as ``viewer`` may see them. When they bring the
    viewer to the table's newest seq, the frame carries ``seat_state`` too (the seat's next
    prompts pushed, not fetched); a frame that is not the newest leaves it to the next."""
    frame: dict[str, Any] = {
        "type": "events",
        "seq": events[-1].seq,
        "events": events_payload(session, events, viewer),
    }
    if events[-1].seq == session.seq:
        frame |= seat_state(session, viewer)
    return frame


def events_payload(session: TableSession, events: list[StoredEvent], viewer: Viewer) -> list[dict[str, Any]]:
    """The events as ``viewer`` may see them: an event hidden from it keeps its seq, actor
    and time (so the feed has no gaps) and nothing else."""
    out = []
    context = session.game.log_context(session.state)
    for stored in events:
        visible = kernel.event_for_viewer(session.game, stored.event, viewer)
        if visible is None:
            out.append(
                {
                    "seq": stored.seq,
                    "type": "hidden",
                    "v": 1,
                    "data": {},
                    "actor": stored.actor,
                    "at": stored.at.isoformat(),
                }
            )
            continue
        out.append(
            {
                "seq": stored.seq,
                "type": visible.type,
                "v": visible.v,
                "data": visible.data,
                "actor": stored.actor,
                "at": stored.at.isoformat(),
                "text": kernel.describe(session.game, visible, context),
            }
        )
    return out


def prompt_json(session: TableSession, prompt: Prompt) -> dict[str, Any]:
    """A prompt with each choice as a ready-to-send command, made once per seq for every
    viewer, page and request that sends it (``TableSession.derived``; never changed after).

    The ``command_id`` is derived from the table, the seq and the command itself, so
    sending the same choice twice from the same state is one command, not two; the
    table's secret seed goes into it too, so no one can predict another seat's ids."""

    if not session.is_game_prompt(prompt):
        return _prompt_json(session, prompt)  # a prompt made for one request: not kept
    return session.derived(("prompt", id(prompt)), lambda: _prompt_json(session, prompt))  # type: ignore[no-any-return]


def choice_command_id(
    session: TableSession, seq: int, seat: Any, choice_type: str, args: dict[str, Any]
) -> str:
    """The id of a choice sent from the view at ``seq``: derived from the table, that seq and
    the command itself, so the same choice sent twice from the same seq is one command (a
    double click, a retry, a second tab at the same seq), wherever it was made (the JSON
    wire's ready-made commands, or a page's button whose seq the page sends with the click).
    The table's secret seed keeps another seat from guessing (and spending) this id."""
    body = json.dumps([session.record.seed, session.id, seq, seat, choice_type, args], sort_keys=True)
    return f"{seq}-{hashlib.sha256(body.encode()).hexdigest()[:20]}"


def _prompt_json(session: TableSession, prompt: Prompt) -> dict[str, Any]:
    def command(choice_type: str, args: dict[str, Any]) -> dict[str, Any]:
        return {
            "command_id": choice_command_id(session, session.seq, prompt.seat, choice_type, args),
            "seat": prompt.seat,
            "type": choice_type,
            "args": args,
            "seq": session.seq,
        }

    return prompt_shape(
        prompt,
        [{"label": c.label, "detail": c.detail, "command": command(c.type, c.args)} for c in prompt.choices],
    )


def prompt_shape(prompt: Prompt, choices: list[dict[str, Any]]) -> dict[str, Any]:
    """A prompt as the wire and the pages show it, with ``choices`` as each made them (the
    JSON wire's ready-to-send commands, or a page's buttons)."""
    return {
        "seat": prompt.seat,
        "title": prompt.title,
        "required": prompt.required,
        "choices": choices,
        "unavailable": [
            {"type": u.type, "label": u.label, "reason": u.reason, "rule": u.rule} for u in prompt.unavailable
        ],
    }
