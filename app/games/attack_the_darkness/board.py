"""The pieces of a view the browser board draws (``templates/games/attack_the_darkness/``):
the grid's bounds and squares, the tiles with their size, the pending question's public
details (a defence window's attack, the acting monster, the tile spots), and card texts.

Pure functions of the state and the viewer, like the rest of the view (``view.py``); they
add no secret: a hand's cards and a payment in progress are given to their player only,
the dungeon deck to the Tabletop game master only (AtD L274)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.games.attack_the_darkness.cards import (
    action_card,
    dungeon_card_text,
    effect_text,
    part_text,
    player_card,
    resource_card,
)
from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import (
    Act,
    Area,
    Arrange,
    ChooseTile,
    ClearRoom,
    ConfirmPlay,
    Defend,
    GmMonster,
    GmPick,
    GmPlace,
    KeepEquipment,
    Pay,
    PlaceTile,
    Trade,
)
from app.games.attack_the_darkness.grid import TILE_H, TILE_W, tile_squares
from app.games.attack_the_darkness.rules.encounter_map import tile_spots
from app.games.attack_the_darkness.rules.payment import payment
from app.games.attack_the_darkness.rules.query import combatants, pos, who_name
from app.games.attack_the_darkness.rules.targeting import area_choices
from app.games.attack_the_darkness.rules.turn import act_unavailable
from app.games.attack_the_darkness.state import Character, Monster, State
from app.kernel.types import Viewer

C = load()
MARGIN = 1
"""Squares of wall drawn round the map, so a tile's edge reads as an edge."""


def square_key(x: int, y: int) -> str:
    """A square's name on the board and in ``data-target`` (``targets.py``): "x,y", the way
    the choices' labels write it ("Move to 3,10")."""
    return f"{x},{y}"


def placing_spots(s: State) -> list[tuple[int, int, str]]:
    """Where the next map tile may go, while a tile is being placed (AtD L248)."""
    return tile_spots(s) if isinstance(s.decision, PlaceTile) else []


def anchors(s: State, spots: list[tuple[int, int, str]] | None = None) -> list[tuple[int, int]]:
    """Squares a pending question may name that lie off the map: where the next tile's
    top-left corner may go (AtD L248) or an area's corner (AtD L159-162). Public: the map
    and the pending question are (the area's card was declared, AtD L143)."""
    d = s.decision
    if isinstance(d, PlaceTile):
        return sorted({(x, y) for x, y, _ in (placing_spots(s) if spots is None else spots)})
    if isinstance(d, Area) and s.play is not None:
        return sorted({(c.args["x"], c.args["y"]) for c in area_choices(s, d) if c.type == "area"})
    return []


def grid_of(s: State) -> dict[str, Any]:
    """The drawn rectangle: every open square (on a placed tile, or The Arena's floor), the
    wall squares between (AtD L101: the gaps between tiles are walls), the squares a
    pending question names off the map and, while a tile is placed, the whole of every
    spot it may take, so the ghost of any placement lies on the grid. ``fits``: each tile
    spot's corner and the orientations that fit there ("h" sideways, "v" upright)."""
    open_squares = s.open_squares()
    spots = placing_spots(s)
    extra = [tuple(a) for a in anchors(s, spots)]
    people = [pos(s, w) for w in combatants(s)]
    footprints = {sq for x, y, o in spots for sq in tile_squares(x, y, o)}
    every = list(open_squares) + extra + [p for p in people if p is not None] + list(footprints)
    if not every:
        return {"x0": 0, "y0": 0, "w": 0, "h": 0, "open": [], "anchors": []}
    xs = [p[0] for p in every]
    ys = [p[1] for p in every]
    x0, y0 = min(xs) - MARGIN, min(ys) - MARGIN
    x1, y1 = max(xs) + MARGIN, max(ys) + MARGIN
    out = {
        "x0": x0,
        "y0": y0,
        "w": x1 - x0 + 1,
        "h": y1 - y0 + 1,
        "open": sorted(square_key(x, y) for x, y in open_squares),
        "anchors": [square_key(x, y) for x, y in extra if (x, y) not in open_squares],
        "stairs": sorted(square_key(x, y) for x, y in s.stairs_squares()),
    }
    if spots:
        fits: dict[str, str] = {}
        for x, y, o in spots:
            key = square_key(x, y)
            fits[key] = "".join(sorted(fits.get(key, "") + o))
        out["fits"] = fits
    return out


def tile_size(o: str) -> tuple[int, int]:
    return (TILE_W, TILE_H) if o == "v" else (TILE_H, TILE_W)


