"""NumPy 2's result dtype, always (issue 42): every function family over every dtype pair.

Operands are arrays of the 14 dtypes (strong), NumPy scalars (strong) and Python bool/int/float/complex
(weak, NEP 50), of values for which NumPy raises nothing; where NumPy raises, darray raises the same
(public) exception class. The families are tables of function names: the binary and the unary ufuncs
(plain over every pair, then with ``dtype=``, ``casting=`` and ``out=``), the ufunc methods, the
reductions (with and without ``dtype=``) and the functions whose dtypes NumPy's implementation implies.
A dtype the device cannot do (float64 without cl_khr_fp64) is the one exception: such cases are skipped.
darray's documented differences stay out of the draws: histogram takes no complex values or weights.
"""
from __future__ import annotations

import inspect
import itertools
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

import darray as da
from darray.testing import unsupported

DTYPES = [np.dtype(t) for t in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                "float16", "float32", "float64", "complex64", "complex128")]
PYTHON = (True, 2, 2.0, 2j)
CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")

BINARY = ("add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power", "pow", "float_power",
          "remainder", "mod", "fmod", "divmod", "maximum", "minimum", "fmax", "fmin", "arctan2", "atan2", "hypot",
          "copysign", "nextafter", "ldexp", "logaddexp", "logaddexp2", "heaviside", "gcd", "lcm", "bitwise_and",
          "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "bitwise_left_shift", "bitwise_right_shift",
          "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
          "logical_xor")
UNARY = ("negative", "positive", "absolute", "abs", "fabs", "sign", "reciprocal", "square", "sqrt", "cbrt", "exp",
         "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "asin",
         "acos", "atan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "asinh", "acosh", "atanh",
         "degrees", "radians", "deg2rad", "rad2deg", "rint", "floor", "ceil", "trunc", "spacing", "signbit",
         "isfinite", "isinf", "isnan", "logical_not", "invert", "bitwise_not", "bitwise_invert", "bitwise_count",
         "conjugate", "conj", "modf", "frexp")
GUFUNCS = ("matmul", "vecdot", "matvec", "vecmat")  # NumPy's generalized ufuncs: with the functions below
METHODS = ("reduce", "accumulate", "reduceat", "outer")  # ufunc methods (of the binary ufuncs)

# name, takes dtype=: NumPy's accumulator types (sum of int8: int64, mean of ints: float64...)
REDUCTIONS = (("sum", True), ("prod", True), ("mean", True), ("std", True), ("var", True), ("max", False),
              ("min", False), ("amax", False), ("amin", False), ("ptp", False), ("cumsum", True),
              ("cumprod", True), ("cumulative_sum", True), ("cumulative_prod", True), ("nansum", True),
              ("nanprod", True), ("nanmean", True), ("nanstd", True), ("nanvar", True), ("nanmax", False),
              ("nanmin", False), ("nancumsum", True), ("nancumprod", True), ("median", False),
              ("nanmedian", False), ("average", False), ("any", False), ("all", False), ("argmax", False),
              ("argmin", False), ("nanargmax", False), ("nanargmin", False), ("count_nonzero", False),
              ("trace", True))


@dataclass(frozen=True)
class Arg:
    """One operand: a 1-d array of ``dtype`` ("array"), a 2x2 one ("matrix"), a NumPy scalar of
    ``dtype`` ("numpy", strong) or the Python scalar ``value`` ("python", weak)."""

    form: str
    dtype: np.dtype | None = None
    value: Any = None

    def get(self, xp: Any) -> Any:
        """The operand for ``xp`` (numpy or darray; darray's arrays made by ``asarray`` of NumPy's)."""
        if self.form == "python":
            return self.value
        assert self.dtype is not None
        if self.form == "numpy":
            return self.dtype.type(1)
        x = np.array([[1, 0], [0, 1]] if self.form == "matrix" else [1, 0] if self.dtype.kind == "b" else [1, 2])
        return x.astype(self.dtype) if xp is np else da.asarray(x.astype(self.dtype))

    def __repr__(self) -> str:
        return repr(self.value) if self.form == "python" else f"{self.form}({self.dtype})"


