"""Events (DN 7.0), quests (DN 16.0), mysteries (DN 17.0), darkness cards (DN 9.0),
search results (DN 8.0), destroying blights (DN 11.3) and battling the Necromancer (DN 12.2)."""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.content import LOCATIONS, MONASTERY, load
from app.games.darkest_night.decisions import (
    Epiphany,
    QuestLocation,
    Sacrifice,
    SearchChoice,
    SearchFallback,
    SupplyCache,
)
from app.games.darkest_night.describe import result_name
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.blights import is_protected
from app.games.darkest_night.rules.common import (
    NECROMANCER_STRENGTH,
    blight_effect_active,
    discard,
    draw,
    end_game,
    gain,
    hero_name,
    reshuffle,
)
from app.games.darkest_night.rules.items import gain_keys
from app.games.darkest_night.rules.powers import default_grace, refresh_all
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


def quest_spec(ctx: Ctx, card: str) -> Any:
    return ctx.c.quests[card]


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


def darkness_rule(ctx: Ctx, rule: str) -> bool:
    """Is a darkness card with this lasting rule in play (``rule = "last_gasp"``)?"""
    return any(ctx.c.darkness[c].data.get("rule") == rule for c in ctx.s.darkness_cards)


# -- blights destroyed and the Necromancer (DN 11.3, 12.2, 18.1) -----------------------------


@step("destroy_blight", "blight", "hero", "why")
def destroy_blight(ctx: Ctx, st: Step) -> None:
    """Return the blight to the stock; with Last Gasp, its destroyer suffers its defense."""
    found = ctx.s.find_blight(st["blight"])
    if found is None:
        return
    location, blight = found
    ctx.emit(
        "BlightDestroyed",
        location=location,
        blight=blight.id,
        type=blight.type,
        hero=st.get("hero"),
        why=st.get("why", ""),
    )
    if st.get("hero") and darkness_rule(ctx, "last_gasp"):
        ctx.then(
            [dict(e) | {"why": "Last Gasp"} for e in ctx.c.blights[blight.type].defense], hero=st["hero"]
        )
    ctx.then(
        [{"op": "power_hook", "hook": "blight_destroyed", "hero": st.get("hero")}] if st.get("hero") else []
    )


@step("battle_necromancer", "attack", "hero")
def battle_necromancer(ctx: Ctx, st: Step) -> None:
    """Strength 7, awareness 6; failing is a wound; eluding has no effect (DN 12.2).
    Attacking him (the hero's action) costs 1 secrecy, succeed or fail, "in the same way
    as a blight" (DN 8.0); being attacked by him (DN 7.2) does not."""
    hero = ctx.s.heroes[st["hero"]]
    revealed = []
    if st.get("attack"):
        revealed = [{"op": "lose_secrecy", "n": 1, "why": "attacking the Necromancer (DN 8.0)"}]
    ctx.then(
        [
            {
                "op": "combat",
                "hero": hero.id,
                "vs": "necromancer",
                "allow": ["fight"] if st.get("attack") else ["fight", "elude"],
                "foe": {"name": "Necromancer", "strength": NECROMANCER_STRENGTH, "awareness": 6},
                "win": [{"op": "necromancer_beaten", "approach": "$approach"}, *revealed],
                "fail": [{"op": "wound", "why": "the Necromancer"}, *revealed],
                "why": "the Necromancer",
            }
        ]
    )


@step("necromancer_beaten", "approach", "hero")
def necromancer_beaten(ctx: Ctx, st: Step) -> None:
    """A won fight: a pall card goes first (DN 20.1.5), else he sacrifices a blight here of
    the hero's choice, else a hero with a Holy Relic slays him (DN 12.2, 18.1)."""
    hero = ctx.s.heroes[st["hero"]]
    if ctx.s.last_roll and ctx.s.last_roll.get("purpose") == "elude":
        return  # eluding him successfully has no effect
    if ctx.s.pall:
        ctx.emit("PallReduced", card=ctx.s.pall[0])
        return
    blights = ctx.s.blights.get(ctx.s.necromancer, [])
    if blights:
        choosable = [b for b in blights if not is_protected(ctx, ctx.s.necromancer, b.id)] or blights
        if len(choosable) == 1:
            ctx.then(
                [
                    {
                        "op": "destroy_blight",
                        "hero": hero.id,
                        "blight": choosable[0].id,
                        "why": "the Necromancer sacrificed it to escape (DN 12.2)",
                    }
                ]
            )
            return
        ctx.ask(Sacrifice(seat=hero.seat, hero=hero.id, blights=[b.id for b in choosable]))
        return
    if hero.relics():
        end_game(ctx, "win", f"{hero_name(ctx, hero.id)} slew the Necromancer with a Holy Relic (DN 18.1).")
    else:
        ctx.emit("NecromancerUnharmed", hero=hero.id, why="only a hero holding a Holy Relic can slay him")


