"""Searching: searchsorted.

The rest of the family lives with the machinery it shares: ``argmax``/``argmin`` and
``count_nonzero`` with the reductions, ``where`` with the elementwise ops, ``nonzero`` with
indexing (mask compaction). On OpenCL places each work-item binary-searches a run of the
values (``kernels/search.cl``); complex values are ranked by the complex sort instead
(:func:`_complex_ranks`); the ``cpu`` place goes through NumPy.
"""
from __future__ import annotations

from typing import Any, Literal

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..place import CLPlace, Place
from ..transfer.convert import astype, check_dtype, empty, from_numpy
from . import _dispatch as D
from . import elementwise as E
from ._kernel import launch, origin
from .manipulation import concat
from .scan import cumulative_sum
from .sorting import complex_argsort
from .taking import take

__all__ = ["searchsorted"]


def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> DArray:
    """Indices (int64) at which the values of ``v`` would be inserted into the sorted 1-d ``a``
    to keep it sorted: the first position with ``a[i] >= v`` (``side="left"``) or ``> v``
    (``"right"``). ``sorter``: indices that sort ``a``. NaN sorts after everything and complex
    values are ordered lexicographically (NaNs as :func:`darray.sort` places them), as in NumPy.

    See also: numpy.searchsorted. Like NumPy, ``a`` is not checked for being sorted."""
    name = "searchsorted"
    if side not in ("left", "right"):
        raise ValueError(f"darray {name}: side must be 'left' or 'right', got {side!r}")
    (a, v), place = D.operands(name, (a, v))
    if not isinstance(a, DArray) or a.ndim != 1:
        raise ValueError(f"darray {name}: a must be a 1-d array, got {np.ndim(a)} dimensions")
    v = v if isinstance(v, DArray) else from_numpy(np.asarray(v), place)
    dt = _dt.result_type(a.dtype, v.dtype)
    if sorter is not None:
        a = take(a, sorter)
    return D.implementation(name, place)(a, v, dt, side, place)


@D.register("searchsorted", "cpu")
def _searchsorted_cpu(a: DArray, v: DArray, dt: np.dtype, side: Literal["left", "right"], place: Place) -> DArray:
    """searchsorted through NumPy, both compared in ``dt``."""
    found = np.searchsorted(a._host_view().astype(dt, copy=False), v._host_view().astype(dt, copy=False), side=side)
    return from_numpy(np.asarray(found, np.int64), place)


@D.register("searchsorted", "cl")
def _searchsorted_cl(a: DArray, v: DArray, dt: np.dtype, side: str, place: CLPlace) -> DArray:
    """searchsorted in one launch of ``kernels/search.cl``, both compared in ``dt``."""
    name = "searchsorted"
    check_dtype(dt, place, name)
    a = astype(a, dt, copy=False)
    if dt.kind == "c":
        return _complex_ranks(a, astype(v, dt, copy=False), side)
    v = astype(v, dt, copy=not v._dim.is_c_contiguous or v.dtype != dt)
    out = empty(v.shape, _dt.int64, place)
    if out.size:
        options = f"-D T={_dt.ctype(dt)}" + (" -D T_FLOAT" if dt.kind == "f" else "") + \
            (" -D SIDE_RIGHT" if side == "right" else "") + (" -D DARRAY_FP64=1" if dt == _dt.float64 else "") + \
            (" -D DARRAY_FP16=1" if dt == _dt.float16 else "")
        (ab, a_o), (vb, v_o), (ob, o_o) = (origin(t) for t in (a, v, out))
        launch(name, place, "search.cl", options, out.size,
               [ab.buffer, a_o, np.int64(a._dim.strides[0] if a.size else 1), np.int64(a.size),
                vb.buffer, v_o, ob.buffer, o_o], reads=[ab, vb], writes=[ob], nbytes=v.nbytes + out.nbytes)
    return out


def _complex_ranks(a: DArray, v: DArray, side: str) -> DArray:
    """searchsorted of the complex ``v`` in ``a`` (both of one dtype) by one stable sort
    of both: ``v`` ahead of ``a`` (left) or after it (right), so a value's rank is the count of
    the items of ``a`` sorted before it, equal ones included for side="right"."""
    na, nv = a.size, v.size
    right = side == "right"
    both = concat([a, v.reshape(-1)] if right else [v.reshape(-1), a])
    order = complex_argsort(both, 0)
    from_a = E.apply("less", order, na) if right else E.apply("greater_equal", order, nv)
    ranks = empty((na + nv,), _dt.int64, a.place)
    ranks[order] = cumulative_sum(from_a, dtype=_dt.int64)
    return (ranks[na:] if right else ranks[:nv]).reshape(v.shape)