ARRAYS = [Arg("array", d) for d in DTYPES]
REAL = tuple(a for a in ARRAYS if a.dtype is not None and a.dtype.kind != "c")
SCALARS = [Arg("numpy", d) for d in DTYPES] + [Arg("python", value=v) for v in PYTHON]
EVERY = ARRAYS + SCALARS


def _public(err: BaseException) -> type:
    """The first builtin class of ``err`` (NumPy's UFuncTypeError is a TypeError)."""
    return next(c for c in type(err).__mro__ if c.__module__ == "builtins")


def _dtypes(r: Any) -> Any:
    """The dtype of a result (a tuple's item by item; a Python object's type)."""
    if isinstance(r, (tuple, list)):
        return tuple(_dtypes(x) for x in r)
    return getattr(r, "dtype", type(r))


def _computed(r: Any) -> Any:
    """``r`` with its 0-d DArrays computed (of scalar operands: the value must be made, not its dtype
    alone; arrays stay pending, their kernels are many)."""
    for x in r if isinstance(r, (tuple, list)) else [r]:
        if isinstance(x, (tuple, list)):
            _computed(x)
        elif isinstance(x, da.DArray) and x.ndim == 0:
            x.item()
    return r


def _flat(d: Any) -> list[np.dtype]:
    return [x for y in d for x in _flat(y)] if isinstance(d, tuple) else [d] if isinstance(d, np.dtype) else []


def outcome(call: Callable[[Any], Any], dtypes: tuple[np.dtype, ...] = ()) -> str | None:
    """None when ``call(darray)`` gives NumPy's result dtypes (``call(numpy)``'s; 0-d values computed) or
    raises NumPy's exception class; else what differs. Skipped (None) where the device cannot do
    ``dtypes`` or the result's."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            want = call(np)
        except Exception as err:
            if any(unsupported(d) for d in dtypes):
                return None
            try:
                got = call(da)
            except Exception as mine:
                return None if isinstance(mine, _public(err)) else f"raised {mine!r}, NumPy {err!r}"
            return f"gave {_dtypes(got)}, NumPy raised {err!r}"
        if any(unsupported(d) for d in (*dtypes, *_flat(_dtypes(want)))):
            return None
        try:
            got = _computed(call(da))
        except Exception as mine:
            return f"raised {mine!r}, NumPy gave {_dtypes(want)}"
    return None if _dtypes(got) == _dtypes(want) else f"gave {_dtypes(got)}, NumPy {_dtypes(want)}"


def _arg_dtypes(*args: Any) -> tuple[np.dtype, ...]:
    return tuple(a.dtype for a in args if isinstance(a, Arg) and a.dtype is not None) + tuple(
        a for a in args if isinstance(a, np.dtype))


def test_tables_name_every_numpy_ufunc() -> None:
    """BINARY, UNARY and GUFUNCS are all of NumPy's ufuncs (but isnat: darray has no datetimes)."""
    ufuncs = {n for n in dir(np) if isinstance(getattr(np, n), np.ufunc)}
    assert ufuncs - {"isnat"} == {*BINARY, *UNARY, *GUFUNCS}


# ---------------------------------------------------------------------------------------------- ufuncs

@pytest.mark.parametrize("name", BINARY + UNARY)
def test_ufunc_every_operand(name: str) -> None:
    """Every pair (binary) or operand (unary) of arrays, NumPy scalars and Python scalars."""
    def call(args: tuple[Arg, ...]) -> Callable[[Any], Any]:
        return lambda xp: getattr(xp, name)(*[a.get(xp) for a in args])

    bad = [f"{name}{args}: {r}" for args in itertools.product(EVERY, repeat=getattr(np, name).nin)
           if (r := outcome(call(args), _arg_dtypes(*args)))]
    assert not bad, "\n".join(bad)


