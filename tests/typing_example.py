"""Typed use of darray, checked by mypy in ``test_typing.py`` (not collected by pytest)."""
from __future__ import annotations

import numpy as np

import darray as da


def standardise(x: da.DArray) -> da.DArray:
    centred = x - da.mean(x, axis=0, keepdims=True)
    return centred / da.sqrt(da.var(x, axis=0, correction=1, keepdims=True) + 1e-6)


def pipeline() -> tuple[np.ndarray, float, tuple[int, ...]]:
    x = da.asarray(np.arange(12.0).reshape(3, 4), device="cpu")
    y = da.where(x > 2, da.sin(x) * 2.0, -x) @ x.T
    z = da.concat([standardise(y), da.zeros((1, 3), dtype=da.float32)], axis=0)
    z += 1
    w = da.linalg.matrix_power(da.linalg.inv(y + da.eye(3)), 2)
    s = float(da.sum(da.abs(w), dtype=da.float64))
    info = da.__array_namespace_info__()
    assert info.default_device() == x.device and x.__array_namespace__() is da
    return np.asarray(z), s, da.unique_values(da.astype(x, da.int32)).shape
