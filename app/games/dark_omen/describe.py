"""One log line per event, in plain words (the log shows chapter and day dividers).

Events name a hero by seat; the line names it by player and character ("Ann’s Visko",
issue 15) from ``Names``, the game's log context: the seats' names from ``CampaignBegan``
and the character each seat plays when the line is written."""

from __future__ import annotations

from collections.abc import Mapping

from app.games.dark_omen.content import load
from app.games.dark_omen.rules.gambling import draugr_score
from app.games.dark_omen.state import State, enemy_name
from app.games.dark_omen.texts import loot_name
from app.kernel.types import Event

Names = Mapping[int, tuple[str, str]]
"""Seat → (its player's name, the name of the character it plays; "" before one is dealt)."""


class LogNames(dict[int, tuple[str, str]]):
    """``Names``, and each enemy's name by id ("the Groll", "Vahva the cave bear") as the
    board shows it: a face-down token by its level only (DO L476)."""

    def __init__(self, seats: Mapping[int, tuple[str, str]], enemies: Mapping[str, str]) -> None:
        super().__init__(seats)
        self.enemies = enemies


def enemy_of(creature: str, names: Names) -> str:
    """An enemy by name ("the Groll"), "the enemy" for a line told without names."""
    return getattr(names, "enemies", {}).get(creature, "the enemy")


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def log_names(state: State) -> LogNames:
    """Each seat's player and character, and each enemy's name. Public: all are on every page."""
    seats = seat_names(state)
    enemies = dict(state.slain_names)
    enemies.update((x.id, enemy_name(x)) for x in state.creatures)
    return LogNames(seats, enemies)


def seat_names(state: State) -> dict[int, tuple[str, str]]:
    c = load()
    out = {}
    for seat, player in enumerate(state.names):
        hero = state.heroes[seat] if seat < len(state.heroes) else None
        card = c.characters.get(hero.character) if hero is not None else None
        out[seat] = (player, str(card["name"]) if card else "")
    return out


def seat_name(seat: int, names: Names) -> str:
    """A seat's hero as "Ann’s Visko": the player alone before a character is dealt, and
    "Player 1" for a line told without names."""
    player, character = names.get(seat) or (f"Player {seat + 1}", "")
    return f"{player}’s {character}" if character else player


def player_name(seat: int, names: Names) -> str:
    return (names.get(seat) or (f"Player {seat + 1}", ""))[0]


def token_name(token: str) -> str:
    """A face-up loot token by its face (inventories are public, DO L246)."""
    try:
        return loot_name(load().face(token))
    except KeyError:
        return "loot token"


def gear_name(gear: str) -> str:
    c = load()
    card = c.gear.get(gear) or c.holographic.get(gear)
    return str(card["name"]) if card else gear.replace("_", " ")


def place(at: int | str) -> str:
    """A space by its number, a town's place by name ("Hoglichten's market")."""
    if isinstance(at, str) and ":" in at:
        town, where = at.split(":", 1)
        return f"{town}'s {where}"
    return str(at)


def dice_text(dice: list[int]) -> str:
    """Dice as said aloud: "4", "4 and 5", "3, 1, 1 and 2" (never a bracketed list, issue 26)."""
    faces = [str(x) for x in dice]
    return (
        faces[0] if len(faces) == 1 else ", ".join(faces[:-1]) + " and " + faces[-1] if faces else "no dice"
    )


def layers_turned(d: dict) -> str:
    """DO L169-171: an even roll turns a layer clockwise, an odd one counter-clockwise."""
    tabs = f"white tab {d['white'] + 1}, clear tab {d['clear'] + 1}"
    rolls = d.get("rolls") or []
    if d.get("why") == "the Obstacle Throw" and len(rolls) == 2:
        turns = ", ".join(
            f"{layer} rolls {roll}: {roll} {'clockwise' if roll % 2 == 0 else 'counter-clockwise'}"
            for layer, roll in zip(("white", "clear"), rolls, strict=True)
        )
        return f"The Obstacle Throw: {turns}; now {tabs}."
    if rolls:
        return f"The obstacle layers turn ({d['why']}, rolls {' and '.join(map(str, rolls))}): {tabs}."
    return f"The obstacle layers turn ({d['why']}): {tabs}."


