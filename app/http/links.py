"""The links of a table: a seat's invite, the game master's, the watch and replay pages."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from app.http.tokens import base_url
from app.live.tables import CreatedTable


def invite_url(request: Request, table_id: str, token: str) -> str:
    return f"{base_url(request)}/t/{table_id}/join/{token}"


def created_links(request: Request, created: CreatedTable) -> dict[str, Any]:
    """A new table's links (the body of ``TableCreated``): shown once, since only hashes of
    the tokens are kept."""
    base = base_url(request)
    tid = created.table_id
    return {
        "table_id": tid,
        "seats": [
            {"seat": seat, "name": name, "token": token, "url": invite_url(request, tid, token)}
            for seat, name, token in created.seat_tokens
        ],
        "gm_token": created.gm_token,
        "gm_url": f"{base}/t/{tid}/gm/join/{created.gm_token}",
        "watch_url": f"{base}/t/{tid}/watch",
        "replay_url": f"{base}/t/{tid}/replay",
    }
