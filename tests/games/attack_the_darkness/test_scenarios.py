"""The rulebook's worked examples and unambiguous rules as scenarios (facts file §22),
each citing its lines; rejected commands change nothing."""

from __future__ import annotations

import pytest

from app.games.attack_the_darkness.decks import sample_deck, validate_deck
from app.games.attack_the_darkness.rules.health import monster_save
from app.games.attack_the_darkness.rules.monsters import best_target
from app.games.attack_the_darkness.state import InPlay
from app.kernel.types import RuleError
from tests.games.attack_the_darkness.harness import C, Table, populate, types

ROW = [(0, 0, "h"), (4, 0, "h"), (8, 0, "h")]
"""Three horizontal tiles side by side: an open strip 12 squares wide and 3 tall."""


def test_player_card_example_reaching_hack() -> None:
    """AtD L186-194: Zelda's Champion (speed 2) closes on a Zombie 5 squares away with the
    speed move and a Hearty Feint, then kills it with a Reaching Hack! paid by Hearty's
    leftover Stamina, discarding the other Hack!."""
    t = Table(1, classes=["champion"])
    t.craft(ROW, {0: (0, 1)})
    zombie = t.monster("zombies", (6, 1))
    reaching, hearty1, hearty2, feint, hack1, hack2 = t.hand(
        0, "reaching", "hearty", "hearty", "feint", "hack", "hack"
    )
    assert ("speed", {"to": [3, 1]}) not in t.choices()  # speed 2 only (AtD L82)
    t.send(0, "speed", to=[2, 1])
    assert not [c for c in t.choices() if c[0] == "speed"]  # once per turn (AtD L82)
    with pytest.raises(RuleError):
        t.send(0, "speed", to=[3, 1])
    t.send(0, "play", card=feint)
    t.send(0, "add", rc=hearty1)
    t.send(0, "done")
    t.send(0, "move", to=[4, 1])
    assert t.state.leftover == {"0": 1}  # Hearty's split Stamina (AtD L192)
    # Hack! alone cannot reach the Zombie 2 squares away: no target offered (AtD L90)
    t.send(0, "play", card=hack1)
    t.send(0, "done")  # paid by the leftover Stamina
    t.send(0, "discard", card=hack2)
    assert t.state.decision.kind == "act" and zombie in t.state.monsters  # no target in melee
    # the real play: a Reaching Hack! (fresh fixture cards for the second attempt)
    hack3, hack4 = t.card(0, "hack"), t.card(0, "hack")
    t.state.leftover = {"0": 1}
    t.send(0, "play", card=hack3)
    t.send(0, "add", rc=reaching)
    t.send(0, "done")
    t.send(0, "discard", card=hack4)
    events = t.send(0, "target", who=zombie)
    assert "MonsterDied" in types(events) and zombie not in t.state.monsters
    damaged = next(e for e in events if e.type == "Damaged")
    assert damaged.data["amount"] == 4  # 4 damage, Zombies are not Minions (facts file §18)
    assert t.state.chars[0].hand_r == [hearty2]


def test_encounter_creation_example() -> None:
    """AtD L253-263: 4 new characters, 7 tiles: danger 28; the equipment is discarded; the
    draw stops at 29 with Aura Knight; the line (the acting order) runs right to left as
    drawn; sets go to the farthest empty tiles, first token on the logo, never the stairs."""
    t = Table(4, classes=["inquisitor", "templar", "samurai", "assassin"], dungeon="random")
    layout = [(0, 0, "v"), (3, 0, "v"), (6, 0, "v"), (9, 0, "v"), (12, 0, "v"), (15, 0, "v"), (18, 0, "v")]
    t.craft(layout, {})
    t.state.in_encounter, t.state.round = True, 0
    s = t.state
    order = [
        "demon",
        "kobold_crossbows",
        "battle_axe",
        "chesherak",
        "zombies",
        "minotaur",
        "aura_knight",
        "wendigo",
    ]
    top = []
    for card in order:
        inst = next(i for i in s.dungeon_deck if s.cards[i] == card and i not in top)
        top.append(inst)
    s.dungeon_deck = top + [i for i in s.dungeon_deck if i not in top]
    events = populate(t)
    assert next(e for e in events if e.type == "DangerSet").data["danger"] == 28
    revealed = [(e.data["id"], e.data["to"]) for e in events if e.type == "DungeonCardRevealed"]
    assert revealed[2] == ("battle_axe", "discard")
    assert [c for c, to in revealed if to == "line"] == [x for x in order[:7] if x != "battle_axe"]
    assert sum(C.monsters[c].danger for c, to in revealed if to == "line") == 29
    assert t.state.dungeon_deck[0] == top[-1]  # Wendigo stays on the deck
    names = [
        C.monsters[t.state.monsters[next(m for m, v in t.state.monsters.items() if v.entry == e)].card].id
        for e in t.state.line
    ]
    assert names == ["aura_knight", "minotaur", "zombies", "chesherak", "kobold_crossbows", "demon"]
    stairs = {(x, y) for x in range(3) for y in range(4)}
    assert not any(m.pos in stairs for m in t.state.monsters.values())
    demon = next(m for m in t.state.monsters.values() if m.card == "demon")
    assert demon.pos == (18, 0)  # the farthest tile's logo square (its top-left corner)


