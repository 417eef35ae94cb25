"""Paying for an action card (AtD L115-143, L174-178, L192): resource units by colour, the
cost matched to the chosen resource cards (X takes every matching unit left), Hearty's
unspent Stamina, conditions (discards, HP: AtD L140, L181-182; Prepared, AtD L308), Arena
immobilization doubling a Maneuver card's cost (AtD L293), equipment added as a modifier
(AtD L205, L208), and the ``pay`` question that ends with the card declared (AtD L143)."""

from __future__ import annotations

from typing import Any

from app.games.attack_the_darkness.content import COLOURS, ActionCard, load
from app.games.attack_the_darkness.decisions import Act, Defend, Pay
from app.games.attack_the_darkness.engine import RULES, Ctx
from app.games.attack_the_darkness.rules.equipment import equipment_key, equipment_pool, usable_equipment
from app.games.attack_the_darkness.rules.query import action, defense_parts, own_turn_parts
from app.games.attack_the_darkness.state import State
from app.kernel.flow import Step
from app.kernel.types import Choice

C = load()


def cost_parts(s: State, seat: int, card: ActionCard) -> list[tuple[int | None, str]]:
    """The cost to pay: Arena immobilization doubles a Maneuver card's cost (AtD L293)."""
    parts = list(card.cost.parts)
    if s.arena and "maneuver" in card.types and s.chars[seat].statuses.get("immobilized", 0) > s.round:
        parts = [(None if n is None else 2 * n, c) for n, c in parts]
    return parts


def units_of(s: State, rcs: list[str]) -> list[str]:
    """Resource units the chosen RCs provide, each as the resources it may be (AtD L124)."""
    out: list[str] = []
    for inst in rcs:
        for amount, kinds in C.resources[s.cards[inst]].resources:
            out.extend([kinds] * amount)
    return out


def pay_plan(units: list[str], parts: list[tuple[int | None, str]]) -> tuple[bool, int]:
    """Can ``units`` pay the cost (each unit a resource it may be)? Returns (paid, x): for
    an X cost, X = the units that can pay its colour, at least 1 (AtD L176)."""
    fixed = [COLOURS[c] for n, c in parts if n is not None for _ in range(n)]
    x_colour = next((c for n, c in parts if n is None), None)
    match = _match(units, fixed)
    if match is None:
        return False, 0
    if x_colour is None:
        return True, 0
    spare = [u for i, u in enumerate(units) if i not in match]
    x = sum(1 for u in spare if set(u) & set(COLOURS[x_colour]))
    return x >= 1, x


def _match(units: list[str], needs: list[str]) -> set[int] | None:
    """A bipartite matching of cost units to resource units (tiny: backtracking)."""
    used: dict[int, int] = {}

    def place(k: int, seen: set[int]) -> bool:
        for i, u in enumerate(units):
            if i in seen or not set(u) & set(needs[k]):
                continue
            seen.add(i)
            if i not in used or place(used[i], seen):
                used[i] = k
                return True
        return False

    for k in range(len(needs)):
        if not place(k, set()):
            return None
    return set(used)


def spent_units(units: list[str], parts: list[tuple[int | None, str]]) -> int:
    """How many of ``units`` the cost uses (all matching units go to an X cost)."""
    fixed = sum(n for n, _ in parts if n is not None)
    paid, x = pay_plan(units, parts)
    return fixed + x if paid else 0


def leftover_units(s: State, seat: int) -> list[str]:
    return ["S"] * s.leftover.get(str(seat), 0)


def rc_usable(s: State, inst: str, card: ActionCard) -> bool:
    """An RC powers an AC it may modify (Envenomed: attacks only, AtD L127)."""
    rc = C.resources[s.cards[inst]]
    return not (rc.attack_only and "attack" not in card.types)


def condition_need(s: State, seat: int, card: ActionCard, rcs: list[str]) -> tuple[int, int]:
    """(cards to discard, HP to lose) for the AC's and RCs' conditions (AtD L140, L181-182);
    Prepared makes each discarded card count double (AtD L308: ⌈N/2⌉ cards)."""
    discard = int(card.condition.get("discard", 0))
    lose = 0
    double = False
    for inst in rcs:
        rc = C.resources[s.cards[inst]]
        discard += int(rc.condition.get("discard", 0))
        lose += int(rc.condition.get("lose_hp", 0))
        double = double or rc.modifier("double_discards") > 0
    if double:
        discard = (discard + 1) // 2
    return discard, lose


