"""Table options (DN 20.0) and the combined difficulty modifier (DN 20.1)."""

from __future__ import annotations

from typing import Any

from app.games.darkest_night.content import SUBDECKS, load
from app.kernel.types import OptionSpec, RuleError

OPTIONS = (
    OptionSpec(
        "subdeck",
        "choice",
        "simplicity",
        "Map subdeck",
        "which blights and search results you face; Simplicity for a first game (DN 3.3)",
        choices=SUBDECKS,
        choice_labels=tuple(name.replace("_", " ").title() for name in SUBDECKS),
    ),
    OptionSpec(
        "heroes",
        "int",
        4,
        "Heroes",
        "4 is the standard game; 5, 3 or 2 dual-class (DN 20.2)",
        minimum=2,
        maximum=5,
    ),
    OptionSpec(
        "hero_seats",
        "seats",
        [],
        "Who controls each hero",
        "one seat per hero, in the order heroes are chosen; one player may control all "
        "of them; leave empty to share them out in turn (DN 3.2)",
        maximum=5,
        count_option="heroes",
        item_label="Hero",
        blank_label="shared in turn",
    ),
    OptionSpec(
        "necromancer_player",
        "bool",
        False,
        "A player runs the Necromancer",
        "the last seat plays the Necromancer with a hidden hand of map cards (DN 20.3)",
    ),
    OptionSpec(
        "darkness_cards",
        "int",
        2,
        "Darkness cards",
        "2 is normal; each more +1 difficulty, one fewer −1 difficulty (DN 20.1.1)",
        minimum=1,
        maximum=8,
    ),
    OptionSpec(
        "starting_blights",
        "int",
        1,
        "Starting blights per location",
        "1 is normal; 0 is −3 difficulty, 2 is +3 difficulty (DN 20.1.2)",
        minimum=0,
        maximum=2,
    ),
    OptionSpec(
        "starting_darkness",
        "int",
        0,
        "Starting darkness",
        "−5 is −1 difficulty, 5 is +1 difficulty (DN 20.1.3)",
        minimum=-5,
        maximum=20,
    ),
    OptionSpec("extra_grace", "bool", False, "Heroes start with 2 extra grace", "−1 difficulty (DN 20.1.4)"),
    OptionSpec("starting_sparks", "bool", False, "Heroes start with 3 sparks", "−1 difficulty (DN 20.1.4)"),
    OptionSpec(
        "starting_powers",
        "int",
        3,
        "Starting powers",
        "4 is −1 difficulty, all 5 is −2 difficulty (DN 20.1.4)",
        minimum=3,
        maximum=5,
    ),
    OptionSpec("random_heroes", "bool", False, "Random heroes", "no modifier (DN 20.1.4)"),
    OptionSpec("random_powers", "bool", False, "Random starting powers", "no modifier (DN 20.1.4)"),
    OptionSpec("pall_of_suffering", "bool", False, "The Pall of Suffering", "+1 difficulty (DN 20.1.5)"),
    OptionSpec("increased_quests", "bool", False, "Increased Quests", "+1 difficulty (DN 20.1.6)"),
    OptionSpec("hidden_relics", "bool", False, "Hidden Relics", "relics appear as clues allow (DN 20.4)"),
    OptionSpec("no_mysteries", "bool", False, "Play without mysteries", "keys instead of clues (DN 20.5)"),
    OptionSpec("no_quests", "bool", False, "Play without quests", "(DN 20.6)"),
    OptionSpec(
        "no_darkness_deck",
        "bool",
        False,
        "Play without the darkness deck",
        "Dying Land at 10 and Creeping Shadows at 20 (DN 20.7)",
    ),
)


def difficulty(options: dict[str, Any]) -> int:
    """The combined difficulty modifier of the chosen optional rules (DN 20.1)."""
    dm = int(options.get("darkness_cards", 2)) - 2
    dm += {0: -3, 1: 0, 2: 3}[int(options.get("starting_blights", 1))]
    start = int(options.get("starting_darkness", 0))
    dm += 1 if start >= 5 else (-1 if start <= -5 else 0)
    dm -= 1 if options.get("extra_grace") else 0
    dm -= 1 if options.get("starting_sparks") else 0
    dm -= {3: 0, 4: 1, 5: 2}[int(options.get("starting_powers", 3))]
    dm += 1 if options.get("pall_of_suffering") else 0
    dm += 1 if options.get("increased_quests") else 0
    dm += 4 if int(options.get("heroes", 4)) == 3 else 0
    return dm


