"""darray's ufunc objects: every elementwise function of the op table with NumPy's ufunc interface.

``da.add`` is a :class:`ufunc`: ``nin``, ``nout``, ``identity``, ``__call__(..., out=, where=,
dtype=, casting=)`` and the methods ``reduce``, ``accumulate``, ``outer``, ``at`` and
``reduceat`` (``ops/ufunc_methods.py``), all computed on the arrays' place. The two-output ufuncs
``divmod``, ``modf`` and ``frexp`` are composed of table ops. NumPy's own ufuncs reach these
objects through ``__array_ufunc__`` (``interop/ufunc.py``, by :data:`BY_NUMPY`).
"""
from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..transfer.convert import asarray
from . import _dispatch as D
from . import elementwise as E
from . import ufunc_methods as M
from ._out import store
from ._table import ALIASES, OPS, TABLE, Op

_NO_VALUE = np._NoValue
_KEYWORDS = {"where": True, "casting": "same_kind", "order": "K", "dtype": None, "subok": True,
             "signature": None}  # the keywords of a call after the inputs and out, in NumPy's order


class ufunc:  # noqa: N801  (NumPy's name)
    """A NumPy-style universal function over DArrays. Differs from NumPy: elements ``where=`` masks
    out, with no ``out=``, hold the computed values (NumPy leaves them uninitialised)."""

    def __init__(self, name: str, nin: int, nout: int, identity: Any, compute: Callable[..., Any], doc: str,
                 numpy_ufunc: np.ufunc | None) -> None:
        self.__name__ = self.__qualname__ = name
        self.nin, self.nout, self.nargs = nin, nout, nin + nout
        self.identity = identity
        self.signature = None
        self.numpy = numpy_ufunc
        self._compute = compute
        self.__doc__ = doc
        names = ("x",) if nin == 1 else ("x1", "x2")
        self.__signature__ = inspect.Signature(  # NumPy's: out by position or keyword, the rest keyword-only
            [inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY) for n in names]
            + [inspect.Parameter("out", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None if nout == 1
                                 else (None,) * nout)]
            + [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=v) for k, v in _KEYWORDS.items()])

    def __repr__(self) -> str:
        return f"<darray ufunc '{self.__name__}'>"

    def __call__(self, *args: Any, out: Any = None, where: Any = True, dtype: Any = None, casting: str = "same_kind",
                 order: str = "K", subok: bool = True, signature: Any = None) -> Any:
        plain = dtype is None and casting == "same_kind"
        if out is None and plain and len(args) == self.nin:  # the common call: no output, no loop dtype
            return self._compute(*args)  # (``where`` only applies to given outputs)
        if len(args) == self.nin + self.nout and out is None:  # outputs given by position, as NumPy allows
            args, out = args[:self.nin], args[self.nin:]
        if len(args) != self.nin:
            raise TypeError(f"darray {self.__name__}: takes {self.nin} array arguments, got {len(args)}")
        loop = None
        if not plain:  # NumPy's loop for dtype=/casting=: the inputs cast to it first
            args, loop = self._cast_to_loop(args, dtype, casting)
        outs = (out,) if out is not None and not isinstance(out, tuple) else out
        if outs is not None and all(o is None for o in outs):  # NumPy's out=(None, None): no outputs given
            outs = None
        if self.nout == 1 and outs is not None and outs[0] is not None and where is True and plain:
            return E.into(outs[0], ALIASES.get(self.__name__, self.__name__), *args)  # one fused kernel writing out
        results = self._compute(*args)
        results = results if isinstance(results, tuple) else (results,)
        if loop is not None:  # a loop whose output dtype is not that of its inputs' (equal(..., dtype=bool))
            results = tuple(r.astype(d, copy=False) for r, d in zip(results, loop[self.nin:]))
        if outs is None:
            return results[0] if self.nout == 1 else results
        if len(outs) != self.nout:
            raise ValueError(f"darray {self.__name__}: out must be a tuple of {self.nout} arrays")
        for r, o in zip(results, outs):
            if o is None:
                continue
            store(self.__name__, o, r if where is True else E.apply("where", where, r, o), casting)
        return outs[0] if self.nout == 1 else outs

    def _cast_to_loop(self, args: tuple[Any, ...], dtype: Any, casting: str) -> tuple[tuple[Any, ...],
                                                                                     tuple[np.dtype, ...]]:
        """The arguments cast to NumPy's loop for ``dtype=``/``casting=`` (``elementwise.loop``), and the loop."""
        name = self.__name__
        args = tuple(a if isinstance(a, (DArray, np.generic)) or type(a) in D.PY_SCALARS else asarray(a)
                     for a in args)
        keys = tuple(a.dtype if isinstance(a, (DArray, np.generic)) else type(a) for a in args)
        loop = E.loop(self.numpy, name, keys, None if dtype is None else _dt.as_dtype(dtype, name), casting)
        with warnings.catch_warnings(), np.errstate(all="ignore"):  # (NumPy's casts of its scalars are quiet)
            warnings.simplefilter("ignore")
            return tuple(a.astype(d, copy=False) if isinstance(a, DArray) else
                         D.scalar_value(name, a, d) if type(a) is int else np.asarray(a).astype(d)[()]
                         for a, d in zip(args, loop)), loop

    def reduce(self, array: Any, axis: Any = 0, dtype: Any = None, out: Any = None, keepdims: bool = False,
               initial: Any = _NO_VALUE, where: Any = True) -> DArray:
        """Reduce ``array`` along ``axis`` (None: all axes) by applying the ufunc. See also: numpy.ufunc.reduce."""
        return M.reduce(self, array, axis, dtype, out, keepdims, initial, where)

    def accumulate(self, array: Any, axis: int = 0, dtype: Any = None, out: Any = None) -> DArray:
        """The running results of :meth:`reduce` along ``axis``. See also: numpy.ufunc.accumulate."""
        return M.accumulate(self, array, axis, dtype, out)

    def outer(self, A: Any, B: Any, /, **kwargs: Any) -> Any:  # noqa: N803  (NumPy's names)
        """The ufunc of every pair ``(a, b)``: shape ``A.shape + B.shape``. See also: numpy.ufunc.outer."""
        return M.outer(self, A, B, kwargs)

    def at(self, a: DArray, indices: Any, b: Any = None, /) -> None:
        """In place, unbuffered: repeated indices apply the ufunc once per occurrence. See also: numpy.ufunc.at."""
        M.at(self, a, indices, b)

    def reduceat(self, array: Any, indices: Any, axis: int = 0, dtype: Any = None, out: Any = None) -> DArray:
        """Reductions over the slices between consecutive ``indices`` along ``axis``. See also:
        numpy.ufunc.reduceat."""
        return M.reduceat(self, array, indices, axis, dtype, out)


