"""Deck construction (AtD L298-327): a class, a resource deck and an action deck, each
checked with a precise error naming the rule broken. The lobby's side of decks lives
beside it: ``deckcode`` (a deck as shareable text) and ``builder`` (the deck builder)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import CLASS_IDS, IMPACTS, Content
from app.kernel.types import RuleError

DECK_SIZE = 27
"""Both decks hold exactly 27 cards (AtD L316, L324)."""
CORE_COPIES = 12
"""Exactly 12 core cards (AtD L317; the facts file takes "exactly" over L312's "at least"),
6 of each for the Templar's two cores (AtD L320)."""
MAX_COPIES = 3
"""At most 3 of any other card (AtD L318, L325)."""


def legal_for(classes: str, cls: str) -> bool:
    """Is a card with this IMPACTS string usable by ``cls`` (AtD L306-308)?"""
    return any(IMPACTS[letter] == cls for letter in classes)


def validate_deck(
    content: Content, cls: str, resources: dict[str, int], actions: dict[str, int], *, arena: bool = False
) -> None:
    """Refuse an illegal character, naming the rule (AtD L315-327; Arena bans AtD L297): the
    first of ``deck_problems``."""
    problems = deck_problems(content, cls, resources, actions, arena=arena)
    if problems:
        raise problems[0]


def deck_problems(
    content: Content, cls: str, resources: dict[str, int], actions: dict[str, int], *, arena: bool = False
) -> list[RuleError]:
    """Every rule an illegal character breaks, each naming its rule, in the order the rules
    are checked (AtD L315-327; Arena bans AtD L297): a deck builder lists them all."""
    out: list[RuleError] = []
    if cls not in content.classes:
        return [RuleError("unknown_class", f"{cls!r} is not one of the seven classes (AtD L58-66)")]
    klass = content.classes[cls]
    for card, n in [*resources.items(), *actions.items()]:
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            out.append(RuleError("bad_count", f"{card}: a deck lists each card with a count of at least 1"))
    if out:
        return out
    for card in resources:
        if card not in content.resources:
            kind = "an action card" if card in content.actions else "no card"
            out.append(RuleError("not_a_resource", f"{card} is {kind}, not a resource card (AtD L315)"))
    for card in actions:
        if card not in content.actions:
            kind = "a resource card" if card in content.resources else "no card"
            out.append(RuleError("not_an_action", f"{card} is {kind}, not an action card (AtD L323)"))
    resources = {c: n for c, n in resources.items() if c in content.resources}
    actions = {c: n for c, n in actions.items() if c in content.actions}
    r_total, a_total = sum(resources.values()), sum(actions.values())
    if r_total != DECK_SIZE:
        out.append(
            RuleError(
                "resource_deck_size",
                f"the resource deck holds {r_total} cards, not exactly {DECK_SIZE} (AtD L316)",
            )
        )
    if a_total != DECK_SIZE:
        out.append(
            RuleError(
                "action_deck_size",
                f"the action deck holds {a_total} cards, not exactly {DECK_SIZE} (AtD L324)",
            )
        )
    cores = klass.cores
    per_core = CORE_COPIES // len(cores)
    for core in cores:
        if resources.get(core, 0) != per_core:
            rule = "AtD L320" if len(cores) == 2 else "AtD L317"
            out.append(
                RuleError(
                    "core_cards",
                    f"a {klass.name} resource deck holds exactly {per_core} {content.resources[core].name} "
                    f"(it has {resources.get(core, 0)}) ({rule})",
                )
            )
    for card, n in resources.items():
        rc = content.resources[card]
        if rc.core and card not in cores:
            out.append(RuleError("core_of_other_class", f"{rc.name} is another class's core card (AtD L311)"))
        if card not in cores and n > MAX_COPIES:
            out.append(
                RuleError("too_many_copies", f"{n} copies of {rc.name}: at most {MAX_COPIES} (AtD L318)")
            )
        if not legal_for(rc.classes, cls):
            out.append(
                RuleError(
                    "card_not_for_class",
                    f"{rc.name} ({rc.classes}) is not usable by the {klass.name} (AtD L306-308)",
                )
            )
    for card, n in actions.items():
        ac = content.actions[card]
        if n > MAX_COPIES:
            out.append(
                RuleError("too_many_copies", f"{n} copies of {ac.name}: at most {MAX_COPIES} (AtD L325)")
            )
        if not legal_for(ac.classes, cls):
            out.append(
                RuleError(
                    "card_not_for_class",
                    f"{ac.name} ({ac.classes}) is not usable by the {klass.name} (AtD L306-308)",
                )
            )
    if arena:
        banned = sorted(
            {content.resources[c].name for c in resources if content.resources[c].arena_banned}
            | {content.actions[c].name for c in actions if content.actions[c].arena_banned}
        )
        if banned:
            out.append(RuleError("banned_in_arena", f"banned in Arena games: {', '.join(banned)} (AtD L297)"))
    return out


def sample_deck(content: Content, cls: str, *, arena: bool = False) -> tuple[dict[str, int], dict[str, int]]:
    """The class's pre-constructed deck as the facts file completes it (AtD L328-436)."""
    deck = content.decks[cls]
    if arena:
        return dict(deck.arena_resources), dict(deck.arena_actions)
    return dict(deck.resources), dict(deck.actions)


def seat_classes(options: dict[str, Any], n: int) -> list[str]:
    """Each seat's class: its pick, or the next class nobody picked (AtD L58-66)."""
    picks = list(options.get("class", [])) + [None] * n
    free = [x for x in CLASS_IDS if x not in picks[:n]] or list(CLASS_IDS)
    classes = []
    for k in range(n):
        if picks[k] is None:
            picks[k] = free[k % len(free)]
        classes.append(picks[k])
    return classes
