"""darray.random._samplers: each sampler against scipy.stats (KS or chi-square at n = 10^5, fixed seeds), its
moments, edge parameters, array-valued parameters (broadcast, strided and reversed views), the counter layout,
and the cpu place against the OpenCL device."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import darray as da
from darray.random._samplers import KINDS, counters, sample

N = 100_000
ALPHA = 1e-4  # p-value floor (as tests/test_random.py): fixed seeds, so a pass is a pass every run
KEY = (0x2545F491, 0x4F6CDD1D)
CONTINUOUS = {"standard_gamma"}

# (kind, params, scipy.stats distribution, mean, variance)
CASES = [
    ("standard_gamma", (0.05,), stats.gamma(0.05), 0.05, 0.05),
    ("standard_gamma", (0.5,), stats.gamma(0.5), 0.5, 0.5),
    ("standard_gamma", (1.0,), stats.gamma(1.0), 1.0, 1.0),
    ("standard_gamma", (2.0,), stats.gamma(2.0), 2.0, 2.0),
    ("standard_gamma", (37.5,), stats.gamma(37.5), 37.5, 37.5),
    ("standard_gamma", (1e7,), stats.gamma(1e7), 1e7, 1e7),
    ("poisson", (1e-3,), stats.poisson(1e-3), 1e-3, 1e-3),
    ("poisson", (3.5,), stats.poisson(3.5), 3.5, 3.5),
    ("poisson", (9.99,), stats.poisson(9.99), 9.99, 9.99),
    ("poisson", (10.0,), stats.poisson(10.0), 10.0, 10.0),
    ("poisson", (1234.5,), stats.poisson(1234.5), 1234.5, 1234.5),
    ("poisson", (1e9,), stats.poisson(1e9), 1e9, 1e9),
    ("binomial", (1, 0.5), stats.binom(1, 0.5), 0.5, 0.25),
    ("binomial", (20, 0.3), stats.binom(20, 0.3), 6.0, 4.2),
    ("binomial", (100, 0.29), stats.binom(100, 0.29), 29.0, 20.59),
    ("binomial", (1000, 0.9), stats.binom(1000, 0.9), 900.0, 90.0),
    ("binomial", (10**6, 0.4), stats.binom(10**6, 0.4), 4e5, 2.4e5),
    ("binomial", (10**12, 1e-9), stats.binom(10**12, 1e-9), 1e3, 1e3 * (1 - 1e-9)),
]
# per kind, parameter sets in every range of its algorithms: the array-valued and cross-place tests
ROWS = {"standard_gamma": [(0.0,), (0.3,), (1.0,), (2.5,), (40.0,), (1e6,)],
        "poisson": [(0.0,), (1e-9,), (2.5,), (9.5,), (10.0,), (300.0,), (1e15,)],
        "binomial": [(0, 0.3), (10, 0.0), (10, 1.0), (7, 0.5), (50, 0.7), (200, 0.1), (10**4, 0.5), (10**9, 0.99)]}


def _dtype(kind: str) -> type:
    return np.float64 if kind in CONTINUOUS else np.int64


def _draw(kind: str, params: tuple, shape: tuple, place, base: int = 0, dtype=None):
    return sample(kind, KEY, base, params, shape, np.dtype(dtype or _dtype(kind)), place).get()


def _chisquare(x: np.ndarray, dist) -> float:
    """Chi-square p-value of the integers ``x`` against ``dist`` in about 60 bins of equal probability (at least
    5 expected in each)."""
    edges = np.unique(dist.ppf(np.linspace(0, 1, 61)[1:-1]))
    p = np.diff(np.concatenate([[0.0], dist.cdf(edges), [1.0]]))
    obs = np.bincount(np.searchsorted(edges, x), minlength=p.size)
    want, got, e, o = [], [], 0.0, 0
    for pi, oi in zip(p * x.size, obs):
        e, o = e + pi, o + oi
        if e >= 5:
            want.append(e)
            got.append(o)
            e, o = 0.0, 0
    want[-1] += e
    got[-1] += o
    want_a = np.array(want)
    return stats.chisquare(got, want_a * x.size / want_a.sum()).pvalue


def _places():
    return [pytest.param(da.CPUPlace(), id="cpu"), pytest.param(None, id="default")]


@pytest.mark.parametrize("place", _places())
@pytest.mark.parametrize("kind,params,dist,mean,var", CASES, ids=[f"{c[0]}{c[1]}" for c in CASES])
def test_against_scipy(kind, params, dist, mean, var, place):
    place = place or da.place.default()
    x = _draw(kind, params, (N,), place, base=7)
    assert x.dtype == _dtype(kind)
    p = stats.kstest(x, dist.cdf).pvalue if kind in CONTINUOUS else _chisquare(x, dist)
    assert p > ALPHA, (kind, params, p)
    # moments: the mean and the variance within 5 standard errors (the variance's from the excess kurtosis)
    assert abs(x.mean() - mean) < 5 * np.sqrt(var / N), (x.mean(), mean)
    if var is not None:
        kurt = float(dist.stats(moments="k"))
        assert abs(x.var() / var - 1) < 5 * np.sqrt((kurt + 2) / N) + 1e-3, (x.var(), var)


@pytest.mark.parametrize("kind", KINDS)
def test_cpu_and_device_agree(kind, cl_place):
    """The same algorithm on both places: equal integers, floats to the math functions' accuracy; float32 is
    the float64 draw rounded (one ulp apart at most)."""
    for params in ROWS[kind]:
        host = _draw(kind, params, (2003,), da.CPUPlace(), base=2**64 - 1000)  # the counters wrap around
        dev = _draw(kind, params, (2003,), cl_place, base=2**64 - 1000)
        if kind in CONTINUOUS:
            np.testing.assert_allclose(dev, host, rtol=1e-12, atol=1e-300)
            f32 = _draw(kind, params, (2003,), cl_place, base=2**64 - 1000, dtype=np.float32)
            assert f32.dtype == np.float32
            np.testing.assert_array_max_ulp(f32, host.astype(np.float32), 1)
        else:
            np.testing.assert_array_equal(dev, host)


@pytest.mark.parametrize("place", _places())
@pytest.mark.parametrize("kind", KINDS)
def test_array_parameters(kind, place):
    """Array-valued parameters (broadcast, reversed and strided views, mixed with scalars) give each element
    the draw the scalar parameters would at its counter."""
    place = place or da.place.default()
    rows = ROWS[kind]
    m = len(rows)
    scalar = np.array([_draw(kind, row, (5 * m,), place, base=3) for row in rows])  # (m, 5 m)
    # as columns broadcast against 5 columns, each a reversed view: element (r, c) is counter base + 5 r + c
    cols = [da.asarray(np.array(col[::-1], np.float64), device=place)[::-1].reshape(m, 1) for col in zip(*rows)]
    got = _draw(kind, tuple(cols), (m, 5), place, base=3)
    np.testing.assert_array_equal(got, np.array([scalar[r, 5 * r:5 * r + 5] for r in range(m)]))
    # strided views, and the first parameter an array beside scalar others (the last row's values)
    strided = [da.asarray(np.repeat(np.array(col, np.float64), 2), device=place)[::2] for col in zip(*rows)]
    np.testing.assert_array_equal(_draw(kind, tuple(strided), (m,), place, base=3), scalar[np.arange(m), np.arange(m)])
    first = da.asarray(np.full(5 * m, rows[-1][0], np.float64), device=place)
    np.testing.assert_array_equal(_draw(kind, (first, *rows[-1][1:]), (5 * m,), place, base=3), scalar[-1])


@pytest.mark.parametrize("place", _places())
@pytest.mark.parametrize("kind", KINDS)
def test_counter_layout(kind, place):
    """Element i draws from counter base + i only: a draw at base + k is the draw at base shifted by k, in
    every size (whole vector groups or not); ``counters`` is the size; empty draws are empty."""
    place = place or da.place.default()
    params = ROWS[kind][-1]
    a = _draw(kind, params, (37,), place, base=100)
    np.testing.assert_array_equal(a[7:], _draw(kind, params, (30,), place, base=107))
    assert counters(kind, 37) == 37
    assert _draw(kind, params, (0, 3), place).shape == (0, 3)
    assert _draw(kind, params, (), place).shape == ()


@pytest.mark.parametrize("place", _places())
def test_gamma_edges(place):
    place = place or da.place.default()
    assert not _draw("standard_gamma", (0.0,), (100,), place).any()
    tiny = _draw("standard_gamma", (1e-3,), (1000,), place)
    assert (tiny >= 0).all() and np.isfinite(tiny).all() and np.median(tiny) < 1e-100
    huge = _draw("standard_gamma", (1e15,), (1000,), place)
    assert abs(huge.mean() / 1e15 - 1) < 1e-6


@pytest.mark.parametrize("place", _places())
def test_discrete_edges(place):
    """lam 0, n 0, p 0 and 1 give their one value; huge lam and n stay near their means."""
    place = place or da.place.default()
    assert not _draw("poisson", (0.0,), (100,), place).any()
    assert not _draw("binomial", (0, 0.5), (100,), place).any() and not _draw("binomial", (9, 0.0), (100,), place).any()
    assert (_draw("binomial", (9, 1.0), (100,), place) == 9).all()
    big = _draw("poisson", (1e15,), (1000,), place)
    assert abs(big.mean() / 1e15 - 1) < 1e-6
    n = 2**53
    b = _draw("binomial", (n, 0.5), (1000,), place)
    assert abs(b.mean() / (n / 2) - 1) < 1e-6 and b.max() <= n


@pytest.mark.parametrize("place", _places())
def test_unknown_kind(place):
    place = place or da.place.default()
    with pytest.raises(ValueError, match="darray random.sample: unknown kind"):
        sample("gamma", KEY, 0, (1.0,), (3,), np.dtype(np.float64), place)
    assert _draw("standard_gamma", (1.0,), (3,), place).shape == (3,)  # the next call works
