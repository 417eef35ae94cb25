"""Setting up (DN 3.0) and choosing heroes (DN 3.2, 13.1, 20.1.4, 20.2)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from app.games.darkest_night.content import LOCATIONS, MONASTERY, Content, load
from app.games.darkest_night.decisions import ChooseHero, ChoosePowers
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.common import (
    check_darkness_thresholds,
    draw,
    hero_name,
    place_blight,
    stock_of,
)
from app.games.darkest_night.state import State, kind_of
from app.kernel.rng import shuffle
from app.kernel.types import Choice

REMOVED_WITHOUT_QUESTS_DARKNESS = ("well_of_misery",)
REMOVED_WITHOUT_QUESTS_MYSTERIES = ("common_knowledge",)
REMOVED_WITHOUT_DARKNESS_DECK_MYSTERIES = ("by_starlight",)
NO_DARKNESS_DECK_CARDS = ("dying_land", "creeping_shadows")


def build_decks(ctx: Ctx, options: dict[str, Any]) -> None:
    """Shuffle every deck (DN 3.1) and the map deck from the chosen subdeck (DN 3.3),
    removing what the variants remove (DN 20.6, 20.7)."""
    c: Content = ctx.c
    no_quests = options.get("no_quests")
    events = [
        f"{card.id}#{n}" if card.copies > 1 else card.id
        for card in c.events.values()
        if not (no_quests and card.data.get("quest"))
        for n in range(1, card.copies + 1)
    ]
    mysteries = [
        m.id
        for m in c.mysteries.values()
        if not (no_quests and m.id in REMOVED_WITHOUT_QUESTS_MYSTERIES)
        and not (options.get("no_darkness_deck") and m.id in REMOVED_WITHOUT_DARKNESS_DECK_MYSTERIES)
    ]
    darkness = [
        d.id for d in c.darkness.values() if not (no_quests and d.id in REMOVED_WITHOUT_QUESTS_DARKNESS)
    ]
    subdeck = options["subdeck"]
    map_cards = [m.id for m in c.map_cards.values() if subdeck == "everything" or subdeck in m.subdecks]
    decks = {
        "event": events,
        "quest": [] if no_quests else list(c.quests),
        "mystery": [] if options.get("no_mysteries") else mysteries,
        "artifact": list(c.artifacts),
        "darkness": darkness,
        "map": map_cards,
    }
    for name, cards in decks.items():
        order = list(cards)
        shuffle(ctx.rng, order)
        if name == "darkness" and options.get("no_darkness_deck"):
            # Dying Land at 10 and Creeping Shadows at 20 instead of a random deck (DN 20.7).
            order = [x for x in NO_DARKNESS_DECK_CARDS if x in c.darkness]
        ctx.emit("DeckShuffled", deck=name, order=order)


def initial_steps(options: dict[str, Any], slots: list[int]) -> list[Step]:
    steps: list[Step] = [{"op": "place_starting_blights"}, {"op": "starting_darkness"}]
    if options.get("necromancer_player"):
        steps.append({"op": "draw_necromancer_hand"})
    if options.get("pall_of_suffering") and not options.get("no_quests"):
        steps.append({"op": "place_quest", "location": "Village", "why": "Pall of Suffering (DN 20.1.5)"})
    if options["heroes"] == 5:
        steps.append({"op": "draw_darkness_card", "setup": True})
    for slot, seat in enumerate(slots):
        steps.append({"op": "choose_hero", "seat": seat, "slot": slot})
    steps.append({"op": "start_round"})
    return steps


@step("place_starting_blights")
def place_starting_blights(ctx: Ctx, _: Step) -> None:
    """Draw a map card and place its blight at each location but the Monastery (DN 3.4);
    0 or 2 cards with the Starting Blights option (DN 20.1.2)."""
    for _n in range(int(ctx.s.options.get("starting_blights", 1))):
        card = draw(ctx, "map", reason="starting blights (DN 3.4)")
        if card is None:
            return
        spec = ctx.c.map_cards[card]
        for location in LOCATIONS:
            if location == MONASTERY:
                continue
            blight_type = spec.blights[location]
            if stock_of(ctx, blight_type) > 0:
                place_blight(ctx, location, blight_type, "setup (DN 3.4)")
        ctx.emit("CardDiscarded", deck="map", card=card)


@step("starting_darkness")
def starting_darkness(ctx: Ctx, _: Step) -> None:
    """Thresholds already reached by the starting darkness draw their cards (DN 20.1.1, 20.1.3)."""
    check_darkness_thresholds(ctx)


# -- choosing heroes ------------------------------------------------------------------


def available_heroes(s: State, content: Content) -> list[str]:
    """Heroes that have not appeared this game; if none is left, any hero not alive in
    play (DN 13.1: "one that has not already appeared ..., if possible")."""
    appeared = {kind_of(h) for h in s.heroes}
    fresh = [h for h in content.heroes if h not in appeared]
    alive = {h.kind for h in s.living()}
    return fresh or [h for h in content.heroes if h not in alive]


def instance_id(s: State, kind: str) -> str:
    if kind not in s.heroes:
        return kind
    n = 2
    while f"{kind}~{n}" in s.heroes:
        n += 1
    return f"{kind}~{n}"


@step("choose_hero", "replacing", "seat", "secondary_of", "slot")
def choose_hero(ctx: Ctx, st: Step) -> None:
    options = ctx.s.options
    pool = available_heroes(ctx.s, ctx.c)
    if options.get("random_heroes"):
        hero = ctx.rng.choice(pool)
        ctx.then(
            [
                {
                    "op": "hero_chosen",
                    "seat": st["seat"],
                    "hero": hero,
                    "slot": st["slot"],
                    "replacing": st.get("replacing"),
                }
            ]
        )
        return
    ctx.ask(
        ChooseHero(
            seat=st["seat"],
            slot=st["slot"],
            replacing=st.get("replacing"),
            dual=options["heroes"] == 2,
            secondary_of=st.get("secondary_of"),
        )
    )


def offered_heroes(s: State, d: ChooseHero, content: Content) -> list[str]:
    """The heroes a choose_hero decision offers: those available, less the primary
    class of a dual-class hero choosing its second (DN 20.2.3)."""
    primary = kind_of(d.secondary_of) if d.secondary_of else None
    return [h for h in available_heroes(s, content) if h != primary]


def choose_hero_choices(s: State, d: ChooseHero) -> list[Choice]:
    content = load()
    replacing = bool(d.replacing)
    out = []
    for hero_id in offered_heroes(s, d, content):
        key = (hero_id, replacing)
        choice = _HERO_CHOICES.get(key)
        if choice is None:
            label, detail = hero_text(content, hero_id, replacing)
            choice = _HERO_CHOICES[key] = Choice("choose_hero", {"hero": hero_id}, label, detail)
        out.append(choice)
    return out


_HERO_CHOICES: dict[tuple[str, bool], Choice] = {}
"""The choice of a hero, by hero and whether it replaces a fallen one: made from the
content alone, once (a choice is only ever read; some twenty are offered each time)."""


def hero_text(content: Content, hero_id: str, replacing: bool) -> tuple[str, str]:
    """A hero card's label and detail in the choice of a hero (DN 3.2, 13.1)."""
    hero = content.heroes[hero_id]
    if replacing:  # DN 13.1: a replacement hero starts with 1 less grace and secrecy
        grace, secrecy = max(hero.grace - 1, 0), max(hero.secrecy - 1, 0)
        detail = f"grace {grace}, secrecy {secrecy} (1 lower each: a replacement, DN 13.1)"
    else:
        detail = f"grace {hero.grace}, secrecy {hero.secrecy}"
    starting = ", ".join(p.name for p in hero.powers if p.starting)
    return hero.name, f"{detail}; starting powers: {starting}"


