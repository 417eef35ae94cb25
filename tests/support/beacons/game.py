"""Beacons: a small test-only campaign (never in the product) that proves the platform's
contract without Darkest Night: rules on the kernel's stepwise engine (``app.kernel.flow``),
a clickable grid board, a per-seat lobby option and chapters inside one table.

The rules (cited as ``BC n``):

- BC 1 A campaign is ``nights`` chapters (one night when ``campaign`` is "single"). Each
  night keepers start in the corners of a 5×5 grid, each with 1 spark and 2 lantern cards
  dealt from a freshly shuffled deck of 12 (reach 1–3), held hidden.
- BC 2 In each round every keeper keeps one watch; the keepers who have not yet watched
  this round say together who keeps the next one (the first to answer).
- BC 3 On a watch a keeper does one thing: move one square orthogonally (not onto another
  keeper), raise a lantern card (needs a spark) and then light an unlit square within the
  card's reach (Manhattan distance; "back" lowers the card and asks again), draw a card
  (at most 4 in hand), rest (gain a spark, at most 3), or wait.
- BC 4 When every keeper has watched, dusk falls: a die is rolled; on 1–3 the darkness
  grows by one.
- BC 5 Three beacons lit win the night; darkness 4 loses it.
- BC 6 Between nights every keeper says "ready" (in any order, whenever they come back);
  the last one begins the next night.
- BC 7 At any time during a night a keeper may pass a spark to another keeper (not the
  spark a raised lantern holds).
- BC 8 The campaign is won when more nights were won than lost.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.kernel import (
    Choice,
    Event,
    OptionSpec,
    Outcome,
    Prompt,
    SeatInfo,
    Secret,
    Viewer,
)
from app.kernel.flow import Ctx, Decision, FlowGame, Rules, Step
from app.kernel.types import Chapter
from tests.support.vigil import night_chapters, night_title

SIZE = 5
BEACONS_TO_WIN = 3
DARKNESS_TO_LOSE = 4
HAND_LIMIT = 4
SPARK_LIMIT = 3
DECK_SIZE = 12
CORNERS = ("0-0", "4-4", "0-4", "4-0")
COLOURS = ("amber", "azure", "crimson", "jade")
COLOUR_NAMES = ("Amber", "Azure", "Crimson", "Jade")
TEMPLATES = Path(__file__).with_name("templates")

RULES = Rules("beacons")


# -- the state ---------------------------------------------------------------------------------


@dataclass
class BeaconsState:
    """Mutable, as the flow engine needs: ``decide`` works on a ``clone``, ``evolve`` too."""

    names: list[str] = field(default_factory=list)
    colours: list[str] = field(default_factory=list)
    nights: int = 0
    results: list[str] = field(default_factory=list)
    """"win" or "loss" per night played, in order."""
    night: int | None = None
    """The night being played (0-based); None before the first, between nights and after."""
    positions: list[str] = field(default_factory=list)
    lit: list[str] = field(default_factory=list)
    darkness: int = 0
    hands: list[list[str]] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    sparks: list[int] = field(default_factory=list)
    acted: list[int] = field(default_factory=list)
    raised: str | None = None
    shown: list[str] = field(default_factory=list)
    """Cards raised in front of everyone: one lowered back into its hand is no secret."""
    last_roll: int | None = None
    agenda: list[Step] = field(default_factory=list)
    decision: Decision | None = None
    result: dict[str, Any] | None = None

    def clone(self) -> BeaconsState:
        """A copy whose lists may be changed freely; decisions (frozen) and the result
        (replaced, never changed) are shared. Cheaper than a deep copy, once per command."""
        new = copy.copy(self)
        for name in ("names", "colours", "results", "positions", "lit", "deck", "sparks", "acted", "shown"):
            setattr(new, name, list(getattr(self, name)))
        new.hands = [list(hand) for hand in self.hands]
        new.agenda = [dict(st) for st in self.agenda]
        return new

    @property
    def started(self) -> bool:
        return bool(self.names)


def card_reach(card: str) -> int:
    """A lantern card ``n<night>-<k>`` reaches ``1 + k % 3`` squares (BC 1)."""
    return 1 + int(card.rsplit("-", 1)[1]) % 3


def square(r: int, c: int) -> str:
    return f"{r}-{c}"


def coords(sq: str) -> tuple[int, int]:
    r, c = sq.split("-")
    return int(r), int(c)


def distance(a: str, b: str) -> int:
    (ra, ca), (rb, cb) = coords(a), coords(b)
    return abs(ra - rb) + abs(ca - cb)


def neighbours(sq: str) -> list[str]:
    r, c = coords(sq)
    steps = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
    return [square(y, x) for y, x in steps if 0 <= y < SIZE and 0 <= x < SIZE]


# -- decisions (typed, BC 2/3/6) ----------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class NextWatch(Decision):
    """Several seats at once: who keeps the next watch (BC 2)."""

    kind = "next_watch"


@dataclass(frozen=True, kw_only=True)
class Act(Decision):
    """A keeper's watch (BC 3): step 1 of "raise a card → light a square"."""

    kind = "act"


