"""Record the golden games from the current code (run once; re-run only with a reason).

    ./.venv/bin/python -m tests.golden.record --reason "why the goldens change"
    ./.venv/bin/python -m tests.golden.record --game darkest_night --only dn-undo --reason "..."
    ./.venv/bin/python -m tests.golden.record --keep-events --reason "..."

Each plan is played from fixed seeds as a live table plays it: the table's opening events
from ``game.setup`` with ``rng_for(seed, 1)``, every command through ``kernel.decide`` with
``rng_for(seed, next seq)``, stored with its seat actor and command id; a player's undo is
the live session's (``TableSession.undoable_command`` finds the command, ``kernel.undo_event``
writes the event) and the state is then rebuilt from the log without what it took back. The
heuristic bot answers every required prompt (a random legal choice where it has none, and
another choice than the one just taken back). The expectations are then computed by
*replaying* the written log (``golden.expectations``), never from the states of the play.

``--keep-events`` keeps each golden's stored log and recomputes only its expectations: use
it when the stored events must stay those of an older release (the proof that old saves
load) but what they replay to changed on purpose.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from app.kernel import table as kernel
from app.kernel.game import Game
from app.kernel.registry import get_game
from app.kernel.rng import rng_for
from app.kernel.types import GAME_MASTER, GM_SEAT, Choice, Command, Event, Prompt, SeatInfo, Viewer
from app.live import inputs
from app.live.exports import EXPORT_FORMAT, EXPORT_VERSION, sign
from app.live.session import TableSession, actor_label
from app.store import StoredEvent, TableRecord
from tests.golden import golden


@dataclass(frozen=True)
class Plan:
    """One golden game: its table, its seeds and how it is played."""

    id: str
    title: str
    options: dict[str, Any]
    seats: int
    max_commands: int
    """Commands after which recording stops (a game may end sooner)."""
    undo_share: float = 0.0
    """How often the player who just acted takes it back, when the table lets them."""
    chat_every: int = 0
    """Every so many commands, the player to act says something (a platform event)."""
    game: str = "darkest_night"
    seed: str = field(default="")
    bot_seed: int = 1

    @property
    def table_seed(self) -> str:
        return self.seed or f"golden-{self.id}"


PLANS: tuple[Plan, ...] = (
    Plan(
        "dn-default-1seat",
        "Default options, one player runs all four heroes (played to a win)",
        {},
        1,
        2000,
        seed="golden-dn-default-1seat-7",
    ),
    Plan("dn-default-4seats", "Default options, four players", {}, 4, 140),
    Plan(
        "dn-necromancer-player",
        "A player runs the Necromancer (DN 20.3) against two hero players, with undos",
        {"necromancer_player": True},
        3,
        200,
        undo_share=0.1,
    ),
    Plan(
        "dn-hidden-relics-quests",
        "Hidden relics, increased quests and the Pall of Suffering, two players (played to a loss)",
        {"hidden_relics": True, "increased_quests": True, "pall_of_suffering": True},
        2,
        2000,
    ),
    Plan(
        "dn-dual-class",
        "Two dual-class heroes, starting darkness 5, extra grace and sparks",
        {"heroes": 2, "starting_darkness": 5, "extra_grace": True, "starting_sparks": True},
        1,
        140,
    ),
    Plan(
        "dn-variants",
        "Hunted subdeck, no darkness deck, no mysteries, random heroes and powers, chosen hero seats",
        {
            "subdeck": "hunted",
            "no_darkness_deck": True,
            "no_mysteries": True,
            "random_heroes": True,
            "random_powers": True,
            "starting_powers": 4,
            "starting_blights": 2,
            "hero_seats": [1, 0, 0, 1],
        },
        2,
        140,
    ),
    Plan(
        "dn-undo-chat",
        "Two players who often take back their move and play another, and chat",
        {"heroes": 3, "no_quests": True},
        2,
        140,
        undo_share=0.3,
        chat_every=25,
    ),
    Plan(
        "do-campaign-2seats",
        "Dark Omen: a light campaign for two players, across a chapter boundary",
        {"difficulty": "light"},
        2,
        1500,
        game="dark_omen",
    ),
    Plan(
        "do-quick-start",
        "Dark Omen: a Quick Start chapter 2 for one player, played to its end",
        {"mode": "quick_chapter", "chapter": 2},
        1,
        1500,
        game="dark_omen",
    ),
    Plan(
        "attack-adventure",
        "Attack the Darkness, Adventure: three players in the Tavern Cellar, with undos",
        {"dungeon": "tavern_cellar"},
        3,
        400,
        undo_share=0.05,
        game="attack_the_darkness",
    ),
    Plan(
        "attack-tabletop",
        "Attack the Darkness, Tabletop: a game master places the tiles and monsters for two players",
        {"mode": "tabletop", "dungeon": "random", "encounters": 1},
        2,
        300,
        game="attack_the_darkness",
    ),
    Plan(
        "attack-arena",
        "Attack the Darkness, Arena: two teams of two",
        {"mode": "arena", "teams": 2},
        4,
        300,
        game="attack_the_darkness",
    ),
)


# -- playing -----------------------------------------------------------------------------


def game_of(plan: Plan) -> Game:
    game = get_game(plan.game)
    if game is None:
        raise SystemExit(f"no game {plan.game!r}")
    return game


class Recording:
    """A table played in memory exactly as the live session plays it, minus the store."""

    def __init__(self, plan: Plan) -> None:
        game = game_of(plan)
        self.plan = plan
        self.game = game
        self.options = inputs.check_options(game, plan.options)
        necromancer = bool(self.options.get("necromancer_player"))
        self.names = [
            "Necromancer player" if necromancer and i == plan.seats - 1 else f"Player {i + 1}"
            for i in range(plan.seats)
        ]
        self.names = inputs.check_seat_names(game, self.names)
        self.name = inputs.check_table_name(f"Golden game {plan.id}")
        opening = game.setup(
            self.options, [SeatInfo(i, n) for i, n in enumerate(self.names)], rng_for(plan.table_seed, 1)
        )
        self.log = [self._stored(i + 1, e, "system", None) for i, e in enumerate(opening)]
        record = TableRecord(
            id=plan.id,
            game=game.name,
            name=self.name,
            options=self.options,
            seed=plan.table_seed,
            gm_token_hash="",
            engine_version=game.engine_version,
            status="running",
            outcome=None,
            created_at=datetime.fromisoformat(golden.recorded_at(0)),
        )
        state = kernel.replay_log(game, [(s.seq, s.event) for s in self.log])
        # The live session's own bookkeeping finds what an undo may take back; it reads only
        # the session's recent events, never its store, so this session has none.
        self.session = TableSession(None, game, record, [], state, len(self.log), snapshot_every=0)  # type: ignore[arg-type]
        self.session.recent.extend(self.log)
        self.commands = 0
        self.undos = 0
        self.last_choices: dict[str, tuple[str, dict[str, Any]]] = {}
        """The choice each command id sent, so a player who takes it back plays another."""

    @property
    def state(self) -> Any:
        return self.session.state

    def _stored(self, seq: int, event: Event, actor: str, command_id: str | None) -> StoredEvent:
        return StoredEvent(seq, event, actor, command_id, datetime.fromisoformat(golden.recorded_at(seq)))

    def _append(self, events: list[Event], seat: Any) -> list[StoredEvent]:
        """Store one command's events as the session does (actor, command id, seqs), then
        fold them as ``TableSession._apply`` does: an undo rebuilds from the log."""
        actor = GAME_MASTER if seat == GM_SEAT else Viewer("seat", frozenset({seat}))
        label = actor_label(actor, Command(seat, "", {}))
        command_id = f"golden-{len(self.log) + 1}"
        stored = [self._stored(len(self.log) + 1 + i, e, label, command_id) for i, e in enumerate(events)]
        self.log.extend(stored)
        if any(s.event.type == kernel.UNDO_EVENT for s in stored):
            self.session.state = kernel.replay_log(self.game, [(s.seq, s.event) for s in self.log])
        else:
            self.session.state = kernel.fold_all(self.game, self.session.state, events)
        self.session.seq = self.log[-1].seq
        self.session.recent.extend(stored)
        return stored

    def command(self, seat: Any, choice: Choice) -> None:
        actor = GAME_MASTER if seat == GM_SEAT else Viewer("seat", frozenset({seat}))
        rng = rng_for(self.plan.table_seed, len(self.log) + 1)
        events = kernel.decide(self.game, self.state, Command(seat, choice.type, choice.args), actor, rng)
        self._append(events, seat)

    def undo(self, seat: Any) -> tuple[str, dict[str, Any]] | None:
        """Take back ``seat``'s last command if the live table would let it: the command
        taken back (type and args of its first event's command), or None."""
        taken = self.session.undoable_command(seat)
        if taken is None:
            return None
        self._append([kernel.undo_event(seat, [(s.seq, s.event) for s in taken])], seat)
        self.undos += 1
        return self.last_choices.get(taken[0].command_id or "")

    def chat(self, seat: Any, text: str) -> None:
        actor = Viewer("seat", frozenset({seat}))
        rng = rng_for(self.plan.table_seed, len(self.log) + 1)
        events = kernel.decide(self.game, self.state, Command(seat, kernel.CHAT, {"text": text}), actor, rng)
        self._append(events, seat)


def bot_pick(game: Any, state: Any, prompt: Prompt, rng: random.Random) -> Choice:
    choice = game.bot_choice(state, prompt, rng)
    return choice if choice is not None else rng.choice(prompt.choices)


def play(plan: Plan) -> Recording:
    table = Recording(plan)
    rng = random.Random(plan.bot_seed)
    game = table.game
    last_seat: Any = None
    avoid: tuple[str, dict[str, Any]] | None = None
    while table.commands < plan.max_commands and game.outcome(table.state) is None:
        prompt = next(p for p in game.prompts(table.state) if p.required and p.choices)
        if plan.chat_every and table.commands and table.commands % plan.chat_every == 0 and avoid is None:
            table.chat(prompt.seat, f"Turn {table.commands}: my move, {table.names[prompt.seat]} here.")
        if last_seat is not None and avoid is None and plan.undo_share and rng.random() < plan.undo_share:
            taken = table.undo(last_seat)
            if taken is not None:
                avoid = taken
                continue
        choice = bot_pick(game, table.state, prompt, rng)
        if avoid is not None and (choice.type, choice.args) == avoid:
            others = [c for c in prompt.choices if (c.type, c.args) != avoid]
            choice = rng.choice(others) if others else choice
        avoid = None
        table.command(prompt.seat, choice)
        table.last_choices[table.log[-1].command_id or ""] = (choice.type, choice.args)
        last_seat = prompt.seat
        table.commands += 1
    return table


# -- writing -----------------------------------------------------------------------------


def export_doc(table: Recording) -> dict[str, Any]:
    """The table's export as ``app.live.exports.export_doc`` writes it, signed."""
    outcome = table.game.outcome(table.state)
    doc: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": table.game.name,
        "engine_version": table.game.engine_version,
        "name": table.name,
        "options": table.options,
        "seats": [{"seat": i, "name": n} for i, n in enumerate(table.names)],
        "outcome": outcome.to_json() if outcome else None,
        "events": [s.to_json() | {"command_id": s.command_id} for s in table.log],
    }
    doc["signature"] = sign(golden.SIGNING_KEY, doc)
    return doc


