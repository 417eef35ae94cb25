"""Days, omens, the darkness meter, bosses and the campaign (DO L36-42, L96-102, L110-143,
L172-181, L189, L479-493; facts §3, §16, §17, §20), played through offered commands: the
seats end their rounds, fight with rigged dice and walk where the omen asks."""

from __future__ import annotations

import pytest

from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.state import State
from tests.games.dark_omen.harness import arranged, choices, of, play, table
from tests.games.dark_omen.positions import creature, rounds_ended, seen, types


def armed(s: State) -> None:
    """Every hero holds a Bone Sword (d4+2) and no rune, so damage is the dice's alone."""
    for h in s.heroes:
        h.gear, h.equipped, h.runes = ["g1_w2"], {"primary": "g1_w2"}, []


def slay(s: State, cid: str, seat: int = 0) -> tuple[State, list]:  # type: ignore[type-arg]
    """``seat`` walks to the creature and strikes it (a rigged 6 against 1, a 4 for damage)
    until it falls; the AP are given back between blows."""
    events: list = []  # type: ignore[type-arg]
    for _ in range(10):
        seen_now = creature(s, cid)
        if seen_now is None:
            return s, events
        s.heroes[seat].at, s.heroes[seat].ap = seen_now["space"], 0
        s, _ = play(s, seat, "attack", [6, 1], creature=cid)
        s, ended = play(s, seat, "finalize", [4])
        events += ended
    raise AssertionError(f"{cid} did not fall")


def boss_of(s: State) -> dict:  # type: ignore[type-arg]
    return next(c for c in seen(s)["creatures"] if c["kind"] == "boss")


# -- the shape of a chapter (DO L96, L102, L110-131) -------------------------------------------------


@pytest.mark.parametrize(
    ("difficulty", "days"),
    [
        ("light", [1, 2, 4]),
        ("rough", [1, 2, 3]),
        ("stressful", [1, 2, 3, 5]),
        ("pain", [1, 2, 3, 4, 5]),
        ("first_game", [1, 2, 3]),
    ],
)
def test_the_difficulty_chooses_the_omen_days(difficulty: str, days: list[int]) -> None:
    """DO L127-130: Light 1, 2, 4; Rough 1, 2, 3; Stressful 1, 2, 3, 5; Pain all 5 days;
    DO L96: a first game on days 1, 2 and 3."""
    assert seen(table(difficulty=difficulty))["omen_days"] == days


def test_a_campaign_opens_at_hoglichten_with_the_meter_in_the_middle() -> None:
    """DO L87: every figure on the entrance to Hoglichten (39); DO L102: the meter's cube in
    the middle (facts §17: 4 of 0-8); DO L97: day 1, first round."""
    s = table(seats=3, mode="campaign")
    view = seen(s)
    assert {h["at"] for h in view["heroes"]} == {39}
    assert (view["meter"], view["meter_scale"]["max"], view["meter_state"]) == (4, 8, "neutral")
    assert (view["chapter"], view["day"], view["round"]) == (1, 1, 1)


def test_the_sixth_day_brings_the_boss_and_a_rune_throw() -> None:
    """DO L125: "the boss fight Omen waiting for you on the sixth day"; DO L150: runes are
    cast on day 6; DO L116: a chapter is 6 days of 4 rounds."""
    s = arranged(table())
    s, events = rounds_ended(s, 20)
    assert (s.day, s.round) == (6, 1)
    assert [d["day"] for d in of(events, "DayBegan")] == [2, 3, 4, 5, 6]
    last_day = max(i for i, kind in enumerate(types(events)) if kind == "DayBegan")
    day_6 = types(events)[last_day:]
    assert day_6.index("RunesCast") < day_6.index("OmenDrawn")
    assert of(events, "OmenDrawn")[-1]["mission"] == "boss"
    assert boss_of(s)["name"] == "Vahva the cave bear"  # the chapter-1 boss (DO L54, facts §22)


# -- omens: success, failure, who is paid (DO L133-141) ---------------------------------------------


def test_a_failed_omen_hurts_every_player_at_the_day_end() -> None:
    """DO L136: the failure penalties are read when the day runs out; DO L139: "'All
    Players' means each player individually receives" (A Call for Aid: −2 HP each)."""
    s = arranged(table(seats=2))
    s, events = rounds_ended(s, 3)
    assert "OmenEnded" not in types(events)
    s, events = rounds_ended(s, 1)
    assert of(events, "OmenEnded") == [{"omen": "a_call_for_aid", "status": "failure"}]
    assert [h.hp for h in s.heroes] == [13, 13]
    assert of(events, "MeterMoved")[0]["by"] == -1


def test_reaching_the_omens_space_pays_every_player() -> None:
    """DO L136, L139-140: Demonic Weather ("Reach space 80"): +3 MP to each player at once,
    the meter one step toward the light, and the day goes on."""
    s = table(seats=2)
    s, _ = rounds_ended(s, 4)
    assert seen(s)["omen"]["id"] == "demonic_weather"
    for h in s.heroes:
        h.mp = 10
    s.heroes[0].at, s.heroes[1].at = 79, 39
    meter = seen(s)["meter"]
    s, events = play(s, 0, "move", to=80)
    assert of(events, "OmenEnded") == [{"omen": "demonic_weather", "status": "success"}]
    assert [h.mp for h in s.heroes] == [13, 13] and seen(s)["meter"] == meter + 1
    assert s.round == 1 and s.heroes[1].ap == 0 and not s.heroes[1].done


