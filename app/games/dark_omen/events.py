"""How each Dark Omen event changes the state: every applier of the fold, registered with
the game's rules (``engine.RULES``).

Events are domain facts; each applier is how one changes the state. Random outcomes (dice,
draws) are decided in ``decide`` and carried in the events, so replay never rolls.
"""

from __future__ import annotations

import copy
from typing import Any

from app.games.dark_omen.content import base_token, load
from app.games.dark_omen.engine import RULES
from app.games.dark_omen.state import (
    AP_PER_ROUND,
    Battle,
    Belongings,
    Creature,
    GambleTable,
    Hero,
    Location,
    Omen,
    Prop,
    Question,
    Result,
    SavePoint,
    State,
    TeamAttack,
    enemy_name,
)

PLACES = frozenset(
    {
        "mole_dwarf_ruin",
        "well_of_fortune",
        "hidden_treasury",
        "dwarven_smithy",
        "ship_wreck",
        "permanent_camp",
        "ship_apothecary",
        "gear_hoard",
    }
)
"""The Underworld's places are printed on the map, open from the start (DO L505-532);
location tokens start face down (DO L301)."""


def hero(s: State, seat: int) -> Hero:
    return s.heroes[seat]


@RULES.applies("CampaignBegan")
def _began(s: State, d: dict[str, Any]) -> None:
    s.names = list(d["names"])
    s.options = dict(d["options"])
    s.first_chapter, s.last_chapter = d["first_chapter"], d["last_chapter"]
    s.heroes = [Hero(seat=i, character=c) for i, c in enumerate(d["characters"])]
    s.pile = sorted(load().loot)


@RULES.applies("ChapterBegan")
def _chapter(s: State, d: dict[str, Any]) -> None:
    s.chapter, s.day, s.round = d["chapter"], 0, 0
    s.omen_days = list(d["omen_days"])
    s.omen, s.omens_seen = None, []
    s.barrows, s.barrows_gone, s.campfires = [], 0, []
    s.locations = {int(k): Location(v, open=v in PLACES) for k, v in d["locations"].items()}
    s.creatures, s.props = [], []
    s.vortices = list(d.get("vortices", []))
    for h in s.heroes:
        h.runes = []
        h.used = []
        h.pending = h.pending if not h.alive else None  # the fallen still need a character
        h.must_attack = None
        h.effects = {k: v for k, v in h.effects.items() if k == "black"}
    s.save_point = copy.deepcopy(SavePoint(s.heroes, s.meter, s.fallen, s.pile, s.graves))


@RULES.applies("ChapterRestarted")
def _restarted(s: State, d: dict[str, Any]) -> None:
    """The game master restarts the chapter from its start after a wipe (DO L114)."""
    saved = copy.deepcopy(s.save_point)
    assert saved is not None
    s.heroes, s.meter, s.fallen = saved.heroes, saved.meter, saved.fallen
    s.pile, s.graves, s.loot, s.dropped = saved.pile, saved.graves, {}, {}
    s.creatures, s.omen, s.barrows, s.campfires, s.props = [], None, [], [], []


@RULES.applies("HeroPlaced")
def _placed(s: State, d: dict[str, Any]) -> None:
    hero(s, d["seat"]).at = d["at"]


@RULES.applies("DayBegan")
def _day(s: State, d: dict[str, Any]) -> None:
    s.day, s.round = d["day"], 0
    for h in s.heroes:
        h.used = [u for u in h.used if not u.startswith("day:")]


@RULES.applies("RoundBegan")
def _round(s: State, d: dict[str, Any]) -> None:
    s.round = d["round"]
    limits = d["ap_limits"]
    for h in s.heroes:
        h.ap, h.done, h.engaged = 0, not h.alive and h.pending is None, False
        h.ap_limit = limits[h.seat]
        h.used = [u for u in h.used if not u.startswith("round:")]
        h.effects.pop("ap_debt", None)
        if h.alive and h.ap_limit <= 0:
            h.done = True


@RULES.applies("RoundEnded")
def _round_ended(s: State, d: dict[str, Any]) -> None:
    s.campfires = []
    for h in s.heroes:
        for effect in ("free_steps", "levity", "campfire", "burnt_path"):
            h.effects.pop(effect, None)


