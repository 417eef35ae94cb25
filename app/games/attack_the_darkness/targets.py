"""Which board element each of Attack the Darkness's choices acts on, so the grid, the hand
and the monster line are clickable (DESIGN.md "Web": a per-viewer layer over the shared
board; the platform's mechanism as in ``app/games/darkest_night/targets.py``).

The board (``templates/games/attack_the_darkness/board.html``) marks:

- every drawn square ``data-target="square:x,y"`` (a speed move, a move or push, the game
  master's monster move, an area's corner, where the next tile goes);
- every token, and each character panel and monster, ``combatant:<id>`` (``c0`` for seat
  0's character, ``m5`` for monster 5): targets, the game master's attacks, a revive;
- each card in a hand ``ac:<card>`` or ``rc:<card>`` by *card*, not copy: the engine offers
  one choice per card (two Charges in hand are one choice), so every copy lights up;
- equipment ``item:<instance>`` (used, or added to a card), an advancement drawn
  ``adv:<card>``, a map tile ``tile:<index>`` (a face-down one flipped, a tile chosen for a
  set of monsters), a card of the game master's dungeon deck ``dungeon:<card>``, a card
  A Lifetime of Preparation looks at ``top:<card>`` (shown to its player only).

Only a choice's ``type`` and ``args`` are read: what a player may send is already decided
by the prompts. Map: command field → board element."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.board import square_key
from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.state import State
from app.kernel.types import Choice

C = load()

SQUARE_CHOICES = frozenset({"speed", "move", "area", "place_tile", "token", "place"})
"""Choices whose square is ``to`` (a move, a token set on the stairs, a monster the Tabletop
game master places) or ``x``, ``y`` (an area's or a tile's corner)."""
COMBATANT_ARG = {"target": "who", "attack": "who"}
HAND_ARG = {"play_cheapest": "card", "defend": "card", "discard": "card", "add": "rc"}


def _square(args: dict[str, Any]) -> str | None:
    if "to" in args:
        x, y = args["to"]
        return f"square:{square_key(x, y)}"
    if "x" in args and "y" in args:
        return f"square:{square_key(args['x'], args['y'])}"
    return None


def hand_target(state: State, inst: Any) -> str | None:
    cid = state.cards.get(inst) if isinstance(inst, str) else None
    if cid in C.actions:
        return f"ac:{cid}"
    if cid in C.resources:
        return f"rc:{cid}"
    return None


def choice_target(state: State, choice: Choice) -> str | None:
    """The ``data-target`` of the element that stands for ``choice``, or None."""
    args = choice.args
    kind = choice.type
    if kind in SQUARE_CHOICES:
        return _square(args)
    if kind in COMBATANT_ARG and isinstance(args.get("who"), str):
        return f"combatant:{args['who']}"
    if kind in HAND_ARG:
        return hand_target(state, args.get(HAND_ARG[kind]))
    if kind in ("equip", "modify") and isinstance(args.get("item"), str):
        return f"item:{args['item']}"
    if kind == "revive" and isinstance(args.get("target"), int):
        return f"combatant:c{args['target']}"
    if kind in ("flip", "tile") and isinstance(args.get("tile"), int):
        return f"tile:{args['tile']}"
    if kind == "keep" and isinstance(args.get("card"), str) and args["card"] in state.cards:
        return f"adv:{state.cards[args['card']]}"
    if kind == "top" and isinstance(args.get("card"), str) and args["card"] in state.cards:
        return f"top:{state.cards[args['card']]}"
    if kind == "pick" and isinstance(args.get("card"), str) and args["card"] in state.cards:
        return f"dungeon:{state.cards[args['card']]}"
    return None
