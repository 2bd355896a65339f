"""Confidence intervals of win rates, free of Django so benchmarks can import them."""

from __future__ import annotations

import math

Z = 1.96  # 95% Wilson intervals


def wilson(points: float, n: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of a rate of `points` out of `n` (0-1 when n is 0).

    `points` may be fractional: a shared first place or a draw counts a share of a win.
    """
    if n <= 0:
        return 0.0, 1.0
    p = points / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


__all__ = ["Z", "wilson"]
