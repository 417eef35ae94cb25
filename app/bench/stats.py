"""Small helpers shared by the benchmarks: percentiles and plain-text tables."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile (0 < p <= 100) of ``values``; NaN if empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def fmt(value: float, digits: int = 2) -> str:
    return "-" if math.isnan(value) else f"{value:,.{digits}f}"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, left: int = 2) -> str:
    """A plain-text table: the first ``left`` columns left-aligned, the rest right-aligned."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    out = [line(headers), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out)
