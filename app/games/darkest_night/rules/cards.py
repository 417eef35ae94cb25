"""The card decks: events (DN 7.0), quests (DN 16.0), mysteries (DN 17.0) and darkness cards
(DN 9.0, 9.1); the Village's arrows that place quests and mysteries at random (DN 16.1,
17.2); quest and mystery actions (DN 16.2, 17.3)."""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.content import LOCATIONS
from app.games.darkest_night.decisions import QuestLocation
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.common import blight_effect_active, discard, draw, reshuffle
from app.games.darkest_night.state import Hero, State
from app.kernel.rng import shuffle
from app.kernel.types import Choice

RENEWAL = "renewal"


def card_id(card: str) -> str:
    """A deck entry's card (copies are ``dead_servant#2``)."""
    return card.split("#", 1)[0]


def village_arrow(ctx: Ctx, face: int) -> str:
    """A random location: the Village's arrow for the die (DN 16.1, 17.2)."""
    return ctx.c.locations["Village"].necromancer[face - 1]


# -- events (DN 7.0) ---------------------------------------------------------------------


@step("draw_event", "hero", "power", "single", "why")
def draw_event(ctx: Ctx, st: Step) -> None:
    """Draw and resolve an event; with an Omen here, draw 2 and resolve the higher fate."""
    hero = ctx.s.heroes[st["hero"]]
    count = (
        2
        if blight_effect_active(ctx, "omen_events", hero.location, hero=hero) and not st.get("single")
        else 1
    )
    drawn = []
    for _ in range(count):
        card = draw_one_event(ctx)
        if card is not None:
            drawn.append(card)
    if not drawn:
        return
    if len(drawn) == 2:
        fates = [ctx.c.events[card_id(c)].fate for c in drawn]
        keep = drawn[0] if fates[0] >= fates[1] else drawn[1]
        other = drawn[1] if keep == drawn[0] else drawn[0]
        ctx.emit("EventSetAside", hero=hero.id, card=card_id(other), why="Omen: the higher fate is resolved")
        discard(ctx, "event", other)
        drawn = [keep]
    card = drawn[0]
    spec = ctx.c.events[card_id(card)]
    ctx.emit("EventRevealed", hero=hero.id, card=spec.id, name=spec.name, fate=spec.fate, text=spec.text)
    ctx.then(
        [
            {"op": "darkness_card_hook", "hook": "event_drawn", "hero": hero.id},
            *[dict(e) | {"hero": hero.id} for e in spec.effects],
            {"op": "discard_event", "hero": hero.id, "card": card},
        ]
    )


def draw_one_event(ctx: Ctx) -> str | None:
    """Renewal: reshuffle the deck with every discard and draw again (DN 7.1)."""
    for _ in range(3):
        card = draw(ctx, "event", reason="an event")
        if card is None:
            return None
        if card_id(card) != RENEWAL:
            return card
        ctx.emit("RenewalDrawn")
        reshuffle(ctx, "event", extra=[card])
    return None


@step("discard_event", "card", "hero")
def discard_event(ctx: Ctx, st: Step) -> None:
    """The resolved event goes to the discard pile (DN 7.0)."""
    discard(ctx, "event", st["card"])


# -- quests (DN 16.0) --------------------------------------------------------------------


@step("draw_quest", "hero", "power", "why")
def draw_quest(ctx: Ctx, st: Step) -> None:
    """Draw a quest and roll for its location (DN 16.1)."""
    if ctx.s.options.get("no_quests"):
        return
    card = draw(ctx, "quest", reason="a quest")
    if card is None:
        return
    hero_id = st.get("hero")
    if hero_id is None:
        ctx.then(
            [{"op": "place_quest_card", "card": card, "location": village_arrow(ctx, ctx.rng.randint(1, 6))}]
        )
        return
    ctx.then(
        [
            {
                "op": "roll",
                "hero": hero_id,
                "purpose": "placement",
                "target": None,
                "base": 1,
                "then": {"op": "choose_quest_location", "card": card},
            }
        ]
    )


