"""Complex elementwise functions (kernels/include/complex.h) against NumPy, for complex64 and
complex128: random values of moderate size, a grid of special values (0, -0, +-1, +-inf, NaN in
each part, points on and next to the branch cuts), pow, sign and the lexicographic ordering.

Tolerance: rtol = atol = 64 * eps of the component type, measured on |got - want| (complex).
expm1's reference is NumPy's with the Array API's special values where NumPy's formula differs
(darray's host implementation; tests/test_special_cases.py checks it against the standard).
"""
from __future__ import annotations

import itertools
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import darray as da
from darray.ops._table import TABLE

DTYPES = [np.complex64, np.complex128]

UNARY = {
    "exp": np.exp, "expm1": TABLE["expm1"].compute, "log": np.log, "log1p": np.log1p, "log2": np.log2,
    "log10": np.log10,
    "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin, "acos": np.arccos,
    "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asinh": np.arcsinh,
    "acosh": np.arccosh, "atanh": np.arctanh, "sign": np.sign, "abs": np.abs,
}
# exp-like functions overflow quickly, so random inputs stay small for them
GROWING = {"exp", "expm1", "sin", "cos", "tan", "sinh", "cosh", "tanh"}
COMPARE = {"less": np.less, "less_equal": np.less_equal, "greater": np.greater,
           "greater_equal": np.greater_equal, "maximum": np.maximum, "minimum": np.minimum}

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 2.0, np.inf, -np.inf, np.nan]

# Points where NumPy's answer depends on the platform's libm, skipped: at (+-inf or NaN) + i*inf
# C99 Annex G leaves the sign of sin's infinite imaginary part unspecified. darray's sinh returns
# +inf like glibc there, so sin(z) = -i sinh(iz) gives -i*inf, where glibc's csin gives +i*inf.
UNSPECIFIED = {"sin": lambda z: np.isinf(z.imag) & ~np.isfinite(z.real)}
# NumPy's own log1p computes log(hypot(1 + x, y)), which overflows for |z| near the largest
# float; darray scales and returns the finite answer.
NUMPY_OVERFLOWS = {"log1p": lambda z: np.isfinite(z) & (np.abs(z) > np.finfo(z.real.dtype).max / 2)}


def _tol(dtype) -> dict[str, float]:
    eps = float(np.finfo(dtype).eps)
    return {"rtol": 64 * eps, "atol": 64 * eps}


def _run(name, *arrays, place):
    return getattr(da, name)(*(da.asarray(a, device=place) for a in arrays)).get()


def _want(ref, *arrays):
    with np.errstate(all="ignore"):
        return ref(*arrays)


def _assert_match(got, want, where=""):
    """NaN and inf (with sign) sit at the same parts; the finite parts agree within tolerance."""
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    parts = lambda a: [np.real(a), np.imag(a)]  # noqa: E731
    for g, w, part in zip(parts(got), parts(want), ("real", "imag")):
        for test in (np.isnan, np.isposinf, np.isneginf):
            bad = test(g) != test(w)
            assert not bad.any(), f"{where} {part} {test.__name__} differs at {np.nonzero(bad)[0][:8]}: " \
                                  f"got {got[bad][:8]}, numpy {want[bad][:8]}"
    clean = lambda a: np.where(np.isfinite(a), a, 0)  # noqa: E731
    if got.dtype.kind == "c":
        g = clean(got.real) + 1j * clean(got.imag)
        w = clean(want.real) + 1j * clean(want.imag)
    else:
        g, w = clean(got), clean(want)
    np.testing.assert_allclose(g, w, err_msg=where, **_tol(got.dtype))


def _complex_arrays(dtype, max_magnitude):
    width = 64 if dtype == np.complex64 else 128
    elems = st.complex_numbers(max_magnitude=max_magnitude, allow_nan=False, allow_infinity=False, width=width)
    return hnp.arrays(dtype, st.integers(1, 48), elements=elems)


def _grid(dtype, values) -> np.ndarray:
    return np.array([complex(a, b) for a, b in itertools.product(values, values)], dtype)


