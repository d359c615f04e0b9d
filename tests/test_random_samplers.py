"""darray.random._samplers: each sampler against scipy.stats (KS or chi-square at n = 10^5, fixed seeds), its
moments, edge parameters, array-valued parameters (broadcast, strided and reversed views), the counter layout,
and the cpu place against the OpenCL device."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special, stats

import darray as da
from darray.random import _host_samplers as H
from darray.random import _samplers as samplers
from darray.random._samplers import KINDS, counters, sample

N = 100_000
ALPHA = 1e-4  # p-value floor (as tests/test_random.py): fixed seeds, so a pass is a pass every run
KEY = (0x2545F491, 0x4F6CDD1D)
CONTINUOUS = {"standard_gamma", "vonmises"}


class _VonMises:
    """scipy.stats.vonmises(kappa)'s cdf interpolated on 20001 points of [-pi, pi] within 12 standard deviations
    (scipy's is slow at 10^5 points)."""

    def __init__(self, kappa: float) -> None:
        half = min(np.pi, 12 / np.sqrt(kappa))
        self.grid = np.linspace(-half, half, 20001)
        self.values = stats.vonmises(kappa).cdf(self.grid)

    def cdf(self, x: np.ndarray) -> np.ndarray:
        return np.interp(x, self.grid, self.values)

    def stats(self, moments: str) -> tuple:
        return (np.nan,) * len(moments)


class _Zipf:
    """scipy.stats.zipf below 2^63 (NumPy's and darray's zipf reject larger values), its cdf through Hurwitz's
    zeta (scipy's sums the pmf: too slow in the heavy tails)."""

    def __init__(self, a: float) -> None:
        self.a = a

    def cdf(self, k: np.ndarray) -> np.ndarray:
        below = 1 - special.zeta(self.a, np.asarray(k, np.float64) + 1) / special.zeta(self.a, 1)
        return below / (1 - special.zeta(self.a, 2.0 ** 63) / special.zeta(self.a, 1))

    def stats(self, moments: str) -> tuple:
        return stats.zipf(self.a).stats(moments=moments)


# (kind, params, scipy.stats distribution; vonmises': of the angle from mu, wrapped to [-pi, pi])
CASES = [
    *[("standard_gamma", (a,), stats.gamma(a)) for a in (0.05, 0.5, 1.0, 2.0, 37.5, 1e7)],
    *[("poisson", (lam,), stats.poisson(lam)) for lam in (1e-3, 3.5, 9.99, 10.0, 1234.5, 1e9)],
    *[("binomial", (n, p), stats.binom(n, p)) for n, p in ((1, 0.5), (20, 0.3), (100, 0.29), (1000, 0.9),
                                                            (10**6, 0.4), (10**12, 1e-9), (10**16, 1e-15))],
    *[("hypergeometric", (g, b, m), stats.hypergeom(g + b, g, m))
      for g, b, m in ((5, 7, 4), (50, 30, 75), (300, 200, 100), (10**6, 10**8, 10**7))],
    ("vonmises", (0.0, 1e-9), stats.uniform(-np.pi, 2 * np.pi)),
    *[("vonmises", (mu, k), _VonMises(k)) for mu, k in ((1.0, 1e-6), (-2.0, 0.5), (3.0, 4.0), (0.5, 1e5),
                                                             (np.pi - 1e-4, 1e7))],
    *[("zipf", (a,), _Zipf(a)) for a in (1.01, 1.5, 3.5, 7.0)],
    *[("logseries", (p,), stats.logser(p)) for p in (1e-3, 0.3, 0.95, 0.999)],
]
# per kind, parameter sets in every range of its algorithms: the array-valued and cross-place tests
ROWS = {"standard_gamma": [(0.0,), (0.3,), (1.0,), (2.5,), (40.0,), (1e6,)],
        "poisson": [(0.0,), (1e-9,), (2.5,), (9.5,), (10.0,), (300.0,), (1e15,)],
        "binomial": [(0, 0.3), (10, 0.0), (10, 1.0), (7, 0.5), (50, 0.7), (200, 0.1), (10**4, 0.5), (10**9, 0.99)],
        "hypergeometric": [(0, 5, 3), (5, 0, 3), (4, 6, 0), (4, 6, 10), (20, 30, 9), (20, 30, 41), (30, 20, 25),
                           (1000, 10, 500), (10, 1000, 990), (10**8, 10**8, 10**8)],
        "vonmises": [(0.0, 0.0), (1.0, 1e-9), (-1.0, 1e-6), (3.0, 0.7), (-3.0, 50.0), (2.0, 1e6), (3.1, 1e9)],
        "zipf": [(1.0001,), (1.3,), (2.0,), (7.5,), (1024.9,), (1025.0,), (1e9,)],
        "logseries": [(0.0,), (1e-12,), (0.2,), (0.7,), (0.999,), (1 - 1e-12,)]}


def _dtype(kind: str) -> type:
    return np.float64 if kind in CONTINUOUS else np.int64


def _draw(kind: str, params: tuple, shape: tuple, place, base: int = 0, dtype=None):
    return sample(kind, KEY, base, params, shape, np.dtype(dtype or _dtype(kind)), place).get()


def _chisquare(x: np.ndarray, cdf) -> float:
    """Chi-square p-value of the integers ``x`` against ``cdf`` in about 60 bins between the sample's quantiles
    (at least 5 expected in each)."""
    edges = np.unique(np.quantile(x, np.linspace(0, 1, 61)[1:-1], method="lower"))
    p = np.diff(np.concatenate([[0.0], cdf(edges), [1.0]]))
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
@pytest.mark.parametrize("kind,params,dist", CASES, ids=[f"{c[0]}{c[1]}" for c in CASES])
def test_against_scipy(kind, params, dist, place):
    place = place or da.place.default()
    x = _draw(kind, params, (N,), place, base=7)
    assert x.dtype == _dtype(kind)
    if kind == "vonmises":
        assert (np.abs(x) <= np.pi).all()
        x = np.mod(x - params[0] + np.pi, 2 * np.pi) - np.pi
    p = stats.kstest(x, dist.cdf).pvalue if kind in CONTINUOUS else _chisquare(x, dist.cdf)
    assert p > ALPHA, (kind, params, p)
    # moments where finite: the mean and the variance within 5 standard errors (the variance's from the kurtosis)
    mean, var, kurt = (float(v) for v in dist.stats(moments="mvk"))
    if np.isfinite(kurt):
        assert abs(x.mean() - mean) < 5 * np.sqrt(var / N), (x.mean(), mean)
        assert abs(x.var() / var - 1) < 5 * np.sqrt((kurt + 2) / N) + 1e-3, (x.var(), var)


@pytest.mark.parametrize("kind", KINDS)
def test_cpu_and_device_agree(kind, cl_place):
    """The same algorithm on both places: equal integers, floats to the math functions' accuracy; float32 is
    the float64 draw rounded (one ulp apart at most)."""
    for params in ROWS[kind]:
        host = _draw(kind, params, (2003,), da.CPUPlace(), base=2**64 - 1000)  # the counters wrap around
        dev = _draw(kind, params, (2003,), cl_place, base=2**64 - 1000)
        if kind in CONTINUOUS:
            # vonmises: acos near 1 turns the ulps of cos into 1e-11 of the angle
            np.testing.assert_allclose(dev, host, rtol=1e-12, atol=1e-9 if kind == "vonmises" else 1e-300)
            f32 = _draw(kind, params, (2003,), cl_place, base=2**64 - 1000, dtype=np.float32)
            assert f32.dtype == np.float32
            np.testing.assert_array_max_ulp(f32, host.astype(np.float32), 1)
        else:  # zipf too: its exp, expm1, log1p and log are darray's own (the same bits on every place)
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
    assert (_draw("logseries", (0.0,), (100,), place) == 1).all() and (_draw("zipf", (2000.0,), (9,), place) == 1).all()
    for g, b, m, want in ((0, 5, 3, 0), (5, 0, 3, 3), (4, 6, 0, 0), (4, 6, 10, 4), (10**8, 10**8, 2 * 10**8, 10**8)):
        assert (_draw("hypergeometric", (g, b, m), (50,), place) == want).all()
    big = _draw("poisson", (1e15,), (1000,), place)
    assert abs(big.mean() / 1e15 - 1) < 1e-6
    n = 2**53
    b = _draw("binomial", (n, 0.5), (1000,), place)
    assert abs(b.mean() / (n / 2) - 1) < 1e-6 and b.max() <= n


def test_device_without_fp64(cl_place, monkeypatch):
    """A device without float64 gets the cpu place's numbers, copied there."""
    want = _draw("binomial", (30, 0.2), (100,), da.CPUPlace())
    monkeypatch.setattr(samplers, "_without_fp64", lambda place: True)
    got = sample("binomial", KEY, 0, (da.asarray(np.full(100, 30.0), device=cl_place), 0.2), (100,),
                 np.dtype(np.int64), cl_place)
    assert got.place == cl_place
    np.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("place", _places())
def test_unknown_kind(place):
    place = place or da.place.default()
    with pytest.raises(ValueError, match="darray random.sample: unknown kind"):
        sample("gamma", KEY, 0, (1.0,), (3,), np.dtype(np.float64), place)
    assert _draw("standard_gamma", (1.0,), (3,), place).shape == (3,)  # the next call works


def test_own_log_and_log_gamma():
    """log8 (the samplers' log, the same bits on every place) within 2 ulps of NumPy's log, with its special values;
    loggam and logfact to 1e-15 of math.lgamma."""
    x = np.concatenate([np.random.default_rng(3).random(10_000), np.geomspace(1e-300, 1e300, 1000),
                        [5e-324, 1e-310, 0.5, 1.0, 2.0]])
    np.testing.assert_array_max_ulp(H.log8(x), np.log(x), 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        special_values = H.log8(np.array([0.0, np.inf, -1.0, np.nan]))
    np.testing.assert_array_equal(special_values, [-np.inf, np.inf, np.nan, np.nan])
    k = np.array([0, 1, 2, 5, 6, 7, 50, 127, 128, 129, 1000, 10**6, 10**12], np.float64)
    want = np.array([math.lgamma(v + 1) for v in k])
    np.testing.assert_allclose(H.logfact(k), want, rtol=1e-15, atol=1e-15)
    np.testing.assert_allclose(H.loggam(k + 1), want, rtol=1e-15, atol=1e-15)