@decision(ChooseHero, choose_hero_choices)
def resolve_choose_hero(ctx: Ctx, d: ChooseHero, _type: str, args: dict[str, Any]) -> None:
    ctx.then(
        [
            {
                "op": "hero_chosen",
                "seat": d.seat,
                "hero": args["hero"],
                "slot": d.slot,
                "replacing": d.replacing,
                "secondary_of": d.secondary_of,
            }
        ]
    )


@step("hero_chosen", "hero", "replacing", "seat", "secondary_of", "slot")
def hero_chosen(ctx: Ctx, st: Step) -> None:
    """Put the hero in the Monastery at default grace and secrecy (DN 3.2), a replacement
    with both 1 lower (DN 13.1), a dual-class secondary with powers only (DN 20.2.3)."""
    options = ctx.s.options
    spec = ctx.c.heroes[st["hero"]]
    hero_id = instance_id(ctx.s, spec.id)
    if st.get("secondary_of"):
        ctx.emit("SecondaryClassChosen", hero=st["secondary_of"], secondary=spec.id)
        ctx.then(
            [
                {
                    "op": "choose_powers",
                    "hero": st["secondary_of"],
                    "from_hero": spec.id,
                    "count": start_power_count(options, replacing=False),
                }
            ]
        )
        return
    penalty = 1 if st.get("replacing") else 0
    grace = spec.grace - penalty + (2 if options.get("extra_grace") else 0)
    secrecy = spec.secrecy - penalty
    ctx.emit(
        "HeroJoined",
        hero=hero_id,
        seat=st["seat"],
        slot=st["slot"],
        grace=grace,
        secrecy=secrecy,
        default_grace=spec.grace - penalty,
        default_secrecy=spec.secrecy - penalty,
        sparks=3 if options.get("starting_sparks") else 0,
        turns_per_round=2 if options["heroes"] == 2 else 1,
        joins_next_round=bool(st.get("replacing")),
        round=ctx.s.round,
    )
    if st.get("replacing"):
        ctx.emit("HeroFlagged", hero=st["replacing"], flag="replaced", value=hero_id)
    steps: list[Step] = [
        {
            "op": "choose_powers",
            "hero": hero_id,
            "from_hero": spec.id,
            "count": start_power_count(options, replacing=bool(st.get("replacing"))),
        }
    ]
    if options["heroes"] == 2:
        steps.append({"op": "choose_hero", "seat": st["seat"], "slot": st["slot"], "secondary_of": hero_id})
    steps.append({"op": "shuffle_power_deck", "hero": hero_id})
    ctx.then(steps)