@dataclass(frozen=True, kw_only=True)
class LightSquare(Decision):
    """Step 2 of the multi-step question: which square the raised card lights (BC 3)."""

    kind = "light_square"
    card: str


@dataclass(frozen=True, kw_only=True)
class Ready(Decision):
    """Between nights every seat says it is ready; answered seats leave ``seats`` (BC 6)."""

    kind = "ready"
    next_night: int


def keeper_choice(type_: str, seat: int, label: str) -> Choice:
    return Choice(type_, {"keeper": seat}, label)


def next_watch_choices(s: BeaconsState, d: NextWatch) -> list[Choice]:
    return [keeper_choice("take_watch", seat, f"{s.names[seat]} keeps the next watch") for seat in d.asked]


def act_choices(s: BeaconsState, d: Act) -> list[Choice]:
    seat = int(d.seat)
    here = s.positions[seat]
    out = [Choice("move", {"to": to}, f"Move to {to}") for to in neighbours(here) if to not in s.positions]
    if s.sparks[seat] >= 1:
        out += [
            Choice("raise", {"card": card}, f"Raise lantern {card} (reach {card_reach(card)})")
            for card in s.hands[seat]
        ]
    if s.deck and len(s.hands[seat]) < HAND_LIMIT:
        out.append(Choice("draw", {}, "Draw a lantern card"))
    if s.sparks[seat] < SPARK_LIMIT:
        out.append(Choice("rest", {}, "Rest (gain a spark)"))
    out.append(Choice("wait", {}, "Wait"))
    return out


def light_choices(s: BeaconsState, d: LightSquare) -> list[Choice]:
    here = s.positions[int(d.seat)]
    reach = card_reach(d.card)
    out = [
        Choice("light", {"square": sq}, f"Light a beacon on {sq}")
        for sq in (square(r, c) for r in range(SIZE) for c in range(SIZE))
        if sq not in s.lit and distance(here, sq) <= reach
    ]
    return [*out, Choice("back", {}, "Back (lower the lantern)")]


def ready_choices(s: BeaconsState, d: Ready) -> list[Choice]:
    return [
        keeper_choice("ready", seat, f"{s.names[seat]} is ready for {night_title(d.next_night)}")
        for seat in d.asked
    ]


# -- event appliers (the fold) ------------------------------------------------------------------


@RULES.applies("BeaconsBegan")
def _began(s: BeaconsState, d: dict[str, Any]) -> None:
    s.names, s.colours, s.nights = list(d["names"]), list(d["colours"]), d["nights"]


@RULES.applies("NightBegan")
def _night(s: BeaconsState, d: dict[str, Any]) -> None:
    n = len(s.names)
    s.night, s.positions, s.lit, s.darkness = d["night"], list(d["positions"]), [], 0
    s.hands, s.sparks, s.acted, s.raised, s.last_roll = [[] for _ in range(n)], [1] * n, [], None, None
    s.deck = list(d["deck"])


@RULES.applies("LanternsDealt")
def _dealt(s: BeaconsState, d: dict[str, Any]) -> None:
    s.hands[d["seat"]] = list(d["cards"])
    s.deck = s.deck[len(d["cards"]) :]


@RULES.applies("WatchTaken")
def _watch(s: BeaconsState, d: dict[str, Any]) -> None:
    s.acted.append(d["seat"])


@RULES.applies("KeeperMoved")
def _moved(s: BeaconsState, d: dict[str, Any]) -> None:
    s.positions[d["seat"]] = d["to"]


@RULES.applies("LanternRaised")
def _raised(s: BeaconsState, d: dict[str, Any]) -> None:
    s.hands[d["seat"]].remove(d["card"])
    s.raised = d["card"]
    s.shown.append(d["card"])


