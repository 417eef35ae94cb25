"""Effect ops used by Darkest Night's hero content that the shared vocabulary (rules/ops.py)
does not cover. Each is a registered step; its docstring cites the rule or card it serves."""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.content import LOCATIONS, MONASTERY, load
from app.games.darkest_night.decisions import (
    DruidForm,
    HbAttack,
    HbMove,
    HbOathQuest,
    HbPickHero,
    HbQuest,
    HbScrap,
    HbSeekOath,
)
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.actions import search_difficulty
from app.games.darkest_night.rules.blights import attackable, move_hero
from app.games.darkest_night.rules.common import can_spend, hero_name, spend
from app.games.darkest_night.rules.ops import attack_step
from app.games.darkest_night.rules.powers import set_power, spec
from app.games.darkest_night.rules.search import take_power_from_deck
from app.kernel.types import Choice

# -- Druid, Rogue, Mesmer, Shaman, Bard ------------------------------------------------


@step("search_with", "dice", "hero", "power", "why")
def search_with(ctx: Ctx, st: Step) -> None:
    """Search rolling ``dice`` dice instead of 1: a map card per success, choose one (DN 8.0).
    The Rogue's Eavesdrop: spend 1 secrecy to search with 2 dice (DN 4.1). Bonus search dice
    add as usual; the Monastery cannot be searched (DN 19.2)."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead or hero.location == MONASTERY:
        return
    ctx.then(
        [
            {
                "op": "roll",
                "hero": hero.id,
                "purpose": "search",
                "target": search_difficulty(ctx, hero),
                "base": int(st.get("dice", 1)),
                "then": {"op": "search_result"},
            }
        ]
    )


@step("druid_take_form", "forms", "hero", "power", "to", "why")
def druid_take_form(ctx: Ctx, st: Step) -> None:
    """The Druid's Celerity: leave every Form (``forms``), then take any one of them that is
    not exhausted, or none. Forms end each other (DN 14.1 example: another Form card
    deactivates Wolf Form); a suppressed Form may still be left (DN 14.2)."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead:
        return
    owned = [hero.power(f) for f in st.get("forms", ())]
    forms = [p for p in owned if p is not None]
    for power in forms:
        if power.active:
            set_power(ctx, hero, power.id, active=False, target=None, why="Celerity: leaving your Forms")
    ready = [p.id for p in forms if not p.exhausted]
    if ready:
        ctx.ask(DruidForm(seat=hero.seat, hero=hero.id, forms=ready))


def druid_form_choices(s: Any, d: DruidForm) -> list[Choice]:
    ctx = Ctx.reader(s)
    out = [Choice("take_form", {"power": f}, f"Take {spec(ctx, f).name}", spec(ctx, f).text) for f in d.forms]
    out.append(Choice("no_form", {}, "Take no Form", "keep your own shape"))
    return out


@decision(DruidForm, druid_form_choices)
def resolve_druid_form(ctx: Ctx, d: DruidForm, type_: str, args: dict[str, Any]) -> None:
    if type_ == "take_form":
        hero = ctx.s.heroes[d.hero]
        name = spec(ctx, args["power"]).name
        set_power(ctx, hero, args["power"], active=True, target=None, why=f"Celerity: took {name}")


# -- Knight, Paragon, Tinker, Wayfarer (and the Prince, Valkyrie, Seer, Crusader) ----------


def _hb_then(ctx: Ctx, st: Step, effects: Any) -> None:
    """Run nested effects for the same hero, keeping the power they belong to."""
    extra = {"hero": st["hero"]} | ({"power": st["power"]} if st.get("power") else {})
    ctx.then([dict(e) | extra for e in effects or ()])


def _hb_oaths(hero: Any) -> list[Any]:
    """The Knight's Oath cards in play (first edition: one Oath at a time)."""
    return [p for p in hero.powers if ".oath_" in p.id]


def _hb_quests_here(ctx: Ctx, hero: Any) -> list[Any]:
    return [q for q in ctx.s.quests if q.location == hero.location]


