"""vision.fast_stats gives NumPy's median and percentile bit for bit (the readers' results rest on it)."""

import numpy as np
import pytest

from vision.fast_stats import median, median_last_axis, percentile_rows

DTYPES = (np.uint8, np.int32, np.float32, np.float64)


def _values(rng, dtype, shape):
    return (rng.normal(100, 60, size=shape)).clip(0, 255).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("q", (0, 10, 25, 33.3, 50, 60, 75, 90, 100))
@pytest.mark.parametrize("n", (1, 2, 3, 24, 32, 101))
def test_percentile_rows_is_numpys(dtype, q, n):
    rng = np.random.default_rng(n * 1000 + int(q * 10))
    values = _values(rng, dtype, (15, n))
    expected = np.percentile(values, q, axis=1)
    got = percentile_rows(values, q)
    assert got.dtype == expected.dtype
    assert np.array_equal(got, expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", ((1,), (2,), (7,), (8,), (9, 13), (4, 6)))
def test_median_is_numpys(dtype, shape):
    rng = np.random.default_rng(sum(shape))
    values = _values(rng, dtype, shape)
    assert median(values) == float(np.median(values))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", ((5, 1), (5, 2), (3, 4, 7), (6, 10), (2, 2, 33)))
def test_median_last_axis_is_numpys(dtype, shape):
    rng = np.random.default_rng(sum(shape) + 7)
    values = _values(rng, dtype, shape)
    expected = np.median(values, axis=-1)
    got = median_last_axis(values)
    assert got.dtype == expected.dtype
    assert np.array_equal(got, expected)


def test_every_length_of_a_row():
    # even and odd lengths take different paths (one middle value, or two halved)
    rng = np.random.default_rng(5)
    for n in range(1, 60):
        for dtype in DTYPES:
            values = _values(rng, dtype, (3, n))
            assert median(values[0]) == float(np.median(values[0]))
            expected = np.median(values, axis=1)
            got = median_last_axis(values)
            assert got.dtype == expected.dtype and np.array_equal(got, expected)


def test_ties_and_repeated_values():
    # a blown-out patch: many equal values, where an interpolation that took the wrong pair would show
    values = np.array([[255, 255, 255, 254, 12, 255, 255, 3]], np.uint8)
    assert np.array_equal(percentile_rows(values, 25), np.percentile(values, 25, axis=1))
    assert median(values) == float(np.median(values))
