"""darray.random's distributions (``darray/random/_distributions.py``, ``_multivariate.py``): every
Generator method against scipy.stats (Kolmogorov-Smirnov or chi-square at n = 10^5, fixed seeds),
moments, edge parameters, array parameters (broadcast, strided and reversed views), the cpu place
against the default device, NumPy's signatures and NumPy's errors (the next call works)."""
from __future__ import annotations

import inspect
from functools import partial

import numpy as np
import pytest
from scipy import stats

import darray as da

N = 100_000
ALPHA = 1e-4  # p-value floor (as tests/test_random.py): fixed seeds, so a pass is a pass every run


# method, arguments, the scipy distribution
CONTINUOUS = [
    ("uniform", (-1.0, 2.0), stats.uniform(-1, 3)),
    ("normal", (1.0, 2.0), stats.norm(1, 2)),
    ("standard_exponential", (), stats.expon()),
    ("exponential", (2.0,), stats.expon(scale=2)),
    ("standard_cauchy", (), stats.cauchy()),
    ("lognormal", (0.5, 0.8), stats.lognorm(0.8, scale=np.exp(0.5))),
    ("laplace", (1.0, 2.0), stats.laplace(1, 2)),
    ("logistic", (1.0, 2.0), stats.logistic(1, 2)),
    ("gumbel", (1.0, 2.0), stats.gumbel_r(1, 2)),
    ("rayleigh", (2.0,), stats.rayleigh(scale=2)),
    ("wald", (1.5, 2.0), stats.invgauss(0.75, scale=2)),
    ("weibull", (1.5,), stats.weibull_min(1.5)),
    ("pareto", (3.0,), stats.lomax(3)),
    ("power", (2.5,), stats.powerlaw(2.5)),
    ("triangular", (0.0, 1.0, 3.0), stats.triang(1 / 3, 0, 3)),
    ("standard_gamma", (0.3,), stats.gamma(0.3)),
    ("standard_gamma", (2.5,), stats.gamma(2.5)),
    ("gamma", (3.0, 2.0), stats.gamma(3, scale=2)),
    ("beta", (0.5, 2.0), stats.beta(0.5, 2)),
    ("beta", (2.0, 5.0), stats.beta(2, 5)),
    ("chisquare", (3.0,), stats.chi2(3)),
    ("noncentral_chisquare", (3.0, 2.0), stats.ncx2(3, 2)),
    ("noncentral_chisquare", (0.5, 2.0), stats.ncx2(0.5, 2)),
    ("f", (5.0, 7.0), stats.f(5, 7)),
    ("noncentral_f", (5.0, 7.0, 2.0), stats.ncf(5, 7, 2)),
    ("standard_t", (4.0,), stats.t(4)),
    ("vonmises", (0.5, 2.0), stats.vonmises(2, loc=0.5)),
]
DISCRETE = [
    ("geometric", (0.3,), stats.geom(0.3)),
    ("poisson", (4.0,), stats.poisson(4)),
    ("poisson", (60.0,), stats.poisson(60)),
    ("binomial", (20, 0.3), stats.binom(20, 0.3)),
    ("binomial", (1000, 0.6), stats.binom(1000, 0.6)),
    ("negative_binomial", (3.0, 0.4), stats.nbinom(3, 0.4)),
    ("hypergeometric", (10, 15, 12), stats.hypergeom(25, 10, 12)),
    ("zipf", (2.5,), stats.zipf(2.5)),
    ("logseries", (0.7,), stats.logser(0.7)),
]


def _case(rows):
    return [pytest.param(name, args, dist, id=f"{name}{args}") for name, args, dist in rows]


