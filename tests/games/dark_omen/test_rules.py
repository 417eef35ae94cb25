"""Rules enforced through the engine, with rigged dice where chance plays (facts §23)."""

from __future__ import annotations

import pytest

from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.board import load_board, neighbours, pos_to_tab, tab_to_pos
from app.games.dark_omen.content import load
from app.games.dark_omen.rules import stats
from app.games.dark_omen.state import Omen, Question
from app.kernel import table as kernel
from app.kernel.types import RuleError, Viewer
from tests.games.dark_omen.harness import arranged, choices, enemy, of, play, table
from tests.games.dark_omen.positions import reroll

C = load()


def token_of(face: str, skip: tuple[str, ...] = ()) -> str:
    return next(t for t, f in sorted(C.loot.items()) if f == face and t not in skip)


def holding(s: object, seat: int, *faces: str) -> list[str]:
    tokens: list[str] = []
    for f in faces:
        tokens.append(token_of(f, tuple(tokens)))
    hero = s.heroes[seat]  # type: ignore[attr-defined]
    hero.inventory = list(tokens)
    for t in tokens:
        if t in s.pile:  # type: ignore[attr-defined]
            s.pile.remove(t)  # type: ignore[attr-defined]
    return tokens


# -- movement and the labyrinth (DO L164-171, L240, L312) ---------------------------------------------


def test_a_step_costs_1_ap_and_crossing_a_black_line_4_mp() -> None:
    side = load_board().overworld
    layers = {"white": 0, "clear": 0}
    here, wall = next((a, b) for a in range(1, 112) for b in neighbours(a) if side.edge(a, b).kind == "wall")
    s = arranged(table(), at=here)
    s, _ = play(s, 0, "move", to=wall)
    assert (s.heroes[0].at, s.heroes[0].ap, s.heroes[0].mp) == (wall, 1, 11)
    s = arranged(table(), at=here, mp=3)
    with pytest.raises(RuleError):
        play(s, 0, "move", to=wall)
    open_to = next((b for b in neighbours(here) if not side.blocked(side.edge(here, b), layers)), None)
    if open_to is not None:
        s = arranged(table(), at=here)
        s, _ = play(s, 0, "move", to=open_to)
        assert (s.heroes[0].ap, s.heroes[0].mp) == (1, 15)


def test_the_runehenge_turns_each_layer_the_way_the_player_chooses() -> None:
    """DO L312-313: on 47, a gold offered, rolls 4 and 3, white counter-clockwise and clear
    clockwise: tabs 18 → 14 and 17 → 20; 1 AP and 1 gold."""
    s = arranged(table(), at=47, gold=1)
    s.locations[47].open = True
    s.layers = {"white": tab_to_pos(18), "clear": tab_to_pos(17)}
    s, _ = play(s, 0, "runehenge", [4, 3], offering="gold")
    assert s.heroes[0].pending == Question("runehenge", rolls=[4, 3])
    s, events = play(s, 0, "turn", white="ccw", clear="cw")
    assert {k: pos_to_tab(v) for k, v in s.layers.items()} == {"white": 14, "clear": 20}
    assert (s.heroes[0].ap, s.heroes[0].gold) == (1, 0)


def test_no_runehenge_without_an_offering_or_away_from_one() -> None:
    s = arranged(table(), at=47, gold=0)
    s.locations[47].open = True
    with pytest.raises(RuleError):
        play(s, 0, "runehenge", [4, 3], offering="gold")
    s = arranged(table(), at=46, gold=1)
    with pytest.raises(RuleError):
        play(s, 0, "runehenge", [4, 3], offering="gold")


def test_a_location_token_is_unlocked_with_1_ap_and_2_blood() -> None:
    """DO L302."""
    s = arranged(table(), at=47, gold=1)
    assert not s.locations[47].open
    assert not any(t == "runehenge" for t, _ in choices(s, 0))
    s.heroes[0].blood = 2
    s, _ = play(s, 0, "unlock")
    assert s.locations[47].open and s.heroes[0].blood == 0 and s.heroes[0].ap == 1


