"""The cycle collector of a serving process (issue 10; ``umbra serve`` only).

CPython's collector walks every tracked object of a generation each time it runs. A server
under load allocates fast (renders, frames, requests), so with the default thresholds (700,
10, 10) it ran young passes many times a second and, every few seconds, a full pass over the
whole heap: the modules, the templates and each game's content included, which never become
garbage. Under saturation (30 Darkest Night tables, 4 html seats + 1 spectator each, one
process) the collector took 11 % of the server's CPU and a full pass held the event loop for
up to 340 ms, every table waiting.

``settle()``, once the app has started, collects once and freezes what is alive then
(``gc.freeze``: the start-up objects are never walked again), and raises the young
generation's threshold, so most of a command's short-lived objects are freed by their
reference counts before a pass walks them. Cycles are still collected, a little later. The
same load: 4 % of the CPU in the collector, the longest full pass 128 ms."""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 20_000
"""Net allocations of tracked objects between two young passes (CPython's default: 700): a
pass then walks a few milliseconds' worth of objects, at most a few MB of uncollected cycles."""
OLDER_THRESHOLDS = (10, 10)
"""CPython's own: a middle pass every 10 young ones, a full one every 10 middle ones."""


def settle() -> None:
    """Freeze what start-up left alive and raise the young threshold (a serving process's
    own collector; tests and benches that build an app in their process keep theirs)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