def test_a_reward_for_the_group_is_shared_between_the_players() -> None:
    """DO L138: "'The Group' means rewards are collectively shared" (The Weeping Ford: +3
    gold for the group, split 2 and 1 between two players)."""
    s = table(seats=2)
    armed(s)
    assert seen(s)["omen"]["success"] == "+3 gold (the group)"
    gold = [h.gold for h in s.heroes]
    events: list = []  # type: ignore[type-arg]
    for c in [c["id"] for c in seen(s)["creatures"]]:
        s, slain = slay(s, c)
        events += slain
    assert of(events, "OmenEnded")[-1]["status"] == "success"
    assert [h.gold - g for h, g in zip(s.heroes, gold, strict=True)] == [2, 1]


# -- the darkness meter (DO L38-42) ------------------------------------------------------------------


def test_the_darkness_swallowing_edaia_loses_the_campaign() -> None:
    """DO L38: "If the meter ever moves totally into the black, Edaia succumbs to evil, and
    the players lose the game and the campaign"; DO L42 (four failed omens from 4)."""
    s = table(seats=2, mode="campaign")
    s, events = rounds_ended(s, 24)
    assert [m["to"] for m in of(events, "MeterMoved")] == [3, 2, 1, 0]
    assert of(events, "CampaignEnded")[0]["result"] == "loss"
    outcome = DARK_OMEN.outcome(s)
    assert outcome is not None and outcome.result == "loss" and "darkness" in outcome.reason


def test_a_quick_start_meter_never_reaches_the_black() -> None:
    """Facts §20 (decision): a Quick Start's meter cannot lose; the chapter is decided by
    its boss."""
    s = arranged(table())
    s, events = rounds_ended(s, 24)
    assert min(m["to"] for m in of(events, "MeterMoved")) == 1
    outcome = DARK_OMEN.outcome(s)
    assert outcome is not None and "final omen" in outcome.reason


# -- bosses (DO L479-493) ---------------------------------------------------------------------------


def on_boss_day(seats: int = 2) -> State:
    s = table(seats=seats, mode="campaign", difficulty="light")
    s, _ = rounds_ended(s, 20)
    assert s.day == 6
    armed(s)
    return s


def test_the_boss_acts_at_round_start_without_costing_anyone_ap() -> None:
    """DO L484: the ability phase happens "regardless of the regular attack"; DO L486: the
    boss moves in its pattern; DO L490: "The different boss phases do not effect the
    players AP reserve"."""
    s = on_boss_day()
    assert boss_of(s)["space"] == 47
    s.heroes[0].at, s.heroes[1].at = 48, 39  # Vahva roars at those next to him (reach 1)
    hp = [h.hp for h in s.heroes]
    s, events = rounds_ended(s, 1)
    roared = [d for d in of(events, "HeroStats") if "roar" in d["why"]]
    assert [d["seat"] for d in roared] == [0] and [h.hp for h in s.heroes] == [hp[0] - 1, hp[1]]
    assert of(events, "CreatureMoved") == [{"creature": boss_of(s)["id"], "to": 48, "why": "the boss moves"}]
    assert of(events, "RoundBegan")[0]["ap_limits"] == [6, 6]


def test_a_boss_stage_raises_its_armour_below_8_hp() -> None:
    """DO L487-488: bosses change "based on a criteria, usually their level of HP" (Vahva:
    below 8 HP its armour rises by 1)."""
    s = on_boss_day()
    boss = boss_of(s)
    assert (boss["hp"], boss["armor"]) == (10, 0)
    s.heroes[0].at = boss["space"]
    s, _ = play(s, 0, "attack", [6, 1], creature=boss["id"])
    s, events = play(s, 0, "finalize", [4])
    assert seen(s)["meter_state"] == "valor"  # three failed omens: every blow +1 (DO L418)
    assert of(events, "CreatureHurt")[0]["damage"] == 7
    assert (boss_of(s)["hp"], boss_of(s)["armor"]) == (3, 1)
    s.heroes[1].at = boss["space"]
    s, _ = play(s, 1, "attack", [6, 1], creature=boss["id"])
    s, events = play(s, 1, "finalize", [4])
    assert of(events, "CreatureHurt")[0]["damage"] == 6  # 4 + 2 + 1, less the new armour
    assert of(events, "OmenEnded") == [{"omen": "boss_vahva", "status": "success"}]


def test_a_won_chapter_carries_the_gear_into_the_next_and_each_player_joins_a_guild() -> None:
    """DO L181: "After the 6th day, your chapter is over, and the next one begins. Take all
    your gear with you"; DO L189: from chapter 2 each character enters one of the 6 guilds
    (facts §5: one member per guild)."""
    s = on_boss_day()
    s, _ = slay(s, boss_of(s)["id"])
    s, events = rounds_ended(s, 4)
    assert of(events, "ChapterEnded")[0]["result"] == "win" and DARK_OMEN.outcome(s) is None
    gear = [list(h.gear) for h in s.heroes]
    assert len(choices(s, 0)) == len(choices(s, 1)) == 6  # the six guilds
    s, _ = play(s, 0, "ready", guild="Druid")
    assert ("ready", {"guild": "Druid"}) not in choices(s, 1)
    s, events = play(s, 1, "ready", guild="Warrior")
    assert of(events, "ChapterBegan")[0]["chapter"] == 2
    assert [h.gear for h in s.heroes] == gear and [h.guild for h in s.heroes] == ["Druid", "Warrior"]
    assert (s.chapter, s.day, s.round) == (2, 1, 1)
