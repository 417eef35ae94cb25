"""Penalties to saves, movement and damage (AtD L295). The rulebook names the kind, never a
card: three authored cards carry one (Distracting Shot: saves; Stagger: movement; Humble:
damage). Outside the Arena a penalty lasts its rounds (AtD L168-170); in the Arena it
"applies only to the next save, move, or attack", and a penalty for N rounds to the next N."""

from __future__ import annotations

import random

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.decisions import Act
from app.games.attack_the_darkness.engine import Ctx
from app.games.attack_the_darkness.rules.health import char_save
from app.games.attack_the_darkness.rules.turn import act_choices
from app.games.attack_the_darkness.state import Penalty
from app.kernel import table as kernel
from tests.games.attack_the_darkness.harness import GAME, Table

C = load()
ROW = [(0, 0, "h"), (4, 0, "h"), (8, 0, "h")]


def test_the_three_penalty_cards_are_authored() -> None:
    for card, stat in (("distracting_shot", "save"), ("stagger", "move"), ("humble", "damage")):
        entry = next(a for a in C.raw["cards"]["action"] if a["id"] == card)
        assert entry["source"] == "authored"
        effects = [e for p in C.actions[card].parts for e in p.effects if e["op"] == "penalty"]
        assert [e["stat"] for e in effects] == [stat]


def _arena_duel() -> tuple[Table, int, int]:
    """An Arena table past initiative: ``me`` acts, ``foe`` stands 3 squares away in sight."""
    t = Table(2, classes=["samurai", "templar"], mode="arena")
    while t.state.decision.kind == "cut":
        seat = t.state.decision.asked[0]
        t.send(seat, "cut", seat=seat, depth=1)
    while t.state.decision.kind == "place_token":
        seat = t.state.decision.seat
        t.send(seat, "token", **t.choices(seat)[0][1])
    me, foe = t.state.order
    t.state.chars[me].pos, t.state.chars[foe].pos = (0, 0), (0, 3)
    assert t.state.decision == Act(seat=me)
    return t, me, foe


def _save(t: Table, who: str) -> int:
    ctx = Ctx(t.state.clone(), random.Random(1))
    got = char_save(ctx, who)
    t.state = kernel.fold_all(GAME, t.state, ctx.events)
    return got


def test_arena_save_penalty_hits_only_the_next_saves() -> None:
    """Distracting Shot: 2 damage and −2 to saves "for 2 rounds", which in the Arena means
    the target's next 2 saves (AtD L295)."""
    t, me, foe = _arena_duel()
    shot, f1 = t.card(me, "distracting_shot"), t.card(me, "disciplined")
    t.send(me, "play", card=shot)
    t.send(me, "add", rc=f1)
    t.send(me, "done")
    t.send(me, "target", who=f"c{foe}")
    t.send(foe, "pass")  # the defence window of an Arena attack (AtD L151)
    assert t.state.chars[foe].penalties["save"] == Penalty(2, None, 2)
    who = f"c{foe}"
    t.state.guard[who] = 0
    assert _save(t, who) == 0 and t.state.chars[foe].penalties["save"].left == 2  # no save: not spent
    t.state.guard[who] = 3
    assert _save(t, who) == 1  # 3 − 2
    t.state.guard[who] = 3
    assert _save(t, who) == 1
    t.state.guard[who] = 3
    assert _save(t, who) == 3 and "save" not in t.state.chars[foe].penalties  # two saves: spent


def test_arena_move_penalty_shortens_the_next_moves() -> None:
    """Stagger: −2 movement for 2 rounds; in the Arena the next 2 moves (AtD L295)."""
    t, me, foe = _arena_duel()
    t.state.chars[foe].pos = (0, 1)  # adjacent: Stagger is a melee attack
    t.card(me, "stagger")
    stagger = next(
        a["card"] for k, a in t.choices(me) if k == "play" and t.state.cards[a["card"]] == "stagger"
    )
    t.send(me, "play", card=stagger)  # the first Stagger in hand is the one offered
    t.send(me, "add", rc=t.card(me, "disciplined"))
    t.send(me, "done")
    t.send(me, "target", who=f"c{foe}")
    t.send(foe, "pass")
    assert t.state.chars[foe].penalties["move"].left == 2
    speed = t.state.chars[foe].speed

    def reach() -> int:
        d = Act(seat=foe)
        return max(abs(c.args["to"][0] - 0) for c in act_choices(t.state, d) if c.type == "speed")

    t.state.chars[foe].speed_used = False
    assert reach() == speed - 2
    ctx = Ctx(t.state.clone(), random.Random(1))
    ctx.s.decision = Act(seat=foe)
    ctx.s.agenda = []
    ctx.resolve("speed", {"to": [speed - 2, 1]})
    t.state = kernel.fold_all(GAME, t.state, ctx.events)
    assert t.state.chars[foe].penalties["move"].left == 1  # one move spent
    t.state.chars[foe].speed_used = False
    t.state.chars[foe].pos = (0, 1)
    assert reach() == speed - 2


def test_outside_the_arena_a_damage_penalty_lasts_its_rounds() -> None:
    """Humble on a monster: −3 damage for 2 rounds (AtD L168-170, L295), the card kept in
    play meanwhile; then the monster hits in full."""
    t = Table(1, classes=["inquisitor"])
    t.craft(ROW, {0: (0, 1)})
    kobold = t.monster("kobold_crossbows", (5, 1))
    humble, c1, c2 = t.hand(0, "humble", "convicting", "convicting")
    t.send(0, "play", card=humble)
    t.send(0, "add", rc=c1)
    t.send(0, "add", rc=c2)
    t.send(0, "done")
    t.send(0, "target", who=kobold)
    assert t.state.monsters[kobold].penalties["damage"] == Penalty(3, 3, None)
    assert [e.card for e in t.state.chars[0].in_play] == [humble]
    hp = t.state.chars[0].hp
    t.run({"op": "hit", "source": kobold, "target": "c0"})
    assert t.state.chars[0].hp == hp  # 2 damage − 3
    t.state.round = 3  # the penalty's rounds are over
    t.run({"op": "hit", "source": kobold, "target": "c0"})
    assert t.state.chars[0].hp == hp - 2