def _chi_square(x: np.ndarray, dist) -> float:
    """The chi-square p-value of integer draws ``x`` against ``dist``'s pmf, tails lumped to >= 5 expected."""
    ks = np.arange(x.min(), x.max() + 1)
    expected = dist.pmf(ks) * len(x)
    observed = np.bincount(x - x.min()).astype(float)
    expected[0] += dist.cdf(ks[0] - 1) * len(x)
    expected[-1] += dist.sf(ks[-1]) * len(x)
    bins_o, bins_e, acc_o, acc_e = [], [], 0.0, 0.0
    for o, e in zip(observed, expected):
        acc_o, acc_e = acc_o + o, acc_e + e
        if acc_e >= 5:
            bins_o.append(acc_o)
            bins_e.append(acc_e)
            acc_o = acc_e = 0.0
    bins_o[-1] += acc_o
    bins_e[-1] += acc_e
    return stats.chisquare(bins_o, np.array(bins_e) * sum(bins_o) / sum(bins_e)).pvalue


@pytest.mark.parametrize("name,args,dist", _case(CONTINUOUS))
def test_continuous_kolmogorov_smirnov(any_place, name, args, dist):
    x = getattr(da.random.default_rng(27), name)(*args, size=N, device=any_place).get()
    assert x.shape == (N,) and x.dtype == da.random.default_rng(0).random(device=any_place).dtype
    assert np.isfinite(x).all()
    assert stats.kstest(x, dist.cdf).pvalue > ALPHA


@pytest.mark.parametrize("name,args,dist", _case(DISCRETE))
def test_discrete_chi_square(any_place, name, args, dist):
    x = getattr(da.random.default_rng(27), name)(*args, size=N, device=any_place).get()
    assert x.shape == (N,) and x.dtype == np.int64
    assert _chi_square(x, dist) > ALPHA


@pytest.mark.parametrize("name,args,dist", _case([c for c in CONTINUOUS if c[0] in ("standard_exponential", "normal",
                                                                                    "uniform", "standard_gamma")]))
def test_float32(any_place, name, args, dist):
    x = getattr(da.random.default_rng(28), name)(*args, size=N, dtype=np.float32, device=any_place).get()
    assert x.dtype == np.float32 and np.isfinite(x).all()
    assert stats.kstest(x, dist.cdf).pvalue > ALPHA


@pytest.mark.parametrize("name,args,dist", _case([c for c in CONTINUOUS + DISCRETE if c[0] in (
    "gamma", "beta", "wald", "f", "negative_binomial", "geometric", "binomial", "lognormal")]))
def test_moments(name, args, dist):
    x = getattr(da.random.default_rng(29), name)(*args, size=N, device="cpu").get().astype(np.float64)
    mean, var = dist.stats()
    assert abs(x.mean() - mean) < 5 * np.sqrt(var / N)
    assert abs(x.var() / var - 1) < 0.05


@pytest.mark.parametrize("name,args,dist", _case([c for c in CONTINUOUS + DISCRETE if c[0] != "uniform"]))
def test_places_agree(cl_place, name, args, dist):
    """The cpu place and the device: equal integers, floats to the math functions' accuracy."""
    got = [getattr(da.random.default_rng(30), name)(*args, size=2000, device=p).get() for p in ("cpu", cl_place)]
    if got[0].dtype.kind == "i":
        np.testing.assert_array_equal(got[1], got[0])
    else:
        np.testing.assert_allclose(got[1], got[0], rtol=1e-6, atol=1e-12)


def test_edge_parameters(any_place):
    g = da.random.default_rng(31)
    assert not g.exponential(0.0, 100, device=any_place).get().any()
    np.testing.assert_array_equal(g.normal(2.0, 0.0, 10, device=any_place).get(), 2.0)
    np.testing.assert_array_equal(g.laplace(-1.0, 0.0, 10, device=any_place).get(), -1.0)
    assert not g.weibull(0.0, 10, device=any_place).get().any()
    np.testing.assert_array_equal(g.geometric(1.0, 100, device=any_place).get(), 1)
    assert g.geometric(1e-9, 100, device=any_place).get().min() >= 1
    assert g.exponential(size=0, device=any_place).shape == (0,)
    assert g.laplace(size=(2, 0), device=any_place).shape == (2, 0)
    x = g.standard_exponential(N, dtype=np.float32, device=any_place).get()
    assert np.isfinite(x).all() and x.min() >= 0
    for name in ("laplace", "logistic", "gumbel", "standard_cauchy"):  # both tails finite
        assert np.isfinite(getattr(g, name)(size=N, device=any_place).get()).all()
    assert g.exponential(device=any_place).shape == ()  # size=None, scalar parameters: 0-d


