"""Attack the Darkness rules on the stepwise engine: steps (the agenda's vocabulary),
decision resolvers and the round structure. Cited ``AtD L<n>`` (the rulebook's line) and
"facts file §n" for a decision where the rulebook is silent."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness import events as _events  # noqa: F401  (registers the fold)
from app.games.attack_the_darkness import query as q
from app.games.attack_the_darkness.content import Part
from app.games.attack_the_darkness.decisions import (
    Act,
    Area,
    Arrange,
    ChooseTile,
    Defend,
    Discard,
    GmMonster,
    GmPick,
    GmPlace,
    MoveTo,
    Pay,
    PlaceTile,
    PlaceToken,
    Target,
)
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.grid import (
    Square,
    chebyshev,
    in_distance,
    path_distances,
    tile_order,
    tile_squares,
)
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import GM_SEAT

step = RULES.step
C = q.C
HAND = 3
"""Start and end steps draw up to 3 ACs and 3 RCs (AtD L267, L269)."""
SLOTS = 2
"""Two equipment slots (AtD L206)."""
TABLETOP_MARGIN = 5
ARENA_ROUNDS = 30
"""**Decision (authored, not in the rulebook):** an Arena game ends after 30 rounds; the
team with the most HP left wins, a tie is a draw, so every game ends."""
"""The game master picks monsters totalling up to danger + 5 (AtD L274)."""


def lst(sq: Square) -> list[int]:
    return [sq[0], sq[1]]


def adv_bonus(s: State, seat: int, op: str) -> int:
    return sum(C.advancements[s.cards[a]].bonus(op) for a in s.chars[seat]["advancements"])


def hand_limits(s: State, seat: int) -> tuple[int, int]:
    return HAND + adv_bonus(s, seat, "hand_ac"), HAND + adv_bonus(s, seat, "hand_rc")


def seat_decider(s: State, seat: int) -> Any:
    return seat


# -- drawing and fatigue (AtD L70-71, L267, L269) ------------------------------------------------


def bump(inst: str) -> str:
    """A card shuffled back into a hidden deck takes a new name (``3r10`` → ``3r10.1``):
    once it was public (discarded) its old name tells nothing about where it is now, so
    only the new name is a secret (the card itself is ``state.cards`` of the base name)."""
    base, _, gen = inst.partition(".")
    return f"{base}.{int(gen or 0) + 1}"


def shuffle_deck(ctx: Ctx, seat: int, which: str) -> None:
    ch = ctx.s.chars[seat]
    pile = ch[which] + [bump(c) for c in ch["disc_a" if which == "actions" else "disc_r"]]
    ctx.rng.shuffle(pile)
    ctx.emit("DeckShuffled", seat=seat, deck=which, order=pile, n=len(pile))


def draw_up(ctx: Ctx, seat: int) -> None:
    """Draw up to the hand sizes; a fatigued player first shuffles the discards back and the
    fatigue ends (AtD L71); an empty deck when a draw is needed fatigues (AtD L70).
    **Decision:** what remains is drawn first."""
    s = ctx.s
    ch = s.chars[seat]
    if ch["fatigued"]:
        shuffle_deck(ctx, seat, "actions")
        shuffle_deck(ctx, seat, "resources")
        ctx.emit("FatigueEnded", seat=seat)
    lim_a, lim_r = hand_limits(s, seat)
    draw_n(ctx, seat, max(0, lim_a - len(ch["hand_a"])), max(0, lim_r - len(ch["hand_r"])))


def draw_n(ctx: Ctx, seat: int, n_a: int, n_r: int) -> None:
    ch = ctx.s.chars[seat]
    got_a, got_r = min(n_a, len(ch["actions"])), min(n_r, len(ch["resources"]))
    if got_a or got_r:
        ctx.emit(
            "CardsDrawn",
            seat=seat,
            n_actions=got_a,
            n_resources=got_r,
            actions=ch["actions"][:got_a],
            resources=ch["resources"][:got_r],
        )
    if (got_a < n_a or got_r < n_r) and not ch["fatigued"]:
        ctx.emit(
            "Fatigued", seat=seat, discarded=ch["hand_a"] + ch["hand_r"] + [e["card"] for e in ch["in_play"]]
        )


# -- damage and healing ---------------------------------------------------------------------------


def heal(ctx: Ctx, who: str, n: int) -> None:
    """Heals cap at max HP; any HP gained wakes an unconscious character (AtD L69)."""
    s = ctx.s
    if not q.alive(s, who) and not who.startswith("c"):
        return
    if who.startswith("c"):
        ch = s.chars[int(who[1:])]
        top = ch["max_hp"]
        hp = ch["hp"]
    else:
        m = s.monsters[who]
        top = C.monsters[m["card"]].hp
        hp = m["hp"]
    new = min(top, hp + max(0, n))
    if new != hp:
        ctx.emit("Healed", who=who, amount=new - hp, hp=new, woke=hp == 0 and who.startswith("c"))


def damage(ctx: Ctx, who: str, amount: int, save: int, *, defended: bool = False, source: str = "") -> None:
    """Damage less saves, never below 0 (AtD L76-78; facts file §3). A character at 0 HP is
    unconscious (AtD L69); a monster dies (AtD L72)."""
    s = ctx.s
    if not q.alive(s, who):
        return
    hp = s.chars[int(who[1:])]["hp"] if who.startswith("c") else s.monsters[who]["hp"]
    dealt = max(0, amount - save)
    new = max(0, hp - dealt)
    ctx.emit(
        "Damaged", who=who, amount=dealt, saved=min(amount, save), hp=new, defended=defended, source=source
    )
    if new == 0 and hp > 0:
        if who.startswith("c"):
            ch = s.chars[int(who[1:])]
            ctx.emit("KnockedOut", seat=int(who[1:]), discarded=ch["hand_a"] + ch["hand_r"])
        else:
            ctx.emit("MonsterDied", id=who)


def monster_save(s: State, mid: str, distance: str) -> tuple[int, bool]:
    """A monster defends the first eligible attacks each round; INF defends all; melee
    defences also cover reach (AtD L216-217); Pressure Point turns INF into 1 (AtD L173)."""
    m = s.monsters[mid]
    if m.get("stunned", 0) > s.round:
        return 0, False  # facts file §3: a stunned monster does not defend
    d = C.monsters[m["card"]].defenses
    kinds = set(d["distances"])
    if "melee" in kinds:
        kinds.add("reach")
    if distance not in kinds:
        return 0, False
    count, save = d["count"], d["save"]
    pressed = m.get("pressure", 0) > s.round
    if count == "INF":
        count = 1 if pressed else 10**6
    if save == "INF":
        save = 1 if pressed else 10**6
    if m["defended"] >= int(count):
        return 0, False
    return int(save), True


# -- setup and encounters ----------------------------------------------------------------------------


@step("begin_dungeon", "index")
def begin_dungeon(ctx: Ctx, st: Step) -> None:
    """A dungeon: shuffled decks (AtD L243); a sample dungeon sets cards aside (AtD L437-466)."""
    s = ctx.s
    reserved: list[str] = []
    if s.dungeon != "random":
        wanted = list(C.dungeons[s.dungeon].set_aside)
        for inst in [*s.dungeon_deck, *s.dungeon_discard]:
            if s.cards[inst] in wanted:
                wanted.remove(s.cards[inst])
                reserved.append(inst)
    ctx.emit("DungeonBegan", index=st["index"], reserved=reserved, name=s.dungeon_names[st["index"]])
    if s.dungeon_discard or st["index"] > 0:
        reshuffle_dungeon(ctx)
    for seat in range(len(s.names)):
        if st["index"] > 0:
            ch = s.chars[seat]
            shown = ch["hand_a"] + ch["disc_a"] + [e["card"] for e in ch["in_play"]]
            acts = ch["actions"] + [bump(c) for c in shown]
            ress = ch["resources"] + [bump(c) for c in ch["hand_r"] + ch["disc_r"]]
            ctx.rng.shuffle(acts)
            ctx.rng.shuffle(ress)
            ctx.emit("DecksRestored", seat=seat, actions=acts, resources=ress, n=len(acts) + len(ress))
    ctx.then([{"op": "begin_encounter", "index": 0}])


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
    from app.kernel.types import Choice

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
    taken = q.occupied(s)
    if s.arena:
        teams: list[int] = []
        for x in s.order:
            if s.teams[x] not in teams:
                teams.append(s.teams[x])
        corner = C.arena["corners"][teams.index(s.teams[seat])]
        return [(x, y) for x, y in corner if (x, y) not in taken]
    stairs = next(t for t in s.tiles if t["stairs"])
    return [sq for sq in tile_order(stairs["x"], stairs["y"], stairs["o"]) if sq not in taken]


def token_choices(s: State, d: PlaceToken) -> list[Any]:
    from app.kernel.types import Choice

    where = "in your corner" if s.arena else "on the stairs"
    return [
        Choice("token", {"to": lst(sq)}, f"Start {where} at {sq[0]},{sq[1]}")
        for sq in token_squares(s, int(d.seat))
    ]


@RULES.decision(PlaceToken, token_choices)
def resolve_token(ctx: Ctx, d: PlaceToken, _t: str, args: dict[str, Any]) -> None:
    ctx.emit("TokenPlaced", seat=d.seat, square=list(args["to"]))


def danger_level(s: State) -> int:
    """Players × tiles + every held advancement's danger (AtD L253)."""
    adv = sum(C.advancements[s.cards[a]].danger for ch in s.chars for a in ch["advancements"])
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
    occupied = q.occupied(s)
    chars = [q.pos(s, q.ckey(i)) for i in range(len(s.chars))]
    dist = path_distances(s.open_squares(), [c for c in chars if c is not None])
    out = []
    for k, t in enumerate(s.tiles):
        if t["stairs"]:
            continue
        sqs = tile_squares(t["x"], t["y"], t["o"])
        far = min((dist.get(sq, 999) for sq in sqs), default=999)
        full = sum(1 for sq in sqs if sq in occupied)
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
    occupied = q.occupied(s)
    squares: list[Square] = []
    if near is not None:
        here = q.pos(s, near)
        assert here is not None
        ring = sorted(s.open_squares() - occupied, key=lambda sq: (chebyshev(here, sq), sq))
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
            for sq in tile_order(t["x"], t["y"], t["o"]):
                if len(squares) < n and sq not in occupied and sq not in squares:
                    squares.append(sq)
            if len(squares) >= n:
                break
    monsters = []
    for k, sq in enumerate(squares):
        monsters.append({"id": f"m{s.monster_seq + 1 + k}", "square": lst(sq), "hp": mon.hp})
    entry = f"L{s.monster_seq + 1}"
    at = s.monsters[near]["entry"] if near is not None else None
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
    from app.kernel.types import Choice

    name = C.monsters[d.card].name
    out = []
    for k in d.tiles:
        t = s.tiles[k]
        out.append(Choice("tile", {"tile": k}, f"{name} go to the tile at {t['x']},{t['y']}"))
    return out


