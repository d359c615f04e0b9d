"""The multivariate distributions of :class:`darray.random.Generator`: multinomial (a chain of
binomials), dirichlet (normalised gammas), multivariate_hypergeometric (a chain of
hypergeometrics) and multivariate_normal (normals times a factor of the covariance from
darray.linalg)."""
from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..ops import ufunc as U
from ..ops.decomp import cholesky, eigh, svd
from ..ops.linalg import matmul
from ..ops.manipulation import stack
from ..ops.selection import where
from ..place import Place, PlaceLike
from ..transfer.convert import asarray
from ._distributions import Number, Source, _log_gamma
from ._params import Param, broadcast, float_dtype, host_values, on_place, place_of, shape_of


def _host(value: Any) -> np.ndarray:
    return np.asarray(value.get() if isinstance(value, DArray) else value, dtype=np.float64)


def _chain(g: Source, kind: str, steps: Sequence[tuple[Number, ...]], total: Number, batch: tuple[int, ...],
           place: Place) -> DArray:
    """Counts of the categories by a chain of draws: the j-th count is ``kind(*steps[j], remaining)``
    (the first parameters, then what is left of ``total``); the last category takes the rest."""
    counts, left = [], total
    for params in steps:
        x = g._sample(kind, (*params[:-1], left, params[-1]) if kind == "binomial" else (*params, left), batch,
                      _dt.int64, place)
        counts.append(x)
        left = left - x
    last = left if isinstance(left, DArray) else asarray(np.full(batch, left, np.int64), device=place)
    return stack([*counts, last], axis=-1)


