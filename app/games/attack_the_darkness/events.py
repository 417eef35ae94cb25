"""The fold: how each Attack the Darkness event changes the state. Events are domain facts
(``CardsDrawn``, ``Damaged``…); positions are ``[x, y]`` lists, as JSON stores them, and
squares (tuples) in the state. Each applier builds or changes the typed records of
``state.py`` from the event's data."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.engine import RULES
from app.games.attack_the_darkness.state import (
    MONSTER_STATUSES,
    Character,
    InPlay,
    Monster,
    Penalty,
    Play,
    State,
    Tile,
)

applies = RULES.applies


def _who(s: State, who: str) -> Character | Monster:
    return s.chars[int(who[1:])] if who.startswith("c") else s.monsters[who]


@applies("AdventureBegan")
def _began(s: State, d: dict[str, Any]) -> None:
    s.mode, s.names, s.classes, s.teams = d["mode"], list(d["names"]), list(d["classes"]), list(d["teams"])
    s.dungeon, s.encounters, s.bosses = d["dungeon"], d["encounters"], d["bosses"]
    s.dungeon_names = list(d["dungeon_names"])
    s.order = list(range(len(s.names)))
    s.cards = CardIndex(instances(d["decks"], d["dungeon_cards"], d["advancement_cards"]))
    s.chars = [
        Character(cls, d["hp"][seat], d["hp"][seat], d["speed"][seat]) for seat, cls in enumerate(s.classes)
    ]


class CardIndex(dict[str, str]):
    """Instance → card id; a renamed instance (``3r10.2``, see ``drawing.bump``) is the card
    of its base name. Never changed after setup, so copies of the state share it."""

    def __missing__(self, key: str) -> str:
        base, dot, _ = key.partition(".")
        if not dot:
            raise KeyError(key)
        return self[base]


def instances(decks: list[dict[str, Any]], dungeon: list[str], advancements: list[str]) -> dict[str, str]:
    """Name every card instance from the public lists: seat 0's action cards, sorted by id
    and counted out, are ``0a0``, ``0a1``…; dungeon cards ``d0``…; advancements ``v0``…"""
    out: dict[str, str] = {}
    for seat, deck in enumerate(decks):
        for kind, letter in (("actions", "a"), ("resources", "r")):
            k = 0
            for card in sorted(deck[kind]):
                for _ in range(deck[kind][card]):
                    out[f"{seat}{letter}{k}"] = card
                    k += 1
    out |= {f"d{i}": card for i, card in enumerate(dungeon)}
    out |= {f"v{i}": card for i, card in enumerate(advancements)}
    return out


@applies("DeckShuffled")
def _shuffled(s: State, d: dict[str, Any]) -> None:
    """A player's deck, the dungeon deck or the advancement deck takes a new order; for a
    reshuffle the discards join it (AtD L71, L282)."""
    which = d["deck"]
    if which == "dungeon":
        s.dungeon_deck, s.dungeon_discard, s.known_bottom = list(d["order"]), [], []
    elif which == "advancement":
        s.adv_deck = list(d["order"])
    else:
        ch = s.chars[d["seat"]]
        key = f"{d['seat']}:{which}"
        if d.get("peek"):
            s.peeked[key] = list(d["top"])
        elif which == "actions":
            ch.disc_a = []
            s.peeked.pop(key, None)
        else:
            ch.disc_r = []
            s.peeked.pop(key, None)
        if which == "actions":
            ch.actions = list(d["order"])
        else:
            ch.resources = list(d["order"])


@applies("CardsDrawn")
def _drawn(s: State, d: dict[str, Any]) -> None:
    ch = s.chars[d["seat"]]
    n_a, n_r = d.get("n_actions", 0), d.get("n_resources", 0)
    ch.hand_a += ch.actions[:n_a]
    ch.actions = ch.actions[n_a:]
    ch.hand_r += ch.resources[:n_r]
    ch.resources = ch.resources[n_r:]


@applies("Fatigued")
def _fatigued(s: State, d: dict[str, Any]) -> None:
    ch = s.chars[d["seat"]]
    _discard_everything(s, ch)
    ch.fatigued = True


@applies("FatigueEnded")
def _rested(s: State, d: dict[str, Any]) -> None:
    s.chars[d["seat"]].fatigued = False


def _discard_everything(s: State, ch: Character) -> None:
    """Hand and cards in play go to the discards; class, advancements, equipment stay (AtD L69)."""
    ch.disc_a += ch.hand_a
    ch.disc_r += ch.hand_r
    ch.hand_a, ch.hand_r = [], []
    for entry in ch.in_play:
        ch.disc_a.append(entry.card)
    ch.in_play = []


@applies("EncounterBegan")
def _encounter(s: State, d: dict[str, Any]) -> None:
    s.encounter, s.danger, s.round, s.turn = d["encounter"], 0, 0, None
    s.tiles, s.pool, s.monsters, s.line, s.line_cards = [], [], {}, [], {}
    s.in_encounter, s.between = True, False
    s.arena_walls = [(w[0], w[1]) for w in d.get("walls", [])]
    for ch in s.chars:
        ch.pos, ch.statuses, ch.penalties = None, {}, {}
        ch.used = {k: v for k, v in ch.used.items() if k == "dungeon"}


@applies("TilesDrawn")
def _tiles_drawn(s: State, d: dict[str, Any]) -> None:
    n = d["n"]
    s.pool, s.dungeon_deck = s.dungeon_deck[:n], s.dungeon_deck[n:]


@applies("TilePlaced")
def _tile(s: State, d: dict[str, Any]) -> None:
    card = None
    if not d["stairs"]:
        card = s.pool.pop(0)
    s.tiles.append(Tile(d["x"], d["y"], d["o"], d["stairs"], card))


@applies("TokenPlaced")
def _token(s: State, d: dict[str, Any]) -> None:
    x, y = d["square"]
    s.chars[d["seat"]].pos = (x, y)


@applies("DangerSet")
def _danger(s: State, d: dict[str, Any]) -> None:
    s.danger = d["danger"]
    s.revealed = 0


@applies("DungeonCardRevealed")
def _revealed(s: State, d: dict[str, Any]) -> None:
    """The top card is revealed (AtD L254-257): ``to`` says where it goes."""
    card = d["card"]
    source = d.get("source", "deck")
    s.revealed += d.get("danger", 0)
    if source == "deck":
        s.dungeon_deck.remove(card)
    elif source == "seed":
        s.seed.remove(card)
    elif source == "reserved":
        s.reserved.remove(card)
    to = d["to"]
    if to == "discard":
        s.dungeon_discard.append(card)
    elif to == "set_aside":
        s.set_aside.append(card)
    elif to == "seed":
        s.seed.append(card)
    elif to == "kept":
        pass  # equipment kept: ``EquipmentKept`` follows


@applies("MonstersEntered")
def _entered(s: State, d: dict[str, Any]) -> None:
    """A monster card (or a completed boss set) joins the line at its left end; its set of
    monsters is placed (AtD L255-260, L270)."""
    entry = d["entry"]
    cards = list(d["cards"])
    for c in cards:
        if c in s.set_aside:
            s.set_aside.remove(c)
    s.line_cards[entry] = cards
    at = d.get("at_left_of")
    if at is not None and at in s.line:
        s.line.insert(s.line.index(at), entry)
    else:
        s.line.insert(0, entry)
    for m in d["monsters"]:
        _add_monster(s, d["card"], entry, m)


@applies("MonsterPlaced")
def _placed(s: State, d: dict[str, Any]) -> None:
    """Tabletop: the game master put one monster of a set in the line on its square."""
    _add_monster(s, d["card"], d["entry"], d)


def _add_monster(s: State, card: str, entry: str, m: dict[str, Any]) -> None:
    x, y = m["square"]
    s.monsters[m["id"]] = Monster(card, entry, m["hp"], (x, y))
    s.monster_seq = max(s.monster_seq, int(m["id"][1:]))
    s.monster_cards[m["id"]] = card


@applies("BossCardsReturned")
def _boss_back(s: State, d: dict[str, Any]) -> None:
    """Partial boss sets go to the bottom of the dungeon deck (AtD L225)."""
    s.dungeon_deck += s.set_aside
    s.known_bottom += s.set_aside
    s.set_aside = []


@applies("SeedSpent")
def _seed_spent(s: State, d: dict[str, Any]) -> None:
    s.revealed += d.get("danger", 0)
    s.seed_danger = 0


@applies("SeedAdded")
def _seed_added(s: State, d: dict[str, Any]) -> None:
    s.seed_danger += d["danger"]


@applies("RoundBegan")
def _round(s: State, d: dict[str, Any]) -> None:
    s.round = d["round"]
    for m in s.monsters.values():
        m.defended = 0
    for ch in s.chars:
        ch.used = {k: v for k, v in ch.used.items() if not k.startswith("round:")}


@applies("TurnBegan")
def _turn(s: State, d: dict[str, Any]) -> None:
    s.turn = d["seat"]
    s.chars[d["seat"]].speed_used = False
    s.leftover = {}


@applies("TurnEnded")
def _turn_end(s: State, d: dict[str, Any]) -> None:
    s.turn = None
    s.leftover = {}


@applies("HandDiscarded")
def _hand_discarded(s: State, d: dict[str, Any]) -> None:
    ch = s.chars[d["seat"]]
    ch.disc_a += ch.hand_a
    ch.disc_r += ch.hand_r
    ch.hand_a, ch.hand_r = [], []


@applies("CardsDiscarded")
def _discarded(s: State, d: dict[str, Any]) -> None:
    ch = s.chars[d["seat"]]
    for c in d["cards"]:
        if c in ch.hand_a:
            ch.hand_a.remove(c)
            ch.disc_a.append(c)
        elif c in ch.hand_r:
            ch.hand_r.remove(c)
            ch.disc_r.append(c)


@applies("Moved")
def _moved(s: State, d: dict[str, Any]) -> None:
    x, y = d["to"]
    _who(s, d["who"]).pos = (x, y)
    if d["why"] == "speed":
        s.chars[int(d["who"][1:])].speed_used = True


@applies("CardPlayed")
def _played(s: State, d: dict[str, Any]) -> None:
    ch = s.chars[d["seat"]]
    ch.hand_a.remove(d["card"])
    for r in d["rcs"]:
        ch.hand_r.remove(r)
    s.leftover = {str(d["seat"]): d["leftover"]} if d["leftover"] else {}
    if s.play is not None:
        s.suspended.append(s.play)
    s.play = Play(d["seat"], d["card"], list(d["rcs"]), d["x"], d["context"], protect=d.get("protect"))


@applies("EquipmentUsed")
def _equip_used(s: State, d: dict[str, Any]) -> None:
    s.chars[d["seat"]].used[d["key"]] = True
    if s.play is not None:
        s.suspended.append(s.play)
    s.play = Play(d["seat"], None, [], 0, "turn", equipment=d["item"])


@applies("EquipmentAdded")
def _equip_added(s: State, d: dict[str, Any]) -> None:
    """Equipment added to the card being played as a modifier (AtD L205, L208)."""
    s.chars[d["seat"]].used[d["key"]] = True
    if s.play is not None:
        s.play.mods = [*s.play.mods, d["item"]]


@applies("AbilityUsed")
def _ability(s: State, d: dict[str, Any]) -> None:
    s.chars[d["seat"]].used[d["key"]] = True


@applies("PlayFinished")
def _finished(s: State, d: dict[str, Any]) -> None:
    """The AC and its RCs are discarded, the AC kept in play while it has a duration
    (AtD L168-170; facts file §5: a duration card's RCs go at once)."""
    play = s.play
    ch = s.chars[d["seat"]]
    card = play.card if play is not None else None
    if play is not None:
        ch.disc_r += play.rcs
    if card is not None:
        if d.get("until"):
            ch.in_play.append(InPlay(card, d["until"], d.get("on")))
        else:
            ch.disc_a.append(card)
    s.play = s.suspended.pop() if s.suspended else None


@applies("Damaged")
def _damaged(s: State, d: dict[str, Any]) -> None:
    if d["who"].startswith("c"):
        s.chars[int(d["who"][1:])].hp = d["hp"]
        s.guard.pop(d["who"], None)
    else:
        m = s.monsters[d["who"]]
        m.hp = d["hp"]
        if d.get("defended"):
            m.defended += 1


@applies("Healed")
def _healed(s: State, d: dict[str, Any]) -> None:
    _who(s, d["who"]).hp = d["hp"]


@applies("KnockedOut")
def _ko(s: State, d: dict[str, Any]) -> None:
    """0 HP: unconscious — hand and cards in play discarded (AtD L69)."""
    _discard_everything(s, s.chars[d["seat"]])


@applies("MonsterDied")
def _died(s: State, d: dict[str, Any]) -> None:
    """A monster at 0 HP is removed (AtD L72); cards in play on it are discarded."""
    s.monsters.pop(d["id"], None)
    for entry, cards in list(s.line_cards.items()):
        if not any(m.entry == entry for m in s.monsters.values()):
            s.line.remove(entry)
            s.dungeon_discard += [c for c in cards if c.startswith("d")]
            del s.line_cards[entry]
    for ch in s.chars:
        kept = [e for e in ch.in_play if e.on != d["id"]]
        ch.disc_a += [e.card for e in ch.in_play if e.on == d["id"]]
        ch.in_play = kept


@applies("StatusSet")
def _status(s: State, d: dict[str, Any]) -> None:
    if d["who"].startswith("c"):
        s.chars[int(d["who"][1:])].statuses[d["status"]] = d["until"]
    else:
        m = s.monsters[d["who"]]
        status = d["status"]
        if status not in MONSTER_STATUSES:
            raise KeyError(status)
        setattr(m, status, d["until"])
        if status == "dominated":
            m.dominator = d.get("by")
    if s.play is not None and s.play.card and s.play.seat == d.get("by"):
        s.play.durations.append((d["until"], d["who"]))  # the card stays in play (AtD L168-170)


@applies("PenaltySet")
def _penalty(s: State, d: dict[str, Any]) -> None:
    """A penalty to saves, movement or damage: until a round ends, or (Arena) for the next
    ``left`` saves, moves or attacks (AtD L295)."""
    target = _who(s, d["who"])
    target.penalties = {**target.penalties, d["stat"]: Penalty(d["n"], d["until"], d["left"])}
    if d["until"] is not None and s.play is not None and s.play.card and s.play.seat == d.get("by"):
        s.play.durations.append((d["until"], d["who"]))  # the card stays in play (AtD L168-170)


@applies("PenaltyUsed")
def _penalty_used(s: State, d: dict[str, Any]) -> None:
    target = _who(s, d["who"])
    penalties = dict(target.penalties)
    entry = penalties.get(d["stat"])
    if entry is not None and entry.left is not None:
        if entry.left > 1:
            penalties[d["stat"]] = Penalty(entry.n, entry.until, entry.left - 1)
        else:
            del penalties[d["stat"]]
    target.penalties = penalties
    if d.get("in_play") and s.play is not None:
        s.play.damage_penalty = d["in_play"]


@applies("Guarded")
def _guarded(s: State, d: dict[str, Any]) -> None:
    s.guard[d["who"]] = s.guard.get(d["who"], 0) + d["save"]


@applies("InPlayExpired")
def _expired(s: State, d: dict[str, Any]) -> None:
    ch = s.chars[d["seat"]]
    ch.disc_a += [e.card for e in ch.in_play if e.card in d["cards"]]
    ch.in_play = [e for e in ch.in_play if e.card not in d["cards"]]


@applies("EncounterEnded")
def _encounter_end(s: State, d: dict[str, Any]) -> None:
    s.in_encounter, s.turn, s.play = False, None, None
    s.guard, s.leftover = {}, {}
    if d["result"] == "win":
        s.successes += 1
    s.tiles_next = d["tiles_next"]
    for ch in s.chars:
        ch.disc_a += [e.card for e in ch.in_play]
        ch.in_play, ch.statuses = [], {}
    s.dungeon_discard += [c for cards in s.line_cards.values() for c in cards if c.startswith("d")]
    s.monsters, s.line, s.line_cards = {}, [], {}


@applies("TileFlipped")
def _flipped(s: State, d: dict[str, Any]) -> None:
    s.tiles[d["tile"]].flipped = True


@applies("EquipmentKept")
def _kept(s: State, d: dict[str, Any]) -> None:
    ch = s.chars[d["seat"]]
    for item in d.get("dropped", []):
        ch.equipment.remove(item)
        s.dungeon_discard.append(item)
    ch.equipment.append(d["card"])


@applies("MapCleared")
def _map_cleared(s: State, d: dict[str, Any]) -> None:
    """Map tiles go to the dungeon discard once the room is cleared (facts file §12)."""
    kept = {e for ch in s.chars for e in ch.equipment}
    s.dungeon_discard += [t.card for t in s.tiles if t.card is not None and t.card not in kept]
    s.tiles = []


@applies("DecksRestored")
def _restored(s: State, d: dict[str, Any]) -> None:
    ch = s.chars[d["seat"]]
    ch.actions = list(d["actions"])
    ch.resources = list(d["resources"])
    ch.disc_a, ch.disc_r = [], []


@applies("AdvancementsDrawn")
def _adv_drawn(s: State, d: dict[str, Any]) -> None:
    n = d["n"]
    s.adv_draw[str(d["seat"])] = s.adv_deck[:n]
    s.adv_deck = s.adv_deck[n:]


@applies("AdvancementKept")
def _adv_kept(s: State, d: dict[str, Any]) -> None:
    drawn = s.adv_draw.pop(str(d["seat"]), [])
    ch = s.chars[d["seat"]]
    ch.advancements.append(d["card"])
    s.adv_deck += [c for c in drawn if c != d["card"]]
    for e in d.get("effects", []):
        if e["op"] == "max_hp":
            ch.max_hp += e["n"]
            ch.hp += e["n"] if ch.hp > 0 else 0
        elif e["op"] == "speed":
            ch.speed += e["n"]


@applies("DungeonEnded")
def _dungeon_end(s: State, d: dict[str, Any]) -> None:
    s.chapter_results.append(d["result"])
    s.between = d["result"] == "win" and d.get("next") is not None
    if d.get("next") is not None:
        s.dungeon_index = d["next"]
    for ch in s.chars:
        ch.used.pop("dungeon", None)


@applies("DungeonBegan")
def _dungeon_began(s: State, d: dict[str, Any]) -> None:
    s.between = False
    s.dungeon_index = d["index"]
    s.encounter = 0
    s.reserved = list(d["reserved"])
    s.dungeon_deck = [c for c in s.dungeon_deck if c not in s.reserved]
    s.dungeon_discard = [c for c in s.dungeon_discard if c not in s.reserved]
    for ch in s.chars:
        ch.hp = ch.max_hp  # full heal between dungeons (AtD L238)
        ch.fatigued = False


@applies("InitiativeCut")
def _cut(s: State, d: dict[str, Any]) -> None:
    s.cuts[str(d["seat"])] = [*s.cuts.get(str(d["seat"]), []), d["cost"]]


@applies("InitiativeSet")
def _initiative(s: State, d: dict[str, Any]) -> None:
    s.order = list(d["order"])
    s.last_cuts, s.cuts = s.cuts, {}


@applies("ReadyForDungeon")
def _ready(s: State, d: dict[str, Any]) -> None:
    return None


@applies("GameEnded")
def _ended(s: State, d: dict[str, Any]) -> None:
    s.result = {"result": d["result"], "reason": d["reason"], "winners": list(d.get("winners", []))}
    s.in_encounter = False


# -- what clearing a room, trades, mysteries, initiative cuts and monster abilities record -----
# (``rules/``). Events with no effect on the state are narrated only: the
# log tells them, the fold passes them by.

RULES.applies("RoomChoice")(lambda s, d: None)


RULES.applies("TradeProposed")(lambda s, d: None)
RULES.applies("TradeDeclined")(lambda s, d: None)
RULES.applies("TradingDone")(lambda s, d: None)


@RULES.applies("EquipmentTraded")
def _traded(s: State, d: dict[str, Any]) -> None:
    giver, taker = s.chars[d["seat"]], s.chars[d["to"]]
    if d["give"]:
        giver.equipment.remove(d["give"])
        taker.equipment.append(d["give"])
    if d["take"]:
        taker.equipment.remove(d["take"])
        giver.equipment.append(d["take"])


@RULES.applies("MysteryResolved")
def _mystery(s: State, d: dict[str, Any]) -> None:
    if d["card"] in s.dungeon_deck:
        s.dungeon_deck.remove(d["card"])
    for t in s.tiles:
        if t.card == d["card"]:
            t.card = None
    s.dungeon_discard.append(d["card"])


@RULES.applies("EquipmentLeft")
def _left(s: State, d: dict[str, Any]) -> None:
    for t in s.tiles:
        if t.card == d["card"]:
            return  # stays a map tile; discarded with the map
    if d["card"] not in s.dungeon_discard:
        s.dungeon_discard.append(d["card"])


RULES.applies("InitiativeTied")(lambda s, d: None)


RULES.applies("AreaPlaced")(lambda s, d: None)


RULES.applies("Missed")(lambda s, d: None)


@RULES.applies("MonsterSummoned")
def _summoned(s: State, d: dict[str, Any]) -> None:
    if d["id"] in s.monsters:
        s.monsters[d["id"]].summoned = True
