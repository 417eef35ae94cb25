"""The games Umbra runs: one subpackage per game, each registering its game with
``app.kernel.registry`` when imported.

``discover`` is what the ``umbra.games`` entry point (``pyproject.toml``) names: the
registry calls it the first time a game is asked for, so adding a game touches only its
own folder here.
"""

from __future__ import annotations

import importlib
import pkgutil


def discover() -> list[str]:
    """Import every game subpackage (each registers itself); the names imported."""
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)
    for name in names:
        importlib.import_module(f"{__name__}.{name}")
    return names
