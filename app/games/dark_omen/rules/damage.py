"""The damage rolls of a battle (DO L409-422, L430, L436, L467): the dice paired
(``combat.strikes``), each winning die a damage roll in order; the enemy's less each hero's
armour, at least 1, a ward rune or a raised shield turning a blow (DO L155, L339); the
heroes' weapon roll plus bonuses less the enemy's armour, direct damage on top (DO L384);
a ranged attack's rush (DO L363-365, facts §15); a boss's phases after each attack.
"""

from __future__ import annotations

from typing import Any

from app.games.dark_omen.engine import DoCtx
from app.games.dark_omen.rules.combat import contributed, ordered, strikes
from app.games.dark_omen.rules.creatures import boss_phases, creature_slain, hurt_creature
from app.games.dark_omen.rules.heroes import change, name_of, roll_spec
from app.games.dark_omen.rules.omens import fury
from app.games.dark_omen.rules.runes import ward
from app.games.dark_omen.rules.stats import armor, creature_effect, damage_bonus, direct_damage, weapon_roll
from app.games.dark_omen.state import Battle, Creature


def agreed_order(order: list[tuple[int, int]], votes: dict[str, int]) -> list[tuple[int, int]]:
    """Within a run of equal dice, a hero every tied player named goes first (DO L428)."""
    out = list(order)
    i = 0
    while i < len(out):
        j = i
        while j + 1 < len(out) and out[j + 1][1] == out[i][1]:
            j += 1
        group = out[i : j + 1]
        seats = {seat for seat, _ in group}
        named = {votes.get(str(seat)) for seat in seats}
        if len(seats) > 1 and len(named) == 1 and next(iter(named)) in seats:
            first = next(iter(named))
            out[i : j + 1] = sorted(group, key=lambda item: item[0] != first)
        i = j + 1
    return out


def unblocked_picker(ctx: DoCtx, p: Battle) -> Any:
    """The table option for whom an unblocked enemy die hits (DO L430, L467)."""
    rule = ctx.s.options.get("unblocked_target", "lowest")
    heroes = ctx.s.heroes

    def dice_of(seat: int) -> list[int]:
        return sorted(p.dice[str(seat)], reverse=True)

    def pick(seats: list[int]) -> int:
        match rule:
            case "strongest":
                return min(seats, key=lambda x: (-dice_of(x)[0], x))
            case "weakest":
                return min(seats, key=lambda x: (dice_of(x)[0], x))
            case "most_hp":
                return min(seats, key=lambda x: (-heroes[x].hp, x))
            case "least_hp":
                return min(seats, key=lambda x: (heroes[x].hp, x))
        return min(seats, key=lambda x: (dice_of(x)[0], x))

    return None if rule == "lowest" else pick


def resolve_battle(ctx: DoCtx, p: Battle) -> None:
    """Pair the dice and resolve every damage roll in order (combat.strikes); the enemy
    DR is its card's roll minus each hero's armour, at least 1 (DO L412-414); a hero's DR
    is the weapon roll plus bonuses minus the enemy's armour (DO L416-419)."""
    s, c = ctx.s, ctx.c
    members = [m for m in p.members if s.heroes[m].alive]
    target = s.creature(p.creature)
    team = len(p.members) > 1
    outcomes: list[dict[str, Any]] = []
    slain_by: int | None = None
    shields = list(p.shields)
    if target is not None and members:
        contributions: dict[int, list[int]] = {}
        unused: dict[int, list[int]] = {}
        for m in members:
            contributions[m], unused[m] = contributed(p.dice[str(m)], m in p.heroic, team)
        order = agreed_order(ordered(contributions, unused), p.tie_votes)
        if not team:
            order = [(members[0], d) for d in contributions[members[0]]]
        hits = strikes(p.enemy, order, solo=not team, unblocked_target=unblocked_picker(ctx, p))
        for hit in hits:
            if target.hp <= 0 or not any(s.heroes[m].alive for m in members):
                break
            if hit.by == "enemy":
                victims = [v for v in hit.seats if s.heroes[v].alive and v not in p.ranged]
                if not victims:
                    continue
                roll = roll_spec(ctx, target.dr) + fury(s, c)
                roll += creature_effect(s, c, target, "damage")
                direct = creature_effect(s, c, target, "direct")
                wound = creature_effect(s, c, target, "wound")
                for v in victims:
                    if ward(ctx, v):
                        outcomes.append({"by": "enemy", "seat": v, "roll": roll, "damage": 0, "warded": True})
                        continue
                    if v in shields:
                        shields.remove(v)
                        if shield_blocks(ctx, v):
                            outcomes.append(
                                {"by": "enemy", "seat": v, "roll": roll, "damage": 0, "shielded": True}
                            )
                            continue
                    damage = max(1, roll - armor(s, c, v)) + direct
                    outcomes.append({"by": "enemy", "seat": v, "roll": roll, "damage": damage})
                    change(ctx, v, f"the {name_of(target)}'s blow", hp=-damage, max_hp=-wound)
            else:
                striker = hit.seats[0]
                if not s.heroes[striker].alive:
                    continue
                if s.heroes[striker].effects.get("black", 0) >= 3:
                    if s.heroes[striker].mp < 1:
                        continue
                    change(ctx, striker, "three black tokens (DO L541)", mp=-1)
                roll = roll_spec(ctx, weapon_roll(s, c, striker))
                enemy_armor = int(target.armor) + creature_effect(s, c, target, "armor")
                damage = max(0, roll + damage_bonus(s, c, striker) - enemy_armor)
                damage += direct_damage(s, c, striker)
                outcomes.append({"by": "hero", "seat": striker, "roll": roll, "damage": damage})
                hurt_creature(ctx, target, damage, striker, announce=False)
                if target.hp <= 0:
                    slain_by = striker
    ctx.emit("BattleEnded", creature=p.creature, members=p.members, strikes=outcomes)
    if target is not None and target.hp <= 0:
        creature_slain(ctx, target, slain_by if slain_by is not None else members[0])
    elif target is not None and p.ranged:
        rush(ctx, target, p)
    if target is not None and target.kind == "boss" and target in s.creatures:
        boss_phases(ctx, "after_attack")


def shield_blocks(ctx: DoCtx, seat: int) -> bool:
    """Spend one of the raised shield's tokens, if it still has one (DO L339)."""
    h = ctx.s.heroes[seat]
    gid = h.equipped.get("shield")
    if gid is None or h.charges.get(gid, 0) <= 0:
        return False
    ctx.emit("ChargesSet", seat=seat, gear=gid, n=h.charges[gid] - 1, why="a shield token turned a blow")
    return True


def rush(ctx: DoCtx, target: Creature, p: Battle) -> None:
    """A ranged attack enrages the enemy: it rushes to the ranged attacker with the least
    HP + MP, unless a melee attacker was on its space (DO L363-365, facts §15)."""
    s = ctx.s
    if any(m not in p.ranged for m in p.members):
        return
    living = [m for m in p.ranged if s.heroes[m].alive]
    if not living:
        return
    seat = min(living, key=lambda m: (s.heroes[m].hp + s.heroes[m].mp, m))
    ctx.emit("CreatureMoved", creature=target.id, to=s.heroes[seat].at, why="rushes the ranged attacker")
