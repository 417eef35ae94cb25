"""Beacons, a test-only campaign game (``game.py``) that proves the platform's contract
without Darkest Night. Importing this package registers it, so the server loads it with
``UMBRA_EXTRA_GAMES=tests.support.beacons``; it is never in the product's registry."""

from app.kernel import register
from tests.support.beacons.game import BEACONS, RULES, Beacons

register(BEACONS)

__all__ = ["BEACONS", "RULES", "Beacons"]
