"""The rules of Darkest Night, one module per rulebook chapter; importing this package
registers every step, decision and applier with the engine."""

from app.games.darkest_night import events  # noqa: F401
from app.games.darkest_night.rules import (  # noqa: F401
    actions,
    autopass,
    blights,
    cards,
    combat,
    darkness_effects,
    event_effects,
    hero_effects,
    items,
    necromancer,
    ops,
    powers,
    quest_effects,
    round,
    setup,
)
