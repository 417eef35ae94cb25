"""The rules of Darkest Night, one module per rulebook chapter; importing this package
registers every step, decision and applier with the engine."""

import app.games.darkest_night.events  # noqa: F401  (every event applier)
from app.games.darkest_night.rules import (  # noqa: F401
    actions,
    any_time,
    autopass,
    blights,
    cards,
    combat,
    darkness_effects,
    dice,
    event_effects,
    hero_effects,
    items,
    necromancer,
    ops,
    powers,
    quest_effects,
    round,
    search,
    setup,
    wounds,
)
