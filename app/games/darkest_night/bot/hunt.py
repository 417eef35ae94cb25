"""The hunt (DN 18.1): once a hero carries a Holy Relic, the party picks one battlefield and
plays for a clean shot there.

The Necromancer walks toward a hero he detects and stays while he still detects one there
(DN 10.0); the bearer, whose relic costs him a secrecy each turn (DN 15.2), is the hero he
finds. So the bearer waits where few blights stand, keeping his secrecy low and his sparks
high (DN 4.2); the others gather there and destroy its blights; the bearer goes last and
fights the Necromancer when none is left (DN 12.2, 18.1). The one blight the Necromancer
adds each turn (DN 11.1) is what the others clear every round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.games.darkest_night.bot.common import hero_distances
from app.games.darkest_night.content import MONASTERY, load
from app.games.darkest_night.rules.necromancer import distances
from app.games.darkest_night.state import Hero, State
from app.kernel.types import Choice

if TYPE_CHECKING:
    from app.games.darkest_night.bot.planner import Planner

HOLD = 2
"""Blights at the bearer's location, with the Necromancer there, that the party still
fights through rather than move on (his next one makes it one more)."""
CHASE = 0.5
"""How much a battlefield's distance from the Necromancer counts beside the bearer's."""
HEAL_AT = 1
"""The grace at which a hero other than the bearer makes for the Monastery (DN 8.0)."""


def hero_steps(origin: str, target: str) -> int:
    return hero_distances(origin).get(target, 9)


def battlefield(state: State, carrier: Hero) -> str:
    """Where the party fights: the Necromancer's location while he stands with the bearer
    among few blights; else the place with the fewest blights, the nearer to the bearer
    (who waits there) and to the Necromancer (who comes to him) the better."""
    necro, here = state.necromancer, carrier.location
    if here == necro and state.blight_count(here) <= HOLD:
        return here
    chase = distances(necro)

    def cost(loc: str) -> float:
        moving = 0.0 if loc == here else 0.5
        return 3 * state.blight_count(loc) + hero_steps(here, loc) + CHASE * chase.get(loc, 9) + moving

    return min((loc for loc in load().locations if loc != MONASTERY), key=lambda loc: (cost(loc), loc))


class Hunt:
    """Scores a hero's actions during the hunt; ``None`` leaves a choice to the planner."""

    def __init__(self, planner: Planner, carrier: Hero) -> None:
        self.p = planner
        self.s = planner.s
        self.hero = planner.hero
        self.field = battlefield(self.s, carrier)
        self.is_bearer = self.hero is carrier

    def healing(self) -> bool:
        """A hero out of grace makes for the Monastery (a wound would kill him, DN 13.1)."""
        if self.is_bearer:  # beside another hero, who takes up his relic if he falls (DN 15.1)
            alone = len(self.s.heroes_at(self.hero.location)) == 1
            return self.hero.grace == 0 and (alone or self.hero.location == MONASTERY)
        return self.hero.grace <= HEAL_AT

    def goal(self) -> str:
        return MONASTERY if self.healing() else self.field

    def position(self, at: str) -> float:
        """Ending the turn at ``at``: the nearer the goal the better, less its dangers."""
        base = 60.0 if self.is_bearer else 45.0
        return base - 15.0 * hero_steps(at, self.goal()) - 0.5 * self.p.danger(at)

    def score(self, c: Choice) -> float | None:
        t = c.type
        if t == "travel":
            return self.position(str(c.args["to"]))
        if t == "power_action" and "to" in c.args:
            return self.position(str(c.args["to"])) + 1.0
        merit = self.merit(c)
        return None if merit is None else self.position(self.hero.location) + merit

    def merit(self, c: Choice) -> float | None:
        """What an action that leaves the hero where he is does for the hunt."""
        t = c.type
        hero, s = self.hero, self.s
        here = hero.location
        if t == "attack_necromancer":  # the kill (DN 12.2, 18.1): nothing else compares
            clean = self.is_bearer and not s.blights.get(here)
            return self.p.immediate(c) + (100.0 if clean else 0.0)
        if t == "pray":
            return 70.0 if self.healing() else 8.0 * self.p.heal_missing()
        if t == "attack":
            blight = str(c.args["blight"])
            worth = self.p.attack_score(blight)
            return 30.0 + worth if here == self.field else worth - 10.0
        if t == "meditate":
            if hero.sparks >= 3:
                return -5.0
            return 8.0 if self.is_bearer else 3.0
        if t == "hide":
            if self.is_bearer:  # the Necromancer must find him (DN 10.0)
                return self.p.refresh_value() - 4.0
            # Not even when the Necromancer is about to find him: the blights here come first.
            return self.p.refresh_value() + (2.0 if hero.secrecy < 5 else 0.0)
        if t == "end_action":
            return 0.0
        return None
