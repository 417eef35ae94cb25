"""The heuristic bot's win rate per hero (DN 3.2: 4 heroes chosen from the 29).

Two measures, both seeded and at default difficulty, one seat playing every hero:

- **with the bot's party**: the hero plays beside the three heroes the bot itself picks
  first (Seer, Mesmer, Crusader; one of those is replaced by the Valkyrie, the bot's fourth
  pick, when it is the hero measured), so the rate compares heroes against a fixed company
  (the rows of those four heroes all play the bot's own party, in another seating order:
  their spread shows the noise of the sample);
- **in random parties**: every game seats 4 heroes drawn at random from all 29; a hero's rate
  is over the games it took part in.

``python -m app.games.darkest_night.hero_rates [games] [--random N]`` prints both; the
engine bench can call :func:`print_hero_rates`.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Sequence

from app.games.darkest_night import DARKEST_NIGHT
from app.games.darkest_night.bot import choose
from app.games.darkest_night.bot.hero import HERO_PREFERENCE
from app.games.darkest_night.content import load
from app.games.darkest_night.decisions import ChooseHero
from app.games.darkest_night.state import State
from app.kernel import playout
from app.kernel.types import Choice, Prompt

MAX_COMMANDS = 20_000


def party_for(hero: str) -> list[str]:
    """The hero and the first three others the bot would pick itself."""
    return [hero, *[h for h in HERO_PREFERENCE if h != hero][:3]]


def play_party(party: Sequence[str], seed: int) -> str:
    """One bot game with these heroes chosen at setup (in this order); a replacement after a
    death (DN 13.1) is the bot's own pick. Returns "win", "loss" or "unfinished"."""
    state = play_party_state(party, seed, MAX_COMMANDS)
    outcome = DARKEST_NIGHT.outcome(state)
    return outcome.result if outcome else "unfinished"


def play_party_state(party: Sequence[str], seed: int, max_commands: int) -> State:
    """The state after at most ``max_commands`` commands of that game."""
    rng = random.Random(seed)
    wanted = list(party)

    def pick(state: State, prompt: Prompt, _count: int) -> Choice:
        decision = state.decision
        if isinstance(decision, ChooseHero) and not decision.replacing and wanted:
            hero = wanted[0]
            for c in prompt.choices:
                if c.args.get("hero") == hero:
                    wanted.pop(0)
                    return c
        return choose(state, prompt, rng)

    table = playout.set_up(DARKEST_NIGHT, {}, ["Bot"], f"heroes-{seed}")

    def player(state: State, prompts: list[Prompt]) -> tuple[Prompt, Choice]:
        prompt = next(p for p in prompts if p.required)
        return prompt, pick(state, prompt, table.events)

    return playout.play(table, player, max_commands=max_commands).state


def rates_with_party(heroes: Sequence[str], games: int, seed: int = 0) -> dict[str, tuple[int, int]]:
    """hero -> (wins, games) beside the bot's own party."""
    out = {}
    for hero in heroes:
        results = Counter(play_party(party_for(hero), seed + n) for n in range(games))
        out[hero] = (results["win"], games)
    return out


def rates_in_random_parties(games: int, seed: int = 0) -> dict[str, tuple[int, int]]:
    """hero -> (wins, games played) over ``games`` games of 4 random heroes."""
    heroes = sorted(load().heroes)
    drawer = random.Random(seed)
    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for n in range(games):
        party = drawer.sample(heroes, 4)
        result = play_party(party, 1_000_000 + seed + n)
        for hero in party:
            played[hero] += 1
            wins[hero] += result == "win"
    return {h: (wins[h], played[h]) for h in heroes}


def print_hero_rates(games: int = 40, random_games: int = 300, seed: int = 0) -> None:
    """Print the bot's win rate per hero, both measures, one hero per line."""
    heroes = sorted(load().heroes)
    names = load().heroes
    fixed = rates_with_party(heroes, games, seed) if games else {}
    mixed = rates_in_random_parties(random_games, seed) if random_games else {}
    print(
        f"heuristic bot, win rate per hero: {games} games each beside the bot's party; "
        f"{random_games} games of random parties"
    )
    print(f"  {'hero':<12} {'with party':>12} {'random parties':>18}")
    for hero in sorted(heroes, key=lambda h: -(fixed.get(h, (0, 1))[0] / max(1, fixed.get(h, (0, 1))[1]))):
        cells = []
        for table in (fixed, mixed):
            won, of = table.get(hero, (0, 0))
            cells.append(f"{won / of:6.1%} ({won}/{of})" if of else "-")
        print(f"  {names[hero].name:<12} {cells[0]:>12} {cells[1]:>18}")


def main(argv: Sequence[str]) -> int:
    games = int(argv[0]) if argv and not argv[0].startswith("--") else 40
    random_games = int(argv[argv.index("--random") + 1]) if "--random" in argv else 300
    print_hero_rates(games, random_games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
