"""The Array API 2024.12 special cases of every elementwise function, on float32 and float64,
and the complex cases of ``COMPLEX_UNARY`` on complex64 and complex128.

One row per case, in a small notation: ``"inputs:expected"`` separated by spaces, inputs
separated by commas. Values: ``nan``, ``+0``, ``-0``, ``+inf``, ``-inf``, numbers, ``pi``
multiples (``pi/2``, ``-3pi/4``), ``0`` (a zero of either sign), ``inf`` (an infinity of either
sign), ``T``/``F``; a complex value is ``real|imag``. Each function's cases run as one array
per dtype (one kernel), on the default place and on ``cpu``; the functions computed by darray's
own C helpers run once more inside a fused chain (``fused``: the inputs pending, so the lazy
graph renders the function inside a larger kernel). Cases the standard leaves to the
implementation are not listed; where it lets libraries follow Python instead (``floor_divide``
with an infinite operand: ``inf // 2`` is NaN, ``-2 // inf`` is -1), darray follows NumPy and Python,
so ``floor_divide`` and ``remainder`` always satisfy ``x == y * (x // y) + x % y`` as NumPy's do.
"""
from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest

import darray as da
from darray.ops._table import TABLE, template

UNARY = {
    "abs": "nan:nan -0:+0 +0:+0 -inf:+inf +inf:+inf -2.5:2.5",
    "acos": "nan:nan 2:nan -2:nan 1:+0 +inf:nan",
    "acosh": "nan:nan 0.5:nan 1:+0 +inf:+inf -inf:nan",
    "asin": "nan:nan 2:nan -2:nan +0:+0 -0:-0",
    "asinh": "nan:nan +0:+0 -0:-0 +inf:+inf -inf:-inf",
    "atan": "nan:nan +0:+0 -0:-0 +inf:pi/2 -inf:-pi/2",
    "atanh": "nan:nan -2:nan 2:nan -1:-inf 1:+inf +0:+0 -0:-0",
    "ceil": "nan:nan +inf:+inf -inf:-inf +0:+0 -0:-0 -0.5:-0 1.5:2",
    "cos": "nan:nan +0:1 -0:1 +inf:nan -inf:nan",
    "cosh": "nan:nan +0:1 -0:1 +inf:+inf -inf:+inf",
    "exp": "nan:nan +0:1 -0:1 +inf:+inf -inf:+0",
    "expm1": "nan:nan +0:+0 -0:-0 +inf:+inf -inf:-1",
    "floor": "nan:nan +inf:+inf -inf:-inf +0:+0 -0:-0 0.5:+0 -1.5:-2",
    "isfinite": "nan:F +inf:F -inf:F +0:T -0:T 1:T",
    "isinf": "nan:F +inf:T -inf:T +0:F 1:F",
    "isnan": "nan:T +inf:F +0:F 1:F",
    "log": "nan:nan -1:nan -inf:nan +0:-inf -0:-inf 1:+0 +inf:+inf",
    "log1p": "nan:nan -2:nan -1:-inf -0:-0 +0:+0 +inf:+inf",
    "log2": "nan:nan -1:nan +0:-inf -0:-inf 1:+0 +inf:+inf",
    "log10": "nan:nan -1:nan +0:-inf -0:-inf 1:+0 +inf:+inf",
    "logical_not": "+0:T -0:T 1:F nan:F",
    "negative": "nan:nan +0:-0 -0:+0 +inf:-inf -inf:+inf",
    "positive": "nan:nan +0:+0 -0:-0 +inf:+inf",
    "reciprocal": "nan:nan +0:+inf -0:-inf +inf:+0 -inf:-0 2:0.5",
    "round": "nan:nan +inf:+inf -inf:-inf +0:+0 -0:-0 0.5:+0 -0.5:-0 1.5:2 2.5:2",
    "sign": "nan:nan +0:0 -0:0 -2:-1 3:1 +inf:1 -inf:-1",
    "signbit": "+0:F -0:T +inf:F -inf:T 1:F -1:T nan:F -nan:T",
    "sin": "nan:nan +0:+0 -0:-0 +inf:nan -inf:nan",
    "sinh": "nan:nan +0:+0 -0:-0 +inf:+inf -inf:-inf",
    "sqrt": "nan:nan -1:nan +0:+0 -0:-0 +inf:+inf -inf:nan",
    "square": "nan:nan +0:+0 -0:+0 +inf:+inf -inf:+inf",
    "tan": "nan:nan +0:+0 -0:-0 +inf:nan -inf:nan",
    "tanh": "nan:nan +0:+0 -0:-0 +inf:1 -inf:-1",
    "trunc": "nan:nan +inf:+inf -inf:-inf +0:+0 -0:-0 -0.5:-0 1.5:1",
}

