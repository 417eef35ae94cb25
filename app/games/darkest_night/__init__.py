"""Darkest Night (2nd edition): the rules engine, its content and its board templates."""

from app.games.darkest_night.game import DarkestNight
from app.kernel.registry import register

DARKEST_NIGHT = register(DarkestNight())
