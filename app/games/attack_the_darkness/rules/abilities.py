"""Class abilities (AtD L109-114): once per encounter or dungeon, off in the Arena (AtD
L289); the Samurai's A Lifetime of Preparation, "play at any time" (AtD L313): an "any
time" window while the table waits in an encounter, then the top cards of each deck put
back one at a time."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import Arrange
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.grid import chebyshev
from app.games.attack_the_darkness.rules.drawing import draw_n
from app.games.attack_the_darkness.rules.health import heal, penalty
from app.games.attack_the_darkness.rules.query import ckey, is_enemy, pos
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import Choice

C = load()
step = RULES.step


def ability_ready(s: State, seat: int) -> bool:
    """The class ability, once per encounter or dungeon; off in Arena (AtD L289)."""
    if s.arena:
        return False
    ch = s.chars[seat]
    ab = C.classes[ch.cls].ability
    key = "dungeon" if ab["per"] == "dungeon" else "enc:ability"
    return not ch.used.get(key) and not ch.fatigued


def use_ability(ctx: Ctx, seat: int) -> None:
    s = ctx.s
    ch = s.chars[seat]
    ab = C.classes[ch.cls].ability
    key = "dungeon" if ab["per"] == "dungeon" else "enc:ability"
    ctx.emit("AbilityUsed", seat=seat, key=key, name=ab["name"])
    steps: list[Step] = []
    for e in ab["effects"]:
        if e["op"] == "heal":
            target = ckey(seat)
            if ch.cls == "templar":
                hurt = [
                    ckey(i)
                    for i, o in enumerate(s.chars)
                    if o.pos is not None
                    and o.hp < o.max_hp
                    and not is_enemy(s, ckey(seat), ckey(i))
                    and chebyshev(pos(s, ckey(seat)), pos(s, ckey(i))) <= 2  # type: ignore[arg-type]
                ]
                target = min(hurt, key=lambda w: s.chars[int(w[1:])].hp) if hurt else target
            heal(ctx, target, e["n"])
        elif e["op"] == "move":
            steps.append({"op": "ask_move", "seat": seat, "who": ckey(seat), "n": e["n"], "why": "ability"})
        elif e["op"] == "speed_move":
            # A move up to the character's speed, besides the turn's own (Mark for Judgement:
            # "draw 1 and gain 1 speed move"; a move penalty counts, AtD L295).
            speed = max(0, ch.speed - penalty(s, ckey(seat), "move"))
            steps += [
                {"op": "ask_move", "seat": seat, "who": ckey(seat), "n": speed, "why": "ability"}
                for _ in range(int(e["n"]))
            ]
        elif e["op"] == "draw":
            n = e["n"]
            draw_n(ctx, seat, n, n if ch.cls == "psion" else 0)
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
    if not isinstance(seat, int) or s.decision is None or s.result is not None or not s.in_encounter:
        return []
    ch = s.chars[seat]
    ab = C.classes[ch.cls].ability
    if ch.hp <= 0 or s.decision.kind == "arrange" or not ability_ready(s, seat):
        return []
    if not any(e["op"] == "arrange_top" for e in ab["effects"]):
        return []
    return [Choice("prepare", {}, f"{ab['name']}: {ab['text']}")]


def resolve_any_time(ctx: Ctx, seat: Any, _t: str, args: dict[str, Any]) -> None:
    s = ctx.s
    ab = C.classes[s.chars[seat].cls].ability
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
    pile = s.chars[seat].deck(deck)
    top = pile[: st["n"]]
    if not top:
        return
    ctx.emit("DeckShuffled", seat=seat, deck=deck, order=list(pile), top=top, n=len(pile), peek=True)
    if len(top) > 1:
        ctx.ask(Arrange(seat=seat, deck=deck, top=top, placed=[]))


def arrange_choices(s: State, d: Arrange) -> list[Any]:
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
    below = ch.deck(d.deck)[len(d.top) :]
    ctx.emit(
        "DeckShuffled",
        seat=d.seat,
        deck=d.deck,
        order=top + below,
        top=top,
        n=len(top) + len(below),
        peek=True,
    )
