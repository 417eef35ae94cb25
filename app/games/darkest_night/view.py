"""What each viewer may see (DESIGN.md: hidden information never leaves the server).

Spectators and players see the board, every hero's sheet, the discard piles and the deck
sizes; never a deck's order, a hero's power deck, or the Necromancer player's hand
(DN 20.3.1). The game master sees everything."""

from __future__ import annotations

from functools import cache
from typing import Any

from app.games.darkest_night.content import LOCATIONS, Content, PowerDef, load
from app.games.darkest_night.decisions import ChooseHero, ChoosePowers, decision_hero
from app.games.darkest_night.describe import name_of
from app.games.darkest_night.options import difficulty
from app.games.darkest_night.rules.common import darkness_schedule
from app.games.darkest_night.rules.setup import offered_heroes
from app.games.darkest_night.state import Hero, State
from app.kernel.flow import Decision
from app.kernel.types import Event, Secret, Viewer

TITLES = {
    "next_hero": "Choose who takes the next turn",
    "choose_hero": "Choose a hero",
    "choose_powers": "Choose your starting powers",
    "action": "Choose an action",
    "combat": "Fight or elude",
    "roll": "Ready to roll",
    "after_roll": "After the roll",
    "wound": "A wound!",
    "exhaust_power": "Exhaust a power",
    "card_choice": "Choose",
    "search_choice": "Choose a search result",
    "search_fallback": "Nothing found: take something else",
    "supply_cache": "Supply cache: keep one power",
    "epiphany": "Epiphany: take any power from your deck",
    "quest_location": "Where does the quest appear?",
    "sacrifice": "The Necromancer sacrifices a blight: choose it",
    "choose_blight_type": "Choose the blight created",
    "play_map_card": "Play a map card",
    "necromancer_move": "Move the Necromancer",
    "skull_token": "Skull Token?",
    "green_item": "Choose a green-backed item",
    "druid_form": "Celerity: take a Form?",
    "quest_pay": "Pay for the quest",
    "mystery_pay": "Pay for the mystery",
    "peek_darkness": "The top darkness card",
    "destroy_blight_at": "Destroy a blight",
    "hb_oath_quest": "Swear the Oath on which quest?",
    "hb_seek_oath": "Take an Oath card?",
    "hb_move": "Move on?",
    "hb_pick_hero": "Choose a hero",
    "hb_quest": "Choose a quest",
    "hb_scrap": "Scrap which item?",
    "hb_attack": "Attack a blight?",
    "order_effects": "Several things happen at once: choose what comes first",
    "attack_target": "Choose the blight to attack",
}


def power_view(power: Any, content: Any) -> dict[str, Any]:
    spec = content.powers()[power.id]
    return {
        "id": power.id,
        "name": spec.name,
        "text": spec.text,
        "exhausted": power.exhausted,
        "active": power.active and not power.exhausted,
        "suppressed": power.suppressed,
        "target": power.target,
    }


def item_view(item: Any, content: Any) -> dict[str, Any]:
    if item.kind == "artifact":
        spec = content.artifacts[item.data["card"]]
        return {
            "id": item.id,
            "kind": "artifact",
            "name": spec.name,
            "text": spec.text,
            "locked": item.locked,
            "exhausted": item.data.get("exhausted", False),
            "active": item.data.get("active", False),
        }
    spec = content.items[item.kind]
    return {"id": item.id, "kind": item.kind, "name": spec.name, "text": spec.text, "locked": item.locked}


def blight_view(blight: Any, state: State, content: Any) -> dict[str, Any]:
    """A blight token as it stands now: might (+1 at darkness 25, DN 9.0), colour, effect."""
    spec = content.blights[blight.type]
    out = {
        "id": blight.id,
        "type": blight.type,
        "might": spec.might + (1 if state.darkness >= 25 else 0),
        "color": spec.color,
        "text": spec.text,
    }
    if spec.monster is not None:
        out["monster"] = {"strength": spec.monster.strength, "awareness": spec.monster.awareness}
    return out


