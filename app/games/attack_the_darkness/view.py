"""What each viewer may see (facts file §20): the map, tokens, HP, the monster line, cards
in play and discards are public; a hand only for its player; deck orders, the dungeon deck
and face-down tiles for nobody (the game master sees the dungeon deck in Tabletop,
AtD L274); advancement draws only for the drawing player."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.board import (
    gm_dungeon_deck,
    grid_of,
    monster_label,
    penalties_of,
    play_in_progress,
    tile_size,
    unplayable,
    waiting_details,
)
from app.games.attack_the_darkness.cards import (
    advancement_text,
    class_card,
    dungeon_card_text,
    monster_card,
    player_card,
)
from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import Defend
from app.games.attack_the_darkness.grid import tile_squares
from app.games.attack_the_darkness.rules.query import ckey, who_name
from app.games.attack_the_darkness.state import MONSTER_STATUSES, State
from app.kernel.types import Secret, Viewer

C = load()
TITLES = {
    "place_tile": "Place a map tile",
    "act": "Your turn: play a card, move or end the turn",
    "confirm_play": "No enemy in range: this attack will do nothing",
    "pay": "Choose the resource cards that pay for the card",
    "discard": "Discard a card for the condition",
    "move_to": "Where to?",
    "target": "Choose a target",
    "area": "Place the area",
    "defend": "You are attacked: defend?",
    "clear_room": "Clearing the room: revive, rest or explore",
    "explore": "Explore the room",
    "keep_equipment": "Keep the equipment?",
    "advance": "Choose an advancement",
    "cut": "Cut your action deck for initiative",
    "ready": "Ready for the next dungeon?",
    "gm_pick": "Pick the encounter's monsters",
    "gm_monster": "Decide the monster's turn",
    "place_token": "Put your token on a stairs square",
    "choose_tile": "Choose the tile the monsters take",
    "arrange": "A Lifetime of Preparation: put the cards back on top",
    "trade": "Trade or give equipment",
    "gm_place": "Put the monster on a square",
}


def title_of(s: State, d: Any, seat: Any) -> str:
    """A prompt's heading; a defence window names whom an ally is asked to protect (AtD L158)."""
    if isinstance(d, Defend) and d.target != f"c{seat}":
        return f"{who_name(s, d.target)} is attacked: protect them?"
    return TITLES.get(d.kind, d.kind)


def card_view(s: State, inst: str) -> dict[str, Any]:
    cid = s.cards[inst]
    out: dict[str, Any] = {"id": inst, "card": cid, "name": C.card_name(cid)}
    if cid in C.actions:
        ac = C.actions[cid]
        out |= {"cost": ac.cost.label(), "types": list(ac.types)}
    if cid in C.actions or cid in C.resources:
        out["text"] = player_card(cid)
    return out


def view_of(s: State, viewer: Viewer) -> dict[str, Any]:
    if not s.started:
        return {}
    chars = []
    for seat, ch in enumerate(s.chars):
        entry: dict[str, Any] = {
            "seat": seat,
            "name": s.names[seat],
            "class": ch.cls,
            "team": s.teams[seat],
            "hp": ch.hp,
            "max_hp": ch.max_hp,
            "speed": ch.speed,
            "pos": None if ch.pos is None else list(ch.pos),
            "unconscious": ch.hp <= 0,
            "fatigued": ch.fatigued,
            "speed_used": ch.speed_used,
            "hand_actions": len(ch.hand_a),
            "hand_resources": len(ch.hand_r),
            "action_deck": len(ch.actions),
            "resource_deck": len(ch.resources),
            "action_discard": [[c, C.card_name(s.cards[c])] for c in ch.disc_a],
            "resource_discard": [[c, C.card_name(s.cards[c])] for c in ch.disc_r],
            "in_play": [card_view(s, e.card) | {"until": e.until, "on": e.on} for e in ch.in_play],
            "equipment": [
                {"id": e, "name": C.dungeon_name(s.cards[e]), "text": dungeon_card_text(s.cards[e])}
                for e in ch.equipment
            ],
            "advancements": [
                {"id": a, "name": C.advancements[s.cards[a]].name, "text": advancement_text(s.cards[a])}
                for a in ch.advancements
            ],
            "class_card": class_card(ch.cls),
            "statuses": {k: v for k, v in ch.statuses.items() if v > s.round},
            "guard": s.guard.get(ckey(seat), 0),
            "penalties": penalties_of(s, ch),
        }
        if seat in viewer.seats:
            entry["hand"] = [card_view(s, c) for c in ch.hand_a + ch.hand_r]
            entry["unplayable"] = unplayable(s, seat)
            drawn = s.adv_draw.get(str(seat))
            if drawn:
                entry["advancement_draw"] = [
                    {
                        "id": a,
                        "card": s.cards[a],
                        "name": C.advancements[s.cards[a]].name,
                        "text": advancement_text(s.cards[a]),
                    }
                    for a in drawn
                ]
        chars.append(entry)
    tiles = []
    for k, t in enumerate(s.tiles):
        tile: dict[str, Any] = {
            "index": k,
            "x": t.x,
            "y": t.y,
            "o": t.o,
            "stairs": t.stairs,
            "flipped": t.flipped,
        }
        tile["w"], tile["h"] = tile_size(t.o)
        if t.flipped and t.card is not None:
            tile["card"] = {"id": t.card, "name": C.dungeon_name(s.cards[t.card])}
        tiles.append(tile)
    monsters = [
        {
            "id": mid,
            "card": m.card,
            "name": C.monsters[m.card].name,
            "hp": m.hp,
            "max_hp": C.monsters[m.card].hp,
            "pos": list(m.pos),
            "entry": m.entry,
            "label": monster_label(mid),
            "defended": m.defended,
            "statuses": {k: v for k in MONSTER_STATUSES if (v := getattr(m, k)) > s.round},
            "penalties": penalties_of(s, m),
        }
        for mid, m in sorted(s.monsters.items(), key=lambda kv: int(kv[0][1:]))
    ]
    line = [
        {
            "entry": e,
            "name": C.monsters[C.monsters[s.cards[s.line_cards[e][0]]].id].name
            if s.line_cards[e]
            else _summon(s, e),
            "danger": C.monsters[s.cards[s.line_cards[e][0]]].danger if s.line_cards[e] else 0,
            "stats": _line_stats(s, e),
            "monsters": [
                mid for mid, m in sorted(s.monsters.items(), key=lambda kv: int(kv[0][1:])) if m.entry == e
            ],
        }
        for e in s.line
        if _line_entry_seen(s, e, viewer)
    ]
    d = s.decision
    out: dict[str, Any] = {
        "mode": s.mode,
        "dungeon": s.dungeon_names[s.dungeon_index] if s.dungeon_names else "",
        "encounter": s.encounter + 1,
        "encounters": s.encounters,
        "round": s.round,
        "turn": s.turn,
        "danger": s.danger,
        "order": list(s.order),
        "characters": chars,
        "map": {
            "tiles": tiles,
            "arena": s.arena,
            "walls": [list(w) for w in s.arena_walls],
        },
        "grid": grid_of(s),
        "play": play_in_progress(s),
        "cuts": {k: list(v) for k, v in (s.cuts or s.last_cuts).items()},
        "monsters": monsters,
        "line": line,
        "dungeon_deck": len(s.dungeon_deck),
        "dungeon_discard": [{"id": x, "name": C.dungeon_name(s.cards[x])} for x in s.dungeon_discard],
        "set_aside": [{"id": x, "name": C.dungeon_name(s.cards[x])} for x in s.set_aside],
        "reserved": [{"id": x, "name": C.dungeon_name(s.cards[x])} for x in s.reserved],
        "seed": [{"id": x, "name": C.dungeon_name(s.cards[x])} for x in s.seed],
        "advancement_deck": len(s.adv_deck),
        "successes": s.successes,
        "waiting": None
        if d is None
        else {"kind": d.kind, "title": TITLES.get(d.kind, d.kind), "seats": d.asked}
        | waiting_details(s, viewer),
        "result": s.result,
    }
    if s.tabletop and not viewer.is_gm and out["waiting"] is not None:
        out["waiting"].pop("place", None)  # the monster being placed: see _line_entry_seen
    if viewer.is_gm and s.tabletop:
        out["dungeon_deck_cards"] = sorted(C.dungeon_name(s.cards[x]) for x in s.dungeon_deck)
        out["gm_deck"] = gm_dungeon_deck(s)
    return out