def sacrifice_choices(s: State, d: Sacrifice) -> list[Choice]:
    out = []
    for blight_id in d.blights:
        found = s.find_blight(blight_id)
        if found:
            out.append(
                Choice(
                    "destroy",
                    {"blight": blight_id},
                    f"Destroy the {found[1].type}",
                    "the Necromancer sacrifices it to escape (DN 12.2)",
                )
            )
    return out


@decision(Sacrifice, sacrifice_choices)
def resolve_sacrifice(ctx: Ctx, d: Sacrifice, _t: str, args: dict[str, Any]) -> None:
    ctx.then(
        [
            {
                "op": "destroy_blight",
                "hero": d.hero,
                "blight": args["blight"],
                "why": "the Necromancer sacrificed it to escape (DN 12.2)",
            }
        ]
    )


@step("place_hidden_relic")
def place_hidden_relic(ctx: Ctx, _: Step) -> None:
    """Hidden Relics: a relic appears when the heroes could retrieve one (DN 20.4)."""
    free = [loc for loc in LOCATIONS if loc != MONASTERY and loc not in ctx.s.relics]
    if not free:
        return
    location = village_arrow(ctx, ctx.rng.randint(1, 6))
    if location in ctx.s.relics:
        location = ctx.rng.choice(free)
    ctx.emit("RelicPlaced", location=location)


# -- search results (DN 8.0) ---------------------------------------------------------------


@step("search_result", "faces", "hero", "kept", "successes")
def search_result(ctx: Ctx, st: Step) -> None:
    """A map card per success; cards whose result cannot be taken are replaced; after 3
    misses a power card or any green-backed item (DN 8.0)."""
    hero = ctx.s.heroes[st["hero"]]
    if st["successes"] == 0:
        ctx.emit("SearchFailed", hero=hero.id)
        return
    cards: list[str] = []
    misses = 0
    while len(cards) < st["successes"] and misses < 3:
        card = draw(ctx, "map", reason="searching")
        if card is None:
            break
        result = ctx.c.map_cards[card].search.get(hero.location)
        if result and result_available(ctx, hero, result):
            cards.append(card)
        else:
            ctx.emit("SearchResultUnavailable", card=card, result=result)
            discard(ctx, "map", card)
            misses += 1
    if not cards:
        if misses >= 3:
            ctx.ask(SearchFallback(seat=hero.seat, hero=hero.id))
        return
    if len(cards) == 1:
        take_search_result(ctx, hero, cards[0], [])
        return
    ctx.ask(SearchChoice(seat=hero.seat, hero=hero.id, cards=cards))


def result_available(ctx: Ctx, hero: Hero, result: str) -> bool:
    if result == "artifact":
        deck = ctx.s.decks["artifact"]
        return bool(deck.cards or deck.discard)
    if result in ctx.c.items:
        return ctx.s.item_stock.get(result, 0) > 0
    if result == "mystery":
        if ctx.s.options.get("no_mysteries"):
            return True  # the symbol is a key (DN 20.5)
        deck = ctx.s.decks["mystery"]
        return bool(deck.cards or deck.discard)
    if result in ("supply_cache", "epiphany"):
        return bool(hero.deck)
    return True


def search_choice_choices(s: State, d: SearchChoice) -> list[Choice]:
    content = load()
    hero = s.heroes[d.hero]
    return [
        Choice(
            "take_result",
            {"card": c},
            result_name(content.map_cards[c].search[hero.location]),
            "the other cards are discarded",
        )
        for c in d.cards
    ]