@RULES.decision(ChooseTile, tile_tie_choices)
def resolve_tile_tie(ctx: Ctx, d: ChooseTile, _t: str, args: dict[str, Any]) -> None:
    enter_monsters(ctx, d.card, list(d.cards), tile=args["tile"])


# -- Tabletop: the game master's monster picks (AtD L274) ----------------------------------------


def gm_pick_choices(s: State, d: GmPick) -> list[Any]:
    from app.kernel.types import Choice

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
    taken = q.occupied(s)
    tiles = [tile_squares(t["x"], t["y"], t["o"]) for t in s.tiles if not t["stairs"]]
    free = [[sq for sq in sqs if sq not in taken] for sqs in tiles]
    placed = [tuple(m["pos"]) for m in s.monsters.values() if m["entry"] == d.entry]
    if placed:
        home = next((k for k, sqs in enumerate(tiles) if placed[0] in sqs), None)
        if home is not None and free[home]:
            return sorted(free[home])
    return sorted({sq for sqs in free for sq in sqs})


def gm_place_choices(s: State, d: GmPlace) -> list[Any]:
    from app.kernel.types import Choice

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


# -- rounds (AtD L264-270) ---------------------------------------------------------------------------


@step("round")
def round_(ctx: Ctx, st: Step) -> None:
    """A round: the player phase in marching order, then the monster phase (AtD L265-270);
    in Arena, turns in initiative order and no monster phase (AtD L290)."""
    s = ctx.s
    if s.arena and s.round >= ARENA_ROUNDS:
        ctx.then([{"op": "encounter_over", "result": "arena_time", "team": None}])
        return
    ctx.emit("RoundBegan", round=s.round + 1)
    ctx.then([{"op": "player_turn", "seat": seat} for seat in s.order])
    if not s.arena:
        ctx.later([{"op": "monster_phase"}])


@step("player_turn", "seat")
def player_turn(ctx: Ctx, st: Step) -> None:
    """Start step: draw up to 3 + 3 (AtD L267); an unconscious character takes no turn
    (AtD L69)."""
    s = ctx.s
    seat = st["seat"]
    ch = s.chars[seat]
    if ch["hp"] <= 0:
        return
    ctx.emit("TurnBegan", seat=seat, round=s.round)
    expired = [e["card"] for e in ch["in_play"] if e["until"] <= s.round]
    if expired:
        ctx.emit("InPlayExpired", seat=seat, cards=expired)
    draw_up(ctx, seat)
    if s.arena and ch["statuses"].get("stunned", 0) > s.round and ch["hand_a"] and ch["hand_r"]:
        # Arena stun: discard 1 AC and 1 RC at the end of the start step (AtD L292).
        ctx.emit("CardsDiscarded", seat=seat, cards=[ch["hand_a"][0], ch["hand_r"][0]], why="stunned")
    ctx.then([{"op": "act", "seat": seat}])


@step("act", "seat")
def act(ctx: Ctx, st: Step) -> None:
    if ctx.s.chars[st["seat"]]["hp"] > 0 and ctx.s.turn == st["seat"]:
        ctx.ask(Act(seat=st["seat"]))


@step("end_step", "seat", "discard")
def end_step(ctx: Ctx, st: Step) -> None:
    """End step: optionally discard the whole hand, then draw as at the start (AtD L269)."""
    seat = st["seat"]
    ch = ctx.s.chars[seat]
    if st["discard"] and (ch["hand_a"] or ch["hand_r"]):
        ctx.emit("HandDiscarded", seat=seat, cards=ch["hand_a"] + ch["hand_r"])
    if ch["hp"] > 0:
        draw_up(ctx, seat)
    ctx.emit("TurnEnded", seat=seat)


def speed_blocked(s: State, seat: int) -> bool:
    ch = s.chars[seat]
    return ch["speed_used"] or (s.arena and ch["statuses"].get("immobilized", 0) > s.round)


def equipment_key(s: State, item: str) -> str:
    eq = C.equipment[s.cards[item]]
    return ("round:" if eq.uses == "round" else "enc:") + item


def usable_equipment(s: State, seat: int, *, defending: bool = False) -> list[str]:
    """Equipment usable now: its frequency unspent, its condition meetable (AtD L204);
    never in Arena (AtD L289)."""
    if s.arena:
        return []
    ch = s.chars[seat]
    out = []
    for item in ch["equipment"]:
        eq = C.equipment[s.cards[item]]
        if ch["used"].get(equipment_key(s, item)):
            continue
        types = [p.type for p in eq.parts]
        if defending != ("defense" in types):
            continue
        need = int(eq.condition.get("discard", 0))
        kind = eq.condition.get("discard_type")
        pool = ch["hand_a"] + ch["hand_r"]
        if kind:
            pool = [c for c in ch["hand_a"] if kind in C.actions[s.cards[c]].types]
        if len(pool) >= need:
            out.append(item)
    return out


