"""One plain line of the game log per event (already redacted for its viewer).

Events name a character by seat (``seat``, or ``"c0"`` as a target); the line names it by
player and class ("Ann's Champion moves to 3,11 (speed)", issue 13) from ``Names``, the
game's log context: the seats' names and classes, public on every page."""

from __future__ import annotations

from collections.abc import Mapping

from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.state import State
from app.kernel.types import Event

C = load()

Names = Mapping[int, tuple[str, str]]
"""Seat → (its player's name, its class's name)."""


class LogNames(dict[int, tuple[str, str]]):
    """``Names``, and each placed monster's name by id ("m6" → "Ooze"), as the board names
    its tokens (a monster is public once placed)."""

    def __init__(self, seats: Names, monsters: Mapping[str, str]) -> None:
        super().__init__(seats)
        self.monsters = monsters


def log_names(state: State) -> LogNames:
    """Each seat's player and class (both shown by every view, so public), and the name of
    every monster placed this game."""
    seats = {
        seat: (name, C.classes[cls].name if cls in C.classes else "")
        for seat, (name, cls) in enumerate(zip(state.names, state.classes, strict=False))
    }
    monsters = {mid: C.monsters[card].name for mid, card in state.monster_cards.items() if card in C.monsters}
    return LogNames(seats, monsters)


def seat_name(seat: int, names: Names | None) -> str:
    """A seat's character as "Ann's Champion"; "Player 1" for a line told without names."""
    player, cls = (names or {}).get(seat) or (f"Player {seat + 1}", "")
    return f"{player}'s {cls}" if cls else player


def _who(d: dict, names: Names | None, key: str = "who") -> str:
    w = d.get(key, "")
    if isinstance(w, str) and w.startswith("c"):
        return seat_name(int(w[1:]), names)
    if not w:
        return ""
    named = getattr(names, "monsters", {}).get(w)
    return f"{named} #{w[1:]}" if named else f"monster #{w[1:]}"


