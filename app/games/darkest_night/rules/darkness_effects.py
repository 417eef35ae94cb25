"""Effect ops used by Darkest Night's darkness content that the shared vocabulary (rules/ops.py)
does not cover. Each is a registered step; its docstring cites the rule or card it serves.

Darkness cards (DN 9.0) stay in play for the rest of the game. Their lasting effects are
written as ``hooks`` run at a moment of the Necromancer's turn (``necromancer_turn``: after
the darkness rises; ``after_blight``: after his blight) or as ``on_draw`` steps. Those steps
carry no hero, so the ops here choose the heroes they touch (``heroes_where``) and branch
on the board (``if_count``) without one. A few cards can be activated (DN 9.1): their
state is ``State.darkness_active[card]``.

Artifacts (DN 14.4) use a few ops of their own at the end of the module (moving anywhere,
driving the Necromancer back, banishing a blight, advancing a quest here).
"""

from __future__ import annotations

from app.games.darkest_night.content import LOCATIONS, MONASTERY
from app.games.darkest_night.engine import Ctx, Step, step
from app.games.darkest_night.rules.blights import attackable
from app.games.darkest_night.rules.cards import advance_quest, village_arrow
from app.games.darkest_night.rules.common import hero_name
from app.games.darkest_night.rules.necromancer import distances, first_steps, move_necromancer, neighbours
from app.games.darkest_night.state import Hero

# -- choosing heroes and reading the board without a hero --------------------------------


def near_necromancer(ctx: Ctx) -> set[str]:
    """The locations next to the Necromancer's (he never enters the Monastery, DN 10.0)."""
    return set(neighbours(ctx, ctx.s.necromancer))


def has_monster_blight(ctx: Ctx, location: str) -> bool:
    return any(ctx.c.blights[b.type].monster is not None for b in ctx.s.blights.get(location, []))


def hero_stat(ctx: Ctx, hero: Hero, stat: str) -> int:
    if stat == "blights_here":
        return ctx.s.blight_count(hero.location)  # a Void counts as 2 (DN 11.2)
    if stat == "items":
        return len(hero.items)
    return int(getattr(hero, stat))


def hero_matches(ctx: Ctx, hero: Hero, st: Step) -> bool:
    """Whether a hero fits a card's description: ``where`` (anywhere, outside_monastery,
    monastery, with_necromancer, near_necromancer, alone, blighted, monster_blight), an
    optional ``stat`` with ``min``/``max`` and ``relic = true`` (carrying a Holy Relic)."""
    s = ctx.s
    where = st.get("where", "anywhere")
    here = hero.location
    if where == "outside_monastery" and here == MONASTERY:
        return False
    if where == "monastery" and here != MONASTERY:
        return False
    if where == "with_necromancer" and here != s.necromancer:
        return False
    if where == "near_necromancer" and here not in near_necromancer(ctx):
        return False
    if where == "alone" and (here == MONASTERY or len(s.heroes_at(here)) > 1):
        return False
    if where == "blighted" and not s.blights.get(here):
        return False
    if where == "monster_blight" and not has_monster_blight(ctx, here):
        return False
    if st.get("relic") and not hero.relics():
        return False
    if st.get("stat"):
        value = hero_stat(ctx, hero, st["stat"])
        if not int(st.get("min", -99)) <= value <= int(st.get("max", 999)):
            return False
    return True


@step("heroes_where", "do", "hero", "max", "min", "pick", "power", "relic", "stat", "where", "why")
def heroes_where(ctx: Ctx, st: Step) -> None:
    """Apply ``do`` to every living hero who fits (see ``hero_matches``), in play order;
    ``pick = "lowest_secrecy"`` keeps only those with the lowest secrecy among them."""
    heroes = [h for h in ctx.s.living() if hero_matches(ctx, h, st)]
    if heroes and st.get("pick") == "lowest_secrecy":
        lowest = min(h.secrecy for h in heroes)
        heroes = [h for h in heroes if h.secrecy == lowest]
    steps: list[Step] = []
    for hero in heroes:
        steps += [dict(e) | {"hero": hero.id} for e in st.get("do", ())]
    ctx.then(steps)