def ability_ready(s: State, seat: int) -> bool:
    """The class ability, once per encounter or dungeon; off in Arena (AtD L289)."""
    if s.arena:
        return False
    ch = s.chars[seat]
    ab = C.classes[ch["cls"]].ability
    key = "dungeon" if ab["per"] == "dungeon" else "enc:ability"
    return not ch["used"].get(key) and not ch["fatigued"]


def act_choices(s: State, d: Act) -> list[Any]:
    from app.kernel.types import Choice

    seat = int(d.seat)
    ch = s.chars[seat]
    out: list[Choice] = []
    if not ch["fatigued"]:
        seen: set[str] = set()
        for inst in ch["hand_a"]:
            card = q.action(s, inst)
            if card.id in seen or not q.own_turn_parts(card):
                continue
            if payment_plan(s, seat, inst) is not None:
                seen.add(card.id)
                out.append(Choice("play", {"card": inst}, f"Play {card.name} ({card.cost.label()})"))
        if ability_ready(s, seat):
            ab = C.classes[ch["cls"]].ability
            out.append(Choice("ability", {}, f"{ab['name']}: {ab['text']}"))
    for item in usable_equipment(s, seat):
        out.append(Choice("equip", {"item": item}, f"Use {C.equipment[s.cards[item]].name}"))
    if not speed_blocked(s, seat):
        speed = ch["speed"] - penalty(s, q.ckey(seat), "move")
        for sq, n in sorted(q.move_squares(s, q.ckey(seat), speed).items()):
            out.append(Choice("speed", {"to": lst(sq)}, f"Move to {sq[0]},{sq[1]} ({n} squares)"))
    out.append(Choice("end_turn", {"discard": False}, "End the turn and draw"))
    if ch["hand_a"] or ch["hand_r"]:
        out.append(Choice("end_turn", {"discard": True}, "End the turn, discard the whole hand and draw"))
    return out


def act_unavailable(s: State, d: Act) -> list[Any]:
    """Cards and moves not allowed now, each with the rule that forbids it."""
    from app.kernel.types import Unavailable

    seat = int(d.seat)
    ch = s.chars[seat]
    out: list[Unavailable] = []
    seen: set[str] = set()
    for inst in ch["hand_a"]:
        card = q.action(s, inst)
        if card.id in seen:
            continue
        seen.add(card.id)
        label = f"Play {card.name}"
        if ch["fatigued"]:
            out.append(
                Unavailable(
                    "play", label, "a fatigued character only moves at speed and uses equipment", "AtD L71"
                )
            )
        elif not q.own_turn_parts(card):
            out.append(
                Unavailable("play", label, "a Defense card is played during an enemy's turn", "AtD L151")
            )
        elif payment_plan(s, seat, inst) is None:
            out.append(
                Unavailable(
                    "play",
                    label,
                    "the resource cards in hand cannot pay its cost or meet its condition",
                    "AtD L140, L143",
                )
            )
    if ch["speed_used"]:
        out.append(Unavailable("speed", "Move at speed", "the speed move is once per turn", "AtD L82"))
    elif s.arena and ch["statuses"].get("immobilized", 0) > s.round:
        out.append(
            Unavailable(
                "speed", "Move at speed", "an immobilized character has no speed move in Arena", "AtD L293"
            )
        )
    return out


@RULES.decision(Act, act_choices, unavailable=act_unavailable)
def resolve_act(ctx: Ctx, d: Act, type_: str, args: dict[str, Any]) -> None:
    seat = int(d.seat)
    match type_:
        case "end_turn":
            ctx.then([{"op": "end_step", "seat": seat, "discard": bool(args["discard"])}])
        case "speed":
            ctx.emit("Moved", who=q.ckey(seat), to=list(args["to"]), why="speed")
            use_penalty(ctx, q.ckey(seat), "move")
            ctx.then([{"op": "act", "seat": seat}])
        case "play":
            ctx.ask(Pay(seat=seat, card=args["card"], rcs=[], context="turn"))
        case "equip":
            start_equipment(ctx, seat, args["item"], "turn", {"op": "act", "seat": seat})
        case "ability":
            use_ability(ctx, seat)


def use_ability(ctx: Ctx, seat: int) -> None:
    s = ctx.s
    ch = s.chars[seat]
    ab = C.classes[ch["cls"]].ability
    key = "dungeon" if ab["per"] == "dungeon" else "enc:ability"
    ctx.emit("AbilityUsed", seat=seat, key=key, name=ab["name"])
    steps: list[Step] = []
    for e in ab["effects"]:
        if e["op"] == "heal":
            target = q.ckey(seat)
            if ch["cls"] == "templar":
                hurt = [
                    q.ckey(i)
                    for i, o in enumerate(s.chars)
                    if o["pos"] is not None
                    and o["hp"] < o["max_hp"]
                    and not q.is_enemy(s, q.ckey(seat), q.ckey(i))
                    and chebyshev(q.pos(s, q.ckey(seat)), q.pos(s, q.ckey(i))) <= 2  # type: ignore[arg-type]
                ]
                target = min(hurt, key=lambda w: s.chars[int(w[1:])]["hp"]) if hurt else target
            heal(ctx, target, e["n"])
        elif e["op"] == "move":
            steps.append({"op": "ask_move", "seat": seat, "who": q.ckey(seat), "n": e["n"], "why": "ability"})
        elif e["op"] == "draw":
            n = e["n"]
            draw_n(ctx, seat, n, n if ch["cls"] == "psion" else 0)
        elif e["op"] == "arrange_top":
            steps += [
                {"op": "arrange", "seat": seat, "deck": deck, "n": e["n"]}
                for deck in ("actions", "resources")
            ]
    ctx.then([*steps, {"op": "act", "seat": seat}])


def any_time_choices(s: State, seat: Any) -> list[Any]:
    """ "Play at any time" (AtD L313): while the table waits on any question in an
    encounter, a Samurai whose A Lifetime of Preparation is unused may use it (facts file
    §20: a non-blocking optional prompt at every stable point)."""
    from app.kernel.types import Choice

    if not isinstance(seat, int) or s.decision is None or s.result is not None or not s.in_encounter:
        return []
    ch = s.chars[seat]
    ab = C.classes[ch["cls"]].ability
    if ch["hp"] <= 0 or s.decision.kind == "arrange" or not ability_ready(s, seat):
        return []
    if not any(e["op"] == "arrange_top" for e in ab["effects"]):
        return []
    return [Choice("prepare", {}, f"{ab['name']}: {ab['text']}")]


def resolve_any_time(ctx: Ctx, seat: Any, _t: str, args: dict[str, Any]) -> None:
    s = ctx.s
    ab = C.classes[s.chars[seat]["cls"]].ability
    ctx.emit(
        "AbilityUsed", seat=seat, key="dungeon" if ab["per"] == "dungeon" else "enc:ability", name=ab["name"]
    )
    n = next(int(e["n"]) for e in ab["effects"] if e["op"] == "arrange_top")
    ctx.then([{"op": "arrange", "seat": seat, "deck": deck, "n": n} for deck in ("actions", "resources")])


ANY_TIME = RULES.window(
    "any_time",
    ["prepare"],
    any_time_choices,
    resolve_any_time,
    title="A Lifetime of Preparation",
    closed=(
        "not_a_choice",
        "A Lifetime of Preparation is a Samurai's, once per dungeon, while the table waits "
        "in an encounter (AtD L313)",
    ),
)