def test_partial_boss_sets_go_to_the_bottom() -> None:
    """AtD L224-226: a partial boss set adds nothing and goes to the bottom of the deck; a
    complete set is one line entry whose danger counts once."""
    t = Table(3, classes=["champion", "templar", "samurai"], dungeon="random", bosses=True)
    t.craft(
        [(0, 0, "v"), (3, 0, "v"), (6, 0, "v"), (9, 0, "v"), (12, 0, "v"), (15, 0, "v"), (18, 0, "v")], {}
    )
    t.state.round = 0
    s = t.state
    order = ["salt_dragon_1", "kobold_crossbows", "salt_dragon_2", "aura_knight", "demon", "minotaur"]
    top = [next(i for i in s.dungeon_deck if s.cards[i] == c) for c in order]
    s.dungeon_deck = top + [i for i in s.dungeon_deck if i not in top]
    events = populate(t)
    assert next(e for e in events if e.type == "DangerSet").data["danger"] == 21
    assert "BossCardsReturned" in types(events)
    assert t.state.dungeon_deck[-2:] == [top[0], top[2]]
    assert not any(m.card.startswith("salt_dragon") for m in t.state.monsters.values())
    # variant: all three dragon cards first — one entry, danger counted once
    t2 = Table(3, classes=["champion", "templar", "samurai"], dungeon="random", bosses=True)
    t2.craft(
        [(0, 0, "v"), (3, 0, "v"), (6, 0, "v"), (9, 0, "v"), (12, 0, "v"), (15, 0, "v"), (18, 0, "v")], {}
    )
    t2.state.round = 0
    s2 = t2.state
    dragons = [next(i for i in s2.dungeon_deck if s2.cards[i] == f"salt_dragon_{k}") for k in (1, 2, 3)]
    s2.dungeon_deck = dragons + [i for i in s2.dungeon_deck if i not in dragons]
    events = populate(t2)
    entered = [e for e in events if e.type == "MonstersEntered"]
    assert entered[0].data["cards"] == dragons and len(entered[0].data["monsters"]) == 1
    dragon_entry = entered[0].data["entry"]
    assert t2.state.line[-1] == dragon_entry  # first drawn: rightmost, acting last
    # danger 20 counted once (not 60): one more monster card meets the level of 21
    assert len(entered) == 2 and "BossCardsReturned" not in types(events)


def test_multipliers_add_before_applying() -> None:
    """AtD L179-180: ×2 and ×3 on a 2-damage attack make ×5: 10 damage."""
    t = Table(1, classes=["magician"])
    t.craft(ROW, {0: (0, 1)})
    ogre = t.monster("ogre", (1, 1), hp=30)
    t.state.monsters[ogre].defended = 99  # no defence left this round
    jab, howling, unleashed, spare1, spare2 = t.hand(0, "jab", "howling", "unleashed", "spark", "punch")
    t.send(0, "play", card=jab)
    t.send(0, "add", rc=howling)
    t.send(0, "add", rc=unleashed)
    t.send(0, "done")
    t.send(0, "discard", card=spare1)
    t.send(0, "discard", card=spare2)
    events = t.send(0, "target", who=ogre)
    assert next(e for e in events if e.type == "Damaged").data["amount"] == 10


def test_an_x_cost_needs_one_resource() -> None:
    """AtD L176: an X cost needs at least one of its resource: Siphoning without Mana is
    refused; with 2 Mana, X = 2 (3 damage, heal 2)."""
    t = Table(1, classes=["magician"])
    t.craft(ROW, {0: (0, 1)})
    (siphoning,) = t.hand(0, "siphoning")
    assert ("play", {"card": siphoning}) not in t.choices()
    magical1, magical2 = t.card(0, "magical"), t.card(0, "magical")
    t.state.chars[0].hp = 4
    ogre = t.monster("ogre", (4, 1), hp=30)
    t.state.monsters[ogre].defended = 99
    t.send(0, "play", card=siphoning)
    assert ("done", {}) not in t.choices()
    t.send(0, "add", rc=magical1)
    t.send(0, "add", rc=magical2)
    t.send(0, "done")
    events = t.send(0, "target", who=ogre)
    assert next(e for e in events if e.type == "Damaged").data["amount"] == 3
    assert t.state.chars[0].hp == 6