@step("knight_end_oath", "hero", "oath", "power", "why")
def knight_end_oath(ctx: Ctx, st: Step) -> None:
    """An Oath is kept until it is fulfilled or broken, then it ends (first-edition Knight,
    shared/facts "First-edition power decks"): deactivate it (DN 14.1) and forget what it was
    sworn on. ``oath`` names the power (default: the power the effect belongs to)."""
    hero = ctx.s.heroes[st["hero"]]
    oath = hero.power(st.get("oath") or st.get("power") or "")
    if hero.dead or oath is None or not oath.active:
        return
    data = {k: v for k, v in oath.data.items() if not k.startswith("oath_")}
    set_power(ctx, hero, oath.id, active=False, target=None, data=data, why=st.get("why", "the Oath ends"))


def _hb_oath_data(hero: Any, st: Step) -> dict[str, Any]:
    oath = hero.power(st.get("oath") or st.get("power") or "")
    return dict(oath.data) if oath is not None else {}


def _hb_knight_condition(ctx: Ctx, hero: Any, st: Step) -> bool:
    cond = st["cond"]
    if cond == "sworn":
        return any(p.active and not p.exhausted for p in _hb_oaths(hero))
    data = _hb_oath_data(hero, st)
    if cond == "left_post":
        return data.get("oath_place") is not None and hero.location != data["oath_place"]
    if cond == "post_clear":
        return hero.location == data.get("oath_place") and not ctx.s.blights.get(hero.location)
    quest = next(
        (q for q in ctx.s.quests if q.id == data.get("oath_quest") and q.card == data.get("oath_card")), None
    )
    if cond == "quest_gone":
        return "oath_quest" in data and quest is None
    if cond == "at_quest":
        return quest is not None and quest.location == hero.location
    if cond == "necromancer_far":
        here = hero.location
        return ctx.s.necromancer != here and ctx.s.necromancer not in ctx.c.locations[here].adjacent
    raise ValueError(f"knight_if: unknown condition {cond!r}")