@step("arrange", "seat", "deck", "n")
def arrange(ctx: Ctx, st: Step) -> None:
    """A Lifetime of Preparation (AtD L313): the player looks at the top ``n`` cards of a
    deck (only that player sees them: ``peek``) and puts them back in any order, one card
    at a time (``Arrange``)."""
    s = ctx.s
    seat, deck = st["seat"], st["deck"]
    pile = s.chars[seat][deck]
    top = pile[: st["n"]]
    if not top:
        return
    ctx.emit("DeckShuffled", seat=seat, deck=deck, order=list(pile), top=top, n=len(pile), peek=True)
    if len(top) > 1:
        ctx.ask(Arrange(seat=seat, deck=deck, top=top, placed=[]))


def arrange_choices(s: State, d: Arrange) -> list[Any]:
    from app.kernel.types import Choice

    where = len(d.placed) + 1
    out = [
        Choice("top", {"card": c}, f"{C.card_name(s.cards[c])} as card {where} from the top")
        for c in d.top
        if c not in d.placed
    ]
    return [*out, Choice("keep", {}, "Leave the other cards in the order they are")]


@RULES.decision(Arrange, arrange_choices)
def resolve_arrange(ctx: Ctx, d: Arrange, type_: str, args: dict[str, Any]) -> None:
    """Each ``top`` puts the next card back, first to be drawn first; once one card is
    left (or ``keep``) the deck takes its new order."""
    placed = [*d.placed, args["card"]] if type_ == "top" else list(d.placed)
    rest = [c for c in d.top if c not in placed]
    if type_ == "top" and len(rest) > 1:
        ctx.ask(d.replace(placed=placed))
        return
    ch = ctx.s.chars[int(d.seat)]
    top = placed + rest
    below = ch[d.deck][len(d.top) :]
    ctx.emit(
        "DeckShuffled",
        seat=d.seat,
        deck=d.deck,
        order=top + below,
        top=top,
        n=len(top) + len(below),
        peek=True,
    )


@step("ask_move", "seat", "who", "n", "why")
def ask_move(ctx: Ctx, st: Step) -> None:
    s = ctx.s
    who = st["who"]
    if not q.alive(s, who) and who.startswith("c"):
        return
    if (who in s.monsters or who.startswith("c")) and push_squares(s, st["seat"], who, st["n"], st["why"]):
        ctx.ask(MoveTo(seat=st["seat"], who=who, n=st["n"], why=st["why"]))


def push_squares(s: State, seat: int, who: str, n: int, why: str) -> dict[Square, int]:
    if who.startswith("m") and who not in s.monsters:
        return {}
    if why != "push" and who.startswith("c"):
        ch = s.chars[int(who[1:])]
        if s.arena and ch["statuses"].get("immobilized", 0) > s.round:
            return {}
    flying = who.startswith("m") and C.monsters[s.monsters[who]["card"]].flying and why != "push"
    if why != "push":
        n -= penalty(s, who, "move")  # a movement penalty (AtD L295); pushes are not moves
    return q.move_squares(s, who, n, flying)


def move_choices(s: State, d: MoveTo) -> list[Any]:
    from app.kernel.types import Choice

    verb = "Push" if d.why == "push" else "Move"
    out = [
        Choice("move", {"to": lst(sq)}, f"{verb} to {sq[0]},{sq[1]} ({n})")
        for sq, n in sorted(
            push_squares(s, int(d.seat) if d.seat != GM_SEAT else 0, d.who, d.n, d.why).items()
        )
    ]
    return [*out, Choice("stay", {}, "Stay put" if d.why != "push" else "Do not push")]


@RULES.decision(MoveTo, move_choices)
def resolve_move(ctx: Ctx, d: MoveTo, type_: str, args: dict[str, Any]) -> None:
    if type_ == "move":
        ctx.emit("Moved", who=d.who, to=list(args["to"]), why=d.why)
        if d.why != "push":
            use_penalty(ctx, d.who, "move")


# -- playing a card: pay → declare → condition → parts → draws (AtD L140-143, L181-184) ------


def pay_choices(s: State, d: Pay) -> list[Any]:
    from app.kernel.types import Choice

    seat = int(d.seat)
    ch = s.chars[seat]
    card = q.action(s, d.card)
    out = []
    seen: set[str] = set()
    for r in ch["hand_r"]:
        if r in d.rcs or s.cards[r] in seen or not q.rc_usable(s, r, card):
            continue
        seen.add(s.cards[r])
        out.append(Choice("add", {"rc": r}, f"Add {C.resources[s.cards[r]].name}"))
    if d.context == "turn":
        for item in modifier_equipment(s, seat, d):
            eq = C.equipment[s.cards[item]]
            bonus = ", ".join(f"+{e['n']} {e['op'].removeprefix('bonus_')}" for e in eq.modifies["effects"])
            need = int(eq.condition.get("discard", 0))
            cost = f"; discard {need} {eq.condition.get('discard_type', 'card')}" if need else ""
            out.append(Choice("modify", {"item": item}, f"Add {eq.name} ({bonus}{cost})"))
    if payment_ok(s, seat, d):
        out.append(Choice("done", {}, f"Declare {card.name}"))
    out.append(Choice("cancel", {}, "Back"))
    return out


def equipment_pool(s: State, seat: int, item: str, excluded: set[str]) -> list[str]:
    """The hand cards that may pay an equipment's discard condition (AtD L204)."""
    ch = s.chars[seat]
    kind = C.equipment[s.cards[item]].condition.get("discard_type")
    pool = [c for c in ch["hand_a"] + ch["hand_r"] if c not in excluded]
    if kind:
        pool = [c for c in pool if c in ch["hand_a"] and kind in C.actions[s.cards[c]].types]
    return pool


def modifier_equipment(s: State, seat: int, d: Pay) -> list[str]:
    """Equipment that may be added to the card being paid for: unused this round or
    encounter, modifying one of its parts (Battle Axe: a melee attack, AtD L208), its
    condition payable besides the card's (facts file §7)."""
    card = q.action(s, d.card)
    parts = [card.parts[i] for i in q.own_turn_parts(card)]
    out = []
    for item in usable_equipment(s, seat):
        eq = C.equipment[s.cards[item]]
        if item in d.equipment or not any(eq.fits(p) for p in parts):
            continue
        if mods_payable(s, seat, d.replace(equipment=[*d.equipment, item])):
            out.append(item)
    return out


def mods_payable(s: State, seat: int, d: Pay) -> bool:
    """The equipment's discards come from the hand besides the card, its resource cards and
    what the card's own condition needs (checked conservatively: no card counted twice)."""
    card = q.action(s, d.card)
    taken: set[str] = {d.card, *d.rcs}
    for item in d.equipment:
        need = int(C.equipment[s.cards[item]].condition.get("discard", 0))
        pool = equipment_pool(s, seat, item, taken)
        if len(pool) < need:
            return False
        taken |= set(pool[:need])
    need, _ = q.condition_need(s, seat, card, d.rcs)
    return len(q.discardable(s, seat, card, taken)) >= need


def payment_plan(s: State, seat: int, card: str, chosen: list[str] | None = None) -> list[str] | None:
    """The fewest resource cards (adding the most useful first) that pay for ``card`` and
    leave its condition payable; None when none do: the card is not offered (AtD L140, L143)."""
    ac = q.action(s, card)
    chosen = list(chosen or [])
    usable = [r for r in s.chars[seat]["hand_r"] if q.rc_usable(s, r, ac) and r not in chosen]
    ranked = sorted(
        usable,
        key=lambda r: (
            -sum(a for a, _ in C.resources[s.cards[r]].resources),
            bool(C.resources[s.cards[r]].condition),
            r,
        ),
    )
    extra: list[str] = []
    for r in [None, *ranked]:
        if r is not None:
            extra.append(r)
        if payment_ok(s, seat, Pay(seat=seat, card=card, rcs=chosen + extra)):
            return extra
    return None