def monster_label(mid: str) -> str:
    """``"m5"`` → ``"#5"``: how a monster is named on its token, its card and in the log."""
    return f"#{mid[1:]}"


def waiting_details(s: State, viewer: Viewer) -> dict[str, Any]:
    """What everyone may know of the pending question, and for the seats asked what only
    they may (a payment in progress: the resource cards chosen are still in the hand)."""
    d = s.decision
    if d is None:
        return {}
    out: dict[str, Any] = {}
    if isinstance(d, Defend):
        attacker, target = d.attacker, d.target
        out["attacker"] = {"id": attacker, "name": who_name(s, attacker)}
        out["target"] = {"id": target, "name": who_name(s, target)}
        if attacker in s.monsters:
            a = C.monsters[s.monsters[attacker].card].attacks
            out["attack"] = {"damage": a["damage"], "distance": a["distance"]}
        elif s.play is not None and s.play.card:
            out["attack"] = {"card": C.card_name(s.cards[s.play.card])}
        out["save"] = s.guard.get(target, 0)
    elif isinstance(d, GmMonster):
        out["monster"] = {"id": d.monster, "name": who_name(s, d.monster)}
        out["attacks_left"] = d.attacks
        out["moved"] = d.moved
    elif isinstance(d, ClearRoom):
        out["chosen"] = sorted(int(k) for k in d.chosen)
    elif isinstance(d, GmPick) and viewer.is_gm:
        out["total"] = d.total
        out["danger"] = s.danger
        out["budget"] = s.danger + 5
    elif isinstance(d, PlaceTile):
        out["left"] = d.left
    elif isinstance(d, KeepEquipment):
        cid = s.cards[d.card]
        out["equipment"] = {"name": C.dungeon_name(cid), "text": dungeon_card_text(cid)}
    elif isinstance(d, Trade):
        out["trade"] = trade_details(s, d)
    elif isinstance(d, GmPlace):
        out["place"] = {"name": C.monsters[d.card].name, "left": d.left}
    elif isinstance(d, ChooseTile):
        out["choose"] = {"name": C.monsters[d.card].name, "tiles": list(d.tiles)}
    elif isinstance(d, Arrange) and any(viewer.holds(x) for x in d.asked):
        out["arrange"] = arrange_details(s, d)
    elif isinstance(d, ConfirmPlay) and any(viewer.holds(x) for x in d.asked):
        cid = s.cards[d.card]
        out["confirm"] = {"card": cid, "name": C.card_name(cid), "text": action_card(cid)}
    elif isinstance(d, Pay) and any(viewer.holds(x) for x in d.asked):
        paid, x, _, _ = payment(s, int(d.seat), d)
        cid = s.cards[d.card]
        out["pay"] = {
            "card": cid,
            "text": action_card(cid),
            "chosen": [
                {"card": s.cards[r], "name": C.card_name(s.cards[r]), "text": resource_card(s.cards[r])}
                for r in d.rcs
            ],
            "paid": paid,
            "x": x,
            "summary": play_summary(cid, [s.cards[r] for r in d.rcs], x),
        }
    return out


def trade_details(s: State, d: Trade) -> dict[str, Any]:
    """Who is still trading and the proposal waiting for its answer, shown to everyone:
    equipment is public and both players must see what is on the table (AtD L207, L279)."""
    out: dict[str, Any] = {"traders": list(d.traders), "offer": None}
    if d.offer is not None:
        o = d.offer
        out["offer"] = {
            "seat": o["seat"],
            "to": o["to"],
            "give": C.dungeon_name(s.cards[o["give"]]) if o["give"] else None,
            "take": C.dungeon_name(s.cards[o["take"]]) if o["take"] else None,
        }
    return out


def arrange_details(s: State, d: Arrange) -> dict[str, Any]:
    """A Lifetime of Preparation's cards, for the Samurai's player only (AtD L313): the ones
    already put back, in order from the top, and the ones still to place."""
    return {
        "deck": d.deck,
        "placed": [_card(s, c) for c in d.placed],
        "left": [_card(s, c) for c in d.top if c not in d.placed],
    }


def _card(s: State, inst: str) -> dict[str, Any]:
    cid = s.cards[inst]
    return {"card": cid, "name": C.card_name(cid), "text": player_card(cid)}


PENALTY_STAT = {"save": "saves", "move": "movement", "damage": "damage"}