def board_count(ctx: Ctx, of: str) -> int:
    """A number on the board a darkness card may check."""
    s = ctx.s
    if of == "darkness":
        return s.darkness
    if of == "round":
        return s.round
    if of == "blights":
        return sum(s.blight_count(loc) for loc in s.blights)  # a Void counts as 2 (DN 11.2)
    if of == "blights_at_necromancer":
        return s.blight_count(s.necromancer)
    if of == "most_blights":
        return max((s.blight_count(loc) for loc in s.blights if loc != MONASTERY), default=0)
    if of == "monastery_blights":
        return s.blight_count(MONASTERY)
    if of == "heroes_in_monastery":
        return len(s.heroes_at(MONASTERY))
    if of == "heroes_with_necromancer":
        return len(s.heroes_at(s.necromancer))
    if of == "heroes_near_necromancer":
        near = near_necromancer(ctx) | {s.necromancer}
        return sum(1 for h in s.living() if h.location in near)
    if of == "quests":
        return len(s.quests)
    if of == "clues":
        return s.clues
    raise ValueError(f"if_count cannot count {of!r}")


@step("if_count", "do", "every", "hero", "max", "min", "of", "power", "why")
def if_count(ctx: Ctx, st: Step) -> None:
    """``do`` when a number on the board (``of``, see ``board_count``) lies within
    ``min``..``max`` (and is a multiple of ``every``, if given), else ``else``."""
    value = board_count(ctx, st["of"])
    fits = int(st.get("min", -99)) <= value <= int(st.get("max", 999))
    every = int(st.get("every", 0))
    if every:
        fits = fits and value > 0 and value % every == 0
    ctx.then([dict(e) for e in st.get("do" if fits else "else", ())])


@step("if_necromancer_at", "do", "hero", "locations", "power", "why")
def if_necromancer_at(ctx: Ctx, st: Step) -> None:
    """``do`` when the Necromancer stands at one of ``locations``, else ``else``."""
    here = ctx.s.necromancer in st["locations"]
    ctx.then([dict(e) for e in st.get("do" if here else "else", ())])


# -- the Necromancer's extra blights and steps ---------------------------------------------


@step("blight_at", "hero", "n", "power", "where", "why")
def blight_at(ctx: Ctx, st: Step) -> None:
    """More blights (DN 11.1): ``where`` is "random" (the Village's arrows, as for quests),
    "empty" (every location but the Monastery that has none) or "lowest_secrecy" (where the
    least hidden hero outside the Monastery stands)."""
    why = str(st.get("why") or "a darkness card")
    where = st.get("where", "random")
    places: list[str] = []
    if where == "random":
        places = [village_arrow(ctx, ctx.rng.randint(1, 6)) for _ in range(int(st.get("n", 1)))]
    elif where == "empty":
        places = [loc for loc in LOCATIONS if loc != MONASTERY and not ctx.s.blights.get(loc)]
    elif where == "lowest_secrecy":
        heroes = [h for h in ctx.s.living() if h.location != MONASTERY]
        if heroes:
            lowest = min(h.secrecy for h in heroes)
            spots = sorted({h.location for h in heroes if h.secrecy == lowest}, key=LOCATIONS.index)
            places = [spots[0] if len(spots) == 1 else ctx.rng.choice(spots)]
    else:
        raise ValueError(f"blight_at cannot place at {where!r}")
    ctx.then([{"op": "create_blight", "where": location, "why": why} for location in places])