BINARY = {
    "add": ("nan,1:nan 1,nan:nan +inf,-inf:nan -inf,+inf:nan +inf,+inf:+inf -inf,-inf:-inf +inf,1:+inf "
            "-inf,1:-inf -0,-0:-0 -0,+0:+0 +0,-0:+0 +0,+0:+0 2,-2:+0 -0,3:3"),
    "atan2": ("nan,1:nan 1,nan:nan 1,+0:pi/2 1,-0:pi/2 +0,1:+0 +0,+0:+0 +0,-0:pi +0,-1:pi -0,1:-0 -0,+0:-0 "
              "-0,-0:-pi -0,-1:-pi -1,+0:-pi/2 -1,-0:-pi/2 1,+inf:+0 1,-inf:pi -1,+inf:-0 -1,-inf:-pi "
              "+inf,1:pi/2 -inf,1:-pi/2 +inf,+inf:pi/4 +inf,-inf:3pi/4 -inf,+inf:-pi/4 -inf,-inf:-3pi/4"),
    "copysign": "1,-0:-1 1,+0:1 -1,+0:1 +inf,-1:-inf -0,1:+0 nan,1:nan",
    "divide": ("nan,1:nan 1,nan:nan +inf,+inf:nan -inf,+inf:nan +0,+0:nan -0,+0:nan +0,1:+0 -0,1:-0 +0,-1:-0 "
               "-0,-1:+0 1,+0:+inf 1,-0:-inf -1,+0:-inf -1,-0:+inf +inf,2:+inf +inf,-2:-inf -inf,2:-inf "
               "-inf,-2:+inf 2,+inf:+0 2,-inf:-0 -2,+inf:-0 -2,-inf:+0"),
    "equal": "nan,nan:F nan,1:F +0,-0:T +inf,+inf:T -inf,+inf:F",
    "floor_divide": ("nan,1:nan 1,nan:nan +inf,+inf:nan -inf,-inf:nan +inf,-inf:nan -inf,+inf:nan +0,+0:nan "
                     "-0,-0:nan +0,-0:nan -0,+0:nan +0,2:+0 -0,2:-0 +0,-2:-0 -0,-2:+0 1,+0:+inf 1,-0:-inf "
                     "-1,+0:-inf -1,-0:+inf +inf,2:nan +inf,-2:nan -inf,2:nan -inf,-2:nan +inf,0.5:nan "
                     "2,+inf:+0 2,-inf:-1 -2,+inf:-1 -2,-inf:+0 7,2:3 -7,-2:3 -7,2:-4 7,-2:-4"),
    "greater": "nan,1:F 1,nan:F +inf,1:T -0,+0:F",
    "greater_equal": "nan,1:F 1,nan:F -0,+0:T",
    "hypot": "+inf,nan:+inf nan,+inf:+inf -inf,1:+inf nan,1:nan 3,4:5",
    "less": "nan,1:F 1,nan:F -inf,1:T -0,+0:F",
    "less_equal": "nan,1:F 1,nan:F -0,+0:T",
    "logaddexp": "nan,1:nan 1,nan:nan +inf,1:+inf 1,+inf:+inf +inf,+inf:+inf -inf,-inf:-inf",
    "logical_and": "nan,1:T +0,1:F -0,1:F",
    "logical_or": "nan,+0:T +0,-0:F",
    "logical_xor": "nan,+0:T +0,-0:F nan,1:F",
    "maximum": "nan,1:nan 1,nan:nan +inf,1:+inf -inf,1:1",
    "minimum": "nan,1:nan 1,nan:nan -inf,1:-inf +inf,1:1",
    "multiply": ("nan,1:nan 1,nan:nan +inf,+0:nan -0,+inf:nan -inf,-0:nan -0,1:-0 -0,-1:+0 +0,-1:-0 "
                 "+inf,-1:-inf -inf,-inf:+inf +inf,2:+inf"),
    "nextafter": "nan,1:nan 1,nan:nan 1,1:1 -0,+0:+0 +0,-0:-0",
    "not_equal": "nan,nan:T nan,1:T +0,-0:F",
    "pow": ("nan,+0:1 nan,-0:1 nan,1:nan 2,nan:nan 2,+inf:+inf 2,-inf:+0 -1,+inf:1 -1,-inf:1 0.5,+inf:+0 "
            "0.5,-inf:+inf +inf,2:+inf +inf,-2:+0 -inf,3:-inf -inf,2:+inf -inf,-3:-0 -inf,-2:+0 +0,2:+0 "
            "+0,-2:+inf -0,3:-0 -0,2:+0 -0,-3:-inf -0,-2:+inf -2,0.5:nan"),
    "remainder": ("nan,1:nan 1,nan:nan +inf,1:nan -inf,1:nan 1,+0:nan -1,-0:nan +0,2:+0 -0,2:+0 +0,-2:-0 "
                  "-0,-2:-0 5,+inf:5 5,-inf:-inf -5,+inf:+inf -5,-inf:-5"),
    "subtract": ("nan,1:nan 1,nan:nan +inf,+inf:nan -inf,-inf:nan +inf,-inf:+inf -inf,+inf:-inf -0,+0:-0 "
                 "+0,+0:+0 -0,-0:+0 3,3:+0"),
}


