"""NumPy's median and percentile, bit for bit, without their general machinery.

The board and tile readers take thousands of medians and percentiles of small
arrays a frame; ``np.median`` and ``np.percentile`` spend most of that time in
argument checks and general code paths.  These take the same partial sort and
the same interpolation as NumPy (its default "linear" method), so every value,
and with it every reading, stays exactly what it was; tests/vision/test_fast_stats.py
checks them against NumPy for the dtypes the readers use.
"""

from __future__ import annotations

import numpy as np


def median(values: np.ndarray) -> float:
    """float(np.median(values)) by a partial sort, without np.median's checks (the same value: the
    middle one, or np.mean of the middle two)."""
    flat = values.ravel()
    k = flat.size // 2
    if flat.size % 2:
        return float(np.partition(flat, k)[k])
    return float(np.mean(np.partition(flat, (k - 1, k))[k - 1:k + 1]))


def median_last_axis(values: np.ndarray) -> np.ndarray:
    """np.median(values, axis=-1) bit for bit (np.mean of the middle one or two of a partial sort,
    as NumPy does), without np.median's checks."""
    n = values.shape[-1]
    k = n // 2
    if values.dtype in (np.float32, np.float64):
        # np.mean of one or two values of these types is the value, or their sum halved, in the type
        if n % 2:
            return np.partition(values, k, axis=-1)[..., k]
        part = np.partition(values, (k - 1, k), axis=-1)
        return (part[..., k - 1] + part[..., k]) / 2
    if n % 2:
        return np.mean(np.partition(values, k, axis=-1)[..., k:k + 1], axis=-1)
    return np.mean(np.partition(values, (k - 1, k), axis=-1)[..., k - 1:k + 1], axis=-1)


def percentile_rows(values: np.ndarray, q: float) -> np.ndarray:
    """``np.percentile(values, q, axis=1)`` bit for bit (NumPy's default linear method), by a
    partial sort of each row instead of NumPy's general quantile machinery."""
    n = values.shape[1]
    virtual = (n - 1) * (q / 100.0)
    lo = int(np.floor(virtual))
    hi = min(lo + 1, n - 1)
    t = virtual - lo
    part = np.partition(values, (lo, hi), axis=1)
    a, b = part[:, lo], part[:, hi]
    diff = b - a
    # NumPy interpolates from the nearer end, so the result is exact at t = 0 and t = 1.
    if t >= 0.5:
        return b - diff * (1 - t)
    return a + diff * t