@step("necromancer_stalks", "hero", "leap", "max_secrecy", "pick", "power", "why")
def necromancer_stalks(ctx: Ctx, st: Step) -> None:
    """The Necromancer goes after the closest hero outside the Monastery whose secrecy is at
    most ``max_secrecy`` (or, with ``pick = "lowest_secrecy"``, the least hidden such
    hero): one step by the shortest route (DN 10.0), or straight to that hero's location
    with ``leap = true``. Ties are broken at random, as in DN 10.0."""
    s = ctx.s
    limit = int(st.get("max_secrecy", 99))
    prey = [h for h in s.living() if h.location != MONASTERY and h.secrecy <= limit]
    if not prey:
        return
    if st.get("pick") == "lowest_secrecy":
        lowest = min(h.secrecy for h in prey)
        prey = [h for h in prey if h.secrecy == lowest]
    dist = distances(s.necromancer)
    nearest = min(dist.get(h.location, 99) for h in prey)
    closest = sorted({h.location for h in prey if dist.get(h.location, 99) == nearest}, key=LOCATIONS.index)
    target = closest[0] if len(closest) == 1 else ctx.rng.choice(closest)
    why = str(st.get("why") or "a darkness card")
    if target == s.necromancer:
        return
    if st.get("leap"):
        move_necromancer(ctx, target, why)
        return
    options = first_steps(s.necromancer, target, False)
    move_necromancer(ctx, options[0] if len(options) == 1 else ctx.rng.choice(sorted(options)), why)


# -- lasting changes to the heroes ---------------------------------------------------------


@step("lasting_default", "card", "hero", "n", "power", "resource", "why")
def lasting_default(ctx: Ctx, st: Step) -> None:
    """Lower every hero's default grace or secrecy (DN 4.1) by ``n`` for as long as the card
    is in play: once per hero, marked ``darkness:<card>`` so a hero who joins later is
    caught at the next Necromancer turn (a replacement acts only from the next round,
    DN 13.1)."""
    resource = st["resource"]
    field = f"default_{resource}"
    mark = f"darkness:{st['card']}"
    for hero in ctx.s.living():
        if hero.flags.get(mark):
            continue
        old = getattr(hero, field)
        new = max(0, old - int(st.get("n", 1)))
        ctx.emit("HeroChanged", hero=hero.id, stat=field, to=new, by=new - old, why=st.get("why", ""))
        ctx.emit("HeroFlagged", hero=hero.id, flag=mark, value=True)


@step("tithe", "else", "else_label", "hero", "n", "power", "resource", "title", "why")
def tithe(ctx: Ctx, st: Step) -> None:
    """The heroes pay the Necromancer's price together: any one hero who has ``n`` of the
    ``resource`` may pay it, or they refuse and suffer ``else`` (a player's choice, DN 4.1:
    you cannot spend what you do not have)."""
    resource, n = st["resource"], int(st.get("n", 1))
    living = ctx.s.living()
    payers = [h for h in living if getattr(h, resource) >= n]
    refusal = [dict(e) for e in st.get("else", ())]
    if not payers:
        ctx.then(refusal)
        return
    why = str(st.get("why") or "a darkness card")
    loss = "lose_spark" if resource == "sparks" else f"lose_{resource}"
    options = [
        {
            "label": f"{hero_name(ctx, h.id)} pays {n} {resource}",
            "detail": why,
            "do": [{"op": loss, "hero": h.id, "n": n, "why": why}],
        }
        for h in payers
    ]
    options.append({"label": st.get("else_label", "Refuse to pay"), "detail": why, "do": refusal})
    ctx.then([{"op": "choose", "hero": payers[0].id, "title": st.get("title", why), "options": options}])


# -- quests and clues ----------------------------------------------------------------------


@step("advance_quests_near", "hero", "n", "power", "why")
def advance_quests_near(ctx: Ctx, st: Step) -> None:
    """Every quest at or next to the Necromancer's location gets ``n`` more time markers;
    one that reaches its time expires (DN 16.3)."""
    near = near_necromancer(ctx) | {ctx.s.necromancer}
    for quest in list(ctx.s.quests):
        if quest.location in near:
            advance_quest(ctx, quest.id, int(st.get("n", 1)))