COMPLEX_UNARY = {
    "expm1": ("+0|+0:+0|+0 -0|+0:+0|+0 1|+inf:nan|nan -2|+inf:nan|nan 1|nan:nan|nan -0|nan:nan|nan "
              "+inf|+0:+inf|+0 +inf|-0:+inf|-0 -inf|+0:-1|+0 -inf|2:-1|+0 -inf|-2:-1|-0 -inf|0.5:-1|+0 "
              "+inf|2:-inf|+inf +inf|0.5:+inf|+inf +inf|-0.5:+inf|-inf -inf|+inf:-1|0 -inf|-inf:-1|0 "
              "+inf|+inf:inf|nan +inf|-inf:inf|nan -inf|nan:-1|0 +inf|nan:inf|nan nan|+0:nan|+0 nan|-0:nan|-0 "
              "nan|1:nan|nan nan|nan:nan|nan"),
}


_NAMED = {"nan": math.nan, "-nan": -math.nan, "+inf": math.inf, "-inf": -math.inf, "+0": 0.0, "-0": -0.0,
          "T": 1.0, "F": 0.0}


def _value(token: str) -> float:
    """A token of the notation as a float (``3pi/4`` -> 3 * pi / 4)."""
    if token in _NAMED:
        return _NAMED[token]
    if "pi" in token:
        scale, _, den = token.partition("pi")
        return float(scale + "1" if scale in ("", "-") else scale) * math.pi / float(den.lstrip("/") or 1)
    return float(token)


def _input(token: str) -> complex | float:
    re, _, im = token.partition("|")
    return complex(_value(re), _value(im)) if im else _value(re)


def _own_helper(name: str, dtype: str) -> bool:
    """Whether the op's C template for ``dtype`` calls one of darray's helpers (elementwise.h,
    complex.h), whose special values could change when inlined into a larger kernel."""
    return bool(re.search(r"_\{[TR]\}\(|trig_", template(TABLE[name], np.dtype(dtype).kind)))


