"""Lanterns: a small test-only game that exercises the platform (never in the product).

Players take turns: play a lantern card from a hidden hand (score its value, draw a
hidden replacement) or roll a die (score the roll). The first to reach the target wins;
when the deck and every hand are empty the game is a draw. The game master may gift a
point at any time. It has hidden hands, a hidden deck order, dice, a GM command, an
optional prompt, options of every kind, and 1–5 seats.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from app.kernel import (
    GM_SEAT,
    Choice,
    Command,
    Event,
    GameBase,
    OptionSpec,
    Outcome,
    Prompt,
    RuleError,
    SeatInfo,
    Secret,
    Unavailable,
    Viewer,
    register,
    roll,
    shuffled,
)
from app.kernel.reference import RulesReference
from app.kernel.reference import load as load_reference
from app.kernel.search import BotScenario


@dataclass(frozen=True)
class LanternsState:
    names: tuple[str, ...] = ()
    target: int = 0
    scores: tuple[int, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    deck: tuple[str, ...] = ()
    played: tuple[str, ...] = ()
    turn: int = 0
    dice: bool = True
    started: bool = False


def card_value(card: str) -> int:
    return int(card.rsplit("-", 1)[1])


class Lanterns(GameBase):
    name = "lanterns"
    title = "Lanterns (test game)"
    summary = "A tiny game used by the platform's tests."
    engine_version = "1"
    min_seats = 1
    max_seats = 5
    options = (
        OptionSpec("target", "int", 15, "Points to win", minimum=3, maximum=60),
        OptionSpec("hand_size", "int", 2, "Cards in hand", minimum=1, maximum=4),
        OptionSpec("deck", "choice", "short", "Deck", choices=("short", "long")),
        OptionSpec("dice", "bool", True, "Allow rolling a die"),
    )

    opening_event = "GameStarted"

    def event_types(self) -> dict[str, int]:
        types = ("GameStarted", "DeckShuffled", "CardsDealt", "CardDrawn", "CardPlayed")
        return dict.fromkeys((*types, "DieRolled", "GiftGiven", "TurnPassed"), 1)

    def initial_state(self) -> LanternsState:
        return LanternsState()

    def setup(self, options: dict[str, Any], seats: Sequence[SeatInfo], rng: random.Random) -> list[Event]:
        size = 12 if options["deck"] == "short" else 30
        deck = shuffled(rng, [f"lantern{n:02d}-{n % 6 + 1}" for n in range(size)])
        hand = options["hand_size"]
        events = [
            Event(
                "GameStarted",
                {"names": [s.name for s in seats], "target": options["target"], "dice": options["dice"]},
            ),
            Event("DeckShuffled", {"order": deck}),
        ]
        for seat in seats:
            dealt, deck = deck[:hand], deck[hand:]
            events.append(Event("CardsDealt", {"seat": seat.index, "cards": dealt}))
        return events

    def evolve(self, state: LanternsState, event: Event) -> LanternsState:
        d = event.data
        match event.type:
            case "GameStarted":
                n = len(d["names"])
                return replace(
                    state,
                    names=tuple(d["names"]),
                    target=d["target"],
                    scores=(0,) * n,
                    hands=((),) * n,
                    dice=d["dice"],
                    started=True,
                )
            case "DeckShuffled":
                return replace(state, deck=tuple(d["order"]))
            case "CardsDealt" | "CardDrawn":
                cards = tuple(d["cards"]) if "cards" in d else (d["card"],)
                hands = list(state.hands)
                hands[d["seat"]] = hands[d["seat"]] + cards
                return replace(state, hands=tuple(hands), deck=state.deck[len(cards) :])
            case "CardPlayed":
                hands = list(state.hands)
                hands[d["seat"]] = tuple(c for c in hands[d["seat"]] if c != d["card"])
                return self._score(
                    replace(state, hands=tuple(hands), played=state.played + (d["card"],)),
                    d["seat"],
                    d["value"],
                )
            case "DieRolled":
                return self._score(state, d["seat"], sum(d["faces"]))
            case "GiftGiven":
                return self._score(state, d["seat"], 1)
            case "TurnPassed":
                return replace(state, turn=d["to"])
        return state

    @staticmethod
    def _score(state: LanternsState, seat: int, points: int) -> LanternsState:
        scores = list(state.scores)
        scores[seat] += points
        return replace(state, scores=tuple(scores))

    # -- deciding ---------------------------------------------------------------------

    def refusal(self, state: LanternsState, seat: Any, command_type: str) -> RuleError | None:
        """Whose turn it is, for a command the kernel found among none of ``seat``'s choices."""
        if seat != GM_SEAT and state.names and seat != state.turn and command_type != "gift":
            return self._not_your_turn(state)
        if command_type == "pass":
            return cannot_pass()
        return None

    @staticmethod
    def _not_your_turn(state: LanternsState) -> RuleError:
        return RuleError(
            "not_your_turn",
            f"it is {state.names[state.turn]}'s turn, not yours (LR 2.1: turns go in seat order)",
        )

    def decide(
        self, state: LanternsState, command: Command, actor: Viewer, rng: random.Random
    ) -> list[Event]:
        if command.type == "gift":
            return self._gift(state, command)
        if command.seat == GM_SEAT:
            raise RuleError("not_a_gm_command", f"the game master cannot {command.type}")
        if command.seat != state.turn:
            raise self._not_your_turn(state)
        seat = command.seat
        nxt = Event("TurnPassed", {"to": (seat + 1) % len(state.names)})
        if command.type == "play":
            card = command.args.get("card")
            if set(command.args) != {"card"} or card not in state.hands[seat]:
                raise RuleError("not_in_hand", "you can only play a card from your hand")
            events = [Event("CardPlayed", {"seat": seat, "card": card, "value": card_value(card)})]
            if state.deck:
                events.append(Event("CardDrawn", {"seat": seat, "card": state.deck[0]}))
            return [*events, nxt]
        if command.type == "roll":
            if command.args:
                raise RuleError("bad_args", "roll takes no arguments")
            if not state.dice:
                raise RuleError("no_dice", "dice are off at this table (option 'Allow rolling a die')")
            return [Event("DieRolled", {"seat": seat, "faces": roll(rng, 1)}), nxt]
        if command.type == "pass":
            if state.hands[seat] or state.dice:
                raise cannot_pass()
            return [nxt]
        raise RuleError("unknown_command", f"Lanterns has no command {command.type!r}")

    def _gift(self, state: LanternsState, command: Command) -> list[Event]:
        if command.seat != GM_SEAT:
            raise RuleError("gm_only", "only the game master gives gifts")
        seat = command.args.get("seat")
        if set(command.args) != {"seat"} or not isinstance(seat, int) or not 0 <= seat < len(state.names):
            raise RuleError("bad_args", "gift needs a seat number")
        return [Event("GiftGiven", {"seat": seat})]

    # -- reading ----------------------------------------------------------------------

    def prompts(self, state: LanternsState) -> list[Prompt]:
        if not state.started or self.outcome(state):
            return []
        seat = state.turn
        hand = state.hands[seat]
        choices = [Choice("play", {"card": c}, f"Play {c}", f"score {card_value(c)}") for c in hand]
        unavailable = []
        if not hand:
            unavailable.append(Unavailable("play", "Play a card", "your hand is empty", "LR 2.1"))
        if state.dice:
            choices.append(Choice("roll", {}, "Roll a die", "score 1–6"))
        else:
            unavailable.append(
                Unavailable("roll", "Roll a die", "dice are off at this table", "table option")
            )
            if not hand:
                choices.append(Choice("pass", {}, "Pass", "nothing to play and no dice"))
        gifts = tuple(Choice("gift", {"seat": i}, f"Gift {n} a point") for i, n in enumerate(state.names))
        return [
            Prompt(seat, "Your turn: play a lantern or roll", tuple(choices), tuple(unavailable)),
            Prompt(GM_SEAT, "Any time: gift a point", gifts, required=False),
        ]

    def view(self, state: LanternsState, viewer: Viewer) -> dict[str, Any]:
        return {
            "players": [
                {
                    "name": n,
                    "score": state.scores[i],
                    "hand": list(state.hands[i]) if viewer.sees_seat(i) else len(state.hands[i]),
                }
                for i, n in enumerate(state.names)
            ],
            "turn": state.turn,
            "target": state.target,
            "deck": list(state.deck) if viewer.is_gm else len(state.deck),
            "played": list(state.played),
        }

    def outcome(self, state: LanternsState) -> Outcome | None:
        if not state.started:
            return None
        for i, score in enumerate(state.scores):
            if score >= state.target:
                return Outcome("win", f"{state.names[i]} reached {state.target} points", (i,))
        if not state.deck and not any(state.hands):
            return Outcome("draw", "every lantern has been played")
        return None

    def event_view(self, event: Event, viewer: Viewer) -> Event | None:
        if event.type == "DeckShuffled" and not viewer.is_gm:
            return Event(event.type, {"order": len(event.data["order"])}, event.v)
        if event.type == "CardsDealt" and not viewer.sees_seat(event.data["seat"]):
            return Event(event.type, {"seat": event.data["seat"], "cards": len(event.data["cards"])}, event.v)
        if event.type == "CardDrawn" and not viewer.sees_seat(event.data["seat"]):
            return Event(event.type, {"seat": event.data["seat"]}, event.v)
        return event

    def describe(self, event: Event) -> str:
        d = event.data
        match event.type:
            case "GameStarted":
                return f"A game to {d['target']} points begins."
            case "DeckShuffled":
                return "The deck is shuffled."
            case "CardsDealt":
                n = d["cards"] if isinstance(d["cards"], int) else len(d["cards"])
                return f"Seat {d['seat']} is dealt {n} cards."
            case "CardDrawn":
                return f"Seat {d['seat']} draws {d.get('card', 'a card')}."
            case "CardPlayed":
                return f"Seat {d['seat']} plays {d['card']} for {d['value']}."
            case "DieRolled":
                return f"Seat {d['seat']} rolls {d['faces'][0]}."
            case "GiftGiven":
                return f"The game master gifts seat {d['seat']} a point."
            case "TurnPassed":
                return f"Seat {d['to']} is up."
        return event.type

    def bot_choice(self, state: LanternsState, prompt: Prompt, rng: random.Random) -> Choice | None:
        """The test bot: the first choice of a required prompt."""
        return prompt.choices[0] if prompt.required and prompt.choices else None

    def determinize(self, state: LanternsState, seat: Any, rng: random.Random) -> LanternsState:
        """The other hands and the deck redrawn: the seat knows only its own hand, the
        played cards and how many each other hand and the deck hold."""
        unseen = sorted(card for i, hand in enumerate(state.hands) if i != seat for card in hand)
        unseen = shuffled(rng, sorted(unseen + list(state.deck)))
        hands = []
        for i, hand in enumerate(state.hands):
            if i == seat:
                hands.append(hand)
            else:
                hands.append(tuple(unseen[: len(hand)]))
                unseen = unseen[len(hand) :]
        return replace(state, hands=tuple(hands), deck=tuple(unseen))

    def rules_reference(self) -> RulesReference:
        return _RULES

    def guide_step(self, state: LanternsState, prompt: Prompt) -> str | None:
        return "turn" if prompt.required and prompt.seat == state.turn else None

    def secrets(self, state: LanternsState) -> list[Secret]:
        out = [Secret(list(hand), frozenset({i})) for i, hand in enumerate(state.hands) if hand]
        if state.deck:
            out.append(Secret(list(state.deck)))
        return out


_RULES = load_reference(Path(__file__).with_name("lanterns_rules.toml"))
LANTERNS = register(Lanterns())

BOT_SCENARIOS = [
    BotScenario("two", {"target": 12}, 2),
    BotScenario("three", {"target": 12, "dice": False}, 3),
]
"""What ``umbra bench bots lanterns`` plays (its test)."""


def cannot_pass() -> RuleError:
    return RuleError("cannot_pass", "you may pass only when you can neither play nor roll")
