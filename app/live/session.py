"""One in-memory session per active table per process (DESIGN.md, "Live").

Command path: authorise → decide → append (commit) → evolve → publish. Nothing is
published before it is committed. Subscribers never get a queue of their own: each waits
for the session's seq to pass the last seq it sent, then reads what it missed, so every
event reaches every subscriber exactly once and in order, however slow it is.
"""

from __future__ import annotations

import asyncio
import logging
import pickle
import random
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from app.kernel import event_schema, history, offers
from app.kernel import table as kernel
from app.kernel.game import Game
from app.kernel.rng import rng_for
from app.kernel.schema import state_schema_hash
from app.kernel.types import Command, Event, Outcome, Prompt, RuleError, Viewer
from app.store import CommandSpent, EventStore, SeatRecord, SeqConflict, StoredEvent, TableRecord

log = logging.getLogger(__name__)

RECENT_EVENTS = 2000
MAX_ATTEMPTS = 40
REPLAY_ON_LOOP = 200
"""Replays of more events than this leave the event loop (see ``rebuild``)."""
UNDO_FACTS_KEPT = 256
"""Commands whose undo facts a table keeps: more than the undo walks of one seq pass."""
OFFERS_KEPT = 32
"""Seqs whose offered choices a table keeps, to tell a race lost to another commit since
the sender's view (409 ``taken``) from a command that was never legal (422)."""
RACE_LINES = 3
"""Log lines of what changed that a lost race's refusal quotes."""


@dataclass(frozen=True, slots=True)
class CommandResult:
    seq: int
    events: list[StoredEvent]
    replayed: bool = False
    """True when this command_id had already committed: nothing new was appended."""


def actor_label(viewer: Viewer, command: Command) -> str:
    return "gm" if viewer.is_gm and command.seat == kernel.GM_SEAT else f"seat:{command.seat}"


def snapshot_key(game: Game) -> str:
    """What a snapshot of ``game`` is saved and looked up under: its engine version and the
    hash of its state's schema (DESIGN.md, "Saves outlive releases"). A snapshot under any
    other key is never read, so a state class that gained, lost or retyped a field is never
    unpickled into (the log is replayed instead), even if nobody bumped the engine version."""
    return f"{game.engine_version}:{state_schema_hash(game.initial_state())}"


async def rebuild(
    store: EventStore, game: Game, table_id: str, *, upto: int | None = None
) -> tuple[Any, int, list[StoredEvent]]:
    """A table's state as of ``upto`` (default: its newest event), its seq, and the events
    read after the snapshot it started from: the newest snapshot at or before ``upto``,
    unless an undo after the snapshot took back events inside it (then from the start)."""
    state, seq = None, 0
    snap = await store.latest_snapshot(table_id, snapshot_key(game), upto=upto)
    if snap is not None:
        try:
            seq, state = snap[0], pickle.loads(snap[1])
        except Exception:  # an unreadable snapshot is only a cache: replay instead
            log.warning("snapshot of %s at %s unreadable; replaying", table_id, snap[0])
            state, seq = None, 0
    events = await store.events_after(table_id, seq, upto=upto)
    if state is not None and any(reaches_before(e, seq) for e in events):
        state, seq = None, 0
        events = await store.events_after(table_id, 0, upto=upto)
    replayed = [(e.seq, e.event) for e in events]
    if len(replayed) > REPLAY_ON_LOOP:
        # A long replay (no usable snapshot: a new engine version, an undo far back) runs
        # in a worker thread, so the event loop (every other table) keeps its turns.
        state = await asyncio.to_thread(kernel.replay_log, game, replayed, state)
    else:
        state = kernel.replay_log(game, replayed, state)
    if events:
        seq = events[-1].seq
    return state, seq, events


def reaches_before(stored: StoredEvent, seq: int) -> bool:
    """Is ``stored`` an undo that takes back an event at or before ``seq``?"""
    if stored.event.type != kernel.UNDO_EVENT:
        return False
    span = history.undo_span(stored.seq, stored.event)
    return span is not None and span[0] <= seq