# -- unary functions -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=["c64", "c128"])
@pytest.mark.parametrize("name", sorted(UNARY))
@settings(max_examples=max(settings.default.max_examples // 2, 10))  # 42 cases: half the profile's examples
@given(data=st.data())
def test_unary_random(cl_place, name, dtype, data):
    z = data.draw(_complex_arrays(dtype, 20.0 if name in GROWING else 1e4), label="z")
    _assert_match(_run(name, z, place=cl_place), _want(UNARY[name], z), f"{name}{z}")


def _special_grid(dtype) -> np.ndarray:
    fi = np.finfo(dtype)
    eps, big, tiny = float(fi.eps), float(fi.max), float(fi.smallest_subnormal)
    near_cuts = [1 + eps, 1 - eps / 2, -1 - eps, -1 + eps / 2, 3.0, 1e-20, -1e-20]  # +-1, +-i: branch points
    extremes = [big, -big, big / 2, tiny, -tiny, float(fi.tiny), 1 / eps]
    return np.concatenate([_grid(dtype, SPECIAL), _grid(dtype, [0.0, -0.0, 1.0, -1.0] + near_cuts + extremes)])


@pytest.mark.parametrize("dtype", DTYPES, ids=["c64", "c128"])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_special_values(cl_place, name, dtype):
    z = _special_grid(dtype)
    for skip in (UNSPECIFIED.get(name), NUMPY_OVERFLOWS.get(name)):
        if skip is not None:
            z = z[~skip(z)]
    got, want = _run(name, z, place=cl_place), _want(UNARY[name], z)
    _assert_match(got, want, name)
    if sys.platform.startswith("linux"):  # NumPy's zero signs come from glibc here
        both_zero = lambda g, w: (g == 0) & (w == 0) & (np.signbit(g) != np.signbit(w))  # noqa: E731
        zero_sign = both_zero(got.real, want.real) | both_zero(got.imag, want.imag)
        zero_sign &= ~np.isnan(want.real) & ~np.isnan(want.imag)  # Annex G: "NaN +- i0" and the like
        if name == "exp":  # Annex G: exp(-inf +- i inf) = +-0 +- i0, signs unspecified
            zero_sign &= ~(np.isneginf(z.real) & np.isinf(z.imag))
        assert not zero_sign.any(), \
            f"{name}: zero signs differ at {z[zero_sign]}: {got[zero_sign]} vs {want[zero_sign]}"


@pytest.mark.parametrize("dtype", DTYPES, ids=["c64", "c128"])
def test_branch_cuts(cl_place, dtype):
    """Both sides of each cut, chosen by the sign of zero, and the branch points themselves."""
    pts = np.array([complex(r, s * 0.0) for r in (-4.0, -1.0, -0.5, 0.5, 1.0, 4.0) for s in (1, -1)] +
                   [complex(s * 0.0, i) for i in (-4.0, -1.0, -0.5, 0.5, 1.0, 4.0) for s in (1, -1)], dtype)
    for name in ("log", "sqrt", "asin", "acos", "atan", "asinh", "acosh", "atanh", "log1p"):
        _assert_match(_run(name, pts, place=cl_place), _want(UNARY[name], pts), name)


@pytest.mark.parametrize("dtype", DTYPES, ids=["c64", "c128"])
def test_accuracy_small_and_large(cl_place, dtype):
    """Scaling keeps tiny and huge arguments accurate (no spurious overflow or underflow)."""
    rng = np.random.default_rng(7)
    big = float(np.finfo(dtype).max)
    for scale in (1e-30, 1e-6, 1e6, big / 4):
        z = ((rng.standard_normal(64) + 1j * rng.standard_normal(64)) * scale).astype(dtype)
        for name in ("log", "log2", "log10", "sqrt", "asin", "acos", "atan", "asinh", "acosh", "atanh", "abs", "sign"):
            _assert_match(_run(name, z, place=cl_place), _want(UNARY[name], z), f"{name} at scale {scale}")


# -- pow ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=["c64", "c128"])
@given(data=st.data())
def test_pow_random(cl_place, dtype, data):
    n = data.draw(st.integers(1, 32), label="n")
    a = data.draw(hnp.arrays(dtype, n, elements=st.complex_numbers(min_magnitude=0.1, max_magnitude=10,
                                                                   width=64 if dtype == np.complex64 else 128)))
    b = data.draw(hnp.arrays(dtype, n, elements=st.complex_numbers(max_magnitude=2,
                                                                   width=64 if dtype == np.complex64 else 128)))
    _assert_match(_run("pow", a, b, place=cl_place), _want(np.power, a, b), "pow")


@pytest.mark.parametrize("dtype", DTYPES, ids=["c64", "c128"])
def test_pow_integer_exponents(cl_place, dtype):
    """Exponents -99..99 with zero imaginary part take NumPy's repeated-squaring path."""
    rng = np.random.default_rng(3)
    n = np.arange(-99, 100)
    a = (np.exp(1j * rng.uniform(-np.pi, np.pi, n.size)) * rng.uniform(0.95, 1.05, n.size)).astype(dtype)
    _assert_match(_run("pow", a, n.astype(dtype), place=cl_place), _want(np.power, a, n.astype(dtype)), "pow int")
    exact = _run("pow", np.array([1 + 1j, 2j], dtype), np.array([50, 3], dtype), place=cl_place)
    np.testing.assert_array_equal(exact, np.array([2.0 ** 25 * 1j, -8j], dtype))


@pytest.mark.parametrize("dtype", DTYPES, ids=["c64", "c128"])
def test_pow_special_values(cl_place, dtype):
    # x**0 = 1 for every x, 0**b = 0 when Re b > 0 and nan+nanj otherwise
    z = _grid(dtype, SPECIAL)
    ones = _run("pow", z, np.zeros_like(z), place=cl_place)
    np.testing.assert_array_equal(ones, np.ones_like(z))
    zeros = np.array([0, complex(-0.0, 0), complex(0, -0.0)] * (z.size // 3 + 1), dtype)[:z.size]
    _assert_match(_run("pow", zeros, z, place=cl_place), _want(np.power, zeros, z), "0**z")
    # finite operands only: with inf/NaN NumPy's result comes from the C compiler's complex
    # multiply and libm's cpow, which differ between platforms
    fin = _grid(dtype, [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 2.0])
    a, b = (np.array(t, dtype) for t in zip(*itertools.product(fin, fin)))
    _assert_match(_run("pow", a, b, place=cl_place), _want(np.power, a, b), "pow grid")


# -- sign and ordering -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=["c64", "c128"])
def test_sign_rules(cl_place, dtype):
    z = np.array([0, complex(-0.0, -0.0), 3 + 4j, -1e-40j, complex(np.inf, 1), complex(1, -np.inf),
                  complex(np.inf, np.nan), complex(np.nan, 0), complex(np.inf, np.inf)], dtype)
    got = _run("sign", z, place=cl_place)
    _assert_match(got, _want(np.sign, z), "sign")
    np.testing.assert_array_equal(got[:3], np.array([0, 0, 0.6 + 0.8j], dtype))
    assert np.isnan(got[7].real) and np.isnan(got[7].imag)


@pytest.mark.parametrize("dtype", DTYPES, ids=["c64", "c128"])
@pytest.mark.parametrize("name", sorted(COMPARE))
def test_ordering_special_grid(cl_place, name, dtype):
    """Lexicographic order; a NaN part makes comparisons false and is what maximum/minimum return."""
    z = _grid(dtype, [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan])
    a, b = (np.array(t, dtype) for t in zip(*itertools.product(z, z)))
    got, want = _run(name, a, b, place=cl_place), _want(COMPARE[name], a, b)
    if want.dtype == bool:
        np.testing.assert_array_equal(got, want)
    else:  # the very operand comes back: compare bits, NaN parts included
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("dtype", DTYPES, ids=["c64", "c128"])
@given(data=st.data())
def test_ordering_random(cl_place, dtype, data):
    parts = st.sampled_from([-1.0, 0.0, 0.5, 2.0, np.nan])
    elems = st.builds(complex, parts, parts)
    a = data.draw(hnp.arrays(dtype, 24, elements=elems), label="a")
    b = data.draw(hnp.arrays(dtype, 24, elements=elems), label="b")
    for name, ref in COMPARE.items():
        got, want = _run(name, a, b, place=cl_place), _want(ref, a, b)
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8), err_msg=name)


def test_division_rounds_each_step_as_numpy(cl_place):
    """Smith's division unfused: an FMA rounded this imaginary part (2.47e-324, a tie at half the
    smallest subnormal) to -0.0 where NumPy's separate steps give +0.0."""
    a = np.array([-1.43218624e-115 + 0j, 1 + 0j])
    b = np.array([5.79755445e+208 - 1j, 3 - 4j])
    got = (da.asarray(a, device=cl_place) / da.asarray(b, device=cl_place)).get()
    want = a / b
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(want.imag))
