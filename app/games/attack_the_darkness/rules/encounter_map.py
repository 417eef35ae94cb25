"""Creating an encounter map (AtD L244-251): the stairs tile and the tiles drawn face down
(AtD L245; a sample dungeon's authored layouts, AtD L437-466), placed in turn touching a
placed tile (AtD L248, L262; the game master in Tabletop, AtD L273), and the characters'
tokens on the stairs (AtD L251; the Arena's corners, AtD L290). The dungeon deck's
reshuffle (AtD L282)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import PlaceTile, PlaceToken
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.grid import Square, tile_order, tile_squares
from app.games.attack_the_darkness.rules.drawing import bump
from app.games.attack_the_darkness.rules.query import lst, occupied
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import GM_SEAT, Choice

C = load()
step = RULES.step


def encounter_name(s: State, index: int) -> str:
    if s.arena:
        return "The Arena"
    if s.dungeon != "random":
        encs = C.dungeons[s.dungeon].encounters
        return encs[index][0] if index < len(encs) else f"Encounter {index + 1}"
    return f"Encounter {index + 1}"


@step("begin_encounter", "index")
def begin_encounter(ctx: Ctx, st: Step) -> None:
    """The map (AtD L244-251), tokens, danger and monsters (AtD L252-263)."""
    s = ctx.s
    index = st["index"]
    walls = [list(w) for w in C.arena["walls"]] if s.arena else []
    tiles = s.tiles_next
    ctx.emit("EncounterBegan", encounter=index, name=encounter_name(s, index), tiles=tiles, walls=walls)
    if s.arena:
        ctx.then([{"op": "arena_initiative"}])
        return
    if s.dungeon != "random" and s.encounter < len(C.dungeons[s.dungeon].encounters):
        layout = C.dungeons[s.dungeon].encounters[s.encounter][1]
        tiles = len(layout)
        need_tiles(ctx, tiles - 1)
        x, y, o = layout[0]
        ctx.emit("TilePlaced", x=x, y=y, o=o, stairs=True, seat=None)
        for x, y, o in layout[1:]:
            ctx.emit("TilePlaced", x=x, y=y, o=o, stairs=False, seat=None)
        ctx.then([{"op": "populate"}])
        return
    need_tiles(ctx, tiles - 1)
    ctx.emit("TilePlaced", x=0, y=0, o="v", stairs=True, seat=None)
    ctx.then([{"op": "place_tiles"}, {"op": "populate"}])


def need_tiles(ctx: Ctx, n: int) -> None:
    """Draw ``n`` dungeon cards face down as tiles (AtD L245), reshuffling the discards
    when the deck runs out (AtD L282)."""
    s = ctx.s
    if len(s.dungeon_deck) < n:
        reshuffle_dungeon(ctx)
    ctx.emit("TilesDrawn", n=min(n, len(s.dungeon_deck)))


def reshuffle_dungeon(ctx: Ctx) -> None:
    """The discards rejoin the dungeon deck, shuffled (AtD L282), under new names (``bump``)."""
    s = ctx.s
    pile = s.dungeon_deck + [bump(c) for c in s.dungeon_discard]
    ctx.rng.shuffle(pile)
    ctx.emit("DeckShuffled", deck="dungeon", order=pile, n=len(pile))


def tile_spots(s: State) -> list[tuple[int, int, str]]:
    """Every legal spot for the next tile: no overlap, a square adjacent (8 ways) to a
    placed tile's square (AtD L248), grid-aligned, either orientation."""
    placed = s.open_squares()
    near: set[Square] = set()
    for x, y in placed:
        near |= {(x + i, y + j) for i in (-1, 0, 1) for j in (-1, 0, 1)}
    near -= placed
    out: set[tuple[int, int, str]] = set()
    for x, y in near:
        for o, (w, h) in (("v", (3, 4)), ("h", (4, 3))):
            for i in range(w):
                for j in range(h):
                    spot = (x - i, y - j, o)
                    if not set(tile_squares(*spot)) & placed:
                        out.add(spot)
    return sorted(out)


@step("place_tiles")
def place_tiles(ctx: Ctx, st: Step) -> None:
    """Players take turns placing tiles (AtD L262); the game master in Tabletop (AtD L273)."""
    s = ctx.s
    if not s.pool:
        return
    placed = len(s.tiles) - 1
    seat: Any = GM_SEAT if s.tabletop else s.order[placed % len(s.order)]
    ctx.ask(PlaceTile(seat=seat, left=len(s.pool)))


@RULES.decision(PlaceTile, lambda s, d: tile_choices(s))
def resolve_place_tile(ctx: Ctx, d: PlaceTile, _t: str, args: dict[str, Any]) -> None:
    ctx.emit("TilePlaced", x=args["x"], y=args["y"], o=args["o"], stairs=False, seat=d.seat)
    ctx.then([{"op": "place_tiles"}])


def tile_choices(s: State) -> list[Any]:
    return [
        Choice(
            "place_tile",
            {"x": x, "y": y, "o": o},
            f"Place a tile at {x},{y} {'upright' if o == 'v' else 'sideways'}",
        )
        for x, y, o in tile_spots(s)
    ]


@step("place_token", "seat")
def place_token(ctx: Ctx, st: Step) -> None:
    """Characters go on any open squares of the stairs tile (AtD L251). **Decision:** each
    player places their own token, one at a time in marching order (facts file §10); in
    the Arena in initiative order, in the team's corner (AtD L290)."""
    if token_squares(ctx.s, st["seat"]):
        ctx.ask(PlaceToken(seat=st["seat"]))


def token_squares(s: State, seat: int) -> list[Square]:
    """Where ``seat`` may put its token: the stairs squares no token stands on, logo first
    then clockwise (AtD L251, L260); in the Arena its team's corner, the teams' corners
    numbered by their best initiative (AtD L288, L290; facts file §15)."""
    taken = occupied(s)
    if s.arena:
        teams: list[int] = []
        for x in s.order:
            if s.teams[x] not in teams:
                teams.append(s.teams[x])
        corner = C.arena["corners"][teams.index(s.teams[seat])]
        return [(x, y) for x, y in corner if (x, y) not in taken]
    stairs = next(t for t in s.tiles if t.stairs)
    return [sq for sq in tile_order(stairs.x, stairs.y, stairs.o) if sq not in taken]


def token_choices(s: State, d: PlaceToken) -> list[Any]:
    where = "in your corner" if s.arena else "on the stairs"
    return [
        Choice("token", {"to": lst(sq)}, f"Start {where} at {sq[0]},{sq[1]}")
        for sq in token_squares(s, int(d.seat))
    ]


@RULES.decision(PlaceToken, token_choices)
def resolve_token(ctx: Ctx, d: PlaceToken, _t: str, args: dict[str, Any]) -> None:
    ctx.emit("TokenPlaced", seat=d.seat, square=list(args["to"]))