def hero_view(hero: Hero, state: State, content: Any, viewer: Viewer) -> dict[str, Any]:
    spec = content.heroes[hero.kind]
    out = {
        "id": hero.id,
        "kind": hero.kind,
        "name": spec.name,
        "seat": hero.seat,
        "player": state.seat_names[hero.seat] if hero.seat < len(state.seat_names) else "",
        "location": hero.location,
        "grace": hero.grace,
        "secrecy": hero.secrecy,
        "default_grace": hero.default_grace,
        "default_secrecy": hero.default_secrecy,
        "sparks": hero.sparks,
        "powers": [power_view(p, content) for p in hero.powers],
        "deck_size": len(hero.deck),
        "items": [item_view(i, content) for i in hero.items],
        "turn_done": hero.turns_left == 0,
        "turns_left": hero.turns_left,
        "turns_per_round": hero.turns_per_round,
        "lost_turn": hero.lost_turn,
        "dead": hero.dead,
        "joins_next_round": hero.joins_next_round,
        "secondary": hero.flags.get("secondary"),
    }
    if viewer.is_gm:
        out["deck"] = list(hero.deck)
        out["deck_names"] = [content.all_powers[p].name if p in content.all_powers else p for p in hero.deck]
    return out


def power_card(power: PowerDef) -> dict[str, str]:
    return {"id": power.id, "name": power.name, "text": power.text}


def offer(state: State, d: Decision, content: Content) -> dict[str, Any] | None:
    """What a hero or power choice offers, with every starting power's text, so the
    cards can be read before choosing (DN 3.2: "read them, and choose 3")."""
    if isinstance(d, ChoosePowers):
        powers = content.all_powers
        return {"count": d.count, "powers": [power_card(powers[p]) for p in d.starting if p in powers]}
    if isinstance(d, ChooseHero):
        heroes = []
        for hero_id in offered_heroes(state, d, content):
            hero = content.heroes[hero_id]
            heroes.append(
                {
                    "id": hero.id,
                    "name": hero.name,
                    "grace": hero.grace,
                    "secrecy": hero.secrecy,
                    "powers": [power_card(p) for p in hero.powers if p.starting],
                }
            )
        return {"heroes": heroes}
    return None


