"""darray.polynomial (darray/polynomial/) against numpy.polynomial: every function of the six basis modules
and polyutils, and the six classes, with hypothesis over coefficient vectors of length 0-6, points of rank
0-2 and int, float32, float64 and complex128 inputs (float64 at rtol 1e-10)."""
from __future__ import annotations

import inspect
import subprocess
import sys
import warnings

import numpy as np
import numpy.polynomial as NP
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import darray as da
import darray.polynomial as DP

MODULES = ["polynomial", "chebyshev", "legendre", "laguerre", "hermite", "hermite_e"]
PREFIX = dict(zip(MODULES, ["poly", "cheb", "leg", "lag", "herm", "herme"], strict=True))
CLASSES = ["Polynomial", "Chebyshev", "Legendre", "Laguerre", "Hermite", "HermiteE"]
DTYPES = [np.int64, np.float32, np.float64, np.complex128]


def fn(module: str, name: str) -> tuple:
    """(darray's, NumPy's) function ``<prefix><name>`` of ``module`` (``2poly``/``poly2``: the conversions)."""
    full = name.replace("@", PREFIX[module])
    return getattr(getattr(DP, module), full), getattr(getattr(NP, module), full)


def same(got, want, scale: float = 1.0, rtol: float | None = None) -> None:
    """``got`` is a DArray of ``want``'s dtype and shape, equal to rtol (1e-10 for double precision) with an
    absolute slack of rtol times the size of the terms (``scale``)."""
    assert isinstance(got, da.DArray), type(got)
    want = np.asarray(want)
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.dtype, want.shape)
    rtol = rtol or (1e-10 if want.dtype in (np.float64, np.complex128) else 2e-4)
    big = float(np.max(np.abs(want[np.isfinite(want)]), initial=0.0)) if want.size else 0.0
    np.testing.assert_allclose(g, want, rtol=rtol, atol=rtol * max(scale, big, 1.0), equal_nan=True)


def rt(*inputs) -> float | None:
    """The tolerance for results computed from these inputs: single precision when one of them is."""
    return 2e-4 if any(np.asarray(a).dtype in (np.float32, np.complex64) for a in inputs) else None


def same_series(got, want, scale: float = 1.0, rtol: float | None = None) -> None:
    """:func:`same` up to trailing coefficients that rounding left non-zero on one side only (a remainder's
    cancellation: NumPy's and darray's long divisions round differently)."""
    g, w = got.get(), np.asarray(want)
    n = max(len(g), len(w))
    pad = [np.concatenate([v, np.zeros(n - len(v), v.dtype)]) for v in (g, w)]
    assert g.dtype == w.dtype
    same(da.asarray(pad[0]), pad[1], scale, rtol)


def coefs(min_size: int = 1, max_size: int = 6, dtype=None):
    """A coefficient vector (a NumPy array) of a drawn dtype, small integers or floats."""
    def make(d, values):
        a = np.array(values, dtype=np.float64)
        if np.dtype(d).kind == "c":
            return (a + 0.5j * a[::-1]).astype(d)
        return np.round(a).astype(d) if np.dtype(d).kind == "i" else a.astype(d)
    return st.builds(make, st.just(dtype) if dtype else st.sampled_from(DTYPES),
                     st.lists(st.floats(-4, 4, allow_nan=False).map(lambda v: round(v, 3)), min_size=min_size,
                              max_size=max_size))


def points():
    """x: a Python float, a 0-d, 1-d or 2-d array (float64, float32 or int) in [-2, 2]."""
    shape = st.sampled_from([(), (3,), (2, 3)])
    dtype = st.sampled_from([np.float64, np.float32, np.int64])
    return st.one_of(st.floats(-2, 2).map(lambda v: round(v, 2)),
                     st.builds(lambda s, d, v: (np.resize(np.array(v), s) * 1.0).astype(d), shape, dtype,
                               st.lists(st.floats(-2, 2), min_size=1, max_size=6)))


def _both(x):
    return (da.asarray(x) if isinstance(x, np.ndarray) else x), x


@pytest.mark.parametrize("module", [*MODULES, "polyutils"])
def test_every_numpy_name_with_its_parameters(module) -> None:
    ours, theirs = getattr(DP, module), getattr(NP, module)
    for name in theirs.__all__:
        assert hasattr(ours, name), f"darray.polynomial.{module} lacks {name}"
        a, b = getattr(ours, name), getattr(theirs, name)
        if inspect.isfunction(b):
            assert list(inspect.signature(a).parameters) == list(inspect.signature(b).parameters), name
    assert set(ours.__all__) == set(theirs.__all__)
    assert {n for n in NP.__all__ if n != "test"} <= set(dir(DP))


