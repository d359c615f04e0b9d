"""Linear algebra: matmul (``@``), tensordot, vecdot, matrix_transpose, outer, dot, trace, and
the functions of ``darray.linalg`` (vector_norm, matrix_norm, diagonal).

``matmul`` dispatches like every op (places, promotion, then the implementation registered
for the place kind); on OpenCL places ``_gemm`` picks the GEMM kernel or host BLAS on mapped
buffers (``DARRAY_MATMUL=auto|kernel|host``). The rest is built from matmul, lazy
elementwise ops, reductions and views, so most of it stays on the device and fuses.
"""
from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from .. import dtypes as _dt
from .._array import READ_ONLY, DArray
from ..dim import Dim, broadcast_shapes, normalize_axes, normalize_axis
from ..lazy import at_once, host
from ..place import CLPlace
from ..transfer.convert import asarray, empty, from_numpy
from . import _dispatch as D
from . import _gemm
from . import elementwise as E
from . import reduction as R
from ._out import finish

# (``dot``, ``outer`` and ``trace`` here are the cores of NumPy's, ``ops.mathfuncs``, and of darray.linalg's)
__all__ = ["matmul", "tensordot", "vecdot", "matrix_transpose"]


def _operands(name: str, args: tuple[Any, ...]) -> list[DArray]:
    """The arguments as DArrays on one place (ValueError naming both places when they differ)."""
    args, place = D.operands(name, args)
    return [a if isinstance(a, DArray) else asarray(a, device=place) for a in args]


def _fmt(shape: tuple[int, ...]) -> str:
    return f"({shape[0]},)" if len(shape) == 1 else "(" + ",".join(map(str, shape)) + ")"


# -- matmul -------------------------------------------------------------------------------
def matmul(x1: Any, x2: Any, /, out: Any = None) -> DArray:
    """Matrix product with NumPy's rules: 1-D operands are promoted to a row (x1) or a column
    (x2) and the added axis removed again; leading (batch) axes broadcast; written into ``out``
    when given (NumPy's ufunc rule: a same_kind cast).

    0-d operands and mismatched inner dimensions raise ValueError. dtypes promote as
    ``numpy.matmul`` (bool computes OR of ANDs; integers wrap). See also: numpy.matmul.
    """
    if out is not None:
        return finish("matmul", matmul(x1, x2), out)
    done = _matmul_now(x1, x2)
    if done is not None:
        return done
    a, b = _operands("matmul", (x1, x2))
    for i, x in enumerate((a, b)):
        if x.ndim == 0:
            raise ValueError(f"darray matmul: operand {i} is 0-d (shape ()); matmul needs at least one dimension "
                             "(use multiply for scalars)")
    a_shape = a.shape if a.ndim > 1 else (1,) + a.shape
    b_shape = b.shape if b.ndim > 1 else b.shape + (1,)
    if a_shape[-1] != b_shape[-2]:
        raise ValueError(f"darray matmul: shapes {_fmt(a.shape)} and {_fmt(b.shape)} are not aligned: "
                         f"{a_shape[-1]} (last axis of x1) != {b_shape[-2]} "
                         f"({'axis -2' if b.ndim > 1 else 'axis 0'} of x2)")
    try:
        batch = broadcast_shapes(a_shape[:-2], b_shape[:-2])
    except ValueError:
        raise ValueError(f"darray matmul: the batch dimensions of shapes {_fmt(a.shape)} and {_fmt(b.shape)} "
                         "do not broadcast") from None
    m, k, n = a_shape[-2], a_shape[-1], b_shape[-1]
    shape = batch + ((m,) if a.ndim > 1 else ()) + ((n,) if b.ndim > 1 else ())
    dtype = _dt.result_type(a.dtype, b.dtype)
    return D.implementation("matmul", a.place)(a, b, dtype, batch, (m, k, n), shape)


@D.register("matmul", "cpu")
def _matmul_cpu(a: DArray, b: DArray, dtype: np.dtype, batch: tuple[int, ...], mkn: tuple[int, int, int],
                shape: tuple[int, ...]) -> DArray:
    with np.errstate(all="ignore"):
        res = np.matmul(a._host_view(), b._host_view())
    return from_numpy(np.asarray(res).astype(dtype, copy=False), a.place)


def _matrix(x: DArray, dim: Dim) -> DArray:
    """``x`` with a 1-D operand promoted to a row/column matrix (given as ``dim``)."""
    return DArray(x._data(), dim, x.dtype, x.place)