@step("knight_if", "cond", "do", "else", "hero", "power", "why")
def knight_if(ctx: Ctx, st: Step) -> None:
    """The Knight's Oath conditions, checked at the start or end of his turns (the hooks a
    power has, DN 6.0): ``cond`` is "sworn" (an Oath of his is active), "left_post" (he is
    away from where he swore the Oath), "post_clear" (he is there and no blight is),
    "quest_gone" (the quest he swore on is no longer in play), "at_quest" (he is at that
    quest) or "necromancer_far" (the Necromancer is neither here nor adjacent). Runs ``do``
    if it holds, else ``else``."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead:
        return
    _hb_then(ctx, st, st.get("do") if _hb_knight_condition(ctx, hero, st) else st.get("else"))


@step("knight_mark_place", "hero", "oath", "power", "why")
def knight_mark_place(ctx: Ctx, st: Step) -> None:
    """Remember where the Knight swore an Oath (Oath of Defense: broken if he leaves it)."""
    hero = ctx.s.heroes[st["hero"]]
    oath = hero.power(st.get("oath") or st.get("power") or "")
    if oath is not None:
        set_power(ctx, hero, oath.id, data=dict(oath.data) | {"oath_place": hero.location})


@step("knight_swear_on_quest", "ends", "hero", "oath", "power", "why")
def knight_swear_on_quest(ctx: Ctx, st: Step) -> None:
    """Oath of Service (DN 20.6 names it): swear the Oath on a quest at the Knight's location
    (his choice if several); it ends his other Oaths (``ends``). With no quest here, nothing
    is sworn."""
    hero = ctx.s.heroes[st["hero"]]
    quests = _hb_quests_here(ctx, hero)
    if hero.dead or not quests:
        return
    if len(quests) == 1:
        _hb_swear_quest(ctx, hero, st, quests[0].id)
        return
    ctx.ask(
        HbOathQuest(
            seat=hero.seat,
            hero=hero.id,
            oath=st.get("oath") or st.get("power"),
            ends=list(st.get("ends", ())),
            quests=[q.id for q in quests],
        )
    )


def _hb_swear_quest(ctx: Ctx, hero: Any, st: dict[str, Any], quest_id: str) -> None:
    oath = hero.power(st.get("oath") or st.get("power") or "")
    quest = next(q for q in ctx.s.quests if q.id == quest_id)
    if oath is None:
        return
    for other in st.get("ends", ()):
        power = hero.power(other)
        if power is not None and power.active:
            set_power(ctx, hero, other, active=False, target=None, why="a new Oath replaces it")
    data = dict(oath.data) | {"oath_quest": quest.id, "oath_card": quest.card}
    name = ctx.c.quests[quest.card].name
    set_power(ctx, hero, oath.id, active=True, target=None, data=data, why=f"sworn on the quest {name}")


def _hb_quest_choices(s: Any, d: HbOathQuest | HbQuest) -> list[Choice]:
    ctx = Ctx.reader(s)
    out = []
    for quest in s.quests:
        if quest.id in d.quests:
            spec = ctx.c.quests[quest.card]
            needed = spec.data.get("progress", 1)
            time = spec.data.get("time", 5)
            out.append(
                Choice(
                    "choose_quest",
                    {"quest": quest.id},
                    spec.name,
                    f"progress {quest.progress}/{needed}, time {quest.time}/{time}",
                )
            )
    return out


@decision(HbOathQuest, _hb_quest_choices)
def _hb_resolve_oath_quest(ctx: Ctx, d: HbOathQuest, _t: str, args: dict[str, Any]) -> None:
    _hb_swear_quest(ctx, ctx.s.heroes[d.hero], {"oath": d.oath, "ends": d.ends}, args["quest"])


@step("knight_seek_oath", "hero", "power", "why")
def knight_seek_oath(ctx: Ctx, st: Step) -> None:
    """Oath of Valor fulfilled (first edition: "may take any Oath"): the Knight may take any
    Oath card from his power deck into play; the deck is then shuffled."""
    hero = ctx.s.heroes[st["hero"]]
    oaths = [p for p in hero.deck if ".oath_" in p]
    if hero.dead or not oaths:
        return
    ctx.ask(HbSeekOath(seat=hero.seat, hero=hero.id, oaths=oaths))


def _hb_seek_oath_choices(s: Any, d: HbSeekOath) -> list[Choice]:
    powers = load().powers()
    out = [Choice("take_oath", {"power": p}, f"Take {powers[p].name}", powers[p].text) for p in d.oaths]
    out.append(Choice("no_oath", {}, "Take no Oath card", "your power deck stays as it is"))
    return out


@decision(HbSeekOath, _hb_seek_oath_choices)
def _hb_resolve_seek_oath(ctx: Ctx, d: HbSeekOath, type_: str, args: dict[str, Any]) -> None:
    if type_ != "take_oath":
        return
    take_power_from_deck(ctx, ctx.s.heroes[d.hero], args["power"], "Oath of Valor fulfilled")


@step("move_choice", "hero", "power", "range", "to", "why")
def move_choice(ctx: Ctx, st: Step) -> None:
    """A power's further move, which the player may decline: ``range`` "adjacent" (the
    Knight's Hard Ride, the Wayfarer's Long Road: a second step) or "any" (the Wayfarer's
    Shortcut). Moving triggers what entering and leaving do (DN 11.2); no secrecy is gained
    unless the card says so."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead:
        return
    if st.get("range", "adjacent") == "any":
        places = [loc for loc in LOCATIONS if loc != hero.location]
    else:
        places = list(ctx.c.locations[hero.location].adjacent)
    ctx.ask(HbMove(seat=hero.seat, hero=hero.id, places=places, why=st.get("why", "a power")))


def _hb_move_choices(s: Any, d: HbMove) -> list[Choice]:
    out = [Choice("move_to", {"to": loc}, f"Move on to the {loc}", d.why) for loc in d.places]
    out.append(Choice("stay", {}, "Stay where you are", ""))
    return out


@decision(HbMove, _hb_move_choices)
def _hb_resolve_move(ctx: Ctx, d: HbMove, type_: str, args: dict[str, Any]) -> None:
    if type_ == "move_to":
        move_hero(ctx, ctx.s.heroes[d.hero], args["to"], d.why)


@step("for_target_hero", "do", "hero", "power", "target", "why")
def for_target_hero(ctx: Ctx, st: Step) -> None:
    """Apply ``do`` to the hero a power's action targeted (``target = "hero_here"`` or
    ``"any_hero"``, DN 14.1), not to the power's owner (the Paragon's Words of Comfort)."""
    target = str(st.get("target") or "")
    if not target.startswith("hero:"):
        return
    hero = ctx.s.heroes.get(target[5:])
    if hero is None or hero.dead:
        return
    ctx.then([dict(e) | {"hero": hero.id} for e in st.get("do", ())])


