"""The game log in plain language: one line per event (DESIGN.md: a readable log)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from app.games.darkest_night.content import load
from app.kernel.types import Event

D = dict[str, Any]


def hero(d: D, key: str = "hero") -> str:
    hero_id = d.get(key)
    if not hero_id:
        return "Someone"
    return hero_label(str(hero_id))


@cache
@cache
def hero_label(hero_id: str) -> str:
    """A hero's name (``prince~2`` is "… (2)"); the content never changes, so once per id."""
    kind, _, again = hero_id.partition("~")
    spec = load().heroes.get(kind)
    name = spec.name if spec else kind
    return f"{name} ({again})" if again else name


def power(power_id: str | None) -> str:
    if not power_id:
        return "a power"
    spec = load().powers().get(power_id)
    return spec.name if spec else power_id


def dice(d: D) -> str:
    faces = d.get("faces") or []
    kept = d.get("kept") or faces
    text = "rolls " + ", ".join(str(f) for f in faces)
    notes = []
    if d.get("terror"):
        notes.append("Terror drops the highest")
    if d.get("relic"):
        notes.append("the Holy Relic adds 1 to the highest")
    if notes:
        text += f" ({'; '.join(notes)}: {', '.join(str(k) for k in kept)})"
    if d.get("target"):
        n = d.get("successes", 0)
        text += f" against {d['target']}+: {n} success{'es' if n != 1 else ''}"
    return text


FIELD_WORDS = {"grace": "grace", "secrecy": "secrecy", "sparks": "spark"}
"""A hero's counter as a noun: grace and secrecy are uncounted, a spark is counted ("1 spark")."""


def hero_changed(d: D) -> str:
    field = d["stat"]
    why = reason(d)
    if field in FIELD_WORDS:
        by = d.get("by", 0)
        verb = "gains" if by > 0 else "loses"
        noun = FIELD_WORDS[field]
        amount = counted(abs(by), noun) if field == "sparks" else f"{abs(by)} {noun}"
        return f"{hero(d)} {verb} {amount}, now {d['to']}{why}."
    if field == "lost_turn":
        return f"{hero(d)} will lose their next turn{why}."
    if field in ("default_grace", "default_secrecy"):
        return f"{hero(d)}'s default {field.removeprefix('default_')} is now {d['to']}{why}."
    return ""


def purpose(d: D) -> str:
    return {
        "fight": "fights",
        "elude": "eludes",
        "search": "searches",
        "pray": "prays",
        "necromancer": "The Necromancer",
        "placement": "places a card",
        "keys": "turns clues into keys",
        "test": "tests their luck",
    }.get(d.get("purpose", ""), d.get("purpose", ""))


def dice_rolled(d: D) -> str:
    if d.get("purpose") == "necromancer":
        return f"The Necromancer rolls {d['faces'][0]} for his movement."
    return f"{hero(d)} {purpose(d)} and {dice(d)}."


RULE_AT_END = re.compile(r"^(.*\S) \((DN [\d.]+)\)$")


def reason(d: D) -> str:
    """Why something happened, in parentheses after the line: "(setup, DN 3.4)", not
    "(setup (DN 3.4))"; nothing when the event gives no reason."""
    why = str(d.get("why") or "")
    if not why:
        return ""
    return " (" + RULE_AT_END.sub(r"\1, \2", why) + ")"