@cache
def card_name(deck: str, card: str) -> str:
    """A card as the game master's deck list names it: a map card by its blight per
    location, any other card by its title. Cached: the game master's view lists every
    deck on every commit."""
    content = load()
    if deck == "map" and card in content.map_cards:
        spec = content.map_cards[card]
        return f"{card}: " + ", ".join(f"{loc} {spec.blights[loc]}" for loc in spec.blights)
    return name_of(deck, card)


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    content = load()
    if not state.started:
        return {"started": False}
    decks = {
        name: {
            "size": len(d.cards),
            "discard": list(d.discard) if name != "event" else [c.split("#")[0] for c in d.discard],
        }
        for name, d in state.decks.items()
    }
    if viewer.is_gm:
        for name, d in state.decks.items():
            decks[name]["order"] = list(d.cards)
            decks[name]["order_names"] = [card_name(name, c) for c in d.cards]
    board = {
        loc: {
            "blights": [blight_view(b, state, content) for b in state.blights.get(loc, [])],
            "heroes": [h.id for h in state.heroes.values() if h.location == loc and not h.dead],
            "relic": state.relics.get(loc),
            "quests": [
                {
                    "id": q.id,
                    "card": q.card,
                    "name": content.quests[q.card].name,
                    "progress": q.progress,
                    "needed": content.quests[q.card].data.get("progress", 1),
                    "time": q.time,
                    "limit": content.quests[q.card].data.get("time", 5),
                    "text": content.quests[q.card].text,
                }
                for q in state.quests
                if q.location == loc
            ],
            "mysteries": [
                {
                    "id": m.id,
                    "card": m.card,
                    "name": content.mysteries[m.card].name,
                    "text": content.mysteries[m.card].text,
                    "keys": m.keys,
                    "key_texts": [k.get("text", "") for k in content.mysteries[m.card].data.get("keys", ())],
                }
                for m in state.mysteries
                if m.location == loc
            ],
            "orphaned_items": [item_view(i, content) for i in state.orphaned.get(loc, [])],
        }
        for loc in LOCATIONS
    }
    necro_sees = viewer.is_gm or (
        state.necromancer_seat is not None and viewer.sees_seat(state.necromancer_seat)
    )
    d = state.decision
    out: dict[str, Any] = {
        "round": state.round,
        "phase": state.phase,
        "current": state.current,
        "step": state.step,
        "necromancer": state.necromancer,
        "necromancer_seat": state.necromancer_seat,
        "necromancer_hand": [{"id": c, "blights": dict(content.map_cards[c].blights)} for c in state.hand]
        if necro_sees
        else len(state.hand),
        "board": board,
        "heroes": [hero_view(h, state, content, viewer) for h in state.heroes.values()],
        "stored_items": [item_view(i, content) for i in state.stored],
        "darkness": state.darkness,
        "darkness_thresholds": list(darkness_schedule(state)),
        "darkness_cards": [
            {
                "id": c,
                "name": content.darkness[c].name,
                "text": content.darkness[c].text,
                "state": state.darkness_active.get(c),
            }
            for c in state.darkness_cards
        ],
        "clues": state.clues,
        "keys": state.keys,
        "pall": len(state.pall),
        "decks": decks,
        "item_stock": dict(state.item_stock),
        "last_roll": state.last_roll,
        "waiting": {
            "kind": d.kind,
            "seat": d.seat,
            "seats": d.seats,
            "title": TITLES.get(d.kind, d.kind),
            "hero": decision_hero(d),
            "offer": offer(state, d, content),
        }
        if d
        else None,
        "options": dict(state.options),
        "difficulty": difficulty(state.options),
        "result": state.result,
    }
    if viewer.is_gm:
        out["decision"] = d.as_dict() if d else None
        out["agenda"] = list(state.agenda)
    return out


PRIVATE_LISTS = {"DeckShuffled": "order", "PowerDeckShuffled": "order"}


def event_view(event: Event, viewer: Viewer) -> Event | None:
    """Deck orders only for the game master; private draws for their owner too; the
    decision record reduced to whom the table waits on."""
    if viewer.is_gm:
        return event
    data = event.data
    if event.type in PRIVATE_LISTS:
        key = PRIVATE_LISTS[event.type]
        return Event(event.type, {k: v for k, v in data.items() if k != key} | {key: len(data[key])}, event.v)
    if "private_seat" in data and not viewer.sees_seat(data["private_seat"]):
        hidden = {k: v for k, v in data.items() if k not in ("card", "power", "cards")}
        if "cards" in data:
            hidden["cards"] = len(data["cards"])
        return Event(event.type, hidden | {"hidden": True}, event.v)
    if event.type == "HandDrawn" and not viewer.sees_seat(data.get("seat", -1)):
        return Event(event.type, {"cards": len(data["cards"])}, event.v)
    if event.type == "Waiting":
        d = data.get("decision")
        return Event(event.type, {"waiting": {"kind": d["kind"], "seat": d["seat"]} if d else None}, event.v)
    return event


def secrets(state: State) -> list[Secret]:
    out = []
    for _name, deck in state.decks.items():
        if len(deck.cards) > 1:
            out.append(Secret(list(deck.cards)))
    for hero in state.heroes.values():
        if len(hero.deck) > 1:
            out.append(Secret(list(hero.deck)))
    if state.hand and state.necromancer_seat is not None:
        out.append(Secret(list(state.hand), frozenset({state.necromancer_seat})))
    return out