def test_towns_are_entered_by_the_gate_and_their_moves_cost_ap() -> None:
    """DO L297-298: the gate, then the market, the tavern and the healer."""
    s = arranged(table(), at=39, gold=5)
    s, _ = play(s, 0, "move", to="Hoglichten:gate")
    s, _ = play(s, 0, "move", to="Hoglichten:market")
    assert s.heroes[0].ap == 2
    assert {a["to"] for t, a in choices(s, 0) if t == "move"} == {
        "Hoglichten:gate",
        "Hoglichten:tavern",
        "Hoglichten:healer",
    }
    buys = [a["gear"] for t, a in choices(s, 0) if t == "buy"]
    assert buys and all(C.gear[g]["level"] <= 1 and C.gear[g]["price"] <= 5 for g in buys)
    s, _ = play(s, 0, "buy", gear=buys[0])
    assert buys[0] in s.heroes[0].gear and s.heroes[0].ap == 2  # trading costs no AP (DO L231)


# -- loot, potions (DO L243-284) ----------------------------------------------------------------------


def test_looting_flips_the_token_for_1_ap() -> None:
    s = arranged(table(), at=10)
    token = token_of("coin")
    s.pile.remove(token)
    s.loot[10] = token
    s, events = play(s, 0, "loot")
    assert of(events, "LootRevealed")[0]["face"] == "coin"
    assert s.heroes[0].inventory == [token] and s.heroes[0].ap == 1 and 10 not in s.loot


def test_a_revealed_creature_claims_the_next_ap() -> None:
    """DO L244: a surprise attack: the next AP must attack it."""
    s = arranged(table(), at=10)
    token = token_of("creature")
    s.pile.remove(token)
    s.loot[10] = token
    s, _ = play(s, 0, "loot")
    assert s.heroes[0].must_attack is not None
    assert {t for t, _ in choices(s, 0)} == {"attack"}


def test_fast_crafting_with_blood_of_the_beast() -> None:
    """Purple herb + mushroom + blood of the beast: 4 HP (DO L264-266)."""
    s = arranged(table(), hp=10, mp=10)
    holding(s, 0, "herb_purple", "mushroom")
    s.heroes[0].blood = 1
    s, _ = play(s, 0, "craft", recipe="fast_hp")
    assert (s.heroes[0].hp, s.heroes[0].blood, s.heroes[0].inventory) == (14, 0, [])


def test_the_magic_mushroom_adds_2() -> None:
    """Blue + Blue + magic mushroom: Morale +7 (DO L269)."""
    s = arranged(table(), hp=10, mp=10)
    holding(s, 0, "herb_blue", "herb_blue", "red_mushroom")
    s, _ = play(s, 0, "craft", recipe="morale", magic=True)
    assert s.heroes[0].mp == 17


def test_health_stops_at_the_track_maximum() -> None:
    s = arranged(table(), hp=27)
    holding(s, 0, "herb_purple", "herb_purple")
    s, _ = play(s, 0, "craft", recipe="health")
    assert s.heroes[0].hp == 30


def test_two_mushrooms_make_no_advanced_potion() -> None:
    s = arranged(table())
    holding(s, 0, "mushroom", "mushroom")
    recipes = {a["recipe"] for t, a in choices(s, 0) if t == "craft"}
    assert recipes == {"fast_mp"}
    with pytest.raises(RuleError):
        play(s, 0, "craft", recipe="boldness")


def test_courage_makes_a_5_a_7_that_beats_a_6() -> None:
    """DO L268: in the boost window."""
    s = arranged(table(), at=10)
    enemy(s)
    holding(s, 0, "herb_blue", "herb_yellow")
    s, _ = play(s, 0, "attack", [5, 6], creature="e1")
    s, _ = play(s, 0, "courage", index=0)
    assert s.heroes[0].pending.dice["0"] == [7]
    s, events = play(s, 0, "finalize", [4])
    assert [x["by"] for x in of(events, "BattleEnded")[0]["strikes"]] == ["hero"]


