"""Effect ops used by Darkest Night's event content that the shared vocabulary (rules/ops.py)
does not cover. Each is a registered step; its docstring cites the rule or card it serves."""

from __future__ import annotations

from app.games.darkest_night.content import MONASTERY
from app.games.darkest_night.engine import Ctx, Step, step
from app.games.darkest_night.rules.cards import village_arrow
from app.games.darkest_night.rules.common import blight_effect_active
from app.games.darkest_night.rules.necromancer import first_steps
from app.games.darkest_night.rules.ops import branch


@step("necromancer_approach", "hero", "power", "why")
def necromancer_approach(ctx: Ctx, st: Step) -> None:
    """The Necromancer moves one step toward this hero by the shortest route, ties at
    random; he never enters the Monastery, so a hero there draws him nowhere (DN 10.0); a
    Gate makes every location adjacent (DN 11.2). Startling News, Barghest, Unfriendly
    Eyes, Dark Scrying."""
    hero = ctx.s.heroes[st["hero"]]
    here = ctx.s.necromancer
    if hero.dead or hero.location in (MONASTERY, here):
        return
    gate = blight_effect_active(ctx, "necromancer_all_adjacent", None) > 0
    options = sorted(first_steps(here, hero.location, gate))
    to = options[0] if len(options) == 1 else ctx.rng.choice(options)
    ctx.then([{"op": "move_necromancer", "to": to, "why": st.get("why", "drawn toward a hero by an event")}])


@step("move_hero_random", "hero", "power", "why")
def move_hero_random(ctx: Ctx, st: Step) -> None:
    """Roll a die and move the hero to the location the Village's arrow for it shows, as a
    quest is placed (DN 16.1): never the Monastery. Upheaval."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead:
        return
    face = ctx.rng.randint(1, 6)
    ctx.emit(
        "DiceRolled",
        hero=hero.id,
        purpose="test",
        dice=1,
        target=None,
        faces=[face],
        kept=[face],
        successes=0,
        relic=False,
        terror=False,
        sources=[],
    )
    to = village_arrow(ctx, face)
    if to != hero.location:
        ctx.then([{"op": "move_hero", "hero": hero.id, "to": to, "why": st.get("why", "an event")}])


@step("by_quests", "cases", "hero", "power", "why")
def by_quests(ctx: Ctx, st: Step) -> None:
    """Cases by the number of quests in play (DN 16.0): ``cases = [{min, max, do}]``, the
    first that fits. Grim Tidings."""
    branch(ctx, st, len(ctx.s.quests))
