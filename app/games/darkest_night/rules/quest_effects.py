"""Effect ops used by Darkest Night's quest and mystery content that the shared vocabulary
(rules/ops.py) does not cover. Each is a registered step; its docstring cites the rule or
card it serves.

A quest's or mystery's ``action`` steps are scheduled with ``quest``/``mystery`` (its id),
``hero`` and ``"$location"`` filled in at the top level only (``run_placed_action``). The
ops here carry those into the steps they nest (``win``, ``fail``, ``do``) with ``bind``, so
content can write ``win = [{op = "quest_progress", n = 1}]`` without knowing the id.
"""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.content import load
from app.games.darkest_night.decisions import DestroyBlightAt, GreenItem, MysteryPay, PeekDarkness, QuestPay
from app.games.darkest_night.engine import Ctx, Step, decision, step
from app.games.darkest_night.rules.actions import pray_roll
from app.games.darkest_night.rules.common import (
    can_spend,
    create_blight,
    spend,
    stock_of,
)
from app.games.darkest_night.state import Hero, Item, Placed, State
from app.kernel.types import Choice

RESOURCES = ("grace", "secrecy", "sparks", "clues")
"""What a quest or mystery may ask a hero to pay (clues are shared by all heroes, DN 17.1)."""

NO_KEY_ROLL = 7
"""A key without ``min`` is never earned by a roll (as ``mystery_roll_keys`` reads it)."""


# -- helpers -------------------------------------------------------------------------------


def bind(
    node: Any, *, quest: str | None = None, mystery: str | None = None, location: str | None = None
) -> Any:
    """A copy of effect data with the card's id stamped on every nested step (``quest`` or
    ``mystery``, unless a step names its own) and ``"$location"`` replaced by its place."""
    if isinstance(node, dict):
        out = {k: bind(v, quest=quest, mystery=mystery, location=location) for k, v in node.items()}
        if isinstance(out.get("op"), str):
            if quest is not None:
                out.setdefault("quest", quest)
            if mystery is not None:
                out.setdefault("mystery", mystery)
        return out
    if isinstance(node, list | tuple):
        return [bind(v, quest=quest, mystery=mystery, location=location) for v in node]
    if node == "$location" and location is not None:
        return location
    return node


def placed_quest(ctx: Ctx, st: Step) -> Placed | None:
    return next((q for q in ctx.s.quests if q.id == st.get("quest")), None)


def placed_mystery(ctx: Ctx, st: Step) -> Placed | None:
    return next((m for m in ctx.s.mysteries if m.id == st.get("mystery")), None)


def living_hero(ctx: Ctx, st: Step) -> Hero | None:
    hero = ctx.s.heroes.get(st.get("hero") or "")
    return None if hero is None or hero.dead else hero


def progress_step(quest: Placed, st: Step) -> Step:
    """The quest_progress step a success brings: one token per success (``progress =
    "successes"``, the default, as the Zombie Horde's elude roll, DN 16.2) or a number."""
    progress = st.get("progress", "successes")
    n: Any = "$successes" if progress == "successes" else int(progress)
    return {"op": "quest_progress", "quest": quest.id, "n": n}


def resource_label(cost: dict[str, int]) -> str:
    words = {"grace": "grace", "secrecy": "secrecy", "sparks": "spark", "clues": "clue"}
    parts = []
    for res, n in cost.items():
        word = words.get(res, res)
        if res in ("sparks", "clues") and int(n) != 1:
            word += "s"
        parts.append(f"{n} {word}")
    return "Spend " + " and ".join(parts)


def affordable(ctx: Ctx, hero: Hero, cost: dict[str, int]) -> bool:
    """You cannot spend what you do not have (DN 4.1); clues are the heroes' common pool."""
    for res, n in cost.items():
        if res not in RESOURCES:
            raise ValueError(f"unknown resource {res!r} in a quest or mystery cost")
        have = ctx.s.clues if res == "clues" else None
        if have is not None and have < int(n):
            return False
        if have is None and not can_spend(hero, res, int(n)):
            return False
    return True


