"""The hero bot's action step (DN 8.0): where each hero would like to be, and what each
offered action is worth toward finding clues, a Holy Relic and the Necromancer's end."""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

from app.games.darkest_night.bot.common import first, hero_distances, odds
from app.games.darkest_night.bot.hunt import Hunt
from app.games.darkest_night.bot.values import (
    CLUE,
    RESULT_VALUE,
    blight_harm,
    power_value,
)
from app.games.darkest_night.content import MONASTERY, load
from app.games.darkest_night.decisions import Action, Combat
from app.games.darkest_night.engine import Ctx
from app.games.darkest_night.rules.blights import blight_might, is_protected
from app.games.darkest_night.rules.combat import combat_choices
from app.games.darkest_night.rules.common import blight_effect_active, blight_param_total
from app.games.darkest_night.rules.dice import chance, roll_dice_count
from app.games.darkest_night.rules.items import keys_held
from app.games.darkest_night.rules.necromancer import distances
from app.games.darkest_night.rules.powers import default_grace, dice_bonus
from app.games.darkest_night.state import Hero, State
from app.kernel.types import Choice

# -- the action step (DN 8.0) -----------------------------------------------------------------


SEARCH_WEIGHT = 1.75
"""A search counts more than its result's worth: a hero who would otherwise wait in the
Monastery brings the relic nearer (measured: 1.5-2 win 2-3 % more games than 1)."""


@cache
def result_values(subdeck: str) -> dict[str, float]:
    """The average worth of a successful search at each location for this map subdeck (DN 3.3)."""
    content = load()
    cards = [m for m in content.map_cards.values() if subdeck == "everything" or subdeck in m.subdecks]
    out: dict[str, float] = {}
    for location in content.locations:
        found = [RESULT_VALUE.get(m.search[location], 1.0) for m in cards if location in m.search]
        out[location] = SEARCH_WEIGHT * sum(found) / len(found) if found else 0.0
    return out


def fight_chance(state: State, hero: Hero, strength: int, vs: str) -> float:
    """The best odds the hero's tactics give in a fight (DN 12.0), as the combat prompt shows."""
    d = {
        "hero": hero.id,
        "foe": {"name": "", "strength": strength, "awareness": None},
        "vs": vs,
        "allow": ["fight"],
    }
    best = 0
    for c in combat_choices(state, Combat(seat=hero.seat, step=d)):
        if c.type == "resolve_combat":
            best = max(best, odds(c))
    return best / 100


def clue_cost(state: State) -> int:
    """What a relic costs (DN 8.0, 20.2.1); in keys without mysteries (DN 20.5)."""
    if state.options.get("no_mysteries"):
        return 3
    return 17 if state.options.get("heroes") == 5 and state.relics_retrieved == 0 else 10


def have_clues(state: State) -> int:
    return keys_held(state) if state.options.get("no_mysteries") else state.clues


def bearer(state: State) -> Hero | None:
    return next((h for h in state.living() if h.relics()), None)


DICE = re.compile(r"(\d+) dic?e vs")


def kill_chance(state: State, hero: Hero, *, sparks: bool = True) -> float:
    """The hero's best chance to beat the Necromancer (strength 7) holding a Holy Relic
    (+1 to the highest die, DN 12.2, 15.2), sparks included (DN 4.2)."""
    d = {"hero": hero.id, "foe": {"name": "", "strength": 7, "awareness": None}, "vs": "necromancer"}
    dice = 1
    for c in combat_choices(state, Combat(seat=hero.seat, step=d | {"allow": ["fight"]})):
        found = DICE.search(c.detail)
        if found:
            dice = max(dice, int(found.group(1)))
    return chance(dice + (hero.sparks if sparks else 0), 7, relic=True)


def lost_relics(state: State) -> list[str]:
    """Where a fallen hero's relic waits for the next hero to arrive (DN 15.1)."""
    return [loc for loc, items in state.orphaned.items() if any(i.kind == "holy_relic" for i in items)]


def retriever(state: State) -> Hero | None:
    """Who should fetch the relic once the clues suffice (DN 8.0): the best Necromancer
    fighter, discounted by the distance to the nearest relic."""
    sites = [loc for loc, v in state.relics.items() if v == "undiscovered"]
    if not sites:
        return None
    best: tuple[float, Hero] | None = None
    for hero in state.living():
        if hero.joins_next_round:
            continue
        dist = min(hero_distances(hero.location).get(loc, 9) for loc in sites)
        score = kill_chance(state, hero, sparks=False) * (0.8**dist) + 0.01 * hero.grace
        if best is None or score > best[0]:
            best = (score, hero)
    return best[1] if best else None