@decision(SearchChoice, search_choice_choices)
def resolve_search_choice(ctx: Ctx, d: SearchChoice, _t: str, args: dict[str, Any]) -> None:
    hero = ctx.s.heroes[d.hero]
    take_search_result(ctx, hero, args["card"], [c for c in d.cards if c != args["card"]])


def take_search_result(ctx: Ctx, hero: Hero, card: str, others: list[str]) -> None:
    result = ctx.c.map_cards[card].search[hero.location]
    ctx.emit("SearchSucceeded", hero=hero.id, card=card, result=result, location=hero.location)
    for other in [*others, card]:
        discard(ctx, "map", other)
    ctx.then(
        [
            {
                "op": "gain_item" if result in ctx.c.items and result != "artifact" else f"find_{result}",
                "kind": result,
                "hero": hero.id,
                "why": "searching",
            }
        ]
    )


def fallback_choices(s: State, d: SearchFallback) -> list[Choice]:
    content = load()
    hero = s.heroes[d.hero]
    out = []
    if hero.deck:
        out.append(Choice("fallback_power", {}, "Draw a power card", "three map cards gave nothing (DN 8.0)"))
    for kind, spec in content.items.items():
        if spec.back == "green" and s.item_stock.get(kind, 0) > 0:
            out.append(Choice("fallback_item", {"kind": kind}, f"Take a {spec.name}", spec.text))
    return out or [Choice("fallback_nothing", {}, "Receive nothing", "nothing is left to take (DN 8.0)")]


@decision(SearchFallback, fallback_choices)
def resolve_fallback(ctx: Ctx, d: SearchFallback, type_: str, args: dict[str, Any]) -> None:
    if type_ == "fallback_power":
        ctx.then([{"op": "draw_power", "hero": d.hero}])
    elif type_ == "fallback_item":
        ctx.then([{"op": "gain_item", "hero": d.hero, "kind": args["kind"], "why": "searching"}])


@step("find_mystery", "hero", "kind", "why")
def find_mystery(ctx: Ctx, st: Step) -> None:
    """A search result: draw a mystery card (DN 17.2); without mysteries, a key (DN 20.5)."""
    if ctx.s.options.get("no_mysteries"):
        gain_keys(ctx, st["hero"], 1, "a mystery symbol is a key (DN 20.5)")
        return
    ctx.then([{"op": "draw_mystery", "hero": st["hero"]}])


@step("find_forgotten_shrine", "hero", "kind", "power", "why")
def find_forgotten_shrine(ctx: Ctx, st: Step) -> None:
    """+2 grace with no limit (DN 4.1 example)."""
    gain(ctx, ctx.s.heroes[st["hero"]], "grace", 2, "a forgotten shrine (DN 4.1)")


@step("find_revelation", "hero", "kind", "power", "why")
def find_revelation(ctx: Ctx, st: Step) -> None:
    """A search result: 3 clues (and Revelation's permanent mysteries); without mysteries,
    a key (DN 20.5: a revelation symbol is a key, no dice)."""
    if ctx.s.options.get("no_mysteries"):
        gain_keys(ctx, st["hero"], 1, "a revelation symbol is a key (DN 20.5)")
        return
    ctx.then([{"op": "clues", "hero": st["hero"], "n": 3, "why": "a revelation"}])
    ctx.then([{"op": "permanent_hook", "hook": "revelation", "hero": st["hero"]}])


@step("find_inspiration", "hero")
def find_inspiration(ctx: Ctx, st: Step) -> None:
    """Inspiration (authored): a spark and your powers refreshed."""
    hero = ctx.s.heroes[st["hero"]]
    gain(ctx, hero, "sparks", 1, "inspiration")
    refresh_all(ctx, hero, "inspiration")


@step("find_stardust", "hero", "kind", "why")
def find_stardust(ctx: Ctx, st: Step) -> None:
    """Stardust (authored): +2 secrecy up to 7 and 1 grace up to default."""
    hero = ctx.s.heroes[st["hero"]]
    gain(ctx, hero, "secrecy", 2, "stardust", cap=7)
    gain(ctx, hero, "grace", 1, "stardust", cap=default_grace(ctx, hero))