def penalties_of(s: State, who: Character | Monster) -> list[dict[str, Any]]:
    """A character's or a monster's live penalties (AtD L295), as the tokens and panels
    show them: for rounds (``until``) or, in the Arena, for the next ``left`` uses."""
    out = []
    for stat, e in sorted(who.penalties.items()):
        if e.left is not None:
            if e.left <= 0:
                continue
            lasts = f"the next {e.left} {'use' if e.left == 1 else 'uses'}"
        elif e.until is not None and e.until > s.round:
            lasts = f"until round {e.until}"
        else:
            continue
        out.append({"stat": stat, "n": e.n, "label": f"−{e.n} {PENALTY_STAT.get(stat, stat)}, {lasts}"})
    return out


MODIFIES = {
    "bonus_damage": ("damage", "damage_x"),
    "vs_boss": ("damage", "damage_x"),
    "stun_target": ("damage", "damage_x"),
    "immobilize_target": ("damage", "damage_x"),
    "reach": ("damage", "damage_x"),
    "bonus_save": ("save",),
    "bonus_move": ("move",),
    "bonus_push": ("push",),
    "bonus_heal": ("heal", "heal_x"),
}
"""Which of a part's effects a resource card's modifier adds to (AtD L121-124)."""


def play_summary(cid: str, rcs: list[str], x: int) -> str:
    """What a card will do with the resource cards chosen so far, the modifiers summed before
    they apply (AtD L121-124; AtD L180: ×2 and ×3 make ×5), e.g. "Hack!: attack up to 1 enemy: 4
    damage (+1 damage) ×2"."""
    card = C.actions[cid]
    bonus = Counter[str]()
    mult = 0
    whole: list[str] = []
    for r in rcs:
        for e in C.resources[r].effects:
            if e["op"] == "multiplier":
                mult += int(e["n"])
            elif e["op"] in MODIFIES:
                bonus[e["op"]] += int(e.get("n", 0))
            else:
                whole.append(effect_text(e))
    pieces = []
    for p in card.parts:
        text = part_text(p)
        line = f"{text['type'].lower()} {text['targets']}: {text['effects']}"
        ops = {e["op"] for e in p.effects}
        extra = [
            effect_text({"op": op, "n": n})
            for op, n in sorted(bonus.items())
            if n and ops & set(MODIFIES[op])
        ]
        if extra:
            line += " (" + ", ".join(extra) + ")"
        if mult and ops & {"damage", "damage_x", "heal", "heal_x"}:
            line += f" ×{mult}"
        pieces.append(line)
    head = f"{card.name}" + (f" with X = {x}" if card.cost.is_x and x else "")
    tail = f"; also {', '.join(dict.fromkeys(whole))}" if whole else ""
    return f"{head}: " + "; ".join(pieces) + tail


def play_in_progress(s: State) -> dict[str, Any] | None:
    """The card being resolved, public once declared (CardPlayed, AtD L143)."""
    p = s.play
    if p is None:
        return None
    seat = p.seat
    if p.equipment:
        cid = s.cards[p.equipment]
        return {
            "seat": seat,
            "name": s.names[seat],
            "card": C.dungeon_name(cid),
            "text": dungeon_card_text(cid),
        }
    assert p.card is not None
    cid = s.cards[p.card]
    rcs = [s.cards[r] for r in p.rcs]
    return {
        "seat": seat,
        "name": s.names[seat],
        "card": C.card_name(cid),
        "rcs": [C.card_name(r) for r in rcs],
        "summary": play_summary(cid, rcs, p.x),
    }


def gm_dungeon_deck(s: State) -> list[dict[str, Any]]:
    """The dungeon deck by card, for the Tabletop game master (AtD L274), sorted by name:
    what they may pick from, never in deck order."""
    counts = Counter(s.cards[x] for x in s.dungeon_deck)
    out = []
    for cid, n in counts.items():
        entry: dict[str, Any] = {
            "card": cid,
            "name": C.dungeon_name(cid),
            "count": n,
            "kind": C.dungeon_kind(cid),
            "text": dungeon_card_text(cid),
        }
        if cid in C.monsters:
            entry["danger"] = C.monsters[cid].danger
        out.append(entry)
    return sorted(out, key=lambda e: (e["kind"] != "monster", e["name"], e["card"]))


def unplayable(s: State, seat: int) -> dict[str, str]:
    """Why each action card in ``seat``'s hand cannot be played in its action step now, by
    card id, with the rule (the engine's own reasons, ``turn.act_unavailable``)."""
    d = s.decision
    if not isinstance(d, Act) or d.seat != seat:
        return {}
    out = {}
    names = {C.card_name(s.cards[c]): s.cards[c] for c in s.chars[seat].hand_a}
    for u in act_unavailable(s, d):
        if u.type == "play":
            cid = names.get(u.label.removeprefix("Play "))
            if cid is not None:
                out[cid] = f"{u.reason} ({u.rule})" if u.rule else u.reason
    return out