@RULES.applies("LanternLowered")
def _lowered(s: BeaconsState, d: dict[str, Any]) -> None:
    if s.raised is not None:
        s.hands[d["seat"]].append(s.raised)
    s.raised = None


@RULES.applies("BeaconLit")
def _lit(s: BeaconsState, d: dict[str, Any]) -> None:
    s.lit.append(d["square"])
    s.sparks[d["seat"]] -= 1
    s.raised = None


@RULES.applies("LanternDrawn")
def _drawn(s: BeaconsState, d: dict[str, Any]) -> None:
    card = s.deck.pop(0)
    s.hands[d["seat"]].append(card)


@RULES.applies("KeeperRested")
def _rested(s: BeaconsState, d: dict[str, Any]) -> None:
    s.sparks[d["seat"]] += 1


@RULES.applies("KeeperWaited")
def _waited(s: BeaconsState, d: dict[str, Any]) -> None:
    return None


@RULES.applies("SparkPassed")
def _passed(s: BeaconsState, d: dict[str, Any]) -> None:
    s.sparks[d["from"]] -= 1
    s.sparks[d["to"]] += 1


@RULES.applies("DuskFell")
def _dusk(s: BeaconsState, d: dict[str, Any]) -> None:
    s.darkness, s.last_roll, s.acted = d["darkness"], d["roll"], []


@RULES.applies("NightEnded")
def _ended(s: BeaconsState, d: dict[str, Any]) -> None:
    s.results.append(d["result"])
    s.night, s.hands, s.deck, s.raised, s.acted = None, [[] for _ in s.names], [], None, []


@RULES.applies("KeeperReady")
def _ready(s: BeaconsState, d: dict[str, Any]) -> None:
    return None


@RULES.applies("CampaignEnded")
def _campaign(s: BeaconsState, d: dict[str, Any]) -> None:
    s.result = {"result": d["result"], "reason": d["reason"]}


# -- steps ------------------------------------------------------------------------------------------


@RULES.step("begin_night", "night")
def begin_night(ctx: Ctx[BeaconsState, None], st: Step) -> None:
    """BC 1: keepers in the corners, a shuffled deck, two hidden cards each."""
    s = ctx.s
    night = st["night"]
    deck = [f"n{night + 1}-{k:02d}" for k in range(1, DECK_SIZE + 1)]
    ctx.rng.shuffle(deck)
    ctx.emit("NightBegan", night=night, positions=list(CORNERS[: len(s.names)]), deck=deck)
    for seat in range(len(s.names)):
        ctx.emit("LanternsDealt", seat=seat, cards=s.deck[:2])


@RULES.step("next_watch")
def next_watch(ctx: Ctx[BeaconsState, None], st: Step) -> None:
    """BC 2/4: the keepers still to watch say who is next; after the last, dusk."""
    s = ctx.s
    waiting = [seat for seat in range(len(s.names)) if seat not in s.acted]
    if not waiting:
        ctx.then([{"op": "dusk"}])
    elif len(waiting) == 1:
        ctx.then([{"op": "watch", "seat": waiting[0]}])
    else:
        ctx.ask(NextWatch(seat="any", seats=list(waiting)))


@RULES.step("watch", "seat")
def watch(ctx: Ctx[BeaconsState, None], st: Step) -> None:
    ctx.emit("WatchTaken", seat=st["seat"])
    ctx.ask(Act(seat=st["seat"]))


@RULES.step("dusk")
def dusk(ctx: Ctx[BeaconsState, None], st: Step) -> None:
    """BC 4/5: a die at dusk; 1–3 grows the darkness; darkness 4 loses the night."""
    roll = ctx.rng.randint(1, 6)
    ctx.emit("DuskFell", roll=roll, darkness=ctx.s.darkness + (1 if roll <= 3 else 0))
    if ctx.s.darkness >= DARKNESS_TO_LOSE:
        ctx.then([{"op": "end_night", "result": "loss"}])


@RULES.step("end_night", "result")
def end_night(ctx: Ctx[BeaconsState, None], st: Step) -> None:
    """BC 5/6/8: the night's outcome; then the others are readied, or the campaign ends."""
    s = ctx.s
    assert s.night is not None
    ctx.emit("NightEnded", night=s.night, result=st["result"])
    s.agenda = []
    if len(s.results) < s.nights:
        ctx.ask(Ready(seat="any", seats=list(range(len(s.names))), next_night=len(s.results)))
        return
    won = s.results.count("win")
    lost = len(s.results) - won
    if won > lost:
        ctx.emit("CampaignEnded", result="win", reason=f"the beacons held: {won} of {s.nights} nights won")
    else:
        ctx.emit("CampaignEnded", result="loss", reason=f"the dark won: {lost} of {s.nights} nights lost")