def test_discards_first_draws_last() -> None:
    """AtD L181-184: the condition's discard comes before the damage, a draw after it."""
    t = Table(1, classes=["champion"])
    t.craft(ROW, {0: (0, 1)})
    ogre = t.monster("ogre", (1, 1), hp=30)
    hack, spare, hearty, patient = t.hand(0, "hack", "block", "hearty", "patient")
    t.send(0, "play", card=hack)
    t.send(0, "add", rc=hearty)
    t.send(0, "add", rc=patient)
    t.send(0, "done")
    t.send(0, "discard", card=spare)
    events = t.send(0, "target", who=ogre)
    seen = types(events)
    assert seen.index("Damaged") < seen.index("CardsDrawn")
    assert t.events.index(next(e for e in t.events if e.type == "CardsDiscarded")) < t.events.index(events[0])


def test_unconscious_and_the_loss() -> None:
    """AtD L69, L265: at 0 HP the hand and cards in play are discarded (class, advancement,
    equipment kept); an unconscious character cannot be attacked; any healing wakes it;
    all unconscious is the loss."""
    t = Table(2, classes=["champion", "templar"])
    t.craft(ROW, {0: (0, 1), 1: (5, 1)})
    s = t.state
    axe = next(i for i in s.dungeon_deck if s.cards[i] == "battle_axe")
    s.chars[0].equipment = [axe]
    glamor = t.card(0, "glamor", "deck")
    s.chars[0].actions.remove(glamor)
    s.chars[0].in_play = [InPlay(glamor, 5, None)]
    knight = t.monster("aura_knight", (1, 1))
    s.chars[0].hp = 3
    hand = t.hand(0, "block", "hearty")
    events = t.run({"op": "hit", "source": knight, "target": "c0"})
    assert t.state.chars[0].hp == 0 and "KnockedOut" in types(events)
    ch = t.state.chars[0]
    assert ch.hand_a == [] and ch.hand_r == [] and ch.in_play == [] and ch.equipment == [axe]
    assert {*hand, glamor} <= set(ch.disc_a + ch.disc_r)
    assert best_target(t.state, knight) is None  # cannot be attacked (AtD L69)
    t.run({"op": "player_turn", "seat": 0})
    assert t.state.turn != 0  # no turn while unconscious
    t.state.chars[1].pos = (2, 1)
    cure, holy = t.hand(1, "cure", "holy")
    t.state.turn, t.state.decision = 1, type(t.state.decision)(seat=1)
    t.send(1, "play", card=cure)
    t.send(1, "add", rc=holy)
    t.send(1, "done")
    t.send(1, "target", who="c0")
    assert t.state.chars[0].hp == 3  # awake
    t.state.chars[1].hp = 1
    t.state.chars[0].hp = 1
    t.state.chars[0].pos = (0, 1)
    t.run({"op": "hit", "source": knight, "target": "c0"})
    t.state.monsters[knight].pos = (3, 1)
    t.run({"op": "hit", "source": knight, "target": "c1"})
    assert t.state.result is not None and t.state.result["result"] == "loss"


def test_fatigue() -> None:
    """AtD L70-71: an empty deck when a draw is needed fatigues (hand discarded); only the
    speed move and equipment; at the next draw the discards are shuffled back."""
    t = Table(1, classes=["champion"])
    t.craft(ROW, {0: (0, 1)})
    t.monster("ogre", (11, 1))
    ch = t.state.chars[0]
    ch.disc_a += ch.actions
    ch.actions = []
    t.hand(0, "block")
    ch.hand_r = []
    events = t.run({"op": "player_turn", "seat": 0})
    assert "Fatigued" in types(events) and t.state.chars[0].fatigued
    assert t.state.chars[0].hand_a == [] and t.state.chars[0].hand_r == []
    kinds = {c[0] for c in t.choices()}
    assert "play" not in kinds and "speed" in kinds
    t.send(0, "speed", to=[2, 1])
    events = t.send(0, "end_turn", discard=False)
    assert "FatigueEnded" in types(events) and not t.state.chars[0].fatigued
    assert len(t.state.chars[0].hand_a) == 3 and len(t.state.chars[0].hand_r) == 3