class Multivariate:
    """The multivariate methods (a base of :class:`darray.random.Generator`)."""

    def multinomial(self: Source, n: Any, pvals: Any, size: Any = None, *, device: PlaceLike = None,
                    place: PlaceLike = None) -> DArray:
        """Counts of ``n`` trials over the categories of ``pvals`` (its last axis; the last category
        takes what the others leave), by a chain of binomials. ``n`` and ``pvals[..., :-1]`` broadcast.
        See also: numpy.random.Generator.multinomial (darray's streams differ)."""
        op = "multinomial"
        at = place_of(device, place, op, n, pvals)
        pv = _host(pvals)
        if pv.ndim == 0 or pv.shape[-1] == 0:
            raise ValueError(f"darray random.{op}: pvals must have at least 1 dimension and the last dimension "
                             f"of pvals must be greater than 0")
        if not np.all((pv >= 0) & (pv <= 1)):
            raise ValueError(f"darray random.{op}: pvals < 0, pvals > 1 or pvals contains NaNs")
        if np.any(pv[..., :-1].sum(axis=-1) > 1 + 1e-12):
            raise ValueError(f"darray random.{op}: sum(pvals[:-1]) > 1.0")
        nh = host_values(op, Param("n", rules=("ge0",), integer=True), n)
        batch = broadcast(op, size, [nh.shape, pv.shape[:-1]])
        left = 1 - (np.cumsum(pv, axis=-1) - pv)  # probability not yet assigned before each category
        with np.errstate(divide="ignore", invalid="ignore"):
            cond = np.clip(np.where(left > 0, pv / left, 0), 0, 1)
        dt = float_dtype(None, at, op)
        steps = [(on_place(None, cond[..., j], dt, at),) for j in range(pv.shape[-1] - 1)]
        return _chain(self, "binomial", steps, on_place(n, nh, _dt.int64, at), batch, at)

    def dirichlet(self: Source, alpha: Any, size: Any = None, *, device: PlaceLike = None,
                  place: PlaceLike = None) -> DArray:
        """Dirichlet(alpha) vectors: gammas of ``alpha`` normalised, in log space (tiny alpha too).
        See also: numpy.random.Generator.dirichlet (darray's streams differ)."""
        op = "dirichlet"
        at = place_of(device, place, op, alpha)
        a = host_values(op, Param("alpha", rules=("ge0",)), alpha)
        if a.ndim != 1:
            raise ValueError(f"darray random.{op}: alpha must be one-dimensional, got shape {a.shape}")
        dt = float_dtype(None, at, op)
        shape = shape_of(size, op) + a.shape
        weights = asarray(a.astype(dt), device=at)
        logs = _log_gamma(self, shape, dt, at, weights)
        w = where(weights > 0, U.exp(logs - logs.max(axis=-1, keepdims=True)), 0)  # alpha 0: 0, as NumPy's
        total = w.sum(axis=-1, keepdims=True)
        return w / where(total > 0, total, 1)

    def multivariate_hypergeometric(self: Source, colors: Any, nsample: int, size: Any = None,
                                    method: str = "marginals", *, device: PlaceLike = None,
                                    place: PlaceLike = None) -> DArray:
        """Counts of each color among ``nsample`` items drawn without replacement from ``colors``,
        by a chain of hypergeometrics. See also: numpy.random.Generator.multivariate_hypergeometric
        (differs: both methods are the chain, and ``sum(colors)`` must be below 10**9)."""
        op = "multivariate_hypergeometric"
        if method not in ("count", "marginals"):
            raise ValueError(f'darray random.{op}: method must be "count" or "marginals", got {method!r}')
        at = place_of(device, place, op, colors)
        col = np.asarray(colors.get() if isinstance(colors, DArray) else colors)
        if col.ndim != 1 or col.dtype.kind not in "iu" and col.size or np.any(col < 0):
            raise ValueError(f"darray random.{op}: colors must be a one-dimensional sequence of nonnegative "
                             f"integers, got {colors!r}")
        if not isinstance(nsample, (int, np.integer)) or isinstance(nsample, bool):
            raise ValueError(f"darray random.{op}: nsample must be an integer, got {nsample!r}")
        col, total = col.astype(np.int64), int(col.sum())
        if nsample < 0 or nsample > total:
            raise ValueError(f"darray random.{op}: nsample > sum(colors) or nsample < 0 ({nsample}, {total})")
        if total >= 10**9:
            raise ValueError(f"darray random.{op}: sum(colors) must be less than 1000000000, got {total}")
        batch = shape_of(size, op)
        if col.size == 0:
            return asarray(np.zeros(batch + (0,), np.int64), device=at)
        rest = total - np.cumsum(col)
        return _chain(self, "hypergeometric", [(int(c), int(r)) for c, r in zip(col[:-1], rest[:-1])], int(nsample),
                      batch, at)

    def multivariate_normal(self: Source, mean: Any, cov: Any, size: Any = None, check_valid: str = "warn",
                            tol: float = 1e-8, *, method: str = "svd", device: PlaceLike = None,
                            place: PlaceLike = None) -> DArray:
        """Normal vectors of ``mean`` and ``cov``: ``standard_normal @ F.T + mean`` with ``F F^T = cov``
        from darray.linalg's ``svd`` (``U sqrt(S)``), ``eigh`` or ``cholesky``; ``check_valid`` ("warn",
        "raise", "ignore") checks that cov is positive semi-definite within ``tol``.
        See also: numpy.random.Generator.multivariate_normal (darray's streams differ)."""
        op = "multivariate_normal"
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError(f"darray random.{op}: check_valid must equal 'warn', 'raise', or 'ignore'")
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError(f"darray random.{op}: method must be one of {{'eigh', 'svd', 'cholesky'}}")
        at = place_of(device, place, op, mean, cov)
        dt = float_dtype(None, at, op)
        m, c = (asarray(_host(v).astype(dt), device=at) for v in (mean, cov))
        if m.ndim != 1:
            raise ValueError(f"darray random.{op}: mean must be 1 dimensional")
        if c.ndim != 2 or c.shape[0] != c.shape[1]:
            raise ValueError(f"darray random.{op}: cov must be 2 dimensional and square")
        if m.shape[0] != c.shape[0]:
            raise ValueError(f"darray random.{op}: mean and cov must have same length")
        psd = True
        if method == "svd":
            u, s, vh = svd(c)
            factor = u * U.sqrt(s)
            if check_valid != "ignore":
                psd = np.allclose(((vh.T * s) @ vh).get(), c.get(), rtol=tol, atol=tol)
        elif method == "eigh":
            s, u = eigh(c)
            factor = u * U.sqrt(U.absolute(s))
            psd = check_valid == "ignore" or not np.any(s.get() < -tol)
        else:
            factor = cholesky(c)
        if not psd:
            if check_valid == "raise":
                raise ValueError(f"darray random.{op}: covariance is not symmetric positive-semidefinite.")
            warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning, stacklevel=2)
        shape = shape_of(size, op) + m.shape
        z = self.standard_normal(shape, dt, device=at)
        return (matmul(z.reshape(-1, m.shape[0]), factor.T) + m).reshape(shape)