def _line_entry_seen(s: State, entry: str, viewer: Viewer) -> bool:
    """In Tabletop the players see a monster card once the game master has put one of its
    monsters on the map (issue 13: the picks are the game master's until placed, AtD L274);
    the game master sees the whole line."""
    if not s.tabletop or viewer.is_gm:
        return True
    return any(m.entry == entry for m in s.monsters.values())


def _line_card(s: State, entry: str) -> str | None:
    """The monster card of a line entry: its first card, or (a summoned group, AtD L228)
    the card of its monsters."""
    if s.line_cards[entry]:
        return C.monsters[s.cards[s.line_cards[entry][0]]].id
    m = next((m for m in s.monsters.values() if m.entry == entry), None)
    return m.card if m else None


def _line_stats(s: State, entry: str) -> dict[str, Any] | None:
    cid = _line_card(s, entry)
    return monster_card(cid) if cid else None


def _summon(s: State, entry: str) -> str:
    m = next((m for m in s.monsters.values() if m.entry == entry), None)
    return C.monsters[m.card].name if m else entry


def secrets_of(s: State, *, per_card: bool = False) -> list[Secret]:
    """Hands (their player), advancement draws (the drawer), face-down tiles (nobody) card by
    card; each deck's order (nobody) as the whole ordered list — or, with ``per_card``,
    every card in a deck (slower to check; the game's own conformance test uses it). A
    card a player arranged on top of a deck is known to that player (AtD L313)."""
    out: list[Secret] = []
    decks: list[tuple[list[str], frozenset[Any]]] = []
    for seat, ch in enumerate(s.chars):
        out += [Secret(c, frozenset({seat})) for c in ch.hand_a + ch.hand_r]
        out += [Secret(c, frozenset({seat})) for c in s.adv_draw.get(str(seat), [])]
        known = set(s.peeked.get(f"{seat}:actions", [])) | set(s.peeked.get(f"{seat}:resources", []))
        for pile in (ch.actions, ch.resources):
            hidden = [c for c in pile if c not in known]
            decks.append((hidden, frozenset()))
            out += [Secret(c, frozenset({seat})) for c in pile if c in known]
    decks.append(([c for c in s.dungeon_deck if c not in s.known_bottom], frozenset()))
    decks.append((list(s.adv_deck), frozenset()))
    for pile, seats in decks:
        if per_card:
            out += [Secret(c, seats) for c in pile]
        elif len(pile) > 1:
            out.append(Secret(pile, seats))
    out += [Secret(t.card, frozenset()) for t in s.tiles if t.card is not None and not t.flipped]
    return out


def tile_of(s: State, sq: tuple[int, int]) -> int | None:
    for k, t in enumerate(s.tiles):
        if sq in tile_squares(t.x, t.y, t.o):
            return k
    return None