def test_meditation_needs_an_active_omen() -> None:
    """DO L288-289."""
    s = arranged(table())
    assert s.omen is not None and s.omen.status == "active"
    s, _ = play(s, 0, "meditate")
    assert s.heroes[0].mp == 16
    s.omen.status = "success"
    with pytest.raises(RuleError):
        play(s, 0, "meditate")


# -- death and the zombie (DO L199-202) ---------------------------------------------------------------


def test_a_fallen_hero_rises_as_a_zombie_guarding_the_belongings() -> None:
    s = arranged(table(seats=2), at=10, hp=2, gold=3)
    enemy(s, dr="5")
    s, _ = play(s, 0, "attack", [1, 6], creature="e1")
    s, events = play(s, 0, "finalize", [5])
    (died,) = of(events, "HeroDied")
    assert died["seat"] == 0 and not s.heroes[0].alive
    zombie = next(c for c in s.creatures if c.kind == "zombie")
    assert (zombie.hp, zombie.armor, zombie.space) == (8, 0, 10)
    assert s.graves["10"].gold == 3
    assert s.heroes[0].character in s.fallen
    assert not choices(s, 0)  # the new character comes at the start of the next round
    s, _ = play(s, 1, "end_round")
    picks = [a for t, a in choices(s, 0) if t == "new_character"]
    assert picks and all(a["character"] != "visko" for a in picks)
    before = s
    s, events = play(s, 0, "new_character", character="ragna", town="Ravensden")
    assert s.heroes[0].alive and s.heroes[0].at == 57 and of(events, "RunesCast")  # runes cast anew
    joined = DARK_OMEN.evolve(before, next(e for e in events if e.type == "HeroJoined"))
    assert (joined.heroes[0].hp, joined.heroes[0].mp, joined.heroes[0].gear) == (15, 15, [])


# -- simultaneous action points (facts §21) -----------------------------------------------------------


def test_a_race_for_the_same_loot_is_won_by_the_first_commit() -> None:
    """Facts §21: the first commit wins and the loser spends nothing. The game refuses the
    loser's command as no longer a choice (422); the platform tells a sender who chose it
    from an older view that it lost a race (409 ``taken``, tests/api/test_strict_commands)."""
    s = arranged(table(seats=2), at=10)
    token = token_of("coin")
    s.pile.remove(token)
    s.loot[10] = token
    assert ("loot", {}) in choices(s, 1)
    after, _ = play(s, 0, "loot")
    with pytest.raises(RuleError) as refused:
        play(after, 1, "loot")
    assert refused.value.status == 422 and refused.value.code == "not_offered"
    assert ("loot", {}) not in choices(after, 1) and after.heroes[1].ap == 0


def test_a_creature_in_a_fight_is_reserved() -> None:
    s = arranged(table(seats=2), at=10)
    enemy(s)
    s, _ = play(s, 0, "attack", [3, 5], creature="e1")
    with pytest.raises(RuleError) as refused:
        play(s, 1, "attack", [3, 5], creature="e1")
    assert refused.value.status == 422
    assert ("attack", {"creature": "e1"}) not in choices(s, 1)


def test_the_round_ends_when_every_seat_is_done() -> None:
    """DO L211: 6 AP spent or passed; then the next round, every AP back."""
    s = arranged(table(seats=2), at=10)
    round_ = s.round
    s, _ = play(s, 0, "end_round")
    with pytest.raises(RuleError) as refused:
        play(s, 0, "meditate")
    assert refused.value.status == 422 and refused.value.code == "round_done"
    s, _ = play(s, 1, "meditate")
    assert s.round == round_
    s, events = play(s, 1, "end_round")
    assert s.round == round_ + 1 and [h.ap for h in s.heroes] == [0, 0]
    assert of(events, "RoundBegan")