def write(doc: dict[str, Any], plan_id: str) -> int:
    path = golden.GAMES_DIR / f"{plan_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = golden.render(doc) + "\n"
    path.write_text(text, encoding="utf-8")
    return len(text.encode())


def record(plan: Plan, reason: str, keep_events: bool) -> str:
    path = golden.GAMES_DIR / f"{plan.id}.json"
    game = game_of(plan)
    if keep_events:
        doc = golden.load(path)
        meta = doc["golden"]
    else:
        table = play(plan)
        doc = export_doc(table)
        meta = {
            "id": plan.id,
            "title": plan.title,
            "plan": {
                "options": plan.options,
                "seats": plan.seats,
                "table_seed": plan.table_seed,
                "bot_seed": plan.bot_seed,
                "max_commands": plan.max_commands,
                "undo_share": plan.undo_share,
                "chat_every": plan.chat_every,
            },
            "commands": table.commands,
            "undos": table.undos,
        }
    meta["recorded"] = {
        "date": datetime.now(UTC).date().isoformat(),
        "engine_version": game.engine_version,
        "reason": reason,
        "events_kept": keep_events,
    }
    meta["expected"] = golden.expectations(game, golden.export_part(doc))
    doc["golden"] = meta
    size = write(doc, plan.id)
    outcome = meta["expected"]["outcome"]
    return (
        f"{plan.id}: {len(doc['events'])} events, {meta['commands']} commands, {meta['undos']} undos, "
        f"{outcome['result'] if outcome else 'unfinished'}, {size / 1024:.0f} KiB"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden.record", description=__doc__.split("\n")[0])
    parser.add_argument("--game", default=None, help="record only this game's goldens")
    parser.add_argument("--only", action="append", default=[], help="record only this golden id (repeatable)")
    parser.add_argument("--reason", required=True, help="why the goldens are (re-)recorded; logged")
    parser.add_argument(
        "--keep-events",
        action="store_true",
        help="keep the stored logs (an older release's events) and recompute only the expectations",
    )
    args = parser.parse_args(argv)
    if not args.reason.strip():
        parser.error("--reason must say why")
    plans = [p for p in PLANS if (args.game in (None, p.game)) and (not args.only or p.id in args.only)]
    if not plans:
        parser.error("no golden matches --game/--only")
    for plan in plans:
        print(record(plan, args.reason.strip(), args.keep_events), flush=True)
    log_recording(plans, args.reason.strip(), args.keep_events)
    return 0


def log_recording(plans: list[Plan], reason: str, keep_events: bool) -> None:
    """One line in ``RECORDED.md``: when, which engine versions, which goldens, why."""
    engines = sorted({f"{p.game} engine {game_of(p).engine_version}" for p in plans})
    what = "expectations only" if keep_events else "recorded"
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M")
    line = (
        f"- {when} UTC · {', '.join(engines)} · {what}: {', '.join(p.id for p in plans)} · reason: {reason}\n"
    )
    if not golden.RECORD_LOG.exists():
        golden.RECORD_LOG.write_text("# Golden games: recording log\n\nOne line per (re-)recording.\n\n")
    with golden.RECORD_LOG.open("a", encoding="utf-8") as log:
        log.write(line)


if __name__ == "__main__":
    sys.exit(main())
