"""Making tables and taking them out: a new table from the lobby or the API, a new table
from a signed export (checked whole, see ``app.live.exports``), and a table's export."""

from __future__ import annotations

import asyncio
import pickle
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.config import Settings
from app.kernel.game import Game
from app.kernel.registry import get_game
from app.kernel.rng import new_seed, rng_for
from app.kernel.text import check_text
from app.kernel.types import RuleError, SeatInfo
from app.live import exports, inputs
from app.live.auth import new_table_id, new_token, token_hash
from app.live.session import check_events, snapshot_key
from app.live.sessions import SessionCache
from app.store import EventStore, SeatRecord, StoredEvent, TableRecord


@dataclass(frozen=True, slots=True)
class CreatedTable:
    table_id: str
    seat_tokens: list[tuple[int, str, str]]
    """(seat, name, invite token) per seat."""
    gm_token: str


class TableMaker:
    def __init__(self, settings: Settings, store: EventStore, cache: SessionCache) -> None:
        self.settings = settings
        self.store = store
        self.cache = cache
        self._signing_key: str | None = None

    async def create_table(
        self,
        game_name: str,
        options: dict[str, Any] | None,
        seat_names: list[str],
        *,
        seed: str | None = None,
        name: str = "",
    ) -> CreatedTable:
        game = get_game(game_name)
        if game is None:
            raise RuleError("unknown_game", f"there is no game {game_name!r}")
        if seed is not None and not self.settings.test_mode:
            raise RuleError("seed_not_allowed", "a seed is accepted only in test mode")
        if seed is not None:
            check_text(seed, "the seed")
        names = inputs.check_seat_names(game, seat_names)
        options = inputs.check_options(game, options, len(names))
        seed = seed or new_seed()
        opening = game.setup(options, [SeatInfo(i, n) for i, n in enumerate(names)], rng_for(seed, 1))
        check_events(game, opening)
        at = datetime.now(UTC)
        stored = [StoredEvent(i + 1, e, "system", None, at) for i, e in enumerate(opening)]
        return await self._insert(game, inputs.check_table_name(name), options, seed, names, stored)

    async def _insert(
        self,
        game: Game,
        name: str,
        options: dict[str, Any],
        seed: str,
        names: list[str],
        stored: list[StoredEvent],
        snapshot: bytes | None = None,
    ) -> CreatedTable:
        """Store the table, then load it (from ``snapshot``, the pickled state after the
        last of ``stored``, when the caller has it: an import's log is replayed once)."""
        table_id, gm_token = new_table_id(), new_token()
        tokens = [new_token() for _ in names]
        record = TableRecord(
            id=table_id,
            game=game.name,
            name=name,
            options=options,
            seed=seed,
            gm_token_hash=token_hash(gm_token),
            engine_version=game.engine_version,
            status="running",
            outcome=None,
            created_at=datetime.now(UTC),
        )
        seat_rows = [
            SeatRecord(i, n, token_hash(t), None) for i, (n, t) in enumerate(zip(names, tokens, strict=True))
        ]
        await self.store.create_table(record, seat_rows, stored)
        if snapshot is not None and stored:
            await self.store.save_snapshot(table_id, stored[-1].seq, snapshot_key(game), snapshot)
        session = await self.cache.session(table_id)
        if session.outcome is not None:
            await self.store.set_status(table_id, "finished", session.outcome.to_json())
        return CreatedTable(
            table_id, [(i, n, t) for i, (n, t) in enumerate(zip(names, tokens, strict=True))], gm_token
        )

    async def export(self, table_id: str) -> dict[str, Any]:
        """The whole log, signed with this server's key (never the secret seed)."""
        session = await self.cache.session(table_id)
        events = await self.store.events_after(table_id, 0)
        key = await self.signing_key()
        # Signing and shaping a long log (up to 50,000 events) off the event loop.
        game, record, seats, outcome = session.game, session.record, list(session.seats), session.outcome
        return await asyncio.to_thread(exports.export_doc, game, record, seats, outcome, events, key)

    async def import_log(self, data: Any) -> CreatedTable:
        """A new table from a signed export, checked whole (see ``app.live.exports``); the
        checks and the replay run in a worker thread so no table freezes meanwhile, and the
        replayed state is the new table's first snapshot, so loading it replays nothing."""
        key = await self.signing_key()
        checked = await asyncio.to_thread(
            exports.check_import, data, key, max_events=self.settings.max_import_events
        )
        snapshot = await asyncio.to_thread(pickle.dumps, checked.state, pickle.HIGHEST_PROTOCOL)
        return await self._insert(
            checked.game,
            checked.name,
            checked.options,
            new_seed(),
            checked.seat_names,
            checked.events,
            snapshot,
        )

    async def signing_key(self) -> str:
        """``UMBRA_SECRET_KEY``, else the key generated once and kept in the database."""
        if self._signing_key is None:
            self._signing_key = self.settings.secret_key or await self.store.platform_setting(
                exports.SIGNING_KEY_SETTING, lambda: secrets.token_urlsafe(32)
            )
        return self._signing_key
