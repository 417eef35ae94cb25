"""Attack the Darkness (AtD): the Game object the platform talks to — options, setup, the
command check, prompts, views with hidden information, log lines, the bot, chapters."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import app.games.attack_the_darkness.rules  # noqa: F401  (registers every rule)
from app.games.attack_the_darkness.bot import bot_pick, strong
from app.games.attack_the_darkness.bot.worlds import determinize
from app.games.attack_the_darkness.content import CLASS_IDS, load
from app.games.attack_the_darkness.decisions import Act, Defend, GmMonster, MoveTo, PlaceTile
from app.games.attack_the_darkness.decks import builder, deck_problems, deckcode, sample_deck, seat_classes
from app.games.attack_the_darkness.describe import Names, describe_event, log_names
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.predict import page_extras
from app.games.attack_the_darkness.rules.campaign import check_end
from app.games.attack_the_darkness.rules.turn import schedule
from app.games.attack_the_darkness.state import State
from app.games.attack_the_darkness.targets import choice_target
from app.games.attack_the_darkness.view import secrets_of, title_of, view_of
from app.games.attack_the_darkness.waiting import slim_record
from app.kernel import (
    Choice,
    Event,
    OptionSpec,
    Outcome,
    Prompt,
    RuleError,
    SeatInfo,
    Secret,
    Viewer,
)
from app.kernel.flow import Decision, FlowGame
from app.kernel.types import GM_SEAT, Budget, Chapter

MODES = ("adventure", "tabletop", "arena")
DUNGEONS = ("random", "tavern_cellar", "sewer", "prison", "tower", "cave")
PER_SEAT_SECRETS = {"CardsDrawn": ("actions", "resources"), "AdvancementsDrawn": ("cards",)}
GM_PICK_DETAILS = ("card", "id", "cards", "name")
"""What a Tabletop pick's events say of the card, kept from the players until it is placed."""
LOG_MARKS = {
    "DungeonBegan": "chapter",
    "EncounterBegan": "chapter",
    "RoundBegan": "round",
    "TurnBegan": "turn",
}
CHANCE = frozenset(
    {
        "DeckShuffled",
        "CardsDrawn",
        "TilesDrawn",
        "DungeonCardRevealed",
        "AdvancementsDrawn",
        "TileFlipped",
        "InitiativeCut",
    }
)