def _divmod(x1: Any, x2: Any) -> tuple[DArray, DArray]:
    return E.apply("floor_divide", x1, x2), E.apply("remainder", x1, x2)


def _modf(x: Any) -> tuple[DArray, DArray]:
    """(fractional part with x's sign, integral part): NumPy's modf, inf -> (+-0, inf), NaN -> NaN."""
    x = _floating(x, np.modf)
    whole = E.apply("trunc", x)
    frac = E.apply("where", E.apply("isinf", x), 0.0, E.apply("subtract", x, whole))
    return E.apply("copysign", frac, x), whole


def _floating(x: Any, ref: np.ufunc) -> DArray:
    """``x`` as a DArray in the float dtype NumPy's ``ref`` computes it in."""
    x = x if isinstance(x, DArray) else asarray(x)
    return x.astype(ref.resolve_dtypes((x.dtype, None, None))[0], copy=False)


def _frexp(x: Any) -> tuple[DArray, DArray]:
    """(mantissa in [0.5, 1), int32 exponent) with x == m * 2**e; 0, inf and NaN give (x, 0)."""
    x = _floating(x, np.frexp)
    special = E.apply("logical_or", E.apply("equal", x, 0), E.apply("logical_not", E.apply("isfinite", x)))
    mag = E.apply("where", special, 1.0, E.apply("abs", x))
    e = E.apply("add", E.apply("floor", E.apply("log2", mag)), 1.0)
    m = E.apply("ldexp", x, E.apply("negative", e).astype(_dt.int32))
    big = E.apply("greater_equal", E.apply("abs", m), 1.0)  # log2 rounded up near a power of two
    small = E.apply("logical_and", E.apply("less", E.apply("abs", m), 0.5), E.apply("logical_not", special))
    m = E.apply("where", big, E.apply("multiply", m, 0.5), E.apply("where", small, E.apply("multiply", m, 2.0), m))
    e = E.apply("add", e, E.apply("subtract", big.astype(e.dtype), small.astype(e.dtype)))
    return E.apply("where", special, x, m), E.apply("where", special, 0, e).astype(_dt.int32)


