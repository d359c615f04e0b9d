"""Sorting and sets (issue 13): the device radix sort and unique against NumPy.

Figures to reach, from one run on the default device:
- ``sort`` of 4M float32: >= 1x ``np.sort`` (wall, result read back);
- ``argsort`` of 4M float32: >= 1x ``np.argsort``;
- ``unique_values`` of 4M int32 drawn from 1000 values: reported against ``np.unique_values``
  (its radix sort takes two passes: the high digits never vary).
"""
from __future__ import annotations

import numpy as np

import darray as da

from .harness import Run, case, versus


def _floats(run: Run) -> tuple[np.ndarray, da.DArray]:
    host = np.random.default_rng(0).standard_normal(run.pick(4 << 20, 1 << 20), dtype=np.float32)
    return host, da.asarray(host, device=run.place)


@case("sort_4M", family="sorting")
def sort(run: Run) -> None:
    """``da.sort`` of 4M float32 against ``np.sort``."""
    host, x = _floats(run)
    versus(run, "sort", lambda: da.sort(x), lambda: np.sort(host), ">= 1", "sort of 4M float32")


@case("argsort_4M", family="sorting")
def argsort(run: Run) -> None:
    """``da.argsort`` of 4M float32 against ``np.argsort``."""
    host, x = _floats(run)
    versus(run, "argsort", lambda: da.argsort(x), lambda: np.argsort(host), ">= 1", "argsort of 4M float32")


@case("unique_values_4M", family="sorting")
def unique_values(run: Run) -> None:
    """``da.unique_values`` of 4M int32 drawn from 1000 values against ``np.unique_values``."""
    host = np.random.default_rng(0).integers(0, 1000, run.pick(4 << 20, 1 << 20)).astype(np.int32)
    x = da.asarray(host, device=run.place)
    versus(run, "unique_values", lambda: da.unique_values(x), lambda: np.unique_values(host), None,
            "unique_values, 4M int32 of 1000 values")