class AttackTheDarkness(FlowGame):
    name = "attack_the_darkness"
    rules = RULES
    title = "Attack the Darkness"
    summary = (
        "Card-driven tactical fights on a grid of dungeon tiles: classes, action and resource decks, "
        "monsters with behaviours, dungeons and campaigns; Adventure, Tabletop and Arena."
    )
    engine_version = "1"
    min_seats = 1
    max_seats = 7
    opening_event = "AdventureBegan"
    options = (
        OptionSpec(
            "mode",
            "choice",
            "adventure",
            "Mode",
            "Adventure: the dungeon deck runs the monsters; Tabletop: a game master does; Arena: teams fight",
            choices=MODES,
            choice_labels=("Adventure", "Tabletop (game master)", "Arena (player versus player)"),
        ),
        OptionSpec(
            "dungeon",
            "choice",
            "tavern_cellar",
            "Dungeon",
            "a sample dungeon or a random one (AtD L437-466)",
            choices=DUNGEONS,
            choice_labels=(
                "A random dungeon",
                "The Tavern Cellar",
                "The Sewer",
                "The Prison",
                "The Tower",
                "The Cave",
            ),
            depends_on=("mode", ("adventure", "tabletop")),
        ),
        OptionSpec(
            "encounters",
            "int",
            4,
            "Encounters",
            "encounters in a random dungeon (standard: 4, AtD L237)",
            minimum=1,
            maximum=8,
            depends_on=("dungeon", ("random",)),
        ),
        OptionSpec(
            "bosses",
            "bool",
            False,
            "Bosses in the deck",
            "boss card sets in a random dungeon's deck: a high degree of difficulty (AtD L227)",
            depends_on=("dungeon", ("random",)),
        ),
        OptionSpec(
            "campaign",
            "int",
            1,
            "Dungeons in the campaign",
            "chain dungeons with the same characters: full heal between, "
            "advancements and equipment kept (AtD L238)",
            minimum=1,
            maximum=4,
            depends_on=("mode", ("adventure", "tabletop")),
        ),
        OptionSpec(
            "teams",
            "int",
            2,
            "Teams",
            "Arena: 2-4 teams of 1-3 players; seat k plays for team k mod teams (AtD L288)",
            minimum=2,
            maximum=4,
            depends_on=("mode", ("arena",)),
        ),
        OptionSpec(
            "class",
            "per_seat",
            [],
            "Class",
            "each player's class, with its pre-constructed deck (AtD L328-436)",
            choices=CLASS_IDS,
            choice_labels=tuple(c.title() for c in CLASS_IDS),
            blank_label="the next free class",
        ),
        OptionSpec(
            "deck",
            "per_seat_text",
            [],
            "Custom deck",
            "a seat's own decks for its class (AtD L298-327): the resource cards, a ';', then the "
            'action cards, each as a count and a card ("12 Hearty, 3 Momentous; 3 Hack!, …"); '
            "empty: the class's pre-constructed deck",
            blank_label="the pre-constructed deck",
            max_length=deckcode.MAX_LENGTH,
            editor="Build deck",
        ),
    )

    def event_types(self) -> dict[str, int]:
        return dict(RULES.versions)

    def initial_state(self) -> State:
        return State()

    def describe_options(self, options: dict[str, Any], seat_names: list[str]) -> list[str]:
        custom_decks(options, seat_names)
        mode = options.get("mode", "adventure")
        if mode == "arena":
            teams = options.get("teams", 2)
            if not teams <= len(seat_names) <= 3 * teams:
                raise RuleError("arena_teams", f"Arena needs {teams} teams of 1-3 players (AtD L288)")
            return [f"Arena: {teams} teams on The Arena", *arena_teams(teams, seat_names)]
        dungeon = options.get("dungeon", "tavern_cellar")
        labels = dict(zip(DUNGEONS, self.options[1].choice_labels, strict=True))
        return [f"{mode.title()}: {labels[dungeon]}"]

    def option_editor(
        self, name: str, options: dict[str, Any], seat: int, seat_names: list[str]
    ) -> dict[str, Any] | None:
        """The lobby's deck builder for a seat (issue 13; ``decks/builder.py``)."""
        return builder.editor(options, seat, seat_names) if name == "deck" else None

    def check_option(
        self, name: str, value: str, options: dict[str, Any], seat: int, seat_count: int
    ) -> dict[str, Any]:
        """Every rule a seat's deck text breaks, as the lobby's summary words it (AtD L298-327)."""
        if name != "deck":
            return super().check_option(name, value, options, seat, seat_count)
        return builder.check(options, seat, seat_count, value)

    # -- setup ----------------------------------------------------------------------------------

    def setup(self, options: dict[str, Any], seats: Sequence[SeatInfo], rng: random.Random) -> list[Event]:
        c = load()
        n = len(seats)
        mode = options.get("mode", "adventure")
        arena = mode == "arena"
        teams = options.get("teams", 2)
        if arena and not teams <= n <= 3 * teams:
            raise RuleError("arena_teams", f"Arena needs {teams} teams of 1-3 players: {n} seats (AtD L288)")
        classes = seat_classes(options, n)
        custom = custom_decks(options, [s.name for s in seats])
        decks = []
        for k, cls in enumerate(classes):
            res, act = custom.get(k) or sample_deck(c, cls, arena=arena)
            decks.append({"resources": res, "actions": act})
        dungeon = "random" if arena else options.get("dungeon", "tavern_cellar")
        dungeon_cards = [cid for cid in sorted(c.dungeon_copies) for _ in range(c.dungeon_copies[cid])]
        adv_cards = [cid for cid in sorted(c.advancement_copies) for _ in range(c.advancement_copies[cid])]
        if dungeon == "random":
            encounters = options.get("encounters", 4)
            removed: set[str] = (
                set() if options.get("bosses") else {m.id for m in c.monsters.values() if m.boss_set}
            )
            base = "Random dungeon"
        else:
            d = c.dungeons[dungeon]
            encounters = len(d.encounters)
            removed = {
                m.id for m in c.monsters.values() if m.id in d.removed or (m.boss_set or "") in d.removed
            }
            removed |= {x for x in d.removed if x in c.mysteries or x in c.equipment}
            base = d.name
        if arena:
            encounters = 1
        count = 1 if arena else options.get("campaign", 1)
        names = [base] if count == 1 else [f"{base} ({k + 1} of {count})" for k in range(count)]
        began = Event(
            "AdventureBegan",
            {
                "mode": mode,
                "names": [s.name for s in seats],
                "classes": classes,
                "teams": [k % teams for k in range(n)] if arena else [0] * n,
                "dungeon": dungeon,
                "dungeon_names": ["The Arena"] if arena else names,
                "encounters": encounters,
                "bosses": bool(options.get("bosses")),
                "decks": decks,
                "dungeon_cards": dungeon_cards,
                "advancement_cards": adv_cards,
                "removed": sorted(removed),
                "hp": [c.classes[x].hp for x in classes],
                "speed": [c.classes[x].speed for x in classes],
            },
        )
        state = self.evolve(self.initial_state(), began)
        ctx = Ctx(state, rng)
        for seat in range(n):
            for which, letter in (("actions", "a"), ("resources", "r")):
                pile = [k for k in state.cards if k.startswith(f"{seat}{letter}")]
                rng.shuffle(pile)
                ctx.emit("DeckShuffled", seat=seat, deck=which, order=pile, n=len(pile))
        pile = [f"d{i}" for i, cid in enumerate(dungeon_cards) if cid not in removed]
        rng.shuffle(pile)
        ctx.emit("DeckShuffled", deck="dungeon", order=pile, n=len(pile))
        adv = [f"v{i}" for i in range(len(adv_cards))]
        rng.shuffle(adv)
        ctx.emit("DeckShuffled", deck="advancement", order=adv, n=len(adv))
        if arena:
            ctx.then([{"op": "begin_encounter", "index": 0}])
        else:
            ctx.then([{"op": "begin_dungeon", "index": 0}])
        ctx.run(schedule, check_end)
        return [began, *ctx.finish()]

    # -- the decision loop's hooks (the loop is the kernel's ``FlowGame``) ---------------------

    def command_ctx(self, state: State, rng: random.Random) -> Ctx:
        return Ctx(state.clone(), rng)

    def schedule(self, ctx: Ctx) -> None:
        schedule(ctx)

    def step_check(self) -> Any:
        return check_end

    def choice_seat(self, state: State, choice: Choice) -> Any:
        """A question asking several seats at once (the Arena's cut, "ready") offers each
        seat the choices naming it."""
        return choice.args.get("seat")

    def window_seats(self, state: State) -> range:
        return range(len(state.names))

    def prompt_title(self, state: State, d: Decision, seat: Any) -> str:
        return title_of(state, d, seat)

    def seat_name(self, state: State, seat: Any) -> str:
        return "the game master" if seat == GM_SEAT else state.names[int(seat)]

    def choice_target(self, state: State, choice: Choice) -> str | None:
        return choice_target(state, choice)

    def undoable(self, events: Sequence[Event]) -> bool:
        return not any(e.type in CHANCE for e in events)

    def bot_choice(self, state: State, prompt: Prompt, rng: random.Random) -> Choice | None:
        if not prompt.required or not prompt.choices:
            return None
        return bot_pick(state, prompt, rng)

    def determinize(self, state: State, seat: Any, rng: random.Random) -> State:
        """What ``seat`` may not see redrawn: other hands, deck orders, face-down tiles
        (``bot/worlds.py``; facts file §20)."""
        return determinize(state, seat, rng)

    def value(self, state: State, seat: Any) -> float:
        """How the seat's side stands: the party (or the Arena team) against its foes, by
        HP and damage, and the encounters still to win (``bot/strong.py``)."""
        return strong.value(state, seat)

    def search_budget(self, state: State, prompt: Prompt) -> Budget | None:
        """The strong bot searches the questions that shape a fight (``bot/strong.py``)."""
        return strong.search_budget(state, prompt)

    # -- views ----------------------------------------------------------------------------------

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view_of(state, viewer)

    def page_extras(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """What each target the viewer is choosing will take (``predict.py``), kept out of
        ``view`` so the API's views and recorded games keep their shape."""
        return page_extras(state, viewer)

    def secrets(self, state: State) -> list[Secret]:
        return secrets_of(state)

    def event_view(self, event: Event, viewer: Viewer) -> Event | None:
        """Hands and draws for their owner; deck orders for nobody (the game master sees the
        dungeon deck, AtD L274); a pending question's details for the seats asked."""
        data = event.data
        if event.type == "DeckShuffled":
            owner = data.get("seat")
            if viewer.is_gm:
                return event
            mine = data.get("peek") and owner is not None and owner in viewer.seats
            return Event(
                event.type, {k: v for k, v in data.items() if k != "order" and (k != "top" or mine)}, event.v
            )
        if not viewer.is_gm and _unplaced_pick(event):
            # Tabletop: the players learn a picked monster card when its monsters are placed
            # (``MonsterPlaced``), not when the game master picks it (issue 13, AtD L274)
            return Event(event.type, {k: v for k, v in data.items() if k not in GM_PICK_DETAILS}, event.v)
        hidden = PER_SEAT_SECRETS.get(event.type)
        if hidden is not None and data["seat"] not in viewer.seats:
            return Event(event.type, {k: v for k, v in data.items() if k not in hidden}, event.v)
        if event.type == "Waiting" and (data.get("decision") or data.get("pending")):
            # the question waited on, and one an "any time" interruption set aside (its
            # record in a pending ``resume_decision`` step), are for the seats asked
            decision = slim_record(data.get("decision"), viewer)
            pending = [
                {**st, "decision": slim_record(st.get("decision"), viewer)}
                if st.get("op") == "resume_decision"
                else st
                for st in data.get("pending", ())
            ]
            if decision is not data.get("decision") or pending != list(data.get("pending", ())):
                slimmed = {**data, "decision": decision} | ({"pending": pending} if "pending" in data else {})
                return Event(event.type, slimmed, event.v)
        return event

    def guide_step(self, state: State, prompt: Prompt) -> str | None:
        """The step of a turn a required prompt belongs to, for a first game's guide (issue
        28; the ``[[guide]]`` entries of ``content/rules_reference.toml``): the pending
        decision's kind, told apart where one kind serves two steps for the seat asked — a
        fatigued action step (AtD L71), a push rather than a move (AtD L87), protecting an
        ally rather than oneself (AtD L158), the game master's map (AtD L273), a dominated
        monster's turn played by a player (AtD L75). None for the optional "any time" offer,
        whose title says it all."""
        d = state.decision
        if not prompt.required or d is None:
            return None
        seat = prompt.seat
        match d:
            case Act():
                return "fatigued" if state.chars[int(seat)].fatigued else "act"
            case MoveTo():
                return "push" if d.why == "push" else "move"
            case Defend():
                return "defend" if d.target == f"c{seat}" else "protect"
            case PlaceTile():
                return "gm_map" if seat == GM_SEAT else "place_tile"
            case GmMonster():
                return "gm_monster" if seat == GM_SEAT else "dominated"
        return d.kind

    def describe(self, event: Event, context: Any = None) -> str:
        return describe_event(event, context)

    def log_context(self, state: State) -> Names:
        """Lines name characters as "Ann's Champion" (issue 13): events carry only the seat."""
        return log_names(state)

    def log_mark(self, event: Event) -> str:
        return LOG_MARKS.get(event.type, "")

    def outcome(self, state: State) -> Outcome | None:
        if state.result is None:
            return None
        r = state.result
        return Outcome(r["result"], r["reason"], tuple(r.get("winners", ())))

    def chapters(self, state: State) -> list[Chapter]:
        """Each dungeon of a campaign is a chapter (AtD L238); a single dungeon is none."""
        if len(state.dungeon_names) <= 1:
            return []
        out = []
        for k, name in enumerate(state.dungeon_names):
            result = state.chapter_results[k] if k < len(state.chapter_results) else None
            outcome = (
                Outcome(result, f"{name}: {'cleared' if result == 'win' else 'lost'}") if result else None
            )
            current = (
                result is None and k == state.dungeon_index and not state.between and state.result is None
            )
            # The platform adds "(k of n)" itself; a campaign's stored names carry it already.
            title = name.removesuffix(f" ({k + 1} of {len(state.dungeon_names)})")
            out.append(Chapter(k, title, outcome, current))
        return out


def _unplaced_pick(event: Event) -> bool:
    """A game master's pick (``populating.resolve_gm_pick``): the card revealed to the line
    without a danger count (the Adventure's draws carry one, ``populating.reveal``) and its line
    entry with no monsters yet (placed one by one by ``MonsterPlaced``)."""
    data = event.data
    if event.type == "DungeonCardRevealed":
        return data.get("to") == "line" and data.get("source") == "deck" and "danger" not in data
    return event.type == "MonstersEntered" and not data.get("monsters")


def arena_teams(teams: int, seat_names: Sequence[str]) -> list[str]:
    """Who plays for whom, a line a team: seat k plays for team k mod ``teams`` (the
    ``teams`` option's rule, as ``setup`` deals them; AtD L288)."""
    return [
        f"Team {t + 1}: {', '.join(name for k, name in enumerate(seat_names) if k % teams == t)}"
        for t in range(teams)
    ]


def custom_decks(
    options: dict[str, Any], names: Sequence[str]
) -> dict[int, tuple[dict[str, int], dict[str, int]]]:
    """The seats' own decks (option ``deck``), each checked against every rule of deck
    building (``decks.deck_problems``, AtD L298-327, Arena bans AtD L297); one error lists
    every broken rule of every seat, a line each, so the lobby shows them all before the
    table is made."""
    c = load()
    texts = list(options.get("deck") or [])
    classes = seat_classes(options, len(names))
    arena = options.get("mode") == "arena"
    out: dict[int, tuple[dict[str, int], dict[str, int]]] = {}
    problems: list[str] = []
    for k, text in enumerate(texts[: len(names)]):
        if not text:
            continue
        who = f"{names[k]}'s {c.classes[classes[k]].name} deck"
        try:
            res, act = deckcode.parse(text)
        except RuleError as err:
            problems.append(f"{who}: {err.message}")
            continue
        broken = deck_problems(c, classes[k], res, act, arena=arena)
        problems += [f"{who}: {err.message}" for err in broken]
        out[k] = (res, act)
    if problems:
        raise RuleError("illegal_deck", "\n".join(problems))
    return out