@RULES.applies("DayEnded")
def _day_ended(s: State, d: dict[str, Any]) -> None:
    s.creatures = [c for c in s.creatures if not c.omen]
    s.omen, s.props = None, []  # the omen's setup leaves with its day (DO L141)


@RULES.applies("ChapterEnded")
def _chapter_ended(s: State, d: dict[str, Any]) -> None:
    s.results.append(d["result"])
    s.chapter, s.omen, s.creatures, s.barrows, s.campfires, s.props = None, None, [], [], [], []
    s.locations, s.vortices = {}, []
    for h in s.heroes:
        h.runes, h.must_attack = [], None
        h.pending = h.pending if not h.alive else None


@RULES.applies("CampaignEnded")
def _campaign_ended(s: State, d: dict[str, Any]) -> None:
    s.result = Result(d["result"], d["reason"])


@RULES.applies("ChapterReady")
def _ready(s: State, d: dict[str, Any]) -> None:
    if d.get("guild"):
        hero(s, d["seat"]).guild = d["guild"]


@RULES.applies("LootDealt")
def _loot_dealt(s: State, d: dict[str, Any]) -> None:
    """A face-down token from the pile onto a loot space (DO L82); the token is hidden."""
    for space, token in zip(d["spaces"], d["tokens"], strict=True):
        s.loot[space] = token
        s.pile.remove(base_token(token))
    s.deals += len(d["tokens"])


@RULES.applies("LootCleared")
def _loot_cleared(s: State, d: dict[str, Any]) -> None:
    """Dropped loot still lying is removed at the next omen (DO L245)."""
    for space in d["spaces"]:
        s.pile.extend(base_token(t) for t in s.dropped.pop(space, []))
    s.pile.sort()


@RULES.applies("LayersTurned")
def _layers(s: State, d: dict[str, Any]) -> None:
    s.layers = {"white": d["white"], "clear": d["clear"]}
    for h in s.heroes:
        if h.pending and h.pending.kind == "runehenge":
            h.pending = None


@RULES.applies("RunesCast")
def _runes(s: State, d: dict[str, Any]) -> None:
    hero(s, d["seat"]).runes = list(d["runes"])


@RULES.applies("RuneDiscarded")
def _rune_gone(s: State, d: dict[str, Any]) -> None:
    h = hero(s, d["seat"])
    if d["rune"] in h.runes:
        h.runes.remove(d["rune"])


@RULES.applies("OmenDrawn")
def _omen(s: State, d: dict[str, Any]) -> None:
    s.omen = Omen(d["omen"])
    s.omens_seen.append(d["omen"])


@RULES.applies("OmenEnded")
def _omen_ended(s: State, d: dict[str, Any]) -> None:
    if s.omen is not None:
        s.omen.status = d["status"]


@RULES.applies("BloodOffered")
def _blood_offered(s: State, d: dict[str, Any]) -> None:
    hero(s, d["seat"]).blood -= d["n"]
    if s.omen is not None:
        s.omen.blood += d["n"]


@RULES.applies("PropPlaced")
def _prop(s: State, d: dict[str, Any]) -> None:
    """A generic token standing for an omen's prop (DO L143)."""
    s.props.append(Prop(d["id"], d["kind"], d["name"], d["space"]))


@RULES.applies("PropTended")
def _tended(s: State, d: dict[str, Any]) -> None:
    """A fire doused or a grave laid to rest leaves the map; omen loot or a person to escort
    goes with the hero (DO L243)."""
    prop = next(p for p in s.props if p.id == d["prop"])
    if d["carry"]:
        prop.carried_by = d["seat"]
    else:
        s.props.remove(prop)


@RULES.applies("MeterMoved")
def _meter(s: State, d: dict[str, Any]) -> None:
    s.meter = d["to"]


@RULES.applies("StoryRead")
def _story(s: State, d: dict[str, Any]) -> None:
    s.story_read.append(d["story"])


@RULES.applies("CreaturePlaced")
def _creature(s: State, d: dict[str, Any]) -> None:
    s.creatures.append(Creature(**d))
    s.next_creature += 1


@RULES.applies("CreatureTokenFlipped")
def _flipped(s: State, d: dict[str, Any]) -> None:
    c = s.creature(d["creature"])
    assert c is not None
    c.flipped = True


