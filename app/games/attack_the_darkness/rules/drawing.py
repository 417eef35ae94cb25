"""Hands and decks (AtD L67-71, L267, L269): drawing up to the hand sizes, drawing more,
fatigue when a deck runs out and the reshuffle that ends it; a card shuffled back takes a
new instance name (``bump``) so what was public of it tells nothing (AtD L243)."""

from __future__ import annotations

from app.games.attack_the_darkness.engine import Ctx
from app.games.attack_the_darkness.rules.advancement import adv_bonus
from app.games.attack_the_darkness.state import State

HAND = 3
"""Start and end steps draw up to 3 ACs and 3 RCs (AtD L267, L269)."""


def hand_limits(s: State, seat: int) -> tuple[int, int]:
    return HAND + adv_bonus(s, seat, "hand_ac"), HAND + adv_bonus(s, seat, "hand_rc")


def bump(inst: str) -> str:
    """A card shuffled back into a hidden deck takes a new name (``3r10`` → ``3r10.1``):
    once it was public (discarded) its old name tells nothing about where it is now, so
    only the new name is a secret (the card itself is ``state.cards`` of the base name)."""
    base, _, gen = inst.partition(".")
    return f"{base}.{int(gen or 0) + 1}"


def shuffle_deck(ctx: Ctx, seat: int, which: str) -> None:
    ch = ctx.s.chars[seat]
    pile = ch.deck(which) + [bump(c) for c in ch.discards(which)]
    ctx.rng.shuffle(pile)
    ctx.emit("DeckShuffled", seat=seat, deck=which, order=pile, n=len(pile))


def draw_up(ctx: Ctx, seat: int) -> None:
    """Draw up to the hand sizes; a fatigued player first shuffles the discards back and the
    fatigue ends (AtD L71); an empty deck when a draw is needed fatigues (AtD L70).
    **Decision:** what remains is drawn first."""
    s = ctx.s
    ch = s.chars[seat]
    if ch.fatigued:
        shuffle_deck(ctx, seat, "actions")
        shuffle_deck(ctx, seat, "resources")
        ctx.emit("FatigueEnded", seat=seat)
    lim_a, lim_r = hand_limits(s, seat)
    draw_n(ctx, seat, max(0, lim_a - len(ch.hand_a)), max(0, lim_r - len(ch.hand_r)))


def draw_n(ctx: Ctx, seat: int, n_a: int, n_r: int) -> None:
    ch = ctx.s.chars[seat]
    got_a, got_r = min(n_a, len(ch.actions)), min(n_r, len(ch.resources))
    if got_a or got_r:
        ctx.emit(
            "CardsDrawn",
            seat=seat,
            n_actions=got_a,
            n_resources=got_r,
            actions=ch.actions[:got_a],
            resources=ch.resources[:got_r],
        )
    if (got_a < n_a or got_r < n_r) and not ch.fatigued:
        ctx.emit("Fatigued", seat=seat, discarded=ch.hand_a + ch.hand_r + [e.card for e in ch.in_play])