def a_or_an(word: str) -> str:
    """The indefinite article a name takes ("an Evil Presence", "a Shroud")."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def name_of(kind: str, card: str | None) -> str:
    if not card:
        return "a card"
    content = load()
    table = {
        "event": content.events,
        "quest": content.quests,
        "mystery": content.mysteries,
        "darkness": content.darkness,
        "artifact": content.artifacts,
    }.get(kind, {})
    spec = table.get(card.split("#")[0])
    return spec.name if spec else card


def card_drawn(d: D) -> str:
    if d.get("hidden") or "card" not in d:
        return f"A card is drawn from the {d['deck']} deck."
    if d["deck"] == "map":
        return f"A map card is drawn for {d.get('reason') or 'the Necromancer'}."
    if d["deck"] in ("event", "quest", "mystery", "darkness"):
        return ""  # the card is announced when it is revealed or placed
    return f"A card is drawn from the {d['deck']} deck."


TEXTS: dict[str, Callable[[D], str]] = {
    "GameStarted": lambda d: (
        f"A game of Darkest Night begins: {d['options'].get('heroes', 4)} heroes, "
        f"the {d['options'].get('subdeck', 'simplicity').replace('_', ' ')} map deck."
    ),
    "DeckShuffled": lambda d: f"The {d['deck']} deck is shuffled.",
    "CardDrawn": card_drawn,
    "CardDiscarded": lambda d: "",
    "CardReturned": lambda d: (
        f"A card goes back {'under' if d.get('bottom') else 'on top of'} the {d['deck']} deck."
    ),
    "DeckEmpty": lambda d: f"The {d['deck']} deck is empty: nothing is drawn (DN 19.1).",
    "BlightPlaced": lambda d: (
        f"{a_or_an(d['type']).capitalize()} {d['type']} blight appears in the {d['location']}{reason(d)}."
    ),
    "BlightDestroyed": lambda d: (
        f"The {d['type']} blight in the {d['location']} is destroyed"
        + (f" by {hero(d)}" if d.get("hero") else "")
        + "."
    ),
    "BlightRedirected": lambda d: f"The {d['location']} is full: the blight falls on the Monastery instead.",
    "BlightUnavailable": lambda d: f"No {d['type']} token is left: another map card is drawn (DN 11.1).",
    "RelicPlaced": lambda d: f"A Holy Relic lies hidden in the {d['location']}.",
    "HeroJoined": lambda d: (
        f"{hero(d)} joins the fight at the Monastery (grace {d['grace']}, secrecy {d['secrecy']})."
    ),
    "PowersChosen": lambda d: f"{hero(d)} starts with {', '.join(power(p) for p in d['powers'])}.",
    "SecondaryClassChosen": lambda d: f"{hero(d)} takes {hero(d, 'secondary')} as a second class.",
    "PowerDeckShuffled": lambda d: f"{hero(d)}'s power deck is shuffled.",
    "PowerDrawn": lambda d: (
        f"{hero(d)} draws " + ("a power card" if d.get("hidden") else power(d.get("power"))) + "."
    ),
    "PowerGained": lambda d: f"{hero(d)} gains the power {power(d['power'])}.",
    "PowerPutBack": lambda d: (
        f"{hero(d)} puts "
        + ("a power" if d.get("hidden") else power(d.get("power")))
        + " at the bottom of the deck."
    ),
    "PowerReturned": lambda d: f"{hero(d)} puts {power(d['power'])} back in the deck.",
    "PowerChanged": lambda d: power_changed(d),
    "PowerUsed": lambda d: f"{hero(d)} uses {power(d['power'])}.",
    "HeroChanged": hero_changed,
    "HeroFlagged": lambda d: "",
    "GainPrevented": lambda d: f"{hero(d)} cannot gain {d['resource']}: {d['why']}.",
    "HeroMoved": lambda d: f"{hero(d)} {moved(d)}{reason(d)}.",
    "HeroDied": lambda d: f"{hero(d)} dies in the {d['location']}.",
    "NecromancerMoved": lambda d: f"The Necromancer {moved(d)}{reason(d)}.",
    "HeroesDetected": lambda d: (
        "The Necromancer detects "
        + (", ".join(hero({"hero": h}) for h in d["heroes"]) if d["heroes"] else "no one")
        + "."
    ),
    "DarknessChanged": lambda d: (
        f"The darkness {'rises' if d['by'] > 0 else 'falls'} to {d['to']}{reason(d)}."
    ),
    "DarknessOverflowed": lambda d: (
        "The darkness is at 30: a blight falls on the Monastery instead (DN 9.0)."
    ),
    "DarknessCardDrawn": lambda d: f"Darkness card: {d['name']} — {d['text']}",
    "CluesChanged": lambda d: (
        f"The heroes {'gain' if d['by'] > 0 else 'spend'} {counted(abs(d['by']), 'clue')}, now {d['to']}."
    ),
    "KeysChanged": lambda d: (
        f"The heroes {'gain' if d['by'] > 0 else 'spend'} {counted(abs(d['by']), 'key')}, now {d['to']}."
    ),
    "ItemGained": lambda d: (
        f"{hero(d)} gains "
        + (artifact_gained(d) if d["kind"] == "artifact" else f"a {load().items[d['kind']].name}")
        + "."
    ),
    "ItemUsed": lambda d: (
        f"{hero(d)} uses a {load().items[d['kind']].name}."
        if d.get("kind") in load().items
        else f"{hero(d)} uses an item."
    ),
    "ItemGiven": lambda d: item_given(d),
    "ItemLost": lambda d: f"{hero(d)} loses an item{reason(d)}.",
    "ItemsUnlocked": lambda d: "",
    "ItemUnavailable": lambda d: f"No {item_name(d['kind'])} is left in the stock.",
    "RelicRetrieved": lambda d: f"{hero(d)} retrieves the Holy Relic of the {d['location']}!",
    "QuestPlaced": lambda d: (
        f"A quest appears in the {d['location']}: {d['name']} (progress {d['needed']}, time {d['time']})."
    ),
    "QuestProgressed": lambda d: f"{hero(d)} advances a quest to {d['to']}.",
    "QuestTimeAdvanced": lambda d: "",
    "QuestSymbolChecked": lambda d: (
        f"The map card's quest symbol brings a quest to the {d['location']} (Increased Quests)."
        if d.get("location")
        else ""
    ),
    "DarknessCardChanged": lambda d: f"Darkness card {name_of('darkness', d['card'])} is now {d['state']}.",
    "QuestCompleted": lambda d: f"{hero(d)} completes the quest {d['name']}!",
    "QuestExpired": lambda d: f"The quest {d['name']} in the {d['location']} expires.",
    "PallReduced": lambda d: "A card of the Necromancer's pall is lifted.",
    "MysteryPlaced": lambda d: f"A mystery appears in the {d['location']}: {d['name']}.",
    "MysteryKeyed": lambda d: f"{hero(d)} unlocks a reward of a mystery.",
    "MysteryRemoved": lambda d: "A mystery is solved and leaves play.",
    "RoundStarted": lambda d: f"Round {d['round']} begins.",
    "TurnStarted": lambda d: f"{hero(d)} takes a turn.",
    "TurnStepReached": lambda d: "",
    "TurnSkipped": lambda d: f"{hero(d)} loses this turn (DN 13.3).",
    "TurnEnded": lambda d: f"{hero(d)} ends the turn.",
    "NecromancerTurnStarted": lambda d: "The Necromancer takes his turn.",
    "NecromancerTurnEnded": lambda d: "",
    "NecromancerAttacked": lambda d: (
        f"The Necromancer catches {hero(d)} with no secrecy left and attacks (DN 7.2)!"
    ),
    "NecromancerUnharmed": lambda d: (
        f"{hero(d)} beats the Necromancer, but without a Holy Relic he cannot be slain."
    ),
    "DiceRolled": dice_rolled,
    "CombatStarted": lambda d: f"{hero(d)} faces {d['foe']['name']}.",
    "CombatEnded": lambda d: f"{hero(d)} {'wins' if d['won'] else 'loses'} against {d['foe']}.",
    "CombatYielded": lambda d: f"{hero(d)} yields to {d['foe']} without rolling.",
    "WoundPrevented": lambda d: f"{hero(d)} is spared a wound{reason(d)}.",
    "Automatic": lambda d: (
        f"{d['what']} (done for you: {d.get('why') or 'there was nothing else to choose'})."
    ),
    "AutoPassSet": lambda d: (
        "turns auto-pass on: rolls as they stand, rolls kept, the action step ended after the action."
        if d["on"]
        else "turns auto-pass off: asked again before every roll and at the end of every action step."
    ),
    "EventRevealed": lambda d: f"{hero(d)} meets an event: {d['name']} (fate {d['fate']}) — {d['text']}",
    "EventSetAside": lambda d: f"Omen: {name_of('event', d['card'])} is set aside for the higher fate.",
    "RenewalDrawn": lambda d: "Renewal: the event deck is reshuffled (DN 7.1).",
    "ActionTaken": lambda d: "",
    "ActionStepEnded": lambda d: "",
    "SearchFailed": lambda d: f"{hero(d)} finds nothing.",
    "SearchSucceeded": lambda d: f"{hero(d)} finds {found(d['result'])} in the {d['location']}.",
    "SearchResultUnavailable": lambda d: (
        "That search result cannot be taken: another card is drawn (DN 8.0)."
    ),
    "HandDrawn": lambda d: "The Necromancer draws a new hand of map cards.",
    "HandCardPlayed": lambda d: f"The Necromancer plays a map card on the {d['location']}.",
    "HandDiscarded": lambda d: "The Necromancer reveals and discards his hand.",
    "ArtifactChanged": lambda d: "",
    "Waiting": lambda d: "",
    "GameEnded": lambda d: ("Victory! " if d["result"] == "win" else "Defeat. ") + d["reason"],
}


def artifact_gained(d: D) -> str:
    """The artifact a hero gains, by its name ("the Holy Relic"), never "an artifact"."""
    card = (d.get("data") or {}).get("card")
    spec = load().artifacts.get(card) if card else None
    return f"an artifact: {spec.name}" if spec else "an artifact"


def counted(n: int, noun: str) -> str:
    """ "1 clue", "2 clues": a count with its noun in the right number."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def moved(d: D) -> str:
    """ "moves from the Ruins to the Village", or "stays in the Ruins" when the move ends
    where it began: never "from the Ruins to the Ruins"."""
    if d["from"] == d["to"]:
        return f"stays in the {d['to']}"
    return f"moves from the {d['from']} to the {d['to']}"


