"""The heuristic bot's choices on crafted tables: kills first, boosts a paid attack, waits
just outside the reach of closing monsters, never digs greedily, rests when hurt, answers
trades and orders A Lifetime of Preparation's cards."""

from __future__ import annotations

import random

from app.games.attack_the_darkness import ATTACK_THE_DARKNESS as GAME
from app.games.attack_the_darkness.bench import clicks_per_turn
from app.games.attack_the_darkness.bot import bot_pick
from app.games.attack_the_darkness.bot.threat import incoming
from app.games.attack_the_darkness.decisions import ClearRoom, Explore, Trade
from app.games.attack_the_darkness.grid import chebyshev
from tests.games.attack_the_darkness.harness import C, Table

ROW = [(0, 0, "h"), (4, 0, "h"), (8, 0, "h")]


def pick(t: Table, seat: object = 0) -> tuple[str, dict]:
    prompt = next(p for p in GAME.prompts(t.state) if p.seat == seat)
    choice = bot_pick(t.state, prompt, random.Random(1))
    return choice.type, choice.args


def test_the_bot_finishes_the_monster_it_can_kill() -> None:
    """A 4-damage Hack! kills a 4-HP Zombie rather than hitting a 3-HP Troll whose save of 2
    (AtD L76, L216) would leave it standing: not simply the lowest HP."""
    t = Table(1, classes=["champion"])
    t.craft(ROW, {0: (1, 1)})
    troll = t.monster("troll", (2, 1), hp=3)
    zombie = t.monster("zombies", (0, 1), hp=4)
    assert C.monsters["troll"].defenses["save"] == 2
    hack, hearty, other = t.hand(0, "hack", "hearty", "crush")
    assert pick(t) == ("play", {"card": hack})
    t.send(0, "play", card=hack)
    kind, args = pick(t)
    assert (kind, args) == ("add", {"rc": hearty})
    t.send(0, "add", rc=hearty)
    t.send(0, "done")
    t.send(0, "discard", card=other)
    assert pick(t) == ("target", {"who": zombie}) and troll in t.state.monsters


def test_the_bot_adds_a_damage_boost_to_a_paid_attack() -> None:
    t = Table(1, classes=["champion"])
    t.craft(ROW, {0: (1, 1)})
    t.monster("troll", (2, 1))
    crush, h1, brutish = t.hand(0, "crush", "hearty", "brutish")
    t.send(0, "play", card=crush)
    t.send(0, "add", rc=h1)
    assert C.resources["brutish"].modifier("bonus_damage") == 1
    assert pick(t) == ("add", {"rc": brutish})  # paid already: the +1 damage goes in too


def test_the_bot_adds_no_boost_that_would_leave_the_card_unpayable() -> None:
    """Ponderous pays Charge and asks for a discard; each Shattering (+2 damage) asks for one
    more. The hand holds two other cards: one Shattering fits, a second would make three
    discards from two, and the payment could only be taken back with "Back" (the bot then
    chose the same card again, for ever: the loop of issue 26)."""
    t = Table(1, classes=["champion"])
    t.craft(ROW, {0: (1, 1)})
    t.monster("troll", (2, 1))
    charge, ponderous, s1, _s2, _, _ = t.hand(
        0, "charge", "ponderous", "shattering", "shattering", "cleave", "crush"
    )
    t.send(0, "play", card=charge)
    assert pick(t) == ("add", {"rc": ponderous})
    t.send(0, "add", rc=ponderous)
    assert pick(t) == ("add", {"rc": s1})
    t.send(0, "add", rc=s1)
    assert pick(t) == ("done", {})


def test_the_seeds_whose_bot_looped_while_paying_now_end() -> None:
    """``bench.clicks_per_turn`` left seeds 0 and 3 out: paying card by card, the bot looped
    (a boost that left the card unpayable, "Back", the same card again). Every game of
    seeds 0-3 now ends, by either way of paying."""
    for one_click in (False, True):
        _, unfinished = clicks_per_turn(range(4), one_click=one_click)
        assert unfinished == 0, one_click


def test_the_bot_adds_no_boost_that_leaves_the_card_unpayable() -> None:
    """Hearty's spare Stamina (AtD L192) and one Shattering pay for Charge; a second
    Shattering's discard would eat the card its own condition needs (AtD L140): the bot
    declares instead of adding it and going back for ever."""
    t = Table(1, classes=["champion"])
    t.craft(ROW, {0: (1, 1)})
    t.monster("troll", (2, 1))
    charge, _cleave, first, _second = t.hand(0, "charge", "cleave", "shattering", "shattering")
    t.state.leftover = {"0": 1}
    t.send(0, "play", card=charge)
    t.send(0, "add", rc=first)
    assert pick(t) == ("done", {})


def test_the_bot_waits_just_outside_the_reach_of_closing_monsters() -> None:
    """Nothing to strike this turn and a monster that closes in (AtD L211): the leader walks
    up to it, but not into its reach, so the troll walks up next phase without a blow and
    is struck first; then it holds there."""
    t = Table(2, classes=["champion", "templar"])
    t.craft(ROW, {0: (0, 1), 1: (0, 2)})
    troll = t.monster("troll", (11, 1))
    t.hand(0, "crush", "hearty", "hearty")
    kind, args = pick(t)
    assert kind == "speed"
    square = (args["to"][0], args["to"][1])
    assert chebyshev(square, t.state.monsters[troll].pos) < 11
    assert incoming(t.state, 0, square) == 0
    t.send(0, "speed", **args)
    assert pick(t) == ("end_turn", {"discard": False})


def test_the_bot_never_digs_greedily_and_rests_when_hurt() -> None:
    """Dug monsters seed the next encounter (AtD L281); lost HP is regained by resting
    (AtD L279)."""
    t = Table(2, classes=["champion", "templar"])
    t.craft(ROW, {0: (0, 1), 1: (0, 2)})
    t.state.in_encounter = False
    t.state.decision = Explore(seat=0, missed=True)
    t.state.tiles = t.state.tiles[:1]
    assert ("dig", {}) in t.choices(0)
    assert pick(t) == ("stop", {})
    t.state.chars[1].hp = 9
    t.state.decision = ClearRoom(seat="any", seats=[0, 1], chosen={})
    kind, args = pick(t, 1)
    assert kind == "rest" and args["seat"] == 1


def test_the_bot_accepts_gifts_and_declines_swaps() -> None:
    t = Table(2, classes=["champion", "templar"])
    s = t.state
    axe, bow = (next(i for i in s.dungeon_deck if s.cards[i] == c) for c in ("battle_axe", "short_bow"))
    s.chars[0].equipment, s.chars[1].equipment = [axe], [bow]
    s.decision = Trade(seat=1, traders=[0, 1], offer={"seat": 0, "to": 1, "give": axe, "take": None})
    assert pick(t, 1) == ("accept", {})
    s.decision = Trade(seat=1, traders=[0, 1], offer={"seat": 0, "to": 1, "give": axe, "take": bow})
    assert pick(t, 1) == ("decline", {})
    s.decision = Trade(seat="any", seats=[0, 1], traders=[0, 1])
    assert pick(t, 0) == ("done", {"seat": 0})


def test_the_bot_puts_the_cheapest_action_cards_on_top() -> None:
    t = Table(1, classes=["samurai"], dungeon="random")
    t.craft([(0, 0, "v")], {0: (0, 0)})
    t.monster("zombies", (2, 3))
    t.send(0, "ability")
    top = t.state.decision.top
    cheapest = min(top, key=lambda c: (C.actions[t.state.cards[c]].cost.total, c))
    assert pick(t) == ("top", {"card": cheapest})
