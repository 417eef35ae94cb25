"""The game-agnostic kernel: the decide/evolve contract, its values, chance and replay."""

from app.kernel.game import Game, GameBase, validate_options
from app.kernel.registry import all_games, get_game, register
from app.kernel.rng import new_seed, rng_for, roll, shuffled
from app.kernel.table import decide, fold, replay
from app.kernel.types import (
    GAME_MASTER,
    GM_SEAT,
    SPECTATOR,
    Choice,
    Command,
    Event,
    OptionSpec,
    Outcome,
    Prompt,
    RuleError,
    Seat,
    SeatInfo,
    Secret,
    Unavailable,
    Viewer,
)

__all__ = [
    "GAME_MASTER",
    "GM_SEAT",
    "SPECTATOR",
    "Choice",
    "Command",
    "Event",
    "Game",
    "GameBase",
    "OptionSpec",
    "Outcome",
    "Prompt",
    "RuleError",
    "Seat",
    "SeatInfo",
    "Secret",
    "Unavailable",
    "Viewer",
    "all_games",
    "decide",
    "fold",
    "get_game",
    "new_seed",
    "register",
    "replay",
    "rng_for",
    "roll",
    "shuffled",
    "validate_options",
]