@RULES.applies("CreatureRevealed")
def _revealed(s: State, d: dict[str, Any]) -> None:
    c = s.creature(d["creature"])
    assert c is not None
    c.card, c.name, c.hp, c.armor, c.dr = d["card"], d["name"], d["hp"], d["armor"], d["dr"]


@RULES.applies("CreatureHurt")
def _hurt(s: State, d: dict[str, Any]) -> None:
    c = s.creature(d["creature"])
    assert c is not None
    c.hp = d["hp"]
    if d.get("by") is not None and d["by"] not in c.involved:
        c.involved.append(d["by"])
    if d.get("armor") is not None:
        c.armor = d["armor"]
        c.staged = True


@RULES.applies("CreatureMoved")
def _creature_moved(s: State, d: dict[str, Any]) -> None:
    c = s.creature(d["creature"])
    assert c is not None
    c.space = d["to"]


@RULES.applies("CreatureSlain")
def _slain(s: State, d: dict[str, Any]) -> None:
    c = s.creature(d["creature"])
    assert c is not None
    s.slain_names[c.id] = enemy_name(c)
    s.creatures.remove(c)
    for h in s.heroes:
        if h.must_attack == d["creature"]:
            h.must_attack = None


@RULES.applies("HeroMoved")
def _moved(s: State, d: dict[str, Any]) -> None:
    h = hero(s, d["seat"])
    h.at = d["to"]
    h.ap += d["ap"]
    if d["ap"]:
        h.engaged = False  # DO L386: the last AP was a step, not an attack
    h.mp -= d["mp"]
    h.discount = 0
    for prop in s.props:
        if prop.carried_by == h.seat:
            prop.space = h.at
    for effect, n in d.get("used", {}).items():
        left = h.effects.get(effect, 0) - n
        if left > 0:
            h.effects[effect] = left
        else:
            h.effects.pop(effect, None)
    _check_done(h)


@RULES.applies("ApSpent")
def _ap(s: State, d: dict[str, Any]) -> None:
    h = hero(s, d["seat"])
    h.ap += d["n"]
    # DO L386: "your last AP was spent to attack an enemy" — the AP spent last decides
    h.engaged = bool(d.get("engaged"))
    _check_done(h)


@RULES.applies("ApChanged")
def _ap_limit(s: State, d: dict[str, Any]) -> None:
    """Bread (+1 AP this round, the only way past 6) and traps (−1 AP, DO L252)."""
    h = hero(s, d["seat"])
    h.ap_limit = d["limit"]
    if d.get("debt"):
        h.effects["ap_debt"] = h.effects.get("ap_debt", 0) + d["debt"]
    _check_done(h)


@RULES.applies("RoundPassed")
def _passed(s: State, d: dict[str, Any]) -> None:
    hero(s, d["seat"]).done = True


def _check_done(h: Hero) -> None:
    if h.ap >= h.ap_limit and h.pending is None and h.must_attack is None:
        h.done = True


@RULES.applies("HeroStats")
def _stats(s: State, d: dict[str, Any]) -> None:
    h = hero(s, d["seat"])
    for stat in ("hp", "mp", "gold", "max_hp", "blood"):
        if stat in d:
            setattr(h, stat, d[stat])


@RULES.applies("EffectSet")
def _effect(s: State, d: dict[str, Any]) -> None:
    h = hero(s, d["seat"])
    if d["n"]:
        h.effects[d["effect"]] = d["n"]
    else:
        h.effects.pop(d["effect"], None)


@RULES.applies("Used")
def _used(s: State, d: dict[str, Any]) -> None:
    hero(s, d["seat"]).used.append(d["key"])


@RULES.applies("LootRevealed")
def _loot_revealed(s: State, d: dict[str, Any]) -> None:
    s.loot.pop(d["space"], None)
    h = hero(s, d["seat"])
    match d["to"]:
        case "inventory":
            h.inventory.append(d["token"])
        case "potions":
            h.potions.append(d["token"])
        case "ground":
            s.dropped.setdefault(d["space"], []).append(d["token"])
        case "discard":
            s.pile.append(base_token(d["token"]))
            s.pile.sort()


@RULES.applies("LootTaken")
def _loot_taken(s: State, d: dict[str, Any]) -> None:
    lying = s.dropped.get(d["space"], [])
    lying.remove(d["token"])
    if not lying:
        s.dropped.pop(d["space"], None)
    h = hero(s, d["seat"])
    (h.potions if d["to"] == "potions" else h.inventory).append(d["token"])


