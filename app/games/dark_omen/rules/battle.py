"""The attack (DO L361-365, L399-408, L423-436, L459-470, facts §21): who may attack what
(on its space, or in range along a clear line), the attack roll of a solo or heroic attack,
the boost window (2 MP for +1, the Courage potion's 7, a raised shield, the tied players'
order) and team attacks (proposed, joined or declined, launched with one roll for all).
The dice pairing is ``combat.py``; the damage rolls that follow are ``damage.py``.
"""

from __future__ import annotations

from typing import Any

from app.games.dark_omen.board import line_of_sight
from app.games.dark_omen.content import Content, load
from app.games.dark_omen.engine import DoCtx, action
from app.games.dark_omen.rules.creatures import reveal
from app.games.dark_omen.rules.damage import resolve_battle
from app.games.dark_omen.rules.heroes import (
    ap_left,
    ch,
    change,
    d6,
    face,
    faces,
    level,
    name_of,
    spend_ap,
    spend_tokens,
)
from app.games.dark_omen.rules.stats import (
    attack_bonus,
    creature_effect,
    hero_dice,
    heroic_cost,
    side_of,
    weapon_range,
)
from app.games.dark_omen.state import Battle, Creature, Hero, State, TeamAttack
from app.kernel.types import Choice


def can_reach(s: State, seat: int, cid: str) -> bool:
    """On the enemy's space, or within weapon range in a straight clear line (DO L365)."""
    c = load()
    target = s.creature(cid)
    h = s.heroes[seat]
    if target is None:
        return False
    if target.space == h.at:
        return True
    reach = weapon_range(s, c, seat)
    if reach <= 0 or not isinstance(h.at, int) or not isinstance(target.space, int):
        return False
    steps = line_of_sight(side_of(s, c), h.at, target.space, s.layers)
    return steps is not None and steps <= reach


def engaged_by(s: State, cid: str) -> int | None:
    """The seat whose battle or team attack holds this creature (facts §21: the target is
    reserved until it resolves)."""
    for h in s.heroes:
        p = h.pending
        if p and p.kind in ("battle", "team") and p.creature == cid:
            return h.seat
    return None


def team_allies(s: State, seat: int, cid: str) -> list[int]:
    return [
        o.seat
        for o in s.heroes
        if o.seat != seat
        and o.alive
        and not o.done
        and o.pending is None
        and ap_left(o) >= 1
        and joined_leader(s, o.seat) is None
    ]


def joined_leader(s: State, seat: int) -> int | None:
    """The leader of the team attack this seat joined and is committed to until it is
    launched or withdrawn (facts §21: members spend no AP elsewhere until it resolves)."""
    for other in s.heroes:
        p = other.pending
        if isinstance(p, TeamAttack) and seat in p.joined:
            return other.seat
    return None


def member_choices(s: State, h: Hero, leader: int) -> list[Choice]:
    """A member who joined a team attack waits for its launch (DO L212: team actions wait
    for the allies, then are spent together; facts §21: no AP elsewhere meanwhile): the
    only way out is to leave the team attack, before it is launched."""
    return [ch("leave_team", h.seat, f"Leave {s.names[leader]}\u2019s team attack", leader=leader)]


def attack_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """Every enemy in reach that no other seat's battle holds: a solo attack, a heroic one
    from chapter 3 (DO L462), or a team attack proposed to the others (DO L424-425)."""
    seat = h.seat
    out: list[Choice] = []
    for target in s.creatures:
        if can_reach(s, seat, target.id) and engaged_by(s, target.id) in (None, seat):
            out.append(ch("attack", seat, f"Attack the {name_of(target)} (1 AP)", creature=target.id))
            if level(s) >= 3 and h.mp >= heroic_cost(s, c, seat):
                out.append(
                    ch(
                        "attack",
                        seat,
                        f"Heroic attack on the {name_of(target)}",
                        creature=target.id,
                        heroic=True,
                    )
                )
            allies = team_allies(s, seat, target.id)
            if allies:
                out.append(
                    ch(
                        "propose_team",
                        seat,
                        f"Propose a team attack on the {name_of(target)}",
                        creature=target.id,
                    )
                )
    return out


def team_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """The proposer of a team attack launches it once someone joined, or withdraws it."""
    p = h.pending
    assert isinstance(p, TeamAttack)
    out = [ch("withdraw_team", h.seat, "Withdraw the team attack")]
    if p.joined:
        out.insert(0, ch("launch_team", h.seat, f"Launch the team attack ({1 + len(p.joined)} heroes)"))
    return out


