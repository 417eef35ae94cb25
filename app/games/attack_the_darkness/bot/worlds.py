"""The worlds the strong bot imagines (issue 27): a state a seat cannot tell from the table,
everything hidden from it redrawn (facts file §20, AtD L243).

What a seat may not see, and so what is redrawn:

- another player's hand and decks: that player's hand and deck hold, between them, a known
  set of card instances (the instances are named from the public deck lists; the discards
  and cards in play are public), so the hand is dealt afresh from the hand and the deck
  together, the hand's size kept;
- the seat's own decks' order, but for the cards it arranged on top itself (A Lifetime of
  Preparation, AtD L313), which keep their places;
- the dungeon deck, the face-down tiles and the tiles drawn but not placed: all are dungeon
  cards nobody has seen (AtD L245), so they are dealt afresh among those places together;
  the partial boss sets put back at the bottom (AtD L225) keep their places;
- the advancement deck and another player's advancement draw.

Every pool is sorted before it is shuffled with the search's rng, so two states the seat
cannot tell apart give the same world for the same rng: nothing hidden leaks into the
sample (``app.kernel.conformance.check_no_peeking``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.games.attack_the_darkness.state import State


def determinize(s: State, seat: Any, rng: random.Random) -> State:
    """A copy of ``s`` with what ``seat`` may not see redrawn (``s`` is not changed)."""
    w = s.clone()
    for x, ch in enumerate(w.chars):
        for which in ("actions", "resources"):
            key = f"{x}:{which}"
            pile = ch.deck(which)
            if x == seat:
                known = set(s.peeked.get(key, ()))
                pile[:] = _redealt(pile, lambda c, known=known: c in known, rng)  # type: ignore[misc]
                continue
            hand = ch.hand_a if which == "actions" else ch.hand_r
            peeked = set(s.peeked.get(key, ()))
            arranged = sum(1 for c in pile if c in peeked)
            unseen = sorted(hand + pile)
            rng.shuffle(unseen)
            hand[:] = unseen[: len(hand)]
            pile[:] = unseen[len(hand) :]
            if key in w.peeked:
                # the cards that player knows on top: as many as before, whichever they now are
                w.peeked[key] = pile[:arranged]
    _redeal_dungeon(s, w, rng)
    _redeal_advancements(s, w, seat, rng)
    return w


def _redealt(pile: list[str], kept: Callable[[str], bool], rng: random.Random) -> list[str]:
    """``pile`` with the cards ``kept`` says are known in their places and the others
    shuffled among the other places."""
    unseen = sorted(c for c in pile if not kept(c))
    rng.shuffle(unseen)
    fresh = iter(unseen)
    return [c if kept(c) else next(fresh) for c in pile]


def _redeal_dungeon(s: State, w: State, rng: random.Random) -> None:
    """The face-down tiles, the tiles drawn but not placed and the dungeon deck's unseen
    cards are dealt afresh among those places (the known bottom cards stay)."""
    bottom = set(s.known_bottom)
    face_down = [k for k, t in enumerate(w.tiles) if t.card is not None and not t.flipped]
    unseen = sorted(
        [w.tiles[k].card for k in face_down]  # type: ignore[misc]
        + list(w.pool)
        + [c for c in w.dungeon_deck if c not in bottom]
    )
    rng.shuffle(unseen)
    fresh = iter(unseen)
    for k in face_down:
        w.tiles[k].card = next(fresh)
    w.pool = [next(fresh) for _ in w.pool]
    w.dungeon_deck = [c if c in bottom else next(fresh) for c in w.dungeon_deck]


def _redeal_advancements(s: State, w: State, seat: Any, rng: random.Random) -> None:
    """The advancement deck and the other players' draws, dealt afresh (their sizes kept)."""
    others = sorted(k for k in s.adv_draw if k != str(seat))
    unseen = sorted(list(s.adv_deck) + [c for k in others for c in s.adv_draw[k]])
    rng.shuffle(unseen)
    for k in others:
        n = len(s.adv_draw[k])
        w.adv_draw[k], unseen = unseen[:n], unseen[n:]
    w.adv_deck = unseen
