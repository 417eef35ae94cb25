"""Where the monsters can strike next (AtD L209-221): each monster's reach after its move,
and the damage a character standing on a square would take in the next monster phase. The
bot keeps a character just outside that reach when it cannot strike first, so the monster
walks up and the character hits before it does.

A monster's turn (``rules/monsters.py``) moves it by its behaviour, then makes its attacks,
each at the foe in range with the lowest HP. The reach here is a little wider than the
monster's real move (it may walk another way): the bot errs on the side of caution. Works
for both sides of the Arena as well, where the foes are the other teams' characters."""

from __future__ import annotations

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.grid import Square, chebyshev, line_of_sight, reachable
from app.games.attack_the_darkness.rules.advancement import adv_bonus
from app.games.attack_the_darkness.rules.health import penalty
from app.games.attack_the_darkness.rules.query import occupied
from app.games.attack_the_darkness.state import State

C = load()

DISTANCE = {"melee": 1, "reach": 2}


class Striker:
    """A monster that may attack next monster phase, with the squares it may strike: a
    melee or reach attacker's reach after its move; a ranged one shoots from where it
    stands when a foe is in its sight (it keeps its range, AtD L220), else from wherever
    its move takes it (``advance``)."""

    __slots__ = ("mid", "blow", "blows", "zone", "posts", "_seen")

    def __init__(
        self, mid: str, blow: int, blows: int, zone: frozenset[Square], posts: tuple[Square, ...]
    ) -> None:
        self.mid = mid
        self.blow = blow
        """Each attack's damage (less a damage penalty)."""
        self.blows = blows
        """Its attacks in a turn."""
        self.zone = zone
        """Melee or reach: the squares its attack reaches after its move."""
        self.posts = posts
        """Ranged: the squares it may shoot from."""
        self._seen: dict[Square, bool] = {}

    def hits(self, open_squares: frozenset[Square], sq: Square) -> bool:
        if not self.posts:
            return sq in self.zone
        found = self._seen.get(sq)
        if found is None:
            found = any(chebyshev(p, sq) >= 2 and line_of_sight(open_squares, p, sq) for p in self.posts)
            self._seen[sq] = found
        return found


_CACHE: dict[tuple[object, ...], tuple[Striker, ...]] = {}


def strikers(s: State) -> tuple[Striker, ...]:
    """The monsters fighting the characters that can attack next monster phase (a stunned
    or dominated one cannot, AtD L74-75), cached by what they depend on."""
    key = (
        s.round,
        tuple((mid, m.pos, m.stunned, m.immobilized, m.dominated) for mid, m in s.monsters.items()),
        tuple(ch.pos for ch in s.chars),
        tuple((t.x, t.y, t.o) for t in s.tiles),
    )
    found = _CACHE.get(key)
    if found is None:
        found = tuple(_striker(s, mid) for mid in s.monsters if _fights(s, mid))
        if len(_CACHE) > 2000:
            _CACHE.clear()
        _CACHE[key] = found
    return found


def _fights(s: State, mid: str) -> bool:
    m = s.monsters[mid]
    return m.dominated <= s.round and m.stunned <= s.round and m.hp > 0


def _striker(s: State, mid: str) -> Striker:
    m = s.monsters[mid]
    card = C.monsters[m.card]
    blow = max(0, int(card.attacks["damage"]) - penalty(s, mid, "damage"))
    blows = int(card.attacks["count"])
    walk = 0 if m.immobilized > s.round else int(card.maneuver["count"]) * int(card.maneuver["move"])
    kind = card.attacks["distance"]
    squares = s.open_squares()
    taken = occupied(s) - {m.pos}
    if kind == "ranged":
        foes = [ch.pos for ch in s.chars if ch.hp > 0 and ch.pos is not None]
        in_sight = any(chebyshev(m.pos, f) >= 2 and line_of_sight(squares, m.pos, f) for f in foes)
        if in_sight or not walk:
            return Striker(mid, blow, blows, frozenset(), (m.pos,))
        ends = reachable(squares, m.pos, walk, blocked=set(), occupied=taken)
        return Striker(mid, blow, blows, frozenset(), (m.pos, *sorted(ends)))
    ends = reachable(squares, m.pos, walk, blocked=set(), occupied=taken) if walk else {}
    reach = DISTANCE.get(kind, 1)
    zone = {
        (x + i, y + j)
        for x, y in [m.pos, *ends]
        for i in range(-reach, reach + 1)
        for j in range(-reach, reach + 1)
    }
    return Striker(mid, blow, blows, frozenset(zone & squares), ())


class Exposure:
    """The damage ``seat``'s character would take next monster phase standing on a square:
    each monster strikes the character in its reach with the lowest HP (AtD L211;
    ``monsters.best_target``). Only the characters whose turn is over this round stand
    where they will be struck; one still to act may walk away."""

    def __init__(self, s: State, seat: int) -> None:
        me = s.chars[seat]
        self.key = (me.hp, seat)
        self.save = adv_bonus(s, seat, "save")
        self.live = me.hp > 0 and not s.arena
        self.squares = s.open_squares()
        pending = to_strike(s)
        self.strikers = tuple(
            st for st in (strikers(s) if self.live else ()) if pending is None or st.mid in pending
        )
        settled = settled_seats(s)
        self.shields = [
            ch.pos
            for k, ch in enumerate(s.chars)
            if k != seat and k in settled and ch.hp > 0 and ch.pos and (ch.hp, k) < self.key
        ]

    def at(self, sq: Square) -> int:
        if not self.live:
            return 0
        total = 0
        for st in self.strikers:
            if st.hits(self.squares, sq) and not any(st.hits(self.squares, w) for w in self.shields):  # type: ignore[arg-type]
                total += max(0, st.blow - self.save) * st.blows
        return total


def incoming(s: State, seat: int, sq: Square | None = None) -> int:
    """``Exposure`` at ``sq`` (the character's own square by default)."""
    here = s.chars[seat].pos if sq is None else sq
    return 0 if here is None else Exposure(s, seat).at(here)


MONSTER_STEPS = ("monster_turn", "monster_attack", "hit")


def to_strike(s: State) -> set[str] | None:
    """In the monster phase, the monsters still to act (AtD L270); None before it."""
    pending = {st.get("monster") or st.get("source") for st in s.agenda if st.get("op") in MONSTER_STEPS}
    return pending or None  # type: ignore[return-value]


def settled_seats(s: State) -> set[int]:
    """The seats whose turn this round is over: all of them in the monster phase, those
    before the player whose turn it is in the player phase, none between rounds."""
    if to_strike(s) is not None:
        return set(range(len(s.chars)))
    if s.turn is None:
        return set()
    return set(s.order[: s.order.index(s.turn)]) if s.turn in s.order else set()