@step("pick_hero_here", "cost", "do", "hero", "others", "power", "why")
def pick_hero_here(ctx: Ctx, st: Step) -> None:
    """The player picks a hero at this hero's location (``others = true``: another hero)
    and ``do`` applies to that hero; ``cost`` is paid by this hero when the pick is made, and
    with no one to pick (or no way to pay) nothing happens (the Paragon's Take the Blow)."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead or not all(can_spend(hero, r, n) for r, n in st.get("cost", {}).items()):
        return
    heroes = [h.id for h in ctx.s.heroes_at(hero.location) if not (st.get("others") and h.id == hero.id)]
    if not heroes:
        return
    ctx.ask(
        HbPickHero(
            seat=hero.seat,
            hero=hero.id,
            heroes=heroes,
            do=list(st.get("do", ())),
            cost=dict(st.get("cost", {})),
            why=st.get("why", ""),
        )
    )


def _hb_can_pay(s: Any, d: HbPickHero) -> bool:
    hero = s.heroes[d.hero]
    return not hero.dead and all(can_spend(hero, r, n) for r, n in d.cost.items())


def _hb_pick_hero_choices(s: Any, d: HbPickHero) -> list[Choice]:
    cost = ", ".join(f"spend {n} {r}" for r, n in d.cost.items())
    heroes = [h for h in d.heroes if not s.heroes[h].dead] if _hb_can_pay(s, d) else []
    out = [Choice("pick_hero", {"target": h}, hero_name(s, h), cost) for h in heroes]
    out.append(Choice("pick_no_one", {}, "No one", "nothing happens"))
    return out


@decision(HbPickHero, _hb_pick_hero_choices)
def _hb_resolve_pick_hero(ctx: Ctx, d: HbPickHero, type_: str, args: dict[str, Any]) -> None:
    if type_ != "pick_hero" or not _hb_can_pay(ctx.s, d):
        return
    hero = ctx.s.heroes[d.hero]
    for resource, n in d.cost.items():
        spend(ctx, hero, resource, n, d.why or "a power")
    ctx.then([dict(e) | {"hero": args["target"]} for e in d.do])


@step("flag_current_hero", "flag", "hero", "power", "scope", "why")
def flag_current_hero(ctx: Ctx, st: Step) -> None:
    """Mark the hero whose turn it is for the rest of that turn (``flag``, e.g.
    ``safe_from_wounds``): ``scope`` "self" (only if it is this hero's turn), "here" (if that
    hero is at this hero's location) or "any". The mark ends with that turn (the Valkyrie's
    Shield Maiden, the Seer's Prophecy of Safety). Between turns nothing happens."""
    hero = ctx.s.heroes[st["hero"]]
    current = ctx.s.heroes.get(ctx.s.current or "")
    if ctx.s.phase != "turn" or current is None or current.dead:
        return
    scope = st.get("scope", "self")
    if scope == "self" and current.id != hero.id:
        return
    if scope == "here" and current.location != hero.location:
        return
    ctx.emit("HeroFlagged", hero=current.id, flag="turn:" + st["flag"], value=st.get("why") or "a power")


@step("quest_here_progress", "hero", "n", "power", "to", "why")
def quest_here_progress(ctx: Ctx, st: Step) -> None:
    """Add ``n`` progress tokens to a quest at the hero's location (choose if several); the
    hero who adds the last token takes the reward (DN 16.2). No quest here: nothing (the
    Paragon's Man of the Hour, the Wayfarer's Good Samaritan)."""
    _hb_quest_op(ctx, st, "progress")


@step("quest_here_delay", "hero", "n", "power", "why")
def quest_here_delay(ctx: Ctx, st: Step) -> None:
    """Remove up to ``n`` time markers from a quest at the hero's location (choose if
    several), so it expires later (DN 16.3; the Tinker's Stabilizing Gadget)."""
    _hb_quest_op(ctx, st, "delay")


def _hb_quest_op(ctx: Ctx, st: Step, what: str) -> None:
    hero = ctx.s.heroes[st["hero"]]
    quests = _hb_quests_here(ctx, hero)
    if hero.dead or not quests:
        return
    n = int(st.get("n", 1))
    if len(quests) == 1:
        _hb_quest_apply(ctx, hero.id, quests[0].id, what, n)
        return
    ctx.ask(HbQuest(seat=hero.seat, hero=hero.id, quests=[q.id for q in quests], what=what, n=n))


def _hb_quest_apply(ctx: Ctx, hero_id: str, quest_id: str, what: str, n: int) -> None:
    quest = next((q for q in ctx.s.quests if q.id == quest_id), None)
    if quest is None:
        return
    if what == "progress":
        ctx.then([{"op": "quest_progress", "hero": hero_id, "quest": quest.id, "n": n}])
    elif quest.time > 0:
        ctx.emit("QuestTimeAdvanced", id=quest.id, to=max(0, quest.time - n), by=-min(n, quest.time))


@decision(HbQuest, _hb_quest_choices)
def _hb_resolve_quest(ctx: Ctx, d: HbQuest, _t: str, args: dict[str, Any]) -> None:
    _hb_quest_apply(ctx, d.hero, args["quest"], d.what, int(d.n))


@step("tinker_scrap_item", "do", "hero", "power", "why")
def tinker_scrap_item(ctx: Ctx, st: Step) -> None:
    """The Tinker's Scrap for Parts: discard a basic item token he carries (not a Holy Relic
    or an artifact; it returns to the stock, DN 15.0), then ``do``. Carrying none: nothing."""
    hero = ctx.s.heroes[st["hero"]]
    items = [i.id for i in hero.items if i.kind in ctx.c.items and i.kind not in ("holy_relic", "artifact")]
    if hero.dead or not items:
        return
    ctx.ask(
        HbScrap(seat=hero.seat, hero=hero.id, items=items, do=list(st.get("do", ())), power=st.get("power"))
    )


def _hb_scrap_choices(s: Any, d: HbScrap) -> list[Choice]:
    items = load().items
    hero = s.heroes[d.hero]
    out, seen = [], set()
    for item in hero.items:
        if item.id in d.items and item.kind not in seen:
            seen.add(item.kind)
            out.append(
                Choice("scrap_item", {"item": item.id}, f"Scrap a {items[item.kind].name}", "discard it")
            )
    out.append(Choice("keep_items", {}, "Scrap nothing", "nothing happens"))
    return out


@decision(HbScrap, _hb_scrap_choices)
def _hb_resolve_scrap(ctx: Ctx, d: HbScrap, type_: str, args: dict[str, Any]) -> None:
    if type_ != "scrap_item":
        return
    hero = ctx.s.heroes[d.hero]
    item = hero.item(args["item"])
    if item is None:
        return
    ctx.emit("ItemUsed", hero=hero.id, item=item.id, kind=item.kind, discard=True, why="scrapped for parts")
    _hb_then(ctx, {"hero": hero.id, "power": d.power}, d.do)


@step("offer_attack", "hero", "power", "to", "why")
def offer_attack(ctx: Ctx, st: Step) -> None:
    """The hero may attack a blight here, as with the attack action (DN 8.0, 12.1: any
    tactic, 1 secrecy lost either way), or decline (the Valkyrie's Ride of the Slain)."""
    hero = ctx.s.heroes[st["hero"]]
    if hero.dead:
        return
    targets, _ = attackable(ctx, hero)
    if targets:
        ctx.ask(HbAttack(seat=hero.seat, hero=hero.id, blights=[t[0] for t in targets]))


def _hb_attack_choices(s: Any, d: HbAttack) -> list[Choice]:
    out = []
    for blight_id in d.blights:
        found = s.find_blight(blight_id)
        if found:
            out.append(
                Choice("attack_blight", {"blight": blight_id}, f"Attack the {found[1].type}", "DN 12.1")
            )
    out.append(Choice("no_attack", {}, "Do not attack", ""))
    return out


@decision(HbAttack, _hb_attack_choices)
def _hb_resolve_attack(ctx: Ctx, d: HbAttack, type_: str, args: dict[str, Any]) -> None:
    if type_ != "attack_blight" or ctx.s.find_blight(args["blight"]) is None:
        return
    attack = attack_step(ctx, ctx.s.heroes[d.hero], args["blight"], {"dice": 1})
    del attack["dice"], attack["power"]
    ctx.then([attack])
