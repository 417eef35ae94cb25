"""The worlds the strong bot imagines (issue 27): a state a seat cannot tell from the table,
with everything hidden from it redrawn (``DarkestNight.determinize``).

What a seat sees (``view.py``): the whole board, every hero's sheet, powers and items (open,
DN 3.2), each deck's size and discards, the size of the Necromancer player's hand. What it
does not: the order of every deck (events, map cards, quests, mysteries, artifacts,
darkness: DN 19.1 draws from the top), the order of every hero's power deck (DN 14.0), and,
unless it is his seat, the Necromancer player's hand of map cards (DN 20.3.1). So a world
keeps each deck's cards and shuffles them (a hero's deck too), and for a hero seat deals the
Necromancer's hand afresh from his hand and the map deck together (the seat knows only that
those cards are among them). Each pool is sorted before it is shuffled, so a world depends
on what the seat sees and on the rng alone, never on the true order
(``conformance.check_no_peeking``).

One thing the seat has seen stays: the top darkness card a hero is looking at while he
decides whether to leave it there (By Starlight, ``PeekDarkness``).

A world is a new ``State`` object (a ``fork``, its redrawn parts its own): the kernel's memo
of answers (``app.kernel.flow.memo``) is kept per published state by identity, so nothing
worked out about the table is ever read back as an answer about a world.
"""

from __future__ import annotations

import random

from app.games.darkest_night.decisions import PeekDarkness
from app.games.darkest_night.state import Deck, State


def determinize(state: State, seat: object, rng: random.Random) -> State:
    """A world ``seat`` cannot tell from ``state``; ``state`` is not changed."""
    world = state.fork()
    necromancer = state.necromancer_seat
    hand_hidden = bool(state.hand) and necromancer is not None and seat != necromancer
    peeked = peeked_darkness(state, seat)
    for name, deck in sorted(state.decks.items()):
        pool = list(deck.cards)
        if name == "map" and hand_hidden:
            pool += state.hand
        top = [peeked] if name == "darkness" and peeked is not None and pool and pool[0] == peeked else []
        rest = sorted(pool[len(top) :])
        rng.shuffle(rest)
        cards = top + rest
        if name == "map" and hand_hidden:
            world.hand = cards[: len(state.hand)]
            cards = cards[len(state.hand) :]
        world.decks[name] = Deck(cards, deck.discard.copy())
    for hero_id, hero in state.heroes.items():
        if len(hero.deck) > 1:
            deck = sorted(hero.deck)
            rng.shuffle(deck)
            world.hero_w(hero_id).deck = deck
    return world.settle()


def peeked_darkness(state: State, seat: object) -> str | None:
    """The darkness card on top of its deck that ``seat`` is looking at now, if any."""
    d = state.decision
    if isinstance(d, PeekDarkness) and d.seat == seat:
        return d.card
    return None
