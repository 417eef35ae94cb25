"""Attack the Darkness: the rules engine, its cards, dungeons and modes (see README.md)."""

from app.games.attack_the_darkness.game import AttackTheDarkness
from app.kernel.registry import register

ATTACK_THE_DARKNESS = register(AttackTheDarkness())

__all__ = ["ATTACK_THE_DARKNESS", "AttackTheDarkness"]