@D.register("matmul", "cl")
def _matmul_cl(a: DArray, b: DArray, dtype: np.dtype, batch: tuple[int, ...], mkn: tuple[int, int, int],
               shape: tuple[int, ...]) -> DArray:
    place = cast(CLPlace, a.place)
    dtype = D.device_dtype(dtype, place)
    m, k, n = mkn
    full = batch + (m, n)
    if math.prod(full) == 0 or k == 0:
        from .creation import zeros

        return zeros(full, dtype=dtype, device=place).reshape(shape)
    path = _gemm.choose(place, dtype, math.prod(full) * k)
    # float16 computes in float32 on the kernel path (closer to exact than rounding every step)
    compute = _dt.float32 if dtype == _dt.float16 and path == "kernel" else dtype
    if path == "kernel":
        a, b = (x if x.dtype == compute else x.astype(compute) for x in (a, b))
    a_dim = a._dim if a.ndim > 1 else a._dim.expand_dims(0)
    b_dim = b._dim if b.ndim > 1 else b._dim.expand_dims(1)
    out = empty(full, compute, place)
    if path == "host":
        _gemm.run_host(_matrix(a, a_dim), _matrix(b, b_dim), out)
    else:
        _gemm.run_kernel(_matrix(a, a_dim), _matrix(b, b_dim), out)
    return (out if compute == dtype else out.astype(dtype)).reshape(shape)


def _matmul_now(a: Any, b: Any) -> DArray | None:
    """``a @ b`` by NumPy as it is called, into a new array: for DArrays of one place, of 1 or 2
    dimensions, that the host engine may read (``host.view``), a product it takes
    (``_gemm.choose``); else None (and for shapes that do not fit: the caller raises darray's error)."""
    if type(a) is not DArray or type(b) is not DArray or a._place is not b._place:
        return None
    va = host.view(a)
    vb = host.view(b) if va is not None else None
    if va is None or vb is None or not 0 < va.ndim <= 2 or not 0 < vb.ndim <= 2 or va.shape[-1] != vb.shape[0]:
        return None
    dtype = np.promote_types(a._dtype, b._dtype)
    rows = va.shape[0] if va.ndim == 2 else 1
    cols = vb.shape[1] if vb.ndim == 2 else 1
    place = cast(CLPlace, a._place)
    if not rows * cols * va.shape[-1] or _gemm.choose(place, dtype, rows * cols * va.shape[-1]) != "host":
        return None
    if va.ndim == vb.ndim == 1:  # an inner product: a 0-d result held as its value
        return at_once.held(host.quietly(np.matmul, va, vb), dtype, place)
    made = at_once.fresh(place, va.shape[:-1] + vb.shape[1:], dtype)
    if made is None:
        return None
    host.quietly(np.matmul, va, vb, out=made[1])
    return made[0]


# -- built on matmul ------------------------------------------------------------------------
def _axes_list(axes: Any, ndim: int, what: str) -> list[int]:
    seq = [axes] if isinstance(axes, (int, np.integer)) else list(axes)
    return [normalize_axis(ax, ndim, f"darray tensordot ({what})") for ax in seq]


def tensordot(a: Any, b: Any, axes: Any = 2) -> DArray:
    """Sum products over ``axes``: an int n (the last n axes of a with the first n of b) or a
    pair of axis sequences. The result has a's free axes, then b's. See also: numpy.tensordot."""
    a, b = _operands("tensordot", (a, b))
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        n = operator.index(axes)
        if n < 0 or n > a.ndim or n > b.ndim:
            raise ValueError(f"darray tensordot: axes={n} must be in [0, min(x1.ndim, x2.ndim)] for shapes "
                             f"{_fmt(a.shape)} and {_fmt(b.shape)}")
        ax_a, ax_b = list(range(a.ndim - n, a.ndim)), list(range(n))
    else:
        try:
            first, second = axes
        except (TypeError, ValueError):
            raise TypeError("darray tensordot: axes must be an int or a pair of axis sequences, "
                            f"got {axes!r}") from None
        ax_a, ax_b = _axes_list(first, a.ndim, "x1"), _axes_list(second, b.ndim, "x2")
    if len(ax_a) != len(ax_b) or len(set(ax_a)) != len(ax_a) or len(set(ax_b)) != len(ax_b):
        raise ValueError(f"darray tensordot: axes {ax_a} of x1 and {ax_b} of x2 must be distinct and equally many")
    for i, j in zip(ax_a, ax_b):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"darray tensordot: shape-mismatch for sum: axis {i} of x1 {_fmt(a.shape)} has size "
                             f"{a.shape[i]}, axis {j} of x2 {_fmt(b.shape)} has size {b.shape[j]}")
    free_a = [i for i in range(a.ndim) if i not in ax_a]
    free_b = [j for j in range(b.ndim) if j not in ax_b]
    ksize = math.prod(a.shape[i] for i in ax_a)
    a2 = a.transpose(free_a + ax_a).reshape(math.prod(a.shape[i] for i in free_a), ksize)
    b2 = b.transpose(ax_b + free_b).reshape(ksize, math.prod(b.shape[j] for j in free_b))
    return matmul(a2, b2).reshape(tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b))