def strike_text(x: dict, names: Names, enemy: str = "the enemy") -> str:
    """One damage roll, die by die (DO L412-419): a hero's weapon die plus bonuses less the
    enemy's armour; the enemy's die less the hero's armour, at least 1."""
    seat = seat_name(x["seat"], names)
    if x["by"] == "hero":
        return f"{seat} rolls {x['roll']} for {x['damage']} damage"
    # The enemy's blow is its damage roll with the day's fury and its effects added (DO
    # L415-418), not a bare die: "strikes for 5", beside a hero's "rolls 1" (issue 26).
    if x.get("warded"):
        return f"{enemy} strikes for {x['roll']}, warded off by {seat}"
    if x.get("shielded"):
        return f"{enemy} strikes for {x['roll']}, stopped by {seat}’s shield"
    absorbed = x["roll"] - x["damage"]
    armour = ""
    if absorbed > 0:
        armour = " (armour, at least 1)" if x["damage"] == 1 else f" (armour −{absorbed})"
    return f"{enemy} strikes for {x['roll']}: {x['damage']} damage to {seat}{armour}"


GAMES = {"draugr": "Draugr Dice", "hard_life": "Hard Life"}
PLACED = {
    "fire": "A fire burns on {space}",
    "grave": "A grave waits on {space}",
    "relic": "The {name} lies on {space}",
    "person": "The {name} calls for aid on {space}",
}
"""An omen's generic tokens (DO L143) as the log introduces them."""
TENDED = {
    "fire": "douses a fire",
    "grave": "lays a grave to rest",
    "relic": "takes up the omen\u2019s relic",
    "person": "leads the one who called for aid",
}


def haggled(d: dict, hero: str) -> str:
    """The haggling dice and what they won (DO L335-337): light, your die against the
    merchant's, twice at most; heavy, a 5 or more on one die, twice at most. A discount
    spent on a purchase (no dice) needs no line."""
    rolls = d.get("rolls")
    if not rolls:
        return ""
    won = f"{d['n']} gold off the next purchase" if d["n"] else "no discount"
    if len(rolls[0]) == 2:
        tries = ", then ".join(f"{mine} against the merchant\u2019s {theirs}" for mine, theirs in rolls)
        return f"{hero} haggles lightly: {tries} \u2014 {won}."
    tries = ", then ".join(str(roll) for (roll,) in rolls)
    return f"{hero} haggles hard: rolls {tries} (5 or more wins) \u2014 {won}."


def gamble_score(game: str, dice: list[int]) -> str:
    """Draugr Dice counts 3s as 0, lowest wins; Hard Life sums, 18 or under (DO L344, L350)."""
    if game == "draugr":
        return f"score {draugr_score(dice)}"
    return f"total {sum(dice)}"


def gamble_ended(d: dict, names: Names) -> str:
    """The house's dice and who takes the ante (DO L347-348, L355-357)."""
    game = GAMES[d["game"]]
    house = ""
    if d["house"]:
        house = f"the house rolls {dice_text(d['house'])} ({gamble_score(d['game'], d['house'])})"
    winners = [seat_name(int(w), names) for w in d["winners"]]
    if winners:
        result = f"{' and '.join(winners)} {'wins' if len(winners) == 1 else 'share'} the ante"
    elif d.get("push"):
        tied = " and ".join(seat_name(int(p), names) for p in d["push"])
        result = f"a push: {tied} take the stake back"
    else:
        result = "the house wins the ante"
    return f"{game}: {house}; {result}." if house else f"{game}: {result}."


def stats_text(d: Mapping) -> str:
    """A hero's tracks after a change (``HeroStats`` holds the new values, not the change):
    HP and MP by their values, a wound's lower maximum as the most HP left to heal to
    (DO L193-197), never as "hp 12" or "max_hp 27"."""
    parts = []
    if "hp" in d:
        parts.append(f"{d['hp']} HP" + (f" of at most {d['max_hp']}" if "max_hp" in d else ""))
    elif "max_hp" in d:
        parts.append(f"at most {d['max_hp']} HP")
    if "mp" in d:
        parts.append(f"{d['mp']} MP")
    if "gold" in d:
        parts.append(f"{d['gold']} gold")
    if "blood" in d:
        parts.append(f"{d['blood']} blood of the beast")
    return ", ".join(parts)