@RULES.applies("LootGiven")
def _given(s: State, d: dict[str, Any]) -> None:
    giver, taker = hero(s, d["seat"]), hero(s, d["to"])
    from_potions = d["token"] in giver.potions
    (giver.potions if from_potions else giver.inventory).remove(d["token"])
    (taker.potions if from_potions else taker.inventory).append(d["token"])


@RULES.applies("LootDropped")
def _loot_dropped(s: State, d: dict[str, Any]) -> None:
    h = hero(s, d["seat"])
    (h.potions if d["token"] in h.potions else h.inventory).remove(d["token"])
    s.dropped.setdefault(d["space"], []).append(d["token"])


@RULES.applies("LootSpent")
def _loot_spent(s: State, d: dict[str, Any]) -> None:
    """Tokens discarded (crafted, offered, sold, used): back to the pile (facts §3)."""
    h = hero(s, d["seat"])
    for token in d["tokens"]:
        (h.potions if token in h.potions else h.inventory).remove(token)
        s.pile.append(base_token(token))
    s.pile.sort()


@RULES.applies("GearGained")
def _gear(s: State, d: dict[str, Any]) -> None:
    h = hero(s, d["seat"])
    h.gear.append(d["gear"])
    if d.get("charges") is not None:
        h.charges[d["gear"]] = d["charges"]
    if d.get("slot"):
        h.equipped[d["slot"]] = d["gear"]


@RULES.applies("GearLost")
def _gear_lost(s: State, d: dict[str, Any]) -> None:
    h = hero(s, d["seat"])
    if d["gear"] in h.gear:
        h.gear.remove(d["gear"])
    h.charges.pop(d["gear"], None)
    for slot, gid in list(h.equipped.items()):
        if gid == d["gear"]:
            del h.equipped[slot]


@RULES.applies("GearEquipped")
def _equipped(s: State, d: dict[str, Any]) -> None:
    h = hero(s, d["seat"])
    for slot, gid in list(h.equipped.items()):
        if gid == d["gear"]:
            del h.equipped[slot]
    h.equipped[d["slot"]] = d["gear"]


@RULES.applies("ChargesSet")
def _charges(s: State, d: dict[str, Any]) -> None:
    hero(s, d["seat"]).charges[d["gear"]] = d["n"]


@RULES.applies("DiscountSet")
def _discount(s: State, d: dict[str, Any]) -> None:
    hero(s, d["seat"]).discount = d["n"]


@RULES.applies("AttackRolled")
def _attack(s: State, d: dict[str, Any]) -> None:
    """The attack roll: the dice lie on the table for the boost window (DO L404-406); the
    attackers are involved in the battle (battle markers, DO L100)."""
    creature = s.creature(d["creature"])
    if creature is not None:
        creature.involved += [m for m in d["members"] if m not in creature.involved]
    for seat in d["members"]:
        h = hero(s, seat)
        h.pending = Battle(
            leader=d["members"][0],
            creature=d["creature"],
            enemy=list(d["enemy"]),
            dice={str(k): list(v) for k, v in d["dice"].items()},
            members=list(d["members"]),
            ranged=list(d["ranged"]),
            heroic=list(d["heroic"]),
        )
        h.done = False  # a battle's boost window stays open to every member (facts §21)
        if h.must_attack == d["creature"]:
            h.must_attack = None


@RULES.applies("DieBoosted")
def _boosted(s: State, d: dict[str, Any]) -> None:
    """2 MP for +1 (DO L406), or the Courage potion's 7 (DO L273); the dice are shared by
    every member of the battle."""
    leader = hero(s, d["seat"]).pending
    assert isinstance(leader, Battle)
    for seat in leader.members:
        p = hero(s, seat).pending
        if isinstance(p, Battle):
            p.dice[str(d["seat"])][d["index"]] = d["to"]
    h = hero(s, d["seat"])
    h.mp -= d["mp"]


@RULES.applies("ShieldRaised")
def _shield(s: State, d: dict[str, Any]) -> None:
    """A shield token made ready for the next blow in this battle (DO L339)."""
    for h in s.heroes:
        p = h.pending
        if isinstance(p, Battle) and d["seat"] in p.members:
            p.shields = [*p.shields, d["seat"]]


