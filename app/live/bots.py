"""Seats played by the game's bot (issue: "a seat nobody has joined can be handed to the
heuristic bot"). Game-agnostic: the game picks with ``bot_choice(state, prompt, rng)``;
this module only decides when to ask and sends the pick through the normal command path.

One background task per session that has a bot seat. It acts as one more subscriber:
whenever the table changes (a commit, or a seat changing hands) it plays every required
prompt that belongs to a bot seat, one command at a time with a pause between moves so
people can follow them (the table's pace: the newest ``table.bot_pace`` event its game
master logged, else the configured default), until the table waits on a person again.

How a bot plays is the table's strength (the newest ``table.bot_strength`` event, else the
configured default): ``strong`` searches (``app.kernel.search``: determinized rollouts,
each decision capped at the game's budget, well under a second), ``quick`` answers by the
game's heuristic. Either way it decides on a world redrawn for its seat
(``Game.determinize``), never on what its seat may not see. The thinking runs in a thread
of its own, so the event loop keeps serving every other table meanwhile. A bot command's id is
``bot-<seq>-<seat>``, derived from the state it was chosen on, and the bot's own randomness
comes from the table's seed and that seq: when several processes serve a table each may
drive its bots, and the second to send a move gets ``replayed`` instead of a second move.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
from collections.abc import Reversible
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from app.kernel.game import Game, has_bot, has_search
from app.kernel.history import BOT_PACE_EVENT, BOT_STRENGTH_EVENT
from app.kernel.search import quick_choice, search_choice
from app.kernel.types import Choice, Command, Prompt, RuleError, Viewer
from app.store import StoredEvent, is_outage

if TYPE_CHECKING:
    from app.live.session import TableSession
    from app.live.sessions import SessionCache

log = logging.getLogger(__name__)

MAX_MOVES_PER_TRIGGER = 500
"""A runaway guard: after this many bot moves in a row the bots wait for a person (a
command, a chat line, or a seat handed over) before they go on."""
RESUME_LIMIT = 1000
"""At most this many tables with bot seats are resumed when a server starts."""


def bot_rng(seed: str, seq: int, seat: int) -> random.Random:
    """The bot's randomness for its move at ``seq``: the same on every process and replay,
    and unrelated to the rng that decides the game's dice and cards."""
    digest = hashlib.sha256(f"{seed}:bot:{seq}:{seat}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def latest_setting(events: Reversible[StoredEvent], event_type: str, key: str) -> Any:
    """The value the newest ``event_type`` event among ``events`` (oldest first) set."""
    for stored in reversed(events):
        if stored.event.type == event_type:
            return stored.event.data[key]
    return None


def bot_seats(session: TableSession) -> set[int]:
    return {s.seat for s in session.seats if s.bot}


def bot_question(session: TableSession) -> tuple[Prompt, random.Random] | None:
    """The first required prompt of a bot seat that the game's bot will play (it may wait
    on purpose: a player who joined another's attack waits for its launch), with the rng of
    the bot's move."""
    if session.outcome is not None:
        return None
    seats = bot_seats(session)
    if not seats:
        return None
    for prompt in session.game_prompts():
        if not prompt.required or prompt.seat not in seats or not isinstance(prompt.seat, int):
            continue
        rng = bot_rng(session.record.seed, session.seq, prompt.seat)
        if willing(session.game, session.state, prompt):
            return prompt, rng
    return None


def willing(game: Game, state: Any, prompt: Prompt) -> bool:
    """Will the bot answer ``prompt`` now (asked on the seat's redrawn world)?"""
    rng = random.Random(0)
    world = game.determinize(state, prompt.seat, rng) if has_search(game) else state
    return game.bot_choice(world, prompt, rng) is not None


def think(game: Game, state: Any, prompt: Prompt, rng: random.Random, strength: str) -> Choice:
    """The bot's answer (run in the bots' thread: ``state`` is never changed)."""
    if not has_search(game):
        choice = game.bot_choice(state, prompt, rng)
        return choice if choice is not None else prompt.choices[0]
    if strength == "quick":
        return quick_choice(game, state, prompt, rng)
    return search_choice(game, state, prompt, rng)


class BotDriver:
    """The per-process bot tasks, one per session with a bot seat."""

    def __init__(self, cache: SessionCache, *, delay: float, strength: str = "strong") -> None:
        self.cache = cache
        self.delay = delay
        """The pace of a table whose game master chose none (``Settings.bot_delay``)."""
        self.default_strength = strength
        """How the bots of a table whose game master chose nothing play (``Settings.bot_strength``)."""
        self.older: dict[tuple[str, str], tuple[int, Any]] = {}
        """Per table and setting: the newest value set at or before a seq the session no
        longer keeps in memory (read once from the store; the log before it never changes)."""
        self.thinker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot-thinks")
        """One thread per process thinks for every table's bots, one decision at a time (a
        decision is capped well under a second; the event loop never waits on it)."""
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.waiting: set[str] = set()
        """Tables whose bot task waits for a person (nothing for a bot to play)."""
        self._resume: asyncio.Task[None] | None = None
        self._closed = False

    async def start(self) -> None:
        """Resume the bots of running tables (a restarted server picks up where it was):
        list them now, load them in the background."""
        try:
            ids = await self.cache.store.bot_tables(RESUME_LIMIT)
        except Exception:
            log.exception("could not list the tables with bot seats")
            return
        if ids:
            self._resume = asyncio.create_task(self._resume_all(ids), name="bots-resume")

    async def stop(self) -> None:
        self._closed = True
        tasks = [t for t in (self._resume, *self.tasks.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks.clear()
        self.thinker.shutdown(wait=False, cancel_futures=True)

    async def _resume_all(self, ids: list[str]) -> None:
        for table_id in ids:
            try:
                self.watch(await self.cache.session(table_id))
            except Exception:
                log.exception("could not resume the bots of table %s", table_id)

    def watch(self, session: TableSession) -> None:
        """Start the session's bot task if it has a bot seat and none is running. A task
        already running notices new bot seats by itself (the seat epoch changes)."""
        if self._closed or session.outcome is not None or not bot_seats(session):
            return
        if self.cache.sessions.get(session.id) is not session:
            return  # the table left memory (a late catch-up still held it): loading it watches anew
        if not has_bot(session.game):
            return
        task = self.tasks.get(session.id)
        if task is not None and not task.done():
            return
        self.tasks[session.id] = asyncio.create_task(self._drive(session), name=f"bots-{session.id}")

    async def pace(self, session: TableSession) -> float:
        """Seconds between this table's bot moves: its newest ``table.bot_pace`` event (in
        memory, else in the part of the log the session no longer keeps), else the default."""
        found = await self._setting(session, BOT_PACE_EVENT, "seconds")
        return self.delay if found is None else float(found)

    async def strength(self, session: TableSession) -> str:
        """How this table's bots play: its newest ``table.bot_strength`` event, else the
        default."""
        found = await self._setting(session, BOT_STRENGTH_EVENT, "strength")
        return self.default_strength if found is None else str(found)

    async def _setting(self, session: TableSession, event_type: str, key: str) -> Any:
        recent = session.recent
        found = latest_setting(recent, event_type, key)
        if found is not None:
            return found
        first = recent[0].seq if recent else session.seq + 1
        if first <= 1:
            return None
        seen, older = self.older.get((session.id, event_type), (0, None))
        if seen < first - 1:
            earlier = await session.store.events_after(session.id, seen, upto=first - 1)
            between = latest_setting(earlier, event_type, key)
            older = older if between is None else between
            self.older[(session.id, event_type)] = (first - 1, older)
        return older

    def is_playing(self, table_id: str) -> bool:
        """Is a bot of this table about to move (not merely waiting on a person)?"""
        task = self.tasks.get(table_id)
        return task is not None and not task.done() and table_id not in self.waiting

    def forget(self, table_id: str) -> None:
        """The table leaves memory: stop its bot task (loading the table starts it again)."""
        task = self.tasks.pop(table_id, None)
        self.waiting.discard(table_id)
        for key in [k for k in self.older if k[0] == table_id]:
            del self.older[key]
        if task is not None:
            task.cancel()

    async def _drive(self, session: TableSession) -> None:
        try:
            failures = 0
            while session.outcome is None and bot_seats(session):
                epoch = session.seat_epoch
                seen, failed = await self.play(session)
                if failed:
                    # The database was away (say): try again soon, backing off, rather than
                    # wait for a commit that may never come.
                    failures += 1
                    await asyncio.sleep(min(10.0, 0.25 * 2 ** min(failures, 6)))
                    continue
                failures = 0
                # Wake on the next commit or seat change (at once if one came meanwhile).
                self.waiting.add(session.id)
                try:
                    await session.wait_beyond(seen, epoch)
                finally:
                    self.waiting.discard(session.id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bots of table %s stopped", session.id)
        finally:
            if self.tasks.get(session.id) is asyncio.current_task():
                del self.tasks[session.id]
                self.waiting.discard(session.id)

    async def _think(self, session: TableSession) -> tuple[int, Choice] | None:
        """The bot's next move, thought out in the bots' thread on the state as it is now."""
        question = bot_question(session)
        if question is None:
            return None
        prompt, rng = question
        strength = await self.strength(session)
        loop = asyncio.get_running_loop()
        choice = await loop.run_in_executor(
            self.thinker, think, session.game, session.state, prompt, rng, strength
        )
        return prompt.seat, choice

    async def play(self, session: TableSession) -> tuple[int, bool]:
        """Play bot moves until the table waits on no bot seat (or the guard trips).
        Returns the last seq looked at, and whether a move failed for want of a database."""
        for _ in range(MAX_MOVES_PER_TRIGGER):
            seq = session.seq
            try:
                move = await self._think(session)
            except Exception:
                log.exception("the bot of table %s could not choose at seq %s", session.id, seq)
                return seq, False
            if move is None:
                return seq, False
            if session.seq != seq:
                continue  # the table moved while the bot thought: look again
            await asyncio.sleep(await self.pace(session))  # let people follow each move; let others in
            if session.seq != seq:
                continue  # the table moved meanwhile: look again
            seat, choice = move
            if seat not in bot_seats(session):
                continue
            try:
                result = await session.submit(
                    Command(seat, choice.type, choice.args),
                    Viewer("seat", frozenset({seat})),
                    command_id=f"bot-{seq}-{seat}",
                    client_seq=seq,
                )
                if result.replayed and session.seq < result.seq:
                    await session.catch_up(result.seq)  # another process made this move first
            except RuleError as err:
                if session.seq != seq:
                    continue  # someone else moved first: choose again on the new state
                log.warning(
                    "the bot of table %s seat %s was refused at seq %s: %s", session.id, seat, seq, err
                )
                return seq, False
            except Exception as exc:
                if is_outage(exc):
                    log.warning("the bot of table %s waits for the database: %s", session.id, exc)
                else:
                    log.exception("the bot of table %s seat %s failed at seq %s", session.id, seat, seq)
                return seq, True
        log.info("the bots of table %s paused after %s moves", session.id, MAX_MOVES_PER_TRIGGER)
        return session.seq, False