def test_draugr_dice_keeps_any_dice_one_of_two_equal_dice_rerolled_alone() -> None:
    """DO L345: "set aside any amount that you'd like to keep. Roll the un-kept dice
    again". Dice are picked one at a time (each pick recorded in the state, so a reload
    keeps it), put back if wanted, then rerolled; one of two 6s may be rerolled alone."""
    s = arranged(table(), at="Hoglichten:tavern", gold=2)
    s, _ = play(s, 0, "gamble", [1, 1, 2, 6, 6], game="draugr")
    labels = [c.label for c in DARK_OMEN.prompts(s)[0].choices if c.type == "stand"]
    assert labels == ["Stop with 1, 1, 2, 6 and 6"]
    assert [a for t, a in choices(s, 0) if t == "reroll"] == []  # nothing picked yet
    s, events = play(s, 0, "pick_die", index=3, pick=True)
    assert of(events, "RerollPicked") == [{"seat": 0, "index": 3, "picked": True}]
    s, _ = play(s, 0, "pick_die", index=0, pick=True)
    s, _ = play(s, 0, "pick_die", index=0, pick=False)  # changed my mind: keep the 1
    assert s.heroes[0].pending.picked == [3]
    assert s.heroes[0].pending.to_json()["picked"] == [3]  # what the view (and a reload) shows
    assert ("pick_die", {"index": 3, "pick": False}) in choices(s, 0)
    s, events = play(s, 0, "reroll", [3])
    assert s.heroes[0].pending.dice == [1, 1, 2, 3, 6] and not s.heroes[0].pending.picked
    assert of(events, "PendingRoll")[0]["rolls_left"] == 1


def test_gambling_costs_1_ap_1_mp_and_1_gold() -> None:
    """DO L342: Draugr Dice against the house, keeps and rerolls."""
    s = arranged(table(), at="Hoglichten:tavern", gold=2)
    s, _ = play(s, 0, "gamble", [1, 1, 2, 6, 6], game="draugr")
    assert (s.heroes[0].ap, s.heroes[0].mp, s.heroes[0].gold) == (1, 14, 1)
    s, _ = reroll(s, 0, [1, 3], [6])
    assert s.heroes[0].pending.dice == [1, 1, 2, 1, 3]
    s, events = play(s, 0, "stand", [6, 6, 5, 4])
    assert of(events, "GambleEnded")[0]["winners"] == [0]
    assert s.heroes[0].gold == 4 and s.heroes[0].pending is None


def test_the_game_master_restarts_the_chapter_after_a_wipe() -> None:
    """DO L114: the chapter's start is the save point; the restart is a recorded command."""
    from app.kernel.rng import rng_for
    from app.kernel.types import GAME_MASTER, GM_SEAT, Command

    start = table(seats=2)
    s = arranged(start, at=10, hp=2)
    s.save_point = start.save_point
    enemy(s, dr="5")
    with pytest.raises(RuleError):
        kernel.decide(DARK_OMEN, s, Command(GM_SEAT, "restart_chapter", {}), GAME_MASTER, rng_for("r", 1))
    s, _ = play(s, 0, "attack", [1, 6], creature="e1")
    s, _ = play(s, 0, "finalize", [5])
    assert not s.heroes[0].alive
    offered = [p for p in DARK_OMEN.prompts(s) if p.seat == GM_SEAT]
    assert offered and not offered[0].required
    with pytest.raises(RuleError):
        kernel.decide(
            DARK_OMEN, s, Command(1, "restart_chapter", {}), Viewer("seat", frozenset({1})), rng_for("r", 1)
        )
    events = kernel.decide(
        DARK_OMEN, s, Command(GM_SEAT, "restart_chapter", {}), GAME_MASTER, rng_for("r", 2)
    )
    assert [e.type for e in events][:2] == ["ChapterRestarted", "ChapterBegan"]
    after = kernel.fold_all(DARK_OMEN, s, events)
    assert after.heroes[0].alive and after.fallen == [] and after.heroes[0].character == "visko"
    assert after.day == 1 and after.round == 1


