"""Omens (DO L133-143, L475-478, facts §3): every part of an omen card as data, each name
in it a small function here.

- **Setup** (DO L135, L141-143, L167, L302, L475-478): the tabs; face-down creature tokens
  of the chapter's level or of the levels the card names ("shuffle and place L2 and L3
  creatures"); named creatures already known ("3 Grolls"), needing no flip; the omen guards
  among the guard cards; generic tokens
  standing for the omen's props (fires, graves, omen loot, a person calling for aid); location
  tokens flipped without paying.
- **Rules** (DO L135: "the new rules that enter play while this Omen is active. These rules
  don't remain active after the day ends"): named day-long rule changes, ``RULE_TEXTS``.
- **Mission**: ``MISSIONS``, each a test on the state; success pays at once, failure at day
  end (DO L136-140).

Everything the omen set up leaves at its day's end (DO L141). Drawing the day's omen and
paying its success or failure is ``days.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from app.games.dark_omen.content import Card, Content
from app.games.dark_omen.engine import DoCtx
from app.games.dark_omen.state import Prop, State

RULE_TEXTS = {
    "storm": "Crossing a black line costs {n} MP more today",
    "fury": "Every enemy deals {n} damage more on each damage roll today",
    "chill": "At the start of each night round, every hero out on the map and not at a campfire loses {n} HP",
    "burning": "Stepping onto a space with a fire costs {n} HP",
    "silence": "No hero may meditate today",
}
"""The rule changes an omen may bring for its day (DO L135), by name."""


def omen_card(s: State, c: Content) -> Card | None:
    """The omen of the day, finished or not: its rules hold until the day ends (DO L135)."""
    return c.omens[s.omen.id] if s.omen is not None else None


def rule(s: State, c: Content, name: str) -> int:
    """The day's value of a named omen rule (0 when the omen has no such rule)."""
    card = omen_card(s, c)
    if card is None:
        return 0
    return int(card.get("rules", {}).get(name, 0))


def storm_mp(s: State, c: Content) -> int:
    """Demonic weather: black lines are harder to cross (DO L240 plus the card's rule)."""
    return rule(s, c, "storm")


def fury(s: State, c: Content) -> int:
    """Enemies strike harder today: added to every enemy damage roll (DO L412)."""
    return rule(s, c, "fury")


def chill(s: State, c: Content) -> int:
    """HP lost at the start of a night round out on the map (night: facts §3, DO L122)."""
    return rule(s, c, "chill") if s.night else 0


def burning(s: State, c: Content, space: int | str) -> int:
    """HP lost stepping onto a burning space."""
    if not any(p.kind == "fire" and p.space == space and p.carried_by is None for p in s.props):
        return 0
    return rule(s, c, "burning")


def may_meditate(s: State, c: Content) -> bool:
    """Meditation needs an active, unfinished omen (DO L289), and no omen of silence."""
    return s.omen is not None and s.omen.status == "active" and not rule(s, c, "silence")


def hunt_met(s: State, c: Content, omen: Card) -> bool:
    """Every creature and guard the omen placed is slain."""
    return not any(x.omen and x.kind in ("creature", "guard") for x in s.creatures)


def boss_met(s: State, c: Content, omen: Card) -> bool:
    """The boss is beaten (DO L125, L479)."""
    return not any(x.kind == "boss" for x in s.creatures)


def reach_met(s: State, c: Content, omen: Card) -> bool:
    """A hero stands on the omen's space."""
    return any(h.alive and h.at == omen["space"] for h in s.heroes)


def gather_met(s: State, c: Content, omen: Card) -> bool:
    """Enough blood of the beast handed in (DO L422: "required to resolve omens")."""
    return s.omen is not None and s.omen.blood >= omen["blood"]


def collect_met(s: State, c: Content, omen: Card) -> bool:
    """Every piece of the omen's own loot is held by a living hero (DO L243: "an Omen will
    require you to collect specific loot tokens")."""
    relics = [p for p in s.props if p.kind == "relic"]
    return bool(relics) and all(p.carried_by is not None and s.heroes[p.carried_by].alive for p in relics)


def clear_met(s: State, c: Content, omen: Card) -> bool:
    """Every fire is doused and every grave laid to rest."""
    return not any(p.kind in ("fire", "grave") for p in s.props)