def item_name(kind: str) -> str:
    """An item's name as printed ("Treasure Chest"), never its id."""
    spec = load().items.get(kind)
    return spec.name if spec else kind.replace("_", " ")


RESULT_NAMES = {
    "mystery": "A mystery",
    "supply_cache": "A supply cache",
    "artifact": "An artifact",
    "epiphany": "An epiphany",
    "revelation": "A revelation",
    "forgotten_shrine": "A forgotten shrine",
    "inspiration": "Inspiration",
    "stardust": "Stardust",
}


def result_name(result: str) -> str:
    """A search result as players read it (DN 8.0): its name, or the item's ("A Treasure
    Chest"), never its id."""
    if result in RESULT_NAMES:
        return RESULT_NAMES[result]
    item = load().items.get(result)
    return f"A {item.name}" if item else result.replace("_", " ").capitalize()


def found(result: str) -> str:
    """A search result in a sentence: "a Treasure Chest", "an artifact", "inspiration"."""
    name = result_name(result)
    return name[0].lower() + name[1:]


def item_label(kind: str | None) -> str:
    if kind == "artifact":
        return "an artifact"
    spec = load().items.get(kind or "")
    return f"a {spec.name}" if spec else "an item"


def power_changed(d: D) -> str:
    why = reason(d)
    if d.get("exhausted") is True:
        return f"{hero(d)} exhausts {power(d['power'])}{why}."
    if d.get("exhausted") is False:
        return f"{hero(d)} refreshes {power(d['power'])}{why}."
    if d.get("active") is True:
        target = d.get("target") or ""
        on = (
            f" on {hero({'hero': target[5:]})}"
            if target.startswith("hero:")
            else (f" in the {target[4:]}" if target.startswith("loc:") else "")
        )
        return f"{hero(d)} activates {power(d['power'])}{on}."
    if d.get("active") is False:
        return f"{power(d['power'])} is no longer active{why}."
    return ""