def dot(a: Any, b: Any, /) -> DArray:
    """NumPy's ``dot``: a product for 0-d operands, the inner product of 1-D ones, matmul for
    2-D, and for N-D a sum over the last axis of ``a`` and the second-to-last of ``b``.
    See also: numpy.dot."""
    done = _matmul_now(a, b)  # 1-D and 2-D operands: NumPy's dot is its matmul
    if done is not None:
        return done
    x, y = _operands("dot", (a, b))  # Python scalars become arrays, as numpy.dot does
    if x.ndim == 0 or y.ndim == 0:
        return E.apply("multiply", x, y)
    ky = -2 if y.ndim > 1 else -1
    if x.shape[-1] != y.shape[ky]:
        raise ValueError(f"darray dot: shapes {_fmt(x.shape)} and {_fmt(y.shape)} not aligned: "
                         f"{x.shape[-1]} (dim {x.ndim - 1}) != {y.shape[ky]} (dim {y.ndim + ky})")
    if x.ndim <= 2 and y.ndim <= 2 or x.ndim == 1 or y.ndim == 1:
        return matmul(x, y)
    return tensordot(x, y, axes=([x.ndim - 1], [y.ndim - 2]))


def matrix_transpose(x: Any, /) -> DArray:
    """The last two axes swapped (a view). See also: numpy.matrix_transpose."""
    x = _operands("matrix_transpose", (x,))[0]
    if x.ndim < 2:
        raise ValueError(f"darray matrix_transpose: needs at least 2 dimensions, got shape {_fmt(x.shape)}")
    return x.mT


def vecdot(x1: Any, x2: Any, /, out: Any = None, *, axis: int = -1) -> DArray:
    """Dot product of vectors along ``axis`` (conjugating x1 for complex), broadcasting the other
    axes; the multiply fuses into the sum; written into ``out`` when given (a same_kind cast).
    See also: numpy.vecdot."""
    if out is not None:
        return finish("vecdot", vecdot(x1, x2, axis=axis), out)
    a, b = _operands("vecdot", (x1, x2))
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("darray vecdot: operands must have at least one dimension")
    ia, ib = normalize_axis(axis, a.ndim, "darray vecdot"), normalize_axis(axis, b.ndim, "darray vecdot")
    if a.shape[ia] != b.shape[ib]:
        raise ValueError(f"darray vecdot: shapes {_fmt(a.shape)} and {_fmt(b.shape)} differ along axis {axis} "
                         f"({a.shape[ia]} != {b.shape[ib]})")
    if ia != a.ndim - 1:  # (a view: a pending operand would run first; on the last axis it fuses instead)
        a = a.transpose([i for i in range(a.ndim) if i != ia] + [ia])
    if ib != b.ndim - 1:
        b = b.transpose([i for i in range(b.ndim) if i != ib] + [ib])
    dtype = _dt.result_type(a.dtype, b.dtype)
    if dtype.kind == "b":
        return R.any(E.apply("logical_and", a, b), axis=-1)
    prod = E.apply("multiply", E.apply("conj", a) if a.dtype.kind == "c" else a, b)
    return R.sum(prod, axis=-1, dtype=dtype)


def outer(x1: Any, x2: Any, /) -> DArray:
    """Outer product of the flattened inputs (NumPy's ``outer``); lazy, like multiply.
    See also: numpy.outer (``darray.linalg.outer`` takes 1-D inputs only)."""
    a, b = _operands("outer", (x1, x2))
    return E.apply("multiply", a.reshape(-1, 1), b.reshape(1, -1))


def linalg_outer(x1: Any, x2: Any, /) -> DArray:
    """Outer product of two 1-D arrays (Array API ``linalg.outer``). See also: numpy.linalg.outer."""
    a, b = _operands("linalg.outer", (x1, x2))
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"darray linalg.outer: inputs must be 1-D, got shapes {_fmt(a.shape)} and {_fmt(b.shape)}")
    return outer(a, b)


# -- diagonal, trace ----------------------------------------------------------------------------
def diagonal(x: Any, /, *, offset: int = 0) -> DArray:
    """The ``offset`` diagonal of the last two axes, as a read-only strided view (no copy): shape
    ``x.shape[:-2] + (n,)``. See also: numpy.linalg.diagonal."""
    x = _operands("diagonal", (x,))[0]
    if x.ndim < 2:
        raise ValueError(f"darray diagonal: needs at least 2 dimensions, got shape {_fmt(x.shape)}")
    offset = operator.index(offset)
    d = x._dim
    rows, cols = d.shape[-2:]
    sr, sc = d.strides[-2:]
    n = max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols))
    start = d.offset + ((offset * sc if offset >= 0 else -offset * sr) if n else 0)
    dim = Dim(d.shape[:-2] + (n,), d.strides[:-2] + (sr + sc,), start)
    return x._view(dim, readonly=READ_ONLY)  # read-only, as NumPy's


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> DArray:
    """Sum of the ``offset`` diagonal of the last two axes (Array API; NumPy's ``trace`` with
    ``axis1=-2, axis2=-1``). Default dtype as ``sum``: small integers widen to int64.
    See also: numpy.trace."""
    return R.sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