def schedule(ctx: Ctx[BeaconsState, None]) -> None:
    """The round structure: during a night, the next watch (BC 2)."""
    if ctx.s.night is None:
        raise RuntimeError("beacons: nothing scheduled between nights without a decision")
    ctx.later([{"op": "next_watch"}])


def check_night_won(ctx: Ctx[BeaconsState, None]) -> None:
    """BC 5: the third beacon wins the night at once."""
    s = ctx.s
    ending = bool(s.agenda) and s.agenda[0]["op"] == "end_night"
    if s.night is not None and len(s.lit) >= BEACONS_TO_WIN and s.decision is None and not ending:
        s.agenda = [{"op": "end_night", "result": "win"}]


# -- resolvers --------------------------------------------------------------------------------------


@RULES.decision(NextWatch, next_watch_choices)
def resolve_next_watch(ctx: Ctx[BeaconsState, None], d: NextWatch, _type: str, args: dict[str, Any]) -> None:
    ctx.then([{"op": "watch", "seat": args["keeper"]}])


@RULES.decision(Act, act_choices)
def resolve_act(ctx: Ctx[BeaconsState, None], d: Act, type_: str, args: dict[str, Any]) -> None:
    seat = int(d.seat)
    match type_:
        case "move":
            ctx.emit("KeeperMoved", seat=seat, to=args["to"], **{"from": ctx.s.positions[seat]})
        case "raise":
            ctx.emit("LanternRaised", seat=seat, card=args["card"], reach=card_reach(args["card"]))
            ctx.ask(LightSquare(seat=seat, card=args["card"]))
        case "draw":
            ctx.emit("LanternDrawn", seat=seat, card=ctx.s.deck[0])
        case "rest":
            ctx.emit("KeeperRested", seat=seat)
        case "wait":
            ctx.emit("KeeperWaited", seat=seat)


@RULES.decision(LightSquare, light_choices)
def resolve_light(ctx: Ctx[BeaconsState, None], d: LightSquare, type_: str, args: dict[str, Any]) -> None:
    if type_ == "back":
        ctx.emit("LanternLowered", seat=d.seat, card=d.card)
        ctx.ask(Act(seat=d.seat))
    else:
        ctx.emit("BeaconLit", seat=d.seat, square=args["square"], card=d.card)


@RULES.decision(Ready, ready_choices)
def resolve_ready(ctx: Ctx[BeaconsState, None], d: Ready, _type: str, args: dict[str, Any]) -> None:
    ctx.emit("KeeperReady", seat=args["keeper"])
    left = [seat for seat in d.asked if seat != args["keeper"]]
    if left:
        ctx.ask(d.replace(seats=left))
    else:
        ctx.then([{"op": "begin_night", "night": d.next_night}])


def spark_choices(s: BeaconsState, seat: Any) -> list[Choice]:
    """BC 7: open during a night to a keeper holding a spark (a raised lantern holds one)."""
    if s.night is None or s.result is not None or not isinstance(seat, int):
        return []
    raising = isinstance(s.decision, LightSquare) and s.decision.seat == seat
    if s.sparks[seat] - (1 if raising else 0) < 1:
        return []
    return [
        Choice("pass_spark", {"to": other}, f"Pass a spark to {s.names[other]}")
        for other in range(len(s.names))
        if other != seat
    ]


def resolve_spark(ctx: Ctx[BeaconsState, None], seat: Any, _type: str, args: dict[str, Any]) -> None:
    ctx.emit("SparkPassed", to=args["to"], **{"from": seat})


ANY_TIME = RULES.window(
    "any_time",
    ["pass_spark"],
    spark_choices,
    resolve_spark,
    title="At any time",
    closed=("not_a_choice", "pass a spark you hold to another keeper, during a night (BC 7)"),
)

CHANCE = frozenset({"NightBegan", "LanternsDealt", "LanternDrawn", "LanternRaised", "DuskFell"})
"""Events with a random outcome or a revealed secret: a command holding one cannot be undone."""
PER_SEAT_SECRETS = {"LanternsDealt": "cards", "LanternDrawn": "card", "LanternLowered": "card"}
LOG_MARKS = {"NightBegan": "chapter", "DuskFell": "round", "WatchTaken": "turn"}