@step("choose_quest_location", "card", "faces", "hero", "kept", "successes")
def choose_quest_location(ctx: Ctx, st: Step) -> None:
    """With several dice, the placer chooses any one result (DN 16.1)."""
    places = sorted({village_arrow(ctx, f) for f in st["faces"]}, key=LOCATIONS.index)
    if len(places) == 1:
        ctx.then([{"op": "place_quest_card", "card": st["card"], "location": places[0]}])
        return
    hero = ctx.s.heroes[st["hero"]]
    ctx.ask(QuestLocation(seat=hero.seat, hero=hero.id, card=st["card"], places=places))


def quest_location_choices(s: State, d: QuestLocation) -> list[Choice]:
    return [Choice("place_quest", {"location": loc}, f"Place it in the {loc}") for loc in d.places]


@decision(QuestLocation, quest_location_choices)
def resolve_quest_location(ctx: Ctx, d: QuestLocation, _t: str, args: dict[str, Any]) -> None:
    ctx.then([{"op": "place_quest_card", "card": d.card, "location": args["location"]}])


@step("place_quest", "location", "why")
def place_quest(ctx: Ctx, st: Step) -> None:
    """A quest at a given location (Pall of Suffering, Increased Quests)."""
    card = draw(ctx, "quest", reason=st.get("why", "a quest"))
    if card is not None:
        ctx.then([{"op": "place_quest_card", "card": card, "location": st["location"]}])


@step("place_quest_card", "card", "location")
def place_quest_card(ctx: Ctx, st: Step) -> None:
    """Put a drawn quest on the map at a location (DN 16.1)."""
    spec = ctx.c.quests[st["card"]]
    quest_id = f"q{len(ctx.s.quests) + len(ctx.s.decks['quest'].discard) + ctx.s.round * 100}"
    while any(q.id == quest_id for q in ctx.s.quests):
        quest_id += "x"
    ctx.emit(
        "QuestPlaced",
        id=quest_id,
        card=spec.id,
        name=spec.name,
        location=st["location"],
        progress=0,
        needed=spec.data.get("progress", 1),
        time=spec.data.get("time", 5),
    )


@step("quest_timers")
def quest_timers(ctx: Ctx, _: Step) -> None:
    """One time marker on every quest; one that reaches its time expires (DN 16.3)."""
    for quest in list(ctx.s.quests):
        advance_quest(ctx, quest.id, 1)


def advance_quest(ctx: Ctx, quest_id: str, n: int) -> None:
    """Add ``n`` time markers; at the card's time the quest expires (DN 16.3)."""
    quest = next(q for q in ctx.s.quests if q.id == quest_id)
    to = quest.time + n
    ctx.emit("QuestTimeAdvanced", id=quest.id, to=to)
    if to >= int(ctx.c.quests[quest.card].data.get("time", 5)):
        ctx.then([{"op": "expire_quest", "id": quest.id}])


@step("expire_quest", "id")
def expire_quest(ctx: Ctx, st: Step) -> None:
    """Expired: discarded (or into the Necromancer's pall, DN 20.1.5) and its penalty."""
    quest = next((q for q in ctx.s.quests if q.id == st["id"]), None)
    if quest is None:
        return
    spec = ctx.c.quests[quest.card]
    to_pall = bool(ctx.s.options.get("pall_of_suffering"))
    ctx.emit(
        "QuestExpired", id=quest.id, card=quest.card, name=spec.name, location=quest.location, to_pall=to_pall
    )
    ctx.then([located(e, quest.location) for e in spec.data.get("expired", ())])


def located(effect: Any, location: str) -> Any:
    """Fill ``$location`` at every depth of an effect (nested win/fail/do lists too)."""
    if isinstance(effect, dict):
        return {k: located(v, location) for k, v in effect.items()}
    if isinstance(effect, list):
        return [located(v, location) for v in effect]
    return location if effect == "$location" else effect


@step("quest_progress", "hero", "n", "quest")
def quest_progress(ctx: Ctx, st: Step) -> None:
    """Add progress tokens; at the quest's number it is completed and the hero who added
    the last token takes the reward (DN 16.2); a completed quest may lift a pall card."""
    quest = next((q for q in ctx.s.quests if q.id == st["quest"]), None)
    if quest is None:
        return
    n = int(st.get("n", 1))
    if n <= 0:
        return
    spec = ctx.c.quests[quest.card]
    to = quest.progress + n
    ctx.emit("QuestProgressed", id=quest.id, to=to, by=n, hero=st.get("hero"))
    if to >= int(spec.data.get("progress", 1)):
        ctx.emit("QuestCompleted", id=quest.id, card=quest.card, name=spec.name, hero=st.get("hero"))
        steps = [located(e, quest.location) | {"hero": st["hero"]} for e in spec.data.get("completed", ())]
        steps.append({"op": "power_hook", "hook": "quest_completed", "hero": st["hero"]})
        if ctx.s.pall:
            steps.append({"op": "reduce_pall"})
        ctx.then(steps)


