"""The rules of Dark Omen, one module per chapter of the rulebook (each cites the lines it
implements); importing this package registers every step, decision and hero action.

- ``campaign``, ``days``, ``round``: the campaign's structure, the day, the round.
- ``heroes`` (tracks, AP, hands, death), ``stats`` (derived numbers), ``runes``, ``death``.
- What a hero does, each module holding the choices and their resolution: ``movement``,
  ``loot``, ``potions``, ``market``, ``gambling``, ``locations``, ``barrows``,
  ``underworld``, ``battle`` (with ``combat``, the pure dice pairing, and ``damage``).
- ``creatures`` (enemies, bosses), ``omens`` (the omen cards as data).
"""

from app.games.dark_omen.rules import (  # noqa: F401
    barrows,
    battle,
    campaign,
    combat,
    creatures,
    damage,
    days,
    death,
    gambling,
    heroes,
    locations,
    loot,
    market,
    movement,
    omens,
    potions,
    round,
    runes,
    stats,
    underworld,
)