def _cases(table: dict[str, str], dtypes: tuple[str, ...] = ("float32", "float64")) -> list[Any]:
    """(name, dtype, place, fused) on the default place and ``cpu``, and fused on the default
    place for the ops computed by darray's own helpers (the built-ins compile the same either way)."""
    return [pytest.param(name, dtype, place, fused, id=f"{label}-{name}-{dtype}")
            for name in sorted(table) for dtype in dtypes
            for place, fused, label in ((None, False, "default"), (None, True, "fused"), ("cpu", False, "cpu"))
            if not fused or _own_helper(name, dtype)]


def _agrees(g: float, want: str, dtype: str) -> bool:
    """Whether the (real) result ``g`` is the notation's ``want``, zero signs included."""
    if want in ("T", "F"):
        return bool(g) is (want == "T")
    if want == "nan":
        return bool(np.isnan(g))
    if want == "0":
        return bool(g == 0)
    if want == "inf":
        return bool(np.isinf(g))
    w = _value(want)
    close = g == w or (math.isfinite(w) and abs(g - w) <= 4 * np.finfo(dtype).eps * abs(w))
    return bool(close and (w != 0 or np.signbit(g) == (want == "-0")))


def _check(name: str, rows: str, dtype: str, place: object, fused: bool = False) -> None:
    cases = [c.split(":") for c in rows.split()]
    inputs = list(zip(*[[_input(t) for t in ins.split(",")] for ins, _ in cases]))
    args = [da.asarray(np.array(col, dtype), device=place) for col in inputs]
    if fused:  # pending inputs: the function renders inside one larger fused kernel
        args = [da.positive(a) for a in args]
    got = getattr(da, name)(*args).get()
    real = np.finfo(dtype).dtype.name
    for k, (ins, want) in enumerate(cases):
        g = got[k]
        what = f"{name}({ins}) on {dtype}: got {g!r}, the standard says {want}"
        if "|" in want:
            re, im = want.split("|")
            assert _agrees(g.real, re, real) and _agrees(g.imag, im, real), what
        else:
            assert _agrees(g, want, real), what


@pytest.mark.parametrize("name,dtype,place,fused", _cases(UNARY))
def test_unary_special_cases(name: str, dtype: str, place: object, fused: bool) -> None:
    _check(name, UNARY[name], dtype, place, fused)


@pytest.mark.parametrize("name,dtype,place,fused", _cases(BINARY))
def test_binary_special_cases(name: str, dtype: str, place: object, fused: bool) -> None:
    _check(name, BINARY[name], dtype, place, fused)


@pytest.mark.parametrize("name,dtype,place,fused", _cases(COMPLEX_UNARY, ("complex64", "complex128")))
def test_complex_unary_special_cases(name: str, dtype: str, place: object, fused: bool) -> None:
    _check(name, COMPLEX_UNARY[name], dtype, place, fused)


def test_every_standard_elementwise_function_has_cases() -> None:
    """Every one-argument and two-argument float function of the standard has a row (the bitwise
    and integer-only ones have no float special cases; clip, conj, real and imag none either)."""
    from api_standard import reference

    standard = set(reference()[""])
    no_cases = {"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_invert", "bitwise_left_shift",
                "bitwise_right_shift", "conj", "real", "imag", "where", "clip"}
    listed = set(UNARY) | set(BINARY)
    missing = sorted(n for n in standard & set(TABLE) if n not in listed and n not in no_cases)
    assert not missing, f"no special cases listed for {missing}"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_real_times_complex_keeps_signed_zeros(dtype: str) -> None:
    """A real array cast to complex has a +0 imaginary part that must take part in the product
    (Intel's CPU compiler folded ``0 * b.x`` away, giving ``-0*1j == -0-0j``; NumPy: ``-0+0j``)."""
    x = np.array([-0.0, 0.0, -2.0, 3.0], dtype)
    for got, want in ((da.asarray(x) * 1j, x * 1j), (da.multiply(da.asarray(x), da.asarray(x * 1j)), x * (x * 1j))):
        g = got.get()
        assert np.array_equal(np.signbit(g.real), np.signbit(want.real)), (g, want)
        assert np.array_equal(np.signbit(g.imag), np.signbit(want.imag)), (g, want)