def discardable(s: State, seat: int, card: ActionCard, hand_excluded: set[str]) -> list[str]:
    ch = s.chars[seat]
    pool = [c for c in ch.hand_a + ch.hand_r if c not in hand_excluded]
    kind = card.condition.get("discard_type")
    if kind:
        pool = [c for c in pool if c in ch.hand_a and kind in C.actions[s.cards[c]].types]
    return pool


def pay_choices(s: State, d: Pay) -> list[Any]:
    seat = int(d.seat)
    ch = s.chars[seat]
    card = action(s, d.card)
    out = []
    seen: set[str] = set()
    for r in ch.hand_r:
        if r in d.rcs or s.cards[r] in seen or not rc_usable(s, r, card):
            continue
        seen.add(s.cards[r])
        out.append(Choice("add", {"rc": r}, f"Add {C.resources[s.cards[r]].name}"))
    if d.context == "turn":
        for item in modifier_equipment(s, seat, d):
            eq = C.equipment[s.cards[item]]
            bonus = ", ".join(f"+{e['n']} {e['op'].removeprefix('bonus_')}" for e in eq.modifies["effects"])
            need = int(eq.condition.get("discard", 0))
            cost = f"; discard {need} {eq.condition.get('discard_type', 'card')}" if need else ""
            out.append(Choice("modify", {"item": item}, f"Add {eq.name} ({bonus}{cost})"))
    if payment_ok(s, seat, d):
        out.append(Choice("done", {}, f"Declare {card.name}"))
    out.append(Choice("cancel", {}, "Back"))
    return out


def modifier_equipment(s: State, seat: int, d: Pay) -> list[str]:
    """Equipment that may be added to the card being paid for: unused this round or
    encounter, modifying one of its parts (Battle Axe: a melee attack, AtD L208), its
    condition payable besides the card's (facts file §7)."""
    card = action(s, d.card)
    parts = [card.parts[i] for i in own_turn_parts(card)]
    out = []
    for item in usable_equipment(s, seat):
        eq = C.equipment[s.cards[item]]
        if item in d.equipment or not any(eq.fits(p) for p in parts):
            continue
        if mods_payable(s, seat, d.replace(equipment=[*d.equipment, item])):
            out.append(item)
    return out


def mods_payable(s: State, seat: int, d: Pay) -> bool:
    """The equipment's discards come from the hand besides the card, its resource cards and
    what the card's own condition needs (checked conservatively: no card counted twice)."""
    card = action(s, d.card)
    taken: set[str] = {d.card, *d.rcs}
    for item in d.equipment:
        need = int(C.equipment[s.cards[item]].condition.get("discard", 0))
        pool = equipment_pool(s, seat, item, taken)
        if len(pool) < need:
            return False
        taken |= set(pool[:need])
    need, _ = condition_need(s, seat, card, d.rcs)
    return len(discardable(s, seat, card, taken)) >= need


def payment_plan(
    s: State, seat: int, card: str, chosen: list[str] | None = None, equipment: list[str] | None = None
) -> list[str] | None:
    """The fewest resource cards (adding the most useful first) that pay for ``card`` and
    leave its condition payable (and the discards of the ``equipment`` added to it); None
    when none do: the card is not offered (AtD L140, L143). Remembered by everything it
    reads (the prompts and the bot ask it many times a turn)."""
    ch = s.chars[seat]
    cards = s.cards
    immobilized = s.arena and ch.statuses.get("immobilized", 0) > s.round
    key = (
        seat,
        card,
        cards[card],
        tuple(chosen or ()),
        tuple((e, cards[e]) for e in equipment or ()),
        tuple((c, cards[c]) for c in ch.hand_a),
        tuple((r, cards[r]) for r in ch.hand_r),
        s.leftover.get(str(seat), 0),
        ch.hp,
        immobilized,
    )
    found = _PLANS.get(key, _UNKNOWN)
    if found is _UNKNOWN:
        found = _payment_plan(s, seat, card, chosen, equipment)
        if len(_PLANS) > 50_000:
            _PLANS.clear()
        _PLANS[key] = found
    return None if found is None else list(found)  # type: ignore[arg-type]


_PLANS: dict[tuple[object, ...], object] = {}
_UNKNOWN = object()


