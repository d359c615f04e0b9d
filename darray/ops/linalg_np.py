"""``numpy.linalg``'s functions beyond the Array API's: norm, cond, eig, eigvals, lstsq, multi_dot,
tensorinv, tensorsolve.

``norm`` and ``multi_dot`` run on the array's place (the 2, -2 and 'nuc' norms need singular
values, from NumPy on the host, as ``matrix_norm``); ``eig``, ``eigvals``, ``lstsq`` and ``cond``'s
2-norm use NumPy's LAPACK on the host, ``tensorinv``/``tensorsolve`` through ``inv``/``solve``.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .._array import DArray
from ..dim import normalize_axis
from ..transfer.convert import from_numpy
from . import elementwise as E
from ._out import finish
from .decomp import _lapack, _on_host, inv, solve
from .linalg import _inexact, _operands, matmul, matrix_norm, vector_norm
from .manipulation import moveaxis, reshape

LinAlgError = np.linalg.LinAlgError  # NumPy's own class: ``except np.linalg.LinAlgError`` catches darray's


class EigResult(NamedTuple):
    eigenvalues: DArray
    eigenvectors: DArray


class LstsqResult(NamedTuple):
    x: DArray
    residuals: DArray
    rank: int
    s: DArray


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> DArray:
    """NumPy's matrix or vector norm: of the flattened array (ord None), of each vector along an int
    ``axis``, or of each matrix over a 2-tuple ``axis``. See also: numpy.linalg.norm."""
    a = _inexact(_operands("norm", (x,))[0])
    if axis is None:
        if ord is None:
            return vector_norm(a, keepdims=keepdims)
        if a.ndim == 1:
            return vector_norm(a, ord=ord, keepdims=keepdims)
        if a.ndim == 2:
            return matrix_norm(a, ord=ord, keepdims=keepdims)
        raise ValueError("darray norm: Improper number of dimensions to norm.")
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    if len(axes) == 1:
        if isinstance(ord, str):
            raise ValueError(f"darray norm: Invalid norm order {ord!r} for vectors")
        return vector_norm(a, axis=axes[0], ord=2 if ord is None else ord, keepdims=keepdims)
    if len(axes) != 2:
        raise ValueError("darray norm: Improper number of dimensions to norm.")
    r, c = (normalize_axis(v, a.ndim) for v in axes)
    if r == c:
        raise ValueError("darray norm: Duplicate axes given.")
    res = matrix_norm(moveaxis(a, (r, c), (-2, -1)), ord="fro" if ord is None else ord)
    if keepdims:
        shape = [1 if k in (r, c) else n for k, n in enumerate(a.shape)]
        res = reshape(res, tuple(shape))
    return res


@_on_host
def cond(x: Any, p: Any = None) -> DArray:
    """Condition number of (a stack of) matrices in norm ``p`` (None and 2: the ratio of the extreme
    singular values; -2 the inverse; others through ``norm(x, p) * norm(inv(x), p)``). See also:
    numpy.linalg.cond."""
    if p is None or p in (2, -2):
        return _lapack("cond", lambda h: np.linalg.cond(h, p), x, square=False)
    a = _inexact(_operands("cond", (x,))[0])
    return E.apply("multiply", matrix_norm(a, ord=p), matrix_norm(inv(a), ord=p))


@_on_host
def eig(a: Any) -> EigResult:
    """Eigenvalues and right eigenvectors of (a stack of) square matrices (complex when NumPy's are).
    See also: numpy.linalg.eig."""
    w, v = _lapack("eig", np.linalg.eig, a)
    return EigResult(w, v)


@_on_host
def eigvals(a: Any) -> DArray:
    """Eigenvalues of (a stack of) square matrices. See also: numpy.linalg.eigvals."""
    return _lapack("eigvals", np.linalg.eigvals, a)


@_on_host
def lstsq(a: Any, b: Any, rcond: Any = None) -> LstsqResult:
    """Least-squares solution of ``a @ x = b``: (solution, residuals, rank, singular values), rank a
    NumPy int32 as NumPy's. See also: numpy.linalg.lstsq."""
    arrays = [_inexact(v) for v in _operands("lstsq", (a, b))]
    try:
        sol, res, rank, s = np.linalg.lstsq(arrays[0].get(), arrays[1].get(), rcond=rcond)
    except np.linalg.LinAlgError as err:
        raise np.linalg.LinAlgError(f"darray lstsq: {err}") from None
    place = arrays[0].place
    return LstsqResult(from_numpy(sol, place), from_numpy(res, place), np.int32(rank), from_numpy(s, place))


def _chain_order(dims: list[int]) -> list[list[int]]:
    """The cheapest parenthesisation of a matrix chain with sizes ``dims`` (split points, dynamic
    programming over the number of multiplications, as NumPy's)."""
    n = len(dims) - 1
    cost = [[0.0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def multi_dot(arrays: Sequence[Any], *, out: Any = None) -> DArray:
    """The product of two or more matrices in the cheapest order; the first may be 1-D (a row) and
    the last 1-D (a column), as NumPy. See also: numpy.linalg.multi_dot."""
    xs = _operands("multi_dot", tuple(arrays))
    if len(xs) < 2:
        raise ValueError("darray multi_dot: Expecting at least two arrays.")
    first_1d, last_1d = xs[0].ndim == 1, xs[-1].ndim == 1
    mats = [reshape(xs[0], (1, -1)) if first_1d else xs[0], *xs[1:-1],
            reshape(xs[-1], (-1, 1)) if last_1d else xs[-1]]
    if any(m.ndim != 2 for m in mats):
        raise ValueError("darray multi_dot: arrays must be 2-D (the first and last may be 1-D)")
    split = _chain_order([mats[0].shape[0], *(m.shape[1] for m in mats)])

    def product(i: int, j: int) -> DArray:
        if i == j:
            return mats[i]
        k = split[i][j]
        return matmul(product(i, k), product(k + 1, j))

    res = product(0, len(mats) - 1)
    if first_1d and last_1d:
        res = reshape(res, ())
    elif first_1d or last_1d:
        res = reshape(res, (-1,))
    return finish("multi_dot", res, out)


def tensorinv(a: Any, ind: int = 2) -> DArray:
    """The inverse of ``a`` for ``tensordot`` over its first ``ind`` axes. See also: numpy.linalg.tensorinv."""
    x = _operands("tensorinv", (a,))[0]
    if ind <= 0:
        raise ValueError("darray tensorinv: Invalid ind argument.")
    left, right = x.shape[:ind], x.shape[ind:]
    rows, cols = math.prod(left), math.prod(right)
    if rows != cols:
        raise ValueError("darray tensorinv: the first ind axes and the rest must hold equally many elements")
    return reshape(inv(reshape(x, (rows, cols))), right + left)


def tensorsolve(a: Any, b: Any, axes: Any = None) -> DArray:
    """The ``x`` with ``tensordot(a, x, x.ndim) == b``; ``axes`` are moved to the end first. See also:
    numpy.linalg.tensorsolve."""
    x, y = _operands("tensorsolve", (a, b))
    if axes is not None:
        axes = [normalize_axis(v, x.ndim) for v in axes]
        x = moveaxis(x, axes, [x.ndim - len(axes) + k for k in range(len(axes))])
    rest = x.shape[y.ndim:]
    rows, cols = y.size, math.prod(rest)
    if rows != cols:
        raise np.linalg.LinAlgError("darray tensorsolve: input arrays must satisfy prod(a.shape[b.ndim:]) == "
                                    "prod(b.shape)")
    return reshape(solve(reshape(x, (rows, cols)), reshape(y, (rows, 1))), rest)


__all__ = ["norm", "cond", "eig", "eigvals", "lstsq", "multi_dot", "tensorinv", "tensorsolve", "LinAlgError",
           "EigResult", "LstsqResult"]