def mystery_value(state: State, hero: Hero, placed: Any) -> float:
    """The clues a mystery's action may still give (DN 17.3), in clue-tenths."""
    spec = load().mysteries.get(placed.card)
    if spec is None:
        return 0.0
    data = spec.data
    if placed.card == "wandering_sage":
        return -20.0
    if placed.card in ("hidden_cellar", "sunken_chapel"):
        return 2.0
    if placed.card == "common_knowledge":
        return CLUE * len(state.quests) - 3
    if placed.card == "reading_room":
        return 6.0 if hero.grace >= 3 and hero.secrecy >= 2 else -5.0
    if placed.card == "black_market":
        return 18.0 if any(i.kind not in ("holy_relic",) and not i.locked for i in hero.items) else -5.0
    total = 0.0
    for index, key in enumerate(data.get("keys", ())):
        if index in placed.keys:
            continue
        clues = sum(int(e.get("n", 0)) for e in key.get("do", ()) if e.get("op") == "clues")
        worth = clues * CLUE + (3 if not clues else 0)
        minimum = key.get("min")
        if minimum is None:
            text = key.get("text", "").lower()
            if "grace" in text and hero.grace <= 2:
                continue
            if "item" in text and not any(i.kind != "holy_relic" for i in hero.items):
                continue
            if "secrecy" in text and hero.secrecy < 3:
                continue
            total += worth
        else:
            p = 1 - ((int(minimum) - 1) / 6) ** 2
            total += worth * p
    return total