@step("reduce_pall")
def reduce_pall(ctx: Ctx, _: Step) -> None:
    """A completed quest lifts one card of the Necromancer's pall (DN 20.1.5)."""
    if ctx.s.pall:
        ctx.emit("PallReduced", card=ctx.s.pall[0])


@step("advance_quests", "hero", "mystery", "n", "power", "why")
def advance_quests(ctx: Ctx, st: Step) -> None:
    """Events that put extra time on quests (DN 16.3)."""
    for quest in list(ctx.s.quests):
        advance_quest(ctx, quest.id, int(st.get("n", 1)))


def placed_actions(ctx: Ctx, hero: Hero) -> list[Choice]:
    """Quest and mystery actions available at the hero's location (DN 16.2, 17.3)."""
    out = []
    for quest in ctx.s.quests:
        spec = ctx.c.quests[quest.card]
        if quest.location == hero.location and spec.data.get("action"):
            needed = int(spec.data.get("progress", 1))
            out.append(
                Choice(
                    "quest_action",
                    {"quest": quest.id},
                    f"Quest: {spec.name}",
                    f"{spec.data.get('action_text', spec.text)} ({quest.progress}/{needed})",
                )
            )
    for mystery in ctx.s.mysteries:
        spec = ctx.c.mysteries[mystery.card]
        if mystery.location == hero.location and spec.data.get("action"):
            out.append(
                Choice(
                    "mystery_action",
                    {"mystery": mystery.id},
                    f"Mystery: {spec.name}",
                    spec.data.get("action_text", spec.text),
                )
            )
    return out


def run_placed_action(ctx: Ctx, hero: Hero, args: dict[str, Any]) -> None:
    if "quest" in args:
        quest = next(q for q in ctx.s.quests if q.id == args["quest"])
        spec = ctx.c.quests[quest.card]
        steps = [
            located(e, quest.location) | {"hero": hero.id, "quest": quest.id} for e in spec.data["action"]
        ]
    else:
        mystery = next(m for m in ctx.s.mysteries if m.id == args["mystery"])
        spec = ctx.c.mysteries[mystery.card]
        steps = [
            located(e, mystery.location) | {"hero": hero.id, "mystery": mystery.id}
            for e in spec.data["action"]
        ]
    ctx.then(steps)


# -- mysteries (DN 17.0) -------------------------------------------------------------------


@step("draw_mystery", "hero", "power", "why")
def draw_mystery(ctx: Ctx, st: Step) -> None:
    """Gain its clues at once and place it (Random: the Village's arrows) (DN 17.2)."""
    card = draw(ctx, "mystery", reason="a mystery")
    if card is None:
        return
    spec = ctx.c.mysteries[card]
    location = spec.data.get("location", "Random")
    if location == "Random":
        location = village_arrow(ctx, ctx.rng.randint(1, 6))
    elif location == "here":
        location = ctx.s.heroes[st["hero"]].location
    ctx.emit("MysteryPlaced", id=f"m{card}", card=card, name=spec.name, location=location)
    steps: list[Step] = []
    if spec.data.get("clues"):
        steps.append({"op": "clues", "n": int(spec.data["clues"]), "why": spec.name})
    ctx.then(steps, hero=st.get("hero"))
    if not spec.data.get("action") and not spec.data.get("permanent") and not spec.data.get("keys"):
        ctx.emit("MysteryRemoved", id=f"m{card}", card=card)


