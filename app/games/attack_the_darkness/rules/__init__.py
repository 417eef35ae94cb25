"""The rules of Attack the Darkness, one module per rulebook chapter or topic (each cites
the lines it implements, ``AtD L<n>``, and "facts file §n" where the rulebook is silent).
Importing this package registers every step, decision and window with the engine's
``RULES`` (``engine.py``), and the fold (``events.py``)."""

import app.games.attack_the_darkness.events  # noqa: F401  (registers the fold)
from app.games.attack_the_darkness.rules import (  # noqa: F401
    abilities,
    advancement,
    arena,
    campaign,
    clearing,
    defence,
    drawing,
    effects,
    encounter_map,
    equipment,
    health,
    monsters,
    movement,
    payment,
    playing,
    populating,
    query,
    targeting,
    turn,
)