class Planner:
    """Scores a hero's action choices (DN 8.0): find clues, retrieve a relic, take it to the
    Necromancer and slay him (DN 18.1), and keep blights from overrunning the Monastery (DN 18.3)."""

    def __init__(self, state: State, hero: Hero) -> None:
        self.s = state
        self.hero = hero
        self.ctx = Ctx.reader(state)
        self.carrier = bearer(state)
        self.need = clue_cost(state)
        self.clues = have_clues(state)
        self.subdeck_values = result_values(str(state.options.get("subdeck", "simplicity")))
        self.relic_sites = [loc for loc, v in state.relics.items() if v == "undiscovered"]
        self.lost = lost_relics(state)
        self.fetcher = retriever(state) if self.carrier is None and self.clues >= self.need else None
        self.values: dict[str, float] = {}
        self.chances: dict[tuple[int, str], float] = {}
        self.stay: float | None = None
        self.hunt = Hunt(self, self.carrier) if self.carrier is not None and not self.lost else None

    def fight(self, might: int, vs: str) -> float:
        key = (might, vs)
        if key not in self.chances:
            self.chances[key] = fight_chance(self.s, self.hero, might, vs)
        return self.chances[key]

    # what the hero could do at a location next turn
    def search_value(self, location: str) -> float:
        if location == MONASTERY:
            return 0.0
        difficulty = (
            self.ctx.c.locations[location].search
            + blight_param_total(self.ctx, "search_difficulty", location, hero=self.hero)
            + blight_param_total(self.ctx, "search_difficulty_everywhere", location, hero=self.hero)
        )
        dice = roll_dice_count(self.ctx, self.hero, "search", 1, {})
        return chance(dice, difficulty) * self.subdeck_values.get(location, 0.0) * self.clue_weight()

    def clue_weight(self) -> float:
        """Clues matter until a relic can be bought; a little after, for the next one."""
        if self.carrier is not None or self.clues >= self.need:
            return 0.3
        return 1.0

    def mystery_here(self, location: str) -> float:
        return (
            max(
                (mystery_value(self.s, self.hero, m) for m in self.s.mysteries if m.location == location),
                default=0.0,
            )
            * self.clue_weight()
        )

    def pilfer_value(self, location: str) -> float:
        power = self.hero.power("mesmer.pilfer_secrets")
        if power is None:
            return 0.0
        value = min(3, len(self.s.blights.get(location, []))) * CLUE * self.clue_weight()
        return value * 0.5 if power.exhausted else value  # a hide or a prayer refreshes it first

    def refresh_value(self) -> float:
        """Refreshing (hide, pray, DN 14.2) is worth the next use of the exhausted powers."""
        here = self.hero.location
        total = 0.0
        for power in self.hero.powers:
            if not power.exhausted:
                continue
            if power.id == "mesmer.pilfer_secrets":
                total += 0.7 * min(3, len(self.s.blights.get(here, []))) * CLUE * self.clue_weight()
            elif power.id == "seer.dowse":
                total += 0.7 * self.subdeck_values.get(here, 0.0) * self.clue_weight()
            else:
                total += 2 * power_value(power.id)
        return total

    def relic_value(self, location: str) -> float:
        if location in self.lost and not self.hero.relics():
            return 90.0
        if self.fetcher is self.hero and location in self.relic_sites:
            return 90.0
        return 0.0

    def attack_value(self, location: str) -> float:
        """The best blight to attack there (DN 12.1)."""
        best = 0.0
        for blight in self.s.blights.get(location, []):
            if is_protected(self.ctx, location, blight.id):
                continue
            best = max(best, self.attack_score(blight.id))
        return best

    def location_value(self, location: str) -> float:
        if location not in self.values:
            self.values[location] = max(
                self.search_value(location),
                self.mystery_here(location),
                self.pilfer_value(location),
                self.relic_value(location),
                self.heal_value(location),
                self.attack_value(location),
            )
        return self.values[location]

    def may_heal(self, at: str = MONASTERY) -> bool:
        """Whether a prayer at ``at`` may restore grace: a blight may stop every gain (DN 4.1,
        11.2)."""
        return not blight_effect_active(self.ctx, "no_grace_gain", at, hero=self.hero)

    def missing_grace(self) -> int:
        return max(0, default_grace(self.ctx, self.hero) - self.hero.grace)

    def heal_missing(self) -> int:
        """The grace a prayer could restore (DN 8.0)."""
        return self.missing_grace() if self.may_heal() else 0

    def heal_value(self, location: str) -> float:
        if location != MONASTERY or not self.may_heal():
            return 0.0
        missing = self.missing_grace()
        if self.hero is self.carrier:  # only while a fallen hero's relic lies elsewhere
            if self.hero.grace == 0:
                return 60.0 + 5 * missing
            return 4.0 * missing if self.hero.location == MONASTERY else 0.0
        if self.hero.grace <= 1:
            return 60.0 + 5 * missing
        if self.hero.location != MONASTERY:
            return 0.0  # grace is fine: no detour to the Monastery (DN 8.0)
        return 4.0 * missing

    def danger(self, location: str) -> float:
        """Ending a turn here (DN 11.2, 7.2): monsters of blights, the Necromancer."""
        if location == MONASTERY:
            return 0.0
        content = self.ctx.c
        monsters = sum(
            1 for b in self.s.blights.get(location, []) if content.blights[b.type].color == "yellow"
        )
        risk = monsters * (4 if self.hero.grace >= 3 else 10)
        if location == self.s.necromancer and self.hero is not self.carrier:
            risk += 12 if self.hero.secrecy <= 1 else 5 if self.hero.secrecy <= 2 else 2
        risk += self.lure_risk(location)
        return risk

    def mortal_risk(self, location: str) -> float:
        """Where the Necromancer stands or can step, a hero out of secrecy is attacked at his
        next event step (DN 7.2, 10.0, 12.2): with no grace to spend on the wound he dies
        (DN 13.1), raising the darkness and maybe dropping the relic (DN 13.5, 15.1)."""
        hero = self.hero
        if location == MONASTERY or hero.secrecy >= 3 or hero.grace >= 2:
            return 0.0
        if location != self.s.necromancer or hero.secrecy >= 2:
            return 0.0
        return 40.0 if hero.grace == 0 else 10.0

    def lure_risk(self, location: str) -> float:
        """A hero he detects draws the Necromancer (DN 10.0); where 4 blights stand, his next
        blight falls on the Monastery instead (DN 11.1, 18.3)."""
        count = self.s.blight_count(location)
        if count < 3 or location == MONASTERY:
            return 0.0
        near = distances(self.s.necromancer).get(location, 9)
        if near > 1:
            return 0.0
        exposed = max(0.0, (6 - self.hero.secrecy) / 6)
        if self.hero is self.carrier:
            exposed = 1.0
        return exposed * (6.0 + 6.0 * self.s.blight_count(MONASTERY)) * (1.5 if count >= 4 else 0.7)

    def position(self, at: str) -> float:
        """Ending the turn at ``at``: the best place within reach, discounted by the steps
        left, less the dangers of the night there."""
        dist = hero_distances(at)
        best = 0.0
        for location in self.ctx.c.locations:
            best = max(best, self.location_value(location) * (0.65 ** dist[location]))
        return 0.8 * best - 0.5 * self.danger(at) - self.mortal_risk(at)

    def travel_score(self, to: str) -> float:
        gain = 2.0 if self.hero.secrecy < 5 else 0.0
        return self.position(to) + gain

    def overflow_value(self, location: str) -> float:
        """Destroying a blight here (DN 11.1, 18.3): urgent where the Necromancer will add one
        to a full location, and in the Monastery itself."""
        count = self.s.blight_count(location)
        monastery = self.s.blight_count(MONASTERY)
        if location == MONASTERY:
            return 15.0 + 12.0 * monastery
        value = 6.0
        if location == self.s.necromancer:
            value += 6.0 * max(0, count - 1) + (8.0 * monastery if count >= 3 else 0.0)
        elif count >= 4:
            value += 6.0
        return value

    def attack_score(self, blight_id: str, dice_option: int | None = None) -> float:
        found = self.s.find_blight(blight_id)
        if found is None:
            return -1.0
        location, blight = found
        spec = self.ctx.c.blights[blight.type]
        might = blight_might(self.ctx, blight.type)
        if dice_option:
            bonus = sum(n for _, n in dice_bonus(self.ctx, self.hero, "fight", {"vs": "attack"}))
            p = chance(dice_option + bonus, might)
        else:
            p = self.fight(might, "attack")
        loss = 0.0
        for effect in spec.defense:
            op = effect.get("op")
            if op == "wound":
                loss += 8 if self.hero.grace >= 2 else 50
            elif op == "lose_grace":
                loss += 6 if self.hero.grace >= 2 else 15
            elif op == "lose_turn":
                loss += 6
            else:
                loss += 3
        harm = blight_harm(self.s, blight_id) / 2
        if spec.effect == "protects_elsewhere":
            harm += 20.0
        secrecy_cost = 3 if self.hero.secrecy <= 2 else 1
        return p * (self.overflow_value(location) + harm) - (1 - p) * loss - secrecy_cost

    def score(self, c: Choice) -> float:
        """An action's worth: what it does now, plus where it leaves the hero."""
        if self.hunt is not None:
            hunted = self.hunt.score(c)
            return self.immediate(c) if hunted is None else hunted
        value = self.immediate(c)
        if c.type == "travel" or "to" in c.args:
            return value
        if self.stay is None:
            self.stay = self.position(self.hero.location)
        return value + self.stay

    def immediate(self, c: Choice) -> float:
        hero, s = self.hero, self.s
        here = hero.location
        t = c.type
        if t == "retrieve_relic":
            return 200.0
        if t == "end_action":
            return -1.0
        if t == "travel":
            return self.travel_score(c.args["to"])
        if t == "attack_necromancer":
            if not hero.relics():
                return -10.0
            p = kill_chance(s, hero)
            if not s.blights.get(here):
                return 150.0 * p - (0 if hero.grace >= 1 else 40)
            return p * (self.overflow_value(here) + 5) - (1 - p) * (8 if hero.grace >= 2 else 50)
        if t == "attack":
            return self.attack_score(str(c.args["blight"]))
        if t == "search":
            return odds(c) / 100 * self.subdeck_values.get(here, 0.0) * self.clue_weight()
        if t == "mystery_action":
            placed = next((m for m in s.mysteries if m.id == c.args.get("mystery")), None)
            return mystery_value(s, hero, placed) if placed else -5.0
        if t == "quest_action":
            return 6.0
        if t == "pray":  # in the Monastery, or where a power allows it (DN 8.0)
            if not self.may_heal(here):
                return self.refresh_value() - 2
            missing = self.missing_grace()
            base = (25.0 + 8 * missing) if hero.grace <= 1 else 6.0 * missing
            return base + self.refresh_value()
        if t == "hide":
            secrecy = 5 if hero.secrecy <= 1 else 2 if hero.secrecy < 5 else 0
            return self.refresh_value() + secrecy
        if t == "meditate":
            if hero.sparks >= 3:
                return -5.0
            return 14.0 if hero is self.carrier else 3.0
        if t == "power_action":
            return self.power_score(c)
        return 0.0

    def power_score(self, c: Choice) -> float:
        hero, s = self.hero, self.s
        power_id = str(c.args.get("power", ""))
        spec = self.ctx.c.all_powers.get(power_id)
        if spec is None or not spec.action:
            return -5.0
        action = spec.action
        ops = [e.get("op") for e in action.get("effects", ())]
        here = hero.location
        if "to" in c.args:  # a power that moves the hero (Woodland Stride, Long Road ...)
            extra = 4.0 if ("refresh_powers" in ops or "gain_secrecy" in ops or "move_choice" in ops) else 0.0
            if "offer_attack" in ops:
                extra = 2.0
            return self.travel_score(c.args["to"]) + extra - (3.0 if action.get("exhaust") else 0.0)
        if "by_blights_here" in ops:
            return min(3, len(s.blights.get(here, []))) * CLUE * self.clue_weight() - 2
        if "clues" in ops:
            n = sum(int(e.get("n", 1)) for e in action.get("effects", ()) if e.get("op") == "clues")
            return n * CLUE * self.clue_weight() - (2 if action.get("exhaust") else 0)
        if "auto_search" in ops:
            return self.subdeck_values.get(here, 0.0) * self.clue_weight() - 3
        if "search_with" in ops:
            difficulty = self.ctx.c.locations[here].search + blight_param_total(
                self.ctx, "search_difficulty", here, hero=hero
            )
            dice = roll_dice_count(self.ctx, hero, "search", 2, {})
            return chance(dice, difficulty) * self.subdeck_values.get(here, 0.0) * self.clue_weight() - 2
        if "draw_mystery" in ops:
            return 16.0 * self.clue_weight()
        if "banish_blight" in ops and not spec.artifact:  # no roll: Final Rest, Exorcism
            grace = int(action.get("cost", {}).get("grace", 0))
            targets = [b.id for b in s.blights.get(here, []) if not is_protected(self.ctx, here, b.id)]
            value = max((self.attack_score(b, 99) for b in targets), default=-5.0)
            return value - 3.0 * grace - (20.0 if hero.grace - grace < 1 else 0.0)
        if "attack_with" in ops:
            dice = int(next(e for e in action["effects"] if e.get("op") == "attack_with").get("dice", 3))
            targets = [b.id for b in s.blights.get(here, [])]
            return max((self.attack_score(b, dice) for b in targets), default=-5.0) - 2
        if "gain_grace" in ops or "for_target_hero" in ops:
            missing = max(0, default_grace(self.ctx, hero) - hero.grace)
            return (20.0 + 4 * missing) if hero.grace <= 1 else 4.0 * min(missing, 2)
        if "refresh_powers" in ops:
            return self.refresh_value() + (2 if "gain_secrecy" in ops or "gain_spark" in ops else 0)
        if "darkness" in ops:
            return 8.0 if s.darkness >= 20 else 2.0
        if "each_hero_here" in ops:
            return 1.5 * len(s.heroes_at(here))
        if action.get("activate"):
            power = hero.power(power_id)
            if power is not None and power.active:
                return -5.0
            target = str(c.args.get("target", ""))
            if target.startswith("hero:"):
                helped = s.heroes.get(target[5:])
                if helped is not None and helped.relics():
                    return 12.0
            return 4.0 if power_id.startswith("knight.oath") else 1.0
        return 0.0


def goal_location(state: State, hero: Hero) -> str:
    """Where the planner would most like the hero to be (in the hunt, its goal)."""
    planner = Planner(state, hero)
    if planner.hunt is not None:
        return planner.hunt.goal()
    return max(load().locations, key=planner.location_value)


def choose_action(state: State, choices: list[Choice], rng: random.Random) -> Choice:
    """The action step (DN 8.0): every offered action is scored by the planner."""
    decision = state.decision
    assert isinstance(decision, Action)
    hero = state.heroes[decision.hero]
    if decision.taken:
        return first(choices, "end_action") or choices[0]
    planner = Planner(state, hero)
    scored = [(planner.score(c), i) for i, c in enumerate(choices)]
    best = max(score for score, _ in scored)
    top = [choices[i] for score, i in scored if score >= best - 1e-9]
    return top[0] if len(top) == 1 else rng.choice(top)