class _Checked(Exception):  # noqa: N818  (a wrapper, not an error of its own)
    """A refusal already checked against the store (``TableSession._submit``): ``submit``
    raises its ``error`` without asking the store again."""

    def __init__(self, error: RuleError) -> None:
        super().__init__(error.message)
        self.error = error


class TableSession:
    def __init__(
        self,
        store: EventStore,
        game: Game,
        record: TableRecord,
        seats: Sequence[SeatRecord],
        state: Any,
        seq: int,
        *,
        snapshot_every: int,
    ) -> None:
        self.store = store
        self.game = game
        self.record = record
        self.seats = list(seats)
        self.state = state
        self.seq = seq
        self.snapshot_every = snapshot_every
        self.outcome: Outcome | None = game.outcome(state)
        self.recent: deque[StoredEvent] = deque(maxlen=RECENT_EVENTS)
        self.lock = asyncio.Lock()
        self._seat_reads = asyncio.Lock()
        self._changed = asyncio.Event()
        self.wakeups: set[asyncio.Future[None]] = set()
        """Futures resolved (and forgotten) at the next publish: a live socket's wait, with
        no task of its own per commit (``app.api.ws``)."""
        self._prompts: list[Prompt] = []
        self._prompts_seq = -1
        self._prompt_ids: set[int] = set()
        self._offers: dict[int, tuple[offers.Offer, ...]] = {}
        """What the last ``OFFERS_KEPT`` seqs offered, when their prompts were made
        (``lost_race``)."""
        self._derived: dict[Any, Any] = {}
        self._derived_of: tuple[int, Any] = (-1, None)
        self._undo_facts: dict[tuple[int, int, int], history.UndoFacts] = {}
        """Per command in memory (first seq, last seq, events): what the undo rule needs to
        know of it (``_standing_commands``)."""
        self.seat_epoch = 0
        """Bumped when a seat changes hands, so live connections re-check their seats."""
        self.viewers: dict[tuple[Any, ...], Viewer] = {}
        """Who a request's tokens make it, until a seat changes hands (``SeatKeeper.viewer``):
        each of a seat's requests hashed its token and searched the seats again."""
        self.subscribers = 0
        """Live connections on this table (a watched table never leaves memory)."""
        self.last_used = time.monotonic()
        """When a request last asked for this table (idle tables leave memory)."""

    @property
    def id(self) -> str:
        return self.record.id

    @classmethod
    async def load(
        cls, store: EventStore, game: Game, record: TableRecord, *, snapshot_every: int
    ) -> TableSession:
        """Rebuild a table from its newest usable snapshot and the events after it."""
        state, seq, events = await rebuild(store, game, record.id)
        session = cls(
            store,
            game,
            record,
            await store.seats(record.id),
            state,
            seq,
            snapshot_every=snapshot_every,
        )
        session.recent.extend(events[-RECENT_EVENTS:])
        return session

    async def state_at(self, seq: int) -> Any:
        """The state as of ``seq``, folded exactly as the live table folds its log (undo
        included): the replay page's frames."""
        if seq >= self.seq:
            return self.state
        state, _, _ = await rebuild(self.store, self.game, self.id, upto=seq)
        return state

    # -- commands ---------------------------------------------------------------------

    async def submit(
        self,
        command: Command,
        actor: Viewer,
        *,
        command_id: str,
        client_seq: int | None = None,
    ) -> CommandResult:
        """Decide, commit and publish one command; a retried ``command_id`` is answered
        with its first result and appends nothing.

        The store is the arbiter of command ids, with no look-up before the append: the
        append spends the id in its own transaction (``CommandSpent`` if it was spent), and
        a command the rules refuse is checked against the store only then (a retry of a
        command that committed may no longer fit the state it moved on)."""
        try:
            return await self._submit(command, actor, command_id=command_id, client_seq=client_seq)
        except _Checked as checked:
            raise checked.error from checked.error.__cause__
        except RuleError:
            async with self.lock:
                done = await self.store.command_result(self.id, command_id)
                if done:
                    return await self._spent(done, actor, command)
            raise

    async def _submit(
        self, command: Command, actor: Viewer, *, command_id: str, client_seq: int | None
    ) -> CommandResult:
        async with self.lock:
            if client_seq is not None and client_seq > self.seq:
                # Chosen from a view this process has not caught up with (another process
                # served it): read what it missed before deciding, never decide on stale state.
                await self._catch_up_locked()
            for attempt in range(MAX_ATTEMPTS):
                try:
                    events = self._decide(command, actor)
                except RuleError as err:
                    if err.status != 422:
                        raise
                    # One round trip for both questions a refusal asks of the store: did
                    # another process move the table on, did this command id commit already?
                    newer, done = await self.store.refusal_check(self.id, self.seq, command_id)
                    if newer:
                        await self._apply(newer)
                    if done:
                        return self._replayed(done, actor, command)
                    if newer:
                        continue  # refused on a state another process had moved past: again
                    if client_seq is not None and client_seq < self.seq:
                        err = self.lost_race(command, actor, client_seq, err)
                    raise _Checked(err) from None
                if not events:
                    raise RuleError("no_effect", "that command changes nothing")
                check_events(self.game, events)
                try:
                    stored = await self.store.append(
                        self.id,
                        self.seq,
                        events,
                        actor=actor_label(actor, command),
                        command_id=command_id,
                    )
                except CommandSpent as spent:
                    return await self._spent(spent.events, actor, command)
                except SeqConflict:
                    # Another process committed first: catch up and decide again, after a
                    # short random pause so that two processes stop colliding in step.
                    await asyncio.sleep(random.uniform(0, 0.002 * (attempt + 1)))
                    await self._catch_up_locked()
                    continue
                await self._apply(stored)
                return CommandResult(stored[-1].seq, stored)
        raise RuleError("busy", "the table is busy; try again", status=409)

    async def _spent(self, done: list[StoredEvent], actor: Viewer, command: Command) -> CommandResult:
        """The answer to a command id the store says was already spent: its first result
        (after reading it into memory, if this process had not caught up with it yet)."""
        result = self._replayed(done, actor, command)
        if done[-1].seq > self.seq:
            await self._catch_up_locked()
        return result

    def _replayed(self, done: list[StoredEvent], actor: Viewer, command: Command) -> CommandResult:
        """A retried command's first result, if the same seat sent it; a command id that
        another seat already spent is refused (it must not pass for theirs)."""
        if done[0].actor != actor_label(actor, command):
            raise RuleError(
                "command_id_taken",
                "that command_id was already used by another seat at this table; send a fresh one",
                status=409,
            )
        return CommandResult(done[-1].seq, done, replayed=True)

    def _decide(self, command: Command, actor: Viewer) -> list[Event]:
        if command.type == kernel.UNDO:
            return [self._undo(command, actor)]
        rng = rng_for(self.record.seed, self.seq + 1)
        return kernel.decide(self.game, self.state, command, actor, rng, self.game_prompts())

    def lost_race(self, command: Command, actor: Viewer, client_seq: int, err: RuleError) -> RuleError:
        """``err``, a 422 refusal of ``command`` chosen from the view at ``client_seq``, as the
        sender should hear it now that the table is past that seq (DO facts §21, races):

        - offered at ``client_seq``: another commit came first, a 409 ``taken`` naming what
          changed (the log lines since, as the sender sees them); nothing was spent;
        - not offered then either: never legal, ``err`` itself (the rule);
        - that seq's choices unknown here (too old, or served by another process): a 409
          ``stale``, since the table moved on, with the rule."""
        then = self._offers.get(client_seq)
        if then is not None and not offers.among(then, command):
            return err
        if then is None:
            stale = RuleError(
                "stale",
                f"the table has moved on (you saw seq {client_seq}, it is now at "
                f"{self.seq}) and this command no longer fits: {err.message}",
                status=409,
            )
        else:
            # No seq numbers: pages show this message as it is (no event numbers for players).
            rule = "" if err.code in offers.NOT_OFFERED_CODES else f" ({err.message})"
            stale = RuleError(
                "taken",
                f"the table has moved on since your view: {self._changes_since(client_seq, actor)}. "
                f"So {command.type} was not done{rule}; nothing was spent",
                status=409,
            )
        stale.__cause__ = err  # the rule that refused it (pages show that)
        return stale

    def _changes_since(self, seq: int, viewer: Viewer) -> str:
        """The newest log lines after ``seq`` that ``viewer`` may read, from memory."""
        lines: list[str] = []
        context = self.game.log_context(self.state)
        for stored in reversed(self.recent):
            if stored.seq <= seq or len(lines) >= RACE_LINES:
                break
            visible = kernel.event_for_viewer(self.game, stored.event, viewer)
            text = kernel.describe(self.game, visible, context) if visible is not None else ""
            if text and visible is not None and not kernel.is_platform_event(visible):
                lines.append(text.rstrip("."))
        return "; ".join(reversed(lines)) or "moves hidden from you"

    # -- undo -------------------------------------------------------------------------

    def undoable_command(self, seat: Any) -> list[StoredEvent] | None:
        """The events of ``seat``'s newest command still standing, if it may take it back
        now (``undo_check``): once per seq for every viewer's prompts."""
        return self.derived(("undoable", seat), lambda: self.undo_check(seat)[0])  # type: ignore[no-any-return]

    def undo_check(self, seat: Any) -> tuple[list[StoredEvent] | None, str]:
        """``seat``'s newest command still standing and "" if it may take it back, else
        None and why not: the rule of ``history.undo_refusal`` (the one an import is
        checked by), over the commands of other seats that came after it.

        Walks back from the newest event over at most ``history.UNDO_REACH`` commands: an
        undo comes after the events it takes back, so those are known by the time the walk
        reaches them. The walk is shared by every seat checked at this seq (each prompt
        panel asks for its seats' undo): it goes back only as far as the seat asking furthest."""
        own = f"seat:{seat}"
        later: list[history.UndoFacts] = []
        walk = self.derived("standing_commands", lambda: _Walked(self._standing_commands()))
        for command, whole, facts in walk:
            if command[0].actor != own or command[0].command_id is None:
                later.append(facts)
                if len(later) > history.UNDO_REACH:
                    return None, f"more than {history.UNDO_REACH} actions of other players came after yours"
                continue
            if not whole:
                return None, "your last action is too old to take back"
            refusal = history.undo_refusal(facts, later)
            return (None, refusal) if refusal else (command, "")
        return None, "you have no action left to take back"

    def _standing_commands(self) -> Iterator[tuple[list[StoredEvent], bool, history.UndoFacts]]:
        """The game commands in memory that no undo took back, newest first, each with whether
        all of it is in memory (its start may have fallen out of the window) and what the undo
        rule needs to know of it (``history.undo_facts``, by its own actor)."""
        undone: set[int] = set()
        oldest = self.recent[0].seq if self.recent else 1
        command: list[StoredEvent] = []

        def standing(whole: bool) -> tuple[list[StoredEvent], bool, history.UndoFacts]:
            # A command's events never change once committed: its facts are told once, not at
            # every seq the walk passes it (each seq walks back over the same commands).
            key = (command[0].seq, command[-1].seq, len(command))
            facts = self._undo_facts.get(key)
            if facts is None:
                if len(self._undo_facts) >= UNDO_FACTS_KEPT:
                    self._undo_facts.clear()
                facts = history.undo_facts(self.game, command[0].actor, [e.event for e in command])
                self._undo_facts[key] = facts
            return command, whole, facts

        for stored in reversed(self.recent):
            event = stored.event
            if event.type == kernel.UNDO_EVENT and (span := history.undo_span(stored.seq, event)):
                # Only seqs still in memory matter, so the set never outgrows the window.
                undone.update(range(max(span[0], oldest), span[1] + 1))
            if kernel.is_platform_event(event) or stored.seq in undone:
                if command:
                    yield standing(True)
                    command = []
                continue
            if command and (stored.command_id, stored.actor) != (command[0].command_id, command[0].actor):
                yield standing(True)
                command = []
            command.insert(0, stored)
        if command:
            yield standing(command[0].seq == 1)

    def game_prompts(self) -> list[Prompt]:
        """The game's prompts for the current state, computed once per seq for every viewer."""
        if self._prompts_seq != self.seq:
            self._prompts = self.game.prompts(self.state)
            self._prompt_ids = {id(p) for p in self._prompts}
            self._prompts_seq = self.seq
            self._offers[self.seq] = offers.offers_of(self._prompts)
            if len(self._offers) > OFFERS_KEPT:
                del self._offers[min(self._offers)]
        return self._prompts

    def is_game_prompt(self, prompt: Prompt) -> bool:
        """Is ``prompt`` one of ``game_prompts()`` or ``kept_prompts()`` at this seq (not one
        made per request)? Only those are worth deriving once per seq (``derived``): they
        live as long as the seq, so their ``id`` names them."""
        return self._prompts_seq == self.seq and id(prompt) in self._prompt_ids

    def kept_prompts(self, key: Any, make: Callable[[], list[Prompt]]) -> list[Prompt]:
        """``make()``, once per seq for every caller asking with ``key`` (a viewer's prompts,
        its undo prompt included), each prompt then derived from as the game's are."""

        def made() -> list[Prompt]:
            prompts = make()
            self.game_prompts()  # this seq's ids, before adding these
            self._prompt_ids.update(id(p) for p in prompts)
            return prompts

        return self.derived(key, made)  # type: ignore[no-any-return]

    def derived(self, key: Any, make: Callable[[], Any]) -> Any:
        """``make()``, computed once per seq (and state) for every caller asking with ``key``:
        what every viewer's page, socket and ``GET /view`` derive from the same state (a
        viewer's view, a prompt's ready-to-send commands) is not derived again for each.
        The values are shared, so callers never change them."""
        if self._derived_of[0] != self.seq or self._derived_of[1] is not self.state:
            self._derived, self._derived_of = {}, (self.seq, self.state)
        try:
            return self._derived[key]
        except KeyError:
            value = self._derived[key] = make()
            return value

    def view_for(self, viewer: Viewer) -> dict[str, Any]:
        """The game's view of the current state for ``viewer``, once per seq for all viewers
        the game says see alike (``Game.view_key``): the very same dict for each of them."""
        key = ("view", self.game.view_key(self.state, viewer))
        return self.derived(key, lambda: self.game.view(self.state, viewer))  # type: ignore[no-any-return]

    def _undo(self, command: Command, actor: Viewer) -> Event:
        if command.args:
            raise RuleError("bad_undo", "undo takes no arguments")
        if not actor.holds(command.seat):
            raise RuleError("seat_not_held", f"you do not hold seat {command.seat}", status=403)
        taken_back, why_not = self.undo_check(command.seat)
        if taken_back is None:
            raise RuleError(
                "cannot_undo",
                f"nothing to take back ({why_not}): only your own last action can be undone, until "
                "dice are rolled, a card drawn, something hidden revealed or another player acts "
                "on the same things",
                status=409,
            )
        return kernel.undo_event(command.seat, [(e.seq, e.event) for e in taken_back])

    async def catch_up(self, upto: int | None = None) -> None:
        """Read what other processes committed (after a NOTIFY) and publish it; nothing to
        do if this process already has ``upto`` (its own commit's NOTIFY)."""
        if upto is not None and self.seq >= upto:
            return  # without waiting for the lock: the common case, our own commit
        async with self.lock:
            if upto is not None and self.seq >= upto:
                return
            await self._catch_up_locked()

    async def reach(self, seq: int, timeout: float) -> bool:
        """Read your writes across processes: return once this process's copy of the table
        is at ``seq`` or beyond (True), or after ``timeout`` seconds without it (False).

        A seq a client was answered with is committed, so the store has it: a process that
        has not heard its NOTIFY yet reads what it missed at once (one SELECT, only when
        behind), then waits, bounded, for anything still on its way."""
        if self.seq >= seq:
            return True
        await self.catch_up(seq)
        if self.seq >= seq:
            return True
        try:
            await asyncio.wait_for(self.wait_beyond(seq - 1), timeout)
        except TimeoutError:
            return self.seq >= seq
        return self.seq >= seq

    async def _catch_up_locked(self) -> bool:
        """Apply what other processes committed since this session's seq; True if any."""
        events = await self.store.events_after(self.id, self.seq)
        if events:
            await self._apply(events)
        return bool(events)

    async def _apply(self, stored: list[StoredEvent]) -> None:
        """Evolve the state by committed events, then publish them."""
        before = self.seq
        if any(s.event.type == kernel.UNDO_EVENT for s in stored):
            # Taking back is folding the log without those events: from the newest snapshot
            # the undo leaves whole, else from the start.
            self.state, _, _ = await rebuild(self.store, self.game, self.id, upto=stored[-1].seq)
        else:
            self.state = kernel.fold_all(self.game, self.state, [s.event for s in stored])
        self.seq = stored[-1].seq
        self.recent.extend(stored)
        self._publish()
        outcome = self.game.outcome(self.state)
        if outcome != self.outcome:
            self.outcome = outcome
            await self.store.set_status(
                self.id, "finished" if outcome else "running", outcome.to_json() if outcome else None
            )
        if self.snapshot_every and self.seq // self.snapshot_every > before // self.snapshot_every:
            try:
                blob = pickle.dumps(self.state, protocol=pickle.HIGHEST_PROTOCOL)
                await self.store.save_snapshot(self.id, self.seq, snapshot_key(self.game), blob)
            except Exception:  # a snapshot is an optimisation; the log is the truth
                log.exception("snapshot of %s at %s failed", self.id, self.seq)

    # -- subscribers ------------------------------------------------------------------

    def _publish(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()
        wakeups, self.wakeups = self.wakeups, set()
        for wakeup in wakeups:
            if not wakeup.done():
                wakeup.set_result(None)

    async def wait_beyond(self, seq: int, epoch: int | None = None) -> None:
        """Return once the table is past ``seq`` (or its seats changed hands)."""
        while self.seq <= seq and (epoch is None or epoch == self.seat_epoch):
            await self._changed.wait()

    def seats_changed(self, seats: Sequence[SeatRecord]) -> None:
        self.seats = list(seats)
        self.viewers = {}
        self.seat_epoch += 1
        self._publish()

    async def reread_seats(self) -> None:
        """Re-read the seats from the store, one read at a time: a read begun before a seat
        changed hands (a catch-up heard by NOTIFY, say) is applied before, never after, the
        read of whoever changed it, so a join or a hand-over is never undone in memory."""
        async with self._seat_reads:
            self.seats_changed(await self.store.seats(self.id))

    async def events_between(self, after: int, upto: int) -> list[StoredEvent]:
        """Committed events with ``after < seq <= upto``, from memory when it has them."""
        if upto <= after:
            return []
        recent = self.recent
        if recent and recent[0].seq <= after + 1:
            first = recent[0].seq  # seqs in ``recent`` are contiguous
            # By index, not ``islice`` (which walks the deque from its oldest event): a deque
            # is indexed from its nearer end, and what a live socket asks for after each
            # commit is the newest few events of a window of up to ``RECENT_EVENTS``.
            return [recent[i] for i in range(after + 1 - first, min(upto + 1 - first, len(recent)))]
        return await self.store.events_after(self.id, after, upto=upto)


def check_events(game: Game, events: Sequence[Event]) -> None:
    """Before an append: no event of ``events`` holds a mistyped number where the game's
    event schema has whole numbers (``app.kernel.event_schema``: it would corrupt the log
    for ever; an ``EventSchemaError``, nothing appended); what else the schema has not
    seen is logged, once per kind of difference, for the schema to be learnt again."""
    for problem in event_schema.check_append(game, events):
        key = (game.name, problem.split(":", 1)[0])
        if key not in _UNSEEN_LOGGED:
            _UNSEEN_LOGGED.add(key)
            log.warning(
                "%s wrote what its event schema has not seen (make event-schemas): %s", game.name, problem
            )


_UNSEEN_LOGGED: set[tuple[str, str]] = set()


class _Walked:
    """An iterator's items, read from the start by each ``for`` over it: the iterator is
    advanced only past what no loop so far has read (``TableSession.undo_check``'s walk)."""

    def __init__(self, items: Iterator[Any]) -> None:
        self._items = items
        self._read: list[Any] = []

    def __iter__(self) -> Iterator[Any]:
        index = 0
        while True:
            if index == len(self._read):
                item = next(self._items, _DONE)
                if item is _DONE:
                    return
                self._read.append(item)
            yield self._read[index]
            index += 1


_DONE = object()