def check_seats(options: dict[str, Any], seats: int) -> None:
    players = seats - (1 if options.get("necromancer_player") else 0)
    if options.get("necromancer_player") and seats < 2:
        raise RuleError("seat_count", "playing the Necromancer needs at least 2 players (DN 20.3)")
    if players > options["heroes"]:
        raise RuleError(
            "seat_count",
            f"{players} hero players for {options['heroes']} heroes: each player "
            "controls at least one hero (DN 3.2)",
        )
    check_hero_seats(options.get("hero_seats") or [], options["heroes"], players, seats)
    needed = options["heroes"] * (2 if options["heroes"] == 2 else 1)
    if needed > len(load().heroes):
        raise RuleError(
            "bad_option", f"{needed} heroes are needed but this server knows {len(load().heroes)}"
        )
    if options.get("no_darkness_deck") and options.get("darkness_cards", 2) != 2:
        raise RuleError("bad_option", "without the darkness deck exactly 2 cards are used (DN 20.7)")


def check_hero_seats(hero_seats: list[int], heroes: int, players: int, seats: int) -> None:
    """A chosen division of the heroes among the hero players (DN 3.2): one seat per
    hero, only hero players' seats (the Necromancer's player controls no hero, DN 20.3),
    and nobody left without a hero."""
    if not hero_seats:
        return
    if len(hero_seats) != heroes:
        raise RuleError(
            "bad_option",
            f"hero_seats names {len(hero_seats)} controllers for {heroes} heroes: give one per hero",
        )
    outside = sorted({s for s in hero_seats if s >= players})
    if outside:
        raise RuleError(
            "bad_option",
            f"hero_seats gives a hero to seat {outside[0] + 1}, but only seats 1–{players} play heroes"
            + (" (the last seat plays the Necromancer, DN 20.3)" if players < seats else ""),
        )
    idle = [s for s in range(players) if s not in hero_seats]
    if idle:
        raise RuleError(
            "bad_option", f"seat {idle[0] + 1} controls no hero: each player controls at least one (DN 3.2)"
        )


def hero_slots(options: dict[str, Any], seats: int) -> list[int]:
    """Which seat controls each hero, in the order they are chosen: as the table chose
    (``hero_seats``), or shared out in turn among the hero players (DN 3.2); with the
    Necromancer played by a person, the last seat is the Necromancer (DN 20.3)."""
    if options.get("hero_seats"):
        return list(options["hero_seats"])
    players = seats - 1 if options.get("necromancer_player") else seats
    return [i % players for i in range(options["heroes"])]


ORDINALS = ("first", "second", "third", "fourth", "fifth")


def chosen_heroes(turns: list[int], total: int) -> str:
    """Which heroes a player chooses, by their turn in the choosing (DN 3.2): "the first
    and third heroes", "the second hero", "all 4 heroes" (no hero is chosen yet)."""
    if len(turns) == total and total > 1:
        return f"all {total} heroes"
    names = [ORDINALS[n - 1] for n in turns]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"the {listed} hero{'es' if len(names) > 1 else ''}"


def describe_options(options: dict[str, Any], names: list[str]) -> list[str]:
    """What the lobby says of a table's options: the combined difficulty modifier as
    the rulebook rates it (DN 20.1) and who controls which hero (DN 3.2, 20.3)."""
    check_seats(options, len(names))
    dm = difficulty(options)
    if dm == 0:
        rating = "the standard challenge"
    elif dm > 0:
        rating = "harder than the standard game"
    else:
        rating = "easier than the standard game"
    lines = [f"Combined difficulty modifier {dm:+d} (DN 20.1): {rating}."]
    slots = hero_slots(options, len(names))
    for seat, name in enumerate(names):
        heroes = [i + 1 for i, s in enumerate(slots) if s == seat]
        if heroes:
            lines.append(f"{name} chooses and plays {chosen_heroes(heroes, len(slots))}.")
    if options.get("necromancer_player") and names:
        lines.append(f"{names[-1]} plays the Necromancer (DN 20.3).")
    return lines