# -- norms ---------------------------------------------------------------------------------------
def _inexact(x: DArray) -> DArray:
    """Integers and bool become the default floating dtype first, as NumPy's norms do."""
    if x.dtype.kind in "fc":
        return x
    from .creation import default_float

    return x.astype(default_float(x.place))


def _abs2(x: DArray) -> DArray:
    if x.dtype.kind == "c":
        return E.apply("real", E.apply("multiply", x, E.apply("conj", x)))
    return E.apply("multiply", x, x)


def vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> DArray:
    """Vector norm over ``axis`` (None: all elements): ord 2 (default), 1, inf, -inf, 0 (count
    of non-zeros) or any other p, ``sum(|x|**p)**(1/p)``. The result is real floating (float64
    for integer input). Lazy and fused on OpenCL places. See also: numpy.linalg.vector_norm."""
    x = _inexact(_operands("vector_norm", (x,))[0])
    if isinstance(ord, str) or isinstance(ord, bool) or not isinstance(ord, (int, float, np.integer, np.floating)):
        raise ValueError(f"darray vector_norm: invalid norm order {ord!r}; use a number, inf or -inf")
    axes = normalize_axes(axis, x.ndim, "darray vector_norm")
    real = _dt.real_dtype(x.dtype)
    if ord == 2:
        return E.apply("sqrt", R.sum(_abs2(x), axis=axes, keepdims=keepdims))
    if ord == 0:
        return R.sum(E.apply("not_equal", x, 0), axis=axes, keepdims=keepdims, dtype=real)
    mag = E.apply("abs", x)
    if ord == 1:
        return R.sum(mag, axis=axes, keepdims=keepdims)
    if ord == math.inf:  # NumPy: 0 for an empty vector (the largest of no magnitudes, which are >= 0)
        if 0 in (x.shape[a] for a in (range(x.ndim) if axes is None else axes)):
            return R.sum(mag, axis=axes, keepdims=keepdims)
        return R.max(mag, axis=axes, keepdims=keepdims)
    if ord == -math.inf:
        return R.min(mag, axis=axes, keepdims=keepdims)
    p = float(ord)
    return E.apply("pow", R.sum(E.apply("pow", mag, p), axis=axes, keepdims=keepdims), 1.0 / p)


def _singular(x: DArray, ord: Any, keepdims: bool) -> DArray:
    """2, -2 and 'nuc' norms from singular values computed by NumPy on the host."""
    host = x.get()
    s = np.linalg.svd(host, compute_uv=False) if host.size else np.zeros(host.shape[:-2] + (0,), host.dtype)
    reducers: dict[Any, Callable[..., Any]] = {2: np.max, -2: np.min, "nuc": np.sum}
    fn = reducers[ord]
    res = np.asarray(fn(s, axis=-1)).astype(_dt.real_dtype(x.dtype))
    if keepdims:
        res = res[..., None, None]
    return from_numpy(res, x.place)


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> DArray:
    """Matrix norm over the last two axes: 'fro' (default), 1, -1, inf, -inf (column or row
    sums of |x|, reduced by max or min) on the device; 2, -2 and 'nuc' need singular values,
    which NumPy computes on the host (a copy to and from the device). The result is real
    floating. See also: numpy.linalg.matrix_norm."""
    x = _inexact(_operands("matrix_norm", (x,))[0])
    if x.ndim < 2:
        raise ValueError(f"darray matrix_norm: needs at least 2 dimensions, got shape {_fmt(x.shape)}")
    if isinstance(ord, str):
        if ord == "fro":
            return E.apply("sqrt", R.sum(_abs2(x), axis=(-2, -1), keepdims=keepdims))
        if ord == "nuc":
            return _singular(x, ord, keepdims)
    elif not isinstance(ord, bool) and ord in (2, -2):
        return _singular(x, int(ord), keepdims)
    elif not isinstance(ord, bool) and ord in (1, -1, math.inf, -math.inf):
        sum_axis = -2 if abs(ord) == 1 else -1
        sums = R.sum(E.apply("abs", x), axis=sum_axis, keepdims=True)
        pick = R.max if ord > 0 else R.min
        res = pick(sums, axis=-1 if sum_axis == -2 else -2, keepdims=True)
        return res if keepdims else res.reshape(x.shape[:-2])
    raise ValueError(f"darray matrix_norm: invalid norm order {ord!r}; use 'fro', 'nuc', 1, -1, 2, -2, inf or -inf")