def battle_choices(s: State, c: Content, h: Hero) -> list[Choice]:
    """The boost window (DO L404-406): 2 MP for +1 on one of your dice, never past 6; the
    Courage potion sets a die to 7 (DO L273); in a team only your contributed die(s)."""
    p = h.pending
    assert isinstance(p, Battle)
    seat = h.seat
    if seat in p.ready:
        return []
    team = len(p.members) > 1
    dice = p.dice[str(seat)]
    usable = contributed_indices(dice, seat in p.heroic, team)
    out: list[Choice] = []
    for i in usable:
        if dice[i] < 6 and h.mp >= 2:
            out.append(ch("boost", seat, f"Boost your {dice[i]} to {dice[i] + 1} (2 MP)", index=i))
    shield = h.equipped.get("shield")
    if shield is not None and h.charges.get(shield, 0) > 0 and seat not in p.shields:
        name = c.gear[shield]["name"]
        out.append(ch("raise_shield", seat, f"Raise the {name}: a token turns the next blow (DO L339)"))
    held = faces(c, h.inventory)
    if held["herb_blue"] and held["herb_yellow"]:
        for i in usable:
            out.append(ch("courage", seat, f"Brew Courage: your {dice[i]} becomes 7", index=i))
    if team:
        out += tie_choices(s, h)
    label = "Resolve the attack" if not team else "Ready"
    out.append(ch("finalize", seat, label))
    return out


def tie_choices(s: State, h: Hero) -> list[Choice]:
    """Heroes whose contributed dice tie choose who faces the enemy first (DO L428); if the
    tied players name the same hero, that order stands (facts §21)."""
    p = h.pending
    assert isinstance(p, Battle)
    mine = max(p.dice[str(h.seat)])
    tied = [m for m in p.members if m != h.seat and max(p.dice[str(m)]) == mine]
    if not tied:
        return []
    votes = p.tie_votes
    return [
        ch("tie_first", h.seat, f"{s.names[x]} faces the enemy first", first=x)
        for x in sorted([h.seat, *tied])
        if votes.get(str(h.seat)) != x
    ]


def contributed_indices(dice: list[int], heroic: bool, team: bool) -> list[int]:
    order = sorted(range(len(dice)), key=lambda i: -dice[i])
    if not team:
        return order
    return order[: 2 if heroic else 1]


def invitation_choices(s: State, seat: int) -> list[Choice]:
    """A team attack asks allies in reach to join or decline (DO L424-425)."""
    out = []
    for other in s.heroes:
        p = other.pending
        if p and p.kind == "team" and seat in p.invited:
            h = s.heroes[seat]
            if ap_left(h) >= 1 and not h.done and can_reach(s, seat, p.creature):
                out.append(ch("join_team", seat, f"Join {s.names[other.seat]}'s attack", leader=other.seat))
                if level(s) >= 3 and h.mp >= heroic_cost(s, load(), seat) and heroic_fits(s, p):
                    out.append(
                        ch("join_team", seat, "Join with a heroic attack", leader=other.seat, heroic=True)
                    )
            out.append(ch("decline_team", seat, f"Decline {s.names[other.seat]}'s attack", leader=other.seat))
    return out


def heroic_fits(s: State, p: TeamAttack) -> bool:
    """DO L463: no heroic die that would give the heroes more dice than the enemy. Judged on
    the team so far (the leader, those who joined, and this hero) once the enemy is known; a
    face-down token's dice stay hidden (DO L476), so launching drops what no longer fits."""
    target = s.creature(p.creature)
    if target is None:
        return False
    if target.card is None:
        return True
    members = 2 + len(p.joined)
    dice = int(target.dice) + creature_effect(s, load(), target, "dice")
    return members + len(p.heroic) + 1 <= dice