class Beacons(FlowGame):
    name = "beacons"
    rules = RULES
    title = "Beacons (test campaign)"
    summary = "Keepers light beacons on a 5×5 grid over a campaign of nights (a platform test game)."
    min_seats = 1
    max_seats = 4
    opening_event = "BeaconsBegan"
    template_root = str(TEMPLATES)
    options = (
        OptionSpec(
            "campaign",
            "choice",
            "campaign",
            "Length",
            choices=("single", "campaign"),
            choice_labels=("One night", "A campaign of nights"),
        ),
        OptionSpec(
            "nights",
            "int",
            2,
            "Nights",
            "how many nights the campaign lasts",
            minimum=2,
            maximum=3,
            depends_on=("campaign", ("campaign",)),
        ),
        OptionSpec(
            "colour",
            "per_seat",
            [],
            "Keeper colour",
            "each keeper carries a different colour",
            choices=COLOURS,
            choice_labels=COLOUR_NAMES,
            distinct=True,
            blank_label="a free colour",
        ),
    )

    # -- setup and the fold ------------------------------------------------------------------

    def event_types(self) -> dict[str, int]:
        return dict.fromkeys(RULES.appliers, 1)

    def initial_state(self) -> BeaconsState:
        return BeaconsState()

    def setup(self, options: dict[str, Any], seats: Sequence[SeatInfo], rng: random.Random) -> list[Event]:
        picks = list(options["colour"]) + [None] * (len(seats) - len(options["colour"]))
        free = [c for c in COLOURS if c not in picks]
        colours = [pick if pick is not None else free.pop(0) for pick in picks]
        nights = options["nights"] if options["campaign"] == "campaign" else 1
        began = Event(
            "BeaconsBegan", {"names": [s.name for s in seats], "colours": colours, "nights": nights}
        )
        state = self.evolve(self.initial_state(), began)
        ctx: Ctx[BeaconsState, None] = Ctx(RULES, state, rng, None)
        ctx.then([{"op": "begin_night", "night": 0}])
        ctx.run(schedule, check_night_won)
        return [began, *ctx.finish()]

    # -- the decision loop's hooks (the loop is the kernel's ``FlowGame``) ---------------------

    def command_ctx(self, state: BeaconsState, rng: random.Random) -> Ctx[BeaconsState, None]:
        return Ctx(RULES, state.clone(), rng, None)

    def schedule(self, ctx: Ctx[BeaconsState, None]) -> None:
        schedule(ctx)

    def step_check(self) -> Any:
        return check_night_won

    def choice_seat(self, state: BeaconsState, choice: Choice) -> Any:
        return choice.args.get("keeper")

    def window_seats(self, state: BeaconsState) -> range:
        return range(len(state.names))

    def prompt_title(self, state: BeaconsState, d: Decision, seat: Any) -> str:
        return PROMPT_TITLES[d.kind]

    def seat_name(self, state: BeaconsState, seat: Any) -> str:
        return state.names[seat] if isinstance(seat, int) else "the game master"

    def choice_target(self, state: BeaconsState, choice: Choice) -> str | None:
        """A move names the square it goes to, a light the square it lights."""
        if choice.type == "move":
            return f"square:{choice.args['to']}"
        if choice.type == "light":
            return f"square:{choice.args['square']}"
        return None

    def undoable(self, events: Sequence[Event]) -> bool:
        """Undo until chance: no die, no drawn or dealt card, no revealed card (BC 3/4)."""
        return not any(e.type in CHANCE for e in events)

    def bot_choice(self, state: BeaconsState, prompt: Prompt, rng: random.Random) -> Choice | None:
        """A simple keeper: light when it can, raise a lantern when it has a spark, rest
        when it has none, else anything but "back"; it never passes sparks."""
        if not prompt.required or not prompt.choices:
            return None
        for preferred in ("light", "raise", "ready", "take_watch", "rest", "draw"):
            found = [c for c in prompt.choices if c.type == preferred]
            if found:
                return rng.choice(found)
        return rng.choice([c for c in prompt.choices if c.type != "back"] or list(prompt.choices))

    # -- what each viewer sees --------------------------------------------------------------

    def view(self, state: BeaconsState, viewer: Viewer) -> dict[str, Any]:
        if not state.started:
            return {}
        keepers = []
        for seat, name in enumerate(state.names):
            keeper: dict[str, Any] = {
                "seat": seat,
                "name": name,
                "colour": state.colours[seat],
                "at": state.positions[seat] if state.night is not None else None,
                "sparks": state.sparks[seat] if state.sparks else 0,
                "cards": len(state.hands[seat]) if state.hands else 0,
            }
            if viewer.sees_seat(seat) and state.hands:
                keeper["hand"] = [{"card": c, "reach": card_reach(c)} for c in state.hands[seat]]
            keepers.append(keeper)
        d = state.decision
        return {
            "size": SIZE,
            "night": None if state.night is None else night_title(state.night),
            "nights": state.nights,
            "results": list(state.results),
            "lit": list(state.lit),
            "darkness": state.darkness,
            "darkness_to_lose": DARKNESS_TO_LOSE,
            "beacons_to_win": BEACONS_TO_WIN,
            "roll": state.last_roll,
            "deck": len(state.deck),
            "raised": state.raised,
            "keepers": keepers,
            "waiting": None if d is None else {"title": PROMPT_TITLES[d.kind], "seats": d.asked},
            "result": state.result,
        }

    def secrets(self, state: BeaconsState) -> list[Secret]:
        out = [
            Secret(card, frozenset({seat}))
            for seat, hand in enumerate(state.hands)
            for card in hand
            if card not in state.shown
        ]
        return out + [Secret(card, frozenset()) for card in state.deck]

    def event_view(self, event: Event, viewer: Viewer) -> Event | None:
        """A hand's cards only for its keeper (BC 1); the deck's order for nobody."""
        if event.type == "NightBegan" and not viewer.is_gm:
            return Event(event.type, {k: v for k, v in event.data.items() if k != "deck"}, event.v)
        hidden = PER_SEAT_SECRETS.get(event.type)
        if hidden is not None and not viewer.sees_seat(event.data["seat"]):
            data = {k: v for k, v in event.data.items() if k != hidden}
            if isinstance(event.data[hidden], list):
                data["count"] = len(event.data[hidden])
            return Event(event.type, data, event.v)
        return event

    def outcome(self, state: BeaconsState) -> Outcome | None:
        if state.result is None:
            return None
        winners = tuple(range(len(state.names))) if state.result["result"] == "win" else ()
        return Outcome(state.result["result"], state.result["reason"], winners)

    def chapters(self, state: BeaconsState) -> list[Chapter]:
        """Each night is a chapter, with its outcome once played (BC 5)."""
        return night_chapters(state.nights, state.results, state.night)

    def log_mark(self, event: Event) -> str:
        return LOG_MARKS.get(event.type, "")

    def describe(self, event: Event) -> str:
        d = event.data
        who = f"Keeper {d['seat'] + 1}" if isinstance(d.get("seat"), int) else ""
        match event.type:
            case "BeaconsBegan":
                return f"A campaign of {d['nights']} night(s) begins for {', '.join(d['names'])}."
            case "NightBegan":
                return f"{night_title(d['night'])} falls: the keepers take the corners."
            case "LanternsDealt":
                cards = d.get("cards")
                return (
                    f"{who} is dealt {', '.join(cards) if cards is not None else str(d['count']) + ' cards'}."
                )
            case "WatchTaken":
                return f"{who} keeps watch."
            case "KeeperMoved":
                return f"{who} moves to {d['to']}."
            case "LanternRaised":
                return f"{who} raises lantern {d['card']} (reach {d['reach']})."
            case "LanternLowered":
                return f"{who} lowers the lantern."
            case "BeaconLit":
                return f"{who} lights a beacon on {d['square']}."
            case "LanternDrawn":
                return f"{who} draws {d.get('card', 'a lantern card')}."
            case "KeeperRested":
                return f"{who} rests and gains a spark."
            case "KeeperWaited":
                return f"{who} waits."
            case "SparkPassed":
                return f"Keeper {d['from'] + 1} passes a spark to keeper {d['to'] + 1}."
            case "DuskFell":
                return f"Dusk: a {d['roll']} is rolled; the darkness is {d['darkness']}."
            case "NightEnded":
                return f"{night_title(d['night'])} is {'won' if d['result'] == 'win' else 'lost'}."
            case "KeeperReady":
                return f"Keeper {d['keeper'] + 1} is ready." if "keeper" in d else f"{who} is ready."
            case "CampaignEnded":
                return f"The campaign ends: {d['reason']}."
        return ""


PROMPT_TITLES = {
    "next_watch": "Who keeps the next watch?",
    "act": "Your watch",
    "light_square": "Light which square?",
    "ready": "Ready for the next night?",
}

BEACONS = Beacons()