def payment(s: State, seat: int, d: Pay) -> tuple[bool, int, int, bool]:
    """(paid, X, Hearty leftover after, leftover used) for the chosen RCs (AtD L143, L192)."""
    card = q.action(s, d.card)
    parts = q.cost_parts(s, seat, card)
    units = q.units_of(s, d.rcs)
    if not parts:
        return True, 0, 0, False
    paid, x = q.pay_plan(units, parts)
    used_left = False
    if not paid and s.leftover.get(str(seat)):
        paid, x = q.pay_plan(units + q.leftover_units(s, seat), parts)
        used_left = paid
    if not paid:
        return False, 0, 0, False
    split = [r for r in d.rcs if C.resources[s.cards[r]].modifier("split")]
    left = 0
    if split and not used_left:
        spent = q.spent_units(units, parts)
        split_units = sum(a for r in split for a, _ in C.resources[s.cards[r]].resources)
        left = max(0, min(split_units, len(units) - spent))
    return True, x, left, used_left


def payment_ok(s: State, seat: int, d: Pay) -> bool:
    card = q.action(s, d.card)
    paid, _, _, _ = payment(s, seat, d)
    if not paid:
        return False
    need, lose = q.condition_need(s, seat, card, d.rcs)
    pool = q.discardable(s, seat, card, {d.card, *d.rcs})
    if d.equipment and not mods_payable(s, seat, d):
        return False
    return len(pool) >= need and (lose == 0 or s.chars[seat]["hp"] > lose)


@RULES.decision(Pay, pay_choices)
def resolve_pay(ctx: Ctx, d: Pay, type_: str, args: dict[str, Any]) -> None:
    s = ctx.s
    seat = int(d.seat)
    if type_ == "add":
        ctx.ask(d.replace(rcs=[*d.rcs, args["rc"]]))
        return
    if type_ == "modify":
        ctx.ask(d.replace(equipment=[*d.equipment, args["item"]]))
        return
    if type_ == "cancel":
        if d.context == "turn":
            ctx.ask(Act(seat=seat))
        else:
            assert d.resume is not None
            r = d.resume
            attacker = r["source"] if "source" in r else f"c{r['seat']}"
            ctx.ask(Defend(seat=seat, attacker=attacker, target=r.get("target", r.get("who", "")), resume=r))
        return
    _, x, left, _ = payment(s, seat, d)
    card = q.action(s, d.card)
    protect = d.resume.get("target") if d.resume else None
    ctx.emit(
        "CardPlayed",
        seat=seat,
        card=d.card,
        id=card.id,
        rcs=list(d.rcs),
        x=x,
        leftover=left,
        context=d.context,
        protect=protect,
    )
    steps: list[Step] = []
    for item in d.equipment:
        ctx.emit("EquipmentAdded", seat=seat, item=item, id=s.cards[item], key=equipment_key(s, item))
        need = int(C.equipment[s.cards[item]].condition.get("discard", 0))
        if need:
            steps.append({"op": "equip_discard", "seat": seat, "item": item, "left": need})
    parts = q.own_turn_parts(card) if d.context == "turn" else q.defense_parts(card)
    steps.append({"op": "play_condition", "seat": seat})
    steps += [{"op": "play_part", "seat": seat, "part": i} for i in parts]
    steps.append({"op": "finish_play", "seat": seat})
    if d.context == "turn":
        steps.append({"op": "act", "seat": seat})
    elif d.resume is not None:
        steps.append(dict(d.resume))
    ctx.then(steps)


def start_equipment(ctx: Ctx, seat: int, item: str, context: str, after: Step) -> None:
    """Equipment used alone counts as an action of its type, unmodified (AtD L205)."""
    s = ctx.s
    eq = C.equipment[s.cards[item]]
    ctx.emit("EquipmentUsed", seat=seat, item=item, id=eq.id, key=equipment_key(s, item))
    steps: list[Step] = []
    need = int(eq.condition.get("discard", 0))
    if need:
        steps.append({"op": "ask_discard", "seat": seat, "left": need})
    wanted = "defense" if context == "defend" else None
    steps += [
        {"op": "play_part", "seat": seat, "part": i}
        for i, p in enumerate(eq.parts)
        if (p.type == "defense") == (wanted == "defense")
    ]
    steps += [{"op": "finish_play", "seat": seat}, after]
    ctx.then(steps)


def play_parts(s: State) -> tuple[Part, ...]:
    play = s.play or {}
    if play.get("equipment"):
        return C.equipment[s.cards[play["equipment"]]].parts
    return C.actions[s.cards[play["card"]]].parts


@step("play_condition", "seat")
def play_condition(ctx: Ctx, st: Step) -> None:
    """The condition resolves first: HP lost, then the discards (AtD L140, L182)."""
    s = ctx.s
    seat = st["seat"]
    play = s.play or {}
    card = C.actions[s.cards[play["card"]]]
    need, lose = q.condition_need(s, seat, card, play["rcs"])
    if lose:
        damage(ctx, q.ckey(seat), lose, 0, source="condition")
    if need:
        ctx.then([{"op": "ask_discard", "seat": seat, "left": need}])


@step("ask_discard", "seat", "left")
def ask_discard(ctx: Ctx, st: Step) -> None:
    if st["left"] > 0 and ctx.s.chars[st["seat"]]["hp"] > 0:
        ctx.ask(Discard(seat=st["seat"], left=st["left"]))


@step("equip_discard", "seat", "item", "left")
def equip_discard(ctx: Ctx, st: Step) -> None:
    """An equipment modifier's discard condition, before anything else (AtD L182, L208)."""
    if st["left"] > 0 and equipment_pool(ctx.s, st["seat"], st["item"], set()):
        ctx.ask(Discard(seat=st["seat"], left=st["left"], item=st["item"]))


def discard_choices(s: State, d: Discard) -> list[Any]:
    from app.kernel.types import Choice

    seat = int(d.seat)
    play = s.play or {}
    ch = s.chars[seat]
    if d.item is not None:
        pool = equipment_pool(s, seat, d.item, set())
    elif play.get("equipment"):
        eq = C.equipment[s.cards[play["equipment"]]]
        kind = eq.condition.get("discard_type")
        pool = (
            [c for c in ch["hand_a"] if kind in C.actions[s.cards[c]].types]
            if kind
            else ch["hand_a"] + ch["hand_r"]
        )
    else:
        pool = q.discardable(s, seat, C.actions[s.cards[play["card"]]], set())
    seen: set[str] = set()
    out = []
    for c in pool:
        if s.cards[c] in seen:
            continue
        seen.add(s.cards[c])
        out.append(Choice("discard", {"card": c}, f"Discard {C.card_name(s.cards[c])}"))
    return out


@RULES.decision(Discard, discard_choices)
def resolve_discard(ctx: Ctx, d: Discard, _t: str, args: dict[str, Any]) -> None:
    ctx.emit("CardsDiscarded", seat=d.seat, cards=[args["card"]], why="condition")
    if d.left > 1 and d.item is not None:
        ctx.then([{"op": "equip_discard", "seat": d.seat, "item": d.item, "left": d.left - 1}])
    elif d.left > 1:
        ctx.then([{"op": "ask_discard", "seat": d.seat, "left": d.left - 1}])


def rc_total(s: State, op: str) -> int:
    play = s.play or {}
    return sum(C.resources[s.cards[r]].modifier(op) for r in play.get("rcs", ()))


def mod_total(s: State, part: Part, op: str) -> int:
    """The modifiers equipment added to the card give the part it fits (AtD L208)."""
    play = s.play or {}
    mods = [C.equipment[s.cards[e]] for e in play.get("mods", ())]
    return sum(eq.modifier(op) for eq in mods if eq.fits(part))