@settings(max_examples=6, deadline=None)
@pytest.mark.parametrize("name", BINARY + UNARY)
@given(data=st.data())
def test_ufunc_keywords(name: str, data: st.DataObject) -> None:
    """``dtype=``, ``casting=`` and ``out=`` (of any dtype) over any operands, Python scalars included
    (``floor_divide(3, 2, dtype=float64)``)."""
    ufunc = getattr(np, name)
    args = [data.draw(st.sampled_from(EVERY), label="arg") for _ in range(ufunc.nin)]
    kw = data.draw(st.fixed_dictionaries({}, optional={"dtype": st.sampled_from(DTYPES),
                                                       "casting": st.sampled_from(CASTINGS)}), label="keywords")
    out = data.draw(st.none() | st.sampled_from(DTYPES), label="out") if ufunc.nout == 1 else None

    def call(xp: Any) -> Any:
        values = [a.get(xp) for a in args]
        if out is None:
            return getattr(xp, name)(*values, **kw)
        ones = np.ones(np.broadcast_shapes(*map(np.shape, values)), out)
        target = ones if xp is np else da.asarray(ones)
        result = getattr(xp, name)(*values, out=target, **kw)
        assert result is target
        return result

    assert (r := outcome(call, _arg_dtypes(*args, *kw.values(), *([out] if out else [])))) is None, r


@settings(max_examples=12, deadline=None)
@pytest.mark.parametrize("method", METHODS)
@given(name=st.sampled_from([n for n in BINARY if n != "divmod"]), x=st.sampled_from(DTYPES),
       dtype=st.none() | st.sampled_from(DTYPES))
def test_ufunc_methods(method: str, name: str, x: np.dtype, dtype: np.dtype | None) -> None:
    """reduce, accumulate, reduceat and outer, with and without ``dtype=``."""
    kw = {} if dtype is None else {"dtype": dtype}
    arg = Arg("array", x)
    extra: dict[str, Callable[[Any], tuple[Any, ...]]] = {
        "reduce": lambda xp: (arg.get(xp),), "accumulate": lambda xp: (arg.get(xp),),
        "reduceat": lambda xp: (arg.get(xp), [0]), "outer": lambda xp: (arg.get(xp), arg.get(xp))}
    assert (r := outcome(lambda xp: getattr(getattr(xp, name), method)(*extra[method](xp), **kw),
                         _arg_dtypes(x, *kw.values()))) is None, r


# ------------------------------------------------------------------------------------------ reductions

@settings(max_examples=10, deadline=None)
@pytest.mark.parametrize(("name", "takes_dtype"), REDUCTIONS)
@given(arg=st.sampled_from([Arg("matrix", d) for d in DTYPES] + SCALARS), dtype=st.none() | st.sampled_from(DTYPES),
       axis=st.sampled_from([None, 0]), out=st.none() | st.sampled_from(DTYPES))
def test_reduction(name: str, takes_dtype: bool, arg: Arg, dtype: np.dtype | None, axis: int | None,
                   out: np.dtype | None) -> None:
    """Each reduction of a 2x2 array of every dtype (over all axes or one) or of a scalar (NumPy's or
    Python's; over all axes), with and without ``dtype=`` and ``out=`` (NumPy's reduce: any cast)."""
    kw: dict[str, Any] = {} if dtype is None or not takes_dtype else {"dtype": dtype}
    axis = axis if arg.form == "matrix" else None  # (NumPy takes axis=0 of a 0-d array too; darray does not)
    if name not in ("trace", "cumulative_sum", "cumulative_prod") or axis is not None:
        kw["axis"] = axis
    out = out if "out" in inspect.signature(getattr(np, name)).parameters else None

    def call(xp: Any) -> Any:
        if out is None:
            return getattr(xp, name)(arg.get(xp), **kw)
        ones = np.ones(np.shape(getattr(np, name)(np.ones(np.shape(arg.get(np))), **kw)), out)
        target = ones if xp is np else da.asarray(ones)
        return getattr(xp, name)(arg.get(xp), out=target, **kw)  # (NumPy: a scalar for a 0-d out)

    assert (r := outcome(call, _arg_dtypes(arg, *kw.values(), *([out] if out else [])))) is None, r


# ------------------------------------------------------------------------------------------- functions