def test_loaded_on_first_use_and_no_clash_with_the_old_functions() -> None:
    code = ("import sys, darray as da; print('darray.polynomial' in sys.modules); da.polynomial; "
            "print(da.polyval.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "polyval"]
    assert da.polynomial is DP and da.polyval is not DP.polynomial.polyval
    assert isinstance(da.poly1d([1, 2]), da.poly1d)


@pytest.mark.parametrize("module", MODULES)
@given(c1=coefs(), c2=coefs())
def test_add_sub_mul_mulx_div(module, c1, c2) -> None:
    scale = float(np.sum(np.abs(c1)) * np.sum(np.abs(c2))) * 10
    for name in ("@add", "@sub", "@mul"):
        ours, theirs = fn(module, name)
        same(ours(da.asarray(c1), c2), theirs(c1, c2), scale, rt(c1, c2))
    ours, theirs = fn(module, "@mulx")
    same(ours(c1), theirs(c1), float(np.sum(np.abs(c1))) * 10, rt(c1))
    assume(np.abs(np.trim_zeros(c2, "b")[-1:]).sum() > 0.5)
    ours, theirs = fn(module, "@div")
    for g, w in zip(ours(c1, da.asarray(c2)), theirs(c1, c2), strict=True):
        same_series(g, w, scale * 1e3, rt(c1, c2))


@pytest.mark.parametrize("module", MODULES)
@given(c=coefs(max_size=4), n=st.integers(0, 3))
def test_pow(module, c, n) -> None:
    ours, theirs = fn(module, "@pow")
    same(ours(da.asarray(c), n), theirs(c, n), float(np.sum(np.abs(c)) + 1) ** n * 100, rt(c))


@pytest.mark.parametrize("module", MODULES)
@given(c=coefs(), m=st.integers(0, 3), scl=st.sampled_from([1, 2.0, -0.5]), two=st.booleans())
def test_der_and_int(module, c, m, scl, two) -> None:
    c = np.stack([c, c[::-1]], axis=1) if two else c
    scale = float(np.sum(np.abs(c))) * 100 ** max(m, 1)
    ours, theirs = fn(module, "@der")
    same(ours(da.asarray(c), m, scl), theirs(c, m, scl), scale)
    ours, theirs = fn(module, "@int")
    k = [1.0, -2.0][:m]
    same(ours(da.asarray(c), m, k, 0.5, scl), theirs(c, m, k, 0.5, scl), scale)
    same(ours(c, m), theirs(c, m), scale)
    if two:
        same(ours(c, m, axis=1), theirs(c, m, axis=1), scale)


@pytest.mark.parametrize("module", MODULES)
@settings(max_examples=12)
@given(x=points(), c=coefs(), tensor=st.booleans(), two=st.booleans())
def test_val(module, x, c, tensor, two) -> None:
    c = np.stack([c, 2 * c], axis=1) if two else c
    ours, theirs = fn(module, "@val")
    try:
        want = theirs(x, c, tensor)
    except ValueError:  # c's further axes do not broadcast against x
        with pytest.raises(ValueError):
            ours(_both(x)[0], c, tensor)
        return
    scale = float(np.sum(np.abs(c))) * 1e3
    got = ours(*_both(x)[:1], da.asarray(c), tensor)
    same(got, want, scale)


@pytest.mark.parametrize("module", MODULES)
@given(x=points(), deg=st.integers(0, 5))
def test_vander(module, x, deg) -> None:
    ours, theirs = fn(module, "@vander")
    same(ours(_both(x)[0], deg), theirs(x, deg), 1e4)


@pytest.mark.parametrize("module", MODULES)
def test_two_and_three_variables(module) -> None:
    rng = np.random.default_rng(1)
    x, y, z = rng.uniform(-1, 1, (3, 4))
    c2, c3 = rng.normal(size=(3, 2)), rng.normal(size=(2, 3, 2))
    for name, args in [("@val2d", (x, y, c2)), ("@val3d", (x, y, z, c3)), ("@grid2d", (x, y, c2)),
                       ("@grid3d", (x, y, z, c3)), ("@vander2d", (x, y, [2, 1])), ("@vander3d", (x, y, z, [1, 2, 1]))]:
        ours, theirs = fn(module, name)
        same(ours(*[da.asarray(a) if isinstance(a, np.ndarray) else a for a in args]), theirs(*args), 100)
    ours, theirs = fn(module, "@val2d")
    with pytest.raises(ValueError, match="val2d"):
        ours(x, y[:2], c2)
    with pytest.raises(ValueError):
        theirs(x, y[:2], c2)


@pytest.mark.parametrize("module", MODULES)
@given(r=st.lists(st.integers(-3, 3), min_size=0, max_size=5), dtype=st.sampled_from(DTYPES))
def test_fromroots_roots_companion(module, r, dtype) -> None:
    r = np.array(r, dtype=dtype)
    ours, theirs = fn(module, "@fromroots")
    want = theirs(r)
    same(ours(da.asarray(r)), want, 10.0 ** len(r) * 10, rt(r))
    c = want.astype(np.float64) if want.dtype.kind != "c" else want
    if len(np.trim_zeros(c, "b")) >= 2:
        ours, theirs = fn(module, "@companion")
        same(ours(c), theirs(c), 1e4)
    ours, theirs = fn(module, "@roots")
    if len(set(r.tolist())) == len(r):  # simple roots: well conditioned
        got, wanted = ours(c), theirs(c)
        assert got.dtype.kind == wanted.dtype.kind or np.allclose(np.imag(wanted), 0, atol=1e-6)
        np.testing.assert_allclose(np.sort_complex(got.get()), np.sort_complex(wanted), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("module", MODULES)
@given(c=coefs(), off=st.integers(-3, 3), scl=st.sampled_from([0, 1, 2, -1.5]))
def test_line_trim_conversions(module, c, off, scl) -> None:
    ours, theirs = fn(module, "@line")
    same(ours(off, scl), theirs(off, scl))
    ours, theirs = fn(module, "@trim")
    same(ours(c, 1.0), theirs(c, 1.0))
    if module != "polynomial":
        for name in ("@2poly", "poly2@"):
            ours, theirs = fn(module, name)
            same(ours(da.asarray(c)), theirs(c), float(np.sum(np.abs(c))) * 1e3, rt(c))
    for k in ("zero", "one", "x", "domain"):
        ours, theirs = fn(module, f"@{k}")
        np.testing.assert_array_equal(ours, theirs, strict=True)


@pytest.mark.parametrize("module", MODULES)
@given(n=st.integers(2, 12), deg=st.integers(0, 4), weighted=st.booleans(), two=st.booleans(),
       seed=st.integers(0, 100))
def test_fit(module, n, deg, weighted, two, seed) -> None:
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(-1, 1, n)) + np.arange(n)  # spread points
    x = x / n
    y = rng.normal(size=(n, 2) if two else n)
    w = rng.uniform(0.5, 2, n) if weighted else None
    ours, theirs = fn(module, "@fit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.RankWarning)
        want = theirs(x, y, deg, w=w, full=True)
        got = ours(da.asarray(x), da.asarray(y), deg, w=None if w is None else da.asarray(w), full=True)
    cond = np.linalg.cond(theirs.__globals__[f"{PREFIX[module]}vander"](x, deg)) if n > deg else 1e12
    assume(cond < 1e6)
    same(got[0], want[0], rtol=1e-10 * cond)
    assert got[1][1] == want[1][1] and got[1][3] == want[1][3]
    np.testing.assert_allclose(got[1][2].get(), want[1][2], rtol=1e-10)
    listed = [0, deg] if deg else [0]
    same(ours(x, y, listed), theirs(x, y, listed), rtol=1e-10 * cond)


@pytest.mark.parametrize("module", MODULES[1:])
@pytest.mark.parametrize("deg", [1, 2, 5, 12, 40])
def test_gauss_and_weight(module, deg) -> None:
    ours, theirs = fn(module, "@gauss")
    for g, w in zip(ours(deg), theirs(deg), strict=True):
        same(g, w, rtol=1e-12 * deg)
    x = np.linspace(-0.9, 0.9, 7)
    ours, theirs = fn(module, "@weight")
    same(ours(da.asarray(x)), theirs(x))


def test_chebyshev_points_and_interpolation() -> None:
    for n in (1, 2, 5):
        same(DP.chebyshev.chebpts1(n), NP.chebyshev.chebpts1(n))
        same(DP.chebyshev.chebpts2(n + 1), NP.chebyshev.chebpts2(n + 1))
    same(DP.chebyshev.chebinterpolate(lambda x: x ** 3 + 1, 5), NP.chebyshev.chebinterpolate(lambda x: x ** 3 + 1, 5))
    same(DP.Chebyshev.interpolate(lambda x: x * 2, 3, domain=[0, 2]).coef,
         NP.Chebyshev.interpolate(lambda x: x * 2, 3, domain=[0, 2]).coef)
    same(DP.polynomial.polyvalfromroots(np.array([0.5, 2.0]), [1.0, 3.0]),
         NP.polynomial.polyvalfromroots(np.array([0.5, 2.0]), [1.0, 3.0]))
    with pytest.raises(ValueError, match="chebpts2"):
        DP.chebyshev.chebpts2(1)


@pytest.mark.parametrize("module", MODULES)
def test_bad_input_raises_numpys_exceptions(module) -> None:
    cases = [("@add", ([], [1]), ValueError), ("@add", ([[1]], [1]), ValueError), ("@val", (0.5, []), IndexError),
             ("@der", ([1, 2], -1), ValueError), ("@der", ([1, 2], 1.5), TypeError),
             ("@int", ([1, 2], 1, [1, 2]), ValueError),
             ("@int", ([1, 2], 1, [], [0, 1]), ValueError), ("@pow", ([1, 2], -1), ValueError),
             ("@pow", ([1, 2], 200), ValueError), ("@div", ([1, 2], [0]), ZeroDivisionError),
             ("@vander", ([1.0], -1), ValueError), ("@vander", ([1.0], 1.5), TypeError),
             ("@fit", ([1.0, 2.0], [1.0], 1), TypeError), ("@fit", ([[1.0]], [1.0], 1), TypeError),
             ("@fit", ([1.0, 2.0], [1.0, 2.0], -1), ValueError), ("@companion", ([1],), ValueError)]
    if module != "polynomial":
        cases.append(("@gauss", (0,), ValueError))
    for name, args, exc in cases:
        if name == "@pow" and args[1] == 200 and module == "polynomial":
            continue
        ours, theirs = fn(module, name)
        with pytest.raises(exc):
            theirs(*args)
        with pytest.raises(exc, match=name.replace("@", PREFIX[module]).split("(")[0]):
            ours(*args)


@pytest.mark.parametrize("cls", CLASSES)
@settings(max_examples=12)
@given(c=coefs(dtype=np.float64), d=coefs(max_size=3, dtype=np.float64), x=points(), k=st.floats(-2, 2))
def test_class_arithmetic_and_values(cls, c, d, x, k) -> None:
    ours, theirs = getattr(DP, cls), getattr(NP, cls)
    p, q = ours(da.asarray(c), domain=[0, 2]), ours(d, domain=[0, 2])
    tp, tq = theirs(c, domain=[0, 2]), theirs(d, domain=[0, 2])
    scale = float(np.sum(np.abs(c)) * (np.sum(np.abs(d)) + 1)) * 1e3
    pairs = [(p + q, tp + tq), (p - q, tp - tq), (p * q, tp * tq), (p + k, tp + k), (k - p, k - tp),
             (k * p, k * tp), (-p, -tp), (p ** 2, tp ** 2), (p.deriv(2), tp.deriv(2)),
             (p.integ(1, [k], 1.0), tp.integ(1, [k], 1.0)), (p.convert(kind=ours), tp.convert(kind=theirs)),
             (p.trim(0.5), tp.trim(0.5)), (p.cutdeg(1), tp.cutdeg(1)), (p.truncate(2), tp.truncate(2)),
             (p.copy(), tp.copy())]
    for g, w in pairs:
        assert type(g) is ours and g.symbol == w.symbol
        same(g.coef, w.coef, scale * 1e3)
        np.testing.assert_array_equal(g.domain, w.domain)
    if np.abs(d[-1]) > 0.5:
        for g, w in zip(divmod(p, q), divmod(tp, tq), strict=True):
            same_series(g.coef, w.coef, scale * 1e3)
    same(p(_both(x)[0]), tp(x), scale)
    assert p.degree() == tp.degree() and len(p) == len(tp) and p == ours(c, domain=[0, 2])
    assert (p != q) == (tp != tq)
    assert p.has_samecoef(ours(c)) and not p.has_samedomain(ours(c)) and p.has_sametype(q)


@pytest.mark.parametrize("cls", CLASSES)
def test_class_constructors_printing_and_errors(cls) -> None:
    ours, theirs = getattr(DP, cls), getattr(NP, cls)
    rng = np.random.default_rng(3)
    x = np.linspace(0, 3, 20)
    y = np.cos(x) + 0.1 * rng.normal(size=20)
    g, w = ours.fit(da.asarray(x), y, 4), theirs.fit(x, y, 4)
    same(g.coef, w.coef, 100)
    np.testing.assert_allclose(g.domain, w.domain)
    g, w = ours.fit(x, y, 3, domain=[], full=True), theirs.fit(x, y, 3, domain=[], full=True)
    same(g[0].coef, w[0].coef, 1e3, rtol=1e-8)
    for made, want in [(ours.fromroots([1, 2, 3]), theirs.fromroots([1, 2, 3])),
                       (ours.fromroots([1, 2], domain=[0, 4]), theirs.fromroots([1, 2], domain=[0, 4])),
                       (ours.identity([0, 2]), theirs.identity([0, 2])), (ours.basis(3), theirs.basis(3)),
                       (ours.cast(DP.Polynomial([1, 2, 3])), theirs.cast(NP.Polynomial([1, 2, 3]))),
                       (ours([1, 2], symbol="t"), theirs([1, 2], symbol="t"))]:
        same(made.coef, want.coef, 100)
        assert repr(made) == repr(want) and str(made) == str(want) and format(made, "ascii") == format(want, "ascii")
        assert made._repr_latex_() == want._repr_latex_()
    np.testing.assert_allclose(ours.fromroots([1, 2, 3]).roots().get(), theirs.fromroots([1, 2, 3]).roots())
    lx, ly = ours([1, 2, 3]).linspace(5)
    tx, ty = theirs([1, 2, 3]).linspace(5)
    same(lx, tx)
    same(ly, ty)
    p = ours([1, 2, 3])
    assert list(map(float, p)) == [1, 2, 3] and p.maxpower == 100 and ours.basis_name == theirs.basis_name
    with pytest.raises(TypeError):
        p + getattr(DP, CLASSES[(CLASSES.index(cls) + 1) % 6])([1])
    with pytest.raises(TypeError):
        p + ours([1], domain=[5, 6])
    with pytest.raises(ValueError):
        p + ours([1], symbol="y")
    with pytest.raises(TypeError):
        p / p
    with pytest.raises(ValueError):
        ours([1], symbol="1x")
    with pytest.raises(TypeError):
        ours([1], symbol=3)
    with pytest.raises(ValueError):
        ours([1], domain=[1, 2, 3])
    with pytest.raises(ValueError):
        p.truncate(0)
    assert (p / 2).coef.get().tolist() == (theirs([1, 2, 3]) / 2).coef.tolist()
    assert p(p).coef.shape == theirs([1, 2, 3])(theirs([1, 2, 3])).coef.shape


def test_polyutils() -> None:
    pu, npu = DP.polyutils, NP.polyutils
    for g, w in zip(pu.as_series([[1, 2, 0], [3]]), npu.as_series([[1, 2, 0], [3]]), strict=True):
        same(g, w)
    same(pu.trimcoef([1, 1e-3, 0], 1e-2), npu.trimcoef([1, 1e-3, 0], 1e-2))
    same(pu.trimseq(da.asarray([1.0, 0.0, 0.0])), npu.trimseq(np.array([1.0, 0.0, 0.0])))
    same(pu.getdomain([1, 3, 2]), npu.getdomain([1, 3, 2]))
    same(pu.getdomain([1j, 2]), npu.getdomain([1j, 2]))
    assert pu.mapparms([0, 2], [-1, 1]) == npu.mapparms([0, 2], [-1, 1])
    same(pu.mapdomain(da.asarray([0.0, 1.0]), [0, 2], [-1, 1]), npu.mapdomain(np.array([0.0, 1.0]), [0, 2], [-1, 1]))
    assert pu.mapdomain(1.0, [0, 2], [-1, 1]) == npu.mapdomain(1.0, [0, 2], [-1, 1])
    assert pu.format_float(1.5) == npu.format_float(1.5)
    with pytest.raises(ValueError, match="trimcoef"):
        pu.trimcoef([1], -1)