@step("mystery_key", "do", "hero", "key", "mystery")
def mystery_key(ctx: Ctx, st: Step) -> None:
    """A keyed reward, once each; a mystery with keys and no permanent part leaves play when
    all are taken (DN 17.3). ``key`` is the reward's number on the card."""
    mystery = next((m for m in ctx.s.mysteries if m.id == st["mystery"]), None)
    if mystery is None or st["key"] in mystery.keys:
        return
    spec = ctx.c.mysteries[mystery.card]
    ctx.emit("MysteryKeyed", id=mystery.id, key=st["key"], hero=st.get("hero"))
    ctx.then(st.get("do", ()), hero=st.get("hero"))
    total = len(spec.data.get("keys", ()))
    if total and len(mystery.keys) >= total and not spec.data.get("permanent"):
        ctx.later([{"op": "remove_mystery", "id": mystery.id}])


@step("mystery_roll_keys", "faces", "hero", "kept", "mystery")
def mystery_roll_keys(ctx: Ctx, st: Step) -> None:
    """Rewards by the best die of a roll: ``keys = [{min, do}]`` in card order."""
    best = max(st.get("kept") or st.get("faces") or [0])
    mystery = next((m for m in ctx.s.mysteries if m.id == st["mystery"]), None)
    if mystery is None:
        return
    spec = ctx.c.mysteries[mystery.card]
    steps = []
    for index, key in enumerate(spec.data.get("keys", ())):
        if best >= int(key.get("min", 7)):
            steps.append(
                {
                    "op": "mystery_key",
                    "mystery": st["mystery"],
                    "key": index,
                    "do": key.get("do", ()),
                    "hero": st["hero"],
                }
            )
    ctx.then(steps)


@step("remove_mystery", "id")
def remove_mystery(ctx: Ctx, st: Step) -> None:
    """A mystery whose keys are all taken leaves play (DN 17.3)."""
    mystery = next((m for m in ctx.s.mysteries if m.id == st["id"]), None)
    if mystery is not None:
        ctx.emit("MysteryRemoved", id=mystery.id, card=mystery.card)


@step("permanent_hook", "hero", "hook")
def permanent_hook(ctx: Ctx, st: Step) -> None:
    """Permanent mystery effects that trigger on a moment (Contemplation: an epiphany in the
    Swamp gives 3 clues, DN 17.3). ``permanent = {hook, at?, do}``."""
    hero = ctx.s.heroes.get(st.get("hero") or "")
    steps: list[Step] = []
    for mystery in ctx.s.mysteries:
        permanent = ctx.c.mysteries[mystery.card].data.get("permanent")
        if not permanent or permanent.get("hook") != st["hook"]:
            continue
        if permanent.get("at", "here") == "here" and (hero is None or hero.location != mystery.location):
            continue
        steps += [dict(e) | ({"hero": hero.id} if hero else {}) for e in permanent.get("do", ())]
    ctx.then(steps)


# -- darkness cards (DN 9.0, 9.1) -------------------------------------------------------------


@step("draw_darkness_card", "setup", "thresholds")
def draw_darkness_card(ctx: Ctx, st: Step) -> None:
    """At each threshold a darkness card comes into play for the rest of the game; with five
    heroes one more at setup, never Eclipse (DN 20.2.1)."""
    deck = ctx.s.decks["darkness"]
    if not deck.cards:
        return
    card = deck.cards[0]
    if st.get("setup") and card == "eclipse" and len(deck.cards) > 1:
        # Draw another instead, then shuffle Eclipse back into the deck (DN 20.2.1).
        card = deck.cards[1]
        rest = [c for c in deck.cards if c != card]
        shuffle(ctx.rng, rest)
        ctx.emit("DeckShuffled", deck="darkness", order=[card, *rest])
    spec = ctx.c.darkness[card]
    ctx.emit(
        "DarknessCardDrawn",
        card=card,
        name=spec.name,
        text=spec.text,
        thresholds=st.get("thresholds", ctx.s.darkness_thresholds_reached),
    )
    ctx.then([dict(e) for e in spec.data.get("on_draw", ())])


@step("darkness_card_hook", "hero", "hook")
def darkness_card_hook(ctx: Ctx, st: Step) -> None:
    """Darkness cards in play whose effect happens at this moment (``hooks.<name>``)."""
    steps: list[Step] = []
    for card in ctx.s.darkness_cards:
        hooks = ctx.c.darkness[card].data.get("hooks", {})
        steps += [
            dict(e) | {k: v for k, v in st.items() if k not in ("op", "hook")}
            for e in hooks.get(st["hook"], ())
        ]
    ctx.then(steps)