def item_given(d: D) -> str:
    source, target = d["from"], d["to"]
    if target == "monastery":
        return f"{hero({'hero': source})} stores an item at the Monastery."
    if source == "monastery":
        return f"{hero({'hero': target})} takes an item stored at the Monastery."
    if target.startswith("orphaned:"):
        if d.get("kind"):  # one line per item, naming it (older logs lack the kind)
            what = "artifact" if d["kind"] == "artifact" else item_name(d["kind"])
            return f"{hero({'hero': source})}'s {what} lies in the {target[9:]} for the next hero to come."
        return f"{hero({'hero': source})}'s items lie in the {target[9:]} for the next hero to come."
    if source.startswith("orphaned:"):
        return f"{hero({'hero': target})} picks up {item_label(d.get('kind'))} left by a fallen hero."
    return f"{hero({'hero': source})} gives an item to {hero({'hero': target})}."


def describe_event(event: Event) -> str:
    text = TEXTS.get(event.type)
    if text is None:
        return event.type
    try:
        return text(event.data)
    except (KeyError, TypeError, IndexError):
        return event.type


def page_extras(state: Any) -> dict[str, Any]:
    """What a page's board shows beyond the view (``app.web.boardview``): the event card
    revealed and not yet discarded, while it resolves (DN 7.0), with its text. Public: its
    ``EventRevealed`` told everyone."""
    for step in state.agenda:
        if step.get("op") == "discard_event":
            spec = load().events[str(step["card"]).split("#")[0]]
            who = hero_label(str(step["hero"])) if step.get("hero") else ""
            return {
                "event": {"id": spec.id, "name": spec.name, "text": spec.text, "fate": spec.fate, "hero": who}
            }
    return {}
