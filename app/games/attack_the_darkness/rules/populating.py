"""Populating an encounter (AtD L252-263, L224-226): the danger level, dungeon cards
revealed until their danger meets it, boss sets completed or set aside, a set of monsters
placed on the farthest empty tile (the players choose between tied tiles, AtD L255); in
Tabletop the game master's picks within danger + 5 and placements (AtD L271-274)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import ChooseTile, GmPick, GmPlace
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.grid import Square, chebyshev, path_distances, tile_order, tile_squares
from app.games.attack_the_darkness.rules.encounter_map import reshuffle_dungeon
from app.games.attack_the_darkness.rules.query import ckey, lst, occupied, pos
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import GM_SEAT, Choice

C = load()
step = RULES.step


TABLETOP_MARGIN = 5
"""The game master picks monsters totalling up to danger + 5 (AtD L274)."""


def danger_level(s: State) -> int:
    """Players × tiles + every held advancement's danger (AtD L253)."""
    adv = sum(C.advancements[s.cards[a]].danger for ch in s.chars for a in ch.advancements)
    return len(s.names) * len(s.tiles) + adv


@step("populate")
def populate(ctx: Ctx, st: Step) -> None:
    """Populating an encounter (AtD L251-263): the players place their tokens on the stairs,
    then the danger level is set and the monsters come."""
    s = ctx.s
    steps: list[Step] = [{"op": "place_token", "seat": seat} for seat in s.order]
    ctx.then([*steps, {"op": "populate_begin"}])


@step("populate_begin")
def populate_begin(ctx: Ctx, st: Step) -> None:
    """The danger level (AtD L253); the game master's picks in Tabletop (AtD L274); else a
    sample dungeon's set-aside cards come first, then the seed of a dig (facts file §10),
    then the dungeon deck (``populate_next``)."""
    s = ctx.s
    level = danger_level(s)
    ctx.emit("DangerSet", danger=level, players=len(s.names), tiles=len(s.tiles))
    if s.tabletop:
        ctx.ask(GmPick(seat=GM_SEAT, total=0))
        return
    steps: list[Step] = []
    if s.reserved and s.encounter + 1 == C.dungeons[s.dungeon].set_aside_encounter:
        steps += [{"op": "reveal_card", "card": inst, "source": "reserved"} for inst in s.reserved]
    if s.seed:
        steps += [{"op": "reveal_card", "card": inst, "source": "seed"} for inst in s.seed]
        steps.append({"op": "seed_spent"})
    ctx.then([*steps, {"op": "populate_next"}])


@step("reveal_card", "card", "source")
def reveal_card(ctx: Ctx, st: Step) -> None:
    """A known card (set aside by a sample dungeon, or seeded by a dig) is revealed."""
    reveal(ctx, st["card"], st["source"])


