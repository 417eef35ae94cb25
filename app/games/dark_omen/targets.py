"""What on the map a Dark Omen choice acts on (the clickable-board contract, DESIGN.md
"Web"): the board marks its elements with ``data-target`` (templates/games/dark_omen/),
``choice_target`` names the mark a prompt's choice stands for, and the page wires the marks
with a live choice. ``priced`` writes a choice's cost in its detail (DO L240: a step is
1 AP, a black line 4 MP more; the Swamplands 2 AP), so it is read before the click.

Marks: ``space:48`` a space, ``space:Hoglichten:market`` a town's place, ``creature:c3``
an enemy, ``token:l05.17`` a face-up loot token lying on the map, ``loot:here`` the
face-down loot token under the viewer's own hero (the choice to flip it names no space),
``mydie:1`` one of the viewer's own dice in a battle's boost window (DO L404-406),
``team:2`` the team attack seat 2 proposes (join or decline), ``location:here`` the
location token under the viewer's hero (unlock it, make an offering, rest…), ``grave:here``
a fallen hero's belongings there (DO L201-202), ``prop:p1`` an omen's token to tend (a
fire to douse, a relic to take, a person to lead, DO L141-143), ``gear:g1_w5`` a card of the
market's stock, while the board lists it (someone stands in a town's market; a Trading Post
or a Village sells the same stock, DO L305-306, L332-333).
"""

from __future__ import annotations

from app.games.dark_omen.content import load
from app.games.dark_omen.rules import market, stats
from app.games.dark_omen.state import State
from app.kernel.types import Choice

CREATURE_COMMANDS = ("attack", "propose_team")
LOCATION_COMMANDS = frozenset(
    {
        "unlock",
        "runehenge",
        "courage_stone",
        "rejuvenate",
        "river",
        "gloomy",
        "blood_bag",
        "apothecary",
        "well",
        "ritual",
        "smithy",
        "make_camp",
        "hoard",
    }
)
"""What a hero does at the location token it stands on (DO L301-320, L502-535)."""


def choice_target(state: State, choice: Choice) -> str | None:
    args = choice.args
    if choice.type in ("move", "maze"):
        return f"space:{args['to']}"
    if choice.type in CREATURE_COMMANDS:
        return f"creature:{args['creature']}"
    if choice.type == "loot":
        return "loot:here"
    if choice.type == "take" and isinstance(args.get("token"), str):
        return f"token:{args['token']}"
    if choice.type in LOCATION_COMMANDS:
        return "location:here"
    if choice.type == "take_belongings":
        return "grave:here"
    if choice.type == "tend" and isinstance(args.get("prop"), str):
        return f"prop:{args['prop']}"
    if choice.type in ("boost", "courage", "pick_die"):
        return f"mydie:{args['index']}"
    if choice.type in ("join_team", "decline_team"):
        return f"team:{args['leader']}"
    if choice.type == "buy" and market.stock_on_show(state):
        return f"gear:{args['gear']}"
    return None


def priced(state: State, seat: int, choice: Choice) -> Choice:
    """A move's cost as its detail: AP (0 on a free step of Speed or Adrenaline), plus the
    MP of a black line (none when floating with Levity) and of a bridge (DO L240, L512)."""
    if choice.type != "move" or choice.detail or not 0 <= seat < len(state.heroes):
        return choice
    c = load()
    h = state.heroes[seat]
    here, to = h.at, choice.args["to"]
    ap, mp = 1, 0
    if isinstance(here, int) and isinstance(to, int):
        ap = stats.move_ap(state, c, seat, to)
        side = stats.side_of(state, c)
        if side.blocked(side.edge(here, to), state.layers) and not h.effects.get("levity", 0):
            mp += stats.obstacle_cost(state, c, seat)
        mp += stats.bridge_mp(state, here, to)
    if h.effects.get("free_steps", 0) > 0:
        ap = 0
    cost = f"{ap} AP" + (f" · {mp} MP" if mp else "")
    return Choice(choice.type, choice.args, choice.label, cost)