def start_power_count(options: dict[str, Any], *, replacing: bool) -> int:
    """3 of the 5 starting powers (DN 3.2), 4 or 5 with the option (DN 20.1.4); a
    replacement hero one fewer (DN 13.1)."""
    return int(options.get("starting_powers", 3)) - (1 if replacing else 0)


@step("choose_powers", "count", "from_hero", "hero")
def choose_powers(ctx: Ctx, st: Step) -> None:
    hero = ctx.s.heroes[st["hero"]]
    starting = [p.id for p in ctx.c.heroes[st["from_hero"]].powers if p.starting]
    if ctx.s.options.get("no_quests"):
        starting = [p for p in starting if not ctx.c.powers()[p].requires_quests]
    count = min(st["count"], len(starting))
    if count >= len(starting):
        ctx.emit("PowersChosen", hero=hero.id, powers=starting, from_hero=st["from_hero"])
        return
    if ctx.s.options.get("random_powers"):
        picked = ctx.rng.sample(starting, count)
        ctx.emit(
            "PowersChosen", hero=hero.id, powers=sorted(picked, key=starting.index), from_hero=st["from_hero"]
        )
        return
    ctx.ask(
        ChoosePowers(seat=hero.seat, hero=hero.id, from_hero=st["from_hero"], count=count, starting=starting)
    )


def choose_powers_choices(s: State, d: ChoosePowers) -> list[Choice]:
    key = (tuple(d.starting), d.count)
    known = _POWERS_CHOICES.get(key)
    if known is None:
        known = _POWERS_CHOICES[key] = tuple(list_powers_choices(d.starting, d.count))
    return list(known)


_POWERS_CHOICES: dict[tuple[tuple[str, ...], int], tuple[Choice, ...]] = {}
"""The choices of starting powers, by the powers dealt and how many to keep: made from the
content alone, once."""


def list_powers_choices(starting: list[str], count: int) -> list[Choice]:
    powers = load().powers()
    out = []
    for combo in combinations(starting, count):
        names = [powers[p].name for p in combo]
        left = [powers[p].name for p in starting if p not in combo]
        out.append(
            Choice(
                "choose_powers",
                {"powers": list(combo)},
                " + ".join(names),
                "shuffled into the deck: " + ", ".join(left),
            )
        )
    return out


@decision(ChoosePowers, choose_powers_choices)
def resolve_choose_powers(ctx: Ctx, d: ChoosePowers, _type: str, args: dict[str, Any]) -> None:
    ctx.emit("PowersChosen", hero=d.hero, powers=list(args["powers"]), from_hero=d.from_hero)


@step("shuffle_power_deck", "hero")
def shuffle_power_deck(ctx: Ctx, st: Step) -> None:
    """The other powers of the hero (and of a secondary class) form the power deck."""
    hero = ctx.s.heroes[st["hero"]]
    # The primary class first, then the secondary: a list, not a set, whose order (a
    # string's hash) would differ from one process to the next, and the same seed would
    # shuffle a different deck (the engine is deterministic, DESIGN.md).
    owners = [hero.kind, *([hero.flags["secondary"]] if hero.flags.get("secondary") else [])]
    in_play = {p.id for p in hero.powers}
    deck = [p.id for o in owners for p in ctx.c.heroes[o].powers if p.id not in in_play]
    if ctx.s.options.get("no_quests"):
        deck = [p for p in deck if not ctx.c.powers()[p].requires_quests]
    shuffle(ctx.rng, deck)
    ctx.emit("PowerDeckShuffled", hero=hero.id, order=deck)


@step("replace_hero", "fallen", "seat")
def replace_hero(ctx: Ctx, st: Step) -> None:
    """The player of a fallen hero picks a new one (DN 13.1)."""
    slot = ctx.s.heroes[st["fallen"]].flags.get("slot", 0)
    ctx.then([{"op": "choose_hero", "seat": st["seat"], "slot": slot, "replacing": st["fallen"]}])


def describe_hero(s: State, hero_id: str) -> str:
    return hero_name(s, hero_id)