def test_gamma_edges(any_place):
    g = da.random.default_rng(32)
    assert not g.standard_gamma(0.0, 100, device=any_place).get().any()
    assert not g.gamma(2.0, 0.0, 100, device=any_place).get().any()
    tiny = g.beta(1e-3, 2e-3, 1000, device=any_place).get()  # both gammas underflow: still in [0, 1]
    assert np.isfinite(tiny).all() and tiny.min() >= 0 and tiny.max() <= 1
    assert 0.2 < tiny.mean() < 0.45  # a / (a + b) = 1/3
    d = g.dirichlet([0.01, 0.02, 1.0], 1000, device=any_place).get()
    np.testing.assert_allclose(d.sum(axis=1), 1, rtol=1e-12)
    z = g.dirichlet([0.0, 2.0, 0.0, 3.0], 1000, device=any_place).get()  # alpha 0: always 0, as NumPy's
    assert not z[:, ::2].any() and np.allclose(z.sum(axis=1), 1)
    np.testing.assert_array_equal(g.dirichlet([0.0, 0.0], device=any_place).get(), [0.0, 0.0])


def test_discrete_edges(any_place):
    g = da.random.default_rng(38)
    assert not g.poisson(0.0, 100, device=any_place).get().any()
    tiny = g.poisson(1e-8, N, device=any_place).get()
    assert tiny.min() >= 0 and tiny.sum() <= 3
    huge = g.poisson(1e12, 1000, device=any_place).get().astype(np.float64)
    assert abs(huge.mean() - 1e12) < 5 * np.sqrt(1e12 / 1000)
    assert not g.binomial(0, 0.5, 100, device=any_place).get().any()
    assert not g.binomial(10, 0.0, 100, device=any_place).get().any()
    np.testing.assert_array_equal(g.binomial(10, 1.0, 100, device=any_place).get(), 10)
    assert not g.negative_binomial(5.0, 1.0, 100, device=any_place).get().any()
    n = da.asarray(np.array([0, 5, 50, 500]), device=any_place)[::-1]  # reversed view: 500, 50, 5, 0
    p = da.asarray(np.array([0.1, 0.5, 0.9, 0.3, 0.2]), device=any_place)[1:5]  # offset view: .5, .9, .3, .2
    b = g.binomial(n, p, size=(N // 10, 4)).get()
    assert b.shape == (N // 10, 4) and not b[:, 3].any()
    for j, (nj, pj) in enumerate([(500, 0.5), (50, 0.9), (5, 0.3)]):
        assert _chi_square(b[:, j], stats.binom(nj, pj)) > ALPHA
    lam = g.poisson([[1.0], [30.0]], size=(2, N // 10), device=any_place).get()
    assert _chi_square(lam[0], stats.poisson(1)) > ALPHA and _chi_square(lam[1], stats.poisson(30)) > ALPHA


def test_sampler_edges(any_place):
    g = da.random.default_rng(39)
    v = g.vonmises(1.0, 0.0, N, device=any_place).get()  # kappa 0: uniform on [-pi, pi]
    assert v.min() >= -np.pi and v.max() <= np.pi
    assert stats.kstest(v, stats.uniform(-np.pi, 2 * np.pi).cdf).pvalue > ALPHA
    w = g.vonmises([0.0, 3.0], 1e8, size=(100, 2), device=any_place).get()  # huge kappa: at mu (wrapped)
    assert np.abs(w[:, 0]).max() < 1e-3 and np.abs(w[:, 1] - 3.0).max() < 1e-3
    assert not g.hypergeometric(5, 5, 0, 10, device=any_place).get().any()
    assert not g.hypergeometric(0, 5, 3, 10, device=any_place).get().any()
    np.testing.assert_array_equal(g.hypergeometric(7, 0, 4, 10, device=any_place).get(), 4)
    np.testing.assert_array_equal(g.logseries(0.0, 10, device=any_place).get(), 1)
    assert g.zipf(50.0, 1000, device=any_place).get().max() <= 2
    assert g.zipf(1.01, 1000, device=any_place).get().min() >= 1


def test_noncentral_chisquare_branches(any_place):
    """df > 1 (a chi-square plus a shifted normal squared) and df <= 1 (the Poisson mixture), scalar
    and array df, and a huge nonc (the mixture's Poisson mean capped: no endless rejection)."""
    df = da.asarray(np.array([0.5, 4.0]), device=any_place)
    x = da.random.default_rng(46).noncentral_chisquare(df, [3.0, 1.0], size=(N // 10, 2)).get()
    assert stats.kstest(x[:, 0], stats.ncx2(0.5, 3).cdf).pvalue > ALPHA
    assert stats.kstest(x[:, 1], stats.ncx2(4, 1).cdf).pvalue > ALPHA
    huge = da.random.default_rng(47).noncentral_chisquare([0.5, 3.0], 1e300, device=any_place).get()
    assert huge.shape == (2,) and huge[1] > 1e299


def test_array_parameters(any_place):
    """Array parameters broadcast as NumPy's; strided and reversed views read right; the draws
    are the scalar draws' base numbers scaled elementwise."""
    host = np.arange(1.0, 9.0)
    scale = da.asarray(host, device=any_place)[::-2]  # reversed, strided: 8, 6, 4, 2
    x = da.random.default_rng(33).exponential(scale, size=(500, 4)).get()
    e = da.random.default_rng(33).standard_exponential((500, 4), device=any_place).get()
    np.testing.assert_array_equal(x, e * host[::-2])
    assert x.shape == (500, 4) and da.random.default_rng(1).exponential(scale).shape == (4,)
    lo = np.array([[0.0], [10.0]])
    u = da.random.default_rng(34).uniform(lo, lo + [1.0, 2.0, 3.0], device=any_place).get()
    assert u.shape == (2, 3) and np.all(u[0] < [1, 2, 3]) and np.all(u[1] >= 10) and np.all(u[1] < [11, 12, 13])
    n = da.random.default_rng(35).normal([0.0, 100.0], 1.0, size=(1000, 2), device=any_place).get()
    assert abs(n[:, 0].mean()) < 0.2 and abs(n[:, 1].mean() - 100) < 0.2
    t = da.random.default_rng(36).triangular([0.0, 5.0], [1.0, 5.0], [2.0, 6.0], size=(1000, 2), device=any_place)
    t = t.get()
    assert t[:, 0].min() >= 0 and t[:, 0].max() <= 2 and t[:, 1].min() >= 5 and t[:, 1].max() <= 6
    with pytest.raises(ValueError, match="shape mismatch"):
        da.random.default_rng(1).exponential([1.0, 2.0], size=3, device=any_place)


def test_array_shape_parameters(any_place):
    shape = da.asarray(np.array([0.5, 2.0, 8.0]), device=any_place)
    x = da.random.default_rng(37).gamma(shape, 2.0, size=(N // 10, 3)).get()
    for j, a in enumerate([0.5, 2.0, 8.0]):
        assert stats.kstest(x[:, j], stats.gamma(a, scale=2).cdf).pvalue > ALPHA


@pytest.mark.parametrize("call,message", [
    (lambda g, p: g.exponential(-1.0, device=p), "scale < 0"),
    (lambda g, p: g.exponential([1.0, -1.0], device=p), "scale < 0"),
    (lambda g, p: g.normal(0, -1, device=p), "scale < 0"),
    (lambda g, p: g.uniform(2, 1, device=p), "high - low < 0"),
    (lambda g, p: g.lognormal(0, -1, device=p), "sigma < 0"),
    (lambda g, p: g.wald(0, 1, device=p), "mean <= 0"),
    (lambda g, p: g.wald(1, 0, device=p), "scale <= 0"),
    (lambda g, p: g.weibull(-1, device=p), "a < 0"),
    (lambda g, p: g.pareto(0, device=p), "a <= 0"),
    (lambda g, p: g.power(0, device=p), "a <= 0"),
    (lambda g, p: g.triangular(2, 1, 3, device=p), "left > mode"),
    (lambda g, p: g.triangular(1, 4, 3, device=p), "mode > right"),
    (lambda g, p: g.triangular(1, 1, 1, device=p), "left == right"),
    (lambda g, p: g.geometric(0, device=p), "p <= 0"),
    (lambda g, p: g.geometric(np.nan, device=p), "NaN"),
    (lambda g, p: g.gamma(-1, device=p), "shape < 0"),
    (lambda g, p: g.beta(0, 1, device=p), "a <= 0"),
    (lambda g, p: g.chisquare(0, device=p), "df <= 0"),
    (lambda g, p: g.noncentral_chisquare(1, -1, device=p), "nonc < 0"),
    (lambda g, p: g.f(1, 0, device=p), "dfden <= 0"),
    (lambda g, p: g.standard_t(0, device=p), "df <= 0"),
    (lambda g, p: g.poisson(-1, device=p), "lam < 0"),
    (lambda g, p: g.poisson(1e20, device=p), "lam value too large"),
    (lambda g, p: g.binomial(-1, 0.5, device=p), "n < 0"),
    (lambda g, p: g.binomial(1, 1.5, device=p), "p < 0, p > 1"),
    (lambda g, p: g.negative_binomial(0, 0.5, device=p), "n <= 0"),
    (lambda g, p: g.negative_binomial(1, 0, device=p), "p <= 0"),
    (lambda g, p: g.negative_binomial(1, 1e-19, device=p), "p too small"),
    (lambda g, p: g.standard_gamma(np.nan, device=p), "shape is NaN"),
    (lambda g, p: g.vonmises(0, [1.0, np.nan], device=p), "kappa is NaN"),
    (lambda g, p: g.binomial(np.nan, 0.5, device=p), "n is NaN"),
    (lambda g, p: g.noncentral_chisquare(np.nan, 1, device=p), "df is NaN"),
    (lambda g, p: g.hypergeometric(1, 1, 3, device=p), "ngood \\+ nbad < nsample"),
    (lambda g, p: g.hypergeometric(-1, 1, 0, device=p), "ngood < 0"),
    (lambda g, p: g.hypergeometric(10**9, 1, 0, device=p), "less than 1000000000"),
    (lambda g, p: g.vonmises(0, -1, device=p), "kappa < 0"),
    (lambda g, p: g.zipf(1, device=p), "a <= 1"),
    (lambda g, p: g.logseries(1, device=p), "p >= 1"),
    (lambda g, p: g.standard_exponential(method="fast", device=p), "method"),
    (lambda g, p: g.multinomial(-1, [0.5, 0.5], device=p), "n < 0"),
    (lambda g, p: g.multinomial(5, [1.5, -0.5], device=p), "pvals < 0"),
    (lambda g, p: g.multinomial(5, [0.8, 0.7, 0.1], device=p), "sum\\(pvals\\[:-1\\]\\) > 1.0"),
    (lambda g, p: g.dirichlet([-1, 1], device=p), "alpha < 0"),
    (lambda g, p: g.multivariate_hypergeometric([3, 4], 10, device=p), "nsample > sum"),
    (lambda g, p: g.multivariate_hypergeometric([3, -4], 1, device=p), "colors"),
    (lambda g, p: g.multivariate_hypergeometric([3, 4], 1, method="x", device=p), "method"),
    (lambda g, p: g.multivariate_normal([0], [[1]], check_valid="x", device=p), "check_valid"),
    (lambda g, p: g.multivariate_normal([0], [[1]], method="x", device=p), "method"),
    (lambda g, p: g.multivariate_normal([[0]], [[1]], device=p), "mean must be 1 dimensional"),
    (lambda g, p: g.multivariate_normal([0], [1], device=p), "square"),
    (lambda g, p: g.multivariate_normal([0, 1], [[1]], device=p), "same length"),
    (lambda g, p: g.multivariate_normal([0, 0], [[1, 2], [2, 1]], check_valid="raise", device=p), "semidefinite"),
])
def test_bad_parameters(any_place, call, message):
    g = da.random.default_rng(0)
    with pytest.raises(ValueError, match=message) as err:
        call(g, any_place)
    assert "darray random." in str(err.value)
    assert g.exponential(2.0, 3, device=any_place).shape == (3,)  # the next call works


def test_signatures_are_numpys():
    """Every NumPy Generator method is there, with NumPy's parameters (plus device=/place=, and
    uniform's and normal's dtype=)."""
    for name in dir(np.random.Generator):
        if name.startswith("_") or name == "bit_generator":
            continue
        want = list(inspect.signature(getattr(np.random.Generator, name)).parameters)
        got = [p for p in inspect.signature(getattr(da.random.Generator, name)).parameters
               if p not in ("device", "place")]
        assert got == want + (["dtype"] if name in ("uniform", "normal") else []), name
        assert f"numpy.random.Generator.{name}" in getattr(da.random.Generator, name).__doc__, name


def test_out(any_place):
    out = da.empty((3, 4), dtype=da.float32, device=any_place)
    assert da.random.default_rng(3).standard_gamma(2.0, out=out) is out
    want = da.random.default_rng(3).standard_gamma(2.0, (3, 4), dtype=np.float32, device=any_place).get()
    np.testing.assert_array_equal(out.get(), want)
    view = da.zeros((3, 8), dtype=da.float64, device=any_place)[:, ::2]
    assert da.random.default_rng(4).standard_exponential(out=view) is view
    np.testing.assert_array_equal(view.get(), da.random.default_rng(4).standard_exponential((3, 4), device=any_place)
                                  .get())
    with pytest.raises(TypeError, match="dtype"):
        da.random.default_rng(4).standard_gamma(1.0, dtype=np.float64, out=out)


def test_multinomial(any_place):
    p = np.array([0.2, 0.3, 0.5])
    x = da.random.default_rng(40).multinomial(20, p, size=N, device=any_place).get()
    assert x.shape == (N, 3) and x.dtype == np.int64 and np.all(x.sum(axis=1) == 20)
    for j in range(3):
        assert _chi_square(x[:, j], stats.binom(20, p[j])) > ALPHA
    y = da.random.default_rng(41).multinomial([[5], [50]], [[0.5, 0.5], [0.1, 0.9]], device=any_place).get()
    assert y.shape == (2, 2, 2) and np.array_equal(y.sum(axis=-1), [[5, 5], [50, 50]])
    z = da.random.default_rng(42).multinomial(7, [0.0, 1.0, 0.0], size=4, device=any_place).get()
    assert np.array_equal(z, np.tile([0, 7, 0], (4, 1)))
    assert np.array_equal(da.random.default_rng(1).multinomial(0, [0.5, 0.5], device=any_place).get(), [0, 0])


def test_dirichlet(any_place):
    alpha = np.array([0.5, 2.0, 4.0])
    x = da.random.default_rng(43).dirichlet(alpha, N, device=any_place).get()
    assert x.shape == (N, 3)
    np.testing.assert_allclose(x.sum(axis=1), 1, rtol=1e-12)
    for j in range(3):  # the marginals are Beta(alpha_j, sum - alpha_j)
        assert stats.kstest(x[:, j], stats.beta(alpha[j], alpha.sum() - alpha[j]).cdf).pvalue > ALPHA


@pytest.mark.parametrize("method", ["marginals", "count"])
def test_multivariate_hypergeometric(any_place, method):
    colors = np.array([5, 10, 15])
    x = da.random.default_rng(44).multivariate_hypergeometric(colors, 12, size=N, method=method,
                                                              device=any_place).get()
    assert x.shape == (N, 3) and np.all(x.sum(axis=1) == 12) and np.all(x <= colors)
    for j in range(3):
        assert _chi_square(x[:, j], stats.hypergeom(30, colors[j], 12)) > ALPHA


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal(any_place, method):
    mean, cov = np.array([1.0, -2.0, 0.5]), np.array([[2.0, 0.6, 0.0], [0.6, 1.0, -0.3], [0.0, -0.3, 0.5]])
    x = da.random.default_rng(45).multivariate_normal(mean, cov, size=N, method=method, device=any_place).get()
    assert x.shape == (N, 3)
    np.testing.assert_allclose(x.mean(axis=0), mean, atol=0.03)
    np.testing.assert_allclose(np.cov(x.T), cov, atol=0.03)
    w = np.linalg.solve(np.linalg.cholesky(cov), (x - mean).T)  # whitened: independent standard normals
    assert stats.kstest(w[0], "norm").pvalue > ALPHA and stats.kstest(w[2], "norm").pvalue > ALPHA
    assert da.random.default_rng(1).multivariate_normal(mean, cov, (2, 4), device=any_place).shape == (2, 4, 3)
    with pytest.warns(RuntimeWarning, match="semidefinite"):
        da.random.default_rng(1).multivariate_normal([0, 0], [[1, 2], [2, 1]], device=any_place)


# -- sizes: NumPy's error classes for every method, Generator and legacy (one parser: _params.shape_of) --

_SIZED = {**{name: args for name, args, _ in reversed(CONTINUOUS + DISCRETE)},
          "random": (), "standard_normal": (), "integers": (0, 5), "choice": (5,),
          "multinomial": (5, [0.5, 0.5]), "dirichlet": ([1.0, 1.0],), "multivariate_hypergeometric": ([3, 4], 2),
          "multivariate_normal": ([0.0], [[1.0]])}
_LEGACY = {**{name: args for name, args in _SIZED.items() if hasattr(np.random.RandomState, name)},
           "random_sample": (), "randint": (0, 5), "random_integers": (1, 5), "ranf": (), "sample": ()}
BAD_SIZES = [2.5, -3, (-3,), (2, -1), (2, 3.0), np.float64(2.0), np.float32(1.0), np.array(2.0), True, (True, 2),
             (2, None), np.array([[2]]), "3", 2**70]
GOOD_SIZES = [np.int64(2), (np.int32(2), 1), [2, 3], np.array([2, 1]), np.array(3), (), 0, (0, 2)]


def _raised(call):
    try:
        return call(), None
    except (TypeError, ValueError, OverflowError, IndexError) as err:
        return None, type(err)


# where one NumPy method departs from the size rule of all the others (dirichlet and multinomial take
# True, multivariate_normal's IndexError for a 0-d size, choice's OverflowError past intp...), darray
# follows the common rule: those are checked against numpy's normal
_QUIRKS = {("dirichlet", "True"), ("multinomial", "True"), ("choice", repr(2**70)), ("multivariate_hypergeometric",
           "array(3)")} | {("multivariate_normal", repr(s)) for s in (np.float64(2.0), np.float32(1.0), np.array(2.0),
                                                                      np.array(3))}


def _check_sizes(ours, theirs, size, label):
    got, got_err = _raised(lambda: ours(size))
    if (label, repr(size)) in _QUIRKS:
        theirs = partial(np.random.default_rng(0).normal, 0.0, 1.0)
    want, want_err = _raised(lambda: theirs(size))
    assert got_err is want_err or (got_err and want_err and issubclass(want_err, got_err)), \
        (label, size, got_err, want_err)
    if (label, repr(size)) in _QUIRKS:
        return
    if want_err is None:
        assert got.shape == np.shape(want), (label, size, got.shape, np.shape(want))


@pytest.mark.parametrize("size", BAD_SIZES + GOOD_SIZES, ids=repr)
@pytest.mark.parametrize("name", sorted(_SIZED))
def test_sizes_raise_as_numpy_generator(name, size):
    """A size that is not an integer or integers (floats, NumPy floats, bools, None inside) is
    NumPy's TypeError, a negative one its ValueError, in every Generator method (issue 38)."""
    args = _SIZED[name]
    g, ng = da.random.default_rng(0), np.random.default_rng(0)
    _check_sizes(lambda s: getattr(g, name)(*args, size=s, device="cpu"), lambda s: getattr(ng, name)(*args, size=s),
                 size, name)


@pytest.mark.parametrize("size", BAD_SIZES + GOOD_SIZES, ids=repr)
@pytest.mark.parametrize("name", sorted(_LEGACY))
def test_sizes_raise_as_numpy_legacy(name, size):
    """As above, for darray.random's functions (the legacy RandomState) against numpy.random's."""
    args = _LEGACY[name]
    _check_sizes(lambda s: getattr(da.random, name)(*args, size=s, device="cpu"),
                 lambda s: getattr(np.random, name)(*args, size=s), size, name)


def test_sizes_on_the_device(cl_place):
    g = da.random.default_rng(0)
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        g.exponential(size=(2, 3.0), device=cl_place)
    with pytest.raises(TypeError, match="single integer"):
        da.random.normal(size=2.5, device=cl_place)
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        da.random.normal(size=(-3,), device=cl_place)
    assert g.normal(size=np.int64(3), device=cl_place).shape == (3,)  # the next call works


@pytest.mark.parametrize("call", [
    lambda r: r.standard_normal(3, dtype=np.int32), lambda r: r.random(3, dtype=np.float16),
    lambda r: r.standard_exponential(3, dtype=np.int64), lambda r: r.integers(0, 5, 3, dtype=np.float64),
])
def test_unsupported_dtypes_are_type_errors(call):
    with pytest.raises(TypeError):
        call(np.random.default_rng(0))
    with pytest.raises(TypeError, match="Unsupported dtype"):
        call(da.random.default_rng(0))


@pytest.mark.parametrize("low,high", [(0, np.inf), (-np.inf, 0), (0, 1e308 * 10), (-1e308, 1e308), (1e308, -1e308),
                                      (np.nan, 1.0), (0.0, np.nan), (np.inf, np.inf), (np.inf, 0), (5.0, 1.0),
                                      ([0.0, 1.0], [1.0, np.inf]), ([5.0, 0.0], [1.0, np.inf]), (1.0, 1.0), (2, 1e308)])
def test_uniform_ranges_as_numpy(low, high):
    """uniform's bounds: a span that is not finite is NumPy's OverflowError (before low > high, the
    Generator's ValueError; the legacy uniform draws from (high, low])."""
    for ours, theirs in [(da.random.default_rng(0), np.random.default_rng(0)), (da.random, np.random)]:
        got, got_err = _raised(partial(ours.uniform, low, high, device="cpu"))
        want, want_err = _raised(partial(theirs.uniform, low, high))
        assert got_err is want_err, (ours, low, high, got_err, want_err)
        if want_err is None:
            assert got.shape == np.shape(want)