@action("attack")
def do_attack(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """1 AP, then the attack roll: 1 die in chapter 1, 2 after, +1 heroic (5 MP, declared
    before rolling, DO L402-408); the enemy rolls its level's dice."""
    s, c = ctx.s, ctx.c
    h = s.heroes[seat]
    target = s.creature(args["creature"])
    assert target is not None
    heroic = bool(args.get("heroic"))
    spend_ap(ctx, seat, 1, "attack", engaged=True)
    if heroic:
        change(ctx, seat, "a heroic attack", mp=-heroic_cost(s, c, seat))
    reveal(ctx, target)
    n = hero_dice(s) + (1 if heroic else 0)
    ranged = [seat] if target.space != h.at else []
    ctx.emit(
        "AttackRolled",
        creature=target.id,
        members=[seat],
        dice={str(seat): hero_roll(ctx, seat, n)},
        enemy=enemy_roll(ctx, target),
        ranged=ranged,
        heroic=[seat] if heroic else [],
    )


def hero_roll(ctx: DoCtx, seat: int, n: int) -> list[int]:
    """A hero's attack dice, each with the gear and rune modifiers on attack rolls (DO L404),
    never below 1."""
    bonus = attack_bonus(ctx.s, ctx.c, seat)
    return [max(1, d6(ctx) + bonus) for _ in range(n)]


def enemy_dice(ctx: DoCtx, target: Creature) -> int:
    """Its level's dice (DO L402) or its card's, plus any its effects add (DO L395)."""
    return int(target.dice) + creature_effect(ctx.s, ctx.c, target, "dice")


def enemy_roll(ctx: DoCtx, target: Creature) -> list[int]:
    """The enemy's attack dice, each with its card's modifier (a boss's "+1", DO L493)."""
    bonus = creature_effect(ctx.s, ctx.c, target, "attack")
    return [max(1, d6(ctx) + bonus) for _ in range(enemy_dice(ctx, target))]


@action("raise_shield")
def do_raise_shield(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """A shield's token, spent, takes 0 damage from one attack (DO L339): raised in the
    boost window, it turns the next enemy blow on this hero in this battle."""
    ctx.emit("ShieldRaised", seat=seat, gear=ctx.s.heroes[seat].equipped["shield"])


@action("boost")
def do_boost(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    p = ctx.s.heroes[seat].pending
    assert isinstance(p, Battle)
    die = p.dice[str(seat)][args["index"]]
    ctx.emit("DieBoosted", seat=seat, index=args["index"], to=die + 1, mp=2)


@action("courage")
def do_courage(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Courage: set one attack die to 7 (DO L273), brewed from a blue and a yellow herb."""
    h = ctx.s.heroes[seat]
    tokens = [
        next(t for t in h.inventory if face(ctx.c, t) == "herb_blue"),
        next(t for t in h.inventory if face(ctx.c, t) == "herb_yellow"),
    ]
    spend_tokens(ctx, seat, tokens, "brewing courage")
    ctx.emit("DieBoosted", seat=seat, index=args["index"], to=7, mp=0)


@action("tie_first")
def do_tie_first(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit("TieVoted", seat=seat, first=args["first"])


@action("finalize")
def do_finalize(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    h = ctx.s.heroes[seat]
    p = h.pending
    assert isinstance(p, Battle)
    ctx.emit("BattleReady", seat=seat)
    p = h.pending
    assert isinstance(p, Battle)
    living = [m for m in p.members if ctx.s.heroes[m].alive]
    if all(m in p.ready for m in living):
        resolve_battle(ctx, p)


@action("propose_team")
def do_propose_team(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit(
        "TeamProposed",
        seat=seat,
        creature=args["creature"],
        invited=team_allies(ctx.s, seat, args["creature"]),
    )


@action("join_team")
def do_join_team(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit("TeamAnswered", seat=seat, leader=args["leader"], join=True, heroic=bool(args.get("heroic")))


@action("decline_team")
def do_decline_team(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit("TeamAnswered", seat=seat, leader=args["leader"], join=False)
    p = ctx.s.heroes[args["leader"]].pending
    if isinstance(p, TeamAttack) and not p.invited and not p.joined:
        ctx.emit("TeamWithdrawn", seat=args["leader"], why="nobody joined")


@action("leave_team")
def do_leave_team(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """A member leaves a team attack before its launch (facts §21); if nobody is left to
    join or to answer, the attack is withdrawn."""
    leader = args["leader"]
    ctx.emit("TeamLeft", seat=seat, leader=leader)
    p = ctx.s.heroes[leader].pending
    if isinstance(p, TeamAttack) and not p.invited and not p.joined:
        ctx.emit("TeamWithdrawn", seat=leader, why="nobody joined")


def decline_invitations(ctx: DoCtx, seat: int) -> None:
    """A seat that ends its round answers every team attack still asking it with a no
    (DO L211: it has given up the round's AP)."""
    for other in ctx.s.heroes:
        p = other.pending
        if isinstance(p, TeamAttack) and seat in p.invited:
            do_decline_team(ctx, seat, {"leader": other.seat})


@action("withdraw_team")
def do_withdraw_team(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    ctx.emit("TeamWithdrawn", seat=seat, why="withdrawn")


@action("launch_team")
def do_launch_team(ctx: DoCtx, seat: int, args: dict[str, Any]) -> None:
    """Launching spends an AP from each member; one roll for all (facts §21); a heroic that
    would give the heroes more dice than the enemy is refused (DO L463). Only members still
    in the round are pulled in (DO L211: a seat done with the round spends no more AP); if
    none is left, the attack is withdrawn and the log says so."""
    s, c = ctx.s, ctx.c
    p = s.heroes[seat].pending
    assert isinstance(p, TeamAttack)
    target = s.creature(p.creature)
    members = [seat] + [
        m
        for m in p.joined
        if s.heroes[m].alive
        and not s.heroes[m].done
        and ap_left(s.heroes[m]) >= 1
        and can_reach(s, m, p.creature)
    ]
    if target is None:
        ctx.emit("TeamWithdrawn", seat=seat, why="the enemy is gone")
        return
    if len(members) < 2:
        ctx.emit("TeamWithdrawn", seat=seat, why="no member can still join")
        return
    ctx.emit("TeamWithdrawn", seat=seat, why="launched")
    reveal(ctx, target)
    heroic: list[int] = []
    for m in p.heroic:
        if m in members and len(members) + len(heroic) + 1 <= enemy_dice(ctx, target):
            heroic.append(m)
    for m in members:
        spend_ap(ctx, m, 1, "team attack", engaged=True)
    for m in heroic:
        change(ctx, m, "a heroic attack", mp=-heroic_cost(s, c, m))
    dice = {str(m): hero_roll(ctx, m, hero_dice(s) + (1 if m in heroic else 0)) for m in members}
    ranged = [m for m in members if s.heroes[m].at != target.space]
    ctx.emit(
        "AttackRolled",
        creature=target.id,
        members=members,
        dice=dice,
        enemy=enemy_roll(ctx, target),
        ranged=ranged,
        heroic=heroic,
    )
