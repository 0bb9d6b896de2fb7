"""What the benches share: the nearest-rank percentile of a list of timings."""

from __future__ import annotations


def percentile(values: list[float], q: float) -> float:
    """Return the q-th percentile (nearest rank) of `values` (0.0 for none)."""
    if not values:
        return 0.0
    v = sorted(values)
    return v[min(len(v) - 1, round(q / 100 * (len(v) - 1)))]
