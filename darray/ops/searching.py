"""Searching: searchsorted.

The rest of the family lives with the machinery it shares: ``argmax``/``argmin`` and
``count_nonzero`` with the reductions, ``where`` with the elementwise ops, ``nonzero`` with
indexing (mask compaction). On OpenCL places each work-item binary-searches a run of the
values (``kernels/search.cl``); the ``cpu`` place goes through NumPy.
"""
from __future__ import annotations

from typing import Any, Literal

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..place import CLPlace, Place
from ..transfer.convert import astype, check_dtype, empty, from_numpy
from . import _dispatch as D
from ._kernel import launch, origin
from .taking import take

__all__ = ["searchsorted"]


def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> DArray:
    """Indices (int64) at which the values of ``v`` would be inserted into the sorted 1-d ``a``
    to keep it sorted: the first position with ``a[i] >= v`` (``side="left"``) or ``> v``
    (``"right"``). ``sorter``: indices that sort ``a``. NaN sorts after everything, as in NumPy.

    See also: numpy.searchsorted. Like NumPy, ``a`` is not checked for being sorted."""
    name = "searchsorted"
    if side not in ("left", "right"):
        raise ValueError(f"darray {name}: side must be 'left' or 'right', got {side!r}")
    (a, v), place = D.operands(name, (a, v))
    if not isinstance(a, DArray) or a.ndim != 1:
        raise ValueError(f"darray {name}: a must be a 1-d array, got {np.ndim(a)} dimensions")
    v = v if isinstance(v, DArray) else from_numpy(np.asarray(v), place)
    dt = _dt.result_type(a.dtype, v.dtype)
    if dt.kind == "c":
        raise TypeError(f"darray {name}: complex arrays are not ordered (got {dt})")
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