@step("find_epiphany", "hero", "kind", "power", "why")
def find_epiphany(ctx: Ctx, st: Step) -> None:
    """Choose any card of your power deck, then shuffle it (first edition's wording)."""
    hero = ctx.s.heroes[st["hero"]]
    ctx.then([{"op": "permanent_hook", "hook": "epiphany", "hero": hero.id}])
    if hero.deck:
        ctx.ask(Epiphany(seat=hero.seat, hero=hero.id))


def epiphany_choices(s: State, d: Epiphany) -> list[Choice]:
    powers = load().powers()
    return [
        Choice("take_power", {"power": p}, powers[p].name, powers[p].text)
        for p in sorted(s.heroes[d.hero].deck)
    ]


@decision(Epiphany, epiphany_choices)
def resolve_epiphany(ctx: Ctx, d: Epiphany, _t: str, args: dict[str, Any]) -> None:
    take_power_from_deck(ctx, ctx.s.heroes[d.hero], args["power"], "an epiphany")


def take_power_from_deck(ctx: Ctx, hero: Hero, power: str, why: str) -> None:
    """Take a chosen card from the power deck, then shuffle the deck."""
    ctx.emit("PowerDrawn", hero=hero.id, power=power, why=why)
    ctx.emit("PowerGained", hero=hero.id, power=power)
    order = list(hero.deck)
    shuffle(ctx.rng, order)
    ctx.emit("PowerDeckShuffled", hero=hero.id, order=order)


@step("find_supply_cache", "hero", "kind", "power", "why")
def find_supply_cache(ctx: Ctx, st: Step) -> None:
    """Draw 2 powers, keep 1, the other to the bottom of the deck (Extended Example)."""
    hero = ctx.s.heroes[st["hero"]]
    drawn = hero.deck[:2]
    if not drawn:
        return  # an empty power deck gives nothing (DN 19.1)
    for power in drawn:
        ctx.emit("PowerDrawn", hero=hero.id, power=power, why="a supply cache", private_seat=hero.seat)
    if len(drawn) == 1:
        ctx.emit("PowerGained", hero=hero.id, power=drawn[0])
        return
    ctx.ask(SupplyCache(seat=hero.seat, hero=hero.id, drawn=drawn))


def supply_choices(s: State, d: SupplyCache) -> list[Choice]:
    powers = load().powers()
    return [Choice("keep_power", {"power": p}, f"Keep {powers[p].name}", powers[p].text) for p in d.drawn]


@decision(SupplyCache, supply_choices)
def resolve_supply(ctx: Ctx, d: SupplyCache, _t: str, args: dict[str, Any]) -> None:
    hero = ctx.s.heroes[d.hero]
    ctx.emit("PowerGained", hero=hero.id, power=args["power"])
    other = next(p for p in d.drawn if p != args["power"])
    ctx.emit("PowerPutBack", hero=hero.id, power=other, bottom=True, private_seat=hero.seat)


@step("draw_power", "hero", "power", "why")
def draw_power(ctx: Ctx, st: Step) -> None:
    """Draw the top card of the hero's power deck into play (DN 14.0)."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.deck:
        power = hero.deck[0]
        ctx.emit("PowerDrawn", hero=hero.id, power=power, why=st.get("why", "a card"))
        ctx.emit("PowerGained", hero=hero.id, power=power)


@step("find_artifact", "hero", "kind", "why")
def find_artifact(ctx: Ctx, st: Step) -> None:
    """A search result: draw an artifact card (DN 14.4)."""
    ctx.then([{"op": "draw_artifact", "hero": st["hero"]}])


@step("draw_artifact", "hero", "power", "why")
def draw_artifact(ctx: Ctx, st: Step) -> None:
    """An artifact card: a power that is also an item (DN 14.4)."""
    card = draw(ctx, "artifact", reason="an artifact")
    if card is None:
        return
    hero = ctx.s.heroes[st["hero"]]
    ctx.emit(
        "ItemGained",
        hero=hero.id,
        item=f"i{ctx.s.next_item}",
        kind="artifact",
        from_stock=False,
        data={"card": card, "exhausted": False, "active": False, "target": None},
    )


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