def describe(event: Event, names: Names | None = None) -> str:
    d = event.data
    c = load()
    names = names or {}

    def who(d: dict) -> str:
        return seat_name(d["seat"], names) if isinstance(d.get("seat"), int) else ""

    def player(seat: object) -> str:
        return seat_name(int(seat), names)  # type: ignore[call-overload]

    match event.type:
        case "CampaignBegan":
            return f"A Dark Omen campaign begins for {', '.join(d['names'])}."
        case "ChapterBegan":
            days = ", ".join(map(str, d["omen_days"]))
            return f"Chapter {d['chapter']} begins ({d['side']}); omens on days {days}, the boss on day 6."
        case "DayBegan":
            return f"Day {d['day']} of chapter {d['chapter']} dawns."
        case "RoundBegan":
            return f"Round {d['round']} ({'night' if d['night'] else 'day'})."
        case "RoundEnded":
            return f"Round {d['round']} ends."
        case "DayEnded":
            return f"Day {d['day']} ends."
        case "ChapterEnded":
            return f"{d['reason']}."
        case "CampaignEnded":
            return f"The campaign ends: {d['reason']}."
        case "ChapterReady":
            guild = f", joining the {d['guild']}s" if d.get("guild") else ""
            return f"{who(d)} is ready for chapter {d['chapter']}{guild}."
        case "LootDealt":
            n = len(d["tokens"]) if "tokens" in d else d.get("count", 0)
            return f"{n} loot token{' is' if n == 1 else 's are'} dealt face down."
        case "LootReturned":
            return "The loot on the map goes back to the pile."
        case "LootCleared":
            return "Dropped loot is cleared away."
        case "LayersTurned":
            return layers_turned(d)
        case "RunesCast":
            return f"{who(d)} casts the runes: {', '.join(c.runes[r]['name'] for r in d['runes'])}."
        case "RuneDiscarded":
            return f"{who(d)} discards {c.runes[d['rune']]['name']} ({d['why']})."
        case "OmenDrawn":
            return f"An omen: {d['name']}."
        case "OmenEnded":
            return f"The omen {'succeeds' if d['status'] == 'success' else 'fails'}."
        case "MeterMoved":
            return f"The darkness meter moves to {d['to']} ({d['why']})."
        case "StoryRead":
            return f"Story: {d['name']} — {d['text']}"
        case "CreaturePlaced":
            name = d.get("name") or (f"level {d['level']} creature" if "level" in d else "creature token")
            return f"A {name} appears on space {d['space']}."
        case "CreatureTokenFlipped":
            return f"The creature token is flipped: level {d['level']}."
        case "CreatureRevealed":
            return f"The creature is a {d['name']} ({d['hp']} HP)."
        case "CreatureHurt":
            enemy = enemy_of(d["creature"], names)
            return f"{_upper(enemy)} takes {d['damage']} damage ({max(d['hp'], 0)} HP left)."
        case "CreatureMoved":
            return f"{_upper(enemy_of(d['creature'], names))} moves to {d['to']} ({d['why']})."
        case "CreatureSlain":
            return f"{player(d['by'])} slays {enemy_of(d['creature'], names)}."
        case "HeroMoved":
            extra = f", {d['mp']} MP to cross" if d["mp"] else ""
            return f"{who(d)} moves to {place(d['to'])}{extra}."
        case "ApSpent":
            return f"{who(d)} spends {d['n']} AP ({d['why']})."
        case "RoundPassed":
            return f"{who(d)} ends the round."
        case "HeroStats":
            return f"{who(d)} now has {stats_text(d)} ({d['why']})."
        case "LootRevealed":
            return f"{who(d)} flips a loot token: {loot_name(d['face'])}."
        case "AttackRolled":
            heroes = "; ".join(f"{player(seat)} {dice_text(dice)}" for seat, dice in d["dice"].items())
            enemy = enemy_of(d.get("creature", ""), names)
            return f"Attack roll: {heroes} against {enemy}’s {dice_text(d['enemy'])}."
        case "DieBoosted":
            return f"{who(d)} raises a die to {d['to']}."
        case "BattleEnded":
            enemy = enemy_of(d["creature"], names)
            strikes = "; ".join(strike_text(x, names, enemy) for x in d["strikes"]) or "no damage roll"
            return f"The battle resolves: {strikes}."
        case "HeroDied":
            fallen = f"{player_name(d['seat'], names)}\u2019s {c.characters[d['character']]['name']}"
            return f"{fallen} falls on {d['space']} and rises as a zombie."
        case "HeroJoined":
            joined = c.characters[d["character"]]["name"]
            return f"{player_name(d['seat'], names)} takes up {joined} at {place(d['at'])}."
        case "GambleOpened":
            return f"{who(d)} opens a game of {GAMES[d['game']]}."
        case "GambleStarted":
            house = f"; the house sets aside {dice_text(d['house'])}" if d.get("house") else ""
            return f"The game starts: an ante of {d['ante']} gold{house}."
        case "GambleTurnEnded":
            return f"{who(d)} stops with {dice_text(d['dice'])}."
        case "GambleEnded":
            return gamble_ended(d, names)
        case "BarrowFound":
            return f"{who(d)} finds a barrow on {d['space']}."
        case "BarrowExplored":
            return f"{who(d)} explores the barrow: {d['dice']} ({d['pattern']})."
        case "LocationUnlocked":
            return f"The location on {d['space']} is unlocked ({d['why']})."
        case "LootTaken":
            return f"{who(d)} picks up the {token_name(d['token'])} on {d['space']}."
        case "LootDropped":
            return f"{who(d)} drops the {token_name(d['token'])} on {d['space']}."
        case "LootGiven":
            return f"{who(d)} gives the {token_name(d['token'])} to {player(d['to'])}."
        case "LootSpent":
            tokens = ", ".join(token_name(t) for t in d["tokens"])
            return f"{who(d)} spends {tokens} ({d['why']})."
        case "GearGained":
            return f"{who(d)} gains {gear_name(d['gear'])} ({d['why']})."
        case "GearLost":
            return f"{who(d)} loses {gear_name(d['gear'])} ({d['why']})."
        case "GearEquipped":
            return f"{who(d)} equips {gear_name(d['gear'])} ({d['slot']})."
        case "ApChanged":
            return f"{who(d)}: {d['why']}."
        case "SurpriseAttack":
            return f"{who(d)} is attacked by surprise: the next AP is a fight (DO L244)."
        case "TeamProposed":
            asked = ", ".join(player(x) for x in d["invited"]) or "nobody in reach"
            return f"{who(d)} proposes a team attack; asked: {asked}."
        case "TeamAnswered":
            if not d["join"]:
                return f"{who(d)} declines {player(d['leader'])}\u2019s team attack."
            heroic = " with a heroic attack" if d.get("heroic") else ""
            return f"{who(d)} joins {player(d['leader'])}\u2019s team attack{heroic}."
        case "RerollPicked":
            if d["picked"]:
                return f"{who(d)} picks die {d['index'] + 1} to reroll."
            return f"{who(d)} keeps die {d['index'] + 1}."
        case "TeamLeft":
            return f"{who(d)} leaves the team attack led by {player(d['leader'])}."
        case "TeamWithdrawn":
            if d["why"] == "launched":
                return f"{who(d)} launches the team attack."
            if d["why"] == "withdrawn":
                return f"{who(d)} withdraws the team attack."
            return f"{who(d)}\u2019s team attack is withdrawn: {d['why']}."
        case "TieVoted":
            return f"{who(d)} votes that {player(d['first'])} faces the enemy first."
        case "BattleReady":
            return f"{who(d)} is ready."
        case "GambleAnswered":
            verb = "joins" if d["join"] else "declines"
            return f"{who(d)} {verb} {player(d['host'])}\u2019s game."
        case "BloodOffered":
            return f"{who(d)} hands in {d['n']} blood of the beast for the omen."
        case "BelongingsTaken":
            return f"{who(d)} takes the fallen hero's belongings on {d['space']}."
        case "GraveDug":
            return f"A fallen hero's belongings are buried on {d['space']}, guarded by a zombie."
        case "HeroPlaced":
            return f"{who(d)} starts on {place(d['at'])}."
        case "CampfireLit":
            return f"{who(d)} lights a campfire on {d['space']}."
        case "CampMade":
            return f"{who(d)} makes a permanent camp on {d['space']}."
        case "BarrowMissed":
            return f"{who(d)} searches for a barrow and rolls {d['roll']}: nothing."
        case "BarrowGone":
            return f"The barrow on {d['space']} is spent."
        case "HoardSearched":
            return f"{who(d)} searches the gear hoard and rolls {d['roll']}."
        case "WellAnswered":
            return f"{who(d)} throws a coin in the Well of Fortune and rolls {d['roll']}."
        case "VortexMoved":
            return f"A darkness vortex moves {d['roll']} to {d['to']}."
        case "PendingRoll":
            dice = d.get("dice") or d.get("rolls") or []
            return f"{who(d)} rolls {dice_text(dice)}." if dice else ""
        case "ChapterRestarted":
            return f"The game master restarts chapter {d['chapter']} from its start (DO L114)."
        case "EffectSet":
            return f"{who(d)}: {d['effect'].replace('_', ' ')} {d['n']}."
        case "ChargesSet":
            return (
                f"{who(d)}\u2019s {gear_name(d['gear'])}: {d['n']} charge{'' if d['n'] == 1 else 's'} left."
            )
        case "DiscountSet":
            return haggled(d, who(d))
        case "PropPlaced":
            said = PLACED.get(d["kind"], "{name} is set on {space}")
            return said.format(name=d["name"], space=place(d["space"])) + "."
        case "PropTended":
            return f"{who(d)} {TENDED.get(d['kind'], 'sees to an omen token')}."
        case "ShieldRaised":
            return f"{who(d)} raises the {gear_name(d['gear'])} against the next blow (DO L339)."
        case "Waiting" | "PendingCleared" | "Used" | "RuneRead":
            return ""
    return event.type