def test_clearing_the_room() -> None:
    """AtD L276-279: revive at half max HP rounded up; rest regains half the lost HP
    rounded up and draws an extra AC and RC; an unconscious player is not asked."""
    t = Table(3, classes=["champion", "templar", "magician"])
    t.craft(ROW, {0: (0, 1), 1: (1, 1), 2: (2, 1)})
    s = t.state
    s.chars[2].hp, s.chars[2].max_hp = 0, 9
    s.chars[1].hp = s.chars[1].max_hp - 7
    s.in_encounter = False
    t.run({"op": "clear_room"})
    assert t.state.decision.asked == [0, 1]
    assert not [c for c in t.choices(2)]
    t.send(0, "revive", seat=0, discard=False, target=2)
    assert t.state.chars[2].hp == 5
    assert 2 in t.state.decision.asked
    before = len(t.state.chars[1].hand_a), len(t.state.chars[1].hand_r)
    t.send(1, "rest", seat=1, discard=False, reshuffle=False)
    hp = t.state.chars[1].hp
    t.send(2, "rest", seat=2, discard=False, reshuffle=False)
    ch = t.state.chars[1]
    assert ch.hp == ch.max_hp - 7 + 4
    assert (len(ch.hand_a), len(ch.hand_r)) == (max(3, before[0]) + 1, max(3, before[1]) + 1)
    del hp


@pytest.mark.parametrize(
    ("cls", "edit", "code"),
    [
        ("templar", {"holy": 7, "pious": 5}, "core_cards"),
        ("champion", {"brutish": 4, "gladiatorial": 0}, "too_many_copies"),
        ("champion", {"brutish": 1}, "resource_deck_size"),
        ("assassin", {"prepared": 2, "quick": 0}, "card_not_for_class"),
    ],
)
def test_deck_validation_refuses_with_the_rule(cls: str, edit: dict[str, int], code: str) -> None:
    """AtD L306-327: 27 + 27, exactly 12 core (6 + 6 Templar), at most 3 of a card, legal."""
    res, act = sample_deck(C, cls)
    for card, n in edit.items():
        res[card] = n
    res = {k: v for k, v in res.items() if v}
    with pytest.raises(RuleError) as err:
        validate_deck(C, cls, res, act)
    assert err.value.code == code and "AtD L" in err.value.message


def test_deck_validation_accepts_and_bans() -> None:
    res, act = sample_deck(C, "templar")
    validate_deck(C, "templar", res, act)  # 6 Holy + 6 Pious (AtD L320)
    res, act = sample_deck(C, "samurai")
    assert res["prepared"] == 2
    validate_deck(C, "samurai", res, act)  # Prepared is PCTS (AtD L308)
    res, act = sample_deck(C, "inquisitor")
    act = dict(act)
    act["cloak"] -= 1
    act["quell"] = 1
    validate_deck(C, "inquisitor", res, act)
    with pytest.raises(RuleError) as err:
        validate_deck(C, "inquisitor", res, act, arena=True)
    assert err.value.code == "banned_in_arena" and "Quell" in err.value.message  # AtD L297


def test_monster_defences() -> None:
    """AtD L216-217: defences per round (INF: every attack), melee covers reach; Aura Knight
    (INF, save 1) takes 3 + 3 from two Hack!s; a Kobold (1 defence, save 2) takes 2 then 4."""
    t = Table(1, classes=["champion"])
    t.craft(ROW, {0: (0, 1)})
    knight = t.monster("aura_knight", (1, 1))
    kobold = t.monster("kobold_crossbows", (1, 0))
    assert monster_save(t.state, knight, "melee") == (1, True)
    t.state.monsters[knight].defended = 5
    assert monster_save(t.state, knight, "reach") == (1, True)  # INF: every attack
    assert monster_save(t.state, kobold, "reach") == (2, True)  # melee covers reach
    t.state.monsters[kobold].defended = 1
    assert monster_save(t.state, kobold, "melee") == (0, False)  # its one defence is spent
    t.run({"op": "round"})
    assert t.state.monsters[kobold].defended == 0  # a new round


def test_forbidden_plays_are_listed_with_their_rule() -> None:
    """The prompt lists what may not be done now and why; sending it is refused with that
    rule (AtD L82, L151)."""
    from app.games.attack_the_darkness import ATTACK_THE_DARKNESS

    t = Table(1, classes=["champion"])
    t.craft(ROW, {0: (0, 1)})
    t.monster("ogre", (11, 1))
    (block,) = t.hand(0, "block")
    prompt = next(p for p in ATTACK_THE_DARKNESS.prompts(t.state) if p.seat == 0)
    assert any(u.label == "Play Block" and u.rule == "AtD L151" for u in prompt.unavailable)
    with pytest.raises(RuleError) as err:
        t.send(0, "play", card=block)
    assert "AtD L151" in err.value.message
    t.send(0, "speed", to=[1, 1])
    with pytest.raises(RuleError) as err:
        t.send(0, "speed", to=[2, 1])
    assert "AtD L82" in err.value.message
