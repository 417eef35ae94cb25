"""The lobby's deck builder (issue 13 "Lobby"): what the builder shows for one seat — its
class's cards, how many copies each may hold, the Arena's banned cards, the deck to start
from — and the check of a deck text it asks the server for as the deck changes.

The rules of deck building stay ``decks.deck_problems``'s (AtD L298-327, Arena bans
AtD L297): the builder lists the very words the lobby's summary does, and the table's
creation checks them again."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.cards import action_card, resource_card
from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decks import (
    CORE_COPIES,
    DECK_SIZE,
    MAX_COPIES,
    deck_problems,
    deckcode,
    legal_for,
    sample_deck,
    seat_classes,
)
from app.kernel.types import RuleError


def seat_class(options: dict[str, Any], seat: int, seat_count: int) -> str:
    """The class ``seat`` plays: its pick, or the next free class (as the table will)."""
    return seat_classes(options, max(seat_count, seat + 1))[seat]


def seat_text(options: dict[str, Any], seat: int) -> str:
    texts = list(options.get("deck") or [])
    return (texts[seat] if seat < len(texts) else None) or ""


def start_deck(cls: str, text: str, *, arena: bool) -> tuple[dict[str, int], dict[str, int]]:
    """The deck the builder opens with: the seat's text when it reads as a deck, else the
    class's pre-constructed deck (AtD L328-436; the Arena version in the Arena)."""
    if text:
        try:
            return deckcode.parse(text)
        except RuleError:
            pass
    return sample_deck(load(), cls, arena=arena)


def card_entry(cid: str, cls: str, *, arena: bool) -> dict[str, Any]:
    """One card as the builder lists it: its readable text, how many copies a deck may
    hold (the core count, else 3: AtD L317-318, L320, L325), and why it may not be added
    (another class's card, AtD L306-308; banned in the Arena, AtD L297)."""
    c = load()
    klass = c.classes[cls]
    resource = cid in c.resources
    card = c.resources[cid] if resource else c.actions[cid]
    core = resource and cid in klass.cores
    refused = ""
    if not legal_for(card.classes, cls) or (resource and c.resources[cid].core and not core):
        refused = f"not usable by the {klass.name} (AtD L306-308)"
    elif arena and card.arena_banned:
        refused = "banned in Arena games (AtD L297)"
    text = resource_card(cid) if resource else action_card(cid)
    words = [card.name, "resource" if resource else "action"]
    if resource:
        words += [g["label"] for g in text["gives"]] + [text["effects"], "core" if core else ""]
    else:
        words += [text["cost_label"]] + [" ".join(p.values()) for p in text["parts"]]
    return {
        "id": cid,
        "name": card.name,
        "kind": "resource" if resource else "action",
        "text": text,
        "core": core,
        "max": CORE_COPIES // len(klass.cores) if core else MAX_COPIES,
        "refused": refused,
        "search": " ".join(w for w in words if w).lower(),
    }


def editor(options: dict[str, Any], seat: int, seat_names: list[str]) -> dict[str, Any]:
    """What the deck builder shows for ``seat`` (``Game.option_editor`` of option ``deck``)."""
    c = load()
    arena = options.get("mode") == "arena"
    cls = seat_class(options, seat, len(seat_names))
    text = seat_text(options, seat)
    resources, actions = start_deck(cls, text, arena=arena)
    listed = [cid for cid in c.resources if legal_for(c.resources[cid].classes, cls)]
    listed = [cid for cid in listed if not c.resources[cid].core or cid in c.classes[cls].cores]
    listed += [cid for cid in c.actions if legal_for(c.actions[cid].classes, cls)]
    known = [cid for cid in [*resources, *actions] if cid in c.resources or cid in c.actions]
    listed += [cid for cid in known if cid not in listed]  # another class's card in the text
    entries = [card_entry(cid, cls, arena=arena) for cid in listed]
    entries.sort(key=lambda e: (e["kind"] != "resource", not e["core"], e["name"]))
    sample_r, sample_a = sample_deck(c, cls, arena=arena)
    return {
        "class": cls,
        "class_name": c.classes[cls].name,
        "who": seat_names[seat] if seat < len(seat_names) else f"Seat {seat + 1}",
        "arena": arena,
        "cards": entries,
        "cores": [{"id": core, "name": c.resources[core].name} for core in c.classes[cls].cores],
        "data": {
            "class": cls,
            "className": c.classes[cls].name,
            "deckSize": DECK_SIZE,
            "cores": {core: CORE_COPIES // len(c.classes[cls].cores) for core in c.classes[cls].cores},
            "names": {e["id"]: e["name"] for e in entries},
            "kinds": {e["id"]: e["kind"] for e in entries},
            "max": {e["id"]: e["max"] for e in entries},
            "refused": {e["id"]: e["refused"] for e in entries if e["refused"]},
            "start": {"resources": resources, "actions": actions},
            "sample": {"resources": sample_r, "actions": sample_a},
            "fromText": bool(text),
        },
    }


def check(options: dict[str, Any], seat: int, seat_count: int, text: str) -> dict[str, Any]:
    """Every rule ``text`` breaks as ``seat``'s deck (``Game.check_option`` of option
    ``deck``), the deck it reads as (by card id, for the builder to load a pasted text) and
    its text by printed names. An empty text is the pre-constructed deck: nothing broken."""
    c = load()
    arena = options.get("mode") == "arena"
    cls = seat_class(options, seat, seat_count)
    out: dict[str, Any] = {"class": cls, "problems": [], "deck": None, "text": ""}
    if not text.strip():
        return out
    try:
        resources, actions = deckcode.parse(text)
    except RuleError as err:
        out["problems"] = [{"code": err.code, "message": err.message}]
        return out
    problems = deck_problems(c, cls, resources, actions, arena=arena)
    out["problems"] = [{"code": p.code, "message": p.message} for p in problems]
    out["deck"] = {"resources": resources, "actions": actions}
    out["text"] = deckcode.write(c, resources, actions)
    return out