@step("play_part", "seat", "part")
def play_part(ctx: Ctx, st: Step) -> None:
    """One action type of the card (AtD L152-153): its effects on itself, its targets, or
    an area; effects are optional (AtD L142)."""
    s = ctx.s
    seat = st["seat"]
    if s.play is None or s.chars[seat]["hp"] <= 0:
        return
    part = play_parts(s)[st["part"]]
    me = q.ckey(seat)
    if part.side == "self":
        apply_self(ctx, seat, part)
    elif part.side == "area":
        if q.legal_areas(s, me, part):
            ctx.ask(Area(seat=seat, part=st["part"]))
    elif part.type == "defense" and (s.play or {}).get("context") == "defend":
        protect = (s.play or {}).get("protect")
        if protect and q.target_ok(s, me, part, protect):
            apply_effects(ctx, seat, part, protect)
    else:
        ctx.then(
            [{"op": "choose_target", "seat": seat, "part": st["part"], "left": part.count, "chosen": []}]
        )


def apply_self(ctx: Ctx, seat: int, part: Part) -> None:
    s = ctx.s
    me = q.ckey(seat)
    x = (s.play or {}).get("x", 0)
    for e in part.effects:
        op = e["op"]
        if op in ("heal", "heal_x"):
            heal(ctx, me, int(e["n"]) + (x if op == "heal_x" else 0) + rc_total(s, "bonus_heal"))
        elif op == "save":
            ctx.emit("Guarded", who=me, save=int(e["n"]) + rc_total(s, "bonus_save"))
        elif op == "move":
            ctx.then(
                [
                    {
                        "op": "ask_move",
                        "seat": seat,
                        "who": me,
                        "n": int(e["n"]) + rc_total(s, "bonus_move"),
                        "why": "card",
                    }
                ]
            )


@step("choose_target", "seat", "part", "left", "chosen")
def choose_target(ctx: Ctx, st: Step) -> None:
    s = ctx.s
    if s.play is None or st["left"] <= 0:
        return
    part = play_parts(s)[st["part"]]
    if q.legal_targets(s, q.ckey(st["seat"]), part, st["chosen"]):
        ctx.ask(Target(seat=st["seat"], part=st["part"], left=st["left"], chosen=list(st["chosen"])))


def target_choices(s: State, d: Target) -> list[Any]:
    from app.kernel.types import Choice

    part = play_parts(s)[d.part]
    out = [
        Choice("target", {"who": who}, f"Target {who_name(s, who)}")
        for who in q.legal_targets(s, q.ckey(int(d.seat)), part, d.chosen)
    ]
    return [*out, Choice("done", {}, "No more targets")]


@RULES.decision(Target, target_choices)
def resolve_target(ctx: Ctx, d: Target, type_: str, args: dict[str, Any]) -> None:
    if type_ == "done":
        return
    who = args["who"]
    ctx.then(
        [
            {"op": "affect", "seat": d.seat, "part": d.part, "who": who, "defended": False},
            {
                "op": "choose_target",
                "seat": d.seat,
                "part": d.part,
                "left": d.left - 1,
                "chosen": [*d.chosen, who],
            },
        ]
    )


def area_choices(s: State, d: Area) -> list[Any]:
    from app.kernel.types import Choice

    part = play_parts(s)[d.part]
    out = []
    for (x, y), o in q.legal_areas(s, q.ckey(int(d.seat)), part):
        names = ", ".join(who_name(s, w) for w in q.area_members(s, (x, y), o, part))
        out.append(
            Choice(
                "area",
                {"x": x, "y": y, "o": o},
                f"Area at {x},{y} {'across' if o == 'h' else 'down'}: {names}",
            )
        )
    return [*out, Choice("skip", {}, "Do not place the area")]


@RULES.decision(Area, area_choices)
def resolve_area(ctx: Ctx, d: Area, type_: str, args: dict[str, Any]) -> None:
    if type_ == "skip":
        return
    s = ctx.s
    part = play_parts(s)[d.part]
    members = q.area_members(s, (args["x"], args["y"]), args["o"], part)
    ctx.emit("AreaPlaced", seat=d.seat, x=args["x"], y=args["y"], o=args["o"], hits=members)
    ctx.then([{"op": "affect", "seat": d.seat, "part": d.part, "who": w, "defended": True} for w in members])


def is_boss(s: State, who: str, attacker: str) -> bool:
    """Bosses, and in Arena every opponent (AtD L289)."""
    if who.startswith("c"):
        return s.arena and q.is_enemy(s, attacker, who)
    return C.monsters[s.monsters[who]["card"]].type == "Boss"


@step("affect", "seat", "part", "who", "defended")
def affect(ctx: Ctx, st: Step) -> None:
    """A part's effects on one target. An Arena opponent first gets a defence window; then
    distance and LOS are checked again (facts file §20)."""
    s = ctx.s
    seat, who = st["seat"], st["who"]
    if s.play is None or not (q.alive(s, who) or who.startswith("c")):
        return
    part = play_parts(s)[st["part"]]
    me = q.ckey(seat)
    if (
        not st["defended"]
        and who.startswith("c")
        and part.type == "attack"
        and q.is_enemy(s, me, who)
        and s.chars[int(who[1:])]["hp"] > 0
    ):
        resume = dict(st) | {"defended": True}
        ctx.ask(Defend(seat=int(who[1:]), attacker=me, target=who, resume=resume))
        return
    if part.side != "area" and not q.target_ok(s, me, part, who, q.reach_bonus(s)):
        ctx.emit("Missed", attacker=me, target=who)
        return
    apply_effects(ctx, seat, part, who)


def apply_effects(ctx: Ctx, seat: int, part: Part, who: str) -> None:
    s = ctx.s
    me = q.ckey(seat)
    play = s.play or {}
    x = play.get("x", 0)
    pushes = 0
    for e in part.effects:
        op = e["op"]
        n = int(e["n"])
        if op in ("damage", "damage_x"):
            deal(ctx, seat, part, who, e, x)
        elif op in ("heal", "heal_x"):
            heal(ctx, who, n + (x if op == "heal_x" else 0) + rc_total(s, "bonus_heal"))
        elif op == "save":
            ctx.emit("Guarded", who=who, save=n + rc_total(s, "bonus_save"))
        elif op == "push":
            pushes = n + rc_total(s, "bonus_push")
        elif op in ("stun", "immobilize", "dominate", "pressure"):
            set_status(ctx, seat, who, op, n)
        elif op == "penalty":
            set_penalty(ctx, seat, who, e["stat"], n, int(e["rounds"]))
        elif op == "move":
            ctx.then(
                [
                    {
                        "op": "ask_move",
                        "seat": seat,
                        "who": me,
                        "n": n + rc_total(s, "bonus_move"),
                        "why": "card",
                    }
                ]
            )
    if part.type == "attack":
        for op, status in (("stun_target", "stun"), ("immobilize_target", "immobilize")):
            n = rc_total(s, op)
            if n and q.alive(s, who):
                set_status(ctx, seat, who, status, n)
    pushes += mod_total(s, part, "bonus_push")
    if pushes and q.alive(s, who) and who != me:
        ctx.then([{"op": "ask_move", "seat": seat, "who": who, "n": pushes, "why": "push"}])


def set_status(ctx: Ctx, seat: int, who: str, op: str, rounds: int) -> None:
    """Stun, immobilize, dominate for N rounds (AtD L73-75), kept in play while they last
    (AtD L168-170). In Arena a character's stun and immobilization take their Arena forms
    and domination does nothing (AtD L292-294); so do behaviour cards (AtD L296)."""
    s = ctx.s
    if not q.alive(s, who):
        return
    status = {
        "stun": "stunned",
        "immobilize": "immobilized",
        "dominate": "dominated",
        "pressure": "pressure",
    }[op]
    if who.startswith("c") and status in ("dominated", "pressure"):
        return
    until = s.round + rounds
    ctx.emit("StatusSet", who=who, status=status, until=until, by=seat)


