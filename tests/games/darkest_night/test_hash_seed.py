"""The same seed and commands give the same events in every process: nothing the rules
decide may depend on the order of a set of strings, which Python's hash randomisation
changes from one process to the next (DESIGN.md: engines are pure and deterministic). Two
dual-class heroes (DN 20.2.3) build their power decks from two classes' cards."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import hashlib, json, random
from app.games.darkest_night import DARKEST_NIGHT as game
from app.kernel import table as kernel
from app.kernel.game import validate_options
from app.kernel.rng import rng_for
from app.kernel.types import Command, SeatInfo, Viewer

picker = random.Random(3)
log = game.setup(validate_options(game, {"heroes": 2}), [SeatInfo(0, "A")], rng_for("hash-seed", 1))
state = kernel.replay(game, log)
for _ in range(40):
    prompt = next(p for p in game.prompts(state) if p.required)
    choice = picker.choice(prompt.choices)
    command = Command(prompt.seat, choice.type, choice.args)
    actor = Viewer("seat", frozenset({0}))
    events = kernel.decide(game, state, command, actor, rng_for("hash-seed", len(log) + 1))
    state = kernel.fold_all(game, state, events)
    log.extend(events)
assert any(e.type == "PowerDeckShuffled" for e in log)
print(hashlib.sha256(json.dumps([e.to_json() for e in log], sort_keys=True).encode()).hexdigest())
"""


def events_digest(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True, timeout=120
    )
    return done.stdout.strip()


def test_a_dual_class_game_plays_the_same_whatever_the_string_hashes() -> None:
    digests = {events_digest(seed) for seed in ("1", "2", "3", "4")}
    assert len(digests) == 1