@dataclass(frozen=True)
class Row:
    """One function call: ``name(*args, **kw)`` where the tokens "a", "b", "c" are drawn operands
    (of ``forms``), "ab" the list [a, b], "A" a 2x2 array of a's dtype, "t" a bool array, "idx" an int64
    array of indices and "D" (a keyword's value) a drawn dtype; any other value is passed as it is."""

    name: str
    args: tuple[Any, ...]
    kw: dict[str, Any] = field(default_factory=dict)
    forms: tuple[Arg, ...] = tuple(ARRAYS)


FUNCTIONS = (
    Row("where", ("t", "a", "b"), forms=tuple(EVERY)), Row("clip", ("a", "b", "c"), forms=tuple(EVERY)),
    Row("concatenate", ("ab",)), Row("concatenate", ("ab",), {"dtype": "D", "casting": "unsafe"}),
    Row("stack", ("ab",)), Row("hstack", ("ab",)), Row("vstack", ("ab",)), Row("column_stack", ("ab",)),
    Row("dstack", ("ab",)), Row("append", ("a", "b")), Row("block", ("ab",)),
    Row("linspace", ("a", "b"), {"num": 3}, tuple(EVERY)), Row("linspace", ("a", "b"), {"num": 3, "dtype": "D"},
                                                              tuple(EVERY)),
    Row("logspace", ("a", "b"), {"num": 3}, tuple(EVERY)), Row("geomspace", ("a", "b"), {"num": 3}, tuple(EVERY)),
    Row("arange", ("a", "b"), forms=tuple(SCALARS)), Row("arange", ("a",), {"dtype": "D"}, tuple(SCALARS)),
    Row("arange", ("a", "b", "c"), forms=tuple(SCALARS)),
    Row("vander", ("a",)), Row("vander", ("a", 3)), Row("cov", ("a", "b")), Row("cov", ("a",), {"dtype": "D"}),
    Row("corrcoef", ("a", "b")), Row("interp", ("a", "b", "c")), Row("trapezoid", ("a", "b")),
    Row("trapezoid", ("a",), {"dx": "b"}, tuple(EVERY)), Row("diff", ("a",)), Row("diff", ("a",), {"prepend": "b"}),
    Row("gradient", ("a",)), Row("gradient", ("a", "b")), Row("ediff1d", ("a",), {"to_begin": "b"}),
    Row("polyval", ("a", "b"), forms=tuple(EVERY)), Row("polyfit", ("a", "b", 1)), Row("polyadd", ("a", "b")),
    Row("polymul", ("a", "b")), Row("polyder", ("a",)), Row("polyint", ("a",)),
    Row("convolve", ("a", "b")), Row("correlate", ("a", "b")), Row("outer", ("a", "b")),
    Row("dot", ("a", "b"), forms=tuple(EVERY)), Row("vdot", ("a", "b")), Row("matmul", ("a", "b")),
    Row("matmul", ("A", "b")), Row("vecdot", ("a", "b")), Row("matvec", ("A", "b")), Row("vecmat", ("a", "A")),
    Row("inner", ("a", "b"), forms=tuple(EVERY)), Row("tensordot", ("a", "b", 1)),
    Row("einsum", ("i,i", "a", "b")), Row("einsum", ("i,i->i", "a", "b"), {"dtype": "D", "casting": "unsafe"}),
    Row("cross", ("a", "b")), Row("kron", ("a", "b")),
    Row("round", ("a",), forms=tuple(EVERY)), Row("round", ("a", 1)), Row("around", ("a",)),
    Row("isclose", ("a", "b"), forms=tuple(EVERY)), Row("allclose", ("a", "b"), forms=tuple(EVERY)),
    Row("array_equal", ("a", "b")), Row("nan_to_num", ("a",), forms=tuple(EVERY)),
    Row("average", ("a",), {"weights": "b"}), Row("percentile", ("a", 50)), Row("quantile", ("a", 0.5)),
    Row("nanpercentile", ("a", 50)), Row("nanquantile", ("a", 0.5)), Row("percentile", ("a", "b"), forms=tuple(EVERY)),
    Row("histogram", ("a",), forms=REAL), Row("histogram", ("a",), {"weights": "b"}, REAL),
    Row("histogram_bin_edges", ("a",), forms=REAL),
    Row("bincount", ("idx",), {"weights": "a"}), Row("unique", ("a",), {"return_counts": True}),
    Row("unique_counts", ("a",)), Row("searchsorted", ("a", "b"), forms=tuple(EVERY)), Row("nonzero", ("a",)),
    Row("flatnonzero", ("a",)), Row("argwhere", ("a",)), Row("digitize", ("a", "b")), Row("isin", ("a", "b")),
    Row("intersect1d", ("a", "b")), Row("union1d", ("a", "b")), Row("setdiff1d", ("a", "b")),
    Row("setxor1d", ("a", "b")), Row("insert", ("a", 0, "b")), Row("select", (["t"], ["a"], "b")),
    Row("real", ("a",), forms=tuple(EVERY)), Row("imag", ("a",), forms=tuple(EVERY)),
    Row("angle", ("a",), forms=tuple(EVERY)), Row("abs", ("a",), forms=tuple(EVERY)), Row("sinc", ("a",)),
    Row("unwrap", ("a",)), Row("fix", ("a",)), Row("real_if_close", ("a",)), Row("i0", ("a",)),
    Row("full_like", ("a", "b"), forms=tuple(EVERY)), Row("full_like", ("a", 1), {"dtype": "D"}),
    Row("zeros_like", ("a",), {"dtype": "D"}), Row("ones_like", ("a",), {"dtype": "D"}),
    Row("empty_like", ("a",), {"dtype": "D"}), Row("full", (2, "a"), forms=tuple(EVERY)),
    Row("asarray", ("ab",), forms=tuple(EVERY)), Row("asarray", ("ab",), {"dtype": "D"}, tuple(EVERY)),
    Row("array", ("ab",), forms=tuple(EVERY)),
)


