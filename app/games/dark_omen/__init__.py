"""Dark Omen: the campaign engine (rules, content, the rotating labyrinth as data)."""

from app.games.dark_omen.game import DarkOmen
from app.kernel.registry import register

DARK_OMEN = register(DarkOmen())