@step("lose_clues", "hero", "n", "power", "why")
def lose_clues(ctx: Ctx, st: Step) -> None:
    """The heroes lose clues they have gathered (never below zero, DN 4.1)."""
    lost = min(ctx.s.clues, int(st.get("n", 1)))
    if lost > 0:
        ctx.emit("CluesChanged", to=ctx.s.clues - lost, by=-lost, why=st.get("why", "a darkness card"))


# -- activated darkness cards (DN 9.1) ------------------------------------------------------


@step("darkness_card_state", "card", "hero", "power", "state", "why")
def darkness_card_state(ctx: Ctx, st: Step) -> None:
    """Activate, deactivate or break a darkness card ("active", "inactive", "broken")."""
    if st["card"] in ctx.s.darkness_cards and ctx.s.darkness_active.get(st["card"]) != st["state"]:
        ctx.emit("DarknessCardChanged", card=st["card"], state=st["state"], why=st.get("why", ""))


@step("if_darkness_card", "card", "do", "hero", "power", "state", "why")
def if_darkness_card(ctx: Ctx, st: Step) -> None:
    """``do`` while the card is in the given state (default "active"), else ``else``."""
    fits = ctx.s.darkness_active.get(st["card"]) == st.get("state", "active")
    ctx.then([dict(e) for e in st.get("do" if fits else "else", ())])


# -- artifacts (DN 14.4) ------------------------------------------------------------------


@step("teleport", "hero", "power", "why")
def teleport(ctx: Ctx, st: Step) -> None:
    """Move the hero to any other location of the player's choice."""
    hero = ctx.s.heroes[st["hero"]]
    why = str(st.get("why") or "an artifact")
    options = [
        {"label": f"Go to the {loc}", "do": [{"op": "move_hero", "to": loc, "why": why}]}
        for loc in LOCATIONS
        if loc != hero.location
    ]
    ctx.then([{"op": "choose", "hero": hero.id, "title": why, "options": options}])


@step("push_necromancer", "hero", "power", "why")
def push_necromancer(ctx: Ctx, st: Step) -> None:
    """Drive the Necromancer to a location next to his, of the player's choice (never the
    Monastery, DN 10.0)."""
    why = str(st.get("why") or "an artifact")
    options = [
        {"label": f"Drive him to the {loc}", "do": [{"op": "move_necromancer", "to": loc, "why": why}]}
        for loc in sorted(neighbours(ctx, ctx.s.necromancer), key=LOCATIONS.index)
    ]
    ctx.then([{"op": "choose", "hero": st["hero"], "title": why, "options": options}])


@step("banish_blight", "hero", "power", "why")
def banish_blight(ctx: Ctx, st: Step) -> None:
    """Destroy a blight here that could be attacked (Shroud and Nexus protect, DN 11.2),
    without a roll; its destroyer is the hero (Last Gasp applies)."""
    hero = ctx.s.heroes[st["hero"]]
    targets, _ = attackable(ctx, hero)
    why = str(st.get("why") or "an artifact")
    options = [
        {"label": f"Destroy the {kind}", "do": [{"op": "destroy_blight", "blight": blight, "why": why}]}
        for blight, kind, _might in targets
    ]
    if options:
        ctx.then([{"op": "choose", "hero": hero.id, "title": why, "options": options}])


@step("progress_quest_here", "else", "hero", "n", "power", "why")
def progress_quest_here(ctx: Ctx, st: Step) -> None:
    """Add ``n`` progress to a quest at the hero's location (DN 16.2), the player's choice
    if several; with none here, ``else``."""
    hero = ctx.s.heroes[st["hero"]]
    quests = [q for q in ctx.s.quests if q.location == hero.location]
    n = int(st.get("n", 1))
    if not quests:
        ctx.then([dict(e) for e in st.get("else", ())], hero=hero.id)
        return
    options = [
        {
            "label": f"Advance {ctx.c.quests[q.card].name}",
            "do": [{"op": "quest_progress", "quest": q.id, "n": n}],
        }
        for q in quests
    ]
    ctx.then([{"op": "choose", "hero": hero.id, "title": "Advance a quest", "options": options}])