# -- runes, the meter, omens (DO L38-42, L133-162) ---------------------------------------------------


def test_contradicting_runes_are_settled_by_the_number_of_players() -> None:
    """DO L158-162: Tryors Wrath (+1 damage per level) against Ningus Sorrow (−1): with 1–2
    players the negative card is ignored, with 3–4 the beneficial one; Attunement ignores
    Ningus Sorrow (Visko)."""
    two = arranged(table(seats=2, chapter=2, character=["ragna", "hakon"]))
    two.heroes[0].runes = ["sun_thurisaz", "moon_thurisaz"]
    assert stats.rune_bonus(two, C, 0, "damage") == 2  # Tryors Wrath at level 2
    four = arranged(table(seats=3, chapter=2, character=["ragna", "hakon", "ylva"]))
    four.heroes[0].runes = ["sun_thurisaz", "moon_thurisaz"]
    assert stats.rune_bonus(four, C, 0, "damage") == -1
    visko = arranged(table(seats=3, chapter=2, character=["visko", "hakon", "ylva"]))
    visko.heroes[0].runes = ["sun_thurisaz", "moon_thurisaz"]
    assert stats.rune_bonus(visko, C, 0, "damage") == 2


def test_valor_adds_1_damage_and_resistance_halves_the_kill_morale() -> None:
    """DO L40-41."""
    s = arranged(table(character=["ragna"]))
    s.meter = 4
    assert stats.damage_bonus(s, C, 0) == 0 and stats.kill_mp(s, C, 0) == 2
    s.meter = 2
    assert stats.damage_bonus(s, C, 0) == 1
    s.meter = 6
    assert stats.kill_mp(s, C, 0) == 1


def test_an_omen_pays_at_once_and_moves_the_meter_toward_light() -> None:
    """DO L138: success pays immediately and the day goes on."""
    s = arranged(table(seats=2), at=79)
    s.omen = Omen("demonic_weather")  # reach 80
    meter = s.meter
    s, events = play(s, 0, "move", to=80)
    assert of(events, "OmenEnded") == [{"omen": "demonic_weather", "status": "success"}]
    assert s.meter == meter + 1 and s.omen.status == "success"
    assert s.heroes[0].ap == 1 and s.round == 1


def test_an_unfinished_omen_fails_at_day_end() -> None:
    s = arranged(table())
    s.round = 4
    meter = s.meter
    s, events = play(s, 0, "end_round")
    assert of(events, "OmenEnded")[0]["status"] == "failure"
    assert s.meter == meter - 1 and s.day == 2


def test_heroes_on_one_space_exchange_freely() -> None:
    """DO L260."""
    s = arranged(table(seats=2), gold=2)
    (coin,) = holding(s, 0, "coin")
    s, _ = play(s, 0, "give", token=coin, to=1)
    s, _ = play(s, 0, "give_gold", to=1)
    assert s.heroes[1].inventory == [coin] and (s.heroes[0].gold, s.heroes[1].gold) == (1, 3)
    assert s.heroes[0].ap == 0


def gamblers(gold: int = 2) -> object:
    s = arranged(table(seats=2), at="Hoglichten:tavern", gold=gold)
    return s


def test_two_players_play_draugr_dice_against_the_house() -> None:
    """DO L344-348 (facts §23, 12): A 3,3,1,2,6 = 9; B 1,1,4,4,2 = 12; the house 3,3,3,1 = 1
    wins and the ante of 4 goes to the supply."""
    s = gamblers()
    s, _ = play(s, 0, "gamble", game="draugr")
    assert ("join_gamble", {"host": 0}) in choices(s, 1)
    s, _ = play(s, 1, "join_gamble", host=0)
    s, events = play(s, 0, "start_gamble", [3, 3, 1, 2, 6])
    assert of(events, "GambleStarted")[0]["ante"] == 4
    s, _ = play(s, 0, "stand", [1, 1, 4, 4, 2])
    s, events = play(s, 1, "stand", [3, 3, 3, 1])
    assert of(events, "GambleEnded")[0]["winners"] == []
    assert [(h.gold, h.mp, h.ap) for h in s.heroes] == [(1, 14, 1), (1, 14, 1)]