def pay(ctx: Ctx, hero: Hero, cost: dict[str, int], why: str) -> None:
    for res, n in cost.items():
        if res == "clues":
            ctx.emit("CluesChanged", to=ctx.s.clues - int(n), by=-int(n), why=why)
        else:
            spend(ctx, hero, res, int(n), why)


def discardable(ctx: Ctx, hero: Hero, kinds: Any) -> list[Item]:
    """Item tokens a hero may give up to a card: basic items, not Holy Relics or artifacts
    (``item = true``), or only the kinds listed (``item = ["charm"]``)."""
    out = []
    for item in hero.items:
        if item.kind in ("holy_relic", "artifact") or item.kind not in ctx.c.items:
            continue
        if isinstance(kinds, list) and item.kind not in kinds:
            continue
        out.append(item)
    return out


def payment_ways(ctx: Ctx, hero: Hero, offers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every way the hero can pay now: ``{offer, cost?, item?, label}`` (an offer with
    ``item`` gives one way per item carried)."""
    ways: list[dict[str, Any]] = []
    for index, offer in enumerate(offers):
        if offer.get("item"):
            for item in discardable(ctx, hero, offer["item"]):
                name = ctx.c.items[item.kind].name
                ways.append({"offer": index, "item": item.id, "label": f"Discard your {name}"})
        cost = offer.get("cost")
        if cost and affordable(ctx, hero, cost):
            ways.append(
                {"offer": index, "cost": dict(cost), "label": offer.get("label") or resource_label(cost)}
            )
    return ways


def make_payment(ctx: Ctx, hero: Hero, way: dict[str, Any], why: str) -> None:
    if way.get("item"):
        item = hero.item(way["item"])
        if item is not None:
            ctx.emit("ItemLost", hero=hero.id, item=item.id, kind=item.kind, why=why)
    if way.get("cost"):
        pay(ctx, hero, way["cost"], why)


def ways_choices(d: QuestPay | MysteryPay, stop_label: str) -> list[Choice]:
    out = [Choice("pay", {"way": i}, way["label"], d.detail) for i, way in enumerate(d.ways)]
    out.append(Choice("stop_paying", {}, stop_label, ""))
    return out


# -- quests (DN 16.2) ------------------------------------------------------------------------


@step(
    "quest_fight",
    "allow",
    "awareness",
    "fail",
    "foe",
    "hero",
    "power",
    "progress",
    "quest",
    "strength",
    "vs",
    "why",
    "win",
)
def quest_fight(ctx: Ctx, st: Step) -> None:
    """A combat at a quest (DN 16.2): ``foe`` (enemies.toml, or ``strength``/``awareness``
    given), ``allow`` (e.g. ``["elude"]``), the hero's choice of tactic. Winning adds
    ``progress`` tokens (default: one per success, as the Druid's elude roll against the
    Zombie Horde) and runs ``win``; failing runs ``fail`` (by default nothing, DN 16.2)."""
    quest = placed_quest(ctx, st)
    hero = living_hero(ctx, st)
    if quest is None or hero is None:
        return
    spec = ctx.c.quests[quest.card]
    bound = {"quest": quest.id, "location": quest.location}
    fight: Step = {
        "op": "fight",
        "hero": hero.id,
        "foe": st.get("foe", spec.name),
        "vs": st.get("vs", "quest"),
        "allow": list(st.get("allow", ["fight", "elude"])),
        "why": spec.name,
        "win": [progress_step(quest, st), *bind(st.get("win", []), **bound)],
        "fail": bind(st.get("fail", []), **bound),
    }
    for stat in ("strength", "awareness"):
        if stat in st:
            fight[stat] = st[stat]
    ctx.then([fight])


@step("quest_roll", "dice", "fail", "hero", "power", "progress", "quest", "roll", "target", "why", "win")
def quest_roll(ctx: Ctx, st: Step) -> None:
    """A roll for a quest outside combat (DN 5.0, 16.2): ``dice`` against ``target``;
    ``roll`` is "test" (default), "pray" or "search" (which bonuses apply). Any success adds
    ``progress`` tokens (default one per success) and runs ``win``; none runs ``fail``."""
    quest = placed_quest(ctx, st)
    hero = living_hero(ctx, st)
    if quest is None or hero is None:
        return
    bound = {"quest": quest.id, "location": quest.location}
    ctx.then(
        [
            {
                "op": "roll",
                "hero": hero.id,
                "purpose": st.get("roll", "test"),
                "target": int(st["target"]),
                "base": int(st.get("dice", 1)),
                "then": {
                    "op": "quest_roll_result",
                    "quest": quest.id,
                    "progress": st.get("progress", "successes"),
                    "win": bind(st.get("win", []), **bound),
                    "fail": bind(st.get("fail", []), **bound),
                },
            }
        ]
    )


@step("quest_roll_result", "faces", "fail", "hero", "kept", "progress", "quest", "successes", "win")
def quest_roll_result(ctx: Ctx, st: Step) -> None:
    quest = placed_quest(ctx, st)
    successes = int(st["successes"])
    steps: list[Step] = []
    if successes and quest is not None:
        progress = st.get("progress", "successes")
        n = successes if progress == "successes" else int(progress)
        steps.append({"op": "quest_progress", "quest": quest.id, "n": n})
    steps += list(st["win"] if successes else st["fail"])
    ctx.then(steps, hero=st["hero"])


@step("quest_pay", "costs", "hero", "item", "paid", "power", "quest", "repeat", "why")
def quest_pay(ctx: Ctx, st: Step) -> None:
    """A quest advanced by paying instead of rolling (DN 16.2: "other quests ... require
    an expenditure of other resources"): one of ``costs`` (e.g. ``[{secrecy = 2},
    {grace = 1}]``) or, with ``item = true`` (or a list of kinds), an item token discarded,
    for ``progress`` tokens (default 1). With ``repeat = true`` the hero may keep paying
    for more tokens until the quest is done. You cannot spend what you lack (DN 4.1)."""
    quest = placed_quest(ctx, st)
    hero = living_hero(ctx, st)
    if quest is None or hero is None:
        return
    offers = [{"cost": c} for c in st.get("costs", [])]
    if st.get("item"):
        offers.append({"item": st["item"]})
    ways = payment_ways(ctx, hero, offers)
    if not ways:
        return
    spec = ctx.c.quests[quest.card]
    params = {k: v for k, v in st.items() if k not in ("op", "hero")}
    if len(ways) == 1 and not st.get("repeat"):
        settle_quest_payment(ctx, hero, params, ways[0])
        return
    needed = int(spec.data.get("progress", 1))
    ctx.ask(
        QuestPay(
            seat=hero.seat,
            hero=hero.id,
            quest=quest.id,
            name=spec.name,
            params=params,
            ways=ways,
            detail=f"{spec.name}: {quest.progress}/{needed}",
        )
    )


def settle_quest_payment(ctx: Ctx, hero: Hero, params: dict[str, Any], way: dict[str, Any]) -> None:
    quest = placed_quest(ctx, params)
    if quest is None:
        return
    name = ctx.c.quests[quest.card].name
    make_payment(ctx, hero, way, f"the quest {name}")
    steps: list[Step] = [
        {"op": "quest_progress", "quest": quest.id, "hero": hero.id, "n": int(params.get("progress", 1))}
    ]
    if params.get("repeat"):
        steps.append({"op": "quest_pay", "hero": hero.id, **params, "paid": int(params.get("paid", 0)) + 1})
    ctx.then(steps)


def quest_pay_choices(s: State, d: QuestPay) -> list[Choice]:
    return ways_choices(d, "Stop paying" if d.params.get("paid") else "Pay nothing")


@decision(QuestPay, quest_pay_choices)
def resolve_quest_pay(ctx: Ctx, d: QuestPay, type_: str, args: dict[str, Any]) -> None:
    if type_ == "pay":
        settle_quest_payment(ctx, ctx.s.heroes[d.hero], d.params, d.ways[args["way"]])


# -- mysteries (DN 17.3) ---------------------------------------------------------------------


def next_key_min(ctx: Ctx, mystery: Placed) -> int:
    """The lowest die still worth a reward: the least ``min`` of the keys not yet taken."""
    keys = ctx.c.mysteries[mystery.card].data.get("keys", ())
    mins = [int(k.get("min", NO_KEY_ROLL)) for i, k in enumerate(keys) if i not in mystery.keys]
    return min(mins, default=NO_KEY_ROLL)


@step("mystery_fight", "approach", "hero", "mystery", "power", "why")
def mystery_fight(ctx: Ctx, st: Step) -> None:
    """A mystery's fight roll (DN 17.3, Defiled Shrine): a combat against no foe in which the
    hero may use a tactic (the Mesmer's Consume Dreams in the example) and other dice; the
    best die earns every key whose ``min`` it reaches (``mystery_roll_keys``). ``approach =
    "elude"`` makes it an elude roll. The target shown is the lowest die still rewarded, so a
    roll with no success earns nothing and pulling punches (DN 12.3) earns nothing."""
    mystery = placed_mystery(ctx, st)
    hero = living_hero(ctx, st)
    if mystery is None or hero is None:
        return
    spec = ctx.c.mysteries[mystery.card]
    approach = st.get("approach", "fight")
    target = next_key_min(ctx, mystery)
    ctx.then(
        [
            {
                "op": "combat",
                "hero": hero.id,
                "vs": "mystery",
                "allow": [approach],
                "foe": {
                    "name": spec.name,
                    "strength": target if approach == "fight" else None,
                    "awareness": target if approach == "elude" else None,
                },
                "win": [{"op": "mystery_best_die", "mystery": mystery.id}],
                "fail": [],
                "why": spec.name,
            }
        ]
    )


@step("mystery_roll", "dice", "hero", "mystery", "power", "roll", "why")
def mystery_roll(ctx: Ctx, st: Step) -> None:
    """A mystery's roll outside combat (DN 17.3): ``dice`` (default 1) of a kind (``roll`` =
    "test", "search" or "pray", so the matching bonuses apply); the best die earns every key
    whose ``min`` it reaches."""
    mystery = placed_mystery(ctx, st)
    hero = living_hero(ctx, st)
    if mystery is None or hero is None:
        return
    ctx.then(
        [
            {
                "op": "roll",
                "hero": hero.id,
                "purpose": st.get("roll", "test"),
                "target": next_key_min(ctx, mystery),
                "base": int(st.get("dice", 1)),
                "then": {"op": "mystery_best_die", "mystery": mystery.id},
            }
        ]
    )


@step("mystery_best_die", "faces", "hero", "kept", "mystery", "successes")
def mystery_best_die(ctx: Ctx, st: Step) -> None:
    """After a mystery's roll: its dice as they count (a Holy Relic's +1, Terror's dropped
    die, DN 11.2, 15.2) go to ``mystery_roll_keys``. A combat's continuation does not carry
    the dice, so they are read from the roll just recorded (``last_roll``)."""
    if placed_mystery(ctx, st) is None or living_hero(ctx, st) is None:
        return
    kept = st.get("kept")
    last = ctx.s.last_roll or {}
    if (
        kept is None
        and last.get("hero") == st["hero"]
        and ("faces" not in st or last.get("faces") == st["faces"])
    ):
        kept = last.get("kept")
    if kept is None:
        kept = st.get("faces", [])
    ctx.then([{"op": "mystery_roll_keys", "mystery": st["mystery"], "hero": st["hero"], "kept": list(kept)}])


@step("mystery_pay", "hero", "mystery", "offers", "power", "why")
def mystery_pay(ctx: Ctx, st: Step) -> None:
    """A mystery's reward for a payment (DN 17.3): ``offers = [{cost = {grace = 1}} or
    {item = true}, key = <index> | do = [...], label?]``. An offer with ``key`` takes that
    keyed reward (once only; its ``do`` is the card's ``keys`` entry); without one it is a
    permanent effect usable again and again."""
    mystery = placed_mystery(ctx, st)
    hero = living_hero(ctx, st)
    if mystery is None or hero is None:
        return
    offers = [o for o in st.get("offers", []) if o.get("key") is None or o["key"] not in mystery.keys]
    ways = payment_ways(ctx, hero, offers)
    if not ways:
        return
    for way in ways:
        way["offer_data"] = offers[way["offer"]]
    spec = ctx.c.mysteries[mystery.card]
    if len(ways) == 1:
        settle_mystery_payment(ctx, hero, mystery.id, ways[0])
        return
    ctx.ask(MysteryPay(seat=hero.seat, hero=hero.id, mystery=mystery.id, ways=ways, detail=spec.name))


def settle_mystery_payment(ctx: Ctx, hero: Hero, mystery_id: str, way: dict[str, Any]) -> None:
    mystery = next((m for m in ctx.s.mysteries if m.id == mystery_id), None)
    if mystery is None:
        return
    spec = ctx.c.mysteries[mystery.card]
    offer = way["offer_data"]
    key = offer.get("key")
    if key is not None and key in mystery.keys:
        return
    make_payment(ctx, hero, way, f"the mystery {spec.name}")
    bound = {"mystery": mystery.id, "location": mystery.location}
    if key is not None:
        do = spec.data.get("keys", [])[key].get("do", [])
        ctx.then(
            [
                {
                    "op": "mystery_key",
                    "mystery": mystery.id,
                    "key": key,
                    "hero": hero.id,
                    "do": bind(do, **bound),
                }
            ]
        )
    else:
        ctx.then(bind(offer.get("do", []), **bound), hero=hero.id)


def mystery_pay_choices(s: State, d: MysteryPay) -> list[Choice]:
    return ways_choices(d, "Pay nothing")


@decision(MysteryPay, mystery_pay_choices)
def resolve_mystery_pay(ctx: Ctx, d: MysteryPay, type_: str, args: dict[str, Any]) -> None:
    if type_ == "pay":
        settle_mystery_payment(ctx, ctx.s.heroes[d.hero], d.mystery, d.ways[args["way"]])


@step("clues_per_quest", "hero", "mystery", "n", "power", "why")
def clues_per_quest(ctx: Ctx, st: Step) -> None:
    """Gain ``n`` clues (default 1) for each quest in play (Common Knowledge: rumours of
    the kingdom's troubles, removed when playing without quests, DN 20.6)."""
    count = len(ctx.s.quests) * int(st.get("n", 1))
    if count:
        ctx.then(
            [{"op": "clues", "n": count, "why": st.get("why", "rumours of the quests in play")}],
            hero=st.get("hero"),
        )


@step("peek_darkness", "hero", "power", "why")
def peek_darkness(ctx: Ctx, st: Step) -> None:
    """Look at the top card of the darkness deck and leave it or put it at the bottom
    (By Starlight, removed when playing without the darkness deck, DN 20.7)."""
    hero = living_hero(ctx, st)
    deck = ctx.s.decks.get("darkness")
    if hero is None or deck is None or not deck.cards:
        return
    ctx.ask(PeekDarkness(seat=hero.seat, hero=hero.id, card=deck.cards[0], alone=len(deck.cards) == 1))


def peek_darkness_choices(s: State, d: PeekDarkness) -> list[Choice]:
    card = load().darkness[d.card]
    out = [Choice("leave_on_top", {}, f"Leave {card.name} on top", card.text)]
    if not d.alone:
        out.append(Choice("put_at_bottom", {}, f"Put {card.name} at the bottom", card.text))
    return out


@decision(PeekDarkness, peek_darkness_choices)
def resolve_peek_darkness(ctx: Ctx, d: PeekDarkness, type_: str, _a: dict[str, Any]) -> None:
    if type_ != "put_at_bottom" or d.card not in ctx.s.decks["darkness"].cards:
        return
    seat = ctx.s.heroes[d.hero].seat
    ctx.emit("CardDrawn", deck="darkness", card=d.card, reason="looked at", private_seat=seat)
    ctx.emit("CardReturned", deck="darkness", card=d.card, bottom=True, hero=d.hero, private_seat=seat)


@step("pray_at_mystery", "hero", "mystery", "power", "why")
def pray_at_mystery(ctx: Ctx, st: Step) -> None:
    """Pray away from the Monastery: 2 dice against 3, +1 grace per success up to default,
    then refresh your powers (the pray action, DN 8.0), at a holy place a mystery reveals."""
    hero = living_hero(ctx, st)
    if hero is None:
        return
    ctx.then([pray_roll(hero.id)])


# -- rewards and penalties ---------------------------------------------------------------


@step("reward_or_green_item", "do", "hero", "needs", "power", "why")
def reward_or_green_item(ctx: Ctx, st: Step) -> None:
    """A reward that needs game pieces (``needs = "power_deck" | "artifact_deck"``): when
    there are not enough, the hero may choose any green-backed item instead (DN 16.2)."""
    hero = living_hero(ctx, st)
    if hero is None:
        return
    needs = st.get("needs", "power_deck")
    if needs == "power_deck":
        enough = bool(hero.deck)
    elif needs == "artifact_deck":
        deck = ctx.s.decks["artifact"]
        enough = bool(deck.cards or deck.discard)
    else:
        raise ValueError(f"unknown reward need {needs!r}")
    if enough:
        ctx.then(st.get("do", []), hero=hero.id)
        return
    greens = [k for k, v in ctx.c.items.items() if v.back == "green" and ctx.s.item_stock.get(k, 0) > 0]
    if greens:
        ctx.ask(
            GreenItem(
                seat=hero.seat, hero=hero.id, options=greens, why=st.get("why", "a quest reward (DN 16.2)")
            )
        )
    else:
        ctx.emit("ItemUnavailable", hero=hero.id, kind="green-backed item")


@step("create_blight_of", "hero", "power", "type", "where", "why")
def create_blight_of(ctx: Ctx, st: Step) -> None:
    """Create a blight of a named ``type`` (the Zombie Horde expires into a Zombies blight,
    DN 16.3) at ``where`` (a location, "$location", "necromancer" or the hero's "here");
    with no token of that type left, the map deck decides instead (DN 11.1). A full
    location sends it to the Monastery (DN 11.1). Needs no hero unless ``where = "here"``."""
    where = st.get("where", "here")
    if where == "here":
        where = ctx.s.heroes[st["hero"]].location
    elif where == "necromancer":
        where = ctx.s.necromancer
    why = str(st.get("why") or "a card")
    blight_type = st["type"]
    if blight_type not in ctx.c.blights:
        raise ValueError(f"unknown blight type {blight_type!r}")
    if stock_of(ctx, blight_type) > 0:
        create_blight(ctx, where, why=why, blight_type=blight_type)
    else:
        create_blight(ctx, where, why=why)


@step("heroes_at", "do", "hero", "power", "where", "why")
def heroes_at(ctx: Ctx, st: Step) -> None:
    """Apply ``do`` to every living hero at ``where`` (a quest's "$location"): a penalty
    with no hero of its own, as when a quest expires (DN 16.3)."""
    steps: list[Step] = []
    for hero in ctx.s.heroes_at(st["where"]):
        steps += [dict(e) | {"hero": hero.id} for e in st.get("do", ())]
    ctx.then(steps)


@step("destroy_blight_at", "hero", "power", "where", "why")
def destroy_blight_at(ctx: Ctx, st: Step) -> None:
    """The hero destroys one blight of their choice at ``where`` (default: here), as a
    reward (DN 11.3: the token returns to the stock)."""
    hero = living_hero(ctx, st)
    if hero is None:
        return
    where = st.get("where", "here")
    if where == "here":
        where = hero.location
    blights = ctx.s.blights.get(where, [])
    if not blights:
        return
    if len(blights) == 1:
        ctx.then(
            [{"op": "destroy_blight", "hero": hero.id, "blight": blights[0].id, "why": st.get("why", "")}]
        )
        return
    ctx.ask(
        DestroyBlightAt(seat=hero.seat, hero=hero.id, blights=[b.id for b in blights], why=st.get("why", ""))
    )


def destroy_blight_at_choices(s: State, d: DestroyBlightAt) -> list[Choice]:
    out = []
    for blight_id in d.blights:
        found = s.find_blight(blight_id)
        if found:
            out.append(Choice("destroy", {"blight": blight_id}, f"Destroy the {found[1].type}", d.why))
    return out or [Choice("destroy_none", {}, "Nothing left to destroy", "")]


@decision(DestroyBlightAt, destroy_blight_at_choices)
def resolve_destroy_blight_at(ctx: Ctx, d: DestroyBlightAt, type_: str, args: dict[str, Any]) -> None:
    if type_ == "destroy":
        ctx.then([{"op": "destroy_blight", "hero": d.hero, "blight": args["blight"], "why": d.why}])