def _tokens(row: Row, a: Arg, b: Arg, c: Arg, dtype: np.dtype, out: np.dtype | None = None) -> Callable[[Any], Any]:
    """``row``'s call for ``xp`` with operands a, b, c and the drawn dtype (and an ``out`` of that dtype,
    of NumPy's result's shape)."""
    def value(t: Any, xp: Any) -> Any:
        if isinstance(t, list):
            return [value(x, xp) for x in t]
        if not isinstance(t, str):
            return t
        chosen = {"a": a, "b": b, "c": c, "A": Arg("matrix", a.dtype) if a.dtype is not None else a}.get(t)
        if chosen is not None:
            return chosen.get(xp)
        if t == "ab":
            return [a.get(xp), b.get(xp)]
        if t in ("t", "idx"):
            x = np.array([True, False]) if t == "t" else np.array([0, 1])
            return x if xp is np else da.asarray(x)
        return dtype if t == "D" else t

    def call(xp: Any, **extra: Any) -> Any:
        return getattr(xp, row.name)(*[value(t, xp) for t in row.args],
                                     **{k: value(v, xp) for k, v in row.kw.items()}, **extra)

    if out is None:
        return call
    ones = np.ones(np.shape(call(np)), out)  # (NumPy raising here: the case is drawn again)
    return lambda xp: call(xp, out=ones if xp is np else da.asarray(ones))


def _takes_out(name: str) -> bool:
    return all("out" in inspect.signature(getattr(xp, name)).parameters for xp in (np, da))


@settings(max_examples=8, deadline=None)
@pytest.mark.parametrize("row", FUNCTIONS, ids=lambda r: f"{r.name}{r.args}{sorted(r.kw)}")
@given(data=st.data())
def test_function(row: Row, data: st.DataObject) -> None:
    """Each function of :data:`FUNCTIONS` over drawn operands (and a drawn ``dtype=``; an ``out=`` of
    any dtype where NumPy's function and darray's take one)."""
    a, b, c = (data.draw(st.sampled_from(row.forms), label=n) for n in "abc")
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    out = data.draw(st.none() | st.sampled_from(DTYPES), label="out") if _takes_out(row.name) else None
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            call = _tokens(row, a, b, c, dtype, out)
    except Exception:
        reject()
    assert (r := outcome(call, _arg_dtypes(a, b, c, dtype, *([out] if out else [])))) is None, r