def _table_ufunc(name: str, op: Op) -> ufunc:
    fn = E.function(op)
    ref = op.ref if isinstance(op.ref, np.ufunc) else None
    numpy_ufunc = getattr(np, name, ref) if isinstance(getattr(np, name, None), np.ufunc) else ref
    identity = numpy_ufunc.identity if numpy_ufunc is not None else None
    doc = fn.__doc__ or ""
    if ref is not None:
        doc = doc.replace(f"numpy.{ref.__name__}", f"numpy.{name}")
    return ufunc(name, op.arity, 1, identity, fn, doc, numpy_ufunc)


_TWO_OUTPUTS: dict[str, tuple[int, Callable[..., Any], str]] = {
    "divmod": (2, _divmod, "(x1 // x2, x1 % x2)"), "modf": (1, _modf, "(fractional, integral) parts"),
    "frexp": (1, _frexp, "(mantissa, exponent) with x == mantissa * 2**exponent")}

UFUNCS: dict[str, ufunc] = {
    **{op.name: _table_ufunc(op.name, op) for op in OPS if isinstance(op.ref, np.ufunc)},
    **{alias: _table_ufunc(alias, TABLE[name]) for alias, name in ALIASES.items() if isinstance(TABLE[name].ref,
                                                                                                 np.ufunc)},
    **{name: ufunc(name, nin, 2, None, fn, f"{doc}, elementwise.\n\nSee also: numpy.{name}", getattr(np, name))
       for name, (nin, fn, doc) in _TWO_OUTPUTS.items()},
}
# NumPy's ufunc -> darray's, the one of NumPy's own name winning over aliases (np.power: "power", not "pow")
BY_NUMPY: dict[Any, ufunc] = {u.numpy: u for u in sorted(UFUNCS.values(), key=lambda u: u.numpy is not None and
                                                         u.numpy.__name__ == u.__name__) if u.numpy is not None}
globals().update(UFUNCS)
if TYPE_CHECKING:  # the ufuncs made above, for type checkers (test_typing keeps this equal to UFUNCS)
    _ufunc = cast(ufunc, None)
    abs = absolute = acos = acosh = add = arccos = arccosh = arcsin = arcsinh = arctan = arctan2 = arctanh = _ufunc
    asin = asinh = atan = atan2 = atanh = bitwise_and = bitwise_count = bitwise_invert = bitwise_left_shift = _ufunc
    bitwise_not = bitwise_or = bitwise_right_shift = bitwise_xor = cbrt = ceil = conj = conjugate = copysign = _ufunc
    cos = cosh = deg2rad = degrees = divide = divmod = equal = exp = exp2 = expm1 = fabs = float_power = _ufunc
    floor = floor_divide = fmax = fmin = fmod = frexp = gcd = greater = greater_equal = heaviside = hypot = _ufunc
    invert = isfinite = isinf = isnan = lcm = ldexp = left_shift = less = less_equal = log = log10 = log1p = _ufunc
    log2 = logaddexp = logaddexp2 = logical_and = logical_not = logical_or = logical_xor = maximum = minimum = _ufunc
    mod = modf = multiply = negative = nextafter = not_equal = positive = pow = power = rad2deg = radians = _ufunc
    reciprocal = remainder = right_shift = rint = sign = signbit = sin = sinh = spacing = sqrt = square = _ufunc
    subtract = tan = tanh = true_divide = trunc = _ufunc
if not TYPE_CHECKING:  # type checkers star-import the public names, declared above
    __all__ = ["ufunc", *UFUNCS]