def counted(n: int, noun: str) -> str:
    """ "1 card", "2 cards": a count with its noun in the right number."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


MOVED_WHY = {
    "speed": "",
    "behaviour": " (its behaviour)",
    "condition": " (a condition)",
    "game master": " (the game master)",
    "stunned": " (stunned)",
}
"""Why a token moved, as the log says it: a move at speed needs no reason."""


def _upper(text: str) -> str:
    """The first letter raised ("monster #3" starts a line), the rest kept (names)."""
    return text[:1].upper() + text[1:]


PENALTY_STAT = {"save": "saves", "move": "movement", "damage": "damage"}
PENALTY_SPENT = {
    "save": "takes the save penalty on a save",
    "move": "moves with the movement penalty",
    "damage": "attacks with the damage penalty",
}


def _penalty(d: dict) -> str:
    """A penalty as the rulebook words it (AtD L295): for rounds, or (Arena) the next N uses."""
    what = f"−{d['n']} {PENALTY_STAT.get(d['stat'], d['stat'])}"
    if d.get("left") is not None:
        return f"{what} for the next {d['left']} use(s)"
    return f"{what} until round {d['until']}"


def _trade(give: str | None, take: str | None) -> str:
    """The event names equipment by card instance, which only the state can name; the
    board shows who holds what, so the line says only what kind of exchange it is."""
    if give and take:
        return "a piece of equipment in exchange for one"
    return "a piece of equipment as a gift" if give else "nothing, asking for a piece of equipment"


def describe_event(event: Event, names: Names | None = None) -> str:
    """The line of ``event``; ``names`` is ``log_names`` of the table (None: "Player 1")."""
    d = event.data
    seat = d.get("seat")
    p = seat_name(seat, names) if isinstance(seat, int) else ""
    w = _who(d, names)
    match event.type:
        case "AdventureBegan":
            return f"{d['mode'].title()}: {', '.join(d['names'])} enter {d['dungeon_names'][0]}."
        case "DungeonBegan":
            return f"{d['name']} begins."
        case "EncounterBegan":
            return f"Encounter: {d['name']}."
        case "DeckShuffled":
            what = f"{p} shuffles the {d['deck']}" if p else f"The {d['deck']} deck is shuffled"
            return f"{what} ({d['n']} cards)."
        case "CardsDrawn":
            return f"{p} draws {d['n_actions']} action and {d['n_resources']} resource cards."
        case "Fatigued":
            return f"{p} is fatigued: the hand is discarded (AtD L70)."
        case "FatigueEnded":
            return f"{p} reshuffles the discards and is no longer fatigued (AtD L71)."
        case "TilesDrawn":
            return f"{d['n']} dungeon cards are drawn face down as map tiles."
        case "TilePlaced":
            return "The stairs tile is placed." if d["stairs"] else f"A tile is placed at {d['x']},{d['y']}."
        case "TokenPlaced":
            return f"{p} takes position at {d['square'][0]},{d['square'][1]}."
        case "DangerSet":
            return f"Danger level {d['danger']} ({d['players']} players × {d['tiles']} tiles + advancements)."
        case "DungeonCardRevealed" if "id" not in d:
            return ""  # a Tabletop pick, as the players see it: told when placed
        case "DungeonCardRevealed":
            where = {
                "discard": "discarded",
                "line": "joins the line",
                "set_aside": "is set aside (incomplete boss set)",
                "seed": "seeds the next encounter",
                "dug": "is dug up",
            }.get(d["to"], d["to"])
            return f"{C.dungeon_name(d['id'])} is revealed and {where}."
        case "MonstersEntered":
            if not d["monsters"]:  # Tabletop: the game master places them one by one (MonsterPlaced)
                return f"{d['name']} joins the monster line." if "name" in d else ""
            numbers = ", ".join(f"#{m['id'][1:]}" for m in d["monsters"])
            return f"{len(d['monsters'])} × {d['name']} ({numbers}) enter the encounter."
        case "MonsterPlaced":
            name = C.monsters[d["card"]].name
            return f"{name} #{d['id'][1:]} is placed at {d['square'][0]},{d['square'][1]}."
        case "BossCardsReturned":
            return f"{counted(d['n'], 'boss card')} go to the bottom of the dungeon deck (AtD L225)."
        case "RoundBegan":
            return f"Round {d['round']}."
        case "TurnBegan":
            return f"{p}'s turn."
        case "TurnEnded":
            return f"{p} ends the turn."
        case "HandDiscarded":
            return f"{p} discards the whole hand."
        case "CardsDiscarded":
            return f"{p} discards {counted(len(d['cards']), 'card')}."
        case "Moved":
            why = MOVED_WHY.get(d["why"], f" ({d['why']})")
            return f"{w} moves to {d['to'][0]},{d['to'][1]}{why}."
        case "CardPlayed":
            paid = counted(len(d["rcs"]), "resource card")
            protect = d.get("protect")
            if protect and protect != f"c{d['seat']}":  # an ally's Defense (AtD L158)
                return f"{p} plays {C.card_name(d['id'])} on {_who(d, names, 'protect')} with {paid}."
            return f"{p} plays {C.card_name(d['id'])} with {paid}."
        case "EquipmentUsed":
            return f"{p} uses {C.dungeon_name(d['id'])}."
        case "EquipmentAdded":
            return f"{p} adds {C.dungeon_name(d['id'])} to the card."
        case "AbilityUsed":
            return f"{p} uses {d['name']}."
        case "PlayFinished":
            return f"{p}'s card resolves."
        case "AreaPlaced":
            return f"{p} places an area at {d['x']},{d['y']} hitting {counted(len(d['hits']), 'target')}."
        case "Damaged":
            return f"{w} takes {d['amount']} damage ({d['saved']} saved), {max(d['hp'], 0)} HP left."
        case "Healed":
            return f"{w} heals {d['amount']} to {d['hp']} HP{' and wakes' if d.get('woke') else ''}."
        case "KnockedOut":
            return f"{p} falls unconscious (AtD L69)."
        case "MonsterDied":
            return f"{_upper(_who({'who': d['id']}, names))} dies."
        case "StatusSet":
            return f"{w} is {d['status']} until round {d['until']}."
        case "PenaltySet":
            return f"{_upper(w)} suffers {_penalty(d)}."
        case "PenaltyUsed":
            return f"{_upper(w)} {PENALTY_SPENT.get(d['stat'], 'spends a penalty')}."
        case "Guarded":
            return f"{w} raises a save of {d['save']}."
        case "Missed":
            attacker, target = _who(d, names, "attacker"), _who(d, names, "target")
            return f"{attacker}'s attack on {target} misses: out of reach or sight."
        case "InPlayExpired":
            return f"{p}'s cards in play expire."
        case "EncounterEnded":
            return "The encounter is won." if d["result"] == "win" else "The encounter is lost."
        case "RoomChoice":
            return f"{p} chooses to {d['action']}."
        case "TileFlipped":
            return f"{p} flips a tile: {C.dungeon_name(d['id'])}."
        case "EquipmentKept":
            return f"{p} keeps {C.dungeon_name(d['id'])}."
        case "EquipmentLeft":
            return f"{p} leaves the equipment."
        case "MysteryResolved":
            return f"{p} finds a mystery: {d['name']}."
        case "SeedAdded":
            return f"Monsters worth {d['danger']} danger will seed the next encounter (at half)."
        case "SeedSpent":
            return "The seeded monsters join the encounter."
        case "TradeProposed":
            return f"{p} offers {seat_name(d['to'], names)} {_trade(d['give'], d['take'])}."
        case "TradeDeclined":
            return f"{seat_name(d['to'], names)} declines the offer of {p}."
        case "EquipmentTraded":
            return f"{seat_name(d['to'], names)} accepts: {p} hands over {_trade(d['give'], d['take'])}."
        case "TradingDone":
            return f"{p} is done trading."
        case "MapCleared":
            return "The map is cleared away."
        case "AdvancementsDrawn":
            return f"{p} draws {d['n']} advancement cards."
        case "AdvancementKept":
            return f"{p} keeps the advancement {C.advancements[d['id']].name}."
        case "DecksRestored":
            return f"{p} gathers and shuffles every card."
        case "DungeonEnded":
            return f"{d['name']} is {'cleared' if d['result'] == 'win' else 'lost'}."
        case "ReadyForDungeon":
            return f"{p} is ready."
        case "InitiativeCut":
            return f"{p} cuts {d['name']} (cost {d['cost']})."
        case "InitiativeTied":
            return "Tied cuts are cut again (AtD L290)."
        case "InitiativeSet":
            return "Initiative: " + ", ".join(seat_name(x, names) for x in d["order"]) + "."
        case "MonsterSummoned":
            return f"{_upper(_who({'who': d['id']}, names))} summons help."
        case "GameEnded":
            return f"The game ends: {d['reason']}."
        case "Waiting":
            return ""
    return event.type