def test_hard_life_an_18_on_three_dice_and_a_bust() -> None:
    """DO L350-358: the house 6,5; A 6,6,6 (+2, half the ante) stands; B 5,5,4 then a 6
    busts; the house draws a 6 for 17 and stops; A takes the ante of 4."""
    s = gamblers()
    s, _ = play(s, 0, "gamble", game="hard_life")
    s, _ = play(s, 1, "join_gamble", host=0)
    s, _ = play(s, 0, "start_gamble", [6, 5, 6, 6, 6])
    assert s.heroes[0].gold == 1 + 2
    s, _ = play(s, 0, "stand", [5, 5, 4])
    s, events = play(s, 1, "draw_die", [6, 6])
    ended = of(events, "GambleEnded")[0]
    assert ended["house"] == [6, 5, 6] and ended["winners"] == [0]
    assert (s.heroes[0].gold, s.heroes[1].gold) == (7, 1)


def test_a_quick_start_gives_a_weapon_of_the_chapter_and_places_heroes_by_a_runehenge() -> None:
    """DO L547-554: a primary weapon (half the party one level lower for a random omen),
    and the heroes on the spaces around a runehenge."""
    s = table(seats=2, chapter=2, mode="quick_omen")
    levels = [C.gear[h.equipped["primary"]]["level"] for h in s.heroes]
    assert levels == [2, 1]
    rings = ({10, 46, 48, 84}, {28, 64, 66, 102})
    assert any({h.at for h in s.heroes} <= ring for ring in rings)
    assert all(len(h.runes) <= 4 for h in s.heroes)


def test_a_face_down_creature_token_hides_its_level_until_engaged() -> None:
    """DO L475-476: flip the token to reveal the level, then draw a card of that level."""
    from app.kernel.types import GAME_MASTER, SPECTATOR

    s = arranged(table(chapter=2))
    foe = enemy(s, level=1, cid="c9")
    foe.card, foe.name, foe.hp, foe.token = None, None, None, "ct03.c9"
    seen = DARK_OMEN.view(s, SPECTATOR)["creatures"][0]
    assert seen["face_down"] and seen["level"] is None and "token" not in seen
    assert DARK_OMEN.view(s, GAME_MASTER)["creatures"][0]["level"] == 1
    assert "ct03.c9" in {x.value for x in DARK_OMEN.secrets(s)}
    assert all("level" not in label for label in (c.label for p in DARK_OMEN.prompts(s) for c in p.choices))
    s, events = play(s, 0, "attack", [5, 1, 3], creature="c9")
    assert of(events, "CreatureTokenFlipped") == [{"creature": "c9", "token": "ct03.c9", "level": 1}]
    assert C.creatures[s.creatures[0].card]["level"] == 1 and not DARK_OMEN.secrets(s)


def test_free_actions_stay_open_after_a_seat_is_done_with_the_round() -> None:
    """Facts §21: 0-AP actions (potions, crafting, trading, exchanges…) stay open to every
    living seat until the round ends; they are optional, the table does not wait on them."""
    s = arranged(table(seats=2), hp=10)
    (egg,) = holding(s, 0, "quail_eggs")
    s.heroes[0].inventory, s.heroes[0].potions = [], [egg]
    s, _ = play(s, 0, "end_round")
    offered = [p for p in DARK_OMEN.prompts(s) if p.seat == 0]
    assert offered and not offered[0].required
    assert ("drink", {"token": egg}) in [(c.type, c.args) for c in offered[0].choices]
    s, _ = play(s, 0, "drink", token=egg)
    assert s.heroes[0].hp == 11 and s.heroes[0].done
    with pytest.raises(RuleError) as refused:
        play(s, 0, "meditate")
    assert refused.value.code == "round_done"
