"""How each event changes the state (the appliers of the fold). Events are facts in the past
tense; each carries what it changed, so replay never needs the rules that decided it.

The state an applier changes is the engine's successor (``State.fork``), which shares the
fallen heroes, and the living heroes' power and item records, with the state it came from:
an applier takes a hero for writing with ``hero_w`` (which copies a shared one first), a
power or an item with ``Hero.power_w`` / ``item_w`` (which put a private copy in its
place), and is registered ``copy_on_write=True``.
``tests/games/darkest_night/test_state_clone.py`` proves that no state a command started
from changes, for every event type, along seeded random games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.games.darkest_night.engine import RULES
from app.games.darkest_night.state import Blight, Deck, Hero, Item, Placed, Power, State

D = dict[str, Any]
Applier = Callable[[State, D], None]


def applies(*types: str, version: int = 1) -> Callable[[Applier], Applier]:
    """Register a copy-on-write applier: it changes a hero only through ``State.hero_w``."""
    return RULES.applies(*types, version=version, copy_on_write=True)


@applies("GameStarted")
def _game_started(s: State, d: D) -> None:
    s.started = True
    s.options = dict(d["options"])
    s.seat_names = list(d["seats"])
    s.necromancer_seat = d.get("necromancer_seat")
    s.roster = list(d["roster"])
    s.blights = {loc: [] for loc in d["locations"]}
    s.item_stock = dict(d["item_stock"])
    s.darkness = d["darkness"]
    s.necromancer = d["necromancer"]
    s.phase = "setup"


@applies("DeckShuffled")
def _deck_shuffled(s: State, d: D) -> None:
    deck = s.decks.setdefault(d["deck"], Deck())
    deck.cards = list(d["order"])
    if d.get("with_discards"):
        deck.discard = []


@applies("CardDrawn")
def _card_drawn(s: State, d: D) -> None:
    deck = s.decks[d["deck"]]
    deck.cards.remove(d["card"])


@applies("CardDiscarded")
def _card_discarded(s: State, d: D) -> None:
    s.decks[d["deck"]].discard.append(d["card"])


@applies("CardReturned")
def _card_returned(s: State, d: D) -> None:
    deck = s.decks[d["deck"]]
    if d.get("bottom"):
        deck.cards.append(d["card"])
    else:
        deck.cards.insert(0, d["card"])


@applies("HandDrawn")
def _hand_drawn(s: State, d: D) -> None:
    s.hand.extend(d["cards"])


@applies("HandCardPlayed")
def _hand_card_played(s: State, d: D) -> None:
    s.hand.remove(d["card"])


@applies("HandDiscarded")
def _hand_discarded(s: State, d: D) -> None:
    s.decks["map"].discard.extend(s.hand)
    s.hand = []


@applies("BlightPlaced")
def _blight_placed(s: State, d: D) -> None:
    s.blights[d["location"]].append(Blight(d["blight"], d["type"]))
    s.next_blight = max(s.next_blight, int(d["blight"].removeprefix("b")) + 1)


@applies("BlightDestroyed")
def _blight_destroyed(s: State, d: D) -> None:
    s.blights[d["location"]] = [b for b in s.blights[d["location"]] if b.id != d["blight"]]


@applies("RelicPlaced")
def _relic_placed(s: State, d: D) -> None:
    s.relics[d["location"]] = "undiscovered"


@applies("HeroJoined")
def _hero_joined(s: State, d: D) -> None:
    s.heroes[d["hero"]] = Hero(
        id=d["hero"],
        seat=d["seat"],
        grace=d["grace"],
        secrecy=d["secrecy"],
        default_grace=d["default_grace"],
        default_secrecy=d["default_secrecy"],
        location=d.get("location", "Monastery"),
        sparks=d.get("sparks", 0),
        turns_per_round=d.get("turns_per_round", 1),
        turns_left=0 if d.get("joins_next_round") else d.get("turns_per_round", 1),
        joins_next_round=bool(d.get("joins_next_round")),
        flags={"joined_round": d.get("round", 0), "slot": d.get("slot", 0)},
    )
    if d["hero"] in s.roster:
        s.roster.remove(d["hero"])


@applies("PowersChosen")
def _powers_chosen(s: State, d: D) -> None:
    hero = s.hero_w(d["hero"])
    hero.powers.extend(Power(p) for p in d["powers"])


@applies("SecondaryClassChosen")
def _secondary_class(s: State, d: D) -> None:
    s.hero_w(d["hero"]).flags["secondary"] = d["secondary"]


@applies("PowerDeckShuffled")
def _power_deck_shuffled(s: State, d: D) -> None:
    s.hero_w(d["hero"]).deck = list(d["order"])


@applies("PowerDrawn")
def _power_drawn(s: State, d: D) -> None:
    s.hero_w(d["hero"]).deck.remove(d["power"])


@applies("PowerGained")
def _power_gained(s: State, d: D) -> None:
    s.hero_w(d["hero"]).powers.append(Power(d["power"]))


@applies("PowerReturned")
def _power_returned(s: State, d: D) -> None:
    hero = s.hero_w(d["hero"])
    hero.powers = [p for p in hero.powers if p.id != d["power"]]
    if d.get("bottom", True):
        hero.deck.append(d["power"])
    else:
        hero.deck.insert(0, d["power"])


@applies("PowerPutBack")
def _power_put_back(s: State, d: D) -> None:
    deck = s.hero_w(d["hero"]).deck
    if d.get("bottom", True):
        deck.append(d["power"])
    else:
        deck.insert(0, d["power"])


@applies("PowerChanged")
def _power_changed(s: State, d: D) -> None:
    hero = s.hero_w(d["hero"])
    power = hero.power_w(d["power"])
    if power is None:  # an artifact carried as an item
        return
    for key in ("exhausted", "active", "target"):
        if key in d:
            setattr(power, key, d[key])
    if "data" in d:
        power.data = dict(d["data"])


@applies("ArtifactChanged")
def _artifact_changed(s: State, d: D) -> None:
    item = s.hero_w(d["hero"]).item_w(d["item"])
    if item is not None:
        item.data = dict(d["data"])


def _set_grace(h: Hero, v: Any) -> None:
    h.grace = v


def _set_secrecy(h: Hero, v: Any) -> None:
    h.secrecy = v


def _set_sparks(h: Hero, v: Any) -> None:
    h.sparks = v


def _set_default_grace(h: Hero, v: Any) -> None:
    h.default_grace = v


def _set_default_secrecy(h: Hero, v: Any) -> None:
    h.default_secrecy = v


def _set_lost_turn(h: Hero, v: Any) -> None:
    h.lost_turn = bool(v)


def _set_last_tactic(h: Hero, v: Any) -> None:
    h.last_tactic = v


def _set_last_action_power(h: Hero, v: Any) -> None:
    h.last_action_power = v


def _set_free_actions(h: Hero, v: Any) -> None:
    h.free_actions = list(v)


HERO_STATS: dict[str, Callable[[Hero, Any], None]] = {
    "grace": _set_grace,
    "secrecy": _set_secrecy,
    "sparks": _set_sparks,
    "default_grace": _set_default_grace,
    "default_secrecy": _set_default_secrecy,
    "lost_turn": _set_lost_turn,
    "last_tactic": _set_last_tactic,
    "last_action_power": _set_last_action_power,
    "free_actions": _set_free_actions,
}
"""The closed, published vocabulary of ``HeroChanged`` (v2): a stat's name in the log and
how it is applied. Grace, secrecy and sparks are the hero's resources (DN 4.1, 4.2), the
defaults what refreshes restore (DN 4.1), ``lost_turn`` a turn to be lost (DN 13.3),
``last_tactic``/``last_action_power`` the dual-class limits (DN 20.2.3), ``free_actions``
the powers used as free actions this turn (DN 8.0). A new stat is added here; a stat is
never renamed without an upcaster in ``game.py``."""

HERO_CHANGED_VERSION = 2
"""v1 (before the flow move) named the hero's Python attribute in ``field``; v2 names a
stat of ``HERO_STATS`` in ``stat`` (upcast in ``DarkestNight.upcast``)."""


@applies("HeroChanged", version=HERO_CHANGED_VERSION)
def _hero_changed(s: State, d: D) -> None:
    """A stat of a hero changed (one of ``HERO_STATS``)."""
    HERO_STATS[d["stat"]](s.hero_w(d["hero"]), d["to"])


@applies("HeroFlagged")
def _hero_flagged(s: State, d: D) -> None:
    hero = s.hero_w(d["hero"])
    if d.get("value") is None:
        hero.flags.pop(d["flag"], None)
    else:
        hero.flags[d["flag"]] = d["value"]


@applies("HeroMoved")
def _hero_moved(s: State, d: D) -> None:
    hero = s.hero_w(d["hero"])
    hero.location = d["to"]
    if d["from"] == "Monastery" and d["to"] != "Monastery":
        hero.left_monastery = True


@applies("HeroDied")
def _hero_died(s: State, d: D) -> None:
    hero = s.hero_w(d["hero"])
    hero.dead = True
    hero.turns_left = 0
    s.fallen.append(d["hero"])


@applies("NecromancerMoved")
def _necromancer_moved(s: State, d: D) -> None:
    s.necromancer = d["to"]


@applies("DarknessChanged")
def _darkness_changed(s: State, d: D) -> None:
    s.darkness = d["to"]


@applies("CluesChanged")
def _clues_changed(s: State, d: D) -> None:
    s.clues = d["to"]


@applies("KeysChanged")
def _keys_changed(s: State, d: D) -> None:
    s.keys = d["to"]


@applies("DarknessCardDrawn")
def _darkness_card_drawn(s: State, d: D) -> None:
    s.decks["darkness"].cards.remove(d["card"])
    s.darkness_cards.append(d["card"])
    s.darkness_thresholds_reached = d.get("thresholds", s.darkness_thresholds_reached)


@applies("DarknessCardChanged")
def _darkness_card_changed(s: State, d: D) -> None:
    s.darkness_active[d["card"]] = d["state"]


@applies("ItemGained")
def _item_gained(s: State, d: D) -> None:
    s.hero_w(d["hero"]).items.append(Item(d["item"], d["kind"], data=dict(d.get("data", {}))))
    if d.get("from_stock", True) and d["kind"] in s.item_stock:
        s.item_stock[d["kind"]] -= 1
    s.next_item = max(s.next_item, int(d["item"].removeprefix("i")) + 1)


@applies("ItemUsed")
def _item_used(s: State, d: D) -> None:
    """A one-use item is discarded to the stock; a lasting one stays, locked."""
    hero = s.hero_w(d["hero"])
    item = hero.item(d["item"])
    if item is None:
        return
    if d.get("discard", True):
        hero.items.remove(item)
        if item.kind in s.item_stock:
            s.item_stock[item.kind] += 1
    else:
        item = hero.item_w(d["item"])
        assert item is not None
        item.locked = True
        item.data.update(d.get("data", {}))


@applies("ItemLost")
def _item_lost(s: State, d: D) -> None:
    """An item taken away: a token back to the stock, an artifact to its discard pile; a
    key (``to_stock`` false, DN 20.5) to no stock."""
    hero = s.hero_w(d["hero"])
    item = hero.item(d["item"])
    if item is None:
        return
    hero.items.remove(item)
    if not d.get("to_stock", True):
        return
    if item.kind == "artifact":
        s.decks["artifact"].discard.append(item.data["card"])
    elif item.kind in s.item_stock:
        s.item_stock[item.kind] += 1


@applies("ItemGiven")
def _item_given(s: State, d: D) -> None:
    source = _holder(s, d["from"])
    item = next(i for i in source if i.id == d["item"])
    source.remove(item)
    _holder(s, d["to"]).append(item)


def _holder(s: State, who: str) -> list[Item]:
    if who == "monastery":
        return s.stored
    if who.startswith("orphaned:"):
        return s.orphaned.setdefault(who.removeprefix("orphaned:"), [])
    return s.hero_w(who).items


@applies("ItemsUnlocked")
def _items_unlocked(s: State, d: D) -> None:
    hero = s.hero_w(d["hero"])
    for index, item in enumerate(hero.items):
        if item.locked:  # a record shared with the state this one was forked from: copied first
            item = hero.items[index] = item.clone()
            item.locked = False


@applies("RelicRetrieved")
def _relic_retrieved(s: State, d: D) -> None:
    s.relics.pop(d["location"], None)
    s.relics_retrieved += 1
    s.hero_w(d["hero"]).items.append(Item(d["item"], "holy_relic"))
    s.next_item = max(s.next_item, int(d["item"].removeprefix("i")) + 1)


@applies("QuestPlaced", "MysteryPlaced")
def _placed(s: State, d: D) -> None:
    target = s.quests if "progress" in d else s.mysteries
    target.append(Placed(d["id"], d["card"], d["location"]))


@applies("QuestProgressed")
def _quest_progressed(s: State, d: D) -> None:
    quest = next(q for q in s.quests if q.id == d["id"])
    quest.progress = d["to"]


@applies("QuestTimeAdvanced")
def _quest_time(s: State, d: D) -> None:
    quest = next(q for q in s.quests if q.id == d["id"])
    quest.time = d["to"]


@applies("QuestCompleted", "QuestExpired")
def _quest_removed(s: State, d: D) -> None:
    s.quests = [q for q in s.quests if q.id != d["id"]]
    if d.get("to_pall"):
        s.pall.append(d["card"])
    else:
        s.decks["quest"].discard.append(d["card"])


@applies("PallReduced")
def _pall_reduced(s: State, d: D) -> None:
    s.pall.remove(d["card"])
    s.decks["quest"].discard.append(d["card"])


@applies("MysteryKeyed")
def _mystery_keyed(s: State, d: D) -> None:
    mystery = next(m for m in s.mysteries if m.id == d["id"])
    mystery.keys.append(d["key"])


@applies("MysteryRemoved")
def _mystery_removed(s: State, d: D) -> None:
    s.mysteries = [m for m in s.mysteries if m.id != d["id"]]
    s.decks["mystery"].discard.append(d["card"])


@applies("RoundStarted")
def _round_started(s: State, d: D) -> None:
    s.round = d["round"]
    s.phase = "heroes"
    s.current = None
    s.step = None
    for hero_id in list(s.heroes):
        hero = s.heroes[hero_id]
        if hero.dead:
            continue
        hero = s.hero_w(hero_id)
        if hero.joins_next_round and d["round"] > hero.flags.get("joined_round", 0):
            hero.joins_next_round = False
        hero.turns_left = 0 if hero.joins_next_round else hero.turns_per_round


@applies("TurnStarted")
def _turn_started(s: State, d: D) -> None:
    s.phase = "turn"
    s.current = d["hero"]
    s.step = "start"
    hero = s.hero_w(d["hero"])
    hero.left_monastery = hero.location != "Monastery"
    hero.free_actions = []


@applies("TurnStepReached")
def _turn_step(s: State, d: D) -> None:
    s.step = d["step"]


@applies("TurnSkipped", "TurnEnded")
def _turn_ended(s: State, d: D) -> None:
    hero = s.hero_w(d["hero"])
    hero.turns_left = max(0, hero.turns_left - 1)
    if d.get("lost_turn_used"):
        hero.lost_turn = False
    s.phase = "heroes"
    s.current = None
    s.step = None


@applies("NecromancerTurnStarted")
def _necro_turn(s: State, d: D) -> None:
    s.phase = "necromancer"
    s.current = None
    s.quest_symbol_checked = False


@applies("QuestSymbolChecked")
def _quest_symbol_checked(s: State, d: D) -> None:
    s.quest_symbol_checked = True


@applies("DiceRolled")
def _dice_rolled(s: State, d: D) -> None:
    s.last_roll = dict(d)


@applies("GameEnded")
def _game_ended(s: State, d: D) -> None:
    s.result = {"result": d["result"], "reason": d["reason"]}
    s.phase = "over"
