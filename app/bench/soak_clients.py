"""The client side of ``umbra bench soak``: careful API clients and resuming viewers.

Each table slot plays one seat of a Darkest Night table as a careful client would: the
seat's prompts from ``GET /view``, a random choice of a required prompt, and its
ready-made command POSTed, the very same body (same ``command_id``) sent again on a
connection error, any 5xx (after the ``Retry-After`` of a 503), 429 and 409 ``busy``, on
the next server each time, until it is answered or its time budget runs out. Every
acknowledgement keeps the seqs the response named, to be looked up in the log at the end.
The other seats are the server's bot's. When a game ends a new table takes the slot, and
the finished one is settled.

Each table has viewers on ``WS /ws/tables/{id}``, one per server process. A viewer whose
connection drops connects again with ``after=<the last seq it saw>``: the resume contract,
which the settle step checks (every event of the log exactly once, in order).

A table is settled by reading its whole log (``GET /export`` with the game-master token),
checking every acknowledged command's events against it, waiting for the viewers to
reach its end, and checking what they saw; only the counts are kept afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from app.bench.soak_checks import Ack, Tally, check_acks, check_viewers, count_log, describe_error
from app.bench.soak_cluster import SoakServer

CLOCK = time.monotonic
GAME = "darkest_night"
SEAT_NAMES = ("Ann", "Bo", "Cy", "Di")
CLIENT_SEAT = 0
BOT_SEATS = (1, 2, 3)


@dataclass(frozen=True)
class SoakPlan:
    tables: int
    minutes: float
    workers: int
    chaos: bool
    seed: int
    processes: int = 1
    """``--processes``: one ``umbra serve --processes N`` behind nginx instead of ``workers``
    separate servers."""
    viewers_per_table: int = 2
    bot_delay: float = 0.02
    chat_every_s: tuple[float, float] = (5.0, 15.0)
    chaos_every_s: tuple[float, float] = (30.0, 90.0)
    restart_after_s: tuple[float, float] = (0.5, 2.0)
    pg_down_s: tuple[float, float] = (1.0, 3.0)
    command_budget_s: float = 60.0
    """How long a careful client keeps retrying one command before it gives up."""
    drain_budget_s: float = 30.0
    idle_wait_s: float = 0.5
    progress_every_s: float = 30.0


class Api:
    """HTTP to the server processes, one ``httpx.AsyncClient`` each, with failover."""

    def __init__(self, servers: list[SoakServer], tally: Tally, t0: float, connections: int) -> None:
        import httpx

        limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
        self.clients = [
            httpx.AsyncClient(base_url=s.url, timeout=15, trust_env=False, limits=limits) for s in servers
        ]
        self.tally, self.t0 = tally, t0
        self.unreachable_until = [0.0] * len(servers)
        """After a connection error a server is asked first by no one for a second, as a
        client or a proxy would mark a backend down, so a dead process costs each client
        one failed try, not one per request."""

    def first_choice(self, prefer: int) -> int:
        now, count = CLOCK(), len(self.clients)
        return next(
            (i % count for i in range(prefer, prefer + count) if self.unreachable_until[i % count] <= now),
            prefer % count,
        )

    async def close(self) -> None:
        for client in self.clients:
            await client.aclose()

    async def call(
        self,
        method: str,
        path: str,
        *,
        kind: str,
        prefer: int,
        deadline: float,
        token: str | None = None,
        body: dict[str, Any] | None = None,
    ) -> Any:
        """The first answer that is not worth retrying, or None when ``deadline`` passed.
        Connection errors, 5xx, 429 and 409 ``busy`` are retried with the same body, each
        time on the next server, after a backoff (or the ``Retry-After`` asked for)."""
        import httpx

        headers = {"Authorization": f"Bearer {token}"} if token else {}
        first, tries = self.first_choice(prefer), 0
        while True:
            wait = 0.0
            index = (first + tries) % len(self.clients)
            tries += 1
            if kind == "command":
                self.tally.attempts += 1
            try:
                response = await self.clients[index].request(method, path, json=body, headers=headers)
            except httpx.HTTPError as exc:
                self._count(kind, f"connection: {type(exc).__name__}")
                if isinstance(exc, httpx.TransportError):
                    self.unreachable_until[index] = CLOCK() + 1.0
            else:
                if response.status_code < 400:
                    return response
                label, fault = describe_error(response)
                self._count(kind, label)
                if fault:
                    self.tally.faults[f"{kind}: {label}"] += 1
                    at = CLOCK() - self.t0
                    text = response.text[:200].replace("\n", " ")
                    self.tally.sample(
                        self.tally.fault_samples, f"{at:.1f} s {method} {path}: {label}: {text}"
                    )
                if not (
                    response.status_code in (429, 503) or response.status_code >= 500 or label == "409 busy"
                ):
                    return response
                wait = retry_after(response)
            if CLOCK() > deadline:
                return None
            backoff = min(2.0, 0.05 * 2 ** min(tries, 6)) * random.uniform(0.5, 1.0)
            await asyncio.sleep(max(backoff, wait))

    def _count(self, kind: str, label: str) -> None:
        if kind == "command":
            self.tally.command_errors[label] += 1
        else:
            self.tally.other_errors[f"{kind}: {label}"] += 1


def retry_after(response: Any) -> float:
    """The seconds a 503 or 429 asks to wait (``Retry-After``), at most 10."""
    try:
        return min(10.0, max(0.0, float(response.headers.get("retry-after", 0))))
    except ValueError:
        return 0.0


@dataclass
class SoakTable:
    slot: int
    generation: int
    id: str
    token: str
    gm_token: str
    prefer: int
    """The server its client asks first."""
    viewers: list[Viewer] = field(default_factory=list)
    acks: list[Ack] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    last_change: float = field(default_factory=CLOCK)
    newest: int = 0
    """The newest seq any of its viewers has seen."""
    chats: int = 0
    settled: bool = False

    def note_change(self, seq: int, tally: Tally, t0: float) -> None:
        """A frame arrived: wake the client; if it is the first to reach ``seq``, keep the
        longest pause between commits."""
        self.changed.set()
        if seq <= self.newest:
            return
        now = CLOCK()
        if now - self.last_change > tally.max_gap_s:
            tally.max_gap_s = now - self.last_change
            tally.max_gap_where = f"table {self.id}, ended at {now - t0:.1f} s"
        self.newest, self.last_change = seq, now


class Viewer:
    """A JSON websocket on one server that resumes with ``after=<last seq>`` when dropped."""

    def __init__(self, table: SoakTable, server: SoakServer, tally: Tally, t0: float) -> None:
        self.table, self.server, self.tally, self.t0 = table, server, tally, t0
        self.start = 0
        """The seq it started after: it must see every event from ``start + 1`` on."""
        self.order: list[int] = []
        self.last = 0
        self.stopping = False
        self.task: asyncio.Task[None] | None = None

    def begin(self) -> None:
        self.task = asyncio.create_task(self.run(), name=f"viewer-{self.table.id}")

    async def run(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        pause = 0.1
        while not self.stopping:
            url = f"{self.server.ws_url}/ws/tables/{self.table.id}?after={self.last}"
            try:
                async with connect(url, open_timeout=10, ping_interval=None, proxy=None, max_size=None) as ws:
                    self.tally.connections += 1
                    async for raw in ws:
                        self.on_frame(raw)
                        pause = 0.1
                    reason = f"closed by the server ({ws.close_code})"
            except (OSError, TimeoutError, WebSocketException) as exc:
                reason = type(exc).__name__
            if self.stopping:
                return
            self.tally.drops[reason] += 1
            await asyncio.sleep(pause)
            pause = min(1.0, pause * 2)

    def on_frame(self, raw: str | bytes) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            self.tally.bad_frames += 1
            return
        if message.get("type") == "hello":
            return
        events = message.get("events") if message.get("type") == "events" else None
        if not events or events[-1].get("seq") != message.get("seq"):
            self.tally.bad_frames += 1
        for event in events or ():
            self.order.append(event["seq"])
            self.last = max(self.last, event["seq"])
        if events:
            self.table.note_change(self.last, self.tally, self.t0)

    async def stop(self) -> None:
        self.stopping = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task


class Clients:
    """The table slots: play, replace finished games, settle each table."""

    def __init__(
        self, plan: SoakPlan, servers: list[SoakServer], api: Api, tally: Tally, stop: asyncio.Event
    ):
        self.plan, self.servers, self.api, self.tally, self.stop = plan, servers, api, tally, stop
        self.tables: list[SoakTable] = []
        self.settling: list[asyncio.Task[None]] = []

    # -- a slot ---------------------------------------------------------------------

    async def slot(self, index: int) -> None:
        rng = random.Random(f"{self.plan.seed}:slot:{index}")
        generation = 0
        while not self.stop.is_set():
            table = await self.create_table(index, generation)
            generation += 1
            if table is None:
                await asyncio.sleep(0.5)
                continue
            if await self.play(table, rng):
                self.settling.append(asyncio.create_task(self.settle(table, final=False)))

    async def create_table(self, slot: int, generation: int) -> SoakTable | None:
        """A new table (a retry after a lost answer may leave an unused one behind), its
        viewers, and seats 1-3 handed to the bot."""
        budget = CLOCK() + self.plan.command_budget_s
        body = {
            "game": GAME,
            "seats": [{"name": n} for n in SEAT_NAMES],
            "seed": f"soak-{self.plan.seed}-{slot}-{generation}",
            "name": f"soak {slot}.{generation}",
        }
        prefer = slot % len(self.servers)
        response = await self.api.call(
            "POST", "/api/tables", kind="create", prefer=prefer, deadline=budget, body=body
        )
        if response is None or response.status_code != 201:
            return None
        data = response.json()
        table = SoakTable(
            slot, generation, data["table_id"], data["seats"][CLIENT_SEAT]["token"], data["gm_token"], prefer
        )
        self.tables.append(table)
        self.tally.tables_created += 1
        for k in range(self.plan.viewers_per_table):
            viewer = Viewer(table, self.servers[(slot + k) % len(self.servers)], self.tally, self.api.t0)
            table.viewers.append(viewer)
            viewer.begin()
        for seat in BOT_SEATS:
            response = await self.api.call(
                "POST",
                f"/api/tables/{table.id}/seats/{seat}/bot",
                kind="bot",
                prefer=prefer,
                deadline=budget,
                token=table.gm_token,
                body={"on": True},
            )
            if response is None or response.status_code != 200:
                self.tally.sample(
                    self.tally.unsettled, f"table {table.id}: seat {seat} not handed to the bot"
                )
                self.settling.append(asyncio.create_task(self.settle(table, final=True)))
                return None
        return table

    async def play(self, table: SoakTable, rng: random.Random) -> bool:
        """Play the client's seat until the game ends (True) or the run stops (False)."""
        next_chat = CLOCK() + rng.uniform(*self.plan.chat_every_s)
        path = f"/api/tables/{table.id}/view"
        while not self.stop.is_set():
            table.changed.clear()
            budget = CLOCK() + self.plan.command_budget_s
            response = await self.api.call(
                "GET", path, kind="view", prefer=table.prefer, deadline=budget, token=table.token
            )
            if response is None or response.status_code != 200:
                await self.wait_change(table, self.plan.idle_wait_s)
                continue
            view = response.json()
            if view["outcome"]:
                self.tally.games_finished += 1
                self.tally.outcomes[str(view["outcome"].get("result"))] += 1
                return True
            if CLOCK() >= next_chat:
                next_chat = CLOCK() + rng.uniform(*self.plan.chat_every_s)
                await self.chat(table)
            required = [
                p for p in view["prompts"] if p["required"] and p["seat"] == CLIENT_SEAT and p["choices"]
            ]
            if not required:
                await self.wait_change(table, self.plan.idle_wait_s)
            elif not await self.send(table, rng.choice(rng.choice(required)["choices"])["command"], "move"):
                await self.wait_change(table, 0.2)
        return False

    async def wait_change(self, table: SoakTable, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(table.changed.wait(), timeout)

    async def chat(self, table: SoakTable) -> None:
        table.chats += 1
        text = f"soak line {table.chats} at table {table.slot}.{table.generation}"
        command_id = f"chat-{table.slot}-{table.generation}-{table.chats}"
        body = {"command_id": command_id, "seat": CLIENT_SEAT, "type": "chat", "args": {"text": text}}
        await self.send(table, body, "chat")

    async def send(self, table: SoakTable, body: dict[str, Any], kind: str) -> bool:
        """One command, retried until it is answered; True if it was acknowledged."""
        self.tally.sent[kind] += 1
        started = CLOCK()
        response = await self.api.call(
            "POST",
            f"/api/tables/{table.id}/commands",
            kind="command",
            prefer=table.prefer,
            deadline=started + self.plan.command_budget_s,
            token=table.token,
            body=body,
        )
        if response is None:
            self.tally.gave_up += 1
            return False
        if response.status_code != 200:
            self.tally.refused += 1
            return False
        data = response.json()
        self.tally.latency_ms.append((CLOCK() - started) * 1000)
        self.tally.acknowledged += 1
        self.tally.replayed += bool(data.get("replayed"))
        table.acks.append(
            Ack(body["command_id"], tuple(e["seq"] for e in data["events"]), bool(data.get("replayed")))
        )
        return True

    # -- settling a table -----------------------------------------------------------

    async def settle(self, table: SoakTable, *, final: bool) -> None:
        """Read the table's log, check the acknowledgements against it, let the viewers
        reach its end and check them. ``final``: the run is over and the table still
        playing, so its bots are stopped first and the log let settle."""
        if table.settled:
            return
        table.settled = True
        budget = CLOCK() + self.plan.command_budget_s
        try:
            if final:
                await self.stop_bots(table, budget)
            response = await self.api.call(
                "GET", f"/api/tables/{table.id}/export", kind="export", prefer=table.prefer, deadline=budget,
                token=table.gm_token,
            )  # fmt: skip
            if response is None or response.status_code != 200:
                self.tally.unsettled.append(f"table {table.id}: its log could not be read")
                return
            events = response.json()["events"]
            end = events[-1]["seq"] if events else 0
            check_acks(self.tally, table, events)
            count_log(self.tally, events)
            deadline = CLOCK() + self.plan.drain_budget_s
            while not all(v.last >= end for v in table.viewers) and CLOCK() < deadline:
                await asyncio.sleep(0.05)
            check_viewers(self.tally, table, end)
        finally:
            for viewer in table.viewers:
                await viewer.stop()
            table.acks.clear()
            for viewer in table.viewers:
                viewer.order = []

    async def stop_bots(self, table: SoakTable, budget: float) -> None:
        """Take the seats back from the bot, then wait until the log stops growing."""
        for seat in BOT_SEATS:
            path = f"/api/tables/{table.id}/seats/{seat}/bot"
            await self.api.call(
                "POST", path, kind="bot", prefer=table.prefer, deadline=budget, token=table.gm_token,
                body={"on": False},
            )  # fmt: skip
        seq, still_since = -1, CLOCK()
        while CLOCK() < min(budget, still_since + 10):
            response = await self.api.call(
                "GET", f"/api/tables/{table.id}", kind="summary", prefer=table.prefer, deadline=budget
            )
            now = response.json()["seq"] if response is not None and response.status_code == 200 else -1
            if now != seq:
                seq, still_since = now, CLOCK()
            elif CLOCK() - still_since > 1.0:
                return
            await asyncio.sleep(0.25)