def _payment_plan(
    s: State, seat: int, card: str, chosen: list[str] | None = None, equipment: list[str] | None = None
) -> list[str] | None:
    ac = action(s, card)
    chosen = list(chosen or [])
    usable = [r for r in s.chars[seat].hand_r if rc_usable(s, r, ac) and r not in chosen]
    ranked = sorted(
        usable,
        key=lambda r: (
            -sum(a for a, _ in C.resources[s.cards[r]].resources),
            bool(C.resources[s.cards[r]].condition),
            r,
        ),
    )
    mods = list(equipment or [])
    extra: list[str] = []
    for r in [None, *ranked]:
        if r is not None:
            extra.append(r)
        if payment_ok(s, seat, Pay(seat=seat, card=card, rcs=chosen + extra, equipment=mods)):
            return extra
    return None


def payment(s: State, seat: int, d: Pay) -> tuple[bool, int, int, bool]:
    """(paid, X, Hearty leftover after, leftover used) for the chosen RCs (AtD L143, L192)."""
    card = action(s, d.card)
    parts = cost_parts(s, seat, card)
    units = units_of(s, d.rcs)
    if not parts:
        return True, 0, 0, False
    paid, x = pay_plan(units, parts)
    used_left = False
    if not paid and s.leftover.get(str(seat)):
        paid, x = pay_plan(units + leftover_units(s, seat), parts)
        used_left = paid
    if not paid:
        return False, 0, 0, False
    split = [r for r in d.rcs if C.resources[s.cards[r]].modifier("split")]
    left = 0
    if split and not used_left:
        spent = spent_units(units, parts)
        split_units = sum(a for r in split for a, _ in C.resources[s.cards[r]].resources)
        left = max(0, min(split_units, len(units) - spent))
    return True, x, left, used_left


def payment_ok(s: State, seat: int, d: Pay) -> bool:
    card = action(s, d.card)
    paid, _, _, _ = payment(s, seat, d)
    if not paid:
        return False
    need, lose = condition_need(s, seat, card, d.rcs)
    pool = discardable(s, seat, card, {d.card, *d.rcs})
    if d.equipment and not mods_payable(s, seat, d):
        return False
    return len(pool) >= need and (lose == 0 or s.chars[seat].hp > lose)


def declare_card(ctx: Ctx, d: Pay) -> None:
    """The card is declared with the resource cards chosen (AtD L143): played, then its
    equipment's discards, its condition, each valid action type, the draws."""
    s = ctx.s
    seat = int(d.seat)
    _, x, left, _ = payment(s, seat, d)
    card = action(s, d.card)
    protect = d.resume.get("target") if d.resume else None
    ctx.emit(
        "CardPlayed",
        seat=seat,
        card=d.card,
        id=card.id,
        rcs=list(d.rcs),
        x=x,
        leftover=left,
        context=d.context,
        protect=protect,
    )
    steps: list[Step] = []
    for item in d.equipment:
        ctx.emit("EquipmentAdded", seat=seat, item=item, id=s.cards[item], key=equipment_key(s, item))
        need = int(C.equipment[s.cards[item]].condition.get("discard", 0))
        if need:
            steps.append({"op": "equip_discard", "seat": seat, "item": item, "left": need})
    parts = own_turn_parts(card) if d.context == "turn" else defense_parts(card)
    steps.append({"op": "play_condition", "seat": seat})
    steps += [{"op": "play_part", "seat": seat, "part": i} for i in parts]
    steps.append({"op": "finish_play", "seat": seat})
    if d.context == "turn":
        steps.append({"op": "act", "seat": seat})
    elif d.resume is not None:
        steps.append(dict(d.resume))
    ctx.then(steps)


@RULES.decision(Pay, pay_choices)
def resolve_pay(ctx: Ctx, d: Pay, type_: str, args: dict[str, Any]) -> None:
    seat = int(d.seat)
    if type_ == "add":
        ctx.ask(d.replace(rcs=[*d.rcs, args["rc"]]))
        return
    if type_ == "modify":
        ctx.ask(d.replace(equipment=[*d.equipment, args["item"]]))
        return
    if type_ == "cancel":
        if d.context == "turn":
            ctx.ask(Act(seat=seat))
        else:
            assert d.resume is not None
            r = d.resume
            if "attacker" in r:  # the window's step (rules/defence.py)
                attacker, target = r["attacker"], r["target"]
            else:  # a window opened before allies were asked: the attack step itself
                attacker = r["source"] if "source" in r else f"c{r['seat']}"
                target = r.get("target", r.get("who", ""))
            ctx.ask(Defend(seat=seat, attacker=attacker, target=target, resume=r))
        return
    declare_card(ctx, d)