@RULES.applies("TieVoted")
def _tie_voted(s: State, d: dict[str, Any]) -> None:
    for h in s.heroes:
        p = h.pending
        if isinstance(p, Battle) and d["seat"] in p.members:
            p.tie_votes = {**p.tie_votes, str(d["seat"]): d["first"]}


@RULES.applies("BattleReady")
def _battle_ready(s: State, d: dict[str, Any]) -> None:
    for h in s.heroes:
        if isinstance(h.pending, Battle) and d["seat"] in h.pending.members:
            h.pending.ready.append(d["seat"])


@RULES.applies("BattleEnded")
def _battle_ended(s: State, d: dict[str, Any]) -> None:
    for seat in d["members"]:
        h = hero(s, seat)
        if isinstance(h.pending, Battle):
            h.pending = None
        _check_done(h)


@RULES.applies("TeamProposed")
def _team(s: State, d: dict[str, Any]) -> None:
    hero(s, d["seat"]).pending = TeamAttack(d["creature"], list(d["invited"]))


@RULES.applies("TeamAnswered")
def _team_answer(s: State, d: dict[str, Any]) -> None:
    p = hero(s, d["leader"]).pending
    assert isinstance(p, TeamAttack)
    p.invited.remove(d["seat"])
    if d["join"]:
        p.joined.append(d["seat"])
        if d.get("heroic"):
            p.heroic.append(d["seat"])


@RULES.applies("RerollPicked")
def _reroll_picked(s: State, d: dict[str, Any]) -> None:
    """A die picked to be rerolled, or put back among the kept (DO L345, L319)."""
    p = hero(s, d["seat"]).pending
    assert isinstance(p, Question)
    picked = set(p.picked or [])
    if d["picked"]:
        picked.add(d["index"])
    else:
        picked.discard(d["index"])
    p.picked = sorted(picked)


@RULES.applies("TeamLeft")
def _team_left(s: State, d: dict[str, Any]) -> None:
    """A member leaves a team attack before its launch (facts §21)."""
    p = hero(s, d["leader"]).pending
    assert isinstance(p, TeamAttack)
    p.joined.remove(d["seat"])
    if d["seat"] in p.heroic:
        p.heroic.remove(d["seat"])


@RULES.applies("PendingRoll")
def _pending_roll(s: State, d: dict[str, Any]) -> None:
    """Dice lying on the table for a choice of their roller: a runehenge's throw
    (DO L312-313), a gamble's keeps (DO L344-356), a barrow's keeps (DO L318)."""
    h = hero(s, d["seat"])
    h.pending = Question(**{k: (list(v) if isinstance(v, list) else v) for k, v in d.items() if k != "seat"})
    h.done = False  # a roll lying on the table is answered even with no AP left


@RULES.applies("PendingCleared", "TeamWithdrawn")
def _pending_cleared(s: State, d: dict[str, Any]) -> None:
    """A question of the seat's answered, or its team attack withdrawn: nothing pending."""
    h = hero(s, d["seat"])
    h.pending = None
    _check_done(h)


@RULES.applies("SurpriseAttack")
def _surprise(s: State, d: dict[str, Any]) -> None:
    hero(s, d["seat"]).must_attack = d["creature"]


@RULES.applies("HeroDied")
def _died(s: State, d: dict[str, Any]) -> None:
    """DO L199-202: belongings buried with the zombie; the character is gone for good."""
    h = hero(s, d["seat"])
    s.fallen.append(h.character)
    h.alive, h.done, h.pending, h.must_attack = False, True, Question("new_character"), None
    h.hp, h.inventory, h.potions, h.gear, h.equipped, h.charges = 0, [], [], [], {}, {}
    h.gold, h.blood, h.effects, h.engaged = 0, 0, {}, False
    h.runes = [r for r in h.runes if d["group_runes"].count(r)]
    for prop in s.props:
        if prop.carried_by == h.seat:  # what the fallen carried lies where they fell
            prop.carried_by = None
    for other in s.heroes:
        p = other.pending
        if isinstance(p, Battle) and d["seat"] in p.members:
            p.members = [m for m in p.members if m != d["seat"]]