@step("seed_spent")
def seed_spent(ctx: Ctx, st: Step) -> None:
    """Dug monsters count half their combined danger, rounded up (AtD L281; facts file §12)."""
    s = ctx.s
    ctx.emit("SeedSpent", danger=(s.seed_danger + 1) // 2 if s.seed_danger else 0)


@step("populate_next")
def populate_next(ctx: Ctx, st: Step) -> None:
    """Reveal the top dungeon card until the revealed monsters' danger meets or exceeds the
    danger level (AtD L254-257); the deck is reshuffled only when empty (AtD L282). Then
    partial boss sets go to the bottom of the deck (AtD L225) and the first round begins."""
    s = ctx.s
    if s.revealed < s.danger:
        if not s.dungeon_deck and s.dungeon_discard:
            reshuffle_dungeon(ctx)
        if s.dungeon_deck:
            ctx.then([{"op": "populate_next"}])
            reveal(ctx, s.dungeon_deck[0], "deck")
            return
    if s.set_aside:
        ctx.emit("BossCardsReturned", n=len(s.set_aside), cards=[s.cards[c] for c in s.set_aside])
    ctx.then([{"op": "round"}])


def reveal(ctx: Ctx, inst: str, source: str) -> None:
    """One revealed dungeon card (AtD L254-257, L224-226); the event carries the danger it
    adds (none for a seed's cards, counted as half their danger instead)."""
    s = ctx.s
    card = s.cards[inst]
    kind = C.dungeon_kind(card)
    if kind != "monster":
        ctx.emit("DungeonCardRevealed", card=inst, id=card, source=source, to="discard", danger=0)
        return
    mon = C.monsters[card]
    danger = 0 if source == "seed" else mon.danger
    have = [inst]
    if mon.boss_set:
        have = [c for c in s.set_aside if C.monsters[s.cards[c]].boss_set == mon.boss_set] + [inst]
        if len(have) < mon.boss_parts:
            ctx.emit("DungeonCardRevealed", card=inst, id=card, source=source, to="set_aside", danger=0)
            return
    ctx.emit("DungeonCardRevealed", card=inst, id=card, source=source, to="line", danger=danger)
    enter_monsters(ctx, card, have)


def tile_ranking(s: State) -> list[tuple[tuple[bool, int, int], int]]:
    """The non-stairs tiles best first for a set of monsters (AtD L255, L258): empty before
    occupied, then the least full, then the farthest (walking distance from the nearest
    character to the tile's nearest square); each with its key, so ties show."""
    taken = occupied(s)
    chars = [pos(s, ckey(i)) for i in range(len(s.chars))]
    dist = path_distances(s.open_squares(), [c for c in chars if c is not None])
    out = []
    for k, t in enumerate(s.tiles):
        if t.stairs:
            continue
        sqs = tile_squares(t.x, t.y, t.o)
        far = min((dist.get(sq, 999) for sq in sqs), default=999)
        full = sum(1 for sq in sqs if sq in taken)
        if full < len(sqs):
            out.append(((full > 0, full, -far), k))
    return sorted(out)


def enter_monsters(
    ctx: Ctx, card: str, cards: list[str], *, near: str | None = None, tile: int | None = None
) -> None:
    """Place a set of monsters (AtD L258-260): the empty tile farthest from the players,
    logo first then clockwise, spiralling in; never the stairs; overflow to the least full,
    farthest tile. When tiles tie for farthest the players choose (AtD L255): the party's
    first seat in marching order is asked (``ChooseTile``), unless ``tile`` names the choice."""
    s = ctx.s
    mon = C.monsters[card]
    n = mon.number
    taken = occupied(s)
    squares: list[Square] = []
    if near is not None:
        here = pos(s, near)
        assert here is not None
        ring = sorted(s.open_squares() - taken, key=lambda sq: (chebyshev(here, sq), sq))
        squares = ring[:n]
    else:
        ranking = tile_ranking(s)
        if tile is None and ranking:
            tied = [k for key, k in ranking if key == ranking[0][0]]
            if len(tied) > 1:
                ctx.ask(ChooseTile(seat=s.order[0], card=card, cards=list(cards), tiles=tied))
                return
        ordered = [k for _, k in ranking]
        if tile is not None:
            ordered = [tile] + [k for k in ordered if k != tile]
        for k in ordered:
            t = s.tiles[k]
            for sq in tile_order(t.x, t.y, t.o):
                if len(squares) < n and sq not in taken and sq not in squares:
                    squares.append(sq)
            if len(squares) >= n:
                break
    monsters = []
    for k, sq in enumerate(squares):
        monsters.append({"id": f"m{s.monster_seq + 1 + k}", "square": lst(sq), "hp": mon.hp})
    entry = f"L{s.monster_seq + 1}"
    at = s.monsters[near].entry if near is not None else None
    ctx.emit(
        "MonstersEntered",
        entry=entry,
        card=card,
        cards=cards,
        monsters=monsters,
        at_left_of=at,
        name=mon.name,
    )


def tile_tie_choices(s: State, d: ChooseTile) -> list[Any]:
    name = C.monsters[d.card].name
    out = []
    for k in d.tiles:
        t = s.tiles[k]
        out.append(Choice("tile", {"tile": k}, f"{name} go to the tile at {t.x},{t.y}"))
    return out


@RULES.decision(ChooseTile, tile_tie_choices)
def resolve_tile_tie(ctx: Ctx, d: ChooseTile, _t: str, args: dict[str, Any]) -> None:
    enter_monsters(ctx, d.card, list(d.cards), tile=args["tile"])


def gm_pick_choices(s: State, d: GmPick) -> list[Any]:
    out = []
    seen: set[str] = set()
    level = s.danger
    for inst in s.dungeon_deck:
        card = s.cards[inst]
        mon = C.monsters.get(card)
        if mon is None or card in seen or (mon.boss_set and mon.boss_part != 1):
            continue
        if (
            mon.boss_set
            and sum(1 for c in s.dungeon_deck if C.monsters.get(s.cards[c], mon).boss_set == mon.boss_set)
            < mon.boss_parts
        ):
            continue
        seen.add(card)
        if d.total + mon.danger <= level + TABLETOP_MARGIN:
            out.append(Choice("pick", {"card": inst}, f"Add {mon.name} (danger {mon.danger})"))
    if d.total >= level or not out:
        out.append(Choice("done", {}, f"Begin the encounter (danger {d.total} of {level})"))
    return out


@RULES.decision(GmPick, gm_pick_choices)
def resolve_gm_pick(ctx: Ctx, d: GmPick, type_: str, args: dict[str, Any]) -> None:
    s = ctx.s
    if type_ == "done":
        ctx.then([{"op": "round"}])
        return
    inst = args["card"]
    mon = C.monsters[s.cards[inst]]
    cards = [inst]
    if mon.boss_set:
        cards = [
            c
            for c in s.dungeon_deck
            if C.monsters.get(s.cards[c]) and C.monsters[s.cards[c]].boss_set == mon.boss_set
        ]
    for c in cards:
        ctx.emit("DungeonCardRevealed", card=c, id=s.cards[c], source="deck", to="line")
    entry = f"L{s.monster_seq + 1}"
    card = s.cards[inst]
    ctx.emit(
        "MonstersEntered", entry=entry, card=card, cards=cards, monsters=[], at_left_of=None, name=mon.name
    )
    gm_place_next(
        ctx, GmPlace(seat=GM_SEAT, entry=entry, card=card, left=mon.number, total=d.total + mon.danger)
    )


def gm_place_next(ctx: Ctx, d: GmPlace) -> None:
    """Ask for the next monster's square; once the set is placed (or no square is left),
    back to the picks."""
    if d.left > 0 and gm_squares(ctx.s, d):
        ctx.ask(d)
    else:
        ctx.ask(GmPick(seat=GM_SEAT, total=d.total))


def gm_squares(s: State, d: GmPlace) -> list[Square]:
    """Open, unoccupied squares of the non-stairs tiles (AtD L258, L274); once a monster of
    the set stands on a tile, the rest of the set goes on that tile while it has room
    (the set is placed together, AtD L255; facts file §9)."""
    taken = occupied(s)
    tiles = [tile_squares(t.x, t.y, t.o) for t in s.tiles if not t.stairs]
    free = [[sq for sq in sqs if sq not in taken] for sqs in tiles]
    placed = [m.pos for m in s.monsters.values() if m.entry == d.entry]
    if placed:
        home = next((k for k, sqs in enumerate(tiles) if placed[0] in sqs), None)
        if home is not None and free[home]:
            return sorted(free[home])
    return sorted({sq for sqs in free for sq in sqs})


def gm_place_choices(s: State, d: GmPlace) -> list[Any]:
    name = C.monsters[d.card].name
    return [Choice("place", {"to": lst(sq)}, f"Put the {name} on {sq[0]},{sq[1]}") for sq in gm_squares(s, d)]


@RULES.decision(GmPlace, gm_place_choices)
def resolve_gm_place(ctx: Ctx, d: GmPlace, _t: str, args: dict[str, Any]) -> None:
    """Tabletop: the game master puts one monster of the set on a square (AtD L274)."""
    s = ctx.s
    mid = f"m{s.monster_seq + 1}"
    ctx.emit(
        "MonsterPlaced", entry=d.entry, card=d.card, id=mid, square=list(args["to"]), hp=C.monsters[d.card].hp
    )
    gm_place_next(ctx, d.replace(left=d.left - 1))