def escort_met(s: State, c: Content, omen: Card) -> bool:
    """The person calling for aid (DO L142-143) is led onto the omen's destination."""
    return any(p.kind == "person" and p.carried_by is not None and p.space == omen["to"] for p in s.props)


MISSIONS: dict[str, Callable[[State, Content, Card], bool]] = {
    "hunt": hunt_met,
    "boss": boss_met,
    "reach": reach_met,
    "gather": gather_met,
    "collect": collect_met,
    "clear": clear_met,
    "escort": escort_met,
}
"""Every mission an omen card may set, by name (DO L135)."""


def mission_met(s: State, c: Content, omen: Card) -> bool:
    return MISSIONS[omen["mission"]](s, c, omen)


TASKS: dict[str, tuple[str, bool]] = {
    "fire": ("Douse the fire", False),
    "grave": ("Lay the grave to rest", False),
    "relic": ("Take the {name}", True),
    "person": ("Lead the {name}", True),
}
"""What a hero does to a prop on their space for 1 AP ("city action" cost, facts §7), and
whether the prop then goes with them."""


def tasks_here(s: State, at: int | str) -> list[Prop]:
    """The props lying on a space that a hero may tend."""
    return [p for p in s.props if p.space == at and p.carried_by is None]


def task_label(prop: Prop) -> str:
    return TASKS[prop.kind][0].format(name=prop.name) + " (1 AP)"


def tend(ctx: DoCtx, seat: int, prop_id: str) -> None:
    prop = next(p for p in ctx.s.props if p.id == prop_id)
    ctx.emit("ApSpent", seat=seat, n=1, why=TASKS[prop.kind][0].format(name=prop.name), engaged=False)
    ctx.emit("PropTended", seat=seat, prop=prop_id, kind=prop.kind, carry=TASKS[prop.kind][1])


def setup_props(ctx: DoCtx, omen: Card) -> None:
    """Generic tokens for the omen's props (DO L143: "Place a Witch on space 42")."""
    for i, prop in enumerate(omen.get("props", [])):
        ctx.emit(
            "PropPlaced",
            id=f"{omen['id']}.{i + 1}",
            kind=prop["kind"],
            name=prop.get("name", prop["kind"]),
            space=prop["space"],
        )


def unlock_locations(ctx: DoCtx, omen: Card) -> None:
    """ "Some Omens … have you flip the location tokens without paying the cost" (DO L302)."""
    kinds = set(omen.get("unlock", []))
    for space, loc in sorted(ctx.s.locations.items()):
        if loc.kind in kinds and not loc.open:
            ctx.emit("LocationUnlocked", space=space, why=f"the omen {omen['name']}")


def place_named(ctx: DoCtx, omen: Card) -> list[int]:
    """Named creatures ("3 Grolls and 3 Varulvs", DO L477-478) on the first of the omen's
    spaces: already known, their tokens need no flip. The spaces left get face-down tokens."""
    c = ctx.c
    for space, cid in zip(omen.get("spaces", []), omen.get("named", []), strict=False):
        card = c.creatures[cid]
        ctx.emit(
            "CreaturePlaced",
            id=f"c{ctx.s.next_creature}",
            space=space,
            level=card["level"],
            kind="creature",
            omen=True,
            dice=card["level"],
            card=cid,
            name=card["name"],
            hp=card["hp"],
            armor=card["armor"],
            dr=card["dr"],
        )
    return list(omen.get("spaces", []))[len(omen.get("named", [])) :]


def place_guards(ctx: DoCtx, omen: Card) -> None:
    """The omen guards among the 12 guard cards (DO L56; facts §22: 4 of them belong to
    omens), set up on their spaces, known from the start."""
    for entry in omen.get("guards", []):
        card = ctx.c.guards[entry["guard"]]
        ctx.emit(
            "CreaturePlaced",
            id=f"c{ctx.s.next_creature}",
            space=entry["space"],
            level=card["level"],
            kind="guard",
            omen=True,
            dice=card["level"],
            card=entry["guard"],
            name=card["name"],
            hp=card["hp"],
            armor=card["armor"],
            dr=card["dr"],
        )


def day_rules(omen: Card) -> list[str]:
    """The omen's rule changes as read aloud."""
    return [RULE_TEXTS[name].format(n=n) for name, n in sorted(omen.get("rules", {}).items())]