@RULES.applies("HeroJoined")
def _joined(s: State, d: dict[str, Any]) -> None:
    """A new character at a town entrance (DO L199): 15 HP, 15 MP, the guild kept."""
    h = hero(s, d["seat"])
    guild = h.guild
    fresh = Hero(seat=h.seat, character=d["character"], at=d["at"], guild=guild)
    fresh.ap_limit = AP_PER_ROUND
    fresh.ap = h.ap
    fresh.done = h.done
    fresh.runes = list(h.runes)
    s.heroes[h.seat] = fresh


@RULES.applies("BelongingsTaken")
def _belongings(s: State, d: dict[str, Any]) -> None:
    h = hero(s, d["seat"])
    grave = s.graves.pop(str(d["space"]))
    h.inventory += grave.inventory[: max(0, 6 - len(h.inventory))]
    h.potions += grave.potions[: max(0, 3 - len(h.potions))]
    h.gear += grave.gear
    h.charges.update(grave.charges)
    h.gold += grave.gold
    h.mp -= 2


@RULES.applies("GraveDug")
def _grave(s: State, d: dict[str, Any]) -> None:
    b = d["belongings"]
    s.graves[str(d["space"])] = Belongings(
        list(b["inventory"]), list(b["potions"]), list(b["gear"]), dict(b["charges"]), b["gold"]
    )


@RULES.applies("BarrowFound")
def _barrow(s: State, d: dict[str, Any]) -> None:
    s.barrows.append(d["space"])


@RULES.applies("BarrowGone")
def _barrow_gone(s: State, d: dict[str, Any]) -> None:
    if d["space"] in s.barrows:
        s.barrows.remove(d["space"])
    s.barrows_gone += 1


@RULES.applies("LocationUnlocked")
def _unlocked(s: State, d: dict[str, Any]) -> None:
    s.locations[d["space"]].open = True


@RULES.applies("CampfireLit")
def _campfire(s: State, d: dict[str, Any]) -> None:
    s.campfires.append(d["space"])


@RULES.applies("VortexMoved")
def _vortex(s: State, d: dict[str, Any]) -> None:
    s.vortices[d["vortex"]] = d["to"]


@RULES.applies("CampMade")
def _camp(s: State, d: dict[str, Any]) -> None:
    s.locations[d["space"]].lit = True


@RULES.applies("GambleOpened")
def _gamble_opened(s: State, d: dict[str, Any]) -> None:
    s.gambles[str(d["seat"])] = GambleTable(d["game"], [d["seat"]], list(d["invited"]))
    if d["invited"]:
        host = hero(s, d["seat"])
        host.pending, host.done = Question("gamble_host"), False


@RULES.applies("GambleAnswered")
def _gamble_answered(s: State, d: dict[str, Any]) -> None:
    table = s.gambles[str(d["host"])]
    table.invited.remove(d["seat"])
    if d["join"]:
        table.players.append(d["seat"])
        joined = hero(s, d["seat"])
        joined.pending, joined.done = Question("gamble_wait", host=d["host"]), False


@RULES.applies("GambleStarted")
def _gamble_started(s: State, d: dict[str, Any]) -> None:
    table = s.gambles[str(d["host"])]
    table.players, table.ante, table.house, table.invited = (
        list(d["players"]),
        d["ante"],
        list(d["house"]),
        [],
    )
    for seat in d["players"]:
        player = hero(s, seat)
        player.pending, player.done = Question("gamble_wait", host=d["host"]), False


@RULES.applies("GambleTurnEnded")
def _gamble_turn(s: State, d: dict[str, Any]) -> None:
    s.gambles[str(d["host"])].scores[str(d["seat"])] = list(d["dice"])


@RULES.applies("GambleEnded")
def _gamble_ended(s: State, d: dict[str, Any]) -> None:
    s.gambles.pop(str(d["host"]), None)


@RULES.applies("BarrowExplored", "BarrowMissed", "WellAnswered", "RuneRead", "HoardSearched")
def _told(s: State, d: dict[str, Any]) -> None:
    """Facts told for the log (the dice of a gamble, a barrow, the well); the state moves
    by the events around them."""
    return None


@RULES.applies("LootReturned")
def _loot_returned(s: State, d: dict[str, Any]) -> None:
    """A new chapter gathers every token on the map back into the pile."""
    s.loot, s.dropped = {}, {}
    s.pile = sorted(s.pile + [base_token(t) for t in d["tokens"]])