def set_penalty(ctx: Ctx, seat: int, who: str, stat: str, n: int, rounds: int) -> None:
    """A penalty to saves, movement or damage lasts its rounds (AtD L168-170); in Arena a
    character's penalty applies only to its next save, move or attack, and "N rounds" to
    the next N of them (AtD L295)."""
    s = ctx.s
    if not q.alive(s, who):
        return
    if s.arena and who.startswith("c"):
        ctx.emit("PenaltySet", who=who, stat=stat, n=n, until=None, left=rounds, by=seat)
    else:
        ctx.emit("PenaltySet", who=who, stat=stat, n=n, until=s.round + rounds, left=None, by=seat)


def penalty(s: State, who: str, stat: str) -> int:
    """The penalty ``who`` has now to a save, a move or an attack's damage (AtD L295)."""
    target = s.chars[int(who[1:])] if who.startswith("c") else s.monsters.get(who, {})
    entry = target.get("penalties", {}).get(stat)
    if entry is None:
        return 0
    live = entry["left"] > 0 if entry["left"] is not None else entry["until"] > s.round
    return int(entry["n"]) if live else 0


def counted(s: State, who: str, stat: str) -> bool:
    """An Arena penalty counted in uses (AtD L295), spent by the next save, move or attack."""
    target = s.chars[int(who[1:])] if who.startswith("c") else s.monsters.get(who, {})
    entry = target.get("penalties", {}).get(stat)
    return entry is not None and entry["left"] is not None and entry["left"] > 0


def use_penalty(ctx: Ctx, who: str, stat: str) -> None:
    if counted(ctx.s, who, stat):
        ctx.emit("PenaltyUsed", who=who, stat=stat)


def char_save(ctx: Ctx, who: str) -> int:
    """A character's save against one attack: Defense cards in play and advancements, less
    a save penalty (AtD L295; **decision:** a penalty is spent only by a save actually
    taken, one above 0)."""
    s = ctx.s
    seat = int(who[1:])
    save = s.guard.get(who, 0) + adv_bonus(s, seat, "save")
    if save > 0 and penalty(s, who, "save"):
        cut = penalty(s, who, "save")
        use_penalty(ctx, who, "save")
        return max(0, save - cut)
    return save


def deal(ctx: Ctx, seat: int, part: Part, who: str, e: dict[str, Any], x: int) -> None:
    """Damage = (base + flat bonuses) × (sum of multipliers, else 1) − saves (AtD L179-180;
    facts file §6); vs Minion and vs Boss replace the base (AtD L187)."""
    s = ctx.s
    me = q.ckey(seat)
    base = int(e["n"]) + (x if e["op"] == "damage_x" else 0)
    boss = is_boss(s, who, me)
    if who.startswith("m") and "vs_minion" in e and C.monsters[s.monsters[who]["card"]].type == "Minion":
        base = int(e["vs_minion"])
    if boss and "vs_boss" in e:
        base = max(base, int(e["vs_boss"]))
    bonus = (
        rc_total(s, "bonus_damage")
        + mod_total(s, part, "bonus_damage")
        + adv_bonus(s, seat, "damage")
        + (rc_total(s, "vs_boss") if boss else 0)
    )
    mult = rc_total(s, "multiplier") or 1
    total = max(0, (base + bonus) * mult - attack_penalty(ctx, me))
    if who.startswith("m"):
        save, defended = monster_save(s, who, part.distance)
        damage(ctx, who, total, max(0, save - penalty(s, who, "save")), defended=defended, source=me)
    else:
        damage(ctx, who, total, char_save(ctx, who), source=me)


def attack_penalty(ctx: Ctx, me: str) -> int:
    """A damage penalty weakens the attacker's next attack (AtD L295): every target of the
    card being played, the use spent once for the whole card."""
    s = ctx.s
    play = s.play or {}
    if "damage_penalty" in play:
        return int(play["damage_penalty"])
    cut = penalty(s, me, "damage")
    if cut and counted(s, me, "damage"):
        ctx.emit("PenaltyUsed", who=me, stat="damage", in_play=cut)
    return cut


@step("finish_play", "seat")
def finish_play(ctx: Ctx, st: Step) -> None:
    """Draws come last (AtD L184); the AC is discarded or kept in play for its duration
    (AtD L168-170)."""
    s = ctx.s
    seat = st["seat"]
    play = s.play
    if play is None:
        return
    n = rc_total(s, "draw")
    if play.get("card") or play.get("equipment"):
        valid = (
            q.own_turn_parts(C.actions[s.cards[play["card"]]])
            if play.get("card") and play["context"] == "turn"
            else None
        )
        parts = play_parts(s)
        for i, p in enumerate(parts):
            if valid is not None and i not in valid:
                continue
            eff = p.effect("draw")
            if eff is not None:
                n += int(eff["n"])
    if n and s.chars[seat]["hp"] > 0:
        draw_n(ctx, seat, n, 0)
    durations = [d for d in play.get("durations", []) if q.alive(s, d[1])]
    until = max((d[0] for d in durations), default=0)
    on = durations[0][1] if durations else None
    if s.play is not None:
        ctx.emit("PlayFinished", seat=seat, until=until, on=on)


# -- defence windows (AtD L151) -----------------------------------------------------------------


def defend_choices(s: State, d: Defend) -> list[Any]:
    from app.kernel.types import Choice

    seat = int(d.seat)
    ch = s.chars[seat]
    out = []
    if not ch["fatigued"] and ch["hp"] > 0:
        seen: set[str] = set()
        for inst in ch["hand_a"]:
            card = q.action(s, inst)
            if card.id in seen or not q.defense_parts(card):
                continue
            if payment_plan(s, seat, inst) is not None:
                seen.add(card.id)
                out.append(Choice("defend", {"card": inst}, f"Defend with {card.name} ({card.cost.label()})"))
    for item in usable_equipment(s, seat, defending=True):
        out.append(Choice("equip", {"item": item}, f"Defend with {C.equipment[s.cards[item]].name}"))
    return [*out, Choice("pass", {}, "Take the attack")]


def can_defend(s: State, seat: int) -> bool:
    return len(defend_choices(s, Defend(seat=seat, attacker="", target="", resume={}))) > 1


@RULES.decision(Defend, defend_choices)
def resolve_defend(ctx: Ctx, d: Defend, type_: str, args: dict[str, Any]) -> None:
    seat = int(d.seat)
    if type_ == "pass":
        ctx.then([dict(d.resume)])
    elif type_ == "equip":
        start_equipment(ctx, seat, args["item"], "defend", dict(d.resume))
    else:
        ctx.ask(Pay(seat=seat, card=args["card"], rcs=[], context="defend", resume=dict(d.resume)))


# -- the monster phase (AtD L270, L209-221) ---------------------------------------------------------


@step("monster_phase")
def monster_phase(ctx: Ctx, st: Step) -> None:
    """The line resolves left to right; each card's monsters take their turns in placement
    order (AtD L270; facts file §11)."""
    s = ctx.s
    steps = []
    for entry in s.line:
        for mid in sorted(
            (m for m, v in s.monsters.items() if v["entry"] == entry), key=lambda m: int(m[1:])
        ):
            steps.append({"op": "monster_turn", "monster": mid})
    ctx.then(steps)


def enemies_of(s: State, mid: str) -> list[str]:
    return [w for w in q.combatants(s) if w != mid and q.is_enemy(s, mid, w) and q.alive(s, w)]


def in_range(s: State, mid: str, who: str) -> bool:
    m = s.monsters[mid]
    kind = C.monsters[m["card"]].attacks["distance"]
    a, b = q.pos(s, mid), q.pos(s, who)
    if a is None or b is None:
        return False
    return in_distance(kind, chebyshev(a, b)) and q.can_see(s, a, b)


def best_target(s: State, mid: str) -> str | None:
    """Lowest HP, then nearest, then marching order (facts file §8)."""
    here = q.pos(s, mid)
    options = [w for w in enemies_of(s, mid) if in_range(s, mid, w)]
    if not options or here is None:
        return None

    def hp(w: str) -> int:
        return s.chars[int(w[1:])]["hp"] if w.startswith("c") else s.monsters[w]["hp"]

    return min(options, key=lambda w: (hp(w), chebyshev(here, q.pos(s, w)), w))  # type: ignore[arg-type]


@step("monster_turn", "monster")
def monster_turn(ctx: Ctx, st: Step) -> None:
    """A monster's turn by its behaviour list (AtD L211); the game master's in Tabletop
    (AtD L275). A stunned monster does nothing (AtD L74); an immobilized one does not move
    (AtD L73)."""
    s = ctx.s
    mid = st["monster"]
    m = s.monsters.get(mid)
    if m is None or m.get("stunned", 0) > s.round:
        return
    card = C.monsters[m["card"]]
    dominator = m.get("dominator")
    if q.dominated(s, mid) and isinstance(dominator, int) and s.chars[dominator]["hp"] > 0:
        # the dominating player moves it and attacks with it (AtD L75)
        ctx.ask(
            GmMonster(
                seat=dominator,
                monster=mid,
                moved=m.get("immobilized", 0) > s.round,
                attacks=card.attacks["count"],
            )
        )
        return
    if s.tabletop and not q.dominated(s, mid):
        ctx.ask(
            GmMonster(
                seat=GM_SEAT,
                monster=mid,
                moved=m.get("immobilized", 0) > s.round,
                attacks=card.attacks["count"],
            )
        )
        return
    for behaviour in card.behaviour:
        if behaviour == "summon" and card.summon and not m.get("summoned"):
            ctx.emit("MonsterSummoned", id=mid)
            enter_monsters(ctx, card.summon, [], near=mid)
        elif behaviour in ("keep_range", "close", "advance"):
            monster_move(ctx, mid, behaviour)
    ctx.then([{"op": "monster_attack", "monster": mid} for _ in range(int(card.attacks["count"]))])


def monster_move(ctx: Ctx, mid: str, behaviour: str) -> None:
    s = ctx.s
    m = s.monsters[mid]
    if m.get("immobilized", 0) > s.round:
        return
    card = C.monsters[m["card"]]
    foes = enemies_of(s, mid)
    if not foes:
        return
    here = q.pos(s, mid)
    assert here is not None
    adjacent = any(chebyshev(here, q.pos(s, f)) == 1 for f in foes)  # type: ignore[arg-type]
    if behaviour == "keep_range" and not adjacent:
        return
    if behaviour in ("close", "advance") and any(in_range(s, mid, f) for f in foes):
        return
    steps = int(card.maneuver["count"]) * int(card.maneuver["move"]) - penalty(s, mid, "move")
    options = q.move_squares(s, mid, steps, card.flying)
    if not options:
        return
    foe_squares = [q.pos(s, f) for f in foes]
    dist = path_distances(s.open_squares(), [f for f in foe_squares if f is not None])
    kind = card.attacks["distance"]

    def can_hit_from(sq: Square) -> bool:
        return any(
            in_distance(kind, chebyshev(sq, f)) and q.can_see(s, sq, f) for f in foe_squares if f is not None
        )

    def score(sq: Square) -> tuple[int, int, int, Square]:
        near = min(chebyshev(sq, f) for f in foe_squares if f is not None)
        if behaviour == "keep_range":
            return (0 if near >= 2 else 1, 0 if can_hit_from(sq) else 1, options[sq], sq)
        return (0 if can_hit_from(sq) else 1, dist.get(sq, 999), options[sq], sq)

    best = min(options, key=score)
    if score(best) < score(here) if here in options else True:
        ctx.emit("Moved", who=mid, to=lst(best), why="behaviour")


@step("monster_attack", "monster")
def monster_attack(ctx: Ctx, st: Step) -> None:
    """One attack at the best target in range; a character gets a defence window first
    (AtD L151; facts file §20: skipped in Adventure when nothing is playable)."""
    s = ctx.s
    mid = st["monster"]
    if mid not in s.monsters or s.monsters[mid].get("stunned", 0) > s.round:
        return
    target = best_target(s, mid)
    if target is None:
        return
    hit = {"op": "hit", "source": mid, "target": target}
    if target.startswith("c"):
        seat = int(target[1:])
        if s.tabletop or can_defend(s, seat):
            ctx.ask(Defend(seat=seat, attacker=mid, target=target, resume=hit))
            return
    ctx.then([hit])


@step("hit", "source", "target")
def hit(ctx: Ctx, st: Step) -> None:
    """A monster's attack lands if the target is still in range and sight (facts file §20)."""
    s = ctx.s
    mid, target = st["source"], st["target"]
    if mid not in s.monsters or not q.alive(s, target):
        s.guard.pop(target, None)
        return
    if not in_range(s, mid, target):
        ctx.emit("Missed", attacker=mid, target=target)
        s.guard.pop(target, None)
        return
    card = C.monsters[s.monsters[mid]["card"]]
    amount = max(0, int(card.attacks["damage"]) - penalty(s, mid, "damage"))
    if target.startswith("c"):
        damage(ctx, target, amount, char_save(ctx, target), source=mid)
    else:
        save, defended = monster_save(s, target, card.attacks["distance"])
        damage(ctx, target, amount, max(0, save - penalty(s, target, "save")), defended=defended, source=mid)


# -- Tabletop: the game master's monster turn (AtD L275) -------------------------------------------


def gm_monster_choices(s: State, d: GmMonster) -> list[Any]:
    from app.kernel.types import Choice

    out = []
    mid = d.monster
    if mid not in s.monsters:
        return [Choice("done", {}, "End the monster's turn")]
    card = C.monsters[s.monsters[mid]["card"]]
    if d.attacks > 0:
        for who in enemies_of(s, mid):
            if in_range(s, mid, who):
                out.append(Choice("attack", {"who": who}, f"{card.name} attacks {who_name(s, who)}"))
    if not d.moved:
        steps = int(card.maneuver["count"]) * int(card.maneuver["move"]) - penalty(s, mid, "move")
        for sq, n in sorted(q.move_squares(s, mid, steps, card.flying).items()):
            out.append(Choice("move", {"to": lst(sq)}, f"{card.name} moves to {sq[0]},{sq[1]} ({n})"))
    return [*out, Choice("done", {}, "End the monster's turn")]


@RULES.decision(GmMonster, gm_monster_choices)
def resolve_gm_monster(ctx: Ctx, d: GmMonster, type_: str, args: dict[str, Any]) -> None:
    if type_ == "done":
        return
    if type_ == "move":
        ctx.emit(
            "Moved",
            who=d.monster,
            to=list(args["to"]),
            why="game master" if d.seat == GM_SEAT else "dominated",
        )
        ctx.ask(d.replace(moved=True))
        return
    target = args["who"]
    hit_step = {"op": "hit", "source": d.monster, "target": target}
    again = {
        "op": "gm_again",
        "monster": d.monster,
        "moved": d.moved,
        "attacks": d.attacks - 1,
        "seat": d.seat,
    }
    ctx.then([again])
    if target.startswith("c"):
        ctx.ask(Defend(seat=int(target[1:]), attacker=d.monster, target=target, resume=hit_step))
    else:
        ctx.then([hit_step])


@step("gm_again", "monster", "moved", "attacks", "seat")
def gm_again(ctx: Ctx, st: Step) -> None:
    """The same monster's turn goes on, decided by the game master or its dominator."""
    if st["monster"] in ctx.s.monsters:
        seat = st.get("seat", GM_SEAT)
        ctx.ask(GmMonster(seat=seat, monster=st["monster"], moved=st["moved"], attacks=st["attacks"]))


def who_name(s: State, who: str) -> str:
    if who.startswith("c"):
        return s.names[int(who[1:])]
    m = s.monsters.get(who)
    return f"{C.monsters[m['card']].name} #{who[1:]}" if m else f"#{who[1:]}"
